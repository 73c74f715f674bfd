/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-mlp-labeller.h"

#include "ns3/abort.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMlpLabeller");
NS_OBJECT_ENSURE_REGISTERED(D2dMlpLabeller);

namespace
{
/// Offset of the labellers' seed from the run seed: their initial weights and batch orders
/// are not the downstream learners' draws (which are seeded from the run seed and the id).
constexpr uint64_t LABELLER_SEED_OFFSET = 0x4d4c504c4142454cULL; // "MLPLABEL"
} // namespace

TypeId
D2dMlpLabeller::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dMlpLabeller")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dMlpLabeller>()
                            .AddAttribute("Hidden",
                                          "ReLU units of the MLP's one hidden layer",
                                          UintegerValue(64),
                                          MakeUintegerAccessor(&D2dMlpLabeller::m_hidden),
                                          MakeUintegerChecker<uint32_t>(1, 100000))
                            .AddAttribute("Epochs",
                                          "Passes over each device's labelled points",
                                          UintegerValue(100),
                                          MakeUintegerAccessor(&D2dMlpLabeller::m_epochs),
                                          MakeUintegerChecker<uint32_t>(1, 1000000))
                            .AddAttribute("LearningRate",
                                          "Adam's learning rate",
                                          DoubleValue(1e-3),
                                          MakeDoubleAccessor(&D2dMlpLabeller::m_learningRate),
                                          MakeDoubleChecker<double>(0, 1e3))
                            .AddAttribute("BatchSize",
                                          "Mini-batch size, labelled points",
                                          UintegerValue(32),
                                          MakeUintegerAccessor(&D2dMlpLabeller::m_batchSize),
                                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

D2dMlpLabeller::D2dMlpLabeller()
{
}

D2dMlpLabeller::~D2dMlpLabeller()
{
}

void
D2dMlpLabeller::DoDispose()
{
    m_learners.clear();
    m_compute.clear();
    m_callback = Callback<void>();
    Object::DoDispose();
}

void
D2dMlpLabeller::Setup(std::shared_ptr<const D2dDataset> data,
                      const std::vector<std::vector<std::size_t>>& points,
                      const std::vector<std::vector<int64_t>>& given,
                      uint64_t seed)
{
    NS_ABORT_MSG_UNLESS(data && data->IsClassification(),
                        "D2dMlpLabeller: a classification data set is needed");
    NS_ABORT_MSG_IF(points.size() != given.size(),
                    "D2dMlpLabeller: one list of given labels per device");
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        NS_ABORT_MSG_IF(points[i].size() != given[i].size(),
                        "D2dMlpLabeller: device " << i << ": one given label per point");
        for (int64_t l : given[i])
        {
            NS_ABORT_MSG_IF(l >= static_cast<int64_t>(data->numClasses),
                            "D2dMlpLabeller: device " << i << ": label " << l << " out of range");
        }
    }
    m_data = std::move(data);
    m_points = points;
    m_given = given;
    m_seed = seed;
    m_learners.assign(points.size(), nullptr);
    m_labels.assign(points.size(), {});
    m_steps.assign(points.size(), 0);
    m_loss.assign(points.size(), 0.0);
    m_done = false;
}

void
D2dMlpLabeller::SetComputeModels(const std::vector<Ptr<D2dComputeModel>>& compute)
{
    m_compute = compute;
}

void
D2dMlpLabeller::LabelTrivially(uint32_t i)
{
    // No labelled point: nothing to learn from (every point -1 stays unknown: label 0);
    // one label only: the classifier could only answer it.
    int64_t only = 0;
    for (int64_t l : m_given[i])
    {
        if (l >= 0)
        {
            only = l;
            break;
        }
    }
    m_labels[i].assign(m_points[i].size(), only);
    for (std::size_t k = 0; k < m_points[i].size(); ++k)
    {
        if (m_given[i][k] >= 0)
        {
            m_labels[i][k] = m_given[i][k];
        }
    }
}

void
D2dMlpLabeller::Start(Callback<void> done)
{
    NS_ABORT_MSG_IF(!m_data, "D2dMlpLabeller: Setup before Start");
    m_callback = done;
    m_pending = 0;
    const D2dModelSpec spec = D2dModelSpec::Parse("mlp:" + std::to_string(m_hidden));
    const uint64_t seed = m_seed ^ LABELLER_SEED_OFFSET;
    for (uint32_t i = 0; i < m_points.size(); ++i)
    {
        std::vector<std::size_t> labelled;
        std::vector<int64_t> labels;
        for (std::size_t k = 0; k < m_points[i].size(); ++k)
        {
            if (m_given[i][k] >= 0)
            {
                labelled.push_back(m_points[i][k]);
                labels.push_back(m_given[i][k]);
            }
        }
        std::vector<int64_t> present = labels;
        std::sort(present.begin(), present.end());
        present.erase(std::unique(present.begin(), present.end()), present.end());
        if (present.size() < 2)
        {
            LabelTrivially(i);
            continue;
        }
        // The device's labelled points as it holds them: its given labels, its raw features.
        auto set = m_data->Subset(labelled);
        set->labels = std::move(labels);
        D2dShard shard;
        shard.indices.resize(set->Size());
        std::iota(shard.indices.begin(), shard.indices.end(), 0);
        auto learner = CreateObject<D2dLearner>();
        learner->SetAttribute("Optimizer", EnumValue(D2dLearner::ADAM));
        learner->SetAttribute("LearningRate", DoubleValue(m_learningRate));
        learner->SetAttribute("BatchSize", UintegerValue(m_batchSize));
        learner->Setup(i, spec, std::shared_ptr<const D2dDataset>(set), shard, seed);
        if (i < m_compute.size() && m_compute[i])
        {
            learner->SetComputeModel(m_compute[i]);
        }
        m_learners[i] = learner;
        D2dTrainTask task;
        task.epochs = m_epochs;
        const bool started = learner->Train(
            task,
            Callback<void, const D2dTrainResult&>(
                [this, i](const D2dTrainResult& r) { Completed(i, r.steps, r.meanLoss); }));
        if (!started)
        {
            // A depleted device cannot train: it labels as if it held one label.
            m_learners[i] = nullptr;
            LabelTrivially(i);
            continue;
        }
        ++m_pending;
    }
    if (m_pending == 0)
    {
        Simulator::ScheduleNow(&D2dMlpLabeller::Completed, this, UINT32_MAX, 0, 0.0);
    }
}

void
D2dMlpLabeller::Completed(uint32_t i, uint64_t steps, double loss)
{
    if (i != UINT32_MAX)
    {
        m_steps[i] = steps;
        m_loss[i] = loss;
        const auto all = m_data->Subset(m_points[i]);
        const auto out = m_learners[i]->Predict(*all);
        const std::size_t c = m_data->numClasses;
        const std::size_t n = m_points[i].size();
        NS_ABORT_MSG_IF(out.size() != n * c, "D2dMlpLabeller: n x C predictions expected");
        m_labels[i].assign(n, 0);
        for (std::size_t k = 0; k < n; ++k)
        {
            if (m_given[i][k] >= 0)
            {
                m_labels[i][k] = m_given[i][k]; // labelled points keep their labels
                continue;
            }
            const auto row = out.begin() + k * c;
            m_labels[i][k] = std::max_element(row, row + c) - row;
        }
        NS_LOG_INFO("device " << i << ": MLP labeller, " << steps << " steps, mean loss " << loss);
        NS_ABORT_MSG_IF(m_pending == 0, "D2dMlpLabeller: a completion too many");
        if (--m_pending > 0)
        {
            return;
        }
    }
    m_done = true;
    if (!m_callback.IsNull())
    {
        m_callback();
    }
}

const std::vector<int64_t>&
D2dMlpLabeller::GetLabels(uint32_t device) const
{
    return m_labels.at(device);
}

uint64_t
D2dMlpLabeller::GetSteps(uint32_t device) const
{
    return m_steps.at(device);
}

double
D2dMlpLabeller::GetMeanLoss(uint32_t device) const
{
    return m_loss.at(device);
}

bool
D2dMlpLabeller::IsDone() const
{
    return m_done;
}

} // namespace ns3
