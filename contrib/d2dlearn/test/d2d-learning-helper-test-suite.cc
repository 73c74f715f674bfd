/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-learning-helper": assembling an experiment with D2dLearningHelper, and
 * set-up calls whose order does not matter.
 *
 * - Call order: decentralized FL with Compression float16 set before SetTransports, after
 *   it, and through the helper: every model message is 32 + 2 x parameters bytes (the
 *   float16 codec; before the protocols wired at initialization, setting it after
 *   SetTransports silently kept float32), and the three runs end with the same weights,
 *   bit for bit.
 * - Links: the helper gives a protocol the transports of the links it uses: FedAvg sends
 *   only over D2S, decentralized FL only over D2D, local training over neither; the
 *   helper's learners equal hand-made ones (same initial weights).
 * - Attributes given before the protocol type count (the helper applies them when it
 *   makes the protocol); a type that is not a D2dFlProtocol is refused by name.
 */

#include "d2d-test-fixtures.h"

#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-local-training.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kHelperDevices = 4;

/** The devices, a D2D channel and a D2S channel with a server, on ideal links. */
struct HelperNet
{
    NodeContainer nodes;
    Ptr<D2dChannel> d2d;
    Ptr<D2dChannel> d2s;
};

HelperNet
MakeNet()
{
    HelperNet net;
    net.nodes = MakeTestNodesOnLine(kHelperDevices, 10.0);
    D2dHelper helper;
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40)); // P_D ~ 0
    helper.SetInitialEnergyJ(1e9);
    net.d2d = helper.Install(net.nodes);
    net.d2s = helper.InstallServer(CreateObject<Node>(), net.nodes, 3.0);
    helper.AssignStreams(10);
    return net;
}

/** What a run showed. */
struct HelperOutcome
{
    std::set<uint64_t> modelBytes;           //!< sizes of the messages sent over D2D
    uint64_t d2dMessages{0};                 //!< messages handed to the D2D transports
    uint64_t d2sMessages{0};                 //!< messages handed to the D2S transports
    std::vector<std::vector<float>> final;   //!< every device's weights at the end
    std::vector<std::vector<float>> initial; //!< every device's weights at the start
    uint32_t rounds{0};                      //!< rounds completed
};

/** \brief Count the messages handed to the channel's transports (and their sizes). */
void
Watch(Ptr<D2dChannel> channel, uint64_t& count, std::set<uint64_t>* sizes)
{
    for (const auto& t : channel->GetTransports())
    {
        t->TraceConnectWithoutContext(
            "Send",
            Callback<void, uint64_t, Ptr<const D2dMessage>, uint32_t>(
                [&count, sizes](uint64_t, Ptr<const D2dMessage> m, uint32_t) {
                    ++count;
                    if (sizes)
                    {
                        sizes->insert(m->GetSizeBytes());
                    }
                }));
    }
}

/** \brief Run the protocol to its end and fill the outcome. */
void
Run(Ptr<D2dFlProtocol> protocol, HelperOutcome& out)
{
    for (const auto& l : protocol->GetLearners())
    {
        out.initial.push_back(l->GetParameters());
    }
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Stop(Seconds(1e4)); // safety: the protocol stops the simulator itself
    Simulator::Run();
    out.rounds = protocol->GetRoundsDone();
    for (const auto& l : protocol->GetLearners())
    {
        // FedAvg-family clients hold no model after a round (stateless): empty.
        out.final.push_back(l->HoldsParameters() ? l->GetParameters() : std::vector<float>{});
    }
    Simulator::Destroy();
}

/** How the float16 decentralized run is put together. */
enum class Order
{
    COMPRESSION_FIRST, //!< attribute, then SetTransports
    COMPRESSION_AFTER, //!< SetTransports, then attribute
    HELPER             //!< D2dLearningHelper, attribute given before the type
};

HelperOutcome
RunDecentralized(Order order)
{
    const D2dTestData& data = FashionTestData(0.02);
    HelperNet net = MakeNet();
    HelperOutcome out;
    Watch(net.d2d, out.d2dMessages, &out.modelBytes);
    const auto shards = D2dPartitioner::Iid(*data.train, kHelperDevices, 7);
    const D2dModelSpec spec = D2dModelSpec::Parse("mlp:8");
    Ptr<D2dFlProtocol> fl;
    if (order == Order::HELPER)
    {
        D2dLearningHelper helper;
        helper.SetProtocolAttribute("Neighbours", UintegerValue(2)); // before the type
        helper.SetProtocolAttribute("Compression", StringValue("float16"));
        helper.SetProtocolAttribute("Rounds", UintegerValue(2));
        helper.SetProtocolType("ns3::D2dDecentralizedFl");
        helper.SetData(data.train, shards, data.test);
        helper.SetModel(spec);
        helper.SetSeed(3);
        helper.SetLearnerAttribute("LearningRate", DoubleValue(0.05));
        fl = helper.Install(net.nodes, net.d2d, net.d2s, D2dDeliveryMode::RELIABLE);
        helper.AssignStreams(fl, 100);
    }
    else
    {
        std::vector<Ptr<D2dLearner>> learners;
        for (uint32_t i = 0; i < kHelperDevices; ++i)
        {
            learners.push_back(MakeTestLearner(net.nodes, i, spec, data.train, shards, 3, 0.05));
        }
        fl = CreateObjectWithAttributes<D2dDecentralizedFl>("Neighbours",
                                                            UintegerValue(2),
                                                            "Rounds",
                                                            UintegerValue(2));
        if (order == Order::COMPRESSION_FIRST)
        {
            fl->SetAttribute("Compression", StringValue("float16"));
        }
        fl->SetTransports(net.d2d->GetTransports(), D2dDeliveryMode::RELIABLE);
        fl->SetLearners(learners); // after the transports: the order does not matter
        fl->SetTestSet(data.test);
        if (order == Order::COMPRESSION_AFTER)
        {
            fl->SetAttribute("Compression", StringValue("float16"));
        }
        fl->AssignStreams(100);
    }
    Run(fl, out);
    return out;
}

class CallOrderTestCase : public TestCase
{
  public:
    CallOrderTestCase()
        : TestCase("Compression before or after SetTransports, or via the helper: float16 "
                   "messages and the same weights")
    {
    }

  private:
    void DoRun() override
    {
        const HelperOutcome first = RunDecentralized(Order::COMPRESSION_FIRST);
        const HelperOutcome after = RunDecentralized(Order::COMPRESSION_AFTER);
        const HelperOutcome helper = RunDecentralized(Order::HELPER);
        // MLP 784-8-10: 784 x 8 + 8 + 8 x 10 + 10 = 6370 parameters; float16: 2 bytes each
        // plus the 32-byte header.
        const std::set<uint64_t> expected{32 + 2 * 6370};
        for (const HelperOutcome* o : {&first, &after, &helper})
        {
            NS_TEST_ASSERT_MSG_EQ(o->rounds, 2, "both rounds completed");
            NS_TEST_ASSERT_MSG_GT(o->d2dMessages, 0, "models were exchanged");
            NS_TEST_ASSERT_MSG_EQ((o->modelBytes == expected),
                                  true,
                                  "every model message is float16 (" << *o->modelBytes.begin()
                                                                     << " bytes seen)");
        }
        NS_TEST_ASSERT_MSG_EQ((first.final == after.final), true, "same weights, either order");
        NS_TEST_ASSERT_MSG_EQ((first.final == helper.final), true, "same weights via the helper");
        NS_TEST_ASSERT_MSG_EQ((first.initial == helper.initial),
                              true,
                              "the helper's learners start as hand-made ones");
    }
};

/** \return what a run of the protocol type showed, assembled by the helper on both links */
HelperOutcome
RunWithHelper(const std::string& type)
{
    const D2dTestData& data = FashionTestData(0.02);
    HelperNet net = MakeNet();
    HelperOutcome out;
    Watch(net.d2d, out.d2dMessages, nullptr);
    Watch(net.d2s, out.d2sMessages, nullptr);
    D2dLearningHelper helper;
    helper.SetProtocolType(type);
    helper.SetProtocolAttribute("Rounds", UintegerValue(1));
    helper.SetData(data.train, D2dPartitioner::Iid(*data.train, kHelperDevices, 7), data.test);
    helper.SetModel(D2dModelSpec::Parse("logistic"));
    helper.SetSeed(3);
    auto fl = helper.Install(net.nodes, net.d2d, net.d2s, D2dDeliveryMode::RELIABLE);
    helper.AssignStreams(fl, 100);
    Run(fl, out);
    return out;
}

class LinksTestCase : public TestCase
{
  public:
    LinksTestCase()
        : TestCase("The helper gives each protocol the transports of the links it uses")
    {
    }

  private:
    void DoRun() override
    {
        D2dLearningHelper probe;
        probe.SetProtocolType("ns3::D2dFedAvg");
        NS_TEST_ASSERT_MSG_EQ(probe.ProtocolUsesD2s(), true, "FedAvg has a server");
        NS_TEST_ASSERT_MSG_EQ(probe.ProtocolUsesD2d(), false, "FedAvg: no D2D");
        probe.SetProtocolType("ns3::D2dSemiDecentralizedFl");
        NS_TEST_ASSERT_MSG_EQ(probe.ProtocolUsesD2s() && probe.ProtocolUsesD2d(),
                              true,
                              "semi-decentralized: both links");

        const HelperOutcome fedAvg = RunWithHelper("ns3::D2dFedAvg");
        NS_TEST_ASSERT_MSG_EQ(fedAvg.rounds, 1, "FedAvg ran");
        NS_TEST_ASSERT_MSG_EQ(fedAvg.d2dMessages, 0, "FedAvg sent nothing over D2D");
        // One broadcast of w^0 and one update per device.
        NS_TEST_ASSERT_MSG_EQ(fedAvg.d2sMessages, 1 + kHelperDevices, "FedAvg over D2S");
        const HelperOutcome dec = RunWithHelper("ns3::D2dDecentralizedFl");
        NS_TEST_ASSERT_MSG_EQ(dec.rounds, 1, "decentralized FL ran");
        NS_TEST_ASSERT_MSG_EQ(dec.d2sMessages, 0, "decentralized FL sent nothing over D2S");
        // Every device pulls the models of its K - 1 candidates (Neighbours 7, capped).
        NS_TEST_ASSERT_MSG_EQ(dec.d2dMessages,
                              kHelperDevices * (kHelperDevices - 1),
                              "one model per (in-neighbour, device) edge");
        const HelperOutcome local = RunWithHelper("ns3::D2dLocalTraining");
        NS_TEST_ASSERT_MSG_EQ(local.rounds, 1, "local training ran");
        NS_TEST_ASSERT_MSG_EQ(local.d2dMessages + local.d2sMessages, 0, "no messages");
        NS_TEST_ASSERT_MSG_EQ((local.final != local.initial), true, "the devices trained");
    }
};

class D2dLearningHelperTestSuite : public TestSuite
{
  public:
    D2dLearningHelperTestSuite()
        : TestSuite("d2d-learning-helper")
    {
        AddTestCase(new CallOrderTestCase);
        AddTestCase(new LinksTestCase);
    }
};

D2dLearningHelperTestSuite g_d2dLearningHelperTestSuite;

} // namespace
