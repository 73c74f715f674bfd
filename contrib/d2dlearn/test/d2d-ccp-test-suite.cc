/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-ccp": the committee consensus protocol of Che et al. 2022
 * (D2dCommitteeConsensus) on a D2dChannel with a matrix RSS (20 Mbit/s, no propagation
 * delay, MTU 1500 bytes, no fragment header) and Scheduled channel access, the operation a
 * hash of the set after a fixed execution delay; the CCP registers its own receive handlers
 * on the transports (the test only observes, through a handler of every kind).
 *
 * - no loss: every member hands its score multicast to its transport at once and the
 *   channel's Scheduled access puts them on the air back to back, in send order: the
 *   exchange ends after 5 x 72 bytes of airtime, the multicasts never overlap and reach
 *   exactly the 4 other members (bystanders get no row), every view holds the 5
 *   float-rounded vectors; the vote reaches consensus at attempt 1 with 3 = floor(5/2)+1
 *   replies at exactly 2 x execution + request airtime + reply airtime (52 bytes each);
 *   the request is a multicast to the 4 replicas; ccp.csv rows;
 * - the primary's request lost (radio off, or its links below RxSensitivityW: the
 *   replicas get "out_of_range" rows): attempt 1 times out with 0 replies at exactly
 *   RequestTimeout (after the attempt began / after the request left), attempt 2 has
 *   another primary and reaches consensus;
 * - quorum with C = 7: 3 identical replies never make a consensus (7 attempts, failed), 4
 *   do; a refusing replica (digest 0) and one with another digest never count;
 * - a silent member (no proposal) drawn as primary times out after RequestTimeout, sends
 *   nothing and never executes; primaries are drawn uniformly and never twice in a vote;
 * - MaxAttempts used up: "failed", done() once, consensus false; MaxAttempts > C counts as C;
 * - replies that arrive after their attempt's timer are ignored, and a vote started from the
 *   done() of a failed one is not disturbed by the old vote's late messages;
 * - lossy channel (P_D = 0.2 per fragment of eq. 18, unreliable): 10 rounds of exchange +
 *   vote all reach consensus, with timeouts; the share of vectors that arrive and of
 *   attempts that succeed match 0.8 and P(Bin(6, 0.64) >= 4) = 0.6268; reliable mode gets
 *   consensus at attempt 1 with retransmissions;
 * - Immediate channel access: the simultaneous score multicasts of half-duplex radios
 *   collide ("half_duplex" rows), which Scheduled access avoids;
 * - the same score exchange and election vote over the packet-level Wi-Fi backend
 *   (D2dWifiTransport, reliable multicast) and over the channel: complete views, the same
 *   committee elected (the hand-computed middle of the ranking), by the same primary at
 *   attempt 1.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/d2d-ccp-payload.h"
#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-cmfl-trace-writer.h"
#include "ns3/d2d-committee-consensus.h"
#include "ns3/d2d-committee-rules.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const double kLinkRateBps = 20e6; // SpectralEfficiency 1 x BandwidthHz 20 MHz

/** Airtime of a one-fragment message of `bytes` bytes (no fragment header). */
Time
Airtime(uint64_t bytes)
{
    return Seconds(bytes * 8.0 / kLinkRateBps);
}

/** FNV-1a of a set: the result digest of the test's operation. */
uint64_t
SetHash(const std::vector<uint32_t>& set)
{
    uint64_t h = 1469598103934665603ull;
    for (auto v : set)
    {
        for (int b = 0; b < 4; ++b)
        {
            h ^= (v >> (8 * b)) & 0xFF;
            h *= 1099511628211ull;
        }
    }
    return h;
}

/** A ccp.csv row as seen on the Step trace. */
struct Row
{
    uint32_t round;
    std::string step;
    uint32_t attempt;
    int64_t primary;
    uint32_t replies;
    uint32_t quorum;
    std::string outcome;
    Time time;
};

/** An execute call. */
struct Execution
{
    Time time;
    uint32_t member;
    std::vector<uint32_t> set;
};

/** The network, the protocol and everything a test observes. */
struct CcpNet
{
    NodeContainer nodes;
    Ptr<D2dChannel> channel;                   //!< null over Wi-Fi
    std::vector<Ptr<D2dTransport>> transports; //!< device i's at index i
    Ptr<MatrixRssModel> matrix;
    std::vector<std::vector<double>> w;
    Ptr<D2dCommitteeConsensus> ccp;
    std::vector<D2dDeliveryRecord> records;
    std::vector<D2dReception> receptions; //!< every CCP reception, complete or not
    std::vector<Row> rows;
    std::vector<Execution> executions;
    std::map<uint32_t, uint64_t> digestOf; //!< member -> digest it reports (else Hash)
    Time execDelay{MilliSeconds(10)};
    /** Called at each execute call before it answers (e.g. to break the primary's radio). */
    std::function<void(uint32_t)> onExecute;
    std::vector<std::pair<Time, D2dCcpOutcome>> outcomes;
    std::vector<std::pair<Time, D2dCommitteeConsensus::ScoreViews>> exchanges;

    /** \return the operation: record, report the digest after execDelay */
    D2dCommitteeConsensus::ExecuteCallback Execute()
    {
        return D2dCommitteeConsensus::ExecuteCallback(
            [this](uint32_t member, const std::vector<uint32_t>& set, Callback<void, uint64_t> cb) {
                executions.push_back({Simulator::Now(), member, set});
                if (onExecute)
                {
                    onExecute(member);
                }
                auto it = digestOf.find(member);
                const uint64_t d = it == digestOf.end() ? SetHash(set) : it->second;
                Simulator::Schedule(execDelay, [cb, d]() { cb(d); });
            });
    }

    /** \return a done() that records the outcome, then calls next (if any) */
    Callback<void, const D2dCcpOutcome&> Done(std::function<void()> next = nullptr)
    {
        return Callback<void, const D2dCcpOutcome&>([this, next](const D2dCcpOutcome& o) {
            outcomes.emplace_back(Simulator::Now(), o);
            if (next)
            {
                next();
            }
        });
    }

    std::vector<Time> voteStarts; //!< start times of the votes of VoteInSequence

    /**
     * Schedule votes 1..n one after the other, each starting when the previous one is done,
     * all with the same committee and proposals; their start times go to voteStarts.
     */
    void VoteInSequence(uint32_t n,
                        const std::string& step,
                        const std::vector<uint32_t>& committee,
                        const std::map<uint32_t, std::vector<uint32_t>>& proposals)
    {
        m_nextVote = [this, n, step, committee, proposals]() {
            if (voteStarts.size() == n)
            {
                return;
            }
            voteStarts.push_back(Simulator::Now());
            ccp->Vote(static_cast<uint32_t>(voteStarts.size()),
                      step,
                      committee,
                      proposals,
                      Execute(),
                      Done(m_nextVote));
        };
        Simulator::ScheduleNow(m_nextVote);
    }

    /** \return the messages of a kind: msgId -> its records */
    std::map<uint64_t, std::vector<D2dDeliveryRecord>> Messages(const std::string& kind) const
    {
        std::map<uint64_t, std::vector<D2dDeliveryRecord>> out;
        for (const auto& r : records)
        {
            if (r.kind == kind)
            {
                out[r.msgId].push_back(r);
            }
        }
        return out;
    }

    /** \return a committee's members in index order */
    static std::vector<uint32_t> Range(uint32_t n)
    {
        std::vector<uint32_t> v(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            v[i] = i;
        }
        return v;
    }

  private:
    std::function<void()> m_nextVote; //!< starts the next vote of VoteInSequence
};

/**
 * The CCP on the transports: observers of receptions (every kind), records and ccp.csv rows.
 * \param net the network, its transports set
 */
void
AttachCcp(CcpNet& net,
          D2dDeliveryMode mode,
          int64_t stream,
          Time requestTimeout,
          uint32_t maxAttempts)
{
    net.ccp = CreateObject<D2dCommitteeConsensus>();
    net.ccp->SetAttribute("RequestTimeout", TimeValue(requestTimeout));
    net.ccp->SetAttribute("MaxAttempts", UintegerValue(maxAttempts));
    // The cases below count floor(C/2) + 1 replica replies (CCP step 6 literally);
    // D2dCcpQuorumModeTestCase sets each mode itself.
    net.ccp->SetAttribute("Quorum", EnumValue(static_cast<int>(D2dQuorumMode::REPLICAS)));
    net.ccp->AssignStreams(stream);
    CcpNet* p = &net;
    for (const auto& t : net.transports)
    {
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>(
                [p](const D2dDeliveryRecord& r) { p->records.push_back(r); }));
        // An observer of every kind; the CCP registers its own handlers.
        t->AddReceiveHandler(Callback<void, const D2dReception&>([p](const D2dReception& r) {
            if (r.message->GetKind().rfind("ccp_", 0) == 0)
            {
                p->receptions.push_back(r);
            }
        }));
    }
    net.ccp->SetTransports(net.transports, mode);
    net.ccp->TraceConnectWithoutContext(
        "Step",
        Callback<void,
                 uint32_t,
                 const std::string&,
                 uint32_t,
                 int64_t,
                 uint32_t,
                 uint32_t,
                 const std::string&>([p](uint32_t round,
                                         const std::string& step,
                                         uint32_t attempt,
                                         int64_t primary,
                                         uint32_t replies,
                                         uint32_t quorum,
                                         const std::string& outcome) {
            p->rows.push_back(
                {round, step, attempt, primary, replies, quorum, outcome, Simulator::Now()});
        }));
}

/**
 * n radios, every link with drop probability pDrop (0: NoisePowerW 0), the CCP on them.
 * \param stream RNG stream of the CCP (the primaries' draws)
 * \param access the channel's access policy
 */
std::unique_ptr<CcpNet>
MakeNet(uint32_t n,
        double pDrop,
        D2dDeliveryMode mode,
        int64_t stream,
        Time requestTimeout,
        uint32_t maxAttempts = 0,
        D2dChannelAccess::Policy access = D2dChannelAccess::SCHEDULED)
{
    auto net = std::make_unique<CcpNet>();
    net->nodes.Create(n);
    // Eq. 18 with r = 1 bit/s/Hz and sigma^2 = 1 W: the RSS W of drop probability pDrop.
    net->w.assign(n, std::vector<double>(n, pDrop > 0 ? RssForDropW(pDrop, 1.0, 1.0) : 1.0));
    net->matrix = CreateObject<MatrixRssModel>();
    net->matrix->SetMatrix(net->w);
    D2dHelper helper;
    helper.SetRssModel(net->matrix);
    helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
    helper.SetChannelAttribute("BandwidthHz", DoubleValue(20e6));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(pDrop > 0 ? 1.0 : 0.0));
    helper.SetChannelAttribute("MtuBytes", UintegerValue(1500));
    helper.SetChannelAttribute("AccessPolicy", EnumValue(access));
    helper.SetInitialEnergyJ(1e6);
    net->channel = helper.Install(net->nodes);
    helper.AssignStreams(1);
    net->transports = net->channel->GetTransports();
    AttachCcp(*net, mode, stream, requestTimeout, maxAttempts);
    return net;
}

/**
 * n devices of the packet-level Wi-Fi backend (802.11a ad hoc, 6 Mbit/s), 2 m apart on a
 * line (every link in range), the CCP on their D2dWifiTransports.
 */
std::unique_ptr<CcpNet>
MakeWifiNet(uint32_t n, D2dDeliveryMode mode, int64_t stream, Time requestTimeout)
{
    auto net = std::make_unique<CcpNet>();
    net->nodes.Create(n);
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                  "DeltaX",
                                  DoubleValue(2.0),
                                  "GridWidth",
                                  UintegerValue(n));
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(net->nodes);
    D2dWifiHelper helper;
    for (const auto& t : helper.Install(net->nodes))
    {
        // The score multicasts, handed to idle 802.11 MACs in the same instant, are spread
        // by the transports' GroupJitter (default 10 ms), with the default AckTimeout alike
        // on every device.
        net->transports.push_back(t);
    }
    helper.AssignStreams(1);
    AttachCcp(*net, mode, stream, requestTimeout, 0);
    return net;
}

/** Stop, then run. */
void
RunUntil(CcpNet& /* net */, Time stop)
{
    Simulator::Stop(stop); // the energy sources update periodically for ever
    Simulator::Run();
}

/** \return every member of the committee proposing the same set */
std::map<uint32_t, std::vector<uint32_t>>
Same(const std::vector<uint32_t>& committee, const std::vector<uint32_t>& set)
{
    std::map<uint32_t, std::vector<uint32_t>> out;
    for (auto c : committee)
    {
        out[c] = set;
    }
    return out;
}

} // namespace

/**
 * No loss: exchange timing and contents, float rounding, no overlap; consensus at attempt 1
 * at the hand-computed time; ccp.csv.
 */
class D2dCcpNoLossTestCase : public TestCase
{
  public:
    D2dCcpNoLossTestCase()
        : TestCase("no loss: exchange of 5 vectors back to back, consensus at attempt 1 at "
                   "2 E + request + reply airtime, ccp.csv")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        auto net = MakeNet(7, 0.0, D2dDeliveryMode::UNRELIABLE, 100, Seconds(2));
        const std::vector<uint32_t> committee = {0, 1, 2, 4, 6}; // 3 and 5 are bystanders
        const std::vector<uint32_t> set = {10, 11, 12};
        const std::string dir = TestTempDir("ccp");
        auto traces = std::make_unique<D2dTraceHelper>(dir);
        D2dCmflTraceWriter writer(*traces);
        writer.ConnectConsensus(net->ccp);

        std::map<uint32_t, D2dScoreVector> own;
        for (auto c : committee)
        {
            for (uint32_t k = 20; k < 24; ++k)
            {
                own[c].emplace_back(k, 0.1 + 1.0 / (3.0 + c + k)); // not representable in float
            }
        }
        CcpNet* p = net.get();
        Simulator::Schedule(Seconds(1), [&]() {
            p->ccp->ExchangeScores(1,
                                   committee,
                                   own,
                                   Callback<void, const D2dCommitteeConsensus::ScoreViews&>(
                                       [&](const D2dCommitteeConsensus::ScoreViews& views) {
                                           p->exchanges.emplace_back(Simulator::Now(), views);
                                           // As CMFL does: the vote starts from the exchange's
                                           // done().
                                           p->ccp->Vote(1,
                                                        "aggregation",
                                                        committee,
                                                        Same(committee, set),
                                                        p->Execute(),
                                                        p->Done());
                                       }));
        });
        RunUntil(*net, Seconds(30));

        // Score exchange: 5 multicasts of 32 + 4 x 8 + 8 = 72 bytes, handed over at once,
        // on the air back to back (Scheduled access: half-duplex radios never overlap).
        const Time tExchange = Seconds(1) + 5 * Airtime(72);
        CheckExchange(*net, own, tExchange);
        if (IsStatusFailure())
        {
            return;
        }
        CheckScoreMulticasts(*net, committee);
        if (IsStatusFailure())
        {
            return;
        }

        // Vote: request and replies of 32 + 4 x 3 + 8 = 52 bytes.
        CheckVote(*net, committee, set, tExchange);
        if (IsStatusFailure())
        {
            return;
        }
        const D2dCcpOutcome& o = net->outcomes[0].second;
        CheckVoteMessages(*net, o, tExchange);
        if (IsStatusFailure())
        {
            return;
        }

        net->ccp->Dispose();
        traces->Finish(3, 0.0);
        CheckCsv(*net, o, dir);
        if (IsStatusFailure())
        {
            return;
        }
        traces.reset();
        std::filesystem::remove_all(dir);
        Simulator::Destroy();
    }

    /**
     * The score exchange: done() once at the hand-computed time, every view holds the 5
     * float-rounded vectors.
     * \param net the network, run
     * \param own each member's own score vector, as handed to the exchange
     * \param tExchange the exchange's expected end: 1 s + 5 score airtimes
     */
    void CheckExchange(const CcpNet& net,
                       const std::map<uint32_t, D2dScoreVector>& own,
                       Time tExchange)
    {
        NS_TEST_ASSERT_MSG_EQ(D2dCcpPayload::BytesFor(0, 4), 72, "score message size");
        NS_TEST_ASSERT_MSG_EQ(net.exchanges.size(), 1, "exchange done() once");
        NS_TEST_ASSERT_MSG_EQ_TOL(net.exchanges[0].first.GetSeconds(),
                                  tExchange.GetSeconds(),
                                  5e-9,
                                  "exchange ends after 5 x 28.8 us");
        const auto& views = net.exchanges[0].second;
        NS_TEST_ASSERT_MSG_EQ(views.size(), 5, "a view per member");
        for (const auto& [member, byOrigin] : views)
        {
            NS_TEST_ASSERT_MSG_EQ(byOrigin.size(), 5, "member " << member << " holds 5 vectors");
            for (const auto& [origin, shared] : byOrigin)
            {
                const D2dScoreVector& scores = *shared;
                const auto& sent = own.at(origin);
                NS_TEST_ASSERT_MSG_EQ(scores.size(), sent.size(), "entries");
                for (std::size_t j = 0; j < scores.size(); ++j)
                {
                    NS_TEST_ASSERT_MSG_EQ(scores[j].first, sent[j].first, "client id");
                    NS_TEST_ASSERT_MSG_EQ(scores[j].second,
                                          static_cast<double>(static_cast<float>(sent[j].second)),
                                          "float-rounded score");
                    NS_TEST_ASSERT_MSG_NE(scores[j].second, sent[j].second, "rounding happened");
                }
            }
        }
    }

    /**
     * The score multicasts: 5 of 72 bytes, each reaching exactly the 4 other members, on
     * the air back to back in ascending member order.
     * \param net the network, run
     * \param committee the members, in ascending order
     */
    void CheckScoreMulticasts(const CcpNet& net, const std::vector<uint32_t>& committee)
    {
        auto scores = net.Messages("ccp_score");
        NS_TEST_ASSERT_MSG_EQ(scores.size(), 5, "5 score multicasts");
        std::vector<std::vector<D2dDeliveryRecord>> bySend;
        for (const auto& [id, recs] : scores)
        {
            NS_TEST_ASSERT_MSG_EQ(recs.size(), 4, "a multicast reaches the 4 other members");
            for (const auto& r : recs)
            {
                NS_TEST_ASSERT_MSG_EQ(r.delivered, true, "P_D = 0");
                NS_TEST_ASSERT_MSG_EQ(r.bytes, 72, "true size");
                NS_TEST_ASSERT_MSG_EQ(std::count(committee.begin(), committee.end(), r.dst),
                                      1,
                                      "only members get a row");
                NS_TEST_ASSERT_MSG_NE(r.dst, r.src, "not the sender");
                NS_TEST_ASSERT_MSG_EQ(r.sendTime, Seconds(1), "every member sends at once");
            }
            bySend.push_back(recs);
        }
        // On the air: the receptions end one airtime after the previous multicast's, in
        // send (= ascending member) order.
        auto lastRecv = [](const std::vector<D2dDeliveryRecord>& recs) {
            Time end;
            for (const auto& r : recs)
            {
                end = std::max(end, r.recvTime);
            }
            return end;
        };
        std::sort(bySend.begin(), bySend.end(), [&](const auto& a, const auto& b) {
            return lastRecv(a) < lastRecv(b);
        });
        for (std::size_t i = 0; i < bySend.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(bySend[i][0].src, committee[i], "ascending member order");
            const Time end = Seconds(1) + static_cast<int64_t>(i + 1) * Airtime(72);
            NS_TEST_ASSERT_MSG_EQ_TOL(lastRecv(bySend[i]).GetSeconds(),
                                      end.GetSeconds(),
                                      5e-9,
                                      "multicast " << i << " on the air after the previous");
            for (const auto& r : bySend[i])
            {
                NS_TEST_ASSERT_MSG_EQ(r.recvTime, lastRecv(bySend[i]), "one transmission");
            }
        }
    }

    /**
     * The vote: done() once, consensus on the set at attempt 1 at the hand-computed time,
     * the scores and vote rows of the Step trace, the quorum.
     * \param net the network, run
     * \param committee the members
     * \param set the set every member proposed
     * \param tExchange the exchange's expected end, when the vote started
     */
    void CheckVote(const CcpNet& net,
                   const std::vector<uint32_t>& committee,
                   const std::vector<uint32_t>& set,
                   Time tExchange)
    {
        NS_TEST_ASSERT_MSG_EQ(D2dCcpPayload::BytesFor(3, 0), 52, "request size");
        NS_TEST_ASSERT_MSG_EQ(net.outcomes.size(), 1, "vote done() once");
        const D2dCcpOutcome& o = net.outcomes[0].second;
        NS_TEST_ASSERT_MSG_EQ(o.consensus, true, "consensus");
        NS_TEST_ASSERT_MSG_EQ(o.attempts, 1, "at attempt 1");
        NS_TEST_ASSERT_MSG_EQ((o.set == set), true, "agreed set");
        NS_TEST_ASSERT_MSG_EQ(o.digest, SetHash(set), "agreed digest");
        NS_TEST_ASSERT_MSG_EQ(std::count(committee.begin(), committee.end(), o.primary),
                              1,
                              "member");
        const Time tDone = tExchange + 2 * MilliSeconds(10) + Airtime(52) + Airtime(52);
        NS_TEST_ASSERT_MSG_EQ_TOL(net.outcomes[0].first.GetSeconds(),
                                  tDone.GetSeconds(),
                                  5e-9,
                                  "done = exec + request airtime + exec + reply airtime");
        NS_TEST_ASSERT_MSG_EQ(net.rows.size(), 2, "two rows");
        NS_TEST_ASSERT_MSG_EQ(net.rows[0].step, "scores", "exchange row");
        NS_TEST_ASSERT_MSG_EQ(net.rows[0].replies, 20, "5 vectors x 4 other members arrived");
        NS_TEST_ASSERT_MSG_EQ(net.rows[0].outcome, "exchanged", "exchange row outcome");
        NS_TEST_ASSERT_MSG_EQ(net.rows[0].primary, -1, "exchange row primary");
        NS_TEST_ASSERT_MSG_EQ(net.rows[0].quorum, 20, "5 members on x (5 - 1) could arrive");
        const Row& vr = net.rows[1];
        NS_TEST_ASSERT_MSG_EQ(vr.quorum, 3, "Step carries the quorum floor(5/2)+1");
        NS_TEST_ASSERT_MSG_EQ(vr.outcome, "consensus", "vote row");
        NS_TEST_ASSERT_MSG_EQ(vr.attempt, 1, "attempt");
        NS_TEST_ASSERT_MSG_EQ(vr.primary, o.primary, "primary");
        NS_TEST_ASSERT_MSG_EQ(vr.replies, 3, "ends at the quorum floor(5/2)+1 = 3");
        NS_TEST_ASSERT_MSG_EQ(D2dCommitteeConsensus::Quorum(5), 3, "quorum");
        NS_TEST_ASSERT_MSG_EQ(D2dCommitteeConsensus::Quorum(7), 4, "quorum");
        NS_TEST_ASSERT_MSG_EQ(D2dCommitteeConsensus::Quorum(4), 3, "quorum");
    }

    /**
     * The vote's messages: one request multicast to the 4 replicas, a unicast reply from
     * each, the primary and the 4 replicas execute (bystanders do not).
     * \param net the network, run
     * \param o the vote's outcome
     * \param tExchange the exchange's expected end, when the vote started
     */
    void CheckVoteMessages(const CcpNet& net, const D2dCcpOutcome& o, Time tExchange)
    {
        auto requests = net.Messages("ccp_request");
        NS_TEST_ASSERT_MSG_EQ(requests.size(), 1, "one request");
        for (const auto& [id, recs] : requests)
        {
            NS_TEST_ASSERT_MSG_EQ(recs.size(), 4, "a multicast to the 4 replicas");
            NS_TEST_ASSERT_MSG_EQ(recs[0].src, o.primary, "sent by the primary");
            NS_TEST_ASSERT_MSG_EQ(recs[0].bytes, 52, "true size");
        }
        auto replies = net.Messages("ccp_reply");
        NS_TEST_ASSERT_MSG_EQ(replies.size(), 4, "every replica replies");
        for (const auto& [id, recs] : replies)
        {
            NS_TEST_ASSERT_MSG_EQ(recs.size(), 1, "unicast");
            NS_TEST_ASSERT_MSG_EQ(recs[0].dst, o.primary, "to the primary");
            NS_TEST_ASSERT_MSG_EQ(recs[0].bytes, 52, "true size");
        }
        NS_TEST_ASSERT_MSG_EQ(net.executions.size(), 5, "primary + 4 replicas execute");
        NS_TEST_ASSERT_MSG_EQ(net.executions[0].member, o.primary, "the primary first");
        for (std::size_t i = 1; i < net.executions.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_NE(net.executions[i].member, 3, "bystanders do not execute");
            NS_TEST_ASSERT_MSG_NE(net.executions[i].member, 5, "bystanders do not execute");
            NS_TEST_ASSERT_MSG_EQ_TOL(net.executions[i].time.GetSeconds(),
                                      (tExchange + MilliSeconds(10) + Airtime(52)).GetSeconds(),
                                      5e-9,
                                      "replicas execute on the request's arrival");
        }
    }

    /**
     * ccp.csv, once the traces are finished: the header, the scores row and the vote row at
     * the times observed.
     * \param net the network, run
     * \param o the vote's outcome
     * \param dir the traces' output folder
     */
    void CheckCsv(const CcpNet& net, const D2dCcpOutcome& o, const std::string& dir)
    {
        const std::vector<std::string> lines = ReadTextLines(dir + "/ccp.csv");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 3, "header + 2 rows");
        NS_TEST_ASSERT_MSG_EQ(lines[0],
                              "round,step,attempt,primary,replies,quorum,outcome,sim_time_s",
                              "header");
        // Times as observed (checked against the formulas above), 9 decimals.
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.9f", net.exchanges[0].first.GetSeconds());
        NS_TEST_ASSERT_MSG_EQ(lines[1],
                              std::string("1,scores,0,-1,20,20,exchanged,") + buf,
                              "scores row: 20 of 5 x (5 - 1) vectors");
        std::snprintf(buf, sizeof(buf), "%.9f", net.outcomes[0].first.GetSeconds());
        std::ostringstream expected;
        expected << "1,aggregation,1," << o.primary << ",3,3,consensus," << buf;
        NS_TEST_ASSERT_MSG_EQ(lines[2], expected.str(), "vote row");
    }
};

/**
 * A member whose radio is off sends no scores: the others' views miss its vector, the
 * exchange takes 4 airtimes, the row counts 4 x 3 arrivals of 4 x 4 possible.
 */
class D2dCcpExchangeDeadMemberTestCase : public TestCase
{
  public:
    D2dCcpExchangeDeadMemberTestCase()
        : TestCase("score exchange with a member whose radio is off")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(4);
        auto net = MakeNet(5, 0.0, D2dDeliveryMode::RELIABLE, 90, Seconds(2));
        const auto committee = CcpNet::Range(5);
        std::map<uint32_t, D2dScoreVector> own;
        for (auto c : committee)
        {
            own[c] = {{7, 0.25 * c}, {8, 0.5}, {9, 1.0}};
        }
        CcpNet* p = net.get();
        net->transports[2]->TurnOff();
        Simulator::ScheduleNow([&]() {
            p->ccp->ExchangeScores(4,
                                   committee,
                                   own,
                                   Callback<void, const D2dCommitteeConsensus::ScoreViews&>(
                                       [&](const D2dCommitteeConsensus::ScoreViews& views) {
                                           p->exchanges.emplace_back(Simulator::Now(), views);
                                       }));
        });
        RunUntil(*net, Seconds(10));
        NS_TEST_ASSERT_MSG_EQ(net->exchanges.size(), 1, "done once");
        // Reliable mode: send-done after the (zero-delay) acknowledgement, so back to back.
        NS_TEST_ASSERT_MSG_EQ_TOL(net->exchanges[0].first.GetSeconds(),
                                  (4 * Airtime(D2dCcpPayload::BytesFor(0, 3))).GetSeconds(),
                                  5e-9,
                                  "4 multicasts of 56 bytes");
        const auto& views = net->exchanges[0].second;
        NS_TEST_ASSERT_MSG_EQ(views.size(), 5, "a view per member");
        for (const auto& [m, byOrigin] : views)
        {
            NS_TEST_ASSERT_MSG_EQ(byOrigin.size(), (m == 2 ? 1 : 4), "vectors of member " << m);
            NS_TEST_ASSERT_MSG_EQ(byOrigin.count(m), 1, "own vector");
            NS_TEST_ASSERT_MSG_EQ((m == 2 || byOrigin.count(2) == 0), true, "none from 2");
        }
        NS_TEST_ASSERT_MSG_EQ(net->rows.size(), 1, "one row");
        NS_TEST_ASSERT_MSG_EQ(net->rows[0].replies, 12, "4 multicasts x 3 members on");
        NS_TEST_ASSERT_MSG_EQ(net->rows[0].round, 4, "round");
        NS_TEST_ASSERT_MSG_EQ(net->Messages("ccp_score").size(), 4, "4 multicasts");
        net->ccp->Dispose();
        Simulator::Destroy();
    }
};

/**
 * The primary's request lost: its radio off (no request leaves: timeout RequestTimeout
 * after the attempt began) or its links not heard (timeout RequestTimeout after the request
 * left); attempt 2 with another primary reaches consensus.
 */
class D2dCcpLostRequestTestCase : public TestCase
{
  public:
    D2dCcpLostRequestTestCase(bool radioOff)
        : TestCase(std::string("the primary's request lost (") +
                   (radioOff ? "radio off" : "links below RxSensitivityW") +
                   "): timeout with 0 replies at RequestTimeout, consensus at attempt 2"),
          m_radioOff(radioOff)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        const Time timeout = Seconds(2);
        const Time e = MilliSeconds(10);
        auto net = MakeNet(5, 0.0, D2dDeliveryMode::UNRELIABLE, 7, timeout);
        const auto committee = CcpNet::Range(5);
        const std::vector<uint32_t> set = {4, 8, 15};
        CcpNet* p = net.get();
        int64_t first = -1;
        net->onExecute = [&](uint32_t member) {
            if (first >= 0)
            {
                return;
            }
            first = member; // the first execute call is attempt 1's primary
            if (m_radioOff)
            {
                p->transports[member]->TurnOff();
            }
            else
            {
                for (uint32_t i = 0; i < p->w.size(); ++i)
                {
                    p->w[i][member] = 0.0; // W_i,p <= RxSensitivityW (0): not heard
                }
                p->matrix->SetMatrix(p->w);
            }
        };
        const Time t0 = Seconds(1);
        Simulator::Schedule(t0, [&]() {
            p->ccp->Vote(3, "election", committee, Same(committee, set), p->Execute(), p->Done());
        });
        RunUntil(*net, Seconds(30));

        NS_TEST_ASSERT_MSG_EQ(net->rows.size(), 2, "two attempts");
        const Row& r1 = net->rows[0];
        NS_TEST_ASSERT_MSG_EQ(r1.primary, first, "attempt 1's primary executed first");
        NS_TEST_ASSERT_MSG_EQ(r1.attempt, 1, "attempt 1");
        NS_TEST_ASSERT_MSG_EQ(r1.outcome, "timeout", "attempt 1 times out");
        NS_TEST_ASSERT_MSG_EQ(r1.replies, 0, "no reply");
        NS_TEST_ASSERT_MSG_EQ(r1.step, "election", "step");
        NS_TEST_ASSERT_MSG_EQ(r1.round, 3, "round");
        // Radio off: no request leaves, RequestTimeout after the attempt began. Unheard: the
        // request left after the execution, RequestTimeout later.
        const Time t1 = m_radioOff ? t0 + timeout : t0 + e + timeout;
        NS_TEST_ASSERT_MSG_EQ(r1.time, t1, "timeout at exactly RequestTimeout");
        auto requests = net->Messages("ccp_request");
        uint32_t fromFirst = 0;
        for (const auto& [id, recs] : requests)
        {
            if (recs[0].src == static_cast<uint32_t>(first))
            {
                ++fromFirst;
                NS_TEST_ASSERT_MSG_EQ(recs.size(), 4, "a row per named replica");
                for (const auto& r : recs)
                {
                    NS_TEST_ASSERT_MSG_EQ(r.delivered, false, "not heard");
                    NS_TEST_ASSERT_MSG_EQ(r.reason, "out_of_range", "named, cannot hear");
                }
            }
        }
        // Radio off: no request leaves. Unheard: the request was handed to the radio (the
        // timer runs from then) but no replica hears it: nothing goes on the air and each
        // named replica gets an out_of_range row.
        NS_TEST_ASSERT_MSG_EQ(fromFirst, (m_radioOff ? 0 : 1), "requests of the first primary");
        const Row& r2 = net->rows[1];
        NS_TEST_ASSERT_MSG_NE(r2.primary, first, "a new primary");
        NS_TEST_ASSERT_MSG_EQ(r2.attempt, 2, "attempt 2");
        NS_TEST_ASSERT_MSG_EQ(r2.outcome, "consensus", "attempt 2 agrees");
        NS_TEST_ASSERT_MSG_EQ(r2.replies, 3, "quorum 3 (the first primary cannot reply)");
        NS_TEST_ASSERT_MSG_EQ_TOL(r2.time.GetSeconds(),
                                  (t1 + 2 * e + 2 * Airtime(52)).GetSeconds(),
                                  5e-9,
                                  "attempt 2 starts at once");
        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 1, "done once");
        NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].second.attempts, 2, "2 attempts");
        NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].second.primary, r2.primary, "primary");
        NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].second.consensus, true, "consensus");
        net->ccp->Dispose();
        Simulator::Destroy();
    }

    bool m_radioOff;
};

/**
 * Quorum floor(C/2)+1 = 4 of C = 7: 3 identical replies never agree, 4 do; refusing replicas
 * and replicas with another digest never count.
 */
class D2dCcpQuorumTestCase : public TestCase
{
  public:
    /** \param variant 0: 4 vs 3 proposals; 1: 5 vs 2; 2: 6 vs 1 with a refusing and a wrong one */
    D2dCcpQuorumTestCase(int variant)
        : TestCase(variant == 0   ? "quorum (C = 7): 3 identical replies never agree, failed"
                   : variant == 1 ? "quorum (C = 7): 4 identical replies agree"
                                  : "quorum (C = 7): refusing (digest 0) and differing replicas "
                                    "never count"),
          m_variant(variant)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        const Time timeout = Seconds(1);
        const Time e = MilliSeconds(10);
        auto net = MakeNet(7, 0.0, D2dDeliveryMode::UNRELIABLE, 11 + m_variant, timeout);
        const auto committee = CcpNet::Range(7);
        const std::vector<uint32_t> a = {1, 2, 3, 5, 8};
        const std::vector<uint32_t> b = {1, 2, 3, 5, 9};
        const uint32_t nA = m_variant == 0 ? 4 : m_variant == 1 ? 5 : 6; // members 0 .. nA-1
        std::map<uint32_t, std::vector<uint32_t>> proposals;
        for (auto c : committee)
        {
            proposals[c] = c < nA ? a : b;
        }
        if (m_variant == 2)
        {
            net->digestOf[4] = 0;              // refuses
            net->digestOf[5] = SetHash(a) + 1; // another result
        }
        CcpNet* p = net.get();
        Simulator::ScheduleNow([&]() {
            p->ccp->Vote(1, "aggregation", committee, proposals, p->Execute(), p->Done());
        });
        RunUntil(*net, Seconds(100));

        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 1, "done once");
        const D2dCcpOutcome& o = net->outcomes[0].second;
        // Expected replies with primary q: the other members that propose q's set and
        // execute to q's digest.
        auto expectedReplies = [&](uint32_t q) -> uint32_t {
            if (m_variant == 2 && (q == 4 || q == 5 || q == 6))
            {
                return 0; // 4 refuses (no request), 5's digest matches nobody, 6 alone
            }
            uint32_t n = 0;
            for (auto c : committee)
            {
                if (c != q && proposals[c] == proposals[q] &&
                    !(m_variant == 2 && (c == 4 || c == 5)))
                {
                    ++n;
                }
            }
            return n;
        };
        std::set<int64_t> primaries;
        Time start;
        for (std::size_t i = 0; i < net->rows.size(); ++i)
        {
            const Row& r = net->rows[i];
            NS_TEST_ASSERT_MSG_EQ(r.attempt, i + 1, "attempt number");
            NS_TEST_ASSERT_MSG_EQ(primaries.insert(r.primary).second, true, "no primary twice");
            const auto q = static_cast<uint32_t>(r.primary);
            NS_TEST_ASSERT_MSG_EQ(r.replies,
                                  std::min<uint32_t>(expectedReplies(q), 4),
                                  "replies with primary " << q);
            if (r.outcome != "consensus")
            {
                // The refusing primary sends nothing: RequestTimeout after the attempt began.
                const Time expiry =
                    (m_variant == 2 && q == 4) ? start + timeout : start + e + timeout;
                NS_TEST_ASSERT_MSG_EQ(r.time, expiry, "timer of attempt " << r.attempt);
            }
            start = r.time;
        }
        if (m_variant == 1)
        {
            NS_TEST_ASSERT_MSG_EQ(o.consensus, true, "4 identical replies agree");
            NS_TEST_ASSERT_MSG_EQ((o.set == a), true, "on the majority's set");
            NS_TEST_ASSERT_MSG_EQ(net->rows.back().outcome, "consensus", "last row");
            NS_TEST_ASSERT_MSG_EQ(net->rows.back().replies, 4, "at exactly the quorum");
            NS_TEST_ASSERT_MSG_LT(net->rows.back().primary, 5, "an S_A primary");
            for (std::size_t i = 0; i + 1 < net->rows.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(net->rows[i].outcome, "timeout", "earlier attempts");
                NS_TEST_ASSERT_MSG_EQ(net->rows[i].replies, 1, "an S_B primary gets 1 reply");
            }
            NS_TEST_ASSERT_MSG_EQ(o.attempts, net->rows.size(), "attempts");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(o.consensus, false, "no consensus");
            NS_TEST_ASSERT_MSG_EQ(o.attempts, 7, "every member tried (MaxAttempts 0 = C)");
            NS_TEST_ASSERT_MSG_EQ(o.primary, -1, "no primary");
            NS_TEST_ASSERT_MSG_EQ(o.set.size(), 0, "no set");
            NS_TEST_ASSERT_MSG_EQ(net->rows.size(), 7, "one row per attempt");
            for (std::size_t i = 0; i < 7; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(net->rows[i].outcome,
                                      (i < 6 ? "timeout" : "failed"),
                                      "outcome of attempt " << i + 1);
            }
            NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].first, net->rows.back().time, "done at fail");
            uint32_t threes = 0;
            for (const auto& r : net->rows)
            {
                threes += r.replies == 3;
            }
            NS_TEST_ASSERT_MSG_EQ(threes, 4, "4 attempts got exactly 3 identical replies");
        }
        // Replies on the air: a refusing or differing replica never sends one.
        for (const auto& [id, recs] : net->Messages("ccp_reply"))
        {
            if (m_variant == 2)
            {
                NS_TEST_ASSERT_MSG_EQ((recs[0].src != 4 && recs[0].src != 5), true, "no reply");
            }
        }
        net->ccp->Dispose();
        Simulator::Destroy();
    }

    int m_variant;
};

/**
 * The two quorum modes against f members that propose another set (and so never reply to
 * an honest request, nor get honest replies): the vote agrees on the honest set exactly
 * when f is tolerated, hand-worked per case: "replicas" needs floor(C/2) + 1 replies from
 * the C - f - 1 honest replicas (tolerates ceil(C/2) - 2), "majority" floor(C/2) (tolerates
 * every minority, ceil(C/2) - 1); the f others never agree on their set.
 */
class D2dCcpQuorumModeTestCase : public TestCase
{
  public:
    /**
     * \param c committee size
     * \param f members proposing another set
     * \param mode the quorum mode
     * \param agree whether the vote must agree (worked out by hand)
     */
    D2dCcpQuorumModeTestCase(uint32_t c, uint32_t f, D2dQuorumMode mode, bool agree)
        : TestCase("quorum " +
                   std::string(mode == D2dQuorumMode::MAJORITY ? "majority" : "replicas") +
                   ", C = " + std::to_string(c) + " with " + std::to_string(f) +
                   " dissenting: " + (agree ? "agrees" : "fails")),
          m_c(c),
          m_f(f),
          m_mode(mode),
          m_agree(agree)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        auto net = MakeNet(m_c, 0.0, D2dDeliveryMode::UNRELIABLE, 31 + m_c + m_f, Seconds(1));
        net->ccp->SetAttribute("Quorum", EnumValue(static_cast<int>(m_mode)));
        const auto committee = CcpNet::Range(m_c);
        const std::vector<uint32_t> a = {1, 2, 3};
        const std::vector<uint32_t> b = {7, 8, 9};
        std::map<uint32_t, std::vector<uint32_t>> proposals;
        for (auto k : committee)
        {
            proposals[k] = k < m_c - m_f ? a : b; // the last f members dissent
        }
        CcpNet* p = net.get();
        Simulator::ScheduleNow([&]() {
            p->ccp->Vote(1, "aggregation", committee, proposals, p->Execute(), p->Done());
        });
        RunUntil(*net, Seconds(100));
        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 1, "done once");
        const D2dCcpOutcome& o = net->outcomes[0].second;
        NS_TEST_ASSERT_MSG_EQ(o.consensus, m_agree, "outcome");
        const uint32_t quorum = m_mode == D2dQuorumMode::MAJORITY ? m_c / 2 : m_c / 2 + 1;
        for (const auto& r : net->rows)
        {
            NS_TEST_ASSERT_MSG_EQ(r.quorum, quorum, "quorum column");
            // A primary counts the replicas that propose its own set.
            const bool dissenter = static_cast<uint32_t>(r.primary) >= m_c - m_f;
            const uint32_t same = dissenter ? m_f - 1 : m_c - m_f - 1;
            NS_TEST_ASSERT_MSG_EQ(r.replies, std::min(same, quorum), "replies of " << r.primary);
        }
        if (m_agree)
        {
            NS_TEST_ASSERT_MSG_EQ((o.set == a), true, "the honest set");
            NS_TEST_ASSERT_MSG_EQ(net->rows.back().outcome, "consensus", "last row");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(o.attempts, m_c, "every member tried");
            NS_TEST_ASSERT_MSG_EQ(net->rows.back().outcome, "failed", "last row");
        }
        // The closed form agrees with the hand-worked cases.
        const int32_t tolerated = D2dCommitteeConsensus::ToleratedMalicious(m_c, m_mode);
        const bool tolerates = static_cast<int32_t>(m_f) <= tolerated;
        NS_TEST_ASSERT_MSG_EQ(tolerates, m_agree, "tolerance");
        net->ccp->Dispose();
        Simulator::Destroy();
    }

    uint32_t m_c;
    uint32_t m_f;
    D2dQuorumMode m_mode;
    bool m_agree;
};

/**
 * A silent member (no proposal) drawn as primary: timeout RequestTimeout after the attempt
 * began, nothing sent, never executes; 12 chained votes all agree.
 */
class D2dCcpSilentPrimaryTestCase : public TestCase
{
  public:
    D2dCcpSilentPrimaryTestCase()
        : TestCase("a silent member drawn as primary times out after RequestTimeout")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(9);
        const Time timeout = MilliSeconds(500);
        auto net = MakeNet(5, 0.0, D2dDeliveryMode::UNRELIABLE, 21, timeout);
        const auto committee = CcpNet::Range(5);
        auto proposals = Same(committee, {3, 1, 4});
        proposals.erase(4); // member 4 never trained: silent
        net->VoteInSequence(12, "aggregation", committee, proposals);
        RunUntil(*net, Seconds(100));
        const auto& starts = net->voteStarts;

        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 12, "12 votes");
        for (const auto& [t, o] : net->outcomes)
        {
            NS_TEST_ASSERT_MSG_EQ(o.consensus, true, "consensus");
            NS_TEST_ASSERT_MSG_NE(o.primary, 4, "never the silent member");
        }
        uint32_t silentRows = 0;
        Time start;
        uint32_t round = 0;
        for (const auto& r : net->rows)
        {
            if (r.round != round)
            {
                round = r.round;
                start = starts[round - 1];
            }
            if (r.primary == 4)
            {
                ++silentRows;
                NS_TEST_ASSERT_MSG_EQ(r.outcome, "timeout", "the silent primary times out");
                NS_TEST_ASSERT_MSG_EQ(r.replies, 0, "no reply");
                NS_TEST_ASSERT_MSG_EQ(r.time, start + timeout, "RequestTimeout after the start");
            }
            start = r.time;
        }
        NS_TEST_ASSERT_MSG_GT(silentRows, 0, "the silent member was drawn (seeded)");
        for (const auto& e : net->executions)
        {
            NS_TEST_ASSERT_MSG_NE(e.member, 4, "the silent member never executes");
        }
        for (const auto& r : net->records)
        {
            NS_TEST_ASSERT_MSG_NE(r.src, 4, "the silent member sends nothing");
        }
        net->ccp->Dispose();
        Simulator::Destroy();
    }
};

/** The primary of attempt 1 is uniform over the committee (300 votes). */
class D2dCcpPrimaryDrawTestCase : public TestCase
{
  public:
    D2dCcpPrimaryDrawTestCase()
        : TestCase("the primary is drawn uniformly over the committee")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(13);
        auto net = MakeNet(5, 0.0, D2dDeliveryMode::UNRELIABLE, 31, Seconds(1));
        const auto committee = CcpNet::Range(5);
        net->execDelay = Time(0);
        const uint32_t votes = 300;
        net->VoteInSequence(votes, "election", committee, Same(committee, {7}));
        RunUntil(*net, Seconds(100));
        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), votes, "every vote done");
        std::map<int64_t, double> count;
        for (const auto& [t, o] : net->outcomes)
        {
            NS_TEST_ASSERT_MSG_EQ(o.attempts, 1, "no loss: attempt 1");
            count[o.primary] += 1;
        }
        const double mean = votes / 5.0;
        const double tol = 4.5 * std::sqrt(votes * 0.2 * 0.8);
        for (auto c : committee)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(count[c], mean, tol, "member " << c << " as primary");
        }
        net->ccp->Dispose();
        Simulator::Destroy();
    }
};

/** MaxAttempts used up: "failed", done() once; MaxAttempts > C counts as C. */
class D2dCcpMaxAttemptsTestCase : public TestCase
{
  public:
    D2dCcpMaxAttemptsTestCase(uint32_t maxAttempts)
        : TestCase("MaxAttempts = " + std::to_string(maxAttempts) +
                   " with C = 4 and no agreement: failed, done once"),
          m_maxAttempts(maxAttempts)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(17);
        const Time timeout = Seconds(1);
        const Time e = MilliSeconds(10);
        auto net = MakeNet(4, 0.0, D2dDeliveryMode::RELIABLE, 41, timeout, m_maxAttempts);
        const auto committee = CcpNet::Range(4);
        std::map<uint32_t, std::vector<uint32_t>> proposals;
        for (auto c : committee)
        {
            proposals[c] = {c, 100}; // all different: no replica replies
        }
        CcpNet* p = net.get();
        Simulator::ScheduleNow([&]() {
            p->ccp->Vote(2, "aggregation", committee, proposals, p->Execute(), p->Done());
        });
        RunUntil(*net, Seconds(100)); // long after the end: nothing more may happen
        const uint32_t attempts = std::min<uint32_t>(m_maxAttempts, 4);
        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 1, "done once");
        const D2dCcpOutcome& o = net->outcomes[0].second;
        NS_TEST_ASSERT_MSG_EQ(o.consensus, false, "failed");
        NS_TEST_ASSERT_MSG_EQ(o.attempts, attempts, "attempts");
        NS_TEST_ASSERT_MSG_EQ(net->rows.size(), attempts, "a row per attempt");
        for (uint32_t i = 0; i < attempts; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(net->rows[i].outcome,
                                  (i + 1 < attempts ? "timeout" : "failed"),
                                  "row " << i);
            NS_TEST_ASSERT_MSG_EQ(net->rows[i].replies, 0, "no replies");
            NS_TEST_ASSERT_MSG_EQ(net->rows[i].time, (i + 1) * (e + timeout), "timer");
        }
        NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].first, attempts * (e + timeout), "done at fail");
        NS_TEST_ASSERT_MSG_EQ(net->Messages("ccp_request").size(), attempts, "a request each");
        NS_TEST_ASSERT_MSG_EQ(net->Messages("ccp_reply").size(), 0, "no reply");
        NS_TEST_ASSERT_MSG_EQ(net->executions.size(), attempts, "only the primaries execute");
        NS_TEST_ASSERT_MSG_EQ(net->ccp->IsVoting(), false, "closed");
        net->ccp->Dispose();
        Simulator::Destroy();
    }

    uint32_t m_maxAttempts;
};

/**
 * Replies that arrive after their attempt's timer do not count; a vote started from the
 * done() of the failed vote, while the old replies are still on the air, ends exactly as it
 * would alone.
 */
class D2dCcpLateRepliesTestCase : public TestCase
{
  public:
    D2dCcpLateRepliesTestCase()
        : TestCase("late replies of an ended attempt or vote are ignored")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(19);
        const Time timeout = Seconds(2);
        auto net = MakeNet(5, 0.0, D2dDeliveryMode::UNRELIABLE, 51, timeout, 2);
        const auto committee = CcpNet::Range(5);
        std::vector<uint32_t> set(1000);
        for (uint32_t k = 0; k < set.size(); ++k)
        {
            set[k] = 2 * k;
        }
        const uint64_t bytes = D2dCcpPayload::BytesFor(set.size(), 0); // 4040: 3 fragments
        NS_TEST_ASSERT_MSG_EQ(bytes, 4040, "request size");
        const Time a = Airtime(bytes);
        // Primary and replicas execute D = T - 1.5 A: a reply is sent A/2 before the timer
        // (request at D, replica done at 2D + A, reply arrives at 2D + 2A = D + T + A/2).
        net->execDelay = timeout - a - a / 2;
        CcpNet* p = net.get();
        Time tB;
        auto startB = [&]() {
            tB = Simulator::Now();
            p->execDelay = MilliSeconds(10);
            p->ccp
                ->Vote(1, "aggregation", committee, Same(committee, set), p->Execute(), p->Done());
        };
        Simulator::ScheduleNow([&]() {
            p->ccp->Vote(1,
                         "aggregation",
                         committee,
                         Same(committee, set),
                         p->Execute(),
                         p->Done(startB));
        });
        RunUntil(*net, Seconds(100));

        NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 2, "two votes");
        NS_TEST_ASSERT_MSG_EQ(net->outcomes[0].second.consensus, false, "A: replies too late");
        NS_TEST_ASSERT_MSG_EQ(net->rows.size(), 3, "A: 2 rows, B: 1 row");
        NS_TEST_ASSERT_MSG_EQ(net->rows[0].replies, 0, "A attempt 1: none counted");
        NS_TEST_ASSERT_MSG_EQ(net->rows[1].replies, 0, "A attempt 2: none counted");
        NS_TEST_ASSERT_MSG_EQ(net->rows[1].outcome, "failed", "A failed");
        // The late replies did arrive, complete, after their attempt's timer.
        uint32_t late = 0;
        for (const auto& r : net->receptions)
        {
            auto payload = r.message->GetPayloadAs<D2dCcpPayload>();
            if (payload->type == D2dCcpPayload::Type::REPLY && r.IsComplete())
            {
                const Time timer = net->rows[payload->attempt - 1].time;
                if (r.recvTime > timer && r.recvTime - timer == a / 2)
                {
                    ++late;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(late, 8, "4 replies per attempt arrived A/2 after its timer");
        NS_TEST_ASSERT_MSG_EQ(tB, net->rows[1].time, "B starts when A fails");
        const Row& b = net->rows[2];
        NS_TEST_ASSERT_MSG_EQ(b.outcome, "consensus", "B agrees");
        NS_TEST_ASSERT_MSG_EQ(b.attempt, 1, "at attempt 1");
        NS_TEST_ASSERT_MSG_EQ(b.replies, 3, "with its own replies");
        NS_TEST_ASSERT_MSG_EQ_TOL(net->outcomes[1].first.GetSeconds(),
                                  (tB + MilliSeconds(20) + 2 * a).GetSeconds(),
                                  10e-9,
                                  "B ends as it would alone");
        net->ccp->Dispose();
        Simulator::Destroy();
    }
};

/**
 * Lossy channel, P_D = 0.2 per fragment (eq. 18), unreliable: rounds of exchange + vote
 * reach consensus with timeouts; shares of arrivals and successful attempts against the
 * independent-loss formulas; reliable mode agrees at attempt 1.
 */
class D2dCcpLossyTestCase : public TestCase
{
  public:
    D2dCcpLossyTestCase()
        : TestCase("lossy channel (P_D = 0.2): consensus within MaxAttempts, timeouts logged, "
                   "rates match the loss model")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(23);
        const double pd = 0.2;
        const Time timeout = MilliSeconds(100);
        const auto committee = CcpNet::Range(7);
        {
            // 10 rounds as CMFL runs them: the exchange, then the vote from its done().
            auto net = MakeNet(7, pd, D2dDeliveryMode::UNRELIABLE, 61, timeout);
            NS_TEST_ASSERT_MSG_EQ_TOL(net->channel->GetDropProbability(1, 0), pd, 1e-12, "eq. 18");
            net->execDelay = MilliSeconds(1);
            CcpNet* p = net.get();
            uint32_t round = 0;
            std::map<uint32_t, D2dScoreVector> own;
            for (auto c : committee)
            {
                own[c] = {{10, 0.5 + c}, {11, 1.5 + c}};
            }
            std::function<void()> next = [&]() {
                if (round == 10)
                {
                    return;
                }
                ++round;
                p->ccp->ExchangeScores(round,
                                       committee,
                                       own,
                                       Callback<void, const D2dCommitteeConsensus::ScoreViews&>(
                                           [&](const D2dCommitteeConsensus::ScoreViews& views) {
                                               p->exchanges.emplace_back(Simulator::Now(), views);
                                               p->ccp->Vote(round,
                                                            "aggregation",
                                                            committee,
                                                            Same(committee, {10}),
                                                            p->Execute(),
                                                            p->Done(next));
                                           }));
            };
            Simulator::ScheduleNow(next);
            RunUntil(*net, Seconds(1000));
            NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 10, "10 votes");
            uint32_t timeouts = 0;
            for (const auto& r : net->rows)
            {
                timeouts += r.outcome == "timeout";
                NS_TEST_ASSERT_MSG_NE(r.outcome, "failed", "no vote fails");
            }
            for (const auto& [t, o] : net->outcomes)
            {
                NS_TEST_ASSERT_MSG_EQ(o.consensus, true, "consensus");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(o.attempts, 7, "within MaxAttempts");
            }
            NS_TEST_ASSERT_MSG_GT(timeouts, 0, "losses cost attempts");
            // Score vectors: each of 7 multicasts reaches each of 6 members with 0.8.
            uint32_t arrived = 0;
            uint32_t received = 0;
            for (const auto& [t, views] : net->exchanges)
            {
                for (const auto& [m, byOrigin] : views)
                {
                    NS_TEST_ASSERT_MSG_EQ(byOrigin.count(m), 1, "own vector in own view");
                    arrived += byOrigin.size() - 1;
                }
            }
            for (const auto& r : net->receptions)
            {
                received += r.message->GetKind() == "ccp_score" && r.IsComplete();
            }
            NS_TEST_ASSERT_MSG_EQ(arrived, received, "views hold what arrived");
            uint32_t exchangedReplies = 0;
            for (const auto& r : net->rows)
            {
                exchangedReplies += r.step == "scores" ? r.replies : 0;
            }
            NS_TEST_ASSERT_MSG_EQ(exchangedReplies, arrived, "scores rows count the arrivals");
            const double n = 10 * 7 * 6;
            NS_TEST_ASSERT_MSG_EQ_TOL(arrived / n,
                                      1 - pd,
                                      4.5 * std::sqrt(pd * (1 - pd) / n),
                                      "share of vectors that arrive");
            net->ccp->Dispose();
            Simulator::Destroy();
        }
        {
            // Per attempt: a replica's reply reaches the primary with q = 0.8 x 0.8; success
            // = at least 4 of 6, P = sum_{k>=4} C(6,k) q^k (1-q)^(6-k).
            auto net = MakeNet(7, pd, D2dDeliveryMode::UNRELIABLE, 71, timeout);
            net->execDelay = MilliSeconds(1);
            net->VoteInSequence(300, "election", committee, Same(committee, {5}));
            RunUntil(*net, Seconds(10000));
            NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 300, "300 votes");
            const double q = (1 - pd) * (1 - pd);
            double expected = 0;
            const double binom[] = {1, 6, 15, 20, 15, 6, 1};
            for (int k = 4; k <= 6; ++k)
            {
                expected += binom[k] * std::pow(q, k) * std::pow(1 - q, 6 - k);
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(expected, 0.6268, 1e-4, "hand value");
            double success = 0;
            for (const auto& r : net->rows)
            {
                success += r.outcome == "consensus";
            }
            const double attempts = net->rows.size();
            NS_TEST_ASSERT_MSG_EQ_TOL(success / attempts,
                                      expected,
                                      4.5 * std::sqrt(expected * (1 - expected) / attempts),
                                      "share of attempts reaching a quorum over " << attempts);
            net->ccp->Dispose();
            Simulator::Destroy();
        }
        {
            // Reliable mode: lost fragments are retransmitted; every vote agrees at once.
            auto net = MakeNet(7, pd, D2dDeliveryMode::RELIABLE, 81, timeout);
            net->execDelay = MilliSeconds(1);
            net->VoteInSequence(20, "election", committee, Same(committee, {5}));
            RunUntil(*net, Seconds(1000));
            NS_TEST_ASSERT_MSG_EQ(net->outcomes.size(), 20, "20 votes");
            for (const auto& [t, o] : net->outcomes)
            {
                NS_TEST_ASSERT_MSG_EQ(o.attempts, 1, "reliable: attempt 1");
            }
            uint32_t retransmissions = 0;
            for (const auto& r : net->records)
            {
                NS_TEST_ASSERT_MSG_EQ((r.mode == D2dDeliveryMode::RELIABLE), true, "mode used");
                retransmissions += r.retransmissions;
            }
            NS_TEST_ASSERT_MSG_GT(retransmissions, 0, "losses were repaired");
            net->ccp->Dispose();
            Simulator::Destroy();
        }
    }
};

/**
 * Immediate channel access: the members' score multicasts, handed over at once, meet
 * half-duplex radios that are sending; Scheduled access (every other case here) avoids it.
 */
class D2dCcpImmediateAccessTestCase : public TestCase
{
  public:
    D2dCcpImmediateAccessTestCase()
        : TestCase("Immediate access: simultaneous score multicasts are lost to half-duplex")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        auto net = MakeNet(5,
                           0.0,
                           D2dDeliveryMode::UNRELIABLE,
                           100,
                           Seconds(2),
                           0,
                           D2dChannelAccess::IMMEDIATE);
        const auto committee = CcpNet::Range(5);
        std::map<uint32_t, D2dScoreVector> own;
        for (auto c : committee)
        {
            own[c] = {{7, 0.25 + c}, {8, 0.5}};
        }
        CcpNet* p = net.get();
        Simulator::Schedule(Seconds(1), [&]() {
            p->ccp->ExchangeScores(1,
                                   committee,
                                   own,
                                   Callback<void, const D2dCommitteeConsensus::ScoreViews&>(
                                       [&](const D2dCommitteeConsensus::ScoreViews& views) {
                                           p->exchanges.emplace_back(Simulator::Now(), views);
                                       }));
        });
        RunUntil(*net, Seconds(10));
        NS_TEST_ASSERT_MSG_EQ(net->exchanges.size(), 1, "the exchange ends");
        uint32_t halfDuplex = 0;
        for (const auto& [id, recs] : net->Messages("ccp_score"))
        {
            for (const auto& r : recs)
            {
                halfDuplex += r.reason == "half_duplex" ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_GT(halfDuplex, 0, "receptions lost to half-duplex");
        NS_TEST_ASSERT_MSG_EQ(net->rows.size(), 1, "the scores row");
        NS_TEST_ASSERT_MSG_LT(net->rows[0].replies, 20, "not every vector arrived");
        NS_TEST_ASSERT_MSG_EQ(net->rows[0].replies + halfDuplex, 20, "the others arrived");
        net->ccp->Dispose();
        Simulator::Destroy();
    }
};

/**
 * The score exchange and the election vote of a CMFL round (members' proposals: the middle
 * of the ranking of the final scores of their views) over the packet-level Wi-Fi backend
 * and over the D2D channel: the same views, the same committee elected, by the same
 * primary at attempt 1.
 */
class D2dCcpWifiElectionTestCase : public TestCase
{
  public:
    D2dCcpWifiElectionTestCase()
        : TestCase("score exchange and election over Wi-Fi (D2dWifiTransport): the outcome "
                   "of the D2D channel")
    {
    }

  private:
    /** What one backend produced. */
    struct Result
    {
        D2dCommitteeConsensus::ScoreViews views;
        std::vector<std::pair<Time, D2dCcpOutcome>> outcomes;
        uint32_t scoreMessages{0};
        uint32_t scoreRows{0};
        uint32_t scoreRowsDelivered{0};
        Time exchangeEnd;
    };

    /**
     * \param wifi the backend
     * \return the run's outcome
     */
    Result Run(bool wifi)
    {
        RngSeedManager::SetSeed(29);
        const Time timeout = Seconds(2);
        auto net = wifi ? MakeWifiNet(7, D2dDeliveryMode::RELIABLE, 1000, timeout)
                        : MakeNet(7, 0.0, D2dDeliveryMode::RELIABLE, 1000, timeout);
        CcpNet* p = net.get();
        const std::vector<uint32_t> committee = m_committee;
        const std::map<uint32_t, D2dScoreVector> own = m_own;
        Simulator::Schedule(Seconds(1), [p, committee, own, this]() {
            p->ccp->ExchangeScores(
                1,
                committee,
                own,
                Callback<void, const D2dCommitteeConsensus::ScoreViews&>(
                    [p, committee, this](const D2dCommitteeConsensus::ScoreViews& views) {
                        p->exchanges.emplace_back(Simulator::Now(), views);
                        std::map<uint32_t, std::vector<uint32_t>> proposals;
                        for (const auto& [m, byOrigin] : views)
                        {
                            proposals[m] = Proposal(byOrigin);
                        }
                        p->ccp->Vote(1, "election", committee, proposals, p->Execute(), p->Done());
                    }));
        });
        RunUntil(*net, Seconds(30));
        Result res;
        if (!net->exchanges.empty())
        {
            res.views = net->exchanges[0].second;
            res.exchangeEnd = net->exchanges[0].first;
        }
        res.outcomes = net->outcomes;
        for (const auto& [id, recs] : net->Messages("ccp_score"))
        {
            ++res.scoreMessages;
            for (const auto& r : recs)
            {
                ++res.scoreRows;
                res.scoreRowsDelivered += r.IsComplete() ? 1 : 0;
            }
        }
        net->ccp->Dispose();
        Simulator::Destroy();
        return res;
    }

    /**
     * \param byOrigin a member's view
     * \return its proposal S_c^{t+1}: the 3 clients around the middle of the ranking of
     *         the final scores C_k / sum 1/P_k^c
     */
    std::vector<uint32_t> Proposal(
        const std::map<uint32_t, std::shared_ptr<const D2dScoreVector>>& byOrigin) const
    {
        std::map<uint32_t, std::vector<double>> perClient;
        for (const auto& [origin, scores] : byOrigin)
        {
            for (const auto& [k, score] : *scores)
            {
                perClient[k].push_back(score);
            }
        }
        std::vector<uint32_t> clients;
        std::vector<double> finals;
        for (const auto& [k, scores] : perClient)
        {
            clients.push_back(k);
            finals.push_back(D2dCommitteeRules::FinalScore(scores));
        }
        return D2dCommitteeRules::Elect(clients, finals, 3);
    }

    void DoRun() override
    {
        for (auto c : m_committee)
        {
            for (uint32_t k = 10; k < 16; ++k)
            {
                // Distinct scores, one client ranked differently by different members.
                m_own[c].emplace_back(k, 1.0 / (1.0 + 0.3 * ((k * 7 + c * 3) % 11)));
            }
        }
        // The committee elected when every vector reaches every member, by hand: final
        // score C / sum_c 1/P_k^c of the float-rounded scores, ranks 1..3 of 6 (Elect).
        std::vector<std::pair<double, uint32_t>> ranked;
        for (uint32_t k = 10; k < 16; ++k)
        {
            double inverse = 0;
            for (auto c : m_committee)
            {
                const double score = static_cast<float>(m_own[c][k - 10].second);
                inverse += 1.0 / score;
            }
            ranked.emplace_back(-static_cast<double>(m_committee.size()) / inverse, k);
        }
        std::sort(ranked.begin(), ranked.end());
        std::vector<uint32_t> expected = {ranked[1].second, ranked[2].second, ranked[3].second};
        std::sort(expected.begin(), expected.end());

        const Result channel = Run(false);
        const Result wifi = Run(true);
        for (const Result* r : {&channel, &wifi})
        {
            const std::string name = r == &wifi ? "Wi-Fi" : "channel";
            NS_TEST_ASSERT_MSG_EQ(r->scoreMessages, 5, name << ": a score multicast per member");
            NS_TEST_ASSERT_MSG_EQ(r->scoreRows, 20, name << ": to the 4 other members each");
            NS_TEST_ASSERT_MSG_EQ(r->scoreRowsDelivered, 20, name << ": reliable, complete");
            NS_TEST_ASSERT_MSG_EQ(r->views.size(), 5, name << ": a view per member");
            for (const auto& [m, byOrigin] : r->views)
            {
                NS_TEST_ASSERT_MSG_EQ(byOrigin.size(), 5, name << ": member " << m << "'s view");
            }
            NS_TEST_ASSERT_MSG_EQ(r->outcomes.size(), 1, name << ": one vote");
            if (r->outcomes.size() != 1)
            {
                continue;
            }
            const D2dCcpOutcome& o = r->outcomes[0].second;
            NS_TEST_ASSERT_MSG_EQ(o.consensus, true, name << ": consensus");
            NS_TEST_ASSERT_MSG_EQ(o.attempts, 1, name << ": at attempt 1");
            const bool same = o.set == expected;
            NS_TEST_ASSERT_MSG_EQ(same, true, name << ": the middle of the ranking elected");
        }
        const bool sameViews = D2dCommitteeConsensus::SameViews(channel.views, wifi.views);
        NS_TEST_ASSERT_MSG_EQ(sameViews, true, "the same score views on both backends");
        if (channel.outcomes.size() == 1 && wifi.outcomes.size() == 1)
        {
            const D2dCcpOutcome& a = channel.outcomes[0].second;
            const D2dCcpOutcome& b = wifi.outcomes[0].second;
            NS_TEST_ASSERT_MSG_EQ(a.primary, b.primary, "the same primary (common seed)");
            const bool sameSet = a.set == b.set;
            NS_TEST_ASSERT_MSG_EQ(sameSet, true, "the same committee elected");
            NS_TEST_ASSERT_MSG_EQ(a.digest, b.digest, "the same digest");
            // Wi-Fi at 6 Mbit/s with MAC overheads is slower than the 20 Mbit/s channel.
            NS_TEST_ASSERT_MSG_GT(wifi.exchangeEnd, channel.exchangeEnd, "Wi-Fi is slower");
        }
    }

    const std::vector<uint32_t> m_committee{0, 1, 2, 4, 6};
    std::map<uint32_t, D2dScoreVector> m_own;
};

/** The d2d-ccp suite. */
class D2dCcpTestSuite : public TestSuite
{
  public:
    D2dCcpTestSuite()
        : TestSuite("d2d-ccp")
    {
        AddTestCase(new D2dCcpNoLossTestCase);
        AddTestCase(new D2dCcpExchangeDeadMemberTestCase);
        AddTestCase(new D2dCcpLostRequestTestCase(true));
        AddTestCase(new D2dCcpLostRequestTestCase(false));
        AddTestCase(new D2dCcpQuorumTestCase(0));
        AddTestCase(new D2dCcpQuorumTestCase(1));
        AddTestCase(new D2dCcpQuorumTestCase(2));
        // Committee of 4 with one dissenter: the literal quorum (3 of 3 replicas) fails,
        // the majority (2 replicas + the primary) agrees; C = 6: replicas tolerates 1, not 2
        // (ceil(C/2) - 2 = 1); majority tolerates 2, not 3 (no majority left).
        const auto M = D2dQuorumMode::MAJORITY;
        const auto R = D2dQuorumMode::REPLICAS;
        AddTestCase(new D2dCcpQuorumModeTestCase(4, 1, R, false));
        AddTestCase(new D2dCcpQuorumModeTestCase(4, 1, M, true));
        AddTestCase(new D2dCcpQuorumModeTestCase(4, 0, R, true));
        AddTestCase(new D2dCcpQuorumModeTestCase(4, 2, M, false));
        AddTestCase(new D2dCcpQuorumModeTestCase(6, 1, R, true));
        AddTestCase(new D2dCcpQuorumModeTestCase(6, 2, R, false));
        AddTestCase(new D2dCcpQuorumModeTestCase(6, 2, M, true));
        AddTestCase(new D2dCcpQuorumModeTestCase(6, 3, M, false));
        AddTestCase(new D2dCcpQuorumModeTestCase(5, 2, M, true));
        AddTestCase(new D2dCcpQuorumModeTestCase(5, 2, R, false));
        AddTestCase(new D2dCcpQuorumModeTestCase(5, 1, R, true));
        AddTestCase(new D2dCcpSilentPrimaryTestCase);
        AddTestCase(new D2dCcpPrimaryDrawTestCase);
        AddTestCase(new D2dCcpMaxAttemptsTestCase(2));
        AddTestCase(new D2dCcpMaxAttemptsTestCase(10));
        AddTestCase(new D2dCcpLateRepliesTestCase);
        AddTestCase(new D2dCcpLossyTestCase);
        AddTestCase(new D2dCcpImmediateAccessTestCase);
        AddTestCase(new D2dCcpWifiElectionTestCase);
    }
};

static D2dCcpTestSuite g_d2dCcpTestSuite;
