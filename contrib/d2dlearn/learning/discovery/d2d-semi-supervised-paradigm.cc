/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-semi-supervised-paradigm.h"

#include "d2d-distributed-pca.h"
#include "d2d-label-propagation.h"
#include "d2d-mlp-labeller.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dSemiSupervisedParadigm");
NS_OBJECT_ENSURE_REGISTERED(D2dSemiSupervisedParadigm);

TypeId
D2dSemiSupervisedParadigm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dSemiSupervisedParadigm")
            .SetParent<D2dSupervisedParadigm>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dSemiSupervisedParadigm>()
            .AddAttribute("PcaDims",
                          "d: dimension of the common subspace F of distributed PCA",
                          UintegerValue(50),
                          MakeUintegerAccessor(&D2dSemiSupervisedParadigm::m_pcaDims),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PcaLocalRank",
                          "t: singular vectors each device sends (0: d)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dSemiSupervisedParadigm::m_localRank),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LabelledFraction",
                          "Share of each device's points that is labelled",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&D2dSemiSupervisedParadigm::m_labelledFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Knn",
                          "k of label propagation's symmetric k-nearest-neighbour graph",
                          UintegerValue(7),
                          MakeUintegerAccessor(&D2dSemiSupervisedParadigm::m_knn),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BytesPerValue",
                          "Bytes per matrix entry of the PCA messages (4: float32)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&D2dSemiSupervisedParadigm::m_bytesPerValue),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("Labeller",
                          "Labels the unlabelled points: label propagation on the "
                          "distributed-PCA projections (sec. V-A1), or a local MLP on the raw "
                          "features (App. D-D; ns3::D2dMlpLabeller)",
                          EnumValue(D2dSemiSupervisedParadigm::PROPAGATION),
                          D2dMakeEnumAccessor(&D2dSemiSupervisedParadigm::m_labeller),
                          MakeEnumChecker(D2dSemiSupervisedParadigm::PROPAGATION,
                                          "propagation",
                                          D2dSemiSupervisedParadigm::MLP,
                                          "mlp"));
    return tid;
}

D2dSemiSupervisedParadigm::D2dSemiSupervisedParadigm()
{
}

void
D2dSemiSupervisedParadigm::DoDispose()
{
    m_pca = nullptr;
    m_mlp = nullptr;
    m_data = Data();
    D2dSupervisedParadigm::DoDispose();
}

bool
D2dSemiSupervisedParadigm::UsesServer() const
{
    return m_labeller == PROPAGATION;
}

Ptr<D2dPcaExchange>
D2dSemiSupervisedParadigm::GetPcaExchange() const
{
    return m_pca;
}

void
D2dSemiSupervisedParadigm::Prepare(const Data& data, Callback<void> done)
{
    NS_LOG_FUNCTION(this);
    m_data = data;
    SetData(data.train, data.shards);
    ChooseLabelled(data.seed);
    if (m_labeller == MLP)
    {
        // App. D-D: "a small, completely local classification model at each device": no
        // distributed PCA; each device trains its MLP on its labelled points (no simulated
        // cost, as the propagation's) and discovery starts once all have labelled.
        LabelWithMlp(Callback<void>([this, done]() { Labelled(done); }));
        return;
    }
    // The devices' SVDs on the worker pool (--threads), one BLAS thread each: the same bits
    // whatever the threads.
    std::vector<std::vector<double>> sketches(m_shards.size());
    D2dTorchRuntime::ParallelFor(sketches.size(), [&](std::size_t i) { sketches[i] = Sketch(i); });
    m_pca = CreateObject<D2dPcaExchange>();
    m_pca->SetAttribute("BytesPerValue", UintegerValue(m_bytesPerValue));
    m_pca->Setup(data.server, std::move(sketches), GetFeatureSize(), m_pcaDims);
    m_pca->SetFinishedCallback(Callback<void, const std::vector<double>&, const std::vector<bool>&>(
        [this, done](const std::vector<double>& basis, const std::vector<bool>& reached) {
            // A device that F did not reach labels on its own top-d subspace.
            Label(basis, reached);
            Labelled(done);
        }));
    m_pca->Start();
}

void
D2dSemiSupervisedParadigm::Labelled(Callback<void> done)
{
    NS_LOG_FUNCTION(this);
    for (uint32_t i = 0; i < m_shards.size(); ++i)
    {
        // The propagated labels stand for the unknown ones from here on.
        const auto& assigned = GetAssigned(i);
        for (std::size_t k = 0; k < assigned.size(); ++k)
        {
            m_data.train->labels[m_shards[i].indices[k]] = assigned[k];
        }
    }
    D2dSupervisedParadigm::Prepare(m_data, done);
}

void
D2dSemiSupervisedParadigm::SetData(std::shared_ptr<const D2dDataset> train,
                                   std::vector<D2dShard> shards)
{
    NS_ABORT_MSG_UNLESS(train && train->IsClassification(),
                        "D2dSemiSupervisedParadigm: a labelled training set is needed");
    m_train = std::move(train);
    m_shards = std::move(shards);
    m_truth.assign(m_shards.size(), {});
    for (std::size_t i = 0; i < m_shards.size(); ++i)
    {
        NS_ABORT_MSG_UNLESS(m_shards[i].labelMap.empty(),
                            "D2dSemiSupervisedParadigm: shards with a label map are not supported");
        for (std::size_t k = 0; k < m_shards[i].indices.size(); ++k)
        {
            m_truth[i].push_back(m_shards[i].LabelOf(*m_train, k));
        }
    }
    m_labelled.clear();
    m_assigned.clear();
    m_iterations.clear();
}

void
D2dSemiSupervisedParadigm::ChooseLabelled(uint64_t seed)
{
    m_seed = seed;
    m_labelled.clear();
    for (uint32_t i = 0; i < m_truth.size(); ++i)
    {
        m_labelled.push_back(
            D2dLabelPropagation::ChooseLabelled(m_truth[i], m_labelledFraction, seed, i));
    }
}

std::vector<double>
D2dSemiSupervisedParadigm::Features(uint32_t device) const
{
    const D2dShard& shard = m_shards.at(device);
    const std::size_t dim = GetFeatureSize();
    std::vector<double> x;
    x.reserve(shard.indices.size() * dim);
    for (std::size_t idx : shard.indices)
    {
        const float* s = m_train->Sample(idx);
        x.insert(x.end(), s, s + dim);
    }
    return x;
}

std::size_t
D2dSemiSupervisedParadigm::GetFeatureSize() const
{
    return m_train ? m_train->FeatureSize() : 0;
}

uint32_t
D2dSemiSupervisedParadigm::GetPcaDims() const
{
    return m_pcaDims;
}

uint32_t
D2dSemiSupervisedParadigm::GetLocalRank() const
{
    return m_localRank > 0 ? m_localRank : m_pcaDims;
}

uint32_t
D2dSemiSupervisedParadigm::GetBytesPerValue() const
{
    return m_bytesPerValue;
}

std::vector<double>
D2dSemiSupervisedParadigm::Sketch(uint32_t device) const
{
    const std::size_t n = m_shards.at(device).indices.size();
    if (n == 0)
    {
        return {}; // an empty sketch: nothing to contribute
    }
    return D2dDistributedPca::LocalSketch(Features(device), n, GetFeatureSize(), GetLocalRank());
}

void
D2dSemiSupervisedParadigm::Label(const std::vector<double>& basis, const std::vector<bool>& reached)
{
    NS_ABORT_MSG_IF(m_labelled.size() != m_shards.size(),
                    "D2dSemiSupervisedParadigm: ChooseLabelled before Label");
    const std::size_t dim = GetFeatureSize();
    NS_ABORT_MSG_IF(basis.size() % dim != 0,
                    "D2dSemiSupervisedParadigm: F^T must be d rows of D values");
    NS_ABORT_MSG_IF(!reached.empty() && reached.size() != m_shards.size(),
                    "D2dSemiSupervisedParadigm: one reached flag per device");
    m_assigned.assign(m_shards.size(), {});
    m_iterations.assign(m_shards.size(), 0);
    m_common.assign(m_shards.size(), false);
    for (uint32_t i = 0; i < m_shards.size(); ++i)
    {
        m_common[i] = !basis.empty() && (reached.empty() || reached[i]);
    }
    // Each device on its own (the worker pool: each writes its own slots only).
    D2dTorchRuntime::ParallelFor(m_shards.size(), [&](std::size_t i) {
        const std::size_t n = m_shards[i].indices.size();
        if (n == 0)
        {
            return; // nothing to label
        }
        const std::vector<double> x = Features(i);
        std::vector<double> local;
        if (!m_common[i])
        {
            // F did not reach i: its own top-d right singular vectors.
            std::vector<double> values;
            local = D2dDistributedPca::TopRightSingular(x, n, dim, m_pcaDims, values);
        }
        const std::vector<double>& f = m_common[i] ? basis : local;
        const std::size_t d = f.size() / dim;
        const auto projected = D2dDistributedPca::Project(x, n, dim, f, d);
        std::vector<int64_t> given(n, -1);
        for (std::size_t k = 0; k < n; ++k)
        {
            if (m_labelled[i][k])
            {
                given[k] = m_truth[i][k];
            }
        }
        auto res =
            D2dLabelPropagation::Propagate(projected, n, d, given, m_train->numClasses, m_knn);
        m_assigned[i] = std::move(res.labels);
        m_iterations[i] = res.iterations;
    });
    for (uint32_t i = 0; i < m_shards.size(); ++i)
    {
        NS_LOG_INFO("device " << i << ": propagation accuracy " << GetAccuracy(i) << " after "
                              << m_iterations[i] << " iterations on the "
                              << (m_common[i] ? "common" : "local") << " subspace");
    }
}

void
D2dSemiSupervisedParadigm::LabelWithMlp(Callback<void> done,
                                        const std::vector<Ptr<D2dComputeModel>>& compute)
{
    NS_ABORT_MSG_IF(m_labelled.size() != m_shards.size(),
                    "D2dSemiSupervisedParadigm: ChooseLabelled before LabelWithMlp");
    std::vector<std::vector<std::size_t>> points;
    std::vector<std::vector<int64_t>> given;
    for (uint32_t i = 0; i < m_shards.size(); ++i)
    {
        points.push_back(m_shards[i].indices);
        given.emplace_back(m_shards[i].indices.size(), -1);
        for (std::size_t k = 0; k < m_shards[i].indices.size(); ++k)
        {
            if (m_labelled[i][k])
            {
                given.back()[k] = m_truth[i][k];
            }
        }
    }
    auto mlp = CreateObject<D2dMlpLabeller>();
    mlp->Setup(m_train, points, given, m_seed);
    mlp->SetComputeModels(compute);
    m_mlp = mlp;
    mlp->Start(Callback<void>([this, done]() {
        Ptr<D2dMlpLabeller> labeller = DynamicCast<D2dMlpLabeller>(m_mlp);
        m_assigned.assign(m_shards.size(), {});
        m_iterations.assign(m_shards.size(), 0);
        m_common.assign(m_shards.size(), false);
        for (uint32_t i = 0; i < m_shards.size(); ++i)
        {
            m_assigned[i] = labeller->GetLabels(i);
            m_iterations[i] = static_cast<uint32_t>(labeller->GetSteps(i));
            NS_LOG_INFO("device " << i << ": MLP labelling accuracy " << GetAccuracy(i) << " after "
                                  << m_iterations[i] << " steps");
        }
        if (!done.IsNull())
        {
            done();
        }
    }));
}

D2dSemiSupervisedParadigm::Labeller
D2dSemiSupervisedParadigm::GetLabeller() const
{
    return m_labeller;
}

bool
D2dSemiSupervisedParadigm::UsedCommonSubspace(uint32_t device) const
{
    return m_common.at(device);
}

const std::vector<int64_t>&
D2dSemiSupervisedParadigm::GetAssigned(uint32_t device) const
{
    return m_assigned.at(device);
}

const std::vector<bool>&
D2dSemiSupervisedParadigm::GetLabelled(uint32_t device) const
{
    return m_labelled.at(device);
}

D2dFractionalCounts
D2dSemiSupervisedParadigm::AssignedCounts(uint32_t device) const
{
    D2dFractionalCounts c(m_train->numClasses, 0.0);
    for (int64_t l : m_assigned.at(device))
    {
        c.at(l) += 1;
    }
    return c;
}

double
D2dSemiSupervisedParadigm::GetAccuracy(uint32_t device) const
{
    const auto& a = m_assigned.at(device);
    if (a.empty())
    {
        return 1.0;
    }
    std::size_t right = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
    {
        right += a[k] == m_truth[device][k];
    }
    return static_cast<double>(right) / a.size();
}

double
D2dSemiSupervisedParadigm::GetUnlabelledAccuracy(uint32_t device) const
{
    const auto& a = m_assigned.at(device);
    std::size_t right = 0;
    std::size_t total = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
    {
        if (!m_labelled[device][k])
        {
            ++total;
            right += a[k] == m_truth[device][k];
        }
    }
    return total ? static_cast<double>(right) / total : 1.0;
}

uint32_t
D2dSemiSupervisedParadigm::GetIterations(uint32_t device) const
{
    return m_iterations.at(device);
}

} // namespace ns3
