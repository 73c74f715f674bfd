/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The learning protocols take D2dTransports, not channels, so each runs over either
 * backend: the D2D channel model (eq. 18, below an ideal MAC) and packets over 802.11 ad
 * hoc (D2dWifiTransport). With reliable delivery and links that lose nothing for good,
 * both backends deliver every model, so a protocol must reach the same outcome on both:
 * the same averages of the same models (its trace sources), hence bit-identical weights,
 * whatever the timing.
 */
#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-brain-torrent.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-segmented-gossip.h"
#include "ns3/d2d-semi-decentralized-fl.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mobility-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/** What a run of a protocol ends with. */
struct BackendOutcome
{
    /** (round, device, contributors) of every averaging the protocol traced, sorted */
    std::vector<std::tuple<uint32_t, uint32_t, std::vector<uint32_t>>> averages;
    std::vector<std::vector<float>> initial; //!< each device's weights before the run
    std::vector<std::vector<float>> final;   //!< each device's weights after it
    std::vector<float> global;               //!< the server's model (server protocols)
    uint32_t roundsDone{0};
    uint32_t completeRows{0}; //!< messages.csv rows with complete = 1
    uint32_t otherRows{0};    //!< rows with complete = 0
};

/**
 * \brief Record every averaging of the protocol in out.averages, through the trace its
 * class has (decentralized: Averaged; semi-decentralized: Selected, device UINT32_MAX;
 * BrainTorrent: Merged; segmented gossip: Averaged, device x 1000 + segment).
 */
void
ConnectAverages(Ptr<D2dFlProtocol> fl, BackendOutcome& out)
{
    auto record = [&out](uint32_t round, uint32_t device, const std::vector<uint32_t>& c) {
        out.averages.emplace_back(round, device, c);
    };
    if (DynamicCast<D2dDecentralizedFl>(fl))
    {
        fl->TraceConnectWithoutContext(
            "Averaged",
            Callback<void, uint32_t, uint32_t, const std::vector<uint32_t>&>(record));
    }
    else if (DynamicCast<D2dSemiDecentralizedFl>(fl))
    {
        fl->TraceConnectWithoutContext(
            "Selected",
            Callback<void, uint32_t, const std::vector<uint32_t>&>(
                [&out](uint32_t round, const std::vector<uint32_t>& chosen) {
                    out.averages.emplace_back(round, UINT32_MAX, chosen);
                }));
    }
    else if (DynamicCast<D2dBrainTorrent>(fl))
    {
        fl->TraceConnectWithoutContext(
            "Merged",
            Callback<void, uint32_t, uint32_t, const std::vector<uint32_t>&>(record));
    }
    else if (DynamicCast<D2dSegmentedGossip>(fl))
    {
        fl->TraceConnectWithoutContext(
            "Averaged",
            Callback<void, uint32_t, uint32_t, uint32_t, const std::vector<uint32_t>&>(
                [&out](uint32_t round,
                       uint32_t device,
                       uint32_t segment,
                       const std::vector<uint32_t>& c) {
                    out.averages.emplace_back(round, device * 1000 + segment, c);
                }));
    }
}

/**
 * \brief Run two rounds of a protocol among 4 devices 10 m apart (and a server 5 m off the
 * line for fedavg and semi), Gaussian-mixture data, an MLP, reliable delivery.
 * \param protocol fedavg, decentralized, semi-decentralized, braintorrent or gossipfl
 * (D2dProtocolRegistry names) \param wifi true: D2dWifiTransports; false: the D2D (and D2S)
 * channel's radios \return the outcome
 */
BackendOutcome
RunOnBackend(const std::string& protocol, bool wifi)
{
    const uint32_t n = 4;
    const bool withServer = D2dProtocolRegistry::GetTraits(protocol).usesD2s;
    const D2dTestData& data = GaussianTestData(11, 12, 2000, 1000);
    NodeContainer nodes = MakeTestNodesOnLine(n, 10.0);
    D2dHelper d2d; // the devices' energy sources and compute models (and the channel radios)
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    d2d.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
    d2d.SetInitialEnergyJ(1e9);
    Ptr<D2dChannel> channel = d2d.Install(nodes);
    Ptr<Node> server = CreateObject<Node>();
    Ptr<D2dChannel> d2s;
    if (withServer)
    {
        MobilityHelper mobility;
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(server);
        server->GetObject<MobilityModel>()->SetPosition(Vector(15.0, 5.0, 0.0));
        d2s = d2d.InstallServer(server, nodes, 3.0);
    }
    d2d.AssignStreams(10);

    std::vector<Ptr<D2dTransport>> d2dTransports;
    std::vector<Ptr<D2dTransport>> d2sTransports;
    D2dWifiHelper wifiHelper;
    if (wifi)
    {
        NodeContainer all(nodes);
        if (withServer)
        {
            all.Add(server);
        }
        for (const auto& t : wifiHelper.Install(all))
        {
            d2sTransports.push_back(t); // the server is the last (index n)
        }
        wifiHelper.AssignStreams(1000);
        d2dTransports.assign(d2sTransports.begin(), d2sTransports.begin() + n);
    }
    else
    {
        d2dTransports = channel->GetTransports();
        if (withServer)
        {
            d2sTransports = d2s->GetTransports();
        }
    }

    BackendOutcome out;
    std::set<Ptr<D2dTransport>> every(d2dTransports.begin(), d2dTransports.end());
    every.insert(d2sTransports.begin(), d2sTransports.end());
    for (const auto& t : every)
    {
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out](const D2dDeliveryRecord& r) {
                ++(r.IsComplete() ? out.completeRows : out.otherRows);
            }));
    }

    const auto shards = D2dPartitioner::LabelsPerDevice(*data.train, n, 1, {}, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("mlp:16");
    std::vector<Ptr<D2dLearner>> learners;
    for (uint32_t i = 0; i < n; ++i)
    {
        learners.push_back(MakeTestLearner(nodes, i, spec, data.train, shards, 3, 0.05));
        out.initial.push_back(learners.back()->GetParameters());
    }
    const D2dDeliveryMode mode = D2dDeliveryMode::RELIABLE;

    // The protocol by its registry name (class and presets), with this test's settings;
    // then its averaging trace, by class.
    static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> settings{
        {"fedavg", {{"ClientFraction", "0.75"}}},
        {"decentralized", {{"Neighbours", "2"}}},
        {"semi-decentralized",
         {{"GroupSize", "2"}, {"StepsPerExchange", "2"}, {"ExchangesPerRound", "2"}}},
        {"gossipfl", {{"Segments", "2"}, {"Replicas", "2"}}}};
    D2dLearningHelper helper;
    helper.SetProtocol(protocol);
    if (const auto it = settings.find(protocol); it != settings.end())
    {
        for (const auto& [name, value] : it->second)
        {
            helper.SetProtocolAttribute(name, StringValue(value));
        }
    }
    Ptr<D2dFlProtocol> fl = helper.Install(learners, d2dTransports, d2sTransports, mode);
    fl->AssignStreams(100);
    Ptr<D2dFedAvg> fedAvg = DynamicCast<D2dFedAvg>(fl);
    Ptr<D2dSemiDecentralizedFl> semi = DynamicCast<D2dSemiDecentralizedFl>(fl);
    ConnectAverages(fl, out);
    fl->SetAttribute("Rounds", UintegerValue(2));
    fl->SetAttribute("RoundDeadline", TimeValue(Seconds(0))); // wait for every message
    fl->SetAttribute("LocalEpochs", UintegerValue(1));
    fl->SetTestSet(data.test);
    fl->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, fl);
    Simulator::Stop(Seconds(1e4)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.roundsDone = fl->GetRoundsDone();
    for (auto& l : learners)
    {
        // FedAvg-family clients hold no model after a round (stateless): empty.
        out.final.push_back(l->HoldsParameters() ? l->GetParameters() : std::vector<float>{});
    }
    if (fedAvg)
    {
        out.global = fedAvg->GetGlobalModel();
    }
    else if (semi)
    {
        out.global = semi->GetGlobalModel();
    }
    std::sort(out.averages.begin(), out.averages.end());
    Simulator::Destroy();
    return out;
}

/** \return the largest |a - b| / max(|b|, 1e-3) over the entries */
double
MaxRelDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
    {
        return 1e9;
    }
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        worst = std::max(worst,
                         std::abs(static_cast<double>(a[i]) - b[i]) /
                             std::max(std::abs(static_cast<double>(b[i])), 1e-3));
    }
    return worst;
}

/**
 * \ingroup d2dlearn-tests
 * \brief One protocol, two rounds, over the channel model and over Wi-Fi: the same
 * averages of the same models, so the same weights (relative difference < 1e-6), and
 * learning did happen (weights moved, models averaged).
 */
class SameOutcomeOnWifiTestCase : public TestCase
{
  public:
    /** \param protocol fedavg, decentralized, semi-decentralized, braintorrent or gossipfl
     * (D2dProtocolRegistry names) */
    explicit SameOutcomeOnWifiTestCase(const std::string& protocol)
        : TestCase(protocol + " over the channel model and over Wi-Fi: same averages, same "
                              "weights"),
          m_protocol(protocol)
    {
    }

  private:
    void DoRun() override
    {
        const BackendOutcome channel = RunOnBackend(m_protocol, false);
        const BackendOutcome wifi = RunOnBackend(m_protocol, true);
        NS_TEST_ASSERT_MSG_EQ(channel.roundsDone, 2u, "rounds on the channel");
        NS_TEST_ASSERT_MSG_EQ(wifi.roundsDone, 2u, "rounds on Wi-Fi");
        NS_TEST_ASSERT_MSG_GT(wifi.completeRows, 0u, "messages crossed Wi-Fi");
        NS_TEST_ASSERT_MSG_EQ(wifi.otherRows, 0u, "reliable Wi-Fi lost nothing for good");
        NS_TEST_ASSERT_MSG_EQ(channel.otherRows, 0u, "the channel lost nothing for good");
        const uint32_t rowsChannel = channel.completeRows;
        const uint32_t rowsWifi = wifi.completeRows;
        NS_TEST_ASSERT_MSG_EQ(rowsWifi, rowsChannel, "the same messages on both backends");
        // Averages: the same contributors (server protocols: the same clients chosen).
        if (m_protocol != "fedavg")
        {
            NS_TEST_ASSERT_MSG_GT(channel.averages.size(), 0u, "the protocol averaged");
            bool someMerge = false;
            for (const auto& a : channel.averages)
            {
                someMerge = someMerge || std::get<2>(a).size() > 1;
            }
            NS_TEST_ASSERT_MSG_EQ(someMerge, true, "some average took several models");
            const bool sameAverages = channel.averages == wifi.averages;
            NS_TEST_ASSERT_MSG_EQ(sameAverages, true, "the same averages on both backends");
        }
        double worst = 0;
        double moved = 0;
        for (std::size_t d = 0; d < channel.final.size(); ++d)
        {
            worst = std::max(worst, MaxRelDifference(wifi.final[d], channel.final[d]));
            if (!channel.final[d].empty()) // (stateless FedAvg clients hold none)
            {
                moved = std::max(moved, MaxRelDifference(channel.final[d], channel.initial[d]));
            }
        }
        if (!channel.global.empty())
        {
            moved = std::max(moved, MaxRelDifference(channel.global, channel.initial[0]));
        }
        worst = std::max(worst, MaxRelDifference(wifi.global, channel.global));
        NS_TEST_ASSERT_MSG_LT(worst, 1e-6, "the same weights on both backends");
        NS_TEST_ASSERT_MSG_GT(moved, 1e-3, "training and averaging changed the weights");
        std::printf("%s: %u messages complete on each backend, %zu averages, weights differ "
                    "by %.2e (relative)\n",
                    m_protocol.c_str(),
                    rowsChannel,
                    channel.averages.size(),
                    worst);
    }

    std::string m_protocol;
};

/**
 * \ingroup d2dlearn-tests
 * \brief The learning protocols over either backend (the local baseline sends nothing).
 */
class D2dFlBackendTestSuite : public TestSuite
{
  public:
    D2dFlBackendTestSuite()
        : TestSuite("d2d-fl-backend")
    {
        for (const char* p :
             {"fedavg", "decentralized", "semi-decentralized", "braintorrent", "gossipfl"})
        {
            AddTestCase(new SameOutcomeOnWifiTestCase(p));
        }
    }
};

static D2dFlBackendTestSuite g_d2dFlBackendTestSuite;

} // namespace
