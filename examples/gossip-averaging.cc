/*
 * d2dlearn example: a learning protocol of your own in one file, installed with
 * D2dLearningHelper. Gossip averaging within range: each round every device trains and
 * sends its model to the devices that hear it (RangeM); once every (message, receiver) is
 * resolved, each device averages its model with those that arrived. Fragments, losses,
 * channel access, energy and training time are the module's (D2dPeerProtocol).
 *
 *   build/bin/gossip-averaging [--nDevices=8] [--rounds=3] [--rangeM=40] [--dataFraction=0.05]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/mobility-module.h"

#include <iostream>

using namespace ns3;

/** Every round: train, send the model to the devices in range, average what arrived. */
class GossipAveraging : public D2dPeerProtocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::GossipAveraging")
                                .SetParent<D2dPeerProtocol>()
                                .AddConstructor<GossipAveraging>();
        return tid;
    }

    /** \param hearers hearers[i]: the devices that hear device i */
    void SetHearers(std::vector<std::vector<uint32_t>> hearers)
    {
        m_hearers = std::move(hearers);
    }

  protected:
    void ConnectTransports() override
    {
        ConnectMessages(
            {"gossip_model"},
            ReceiveCallback([this](const D2dReception& r) {
                m_received[r.dst].push_back(r.message->GetPayloadAs<D2dModelPayload>()->values);
                Resolved();
            }),
            LostCallback([this](uint32_t, uint32_t, Ptr<const D2dMessage>) { Resolved(); }));
    }

    void DoStart() override
    {
        ShareInitialModel();
        RecordDevices(0, LiveDevices()); // the state before any round
        StartRound();
    }

  private:
    void StartRound()
    {
        ++m_round;
        m_received.assign(GetNDevices(), {});
        for (uint32_t i : IdleDevices())
        {
            ++m_open; // its training job, then its messages
            m_learners[i]->Train(LocalTask(), [this, i](const D2dTrainResult&) {
                const auto& to = m_hearers[i];
                m_open += to.size();
                if (!to.empty())
                {
                    auto w = m_learners[i]->GetParameters();
                    SendMessage(i, to, m_codec.Encode("gossip_model", "weights", m_round, 0, i, w));
                }
                Resolved(); // the training job
            });
        }
    }

    void Resolved()
    {
        if (--m_open > 0)
        {
            return;
        }
        for (uint32_t i : IdleDevices()) // average: own model and what arrived, weight 1 each
        {
            auto values = m_received[i];
            values.push_back(
                std::make_shared<const std::vector<float>>(m_learners[i]->GetParameters()));
            m_learners[i]->SetParameters(
                D2dRobustAggregation::Mean(values, std::vector<double>(values.size(), 1.0)));
        }
        RecordDevices(m_round, LiveDevices());
        EndRound(MakeCallback(&GossipAveraging::StartRound, this));
    }

    std::vector<std::vector<uint32_t>> m_hearers;
    std::vector<std::vector<std::shared_ptr<const std::vector<float>>>> m_received;
    uint32_t m_open{0}; //!< training jobs and (message, receiver) pairs not resolved yet
};

NS_OBJECT_ENSURE_REGISTERED(GossipAveraging);

int
main(int argc, char* argv[])
{
    uint32_t nDevices = 8;
    double dataFraction = 0.05;
    Config::SetDefault("ns3::D2dFlProtocol::Rounds", UintegerValue(3));
    Config::SetDefault("ns3::D2dChannel::RangeM", DoubleValue(40));
    CommandLine cmd(__FILE__); // any --ns3::Class::Attribute=value too
    cmd.AddValue("nDevices", "Devices", nDevices);
    cmd.AddValue("dataFraction", "Fraction of Fashion-MNIST used", dataFraction);
    cmd.AddValue("rounds", "ns3::D2dFlProtocol::Rounds"); // flags bound to attributes
    cmd.AddValue("rangeM", "ns3::D2dChannel::RangeM");
    cmd.Parse(argc, argv);

    // The network: devices 10 m apart in rows of 10, a D2D channel with a hearing range.
    NodeContainer devices;
    devices.Create(nDevices);
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator", "DeltaX", DoubleValue(10));
    mobility.Install(devices);
    D2dHelper d2d;
    d2d.SetChannelAttribute("AccessPolicy", StringValue("Scheduled"));
    Ptr<D2dChannel> channel = d2d.Install(devices);
    d2d.AssignStreams(10);

    // The data and the experiment: the protocol by TypeId, a learner on every device.
    auto train = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "train", dataFraction, 1);
    auto test = D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), "test", dataFraction, 2);
    D2dLearningHelper learning;
    learning.SetProtocolType("ns3::GossipAveraging");
    learning.SetData(train, D2dPartitioner::Iid(*train, nDevices, 1), test);
    learning.SetModel(D2dModelSpec::Parse("logistic"));
    learning.SetLearnerAttribute("LearningRate", DoubleValue(0.05));
    auto protocol = learning.Install(devices, channel, nullptr, D2dDeliveryMode::RELIABLE);
    std::vector<std::vector<uint32_t>> hearers;
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        hearers.push_back(channel->GetNeighbours(i)); // the devices within RangeM of i
    }
    DynamicCast<GossipAveraging>(protocol)->SetHearers(hearers);
    learning.AssignStreams(protocol, 100);

    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Run();
    std::cout << "rounds completed " << protocol->GetRoundsDone() << ", bytes sent "
              << protocol->GetBytesSent() << ", mean accuracy " << protocol->GetLastAccuracy()
              << " at " << Simulator::Now().As(Time::S) << std::endl;
    Simulator::Destroy();
    return 0;
}
