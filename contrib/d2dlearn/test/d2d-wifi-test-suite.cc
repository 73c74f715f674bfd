/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/d2d-wifi-transport.h"
#include "ns3/double.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/vector.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"
#include "ns3/yans-wifi-helper.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/** A payload the test can recognise by address. */
class TestPayload : public D2dPayload
{
  public:
    /** \param v a value */
    explicit TestPayload(int v)
        : value(v)
    {
    }

    int value; //!< the value
};

/**
 * \ingroup d2dlearn-tests
 * \brief Common set-up of the Wi-Fi backend tests: devices at given positions, every
 * reception, delivery record and send-done callback collected.
 */
class D2dWifiTestBase : public TestCase
{
  public:
    /** \param name test case name */
    explicit D2dWifiTestBase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * \brief Build a Wi-Fi network.
     * \param positions one position (m) per device
     * \param fading add Nakagami fading to the default channel
     */
    void Build(const std::vector<Vector>& positions, bool fading = false)
    {
        m_nodes = NodeContainer();
        m_nodes.Create(positions.size());
        auto alloc = CreateObject<ListPositionAllocator>();
        for (const auto& p : positions)
        {
            alloc->Add(p);
        }
        MobilityHelper mobility;
        mobility.SetPositionAllocator(alloc);
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(m_nodes);

        m_helper = D2dWifiHelper();
        if (fading)
        {
            YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
            channel.AddPropagationLoss("ns3::NakagamiPropagationLossModel");
            m_helper.SetChannelHelper(channel);
        }
        m_transports = m_helper.Install(m_nodes);
        NS_TEST_ASSERT_MSG_GT(m_helper.AssignStreams(1), 0, "AssignStreams used no stream");
        for (auto& t : m_transports)
        {
            t->SetReceiveCallback(MakeCallback(&D2dWifiTestBase::OnReceive, this));
            t->SetSendDoneCallback(MakeCallback(&D2dWifiTestBase::OnSendDone, this));
            t->TraceConnectWithoutContext("Delivery",
                                          MakeCallback(&D2dWifiTestBase::OnDelivery, this));
        }
        m_receptions.clear();
        m_records.clear();
        m_sendDone.clear();
        m_sendDoneTimes.clear();
        m_ids.clear();
    }

    /**
     * \brief Send at the current simulation time.
     * \param src sender index
     * \param message the message
     * \param dst receiver index or D2D_BROADCAST
     * \param mode delivery mode
     */
    void DoSendNow(uint32_t src, Ptr<const D2dMessage> message, uint32_t dst, D2dDeliveryMode mode)
    {
        const uint64_t id = m_transports[src]->Send(message, dst, mode);
        m_ids.push_back(id);
    }

    /**
     * \brief Schedule a send.
     * \param at when (s)
     * \param src sender index
     * \param message the message
     * \param dst receiver index or D2D_BROADCAST
     * \param mode delivery mode
     */
    void ScheduleSend(double at,
                      uint32_t src,
                      Ptr<const D2dMessage> message,
                      uint32_t dst,
                      D2dDeliveryMode mode)
    {
        Simulator::Schedule(Seconds(at),
                            &D2dWifiTestBase::DoSendNow,
                            this,
                            src,
                            message,
                            dst,
                            mode);
    }

    /**
     * \brief Send to a named set of receivers at the current simulation time.
     * \param src sender index
     * \param message the message
     * \param receivers the named receivers
     * \param mode delivery mode
     */
    void DoMulticastNow(uint32_t src,
                        Ptr<const D2dMessage> message,
                        std::vector<uint32_t> receivers,
                        D2dDeliveryMode mode)
    {
        const uint64_t id = m_transports[src]->Send(message, receivers, mode);
        m_ids.push_back(id);
    }

    /**
     * \brief Schedule a send to a named set of receivers.
     * \param at when (s)
     * \param src sender index
     * \param message the message
     * \param receivers the named receivers
     * \param mode delivery mode
     */
    void ScheduleMulticast(double at,
                           uint32_t src,
                           Ptr<const D2dMessage> message,
                           const std::vector<uint32_t>& receivers,
                           D2dDeliveryMode mode)
    {
        Simulator::Schedule(Seconds(at),
                            &D2dWifiTestBase::DoMulticastNow,
                            this,
                            src,
                            message,
                            receivers,
                            mode);
    }

    /** \brief Check every (message, receiver) pair has exactly one record. */
    void CheckOneRecordPerPair()
    {
        std::map<std::pair<uint64_t, uint32_t>, int> count;
        for (const auto& r : m_records)
        {
            ++count[{r.msgId, r.dst}];
        }
        for (const auto& c : count)
        {
            NS_TEST_EXPECT_MSG_EQ(c.second,
                                  1,
                                  "records for message " << c.first.first << " receiver "
                                                         << c.first.second);
        }
    }

    /** \brief Check nothing is left in flight. */
    void CheckReleased()
    {
        Ptr<D2dWifiNetwork> net = m_helper.GetNetwork();
        NS_TEST_EXPECT_MSG_EQ(net->GetNInFlight(), 0, "message state left in flight");
        NS_TEST_EXPECT_MSG_EQ(net->GetMessageRegistry()->GetNInFlight(),
                              0,
                              "registry entries left");
    }

    /** \brief Tear down. */
    void Finish()
    {
        m_transports.clear();
        m_helper = D2dWifiHelper();
        m_nodes = NodeContainer();
        Simulator::Destroy();
    }

    /** \param r a reception */
    void OnReceive(const D2dReception& r)
    {
        m_receptions.push_back(r);
    }

    /** \param id msg id \param dst destination \param ok success */
    void OnSendDone(uint64_t id, uint32_t dst, bool ok)
    {
        m_sendDone.emplace_back(id, dst, ok);
        m_sendDoneTimes.push_back(Simulator::Now());
    }

    /** \param r a delivery record */
    void OnDelivery(const D2dDeliveryRecord& r)
    {
        m_records.push_back(r);
    }

    NodeContainer m_nodes;                                        //!< nodes
    D2dWifiHelper m_helper;                                       //!< helper
    std::vector<Ptr<D2dWifiTransport>> m_transports;              //!< transports
    std::vector<D2dReception> m_receptions;                       //!< receptions
    std::vector<D2dDeliveryRecord> m_records;                     //!< delivery records
    std::vector<std::tuple<uint64_t, uint32_t, bool>> m_sendDone; //!< send-done calls
    std::vector<Time> m_sendDoneTimes;                            //!< when each send-done ran
    std::vector<uint64_t> m_ids;                                  //!< ids returned by Send
};

/**
 * \ingroup d2dlearn-tests
 * \brief Unreliable unicast of 20,000 bytes between close devices arrives complete, with
 * the sender's message object (payload by reference).
 */
class D2dWifiUnicastTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiUnicastTestCase()
        : D2dWifiTestBase("unreliable unicast arrives complete, payload by reference")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0)});
        auto payload = std::make_shared<const TestPayload>(42);
        auto msg = Create<D2dMessage>("model_update", 20000, payload, 100);
        ScheduleSend(0.5, 0, msg, 1, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 1, "one send");
        const uint64_t id = m_ids[0];
        NS_TEST_ASSERT_MSG_GT(id, 0, "valid id");
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNFragments(20000), 15, "ceil(20000/1400)");
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1, "one reception");
        const D2dReception& r = m_receptions[0];
        NS_TEST_EXPECT_MSG_EQ(r.msgId, id, "msg id");
        NS_TEST_EXPECT_MSG_EQ(r.src, 0, "src");
        NS_TEST_EXPECT_MSG_EQ(r.dst, 1, "dst");
        NS_TEST_EXPECT_MSG_EQ(r.message, msg, "same message object");
        NS_TEST_EXPECT_MSG_EQ(r.message->GetPayload().get(), payload.get(), "same payload");
        NS_TEST_EXPECT_MSG_EQ(r.message->GetPayloadAs<TestPayload>()->value, 42, "payload");
        NS_TEST_EXPECT_MSG_EQ(r.fragments, 15, "fragments");
        NS_TEST_EXPECT_MSG_EQ(r.fragmentsReceived, 15, "fragments received");
        NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete");
        NS_TEST_EXPECT_MSG_EQ(r.ItemsReceived(), 100, "all items");
        NS_TEST_EXPECT_MSG_EQ(r.sendTime, Seconds(0.5), "send time");
        // 15 frames of ~1.5 kB at 6 Mbit/s take at least 15 * 2 ms.
        NS_TEST_EXPECT_MSG_GT(r.recvTime, Seconds(0.5) + MilliSeconds(30), "airtime");
        NS_TEST_EXPECT_MSG_LT(r.recvTime, Seconds(1.0), "no long delay");

        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 1, "one record");
        const D2dDeliveryRecord& rec = m_records[0];
        NS_TEST_EXPECT_MSG_EQ(rec.msgId, id, "record id");
        NS_TEST_EXPECT_MSG_EQ(rec.kind, "model_update", "record kind");
        NS_TEST_EXPECT_MSG_EQ(rec.src, 0, "record src");
        NS_TEST_EXPECT_MSG_EQ(rec.dst, 1, "record dst");
        NS_TEST_EXPECT_MSG_EQ(rec.bytes, 20000, "record bytes");
        NS_TEST_EXPECT_MSG_EQ(rec.fragments, 15, "record fragments");
        NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, 0, "record fragments lost");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "record retransmissions");
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "record delivered");
        NS_TEST_EXPECT_MSG_EQ(rec.reason, "", "record reason");
        NS_TEST_EXPECT_MSG_EQ(rec.recvTime, r.recvTime, "record recv time");
        NS_TEST_EXPECT_MSG_EQ(rec.dropProbability, 0.0, "no eq. 18 at packet level");

        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 1, "one send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[0]), id, "send-done id");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[0]), 1, "send-done dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), true, "send-done success");
        // 15 fragments of 1400 bytes (the last 400) went out as packets.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 15, "packets sent");
        NS_TEST_EXPECT_MSG_EQ(m_transports[1]->GetNPacketsReceived(), 15, "packets received");
        NS_TEST_EXPECT_MSG_EQ(m_transports[2]->GetNPacketsReceived(), 0, "unicast only");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Unreliable broadcast reaches every other device, one record per receiver.
 */
class D2dWifiBroadcastTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiBroadcastTestCase()
        : D2dWifiTestBase("unreliable broadcast reaches the other devices")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0)});
        auto msg = Create<D2dMessage>("prediction", 5000);
        ScheduleSend(0.2, 0, msg, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 2, "two receivers");
        std::map<uint32_t, int> byDst;
        for (const auto& r : m_receptions)
        {
            ++byDst[r.dst];
            NS_TEST_EXPECT_MSG_EQ(r.message, msg, "same message object");
            NS_TEST_EXPECT_MSG_EQ(r.fragments, 4, "ceil(5000/1400) fragments");
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete");
            NS_TEST_EXPECT_MSG_EQ(r.src, 0, "src");
        }
        NS_TEST_EXPECT_MSG_EQ(byDst[1], 1, "device 1 receives once");
        NS_TEST_EXPECT_MSG_EQ(byDst[2], 1, "device 2 receives once");
        NS_TEST_EXPECT_MSG_EQ(byDst.count(0), 0, "the sender does not receive");

        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 2, "one record per receiver");
        CheckOneRecordPerPair();
        for (const auto& rec : m_records)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "delivered");
            NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, 0, "nothing lost");
            NS_TEST_EXPECT_MSG_EQ((rec.dst == 1 || rec.dst == 2), true, "dst is a receiver");
        }
        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 1, "one send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[0]), D2D_BROADCAST, "broadcast dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), true, "send-done success");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Reliable unicast: acknowledged in range; retry limit out of range (5 km).
 */
class D2dWifiReliableTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiReliableTestCase()
        : D2dWifiTestBase("reliable unicast: ACK in range, retry limit out of range")
    {
    }

  private:
    void DoRun() override
    {
        // Device 1 is 5 km away, device 2 is 5 m away.
        Build({Vector(0, 0, 0), Vector(5000, 0, 0), Vector(0, 5, 0)});
        UintegerValue maxRetx;
        m_transports[0]->GetAttribute("MaxRetransmissions", maxRetx);
        NS_TEST_ASSERT_MSG_EQ(maxRetx.Get(), 3, "default MaxRetransmissions");

        auto far = Create<D2dMessage>("vote", 4000);
        auto near = Create<D2dMessage>("model_update", 20000);
        ScheduleSend(0.1, 0, far, 1, D2dDeliveryMode::RELIABLE);
        ScheduleSend(0.1, 0, near, 2, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 2, "two sends");
        const uint64_t farId = m_ids[0];
        const uint64_t nearId = m_ids[1];
        const uint32_t farFragments = 3; // ceil(4000 / 1400)

        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 2, "one record per message");
        CheckOneRecordPerPair();
        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 2, "two send-done");
        for (const auto& sd : m_sendDone)
        {
            if (std::get<0>(sd) == farId)
            {
                NS_TEST_EXPECT_MSG_EQ(std::get<2>(sd), false, "far send fails");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(std::get<0>(sd), nearId, "near id");
                NS_TEST_EXPECT_MSG_EQ(std::get<2>(sd), true, "near send acknowledged");
            }
        }
        for (const auto& rec : m_records)
        {
            if (rec.msgId == farId)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.dst, 1, "far dst");
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "far not delivered");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "retry_limit", "far reason");
                NS_TEST_EXPECT_MSG_EQ(rec.fragments, farFragments, "far fragments");
                NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, farFragments, "far all lost");
                NS_TEST_EXPECT_MSG_EQ(rec.retransmissions,
                                      maxRetx.Get() * farFragments,
                                      "whole-message retransmissions");
                // Four attempts, each followed by a 1 s ACK timeout.
                NS_TEST_EXPECT_MSG_GT(rec.recvTime, Seconds(4.1), "failure after 4 timeouts");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(rec.msgId, nearId, "near id");
                NS_TEST_EXPECT_MSG_EQ(rec.dst, 2, "near dst");
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "near delivered");
                NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "near no retransmission");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "", "near reason");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1, "only the near message arrives");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].message, near, "near message object");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].IsComplete(), true, "complete");
        NS_TEST_EXPECT_MSG_EQ((m_receptions[0].mode == D2dDeliveryMode::RELIABLE), true, "mode");
        // 4 attempts of 3 fragments to the far device + 15 fragments to the near one.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 4 * 3 + 15, "packets sent");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief A device that is off: its pending and later records say "receiver_off".
 */
class D2dWifiTurnOffTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiTurnOffTestCase()
        : D2dWifiTestBase("receiver off: records say receiver_off")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0)});
        Simulator::Schedule(Seconds(0.1), &D2dWifiTransport::TurnOff, m_transports[1]);
        auto bcast = Create<D2dMessage>("belief", 3000);
        auto uni = Create<D2dMessage>("model_update", 3000);
        ScheduleSend(0.2, 0, bcast, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        ScheduleSend(0.2, 0, uni, 1, D2dDeliveryMode::RELIABLE);
        // A device that is off sends nothing.
        ScheduleSend(0.3, 1, uni, 0, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 3, "three sends");
        NS_TEST_EXPECT_MSG_EQ(m_ids[2], 0, "an off device does not send");
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 3, "2 broadcast + 1 unicast records");
        CheckOneRecordPerPair();
        for (const auto& rec : m_records)
        {
            if (rec.dst == 1)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "off receiver gets nothing");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "receiver_off", "reason");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(rec.dst, 2, "other receiver");
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "on receiver gets it");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1, "only device 2 receives");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].dst, 2, "device 2");
        bool uniFailed = false;
        for (const auto& sd : m_sendDone)
        {
            if (std::get<0>(sd) == m_ids[1])
            {
                uniFailed = !std::get<2>(sd);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(uniFailed, true, "reliable send to an off device fails");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief IdleUntil over Wi-Fi: device 1 says at 0.1 s that it expects nothing until 0.5 s;
 * its PHY sleeps (WifiPhy::SetSleepMode), wakes to send its own message at 0.3 s, sleeps
 * again once the message left the MAC, and resumes at 0.5 s. Asked again at 0.7 s until
 * 1 s, it misses device 0's unreliable message of 0.8 s (ns-3's ad-hoc MAC does not hold
 * frames for a sleeping station) and gets the one of 1.1 s.
 */
class D2dWifiIdleUntilTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiIdleUntilTestCase()
        : D2dWifiTestBase("IdleUntil: the Wi-Fi PHY sleeps, wakes to send, resumes in time")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0)});
        Ptr<WifiPhy> phy = m_transports[1]->GetDevice()->GetPhy();
        std::vector<bool> asleep;
        auto note = [&]() {
            asleep.push_back(phy->IsStateSleep());
        };
        Simulator::Schedule(Seconds(0.1), &D2dTransport::IdleUntil, m_transports[1], Seconds(0.5));
        Simulator::Schedule(Seconds(0.2), note); // asleep
        ScheduleSend(0.3, 1, Create<D2dMessage>("test", 3000), 0, D2dDeliveryMode::UNRELIABLE);
        Simulator::Schedule(Seconds(0.4), note); // asleep again, once sent
        Simulator::Schedule(Seconds(0.6), note); // awake since 0.5 s
        Simulator::Schedule(Seconds(0.7), &D2dTransport::IdleUntil, m_transports[1], Seconds(1));
        ScheduleSend(0.8, 0, Create<D2dMessage>("test", 3000), 1, D2dDeliveryMode::UNRELIABLE);
        ScheduleSend(1.1, 0, Create<D2dMessage>("test", 3000), 1, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(asleep.size(), 3u, "three samples");
        NS_TEST_EXPECT_MSG_EQ(asleep[0], true, "asleep at 0.2 s");
        NS_TEST_EXPECT_MSG_EQ(asleep[1], true, "asleep again at 0.4 s");
        NS_TEST_EXPECT_MSG_EQ(asleep[2], false, "awake at 0.6 s");
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 3u, "three records");
        CheckOneRecordPerPair();
        std::map<uint64_t, D2dDeliveryRecord> byId;
        for (const auto& rec : m_records)
        {
            byId[rec.msgId] = rec;
        }
        NS_TEST_EXPECT_MSG_EQ(byId[m_ids[0]].delivered, true, "woken to send: delivered");
        NS_TEST_EXPECT_MSG_GT(byId[m_ids[0]].sendTime.GetSeconds(), 0.29, "sent at 0.3 s");
        NS_TEST_EXPECT_MSG_EQ(byId[m_ids[1]].delivered, false, "missed while asleep");
        NS_TEST_EXPECT_MSG_EQ(byId[m_ids[2]].delivered, true, "received once awake");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Unreliable messages to a device out of range (5 km): a "loss" record, written
 * although the receiver got nothing.
 */
class D2dWifiLossTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiLossTestCase()
        : D2dWifiTestBase("unreliable sends out of range are recorded as loss")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(5000, 0, 0)});
        auto uni = Create<D2dMessage>("offer", 4000);
        auto bcast = Create<D2dMessage>("prediction", 2000);
        ScheduleSend(0.1, 0, uni, 2, D2dDeliveryMode::UNRELIABLE);
        ScheduleSend(0.1, 0, bcast, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 2, "two sends");
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 3, "1 unicast + 2 broadcast records");
        CheckOneRecordPerPair();
        for (const auto& rec : m_records)
        {
            if (rec.dst == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "far device gets nothing");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "loss", "reason");
                NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, rec.fragments, "all fragments lost");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(rec.msgId, m_ids[1], "near device: the broadcast");
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "near device receives");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_receptions.size(), 1, "only the near device receives");
        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 2, "two send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), true, "unreliable: ended");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[1]), true, "unreliable: ended");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief With fading at 45 m, a broadcast of 100 fragments arrives in part: the receiver
 * gets the partial message at its reassembly timeout.
 */
class D2dWifiPartialTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiPartialTestCase()
        : D2dWifiTestBase("partial unreliable delivery under fading")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(45, 0, 0)}, true);
        auto msg = Create<D2dMessage>("datapoints", 140000, nullptr, 1000);
        ScheduleSend(0.1, 0, msg, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1, "one (partial) reception");
        const D2dReception& r = m_receptions[0];
        NS_TEST_EXPECT_MSG_EQ(r.fragments, 100, "fragments");
        NS_TEST_EXPECT_MSG_GT(r.fragmentsReceived, 0, "something arrived");
        NS_TEST_EXPECT_MSG_LT(r.fragmentsReceived, 100, "something was lost");
        NS_TEST_EXPECT_MSG_EQ(r.ItemsReceived(), r.fragmentsReceived * 10, "items of fragments");
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 1, "one record");
        NS_TEST_EXPECT_MSG_EQ(m_records[0].delivered, true, "partial counts as delivered");
        NS_TEST_EXPECT_MSG_EQ(m_records[0].fragmentsLost,
                              100 - r.fragmentsReceived,
                              "lost = fragments - received");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Large messages queued or on the air when the simulation stops: ReportUnfinished()
 * writes one "unfinished" record for each of their open (message, receiver) pairs and
 * forgets them; a second call adds nothing.
 */
class D2dWifiReportUnfinishedTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiReportUnfinishedTestCase()
        : D2dWifiTestBase("messages in flight at Stop are reported as unfinished")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0)});
        // Five 200 kB unicasts (143 fragments each, about 0.3 s of airtime each at
        // 6 Mbit/s) from device 0, a 200 kB broadcast from device 2, and a small reliable
        // unicast from device 1 that completes before the stop.
        for (uint32_t k = 0; k < 5; ++k)
        {
            auto msg = Create<D2dMessage>("model_update", 200000);
            ScheduleSend(0.0,
                         0,
                         msg,
                         1 + k % 2,
                         k % 2 == 0 ? D2dDeliveryMode::UNRELIABLE : D2dDeliveryMode::RELIABLE);
        }
        ScheduleSend(0.0,
                     2,
                     Create<D2dMessage>("datapoints", 200000),
                     D2D_BROADCAST,
                     D2dDeliveryMode::UNRELIABLE);
        ScheduleSend(0.0, 1, Create<D2dMessage>("vote", 2000), 2, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(0.2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 7, "seven sends");
        const uint64_t voteId = m_ids[6];
        Ptr<D2dWifiNetwork> net = m_helper.GetNetwork();
        NS_TEST_ASSERT_MSG_GT(net->GetNInFlight(), 0, "messages in flight at the stop");
        bool voteDelivered = false;
        for (const auto& rec : m_records)
        {
            voteDelivered |= rec.msgId == voteId && rec.delivered;
        }
        NS_TEST_EXPECT_MSG_EQ(voteDelivered, true, "the small message arrived before the stop");
        const std::size_t recordsBefore = m_records.size();
        const std::size_t receptionsBefore = m_receptions.size();
        const std::size_t sendDoneBefore = m_sendDone.size();

        for (auto& t : m_transports)
        {
            t->ReportUnfinished();
        }

        // Every (message, receiver) pair has exactly one record.
        std::map<std::pair<uint64_t, uint32_t>, int> count;
        for (const auto& rec : m_records)
        {
            ++count[{rec.msgId, rec.dst}];
        }
        std::size_t pairs = 0;
        for (std::size_t k = 0; k < m_ids.size(); ++k)
        {
            std::vector<uint32_t> receivers;
            if (k < 5)
            {
                receivers = {1 + static_cast<uint32_t>(k % 2)};
            }
            else if (k == 5)
            {
                receivers = {0, 1};
            }
            else
            {
                receivers = {2};
            }
            for (uint32_t r : receivers)
            {
                NS_TEST_EXPECT_MSG_EQ(count[std::make_pair(m_ids[k], r)],
                                      1,
                                      "records of message " << m_ids[k] << " receiver " << r);
                ++pairs;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_records.size(), pairs, "no record of another pair");
        NS_TEST_EXPECT_MSG_GT(m_records.size(), recordsBefore, "unfinished records written");

        for (std::size_t i = recordsBefore; i < m_records.size(); ++i)
        {
            const D2dDeliveryRecord& rec = m_records[i];
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "unfinished: not delivered");
            NS_TEST_EXPECT_MSG_EQ(rec.reason, "unfinished", "reason");
            NS_TEST_EXPECT_MSG_NE(rec.msgId, voteId, "the finished message is not reported");
            NS_TEST_EXPECT_MSG_EQ(rec.fragments, 143, "ceil(200000/1400) fragments");
            // messages.csv's contract for every backend: a reception that failed as a whole
            // (unfinished) lost every fragment, even where some were on the air.
            NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost,
                                  rec.fragments,
                                  "unfinished: every fragment counted lost");
            NS_TEST_EXPECT_MSG_EQ(rec.recvTime, Seconds(0.2), "recorded at the stop");
            NS_TEST_EXPECT_MSG_EQ(rec.sendTime, Seconds(0), "send time");
            if (i > recordsBefore)
            {
                const D2dDeliveryRecord& prev = m_records[i - 1];
                NS_TEST_EXPECT_MSG_EQ(
                    (prev.src < rec.src || (prev.src == rec.src && prev.msgId <= rec.msgId)),
                    true,
                    "per sender, in increasing message id order");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_receptions.size(), receptionsBefore, "no reception after Stop");
        NS_TEST_EXPECT_MSG_EQ(m_sendDone.size(), sendDoneBefore, "no send-done after Stop");
        CheckReleased();

        // A second call has nothing left to report.
        for (auto& t : m_transports)
        {
            t->ReportUnfinished();
        }
        NS_TEST_EXPECT_MSG_EQ(m_records.size(), pairs, "second call adds nothing");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief The same message script, written once against D2dTransport, runs over the
 * D2dChannel backend and over Wi-Fi ad hoc, and both deliver the same messages to the
 * same receivers (links short enough to be lossless on both).
 */
class D2dSameMessagesBothBackendsTestCase : public TestCase
{
  public:
    D2dSameMessagesBothBackendsTestCase()
        : TestCase("same messages over the D2D channel and over Wi-Fi ad hoc")
    {
    }

  private:
    /** (src, dst, kind, bytes, complete) of each reception */
    using Outcome = std::tuple<uint32_t, uint32_t, std::string, uint64_t, bool>;

    /**
     * \brief The script: unicasts in both modes, a broadcast, an itemised message.
     * \param transports the devices' transports, whatever their backend
     * \return what every device received, sorted
     */
    std::vector<Outcome> RunScript(const std::vector<Ptr<D2dTransport>>& transports)
    {
        std::vector<Outcome> got;
        for (auto& t : transports)
        {
            t->SetReceiveCallback(
                Callback<void, const D2dReception&>([&got](const D2dReception& r) {
                    got.emplace_back(r.src,
                                     r.dst,
                                     r.message->GetKind(),
                                     r.message->GetSizeBytes(),
                                     r.IsComplete());
                }));
        }
        auto update = Create<D2dMessage>("model_update", 40000, std::make_shared<TestPayload>(1));
        auto vote = Create<D2dMessage>("vote", 64);
        auto offer = Create<D2dMessage>("datapoints", 12000, nullptr, 30);
        Simulator::Schedule(Seconds(0.1),
                            [&]() { transports[0]->Send(update, 1, D2dDeliveryMode::RELIABLE); });
        Simulator::Schedule(Seconds(0.5), [&]() {
            transports[2]->Send(vote, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        });
        Simulator::Schedule(Seconds(1.0),
                            [&]() { transports[1]->Send(offer, 2, D2dDeliveryMode::UNRELIABLE); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Simulator::Destroy();
        std::sort(got.begin(), got.end());
        return got;
    }

    /** \return three nodes 5 m apart on a line */
    static NodeContainer Nodes()
    {
        NodeContainer nodes;
        nodes.Create(3);
        MobilityHelper mobility;
        mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                      "DeltaX",
                                      DoubleValue(5.0),
                                      "GridWidth",
                                      UintegerValue(3));
        mobility.Install(nodes);
        return nodes;
    }

    void DoRun() override
    {
        std::vector<Ptr<D2dTransport>> channelTransports;
        {
            NodeContainer nodes = Nodes();
            D2dHelper helper;
            Ptr<D2dChannel> channel = helper.Install(nodes);
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_ASSERT_MSG_LT(channel->GetDropProbability((i + 1) % 3, i),
                                      1e-3,
                                      "a 5 to 10 m D2D link is nearly lossless");
                channelTransports.push_back(channel->GetRadio(i));
            }
        }
        const auto overChannel = RunScript(channelTransports);

        std::vector<Ptr<D2dTransport>> wifiTransports;
        {
            NodeContainer nodes = Nodes();
            D2dWifiHelper helper;
            for (auto& t : helper.Install(nodes))
            {
                wifiTransports.push_back(t);
            }
            helper.AssignStreams(1);
        }
        const auto overWifi = RunScript(wifiTransports);

        const std::vector<Outcome> expected = {
            {0, 1, "model_update", 40000, true},
            {1, 2, "datapoints", 12000, true},
            {2, 0, "vote", 64, true},
            {2, 1, "vote", 64, true},
        };
        NS_TEST_ASSERT_MSG_EQ((overChannel == expected), true, "D2D channel receptions");
        NS_TEST_ASSERT_MSG_EQ((overWifi == expected), true, "Wi-Fi receptions");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Reliable broadcast among four close devices: each receiver gets the message once,
 * complete, and acknowledges it; the sender ends with SendDone(true) on the last ACK,
 * without a retransmission.
 */
class D2dWifiReliableBroadcastTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiReliableBroadcastTestCase()
        : D2dWifiTestBase("reliable broadcast: every receiver acknowledges, one send-done")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0), Vector(5, 5, 0)});
        auto msg = Create<D2dMessage>("model_update", 20000);
        ScheduleSend(0.1, 0, msg, D2D_BROADCAST, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 1, "one send");
        const uint64_t id = m_ids[0];
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 3, "three receptions");
        std::map<uint32_t, int> byDst;
        std::map<uint32_t, Time> recvTime;
        for (const auto& r : m_receptions)
        {
            ++byDst[r.dst];
            recvTime[r.dst] = r.recvTime;
            NS_TEST_EXPECT_MSG_EQ(r.msgId, id, "msg id");
            NS_TEST_EXPECT_MSG_EQ(r.src, 0, "src");
            NS_TEST_EXPECT_MSG_EQ(r.message, msg, "same message object");
            NS_TEST_EXPECT_MSG_EQ(r.fragments, 15, "ceil(20000/1400) fragments");
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete");
            NS_TEST_EXPECT_MSG_EQ((r.mode == D2dDeliveryMode::RELIABLE), true, "mode");
        }
        for (uint32_t d = 1; d <= 3; ++d)
        {
            NS_TEST_EXPECT_MSG_EQ(byDst[d], 1, "device " << d << " receives exactly once");
        }

        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 3, "one record per receiver");
        CheckOneRecordPerPair();
        Time lastDelivery;
        for (const auto& rec : m_records)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.msgId, id, "record id");
            NS_TEST_EXPECT_MSG_EQ((rec.dst >= 1 && rec.dst <= 3), true, "dst is a receiver");
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "delivered");
            NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), true, "complete");
            NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, 0, "nothing lost");
            NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "no retransmission");
            NS_TEST_EXPECT_MSG_EQ(rec.reason, "", "reason");
            NS_TEST_EXPECT_MSG_EQ(rec.recvTime, recvTime[rec.dst], "record recv time");
            lastDelivery = std::max(lastDelivery, rec.recvTime);
        }

        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 1, "one send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[0]), id, "send-done id");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[0]), D2D_BROADCAST, "broadcast dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), true, "every receiver acknowledged");
        // On the last ACK, after the last delivery and before any ACK timeout (1 s).
        NS_TEST_EXPECT_MSG_GT(m_sendDoneTimes[0], lastDelivery, "after the deliveries");
        NS_TEST_EXPECT_MSG_LT(m_sendDoneTimes[0], Seconds(1.1), "no ACK timeout");
        // One attempt of 15 fragments; one ACK from each receiver.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 15, "packets sent");
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsReceived(), 3, "three ACKs");
        for (uint32_t d = 1; d <= 3; ++d)
        {
            NS_TEST_EXPECT_MSG_EQ(m_transports[d]->GetNPacketsReceived(), 15, "fragments");
            NS_TEST_EXPECT_MSG_EQ(m_transports[d]->GetNPacketsSent(), 1, "one ACK");
        }
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Unreliable and reliable multicasts to two of five devices: one transmission each,
 * heard by every device, but only the named receivers receive and get a record.
 */
class D2dWifiMulticastTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiMulticastTestCase()
        : D2dWifiTestBase("multicast to 2 of 5 devices, unreliable and reliable")
    {
    }

  private:
    void DoRun() override
    {
        Build(
            {Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0), Vector(5, 5, 0), Vector(-5, 0, 0)});
        auto unrel = Create<D2dMessage>("prediction", 5000);  // 4 fragments
        auto rel = Create<D2dMessage>("model_update", 20000); // 15 fragments
        // Any order: the transport sorts the set.
        ScheduleMulticast(0.1, 0, unrel, {3, 1}, D2dDeliveryMode::UNRELIABLE);
        ScheduleMulticast(1.0, 0, rel, {1, 3}, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 2, "two sends");
        NS_TEST_ASSERT_MSG_GT(m_ids[0], 0, "valid id");
        NS_TEST_ASSERT_MSG_GT(m_ids[1], 0, "valid id");

        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 4, "two records per multicast");
        CheckOneRecordPerPair();
        std::map<uint64_t, int> rowsPerMessage;
        for (const auto& rec : m_records)
        {
            ++rowsPerMessage[rec.msgId];
            NS_TEST_EXPECT_MSG_EQ((rec.dst == 1 || rec.dst == 3), true, "a named receiver");
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "delivered");
            NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), true, "complete");
            NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "no retransmission");
            NS_TEST_EXPECT_MSG_EQ(rec.fragments, (rec.msgId == m_ids[0] ? 4 : 15), "fragments");
            NS_TEST_EXPECT_MSG_EQ((rec.mode == (rec.msgId == m_ids[0] ? D2dDeliveryMode::UNRELIABLE
                                                                      : D2dDeliveryMode::RELIABLE)),
                                  true,
                                  "mode");
        }
        NS_TEST_EXPECT_MSG_EQ(rowsPerMessage[m_ids[0]], 2, "unreliable multicast: 2 rows");
        NS_TEST_EXPECT_MSG_EQ(rowsPerMessage[m_ids[1]], 2, "reliable multicast: 2 rows");

        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 4, "two receptions per multicast");
        std::map<std::pair<uint64_t, uint32_t>, int> receptions;
        for (const auto& r : m_receptions)
        {
            ++receptions[{r.msgId, r.dst}];
            NS_TEST_EXPECT_MSG_EQ((r.dst == 1 || r.dst == 3), true, "only named receivers");
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete");
            NS_TEST_EXPECT_MSG_EQ(r.message, (r.msgId == m_ids[0] ? unrel : rel), "message");
        }
        for (uint64_t id : m_ids)
        {
            NS_TEST_EXPECT_MSG_EQ(receptions[std::make_pair(id, 1u)], 1, "device 1 once");
            NS_TEST_EXPECT_MSG_EQ(receptions[std::make_pair(id, 3u)], 1, "device 3 once");
        }

        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 2, "two send-done");
        for (std::size_t k = 0; k < 2; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[k]), m_ids[k], "send-done id");
            NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[k]), D2D_MULTICAST, "multicast dst");
            NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[k]), true, "success");
        }
        NS_TEST_EXPECT_MSG_LT(m_sendDoneTimes[1], Seconds(2.0), "reliable: no ACK timeout");

        // One transmission each (4 + 15 fragments to the broadcast address), heard by
        // every device; the named receivers acknowledge the reliable one.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 19, "packets sent");
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsReceived(), 2, "two ACKs");
        for (uint32_t d = 1; d <= 4; ++d)
        {
            const bool named = d == 1 || d == 3;
            NS_TEST_EXPECT_MSG_EQ(m_transports[d]->GetNPacketsReceived(),
                                  19,
                                  "device " << d << " hears every fragment");
            NS_TEST_EXPECT_MSG_EQ(m_transports[d]->GetNPacketsSent(),
                                  (named ? 1 : 0),
                                  "device " << d << ": ACKs from named receivers only");
        }
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Reliable multicast with one named receiver out of range (1 km): the near one
 * delivers and acknowledges the first attempt; the three retransmissions are unicasts to
 * the far one, which ends with "retry_limit", and the send fails.
 */
class D2dWifiReliableMulticastRangeTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiReliableMulticastRangeTestCase()
        : D2dWifiTestBase("reliable multicast: retry limit for a receiver out of range")
    {
    }

  private:
    void DoRun() override
    {
        // Device 1 is near, device 2 is 1 km away, device 3 is near but not named.
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(1000, 0, 0), Vector(0, 5, 0)});
        UintegerValue maxRetx;
        m_transports[0]->GetAttribute("MaxRetransmissions", maxRetx);
        NS_TEST_ASSERT_MSG_EQ(maxRetx.Get(), 3, "default MaxRetransmissions");
        auto msg = Create<D2dMessage>("vote", 4000); // 3 fragments
        ScheduleMulticast(0.1, 0, msg, {1, 2}, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 1, "one send");
        const uint64_t id = m_ids[0];
        const uint32_t fragments = 3;
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 2, "one record per named receiver");
        CheckOneRecordPerPair();
        Time farFailure;
        for (const auto& rec : m_records)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.msgId, id, "record id");
            NS_TEST_EXPECT_MSG_EQ(rec.fragments, fragments, "fragments");
            if (rec.dst == 1)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "near receiver delivers");
                NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), true, "near receiver complete");
                NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "delivered on the first attempt");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "", "near reason");
                NS_TEST_EXPECT_MSG_LT(rec.recvTime, Seconds(0.2), "near: first attempt");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(rec.dst, 2, "far receiver");
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "far receiver gets nothing");
                NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), false, "far not complete");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "retry_limit", "far reason");
                NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, fragments, "far all lost");
                NS_TEST_EXPECT_MSG_EQ(rec.retransmissions,
                                      maxRetx.Get() * fragments,
                                      "MaxRetransmissions whole-message retransmissions");
                // Four attempts, each followed by a 1 s ACK timeout.
                NS_TEST_EXPECT_MSG_GT(rec.recvTime, Seconds(4.1), "failure after 4 timeouts");
                farFailure = rec.recvTime;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1, "only the near receiver receives");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].dst, 1, "device 1");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].IsComplete(), true, "complete");

        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 1, "one send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[0]), id, "send-done id");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[0]), D2D_MULTICAST, "multicast dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), false, "the send fails");
        NS_TEST_EXPECT_MSG_EQ(m_sendDoneTimes[0], farFailure, "send-done at the retry limit");

        // 4 attempts of 3 fragments; the first to the broadcast address (heard by devices
        // 1 and 3), the three retransmissions unicast to device 2 only.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 4 * fragments, "sent");
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsReceived(), 1, "one ACK");
        NS_TEST_EXPECT_MSG_EQ(m_transports[1]->GetNPacketsReceived(), fragments, "first only");
        NS_TEST_EXPECT_MSG_EQ(m_transports[1]->GetNPacketsSent(), 1, "near receiver's ACK");
        NS_TEST_EXPECT_MSG_EQ(m_transports[2]->GetNPacketsReceived(), 0, "out of range");
        NS_TEST_EXPECT_MSG_EQ(m_transports[3]->GetNPacketsReceived(), fragments, "first only");
        NS_TEST_EXPECT_MSG_EQ(m_transports[3]->GetNPacketsSent(), 0, "not named: no ACK");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief A receiver switched off during a reliable broadcast, or already off for a
 * reliable multicast, does not hold its sender: its record says "receiver_off", the
 * others complete, and the send ends (failed) on the last ACK, without a retransmission.
 */
class D2dWifiReliableBroadcastTurnOffTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiReliableBroadcastTurnOffTestCase()
        : D2dWifiTestBase("reliable broadcast and multicast: a receiver off does not stall it")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0), Vector(5, 5, 0)});
        // 100 fragments, about 0.2 s on the air at 6 Mbit/s: device 3 turns off during it.
        auto bcast = Create<D2dMessage>("model_update", 140000);
        ScheduleSend(0.1, 0, bcast, D2D_BROADCAST, D2dDeliveryMode::RELIABLE);
        Simulator::Schedule(Seconds(0.15), &D2dWifiTransport::TurnOff, m_transports[3]);
        // Device 3 is already off for this one.
        auto mcast = Create<D2dMessage>("vote", 4000); // 3 fragments
        ScheduleMulticast(2.0, 0, mcast, {2, 3}, D2dDeliveryMode::RELIABLE);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ids.size(), 2, "two sends");
        const uint64_t bcastId = m_ids[0];
        const uint64_t mcastId = m_ids[1];
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 5, "3 broadcast + 2 multicast records");
        CheckOneRecordPerPair();
        Time bcastLastDelivery;
        Time mcastLastDelivery;
        for (const auto& rec : m_records)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 0, "no retransmission");
            if (rec.dst == 3)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, false, "off receiver gets nothing");
                NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), false, "not complete");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "receiver_off", "reason");
                if (rec.msgId == bcastId)
                {
                    NS_TEST_EXPECT_MSG_EQ(rec.recvTime, Seconds(0.15), "closed at TurnOff");
                    // A failed reception counts every fragment lost (messages.csv's
                    // contract, as on the channel), though some arrived before TurnOff.
                    NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, 100, "every fragment lost");
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(rec.msgId, mcastId, "multicast");
                    NS_TEST_EXPECT_MSG_EQ(rec.fragmentsLost, 3, "off before the send");
                }
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, true, "on receiver delivers");
                NS_TEST_EXPECT_MSG_EQ(rec.IsComplete(), true, "complete");
                NS_TEST_EXPECT_MSG_EQ(rec.reason, "", "reason");
                Time& last = rec.msgId == bcastId ? bcastLastDelivery : mcastLastDelivery;
                last = std::max(last, rec.recvTime);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 3, "devices 1 and 2, then 2");
        for (const auto& r : m_receptions)
        {
            NS_TEST_EXPECT_MSG_NE(r.dst, 3, "the off device receives nothing");
            NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "complete");
        }

        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 2, "two send-done");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[0]), bcastId, "broadcast first");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[0]), D2D_BROADCAST, "broadcast dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[0]), false, "not every receiver got it");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[1]), mcastId, "multicast second");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_sendDone[1]), D2D_MULTICAST, "multicast dst");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_sendDone[1]), false, "not every receiver got it");
        // Each ends on the last ACK of a receiver that is on, not at an ACK timeout (1 s).
        NS_TEST_EXPECT_MSG_GT(m_sendDoneTimes[0], bcastLastDelivery, "after the deliveries");
        NS_TEST_EXPECT_MSG_LT(m_sendDoneTimes[0], Seconds(1.1), "broadcast: no ACK timeout");
        NS_TEST_EXPECT_MSG_GT(m_sendDoneTimes[1], mcastLastDelivery, "after the delivery");
        NS_TEST_EXPECT_MSG_LT(m_sendDoneTimes[1], Seconds(3.0), "multicast: no ACK timeout");
        // Device 3's multicast record is written when device 2's ACK ends the send.
        for (const auto& rec : m_records)
        {
            if (rec.dst == 3 && rec.msgId == mcastId)
            {
                NS_TEST_EXPECT_MSG_EQ(rec.recvTime, m_sendDoneTimes[1], "closed at the end");
            }
        }
        // 100 + 3 fragments, no retransmission; ACKs from devices 1 and 2, then 2.
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 103, "packets sent");
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsReceived(), 3, "three ACKs");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief Cancel on the Wi-Fi backend, as on the channel (D2dCancelTestCase): a message
 * none of whose fragments went to the socket yet is withdrawn (rows "cancelled", nothing on
 * the air, no send-done), a message whose fragments are in the MAC goes on. Device 0 sends
 * a 200 kB model to 1, another to 2 and a broadcast; 1 ms later the first is in the MAC
 * (paced, 8 packets), the second queued behind it, the broadcast waiting for its jitter or
 * queued: the first cannot be withdrawn, the others can, once.
 */
class D2dWifiCancelTestCase : public D2dWifiTestBase
{
  public:
    D2dWifiCancelTestCase()
        : D2dWifiTestBase("Cancel withdraws what has not reached the MAC, not what has")
    {
    }

  private:
    void DoRun() override
    {
        Build({Vector(0, 0, 0), Vector(5, 0, 0), Vector(0, 5, 0)});
        auto model = Create<D2dMessage>("model", 200000);
        auto bcast = Create<D2dMessage>("belief", 1000);
        ScheduleSend(0.2, 0, model, 1, D2dDeliveryMode::RELIABLE);
        ScheduleSend(0.2, 0, model, 2, D2dDeliveryMode::RELIABLE);
        ScheduleSend(0.2, 0, bcast, D2D_BROADCAST, D2dDeliveryMode::UNRELIABLE);
        bool cancelFirst = true;
        bool cancelSecond = false;
        bool cancelBroadcast = false;
        bool cancelAgain = true;
        Simulator::Schedule(Seconds(0.201), [&]() {
            cancelFirst = m_transports[0]->Cancel(m_ids[0]);
            cancelSecond = m_transports[0]->Cancel(m_ids[1]);
            cancelBroadcast = m_transports[0]->Cancel(m_ids[2]);
            cancelAgain = m_transports[0]->Cancel(m_ids[1]);
        });
        Simulator::Stop(Seconds(30));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(cancelFirst, false, "a message in the MAC goes on");
        NS_TEST_EXPECT_MSG_EQ(cancelSecond, true, "a queued message is withdrawn");
        NS_TEST_EXPECT_MSG_EQ(cancelBroadcast, true, "a broadcast not yet sent is withdrawn");
        NS_TEST_EXPECT_MSG_EQ(cancelAgain, false, "only once");
        NS_TEST_ASSERT_MSG_EQ(m_records.size(), 4u, "1 + 1 + 2 broadcast rows");
        CheckOneRecordPerPair();
        for (const auto& r : m_records)
        {
            if (r.msgId == m_ids[0])
            {
                NS_TEST_EXPECT_MSG_EQ(r.IsComplete(), true, "the first arrived");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(r.reason, "cancelled", "reason of " << r.msgId);
                NS_TEST_EXPECT_MSG_EQ(r.delivered, false, "not delivered");
                NS_TEST_EXPECT_MSG_EQ(r.fragmentsLost, r.fragments, "nothing arrived");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_sendDone.size(), 1u, "send-done for the first only");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_sendDone[0]), m_ids[0], "the first's");
        NS_TEST_ASSERT_MSG_EQ(m_receptions.size(), 1u, "one reception");
        NS_TEST_EXPECT_MSG_EQ(m_receptions[0].dst, 1u, "at device 1");
        // 200 kB in 1,400-byte fragments: 143 packets of the first message, nothing else
        // of device 0's (ACKs come from device 1).
        NS_TEST_EXPECT_MSG_EQ(m_transports[0]->GetNPacketsSent(), 143u, "only the first aired");
        CheckReleased();
        Finish();
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief The d2d-wifi test suite: the messaging API over 802.11 ad hoc packets.
 */
class D2dWifiTestSuite : public TestSuite
{
  public:
    D2dWifiTestSuite()
        : TestSuite("d2d-wifi")
    {
        AddTestCase(new D2dWifiUnicastTestCase);
        AddTestCase(new D2dWifiBroadcastTestCase);
        AddTestCase(new D2dWifiReliableTestCase);
        AddTestCase(new D2dWifiTurnOffTestCase);
        AddTestCase(new D2dWifiIdleUntilTestCase);
        AddTestCase(new D2dWifiLossTestCase);
        AddTestCase(new D2dWifiPartialTestCase);
        AddTestCase(new D2dWifiReportUnfinishedTestCase);
        AddTestCase(new D2dSameMessagesBothBackendsTestCase);
        AddTestCase(new D2dWifiReliableBroadcastTestCase);
        AddTestCase(new D2dWifiMulticastTestCase);
        AddTestCase(new D2dWifiReliableMulticastRangeTestCase);
        AddTestCase(new D2dWifiReliableBroadcastTurnOffTestCase);
        AddTestCase(new D2dWifiCancelTestCase);
    }
};

/** Static instance that registers the suite. */
D2dWifiTestSuite g_d2dWifiTestSuite;

} // namespace
