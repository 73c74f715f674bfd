/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-cmfl-rules": what CMFL's rules (Che et al., "A Decentralized Federated
 * Learning Framework via Committee Mechanism with Convergence Guarantee", IEEE TPDS 2022)
 * need from the simulator: D2dFedAvg's Aggregation strategy and update-tamper hook with real
 * learners. The pure rules (the committee's scoring, selection and election, the Byzantine
 * attacks, the robust aggregations) are unit-tested with GoogleTest: test/gtest/.
 *
 * Every expected number is computed by hand in the comments (or, for the FedAvg hooks,
 * from the devices' own trained weights, independently of the protocol).
 */

#include "d2d-test-fixtures.h"

#include "ns3/d2d-byzantine-attack.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-median-aggregation.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------------------
// D2dFedAvg's hooks, with real learners on the Gaussian mixture of Fan et al. 2023 (logistic
// model).

/** One FedAvg run of 3 devices, 1 round. */
struct HookSetup
{
    std::string variant{"fedavg"};
    double globalLearningRate{1.0};
    Ptr<D2dAggregationStrategy> aggregation; //!< null: the default (mean)
    D2dFedAvg::UpdateTamper tamper;
};

/** What a run showed. */
struct HookOutcome
{
    std::vector<float> initial;                      //!< w^0
    std::vector<float> global;                       //!< w^1
    std::map<uint32_t, std::vector<float>> trained;  //!< device -> w_k after training
    std::map<uint32_t, std::vector<float>> gradient; //!< FedSGD: device -> g_k
    std::vector<double> samples;                     //!< n_k
};

const uint32_t kDevices = 3;

HookOutcome
RunHooks(const HookSetup& s)
{
    const D2dTestData& data = GaussianTestData(11, 12, 300, 100);
    NodeContainer nodes = MakeTestNodesOnLine(kDevices, 10.0);
    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    d2d.SetInitialEnergyJ(1e9);
    d2d.Install(nodes);
    Ptr<D2dChannel> d2s = d2d.InstallServer(CreateObject<Node>(), nodes, 3.0);
    d2d.AssignStreams(10);
    // Unequal shards (quantity skew), so that the n_k-weighting matters.
    const auto shards = D2dPartitioner::QuantitySkew(*data.train, kDevices, 1.0, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("logistic");
    HookOutcome out;
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < kDevices; ++i)
    {
        auto l = MakeTestLearner(nodes, i, spec, data.train, shards, 3, 0.5);
        out.samples.push_back(static_cast<double>(l->GetNSamples()));
        l->TraceConnectWithoutContext(
            "TrainingDone",
            Callback<void, uint32_t, Time, Time, const D2dTrainResult&>(
                [&out, l](uint32_t id, Time, Time, const D2dTrainResult& r) {
                    out.trained[id] = l->GetParameters();
                    if (r.gradient)
                    {
                        out.gradient[id] = *r.gradient;
                    }
                }));
        learners.push_back(l);
    }
    out.initial = learners[0]->GetParameters();
    auto fl = CreateObjectWithAttributes<D2dFedAvg>("Variant",
                                                    StringValue(s.variant),
                                                    "GlobalLearningRate",
                                                    DoubleValue(s.globalLearningRate));
    fl->SetAttribute("Rounds", UintegerValue(1));
    fl->SetAttribute("LocalEpochs", UintegerValue(1));
    fl->SetLearners(learners);
    fl->SetTestSet(data.test);
    fl->SetD2sTransports(d2s->GetTransports(), D2dDeliveryMode::RELIABLE);
    fl->AssignStreams(100);
    if (s.aggregation)
    {
        fl->SetAttribute("Aggregation", PointerValue(s.aggregation));
    }
    if (!s.tamper.IsNull())
    {
        fl->SetUpdateTamper(s.tamper);
    }
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFedAvg::Start, fl);
    Simulator::Stop(Seconds(1e6)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.global = fl->GetGlobalModel();
    Simulator::Destroy();
    return out;
}

/** \return max_j |a_j - b_j| */
double
MaxDiff(const std::vector<float>& a, const std::vector<double>& b)
{
    double m = 0;
    for (std::size_t j = 0; j < a.size(); ++j)
    {
        m = std::max(m, std::fabs(static_cast<double>(a[j]) - b[j]));
    }
    return m;
}

/** The coordinate-wise median, recording what the server hands it. */
class RecordingMedian : public D2dMedianAggregation
{
  public:
    std::vector<float> Aggregate(const Vectors& g,
                                 const std::vector<double>& weights,
                                 uint32_t participants) const override
    {
        for (const auto& v : g)
        {
            input.push_back(*v);
        }
        inputWeights = weights;
        inputParticipants = participants;
        return D2dMedianAggregation::Aggregate(g, weights, participants);
    }

    mutable std::vector<std::vector<float>> input; //!< the g_k of the last call
    mutable std::vector<double> inputWeights;      //!< the n_k of the last call
    mutable uint32_t inputParticipants{0};         //!< participants of the last call
};

/** D2dFedAvg's Aggregation strategy and update tamper. */
class FedAvgHooksTestCase : public TestCase
{
  public:
    FedAvgHooksTestCase()
        : TestCase("FedAvg: median Aggregation, back-gradient tamper, defaults = unchanged")
    {
    }

  private:
    void DoRun() override
    {
        // No hooks: w^1 = w^0 - 1 (w^0 - sum_k (n_k/n) w_k), the protocol's own arithmetic
        // (double, rounded once to float) reproduced bit for bit, and the weighted average
        // computed here independently within float rounding.
        const HookOutcome plain = RunHooks({});
        NS_TEST_ASSERT_MSG_EQ(plain.trained.size(), kDevices, "every device trained");
        if (plain.trained.size() != kDevices)
        {
            return; // reported above; the checks below would index what is missing
        }
        CheckNoHooks(plain);
        if (IsStatusFailure())
        {
            return;
        }
        CheckIdentityTamper(plain);
        if (IsStatusFailure())
        {
            return;
        }
        double medianVsMean = 0;
        CheckMedian(plain, medianVsMean);
        if (IsStatusFailure())
        {
            return;
        }
        CheckBackGradient(plain, medianVsMean);
        if (IsStatusFailure())
        {
            return;
        }
        CheckFedSgd(plain);
    }

    /**
     * No hooks: the global model is w^0 - 1 (w^0 - sum_k (n_k/n) w_k) bit for bit, and the
     * weighted average within float rounding.
     * \param plain the run without hooks, every device trained
     */
    void CheckNoHooks(const HookOutcome& plain)
    {
        const std::size_t size = plain.initial.size();
        const double n = plain.samples[0] + plain.samples[1] + plain.samples[2];
        D2dRobustAggregation::Vectors trained;
        for (uint32_t k = 0; k < kDevices; ++k)
        {
            trained.push_back(std::make_shared<const std::vector<float>>(plain.trained.at(k)));
        }
        const auto wa = D2dRobustAggregation::Mean(trained, plain.samples);
        std::vector<float> expected(size);
        std::vector<double> average(size);
        for (std::size_t j = 0; j < size; ++j)
        {
            const double g = static_cast<double>(plain.initial[j]) - wa[j];
            expected[j] = static_cast<float>(plain.initial[j] - 1.0 * g);
            for (uint32_t k = 0; k < kDevices; ++k)
            {
                average[j] += plain.samples[k] * plain.trained.at(k)[j] / n;
            }
        }
        NS_TEST_ASSERT_MSG_EQ((plain.global == expected), true, "unset: bit for bit as before");
        NS_TEST_ASSERT_MSG_LT(MaxDiff(plain.global, average), 1e-6, "weighted average");
    }

    /**
     * A tamper that changes nothing: the same model bit for bit; it sees g_k = w^0 - w_k
     * of every device once.
     * \param plain the run without hooks, every device trained
     */
    void CheckIdentityTamper(const HookOutcome& plain)
    {
        const std::size_t size = plain.initial.size();
        std::map<uint32_t, std::vector<float>> seen;
        HookSetup idle;
        idle.tamper = D2dFedAvg::UpdateTamper(
            [&seen](uint32_t device, std::vector<float>& g) { seen[device] = g; });
        const HookOutcome untouched = RunHooks(idle);
        NS_TEST_ASSERT_MSG_EQ((untouched.global == plain.global), true, "identity tamper");
        NS_TEST_ASSERT_MSG_EQ(seen.size(), kDevices, "tamper called per device");
        if (seen.size() != kDevices || untouched.trained.size() != kDevices)
        {
            return; // reported above; the checks below would index what is missing
        }
        bool gk = true;
        for (const auto& [device, g] : seen)
        {
            for (std::size_t j = 0; j < size; ++j)
            {
                gk = gk && g[j] == plain.initial[j] - untouched.trained.at(device)[j];
            }
        }
        NS_TEST_ASSERT_MSG_EQ(gk, true, "the tamper sees g_k = w^0 - w_k");
    }

    /**
     * Median rule, eta = 1: w^1 = w^0 - median_k (w^0 - w_k), coordinate-wise, the middle of
     * the three sorted values computed here; the rule gets the g_k, n_k and participants.
     * \param plain the run without hooks, every device trained
     * \param medianVsMean [out] max_j |median-rule model - plain model|
     */
    void CheckMedian(const HookOutcome& plain, double& medianVsMean)
    {
        const std::size_t size = plain.initial.size();
        HookSetup median;
        auto recorder = CreateObject<RecordingMedian>();
        median.aggregation = recorder;
        const std::vector<std::vector<float>>& ruleInput = recorder->input;
        const HookOutcome med = RunHooks(median);
        NS_TEST_ASSERT_MSG_EQ((med.trained == plain.trained), true, "same local training");
        NS_TEST_ASSERT_MSG_EQ(ruleInput.size(), kDevices, "the rule gets 3 gradients");
        if (ruleInput.size() != kDevices)
        {
            return; // reported above; the checks below would index what is missing
        }
        NS_TEST_ASSERT_MSG_EQ((recorder->inputWeights == plain.samples), true, "and the n_k");
        NS_TEST_ASSERT_MSG_EQ(recorder->inputParticipants, kDevices, "and the sampled count");
        std::vector<float> expectedMedian(size);
        medianVsMean = 0;
        bool ascending = true;
        for (std::size_t j = 0; j < size; ++j)
        {
            std::vector<float> column;
            for (uint32_t k = 0; k < kDevices; ++k)
            {
                const float g = plain.initial[j] - plain.trained.at(k)[j];
                ascending = ascending && ruleInput[k][j] == g; // device order 0, 1, 2
                column.push_back(g);
            }
            std::sort(column.begin(), column.end());
            expectedMedian[j] =
                static_cast<float>(plain.initial[j] - 1.0 * static_cast<double>(column[1]));
            medianVsMean =
                std::max(medianVsMean,
                         std::fabs(static_cast<double>(expectedMedian[j]) - plain.global[j]));
        }
        NS_TEST_ASSERT_MSG_EQ(ascending, true, "g_k = w^0 - w_k in ascending device order");
        NS_TEST_ASSERT_MSG_EQ((med.global == expectedMedian), true, "w^0 - median g_k");
        NS_TEST_ASSERT_MSG_GT(medianVsMean, 1e-3, "the median differs from the mean");
    }

    /**
     * Back-gradient tamper on device 1: it sends w^0 - (-(w^0 - w_1)) = w^0 + (w^0 - w_1);
     * the server's weighted average moves by (n_1 / n) 2 (w^0 - w_1).
     * \param plain the run without hooks, every device trained
     * \param medianVsMean max_j |median-rule model - plain model| (CheckMedian), printed
     */
    void CheckBackGradient(const HookOutcome& plain, double medianVsMean)
    {
        const std::size_t size = plain.initial.size();
        const double n = plain.samples[0] + plain.samples[1] + plain.samples[2];
        HookSetup back;
        back.tamper = D2dFedAvg::UpdateTamper([](uint32_t device, std::vector<float>& g) {
            if (device == 1)
            {
                D2dByzantineAttack::Apply(D2dAttackType::BACK_GRADIENT, g, nullptr);
            }
        });
        const HookOutcome attacked = RunHooks(back);
        NS_TEST_ASSERT_MSG_EQ((attacked.trained == plain.trained), true, "same local training");
        std::vector<double> byHand(size);
        std::vector<double> shifted(size);
        for (std::size_t j = 0; j < size; ++j)
        {
            const double w0 = plain.initial[j];
            const double w1 = w0 + (w0 - plain.trained.at(1)[j]);
            byHand[j] = (plain.samples[0] * plain.trained.at(0)[j] + plain.samples[1] * w1 +
                         plain.samples[2] * plain.trained.at(2)[j]) /
                        n;
            shifted[j] =
                plain.global[j] + plain.samples[1] / n * 2.0 * (w0 - plain.trained.at(1)[j]);
        }
        NS_TEST_ASSERT_MSG_LT(MaxDiff(attacked.global, byHand), 1e-6, "tampered average");
        NS_TEST_ASSERT_MSG_LT(MaxDiff(attacked.global, shifted), 1e-6, "shift (n_1/n) 2 g_1");
        NS_TEST_ASSERT_MSG_GT(MaxDiff(plain.global, shifted), 1e-3, "the attack is visible");
        std::printf("FedAvg hooks: %zu parameters, n_k = %g %g %g; max |median - mean| %.3g, "
                    "max shift by the back gradient %.3g\n",
                    size,
                    plain.samples[0],
                    plain.samples[1],
                    plain.samples[2],
                    medianVsMean,
                    MaxDiff(plain.global, shifted));
    }

    /**
     * FedSGD, eta = 0.5, back gradient on device 0 and the median rule:
     * w^1 = w^0 - 0.5 median(-g_0, g_1, g_2).
     * \param plain the run without hooks (the model's size)
     */
    void CheckFedSgd(const HookOutcome& plain)
    {
        const std::size_t size = plain.initial.size();
        HookSetup sgd;
        sgd.variant = "fedsgd";
        sgd.globalLearningRate = 0.5;
        sgd.aggregation = CreateObject<D2dMedianAggregation>();
        sgd.tamper = D2dFedAvg::UpdateTamper([](uint32_t device, std::vector<float>& g) {
            if (device == 0)
            {
                D2dByzantineAttack::Apply(D2dAttackType::BACK_GRADIENT, g, nullptr);
            }
        });
        const HookOutcome fedsgd = RunHooks(sgd);
        NS_TEST_ASSERT_MSG_EQ(fedsgd.gradient.size(), kDevices, "three gradients");
        if (fedsgd.gradient.size() != kDevices)
        {
            return; // reported above; the checks below would index what is missing
        }
        std::vector<float> expectedSgd(size);
        for (std::size_t j = 0; j < size; ++j)
        {
            std::vector<float> column{-fedsgd.gradient.at(0)[j],
                                      fedsgd.gradient.at(1)[j],
                                      fedsgd.gradient.at(2)[j]};
            std::sort(column.begin(), column.end());
            expectedSgd[j] =
                static_cast<float>(fedsgd.initial[j] - 0.5 * static_cast<double>(column[1]));
        }
        NS_TEST_ASSERT_MSG_EQ((fedsgd.global == expectedSgd), true, "FedSGD: w - eta median");
    }
};

class D2dCmflRulesTestSuite : public TestSuite
{
  public:
    D2dCmflRulesTestSuite()
        : TestSuite("d2d-cmfl-rules")
    {
        AddTestCase(new FedAvgHooksTestCase);
    }
};

static D2dCmflRulesTestSuite g_d2dCmflRulesTestSuite;

} // namespace
