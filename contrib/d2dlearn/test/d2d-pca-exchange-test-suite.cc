/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3 tests of D2dPcaExchange, the messages of distributed PCA (Liang, Balcan, Kanchanapally
 * and Woodruff, "Improved distributed principal component analysis", NeurIPS 2014) over the
 * device-to-server link, as graph discovery's semi-supervised paradigm uses it (Wagle, Das,
 * Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025, sec. V-A1):
 * - without loss every sketch reaches the server, F is the common subspace of all of them,
 *   every device gets it, and the bytes on the air are the sketches' and F's true sizes;
 * - with lossy links and no retransmission some sketches and some copies of F are lost, and
 *   the exchange survives: F is the common subspace of exactly the sketches that arrived (an
 *   independent computation from the delivery records), and the per-device flags are the
 *   complete receptions of F.
 */

#include "d2d-test-fixtures.h"

#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-distributed-pca.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-pca-exchange.h"
#include "ns3/d2d-transport.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <vector>

using namespace ns3;

namespace
{
const std::size_t COLS = 6; //!< D
const std::size_t D = 2;    //!< d
const std::size_t T = 2;    //!< t

/** Device i's data: 5 points in R^6, a fixed pattern varying with i (rank 5). */
std::vector<double>
DeviceData(uint32_t i)
{
    std::vector<double> a(5 * COLS);
    for (std::size_t r = 0; r < 5; ++r)
    {
        for (std::size_t c = 0; c < COLS; ++c)
        {
            a[r * COLS + c] = std::sin(1.0 + i + 0.7 * r * (c + 1)) + (c == i % COLS ? 3.0 : 0);
        }
    }
    return a;
}

/** What a run gives. */
struct Outcome
{
    std::vector<double> basis;
    std::vector<bool> reached;
    std::vector<bool> sketchArrived; //!< from the delivery records
    std::vector<bool> subspaceIn;    //!< from the delivery records
    std::vector<std::vector<double>> sketches;
    uint64_t bytesOnAir{0}; //!< bytes per distinct message, from the records
    uint64_t bytesReported{0};
    uint32_t received{0};
    bool finished{false};
};

Outcome
RunExchange(uint32_t n, double pd, uint32_t maxRetransmissions)
{
    Outcome out;
    NodeContainer nodes = MakeTestNodesOnLine(n, 10.0);
    D2dHelper d2d;
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(1e-40));
    d2d.Install(nodes);
    Ptr<Node> server = CreateObject<Node>();
    Ptr<D2dChannel> d2s = d2d.InstallServer(server, nodes, 3.0);
    d2s->SetAttribute("MaxRetransmissions", UintegerValue(maxRetransmissions));
    if (pd > 0)
    {
        SetUniformDropProbability(d2s, pd, n, 0);
    }
    d2d.AssignStreams(10);
    out.sketchArrived.assign(n, false);
    out.subspaceIn.assign(n, false);
    std::map<uint64_t, uint64_t> sizes;
    auto record = [&](const D2dDeliveryRecord& r) {
        sizes[r.msgId] = r.bytes;
        if (r.kind == "pca_sketch" && r.IsComplete())
        {
            out.sketchArrived[r.src] = true;
        }
        if (r.kind == "pca_subspace" && r.IsComplete())
        {
            out.subspaceIn[r.dst] = true;
        }
    };
    for (auto& t : d2s->GetTransports())
    {
        t->TraceConnectWithoutContext("Delivery", Callback<void, const D2dDeliveryRecord&>(record));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        out.sketches.push_back(D2dDistributedPca::LocalSketch(DeviceData(i), 5, COLS, T));
    }
    auto pca = CreateObject<D2dPcaExchange>();
    pca->Setup(d2s->GetTransports(), out.sketches, COLS, D);
    pca->SetFinishedCallback(Callback<void, const std::vector<double>&, const std::vector<bool>&>(
        [&](const std::vector<double>& basis, const std::vector<bool>& reached) {
            out.basis = basis;
            out.reached = reached;
            out.finished = true;
        }));
    Simulator::ScheduleNow(&D2dPcaExchange::Start, pca);
    Simulator::Stop(Seconds(1e4));
    Simulator::Run();
    out.bytesReported = pca->GetBytesSent();
    out.received = pca->GetSketchesReceived();
    pca->Dispose();
    Simulator::Destroy();
    for (const auto& [id, b] : sizes)
    {
        out.bytesOnAir += b;
    }
    return out;
}
} // namespace

/** Without loss: F of every sketch, at every device; true sizes. */
class D2dPcaExchangeLosslessTestCase : public TestCase
{
  public:
    D2dPcaExchangeLosslessTestCase()
        : TestCase("Lossless: F is the common subspace of every sketch and reaches every device")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        Outcome o = RunExchange(n, 0, 7);
        NS_TEST_ASSERT_MSG_EQ(o.finished, true, "the finished callback ran");
        NS_TEST_ASSERT_MSG_EQ(o.received, n, "every sketch arrived");
        const auto want = D2dDistributedPca::CommonSubspace(o.sketches, COLS, D);
        NS_TEST_ASSERT_MSG_EQ(o.basis.size(), D * COLS, "F is d x D");
        for (std::size_t k = 0; k < want.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(o.basis[k], want[k], 1e-12, "F entry " << k);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(o.reached[i], true, "F reached device " << i);
        }
        // n sketches of t x D values and one F of d x D values, 4 bytes each.
        const uint64_t bytes = (n * T * COLS + D * COLS) * 4;
        NS_TEST_EXPECT_MSG_EQ(o.bytesReported, bytes, "bytes the exchange counts");
        NS_TEST_EXPECT_MSG_EQ(o.bytesOnAir, bytes, "bytes in the delivery records");
    }
};

/** Lossy, no retransmission: what arrived, and nothing else, makes F. */
class D2dPcaExchangeLossyTestCase : public TestCase
{
  public:
    D2dPcaExchangeLossyTestCase()
        : TestCase("Lossy: F is the common subspace of the sketches that arrived; flags are the "
                   "receptions of F")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 12;
        uint32_t lostSketches = 0;
        uint32_t lostF = 0;
        uint32_t noF = 0;
        for (uint32_t run = 0; run < 4; ++run)
        {
            RngSeedManager::SetRun(run + 1);
            Outcome o = RunExchange(n, 0.4, 0);
            NS_TEST_ASSERT_MSG_EQ(o.finished, true, "the finished callback ran");
            std::vector<std::vector<double>> arrived;
            uint32_t count = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                if (o.sketchArrived[i])
                {
                    arrived.push_back(o.sketches[i]);
                    ++count;
                }
            }
            NS_TEST_EXPECT_MSG_EQ(o.received, count, "sketches the server counts");
            lostSketches += n - count;
            if (count * T < D)
            {
                NS_TEST_EXPECT_MSG_EQ(o.basis.empty(), true, "no F from too few sketches");
                ++noF;
                continue;
            }
            const auto want = D2dDistributedPca::CommonSubspace(arrived, COLS, D);
            NS_TEST_ASSERT_MSG_EQ(o.basis.size(), want.size(), "F is d x D");
            for (std::size_t k = 0; k < want.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(o.basis[k], want[k], 1e-12, "F entry " << k);
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(o.reached[i], o.subspaceIn[i], "flag of device " << i);
                lostF += !o.subspaceIn[i];
            }
        }
        RngSeedManager::SetRun(1);
        // 48 sketches and up to 48 copies of F, each lost with probability >= 0.4 (one
        // fragment or more, no retry): none lost has probability < 0.6^48 < 1e-10.
        NS_TEST_EXPECT_MSG_GT(lostSketches, 0u, "some sketches lost");
        NS_TEST_EXPECT_MSG_GT(lostF, 0u, "some copies of F lost");
        NS_TEST_EXPECT_MSG_EQ(noF, 0u, "every run had at least one sketch (0.4^12 per run)");
    }
};

/** The d2d-pca-exchange test suite. */
class D2dPcaExchangeTestSuite : public TestSuite
{
  public:
    D2dPcaExchangeTestSuite()
        : TestSuite("d2d-pca-exchange")
    {
        AddTestCase(new D2dPcaExchangeLosslessTestCase);
        AddTestCase(new D2dPcaExchangeLossyTestCase);
    }
};

/** Static instance. */
static D2dPcaExchangeTestSuite g_d2dPcaExchangeTestSuite;
