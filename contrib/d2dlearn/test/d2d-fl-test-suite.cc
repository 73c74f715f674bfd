/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-fl": the FedAvg family over the simulated D2S link, with real LibTorch
 * learners on a fraction of Fashion-MNIST.
 *
 * - FedAvg (IID, 10 devices, MLP) reaches a stated accuracy, within a stated margin of the
 *   same model trained centrally on the same data for the same number of epochs;
 * - non-IID (2 labels per device) learns slower than IID;
 * - a round lasts exactly download + modelled compute + upload time (hand formula);
 * - with SleepWhileTraining the client's D2S radio sleeps exactly its compute time, the
 *   rounds last as long and the model is the same;
 * - a straggler past the deadline is left out: the round ends at the deadline and the
 *   global model is the weighted average of the others' models;
 * - FedProx with mu = 0 gives FedAvg's model bit for bit (and mu > 0 does not);
 * - FedSGD's step is w - eta sum_k (n_k/n) g_k;
 * - rounds.csv (D2dTraceHelper::ConnectRounds) holds exactly the RoundRecord records fired,
 *   whose round_time_s, bytes_sent and participants agree with the RoundEnd times and the
 *   protocol's totals; without a writer the same records fire and no file is written.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-deferred-job.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kHidden = 64;        // MLP 784-64-10
const double kFlops = 1e10;         // D2dComputeModel FlopsPerSecond (default)
const double kRateBps = 2.0 * 10e6; // SpectralEfficiency x BandwidthHz (defaults)

const double kFashionFraction = 0.1; // of each Fashion-MNIST split (seeds 1 and 2)

/** One FedAvg-family run. */
struct FlSetup
{
    uint32_t nDevices{10};
    std::string variant{"fedavg"};
    std::string partition{"iid"};
    uint32_t rounds{5};
    uint32_t localEpochs{1};
    double clientFraction{1.0};
    double mu{0.0};
    double globalLearningRate{1.0};
    double learningRate{0.05};
    Time deadline{Seconds(0)};
    std::map<uint32_t, double> slowdown; //!< device -> SlowdownFactor
    double d2sDropProbability{0};        //!< > 0: P_D of every D2S link (eq. 18)
    uint32_t maxRetransmissions{7};      //!< of the D2S channel
    uint32_t uploadRetries{2};           //!< D2dFedAvg::UploadRetries
    bool deferTraining{true};            //!< D2dFedAvg::DeferTraining
    std::string compression{"float32"};  //!< D2dFlProtocol::Compression
    bool sleepWhileTraining{false};      //!< D2dFlProtocol::SleepWhileTraining
    std::map<uint32_t, double> energyJ;  //!< device -> InitialEnergyJ (others 1e9 J)
    bool waitForFailed{false};           //!< D2dFedAvg::WaitForFailed
    double overSelection{1.0};           //!< D2dFedAvg::OverSelection
    /** (device, leaves at s, back at s): away in between (D2dAvailabilityModel's trace) */
    std::vector<std::tuple<uint32_t, double, double>> away;
};

/** What a run showed. */
struct FlOutcome
{
    std::vector<double> accuracy;                   //!< global model per round
    std::vector<double> endTimes;                   //!< simulated time of each round's end, s
    std::vector<float> global;                      //!< final global model
    std::vector<float> initial;                     //!< w^0
    std::map<uint32_t, std::vector<float>> trained; //!< device -> weights after training
    std::map<uint32_t, uint64_t> samples;           //!< device -> n_k
    std::vector<D2dTrainResult> results;            //!< every training result
    uint64_t participants{0};                       //!< answers aggregated, all rounds
    uint64_t uploadRetries{0};                      //!< updates sent again
    uint32_t maxHolding{0};    //!< most learners holding weights at a round's end
    uint64_t modulesBefore{0}; //!< live LibTorch modules before the protocol starts
    uint64_t maxModules{0};    //!< most live LibTorch modules at a round's end
    /** Every RoundRecord, as "time,round,node,metric,value" with all digits. */
    std::vector<std::string> records;
    /** TrainingLost: (device, job start s, loss time s) */
    std::vector<std::tuple<uint32_t, double, double>> lost;
    uint64_t peakResident{0}; //!< most deferred results resident at once
    TestEnergyTable energy;   //!< the devices' D2S radio energy by state, J
    double idleW{0};          //!< their IdlePowerW
    double sleepW{0};         //!< their SleepPowerW
    /** ClientFailed: (round, device, reason) */
    std::vector<std::tuple<uint32_t, uint32_t, std::string>> failed;
    /** (time s, device) of every complete update reception at the server */
    std::vector<std::pair<double, uint32_t>> updateArrivals;
};

/**
 * \brief FlSetup::away's devices leave and come back (a D2dAvailabilityModel's trace, wired
 * by D2dHelper::ConnectAvailability), their lost jobs recorded in out.lost.
 * \return the model, started (null if no device is away)
 */
Ptr<D2dAvailabilityModel>
InstallAway(const FlSetup& s,
            const NodeContainer& nodes,
            Ptr<D2dChannel> d2s,
            const std::vector<Ptr<D2dLearner>>& learners,
            FlOutcome& out)
{
    if (s.away.empty())
    {
        return nullptr;
    }
    std::vector<D2dAvailabilityModel::Intervals> intervals(s.nDevices);
    for (const auto& [device, leave, back] : s.away)
    {
        intervals[device] = {{Seconds(0), Seconds(leave)}, {Seconds(back), Seconds(1e6)}};
    }
    auto availability = CreateObject<D2dAvailabilityModel>();
    availability->SetIntervals(intervals);
    availability->Install(s.nDevices);
    D2dHelper::ConnectAvailability(availability, nodes, {}, d2s->GetTransports());
    for (const auto& l : learners)
    {
        l->TraceConnectWithoutContext(
            "TrainingLost",
            Callback<void, uint32_t, Time, Time>([&out](uint32_t id, Time start, Time end) {
                out.lost.emplace_back(id, start.GetSeconds(), end.GetSeconds());
            }));
    }
    availability->Start();
    return availability;
}

FlOutcome
RunFl(const FlSetup& s)
{
    const D2dTestData& data = FashionTestData(kFashionFraction);
    NodeContainer nodes = MakeTestNodesOnLine(s.nDevices, 10.0);
    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0: exact timing
    d2d.SetInitialEnergyJ(1e9);
    d2d.Install(nodes);
    SetTestBatteries(nodes, s.energyJ);
    Ptr<Node> server = CreateObject<Node>();
    Ptr<D2dChannel> d2s = d2d.InstallServer(server, nodes, 3.0);
    d2s->SetAttribute("MaxRetransmissions", UintegerValue(s.maxRetransmissions));
    if (s.d2sDropProbability > 0)
    {
        // Eq. 18 on the (equal-length) D2S links; the server is device nDevices.
        SetUniformDropProbability(d2s, s.d2sDropProbability, s.nDevices, 0);
    }
    d2d.AssignStreams(10);

    std::vector<D2dShard> shards =
        s.partition == "iid" ? D2dPartitioner::Iid(*data.train, s.nDevices, 7)
                             : D2dPartitioner::LabelsPerDevice(*data.train, s.nDevices, 2, {}, 7);
    D2dModelSpec spec;
    spec.arch = "mlp";
    spec.hidden = {kHidden};
    FlOutcome out;
    out.modulesBefore = D2dLearner::GetLiveModules();
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        auto l = MakeTestLearner(nodes, i, spec, data.train, shards, 3, s.learningRate, s.slowdown);
        out.samples[i] = l->GetNSamples();
        l->TraceConnectWithoutContext(
            "TrainingDone",
            Callback<void, uint32_t, Time, Time, const D2dTrainResult&>(
                [&out, l](uint32_t id, Time, Time, const D2dTrainResult& r) {
                    out.trained[id] = l->GetParameters();
                    out.results.push_back(r);
                }));
        learners.push_back(l);
    }
    out.initial = learners[0]->GetParameters();
    auto fl = CreateObjectWithAttributes<D2dFedAvg>("Variant",
                                                    StringValue(s.variant),
                                                    "ClientFraction",
                                                    DoubleValue(s.clientFraction),
                                                    "ProximalMu",
                                                    DoubleValue(s.mu),
                                                    "GlobalLearningRate",
                                                    DoubleValue(s.globalLearningRate),
                                                    "UploadRetries",
                                                    UintegerValue(s.uploadRetries));
    fl->SetAttribute("Rounds", UintegerValue(s.rounds));
    fl->SetAttribute("LocalEpochs", UintegerValue(s.localEpochs));
    fl->SetAttribute("RoundDeadline", TimeValue(s.deadline));
    fl->SetAttribute("DeferTraining", BooleanValue(s.deferTraining));
    fl->SetAttribute("Compression", StringValue(s.compression));
    fl->SetAttribute("SleepWhileTraining", BooleanValue(s.sleepWhileTraining));
    fl->SetAttribute("WaitForFailed", BooleanValue(s.waitForFailed));
    fl->SetAttribute("OverSelection", DoubleValue(s.overSelection));
    fl->TraceConnectWithoutContext(
        "ClientFailed",
        Callback<void, uint32_t, uint32_t, const std::string&>(
            [&out](uint32_t round, uint32_t device, const std::string& reason) {
                out.failed.emplace_back(round, device, reason);
            }));
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        // A message's rows are on its sender's trace.
        d2s->GetTransports()[i]->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out](const D2dDeliveryRecord& r) {
                if (r.kind == "update" && r.IsComplete())
                {
                    out.updateArrivals.emplace_back(r.recvTime.GetSeconds(), r.src);
                }
            }));
    }
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        d2s->GetRadio(i)->GetEnergyModel()->TraceConnectWithoutContext(
            "EnergyEvent",
            MakeBoundCallback(&AddTestEnergy, &out.energy));
    }
    out.idleW = d2s->GetRadio(0)->GetEnergyModel()->GetIdlePowerW();
    out.sleepW = d2s->GetRadio(0)->GetEnergyModel()->GetSleepPowerW();
    fl->TraceConnectWithoutContext(
        "RoundRecord",
        Callback<void, uint32_t, int64_t, const std::string&, double>(
            [&out](uint32_t round, int64_t node, const std::string& metric, double value) {
                char line[256];
                std::snprintf(line,
                              sizeof(line),
                              "%.17g,%u,%lld,%s,%.17g",
                              Simulator::Now().GetSeconds(),
                              round,
                              static_cast<long long>(node),
                              metric.c_str(),
                              value);
                out.records.emplace_back(line);
            }));
    fl->SetLearners(learners);
    fl->SetTestSet(data.test);
    fl->SetD2sTransports(d2s->GetTransports(), D2dDeliveryMode::RELIABLE);
    fl->AssignStreams(100);
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    fl->TraceConnectWithoutContext("RoundEnd",
                                   Callback<void, uint32_t, double, double>(
                                       [&out, &learners](uint32_t, double accuracy, double) {
                                           out.accuracy.push_back(accuracy);
                                           out.endTimes.push_back(Simulator::Now().GetSeconds());
                                           uint32_t holding = 0;
                                           for (const auto& l : learners)
                                           {
                                               holding += l->HoldsParameters() ? 1 : 0;
                                           }
                                           out.maxHolding = std::max(out.maxHolding, holding);
                                           out.maxModules = std::max(out.maxModules,
                                                                     D2dLearner::GetLiveModules());
                                       }));

    Ptr<D2dAvailabilityModel> availability = InstallAway(s, nodes, d2s, learners, out);
    Simulator::ScheduleNow(&D2dFedAvg::Start, fl);
    Simulator::Stop(Seconds(1e6)); // safety: the protocol stops the simulator itself
    D2dDeferredJob::ResetPeakResident();
    const uint64_t residentBefore = D2dDeferredJob::GetResident();
    Simulator::Run();
    out.peakResident = D2dDeferredJob::GetPeakResident() - residentBefore;
    out.global = fl->GetGlobalModel();
    out.participants = fl->GetTotalParticipants();
    out.uploadRetries = fl->GetTotalUploadRetries();
    for (uint32_t i = 0; i < s.nDevices; ++i)
    {
        d2s->GetRadio(i)->GetEnergyModel()->Flush(); // the last period, up to the stop
    }
    Simulator::Destroy();
    return out;
}

/** \return test accuracy of the MLP trained centrally on all the data for epochs */
double
CentralAccuracy(uint32_t epochs)
{
    const D2dTestData& data = FashionTestData(kFashionFraction);
    auto shards = D2dPartitioner::Iid(*data.train, 1, 7);
    D2dModelSpec spec;
    spec.arch = "mlp";
    spec.hidden = {kHidden};
    auto l = CreateObject<D2dLearner>();
    l->Setup(0, spec, data.train, shards[0], 3);
    D2dTrainTask task;
    task.epochs = epochs;
    l->Train(task, Callback<void, const D2dTrainResult&>());
    Simulator::Run(); // no compute model: completes at once
    Simulator::Destroy();
    return l->Evaluate(*data.test).accuracy;
}

/** FedAvg on IID data against central training and against non-IID data. */
class FedAvgAccuracyTestCase : public TestCase
{
  public:
    FedAvgAccuracyTestCase()
        : TestCase("FedAvg IID reaches central accuracy; 2 labels per device learn slower")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        FlSetup iid;
        iid.rounds = 8;
        iid.localEpochs = 2;
        const FlOutcome a = RunFl(iid);
        // Central: the same epochs over the same data (rounds x local epochs).
        const uint32_t epochs = iid.rounds * iid.localEpochs;
        const double central = CentralAccuracy(epochs);
        FlSetup skew = iid;
        skew.partition = "labels";
        const FlOutcome b = RunFl(skew);
        std::printf("FedAvg IID per round:");
        for (auto x : a.accuracy)
        {
            std::printf(" %.4f", x);
        }
        std::printf("\nFedAvg 2-labels per round:");
        for (auto x : b.accuracy)
        {
            std::printf(" %.4f", x);
        }
        std::printf("\ncentral (%u epochs): %.4f\n", epochs, central);
        NS_TEST_ASSERT_MSG_EQ(a.accuracy.size(), iid.rounds, "every round completes");
        // Chance is 0.10; a 784-64-10 MLP reaches ~0.80 on 6,000 samples in 5 epochs.
        NS_TEST_ASSERT_MSG_GT(a.accuracy.back(), 0.75, "FedAvg IID learns");
        NS_TEST_ASSERT_MSG_GT(a.accuracy.back(), central - 0.04, "FedAvg IID near central");
        NS_TEST_ASSERT_MSG_GT(a.accuracy.back(), a.accuracy.front(), "accuracy rises");
        // Non-IID: below IID in every round, and clearly at the end.
        double gap = 0;
        for (std::size_t r = 0; r < a.accuracy.size(); ++r)
        {
            NS_TEST_ASSERT_MSG_LT(b.accuracy[r], a.accuracy[r], "non-IID behind at round " << r);
            gap += a.accuracy[r] - b.accuracy[r];
        }
        NS_TEST_ASSERT_MSG_GT(gap / a.accuracy.size(), 0.03, "mean gap over rounds");
    }
};

/** A FedAvg round of TwoDeviceSetup(), worked by hand (s). */
struct RoundParts
{
    double down;    //!< the global model's broadcast to the sampled device
    double compute; //!< its local epoch on its compute model
    double up;      //!< its update's upload
};

/** \return two devices 10 m apart (D2S 30 m), one sampled per round, two rounds */
FlSetup
TwoDeviceSetup()
{
    FlSetup s;
    s.nDevices = 2;
    s.clientFraction = 0.5;
    s.rounds = 2;
    return s;
}

/** \return TwoDeviceSetup()'s round, independent of the code */
RoundParts
HandWorkedRound()
{
    // 784-64-10 parameters, 4 bytes each, 32-byte header.
    const double params = 784.0 * kHidden + kHidden + kHidden * 10.0 + 10.0;
    const double bytes = 32 + 4 * params;
    const double transfer = bytes * 8 / kRateBps + 30.0 / 299792458.0;
    const double samples =
        static_cast<double>(FashionTestData(kFashionFraction).train->Size()) / 2; // IID halves
    const double flops = samples * 3 * 2 * (784.0 * kHidden + kHidden * 10.0);
    // The downlink broadcast names the one sampled device: 4 more bytes.
    return {transfer + 4 * 8 / kRateBps, flops / kFlops, transfer};
}

/** A round lasts download + compute + upload. */
class FedAvgRoundTimeTestCase : public TestCase
{
  public:
    FedAvgRoundTimeTestCase()
        : TestCase("A FedAvg round lasts the model's download, the modelled compute, and the "
                   "upload")
    {
    }

  private:
    void DoRun() override
    {
        const FlOutcome o = RunFl(TwoDeviceSetup());
        const RoundParts p = HandWorkedRound();
        const double expected = p.down + p.compute + p.up;
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 2u, "two rounds");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.endTimes[0], expected, 2e-9, "round 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.endTimes[1] - o.endTimes[0], expected, 2e-9, "round 2");
        std::printf("round time %.9f s = %.9f s down + %.9f s compute + %.9f s up\n",
                    o.endTimes[0],
                    p.down,
                    p.compute,
                    p.up);
    }
};

/**
 * SleepWhileTraining: the sampled device's D2S radio sleeps from the start of its local
 * job to its planned end, each round, and is awake to upload: the rounds last as long, the
 * model is the same, and the radio's sleep energy is SleepPowerW x the compute time of two
 * rounds, taken from its idle energy.
 */
class FedAvgSleepWhileTrainingTestCase : public TestCase
{
  public:
    FedAvgSleepWhileTrainingTestCase()
        : TestCase("SleepWhileTraining: the D2S radio sleeps through each round's training")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s = TwoDeviceSetup();
        const FlOutcome awake = RunFl(s);
        s.sleepWhileTraining = true;
        const FlOutcome asleep = RunFl(s);
        const double compute = HandWorkedRound().compute;
        NS_TEST_ASSERT_MSG_EQ(asleep.endTimes.size(), 2u, "two rounds");
        for (std::size_t r = 0; r < 2; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(asleep.endTimes[r],
                                      awake.endTimes[r],
                                      1e-12,
                                      "round " << r + 1 << " ends at the same time");
        }
        NS_TEST_EXPECT_MSG_EQ((asleep.global == awake.global), true, "the same model");
        const double sleepJ = SumTestEnergy(asleep.energy, "d2s_sleep");
        NS_TEST_EXPECT_MSG_EQ_TOL(sleepJ,
                                  asleep.sleepW * 2 * compute,
                                  1e-9 * sleepJ,
                                  "asleep for the compute time of two rounds");
        const double idleSaved =
            SumTestEnergy(awake.energy, "d2s_idle") - SumTestEnergy(asleep.energy, "d2s_idle");
        NS_TEST_EXPECT_MSG_EQ_TOL(idleSaved,
                                  awake.idleW * 2 * compute,
                                  1e-9 * idleSaved,
                                  "idle for that much less");
        NS_TEST_EXPECT_MSG_EQ(SumTestEnergy(awake.energy, "d2s_sleep"), 0.0, "no sleep by default");
        std::printf("asleep %.9f J = %.3f W x 2 x %.9f s; idle %.9f J less\n",
                    sleepJ,
                    asleep.sleepW,
                    compute,
                    idleSaved);
    }
};

/** \return the value of round's node -1 row of metric in o.records (NaN if none) */
double
NetworkRow(const FlOutcome& o, uint32_t round, const std::string& metric)
{
    const std::string key = "," + std::to_string(round) + ",-1," + metric + ",";
    for (const auto& line : o.records)
    {
        if (const auto at = line.find(key); at != std::string::npos)
        {
            return std::stod(line.substr(at + key.size()));
        }
    }
    return std::nan("");
}

/**
 * Known failures: device 1's battery (1 nJ) is empty before the global model's broadcast
 * reaches it (the reliable broadcast's row for it is receiver_off). The server learns it as
 * the battery empties (its D2S transport's Presence trace: "depleted"), stops
 * waiting for it and the round ends when device 0's update arrives, the hand-worked
 * download + compute + upload (a broadcast to every device names none); with WaitForFailed
 * it waits until the 10 s deadline, as before.
 */
class FedAvgKnownFailureTestCase : public TestCase
{
  public:
    FedAvgKnownFailureTestCase()
        : TestCase("A sampled device the server knows failed is not waited for")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s;
        s.nDevices = 2;
        s.rounds = 1;
        s.deadline = Seconds(10.0);
        s.energyJ[1] = 1e-9;
        const FlOutcome o = RunFl(s);
        const RoundParts p = HandWorkedRound();
        const double expected = p.up + p.compute + p.up; // the same bytes both ways
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 1u, "the round ends");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.endTimes[0], expected, 2e-9, "when device 0's update arrives");
        NS_TEST_ASSERT_MSG_EQ(o.failed.size(), 1u, "one known failure");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(o.failed[0]), 1u, "in round 1");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(o.failed[0]), 1u, "device 1");
        // The battery empties at once: the server learns it then (Presence), before the
        // broadcast's receiver_off row.
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(o.failed[0]), "depleted", "its battery emptied");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "participants"), 1.0, "device 0 answered");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "stragglers"), 1.0, "device 1 left out");
        // w^1 = w^0 - (n_0 / n_0)(w^0 - w_0): device 0's weights (float rounding).
        double maxErr = 0;
        for (std::size_t j = 0; j < o.global.size(); ++j)
        {
            maxErr =
                std::max(maxErr, std::fabs(static_cast<double>(o.global[j]) - o.trained.at(0)[j]));
        }
        NS_TEST_EXPECT_MSG_LT(maxErr, 1e-6, "the global model is device 0's");
        s.waitForFailed = true;
        const FlOutcome waited = RunFl(s);
        NS_TEST_ASSERT_MSG_EQ(waited.endTimes.size(), 1u, "the round ends");
        NS_TEST_EXPECT_MSG_EQ_TOL(waited.endTimes[0], 10.0, 1e-12, "WaitForFailed: the deadline");
        NS_TEST_EXPECT_MSG_EQ(waited.failed.size(), 0u, "no ClientFailed");
        NS_TEST_EXPECT_MSG_EQ((waited.global == o.global), true, "the same aggregate");
        std::printf("known failure: round ends at %.9f s (hand-worked %.9f s); waiting: %.9f s\n",
                    o.endTimes[0],
                    expected,
                    waited.endTimes[0]);
    }
};

/**
 * A device that leaves mid-round loses its work and is not waited for: of two devices,
 * device 1 leaves halfway through its local job (download + compute / 2) and is back at
 * 5 s. Round 1 ends when device 0's update arrives (download + compute + upload, the
 * hand-worked times), with device 1 given up ("left"), its job lost (TrainingLost) and the
 * global model device 0's; round 2 starts while device 1 is away: only device 0 is there
 * and sampled. With WaitForFailed, round 1 ends at the 10 s deadline.
 */
class FedAvgDeviceLeavesTestCase : public TestCase
{
  public:
    FedAvgDeviceLeavesTestCase()
        : TestCase("A device that leaves mid-round loses its work; the round does not wait")
    {
    }

  private:
    void DoRun() override
    {
        const RoundParts p = HandWorkedRound();
        const double leave = p.up + p.compute / 2; // both sampled: the broadcast names no one
        FlSetup s;
        s.nDevices = 2;
        s.rounds = 2;
        s.deadline = Seconds(10.0);
        s.away = {{1, leave, 5.0}};
        const FlOutcome o = RunFl(s);
        const double expected = p.up + p.compute + p.up;
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 2u, "two rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.endTimes[0], expected, 2e-9, "when device 0's update arrives");
        NS_TEST_ASSERT_MSG_EQ(o.failed.size(), 1u, "one device given up");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(o.failed[0]), 1u, "in round 1");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(o.failed[0]), 1u, "device 1");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(o.failed[0]), "left", "it left");
        NS_TEST_ASSERT_MSG_EQ(o.lost.size(), 1u, "one job lost");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(o.lost[0]), 1u, "device 1's");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<1>(o.lost[0]), p.up, 2e-9, "started at its download");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<2>(o.lost[0]), leave, 1e-9, "lost when it left");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "available"), 2.0, "both there at round 1");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "participants"), 1.0, "device 0 answered");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "stragglers"), 1.0, "device 1 left out");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 2, "available"), 1.0, "device 1 away at round 2");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 2, "participants"), 1.0, "device 0 answered");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 2, "stragglers"), 0.0, "only device 0 sampled");
        NS_TEST_EXPECT_MSG_LT(o.endTimes[1], 5.0, "round 2 without device 1");
        double maxErr = 0;
        for (std::size_t j = 0; j < o.global.size(); ++j)
        {
            maxErr =
                std::max(maxErr, std::fabs(static_cast<double>(o.global[j]) - o.trained.at(0)[j]));
        }
        NS_TEST_EXPECT_MSG_LT(maxErr, 1e-6, "the global model is device 0's");
        NS_TEST_EXPECT_MSG_EQ(o.trained.count(1), 0u, "device 1's work never completed");
        NS_TEST_EXPECT_MSG_EQ(o.maxHolding, 0u, "no client holds weights, the lost one either");
        s.waitForFailed = true;
        const FlOutcome waited = RunFl(s);
        NS_TEST_ASSERT_MSG_EQ(waited.endTimes.size(), 2u, "two rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(waited.endTimes[0], 10.0, 1e-12, "WaitForFailed: the deadline");
        NS_TEST_EXPECT_MSG_EQ(waited.failed.size(), 0u, "no ClientFailed");
        std::printf("device leaves at %.9f s: round ends at %.9f s (hand-worked %.9f s); "
                    "waiting: %.9f s\n",
                    leave,
                    o.endTimes[0],
                    expected,
                    waited.endTimes[0]);
    }
};

/**
 * A straggler still training an earlier round's model says "busy": device 1 computes 100
 * times slower than device 0 (about 9 s a job), the deadline is 2 s. Round 1 ends at the
 * deadline; in round 2 device 1 gets w^2 while still on w^1, answers busy, and the round
 * ends when device 0's update arrives, 2 s + the hand-worked download + compute + upload;
 * with WaitForFailed it ends at the deadline again, 4 s.
 */
class FedAvgBusyStragglerTestCase : public TestCase
{
  public:
    FedAvgBusyStragglerTestCase()
        : TestCase("A straggler busy with an earlier round says so; the round does not wait")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s;
        s.nDevices = 2;
        s.rounds = 2;
        s.deadline = Seconds(2.0);
        s.slowdown[1] = 100.0;
        const FlOutcome o = RunFl(s);
        const RoundParts p = HandWorkedRound();
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 2u, "two rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.endTimes[0], 2.0, 1e-12, "round 1 at the deadline");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.endTimes[1],
                                  2.0 + p.up + p.compute + p.up,
                                  2e-9,
                                  "round 2 when device 0's update arrives");
        NS_TEST_ASSERT_MSG_EQ(o.failed.size(), 1u, "one busy reply");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(o.failed[0]), 2u, "in round 2");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(o.failed[0]), 1u, "from device 1");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(o.failed[0]), "busy", "busy");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 2, "participants"), 1.0, "device 0");
        s.waitForFailed = true;
        const FlOutcome waited = RunFl(s);
        NS_TEST_ASSERT_MSG_EQ(waited.endTimes.size(), 2u, "two rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(waited.endTimes[1], 4.0, 1e-12, "WaitForFailed: the deadline");
        NS_TEST_EXPECT_MSG_EQ(waited.failed.size(), 0u, "no busy reply");
    }
};

/**
 * Over-selection (Bonawitz et al. 2019): with C = 0.5 of 4 devices (m = 2) and
 * OverSelection 2, all 4 are sampled; devices 2 and 3 compute 1000 times slower. The round
 * ends at the second complete update's arrival, with devices 0 and 1 and their n_k-weighted
 * mean, and the two slow devices as stragglers.
 */
class FedAvgOverSelectionTestCase : public TestCase
{
  public:
    FedAvgOverSelectionTestCase()
        : TestCase("Over-selection: the round ends at the first m answers")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s;
        s.nDevices = 4;
        s.rounds = 1;
        s.clientFraction = 0.5;
        s.overSelection = 2.0;
        s.slowdown[2] = 1000.0;
        s.slowdown[3] = 1000.0;
        FlOutcome o = RunFl(s);
        std::sort(o.updateArrivals.begin(), o.updateArrivals.end());
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 1u, "the round ends");
        NS_TEST_ASSERT_MSG_GT(o.updateArrivals.size(), 1u, "two updates arrived");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.endTimes[0],
                                  o.updateArrivals[1].first,
                                  1e-12,
                                  "at the second update's arrival");
        NS_TEST_EXPECT_MSG_EQ(o.updateArrivals[0].second + o.updateArrivals[1].second,
                              1u,
                              "from devices 0 and 1");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "participants"), 2.0, "m answers");
        NS_TEST_EXPECT_MSG_EQ(NetworkRow(o, 1, "stragglers"), 2.0, "the two slow devices");
        const double n0 = o.samples.at(0);
        const double n1 = o.samples.at(1);
        double maxErr = 0;
        for (std::size_t j = 0; j < o.global.size(); ++j)
        {
            const double avg = (n0 * o.trained.at(0)[j] + n1 * o.trained.at(1)[j]) / (n0 + n1);
            maxErr = std::max(maxErr, std::fabs(avg - o.global[j]));
        }
        NS_TEST_EXPECT_MSG_LT(maxErr, 1e-6, "the weighted mean of the first two");
        std::printf("over-selection: round ends at %.9f s, second update at %.9f s\n",
                    o.endTimes[0],
                    o.updateArrivals[1].first);
    }
};

/** A straggler past the deadline is excluded. */
class FedAvgStragglerTestCase : public TestCase
{
  public:
    FedAvgStragglerTestCase()
        : TestCase("A straggler past the round deadline is left out of the aggregate")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s;
        s.nDevices = 3;
        s.rounds = 1;
        s.deadline = Seconds(2.0); // normal round: ~0.06 s compute + transfers
        s.slowdown[2] = 1000.0;    // device 2 needs ~60 s
        const FlOutcome o = RunFl(s);
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 1u, "the round ends");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.endTimes[0], 2.0, 1e-12, "at the deadline");
        NS_TEST_ASSERT_MSG_EQ(o.trained.count(2), 0u, "device 2 never finished");
        // The global model is sum_k n_k w_k / sum n_k over devices 0 and 1 only.
        const double n0 = o.samples.at(0);
        const double n1 = o.samples.at(1);
        double maxErr = 0;
        double maxWithStraggler = 0;
        for (std::size_t j = 0; j < o.global.size(); ++j)
        {
            const double avg = (n0 * o.trained.at(0)[j] + n1 * o.trained.at(1)[j]) / (n0 + n1);
            maxErr = std::max(maxErr, std::fabs(avg - o.global[j]));
            // Had device 2 been in with its initial weights, the mean would differ.
            const double n2 = o.samples.at(2);
            const double with =
                (n0 * o.trained.at(0)[j] + n1 * o.trained.at(1)[j] + n2 * o.initial[j]) /
                (n0 + n1 + n2);
            maxWithStraggler = std::max(maxWithStraggler, std::fabs(with - o.global[j]));
        }
        NS_TEST_ASSERT_MSG_LT(maxErr, 1e-6, "weighted average of the two in time");
        NS_TEST_ASSERT_MSG_GT(maxWithStraggler, 1e-4, "the test can tell the difference");
    }
};

/** FedProx with mu = 0 is FedAvg; FedSGD's step. */
class FedProxFedSgdTestCase : public TestCase
{
  public:
    FedProxFedSgdTestCase()
        : TestCase("FedProx with mu = 0 equals FedAvg; mu > 0 differs; FedSGD's global step")
    {
    }

  private:
    void DoRun() override
    {
        FlSetup s;
        s.nDevices = 4;
        s.rounds = 2;
        const FlOutcome avg = RunFl(s);
        s.variant = "fedprox";
        s.mu = 0.0;
        const FlOutcome prox0 = RunFl(s);
        s.mu = 1.0;
        const FlOutcome prox1 = RunFl(s);
        NS_TEST_ASSERT_MSG_EQ((avg.global == prox0.global), true, "bitwise equal models");
        double diff = 0;
        double moveAvg = 0;
        double moveProx = 0;
        for (std::size_t j = 0; j < avg.global.size(); ++j)
        {
            diff = std::max(diff, std::fabs(double(avg.global[j]) - prox1.global[j]));
            moveAvg += std::pow(double(avg.global[j]) - avg.initial[j], 2);
            moveProx += std::pow(double(prox1.global[j]) - prox1.initial[j], 2);
        }
        NS_TEST_ASSERT_MSG_GT(diff, 1e-4, "mu = 1 changes the model");
        // The proximal term holds the local models near w^t: the global model moves less.
        NS_TEST_ASSERT_MSG_LT(moveProx, moveAvg, "FedProx moves less from w^0");

        // FedSGD, one round: w^1 = w^0 - eta sum_k (n_k / n) g_k.
        FlSetup g;
        g.nDevices = 3;
        g.rounds = 1;
        g.variant = "fedsgd";
        g.globalLearningRate = 0.5;
        const FlOutcome sgd = RunFl(g);
        NS_TEST_ASSERT_MSG_EQ(sgd.results.size(), 3u, "three gradients");
        // The results arrive in completion order; weights from the samples of each shard.
        double n = 0;
        for (auto& [d, k] : sgd.samples)
        {
            n += k;
        }
        double maxErr = 0;
        for (std::size_t j = 0; j < sgd.global.size(); ++j)
        {
            double gsum = 0;
            for (const auto& r : sgd.results)
            {
                gsum += (r.samples / n) * (*r.gradient)[j];
            }
            maxErr = std::max(maxErr, std::fabs(sgd.initial[j] - 0.5 * gsum - sgd.global[j]));
        }
        NS_TEST_ASSERT_MSG_LT(maxErr, 1e-6, "FedSGD step");
    }
};

/** Failed uploads are sent again on a lossy D2S link. */
class FedAvgUploadRetryTestCase : public TestCase
{
  public:
    FedAvgUploadRetryTestCase()
        : TestCase("On a lossy D2S link, updates whose retransmissions ran out are sent again")
    {
    }

  private:
    void DoRun() override
    {
        // P_D 0.05 per fragment, one retransmission: a 203 kB update (136 fragments) fails
        // with probability 1 - (1 - 0.05^2)^136 = 0.29.
        FlSetup s;
        s.nDevices = 6;
        s.rounds = 4;
        s.deadline = Seconds(5);
        s.d2sDropProbability = 0.05;
        s.maxRetransmissions = 1;
        s.uploadRetries = 0;
        const FlOutcome without = RunFl(s);
        s.uploadRetries = 3;
        const FlOutcome with = RunFl(s);
        std::printf("participants over 4 rounds of 6: %llu without upload retries, %llu with "
                    "(%llu updates sent again)\n",
                    static_cast<unsigned long long>(without.participants),
                    static_cast<unsigned long long>(with.participants),
                    static_cast<unsigned long long>(with.uploadRetries));
        NS_TEST_ASSERT_MSG_EQ(without.uploadRetries, 0u, "no retries when not allowed");
        NS_TEST_ASSERT_MSG_GT(with.uploadRetries, 0u, "some updates failed and were resent");
        NS_TEST_ASSERT_MSG_LT(without.participants, 24u, "losses cost answers");
        NS_TEST_ASSERT_MSG_GT(with.participants, without.participants, "retries recover some");
    }
};

/** A RoundRecord record, with the time it was fired. */
struct RoundRow
{
    uint32_t round;
    double timeS;
    int64_t node;
    std::string metric;
    double value;
};

/** What a traced FedAvg run fired. */
struct TracedFlOutcome
{
    std::vector<RoundRow> rows;   //!< RoundRecord records, in firing order
    std::vector<double> endTimes; //!< RoundEnd times, s
    uint64_t bytesSent{0};        //!< GetBytesSent()
    uint64_t participants{0};     //!< GetTotalParticipants()
};

/**
 * FedAvg on 4 devices (logistic model, Gaussian mixture) for 3 rounds over the D2S link,
 * bytes counted on every D2S transport.
 * \param outDir non-empty: a D2dTraceHelper there with ConnectRounds(); empty: no writer
 * \return the records and totals
 */
TracedFlOutcome
RunTracedFedAvg(const std::string& outDir)
{
    const D2dTestData& data = GaussianTestData(21, 22, 2000, 500);
    const uint32_t n = 4;
    NodeContainer nodes = MakeTestNodesOnLine(n, 10.0);
    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40));
    d2d.SetInitialEnergyJ(1e9);
    d2d.Install(nodes);
    Ptr<Node> server = CreateObject<Node>();
    Ptr<D2dChannel> d2s = d2d.InstallServer(server, nodes, 3.0);
    d2d.AssignStreams(10);
    const auto shards = D2dPartitioner::Iid(*data.train, n, 7);
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < n; ++i)
    {
        learners.push_back(
            MakeTestLearner(nodes, i, D2dModelSpec::Parse("logistic"), data.train, shards, 3, 0.1));
    }
    auto fl = CreateObject<D2dFedAvg>();
    fl->SetAttribute("Rounds", UintegerValue(3));
    fl->SetLearners(learners);
    fl->SetTestSet(data.test);
    fl->SetD2sTransports(d2s->GetTransports(), D2dDeliveryMode::RELIABLE);
    fl->CountBytesSent(d2s->GetTransports());
    fl->AssignStreams(100);
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    std::unique_ptr<D2dTraceHelper> traces;
    if (!outDir.empty())
    {
        traces = std::make_unique<D2dTraceHelper>(outDir);
        traces->ConnectRounds(fl);
    }
    TracedFlOutcome out;
    fl->TraceConnectWithoutContext(
        "RoundRecord",
        Callback<void, uint32_t, int64_t, const std::string&, double>(
            [&out](uint32_t round, int64_t node, const std::string& metric, double value) {
                out.rows.push_back({round, Simulator::Now().GetSeconds(), node, metric, value});
            }));
    fl->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&out](uint32_t, double, double) {
            out.endTimes.push_back(Simulator::Now().GetSeconds());
        }));
    Simulator::ScheduleNow(&D2dFedAvg::Start, fl);
    Simulator::Stop(Seconds(1e6)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.bytesSent = fl->GetBytesSent();
    out.participants = fl->GetTotalParticipants();
    if (traces)
    {
        traces->Finish(1, 0.0);
    }
    Simulator::Destroy();
    return out;
}

/** rounds.csv is what RoundRecord fired; no writer, no file. */
class FlRoundsWriterTestCase : public TestCase
{
  public:
    FlRoundsWriterTestCase()
        : TestCase("rounds.csv rows = the RoundRecord records (round_time_s, bytes_sent, "
                   "participants as the protocol counts them); no writer, no file")
    {
    }

  private:
    void DoRun() override
    {
        const std::string outDir = TestTempDir("fl-rounds");
        const TracedFlOutcome o = RunTracedFedAvg(outDir);
        NS_TEST_ASSERT_MSG_EQ(o.endTimes.size(), 3u, "3 rounds");
        const std::vector<std::string> lines = ReadTextLines(outDir + "/rounds.csv");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + o.rows.size(), "header + a row per record");
        NS_TEST_ASSERT_MSG_EQ(lines[0], "round,sim_time_s,node,metric,value", "header");
        // Per round: accuracy, loss, round_time_s, participants, stragglers, upload_retries,
        // bytes_sent; round 0 (w^0): accuracy, loss.
        NS_TEST_ASSERT_MSG_EQ(o.rows.size(), 2u + 3 * 7, "records");
        char text[160];
        double bytes = 0;
        double participants = 0;
        for (std::size_t i = 0; i < o.rows.size(); ++i)
        {
            const RoundRow& r = o.rows[i];
            std::snprintf(text,
                          sizeof(text),
                          "%u,%.9f,%lld,%s,%.9g",
                          r.round,
                          r.timeS,
                          static_cast<long long>(r.node),
                          r.metric.c_str(),
                          r.value);
            NS_TEST_ASSERT_MSG_EQ(lines[i + 1], std::string(text), "row " << i + 1);
            NS_TEST_ASSERT_MSG_EQ(r.node, -1, "FedAvg records the global model only");
            if (r.round > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(r.timeS, o.endTimes[r.round - 1], "fired at the round's end");
            }
            if (r.metric == "round_time_s")
            {
                // Each round starts when the previous one ends (round 1 at t = 0).
                const double start = r.round == 1 ? 0.0 : o.endTimes[r.round - 2];
                NS_TEST_ASSERT_MSG_EQ_TOL(r.value,
                                          o.endTimes[r.round - 1] - start,
                                          1e-9,
                                          "round " << r.round << " duration");
                NS_TEST_ASSERT_MSG_GT(r.value, 0.0, "rounds take time");
            }
            bytes += r.metric == "bytes_sent" ? r.value : 0.0;
            participants += r.metric == "participants" ? r.value : 0.0;
        }
        NS_TEST_ASSERT_MSG_EQ(bytes, static_cast<double>(o.bytesSent), "bytes_sent sums up");
        NS_TEST_ASSERT_MSG_GT(bytes, 0.0, "bytes were sent");
        NS_TEST_ASSERT_MSG_EQ(participants, static_cast<double>(o.participants), "participants");
        NS_TEST_ASSERT_MSG_EQ(participants, 12.0, "4 devices x 3 rounds");
        std::filesystem::remove_all(outDir);

        // No writer: the same records, in an empty working folder that stays empty.
        const std::string dir = TestTempDir("fl-nowriter");
        const auto cwd = std::filesystem::current_path();
        std::filesystem::current_path(dir);
        const TracedFlOutcome q = RunTracedFedAvg("");
        std::filesystem::current_path(cwd);
        NS_TEST_ASSERT_MSG_EQ(std::filesystem::is_empty(dir), true, "no file written");
        std::filesystem::remove_all(dir);
        NS_TEST_ASSERT_MSG_EQ(q.rows.size(), o.rows.size(), "same records");
        for (std::size_t i = 0; i < std::min(q.rows.size(), o.rows.size()); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(q.rows[i].metric, o.rows[i].metric, "record " << i);
            NS_TEST_ASSERT_MSG_EQ(q.rows[i].value, o.rows[i].value, "record " << i);
            NS_TEST_ASSERT_MSG_EQ(q.rows[i].timeS, o.rows[i].timeS, "record " << i);
        }
    }
};

/** Stateless clients: no device holds a model between rounds, no module per device. */
class FedAvgStatelessClientsTestCase : public TestCase
{
  public:
    FedAvgStatelessClientsTestCase()
        : TestCase("FedAvg, FedProx and FedSGD clients hold no model between rounds; live "
                   "LibTorch modules do not grow with the devices")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        for (const std::string variant : {"fedavg", "fedprox", "fedsgd"})
        {
            FlSetup s;
            s.nDevices = 12;
            s.rounds = 3;
            s.clientFraction = 0.5;
            s.variant = variant;
            s.mu = variant == "fedprox" ? 0.1 : 0.0;
            const FlOutcome o = RunFl(s);
            NS_TEST_ASSERT_MSG_EQ(o.accuracy.size(), 3u, variant << ": every round ends");
            NS_TEST_ASSERT_MSG_EQ(o.participants, 18u, variant << ": 6 clients a round");
            // (the old learners held a model each: 12 at every round's end)
            NS_TEST_ASSERT_MSG_EQ(o.maxHolding, 0u, variant << ": no client holds weights");
            // At most one module of the architecture on this thread (made at Setup if it is
            // the first) and one on each worker; 12 devices make no more (they made 12).
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.maxModules,
                                        o.modulesBefore + 1 + D2dTorchRuntime::GetWorkers(),
                                        variant << ": modules per thread, not per device");
        }
    }
};

/**
 * Deferred training (D2dFedAvg::DeferTraining): the same bytes as eager training, with a
 * bounded number of trained models resident although every client's upload is in flight.
 */
class FedAvgDeferredTrainingTestCase : public TestCase
{
  public:
    FedAvgDeferredTrainingTestCase()
        : TestCase("Deferred client training: the same global models, records and training "
                   "results as eager training; at most MaxResident + 1 trained models resident")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        const uint32_t maxBefore = D2dDeferredJob::GetMaxResident();
        const uint32_t limit = 3;
        D2dDeferredJob::SetMaxResident(limit);

        struct Case
        {
            std::string variant;
            std::string compression;
            Time deadline;
            std::map<uint32_t, double> slowdown;
        };

        // The last case: a straggler past the deadline (its update arrives after the round
        // and is never read; its deferred work still runs before its next job).
        const std::vector<Case> cases{{"fedavg", "float32", Seconds(0), {}},
                                      {"fedsgd", "float32", Seconds(0), {}},
                                      {"fedprox", "float16", Seconds(0), {}},
                                      {"fedavg", "float32", Seconds(0.5), {{5, 20.0}}}};
        for (const auto& c : cases)
        {
            FlSetup s;
            s.nDevices = 24;
            s.rounds = 3;
            s.variant = c.variant;
            s.mu = c.variant == "fedprox" ? 0.1 : 0.0;
            s.compression = c.compression;
            s.deadline = c.deadline;
            s.slowdown = c.slowdown;
            s.deferTraining = false;
            const FlOutcome eager = RunFl(s);
            s.deferTraining = true;
            const FlOutcome deferred = RunFl(s);
            const std::string name =
                c.variant + "/" + c.compression + (c.slowdown.empty() ? "" : "/straggler");
            NS_TEST_ASSERT_MSG_EQ(eager.accuracy.size(), 3u, name << ": every round ends");
            NS_TEST_ASSERT_MSG_EQ((deferred.global == eager.global),
                                  true,
                                  name << ": bitwise equal global models");
            NS_TEST_ASSERT_MSG_EQ(deferred.records.size(),
                                  eager.records.size(),
                                  name << ": as many records");
            for (std::size_t i = 0; i < eager.records.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(deferred.records[i], eager.records[i], name << " record");
            }
            NS_TEST_ASSERT_MSG_EQ((deferred.trained == eager.trained),
                                  true,
                                  name << ": the same trained weights");
            // The same training results (the TrainingDone trace fires later when deferred,
            // so in another order): compare the losses as sorted lists, all digits.
            NS_TEST_ASSERT_MSG_EQ(deferred.results.size(),
                                  eager.results.size(),
                                  name << ": as many training results");
            auto losses = [](const FlOutcome& o) {
                std::vector<double> l;
                for (const auto& r : o.results)
                {
                    l.push_back(r.meanLoss);
                }
                std::sort(l.begin(), l.end());
                return l;
            };
            NS_TEST_ASSERT_MSG_EQ((losses(deferred) == losses(eager)),
                                  true,
                                  name << ": the same training losses");
            NS_TEST_ASSERT_MSG_EQ(eager.peakResident, 0u, name << ": eager: nothing deferred");
            // 24 uploads in flight at once; kept by the server until the round ends, they
            // would be 24 resident results.
            NS_TEST_ASSERT_MSG_GT(deferred.peakResident, 0u, name << ": deferred jobs ran");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(deferred.peakResident,
                                        uint64_t{limit + 1},
                                        name << ": resident trained models bounded");
            NS_TEST_ASSERT_MSG_EQ(deferred.maxHolding, 0u, name << ": no client holds weights");
        }
        D2dDeferredJob::SetMaxResident(maxBefore);
    }
};

class D2dFlTestSuite : public TestSuite
{
  public:
    D2dFlTestSuite()
        : TestSuite("d2d-fl")
    {
        AddTestCase(new FedAvgStatelessClientsTestCase);
        AddTestCase(new FedAvgDeferredTrainingTestCase);
        AddTestCase(new FedAvgRoundTimeTestCase);
        AddTestCase(new FedAvgSleepWhileTrainingTestCase);
        AddTestCase(new FedAvgStragglerTestCase);
        AddTestCase(new FedAvgKnownFailureTestCase);
        AddTestCase(new FedAvgBusyStragglerTestCase);
        AddTestCase(new FedAvgDeviceLeavesTestCase);
        AddTestCase(new FedAvgOverSelectionTestCase);
        AddTestCase(new FedProxFedSgdTestCase);
        AddTestCase(new FedAvgUploadRetryTestCase);
        AddTestCase(new FedAvgAccuracyTestCase);
        AddTestCase(new FlRoundsWriterTestCase);
    }
};

static D2dFlTestSuite g_d2dFlTestSuite;

} // namespace
