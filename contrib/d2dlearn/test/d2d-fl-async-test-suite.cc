/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Asynchronous FL (D2dFedAsync, D2dFedBuff) against their papers' server steps, recomputed
 * here from what reached the server: every update's staleness counted independently (the
 * versions made before it arrived minus the version it names), its weight the formula's
 * (1e-12), and the final global model the formula applied in arrival order (1e-6); FedBuff's
 * versions each of exactly K updates. Devices compute at different speeds (SlowdownFactor),
 * so updates arrive stale.
 */
#include "d2d-test-fixtures.h"

#include "ns3/d2d-fed-async.h"
#include "ns3/d2d-fed-buff.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-staleness.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mobility-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/** What an asynchronous run showed. */
struct AsyncOutcome
{
    std::vector<float> initial; //!< x_0
    std::vector<float> global;  //!< the final global model
    /** every update as the server received it: (version named, values), arrival order */
    std::vector<std::pair<uint32_t, std::shared_ptr<const std::vector<float>>>> received;
    /** the Update trace: (version t, device, staleness, weight), in order */
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t, double>> updates;
    uint32_t versions{0}; //!< rounds (versions) done
};

/**
 * \brief Run an asynchronous protocol among 4 devices 10 m apart with a server 5 m off the
 * line, Gaussian-mixture data, an MLP, reliable delivery; devices 1, 2 and 3 compute 2, 3
 * and 5 times slower than device 0.
 * \param protocol an ns3::D2dAsyncFl subclass
 * \param attributes its attributes
 * \param versions versions to make
 * \return the outcome
 */
AsyncOutcome
RunAsync(Ptr<D2dAsyncFl> fl, uint32_t versions)
{
    const uint32_t n = 4;
    const D2dTestData& data = GaussianTestData(11, 12, 2000, 1000);
    NodeContainer nodes = MakeTestNodesOnLine(n, 10.0);
    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    d2d.SetInitialEnergyJ(1e9);
    d2d.Install(nodes);
    Ptr<Node> server = CreateObject<Node>();
    MobilityHelper mobility;
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(server);
    server->GetObject<MobilityModel>()->SetPosition(Vector(15.0, 5.0, 0.0));
    Ptr<D2dChannel> d2s = d2d.InstallServer(server, nodes, 3.0);
    d2d.AssignStreams(10);
    const auto shards = D2dPartitioner::LabelsPerDevice(*data.train, n, 1, {}, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("mlp:16");
    const std::map<uint32_t, double> slowdown{{1, 2.0}, {2, 3.0}, {3, 5.0}};
    std::vector<Ptr<D2dLearner>> learners;
    AsyncOutcome out;
    for (uint32_t i = 0; i < n; ++i)
    {
        learners.push_back(MakeTestLearner(nodes, i, spec, data.train, shards, 3, 0.05, slowdown));
    }
    out.initial = learners[0]->GetParameters();
    fl->SetAttribute("Rounds", UintegerValue(versions));
    fl->SetAttribute("LocalEpochs", UintegerValue(1));
    fl->SetLearners(learners);
    fl->SetTestSet(data.test);
    fl->SetD2sTransports(d2s->GetTransports(), D2dDeliveryMode::RELIABLE);
    fl->AssignStreams(100);
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    fl->TraceConnectWithoutContext(
        "Update",
        Callback<void, uint32_t, uint32_t, uint32_t, double>(
            [&out](uint32_t version, uint32_t device, uint32_t staleness, double weight) {
                out.updates.emplace_back(version, device, staleness, weight);
            }));
    // What reached the server, seen by a second receive handler of its transport.
    d2s->GetTransports().back()->AddReceiveHandler(
        Callback<void, const D2dReception&>([&out](const D2dReception& r) {
            if (r.IsComplete())
            {
                auto p = r.message->GetPayloadAs<D2dModelPayload>();
                out.received.emplace_back(p->round, p->values);
            }
        }),
        "update");
    Simulator::ScheduleNow(&D2dFlProtocol::Start, fl);
    Simulator::Stop(Seconds(1e4)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.global = fl->GetGlobalModel();
    out.versions = fl->GetRoundsDone();
    Simulator::Destroy();
    return out;
}

/** \return the largest |a - b| */
double
MaxAbsDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    double worst = a.size() == b.size() ? 0.0 : 1e9;
    for (std::size_t j = 0; j < a.size() && j < b.size(); ++j)
    {
        worst = std::max(worst, std::fabs(static_cast<double>(a[j]) - b[j]));
    }
    return worst;
}

/**
 * FedAsync (Xie et al. 2019): x_t = (1 - alpha_t) x_{t-1} + alpha_t y, alpha_t = alpha (t -
 * tau + 1)^(-a), each update a version.
 */
class FedAsyncMixingTestCase : public TestCase
{
  public:
    FedAsyncMixingTestCase()
        : TestCase("FedAsync: alpha_t = alpha (staleness + 1)^-a, x mixed in arrival order")
    {
    }

  private:
    void DoRun() override
    {
        auto fl = CreateObjectWithAttributes<D2dFedAsync>("MixingAlpha",
                                                          DoubleValue(0.6),
                                                          "StalenessA",
                                                          DoubleValue(0.5),
                                                          "Concurrency",
                                                          UintegerValue(3));
        const AsyncOutcome o = RunAsync(fl, 8);
        NS_TEST_ASSERT_MSG_EQ(o.versions, 8u, "8 versions");
        NS_TEST_ASSERT_MSG_EQ(o.updates.size(), 8u, "one update each");
        NS_TEST_ASSERT_MSG_GT(o.received.size(), 7u, "8 updates reached the server");
        std::vector<float> x = o.initial;
        uint32_t made = 0;
        uint32_t stale = 0;
        for (std::size_t k = 0; k < 8; ++k)
        {
            const auto& [version, device, staleness, weight] = o.updates[k];
            const uint32_t tau = o.received[k].first;
            NS_TEST_EXPECT_MSG_EQ(version, made, "update " << k << ": the version it met");
            NS_TEST_EXPECT_MSG_EQ(staleness, made - tau, "update " << k << ": t - tau");
            const double alphaT = 0.6 * std::pow(made - tau + 1.0, -0.5);
            NS_TEST_EXPECT_MSG_EQ_TOL(weight, alphaT, 1e-12, "update " << k << ": alpha_t");
            for (std::size_t j = 0; j < x.size(); ++j)
            {
                x[j] =
                    static_cast<float>((1 - alphaT) * x[j] + alphaT * (*o.received[k].second)[j]);
            }
            stale += staleness > 0 ? 1 : 0;
            ++made;
        }
        NS_TEST_EXPECT_MSG_GT(stale, 0u, "some updates were stale (the test can tell)");
        NS_TEST_EXPECT_MSG_LT(MaxAbsDifference(o.global, x), 1e-6, "the global model");
        NS_TEST_EXPECT_MSG_GT(MaxAbsDifference(o.global, o.initial), 1e-3, "it moved");
        std::printf("FedAsync: 8 versions, %u stale updates, global within %.2e of the "
                    "recomputation\n",
                    stale,
                    MaxAbsDifference(o.global, x));
    }
};

/**
 * \brief Device d's first local job of RunAsync() done again alone: its learner as the run
 * makes it (device 0's initial weights drawn first, as x_0), set to x_0, trained one epoch
 * with the proximal term (rho / 2) ||x - x_0||^2.
 * \param d the device
 * \param x0 x_0
 * \param rho rho
 * \return its weights
 */
std::vector<float>
ProximalJob(uint32_t d, const std::vector<float>& x0, double rho)
{
    const D2dTestData& data = GaussianTestData(11, 12, 2000, 1000);
    NodeContainer nodes = MakeTestNodesOnLine(4, 10.0);
    D2dHelper d2d;
    d2d.SetInitialEnergyJ(1e9);
    d2d.Install(nodes);
    const auto shards = D2dPartitioner::LabelsPerDevice(*data.train, 4, 1, {}, 7);
    const std::map<uint32_t, double> slowdown{{1, 2.0}, {2, 3.0}, {3, 5.0}};
    auto l = MakeTestLearner(nodes,
                             d,
                             D2dModelSpec::Parse("mlp:16"),
                             data.train,
                             shards,
                             3,
                             0.05,
                             slowdown);
    if (d == 0)
    {
        l->GetParameters(); // x_0 is device 0's initial weights: drawn before the run
    }
    l->ReleaseParameters();
    l->SetParameters(x0);
    D2dTrainTask task;
    task.epochs = 1;
    task.proximalMu = rho;
    task.proxCenter = std::make_shared<const std::vector<float>>(x0);
    l->Train(task, Callback<void, const D2dTrainResult&>());
    Simulator::Run();
    std::vector<float> y = l->GetParameters();
    Simulator::Destroy();
    return y;
}

/**
 * FedAsync's proximal term (Xie et al. 2019, Algorithm 1's g_{x_tau}): the first update to
 * reach the server is, bit for bit, its device's model trained alone one epoch on x_0 with
 * (rho / 2) ||x - x_0||^2 (rho = 10, learning rate 0.05); it is closer to x_0 than the same
 * device's update without the term (rho = 0, the default, the same draws).
 */
class FedAsyncProximalTestCase : public TestCase
{
  public:
    FedAsyncProximalTestCase()
        : TestCase("FedAsync: ProximalRho trains on f(x) + rho over 2 times the squared distance "
                   "to x_tau")
    {
    }

  private:
    void DoRun() override
    {
        const double rho = 10.0;
        auto prox = CreateObjectWithAttributes<D2dFedAsync>("ProximalRho",
                                                            DoubleValue(rho),
                                                            "Concurrency",
                                                            UintegerValue(3));
        const AsyncOutcome o = RunAsync(prox, 2);
        auto plain = CreateObjectWithAttributes<D2dFedAsync>("Concurrency", UintegerValue(3));
        const AsyncOutcome p = RunAsync(plain, 2);
        NS_TEST_ASSERT_MSG_GT(o.received.size(), 0u, "an update arrived");
        NS_TEST_ASSERT_MSG_GT(p.received.size(), 0u, "an update arrived without the term");
        NS_TEST_ASSERT_MSG_EQ(o.received[0].first, 0u, "trained on x_0");
        const uint32_t d = std::get<1>(o.updates[0]);
        NS_TEST_ASSERT_MSG_EQ(std::get<1>(p.updates[0]), d, "the same device first");
        const std::vector<float>& y = *o.received[0].second;
        const std::vector<float> alone = ProximalJob(d, o.initial, rho);
        NS_TEST_EXPECT_MSG_EQ(MaxAbsDifference(y, alone), 0.0, "bit for bit");
        const double near = MaxAbsDifference(y, o.initial);
        const double far = MaxAbsDifference(*p.received[0].second, p.initial);
        NS_TEST_EXPECT_MSG_LT(near, far, "the term keeps the model nearer x_0");
        std::printf("FedAsync proximal: device %u's first update %.3e from x_0 with rho = 10, "
                    "%.3e without\n",
                    d,
                    near,
                    far);
    }
};

/**
 * FedBuff (Nguyen et al. 2022): each version aggregates exactly K = 2 updates, x <- x -
 * eta_g (sum_k s_k Delta_k) / K, s_k = 1 / sqrt(1 + staleness_k).
 */
class FedBuffBufferTestCase : public TestCase
{
  public:
    FedBuffBufferTestCase()
        : TestCase("FedBuff: K updates a version, x -= eta_g sum s_k Delta_k, over K")
    {
    }

  private:
    void DoRun() override
    {
        auto fl = CreateObjectWithAttributes<D2dFedBuff>("BufferSize",
                                                         UintegerValue(2),
                                                         "ServerLearningRate",
                                                         DoubleValue(0.8),
                                                         "Concurrency",
                                                         UintegerValue(4));
        const AsyncOutcome o = RunAsync(fl, 4);
        NS_TEST_ASSERT_MSG_EQ(o.versions, 4u, "4 versions");
        NS_TEST_ASSERT_MSG_EQ(o.updates.size(), 8u, "K = 2 updates each");
        std::vector<float> x = o.initial;
        std::vector<double> buffer(x.size(), 0.0);
        uint32_t made = 0;
        uint32_t stale = 0;
        for (std::size_t k = 0; k < o.updates.size(); ++k)
        {
            const auto& [version, device, staleness, weight] = o.updates[k];
            const uint32_t tau = o.received[k].first;
            NS_TEST_EXPECT_MSG_EQ(version, made, "update " << k << ": the version it met");
            NS_TEST_EXPECT_MSG_EQ(staleness, made - tau, "update " << k << ": t - tau");
            const double s = 1.0 / std::sqrt(1.0 + (made - tau));
            NS_TEST_EXPECT_MSG_EQ_TOL(weight, s, 1e-12, "update " << k << ": s_k");
            for (std::size_t j = 0; j < x.size(); ++j)
            {
                buffer[j] += s * (*o.received[k].second)[j];
            }
            stale += staleness > 0 ? 1 : 0;
            if (k % 2 == 1)
            {
                for (std::size_t j = 0; j < x.size(); ++j)
                {
                    x[j] = static_cast<float>(x[j] - 0.8 / 2 * buffer[j]);
                }
                buffer.assign(x.size(), 0.0);
                ++made;
            }
        }
        NS_TEST_EXPECT_MSG_GT(stale, 0u, "some updates were stale (the test can tell)");
        NS_TEST_EXPECT_MSG_LT(MaxAbsDifference(o.global, x), 1e-6, "the global model");
        NS_TEST_EXPECT_MSG_GT(MaxAbsDifference(o.global, o.initial), 1e-3, "it moved");
        std::printf("FedBuff: 4 versions of 2 updates, %u stale, global within %.2e\n",
                    stale,
                    MaxAbsDifference(o.global, x));
    }
};

/** The staleness functions of Xie et al. 2019, sec. 5, at hand-worked points. */
class StalenessFunctionsTestCase : public TestCase
{
  public:
    StalenessFunctionsTestCase()
        : TestCase("Staleness functions: constant, polynomial and hinge at worked points")
    {
    }

  private:
    void DoRun() override
    {
        using S = D2dStaleness;
        NS_TEST_EXPECT_MSG_EQ(S::Weight(S::CONSTANT, 0.5, 4, 7), 1.0, "constant");
        NS_TEST_EXPECT_MSG_EQ_TOL(S::Weight(S::POLYNOMIAL, 0.5, 4, 3), 0.5, 1e-15, "4^-1/2");
        NS_TEST_EXPECT_MSG_EQ_TOL(S::Weight(S::POLYNOMIAL, 1.0, 4, 0), 1.0, 1e-15, "fresh");
        NS_TEST_EXPECT_MSG_EQ(S::Weight(S::HINGE, 10, 4, 4), 1.0, "hinge up to b");
        // 1 / (a (tau - b) + 1) = 1 / (10 x 2 + 1).
        NS_TEST_EXPECT_MSG_EQ_TOL(S::Weight(S::HINGE, 10, 4, 6), 1.0 / 21, 1e-15, "past b");
    }
};

/** \ingroup d2dlearn-tests \brief FedAsync and FedBuff. */
class D2dFlAsyncTestSuite : public TestSuite
{
  public:
    D2dFlAsyncTestSuite()
        : TestSuite("d2d-fl-async")
    {
        AddTestCase(new StalenessFunctionsTestCase);
        AddTestCase(new FedAsyncMixingTestCase);
        AddTestCase(new FedBuffBufferTestCase);
        AddTestCase(new FedAsyncProximalTestCase);
    }
};

static D2dFlAsyncTestSuite g_d2dFlAsyncTestSuite;

} // namespace
