/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-rss": eq. (18) of Wagle et al. 2025, RSS from positions (log-distance),
 * the RSS matrix file (--rssFile) and the dynamic, quantized RSS of Wagle et al. 2025,
 * sec. VI-P.
 *
 * Expected numbers are literals computed independently (Python, math module) or hand
 * formulas written in this file; nothing is taken from the code under test.
 */

#include "d2d-test-simulation.h"

#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-radio.h"
#include "ns3/double.h"
#include "ns3/dynamic-rss-model.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

void
SampleRss(Ptr<D2dChannel> channel, uint32_t rx, uint32_t tx, std::vector<double>* out)
{
    out->push_back(channel->GetRssW(rx, tx));
}

/** A unique temporary file with the given content; removed by the destructor. */
struct TempFile
{
    std::string path;

    TempFile(const std::string& name, const std::string& content)
    {
        static int counter = 0;
        path = "/tmp/d2d-rss-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) +
               "-" + name + ".csv";
        std::ofstream out(path, std::ios::binary);
        out << content;
    }

    ~TempFile()
    {
        std::remove(path.c_str());
    }
};

/** Result of calling ReadCsv on a bad file. */
struct ReadError
{
    bool threw{false};
    bool runtimeError{false};
    std::string message;
};

ReadError
TryRead(const std::string& path)
{
    ReadError r;
    try
    {
        MatrixRssModel::ReadCsv(path);
    }
    catch (const std::runtime_error& e)
    {
        r.threw = true;
        r.runtimeError = true;
        r.message = e.what();
    }
    catch (...)
    {
        r.threw = true;
    }
    return r;
}

/** One snapshot of a DynamicRssModel: N x N values and states, and the step. */
struct Snapshot
{
    double t{0};
    uint64_t step{0};
    std::vector<std::vector<double>> w;
    std::vector<std::vector<uint32_t>> q;
};

void
TakeSnapshot(Ptr<DynamicRssModel> model, uint32_t n, bool states, std::vector<Snapshot>* out)
{
    Snapshot s;
    s.t = Simulator::Now().GetSeconds();
    s.step = model->GetStep();
    s.w.assign(n, std::vector<double>(n, 0.0));
    s.q.assign(n, std::vector<uint32_t>(n, 0));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i != j)
            {
                s.w[i][j] = model->GetRssW(i, j, nullptr, nullptr, 0.0);
                if (states)
                {
                    s.q[i][j] = model->GetState(i, j);
                }
            }
        }
    }
    out->push_back(std::move(s));
}

/** Snapshots of a model at t = k + 0.25 s and k + 0.75 s for k = 0 .. steps-1. */
std::vector<Snapshot>
RunDynamic(Ptr<DynamicRssModel> model, uint32_t n, uint32_t steps, bool states)
{
    std::vector<Snapshot> snaps;
    for (uint32_t k = 0; k < steps; ++k)
    {
        Simulator::Schedule(Seconds(k + 0.25), &TakeSnapshot, model, n, states, &snaps);
        Simulator::Schedule(Seconds(k + 0.75), &TakeSnapshot, model, n, states, &snaps);
    }
    Simulator::Run();
    return snaps;
}

} // namespace

// ---------------------------------------------------------------------------------------

/** Eq. (18) of Wagle et al. 2025: P_D = 1 - exp(-(2^r - 1) sigma^2 / W). */
class D2dDropProbabilityTestCase : public TestCase
{
  public:
    D2dDropProbabilityTestCase()
        : TestCase("Eq. (18): DropProbability against hand-computed values")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;

        struct Case
        {
            double w, r, sigma2, expected; // expected: Python, 1 - math.exp(-(2**r-1)*s/W)
        };

        const Case cases[] = {
            {0.3, 0.8, 0.02, 0.04820608338902399},
            {1e-9, 2.0, 1e-13, 0.0002999550044996413},
            {2.5e-12, 1.0, 1e-13, 0.03921056084767682},
            {0.05, 4.0, 0.1, 0.9999999999999064},
            {0.3, 0.0, 0.02, 0.0}, // r = 0: 2^0 - 1 = 0
        };
        for (const auto& c : cases)
        {
            const double p = D2dChannel::DropProbability(c.w, c.r, c.sigma2);
            NS_TEST_EXPECT_MSG_EQ_TOL(p,
                                      c.expected,
                                      1e-12 * std::max(c.expected, 1e-3),
                                      "P_D(W=" << c.w << ", r=" << c.r << ", s2=" << c.sigma2
                                               << ")");
        }
        NS_TEST_EXPECT_MSG_EQ(D2dChannel::DropProbability(0.0, 2.0, 1e-13), 1.0, "W = 0 gives 1");
        NS_TEST_EXPECT_MSG_EQ(D2dChannel::DropProbability(-1.0, 2.0, 1e-13), 1.0, "W < 0 gives 1");
        NS_TEST_EXPECT_MSG_EQ(D2dChannel::DropProbability(0.3, 2.0, 0.0),
                              0.0,
                              "sigma2 = 0 gives 0");
        // Monotone: more RSS, fewer drops; higher rate, more drops.
        NS_TEST_EXPECT_MSG_LT(D2dChannel::DropProbability(0.6, 0.8, 0.02),
                              D2dChannel::DropProbability(0.3, 0.8, 0.02),
                              "P_D decreases with W");
        NS_TEST_EXPECT_MSG_GT(D2dChannel::DropProbability(0.3, 1.6, 0.02),
                              D2dChannel::DropProbability(0.3, 0.8, 0.02),
                              "P_D increases with r");
    }
};

// ---------------------------------------------------------------------------------------

/** PropagationRssModel with the log-distance defaults; RSS follows the positions. */
class D2dPropagationRssTestCase : public TestCase
{
  public:
    D2dPropagationRssTestCase()
        : TestCase("PropagationRssModel: log-distance RSS, eq. (18) per link, RSS at send time")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        // LogDistancePropagationLossModel defaults: exponent 3, 46.6777 dB at 1 m.
        // RSS(d) = 10^((P_dBm - 46.6777 - 30 log10(d) - 30) / 10) W (Python):
        const double rss100 = 2.148968254744518e-12; // 20 dBm, 100 m
        const double rss200 = 2.686210318430646e-13; // 20 dBm, 200 m
        const double pd100 = 0.13029558338622116;    // eq. 18, r = 2, sigma2 = 1e-13
        const double pd200 = 0.6726793503745169;
        const double rss50at23 = 3.4302042998049505e-11; // 23 dBm, 50 m
        // The formula itself, independently of the literals above:
        const double byFormula =
            std::pow(10.0, (20.0 - 46.6777 - 30.0 * std::log10(100.0) - 30.0) / 10.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(rss100, byFormula, 1e-12 * rss100, "literal check");

        NodeContainer nodes = MakeTestNodesAt({Vector(0, 0, 0), Vector(100, 0, 0)});
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(2.0));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(1e-13));
        helper.SetRadioAttribute("TxPowerDbm", DoubleValue(20.0));
        Ptr<D2dChannel> channel = helper.Install(nodes);

        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetRssW(1, 0), rss100, 1e-9 * rss100, "RSS at 100 m");
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetRssW(0, 1), rss100, 1e-9 * rss100, "reciprocal");
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetDropProbability(1, 0),
                                  pd100,
                                  1e-9 * pd100,
                                  "P_D at 100 m = eq. 18 of that RSS");
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetDistanceM(1, 0), 100.0, 1e-9, "distance");

        // Send at 0.5 s (100 m), move the receiver to 200 m at 1 s, send at 1.5 s: each
        // delivery record carries the P_D of the positions at its send time.
        std::vector<D2dDeliveryRecord> recs;
        channel->GetRadio(0)->TraceConnectWithoutContext(
            "Delivery",
            MakeBoundCallback(&RecordTestDelivery, &recs));
        std::vector<uint64_t> ids;
        std::vector<double> samples;
        Simulator::Schedule(Seconds(0.5), &SendTestMessage, channel->GetRadio(0), 100, 1u, &ids);
        Simulator::Schedule(Seconds(1.0), &MoveTestNode, nodes.Get(1), Vector(0, 200, 0));
        Simulator::Schedule(Seconds(1.25), &SampleRss, channel, 1u, 0u, &samples);
        Simulator::Schedule(Seconds(1.5), &SendTestMessage, channel->GetRadio(0), 100, 1u, &ids);
        Simulator::Stop(Seconds(3.0));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(samples.size(), 1u, "sampled");
        NS_TEST_EXPECT_MSG_EQ_TOL(samples[0], rss200, 1e-9 * rss200, "RSS after the move (200 m)");
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 2u, "two delivery records");
        NS_TEST_EXPECT_MSG_EQ(recs[0].msgId, ids[0], "record order");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].dropProbability,
                                  pd100,
                                  1e-9 * pd100,
                                  "P_D of the first send (100 m)");
        NS_TEST_EXPECT_MSG_EQ_TOL(recs[1].dropProbability,
                                  pd200,
                                  1e-9 * pd200,
                                  "P_D of the second send (200 m)");

        // Transmit power enters the RSS: 23 dBm at 50 m, on a second network.
        NodeContainer nodes2 = MakeTestNodesAt({Vector(0, 0, 0), Vector(30, 40, 0)});
        D2dHelper helper2;
        helper2.SetRadioAttribute("TxPowerDbm", DoubleValue(23.0));
        Ptr<D2dChannel> channel2 = helper2.Install(nodes2);
        NS_TEST_EXPECT_MSG_EQ_TOL(channel2->GetRssW(1, 0),
                                  rss50at23,
                                  1e-9 * rss50at23,
                                  "RSS at 50 m for 23 dBm");
    }
};

// ---------------------------------------------------------------------------------------

/** MatrixRssModel::ReadCsv: orientation W_ij = row i column j, and bad files. */
class D2dMatrixRssTestCase : public TestCase
{
  public:
    D2dMatrixRssTestCase()
        : TestCase("MatrixRssModel::ReadCsv: row i column j is W_ij; one-line errors")
    {
    }

  private:
    void CheckError(const std::string& what, const std::string& path)
    {
        ReadError e = TryRead(path);
        NS_TEST_EXPECT_MSG_EQ(e.threw, true, what << ": ReadCsv throws");
        NS_TEST_EXPECT_MSG_EQ(e.runtimeError, true, what << ": std::runtime_error");
        NS_TEST_EXPECT_MSG_EQ(e.message.rfind("rssFile:", 0),
                              0u,
                              what << ": message starts with 'rssFile:' (" << e.message << ")");
        NS_TEST_EXPECT_MSG_EQ(e.message.find('\n'),
                              std::string::npos,
                              what << ": one-line message");
    }

    void DoRun() override
    {
        DestroyAtExit guard;
        // Asymmetric: W_01 = 2e-9 (row 0, column 1) differs from W_10 = 4e-9.
        const double expected[3][3] = {{0.0, 2e-9, 3e-9}, {4e-9, 0.0, 6e-9}, {7e-9, 8e-9, 0.0}};
        TempFile good("good", "0,2e-9,3e-9\n4e-9,0,6e-9\n7e-9,8e-9,0\n");
        std::vector<std::vector<double>> w;
        bool threw = false;
        try
        {
            w = MatrixRssModel::ReadCsv(good.path);
        }
        catch (const std::exception& e)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, false, "valid file read");
        NS_TEST_ASSERT_MSG_EQ(w.size(), 3u, "3 rows");
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(w[i].size(), 3u, "3 columns in row " << i);
            for (uint32_t j = 0; j < 3; ++j)
            {
                if (i != j)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(w[i][j],
                                              expected[i][j],
                                              1e-15 * expected[i][j],
                                              "w[" << i << "][" << j << "]");
                }
            }
        }

        // On a channel: GetRssW(rx = i, tx = j) is row i column j; P_D is eq. 18 of it.
        auto model = CreateObject<MatrixRssModel>();
        model->SetMatrix(w);
        NS_TEST_EXPECT_MSG_EQ(model->GetN(), 3u, "N = 3");
        NodeContainer nodes;
        nodes.Create(3);
        D2dHelper helper;
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(1e-10));
        helper.SetRssModel(model);
        Ptr<D2dChannel> channel = helper.Install(nodes);
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t j = 0; j < 3; ++j)
            {
                if (i == j)
                {
                    continue;
                }
                const double wij = expected[i][j];
                NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetRssW(i, j),
                                          wij,
                                          1e-15 * wij,
                                          "GetRssW(rx=" << i << ", tx=" << j << ") = row i col j");
                const double pd = 1.0 - std::exp(-(2.0 - 1.0) * 1e-10 / wij);
                NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetDropProbability(i, j),
                                          pd,
                                          1e-12,
                                          "P_D(" << i << ", " << j << ")");
            }
        }
        // Hand values: P_D(0, 1) = 1 - exp(-1e-10 / 2e-9) = 0.04877057549928599 and
        // P_D(1, 0) = 1 - exp(-1e-10 / 4e-9) = 0.024690087971667274: the orientation shows.
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetDropProbability(0, 1),
                                  0.04877057549928599,
                                  1e-12,
                                  "P_D(rx 0, tx 1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetDropProbability(1, 0),
                                  0.024690087971667274,
                                  1e-12,
                                  "P_D(rx 1, tx 0)");

        // The diagonal is ignored: a negative diagonal value is accepted.
        TempFile negDiag("negdiag", "-1,0.5\n0.25,-3\n");
        ReadError nd = TryRead(negDiag.path);
        NS_TEST_EXPECT_MSG_EQ(nd.threw, false, "negative diagonal accepted (" << nd.message << ")");

        // Errors.
        CheckError("missing file",
                   "/tmp/d2d-rss-test-" + std::to_string(::getpid()) + "-does-not-exist.csv");
        TempFile nonSquare("nonsquare", "0,1e-9,2e-9\n1e-9,0\n2e-9,1e-9,0\n");
        CheckError("non-square (row 2 has 2 values)", nonSquare.path);
        TempFile wide("wide", "0,1e-9,2e-9\n1e-9,0,3e-9,4e-9\n2e-9,1e-9,0\n");
        CheckError("non-square (row 2 has 4 values)", wide.path);
        TempFile text("text", "0,1e-9,2e-9\n1e-9,0,abc\n2e-9,1e-9,0\n");
        CheckError("non-number cell", text.path);
        TempFile empty("emptycell", "0,1e-9,\n1e-9,0,1e-9\n2e-9,1e-9,0\n");
        CheckError("empty cell", empty.path);
        TempFile negative("negative", "0,1e-9,2e-9\n1e-9,0,-3e-9\n2e-9,1e-9,0\n");
        CheckError("negative off-diagonal", negative.path);
        TempFile one("onerow", "0\n");
        CheckError("one row", one.path);
        TempFile none("norows", "");
        CheckError("empty file", none.path);
    }
};

// ---------------------------------------------------------------------------------------

/**
 * DynamicRssModel, quantized (Wagle et al. 2025, sec. VI-P): N(0.3, 0.1^2) truncated to
 * [0.05, 0.55], Levels = 10 bins of 0.05 W; redrawn every StepInterval = 1 s. 30 devices,
 * 20 steps: 20 x 870 = 17400 links.
 */
class D2dDynamicRssQuantizedTestCase : public TestCase
{
  public:
    D2dDynamicRssQuantizedTestCase()
        : TestCase("DynamicRssModel: values are bin centres in [0.05, 0.55], constant per step")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        const uint32_t n = 30;
        const uint32_t steps = 20;
        const uint32_t levels = 10;
        const double lo = 0.05, hi = 0.55;
        const double width = (hi - lo) / levels;
        auto model = CreateObject<DynamicRssModel>();
        model->SetAttribute("Levels", UintegerValue(levels));
        model->SetAttribute("StepInterval", TimeValue(Seconds(1)));
        model->SetNDevices(n);
        model->AssignStreams(11);
        std::vector<Snapshot> snaps = RunDynamic(model, n, steps, true);
        NS_TEST_ASSERT_MSG_EQ(snaps.size(), 2u * steps, "snapshots taken");

        std::vector<uint64_t> binCount(levels, 0);
        uint64_t badRange = 0, badCentre = 0, badState = 0, withinStepChanges = 0;
        double sum = 0.0;
        uint64_t count = 0;
        for (uint32_t k = 0; k < steps; ++k)
        {
            const Snapshot& a = snaps[2 * k];
            const Snapshot& b = snaps[2 * k + 1];
            NS_TEST_EXPECT_MSG_EQ(a.step, k, "step index at " << a.t << " s");
            NS_TEST_EXPECT_MSG_EQ(b.step, k, "step index at " << b.t << " s");
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    if (i == j)
                    {
                        continue;
                    }
                    const double w = a.w[i][j];
                    badRange += (w < lo || w > hi) ? 1 : 0;
                    // Nearest bin centre lo + (q + 0.5) width, computed here.
                    const long q = std::lround((w - lo) / width - 0.5);
                    const bool qOk = q >= 0 && q < static_cast<long>(levels);
                    const double centre = lo + (q + 0.5) * width;
                    badCentre += (!qOk || std::fabs(w - centre) > 1e-12) ? 1 : 0;
                    badState += (!qOk || a.q[i][j] != static_cast<uint32_t>(q)) ? 1 : 0;
                    withinStepChanges += (a.w[i][j] != b.w[i][j] || a.q[i][j] != b.q[i][j]) ? 1 : 0;
                    if (qOk)
                    {
                        binCount[q]++;
                    }
                    sum += w;
                    ++count;
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(badRange, 0u, "every value in [0.05, 0.55]");
        NS_TEST_EXPECT_MSG_EQ(badCentre, 0u, "every value a bin centre 0.05 + (q + 0.5) 0.05");
        NS_TEST_EXPECT_MSG_EQ(badState, 0u, "GetState returns the bin q");
        NS_TEST_EXPECT_MSG_EQ(withinStepChanges, 0u, "constant within a step");
        for (uint32_t q = 0; q < levels; ++q)
        {
            // The rarest (edge) bins hold (Phi(-2) - Phi(-2.5)) / 0.9876 = 1.7 % of the
            // mass: about 290 of 17400 values.
            NS_TEST_EXPECT_MSG_GT(binCount[q], 100u, "bin " << q << " populated");
        }
        // The bins are symmetric around 0.3, so the quantized mean is 0.3 too; the
        // standard deviation of a value is <= 0.0955 + 0.05 / sqrt(12): 4 SE below 0.0033.
        const double se = (0.09546 + 0.0145) / std::sqrt(static_cast<double>(count));
        NS_TEST_EXPECT_MSG_EQ_TOL(sum / count, 0.3, 4 * se, "mean of quantized values");

        // Between steps the values are redrawn: a link keeps its bin with probability
        // sum_q p_q^2 (about 0.13 here), so most links change.
        uint64_t changed = 0, pairs = 0;
        for (uint32_t k = 1; k < steps; ++k)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    if (i != j)
                    {
                        changed += snaps[2 * k].w[i][j] != snaps[2 * (k - 1)].w[i][j] ? 1 : 0;
                        ++pairs;
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(static_cast<double>(changed) / pairs,
                              0.7,
                              "values change between steps");
        Simulator::Destroy();
    }
};

/**
 * DynamicRssModel unquantized (Levels = 0): the empirical mean of 17400 draws is the
 * truncated-normal mean. Truncation at 0.3 -+ 2.5 sd is symmetric, so the mean is 0.3;
 * the truncated sd is 0.1 sqrt(1 - 2 a phi(a) / (2 Phi(a) - 1)) = 0.09546 (a = 2.5;
 * Python), so the standard error of the mean is 0.09546 / sqrt(17400) = 7.2e-4 and the
 * tolerance is 4 SE. Out-of-window draws are redrawn, not clamped: no value sits on a
 * bound, and both tails reach near the bounds.
 */
class D2dDynamicRssMeanTestCase : public TestCase
{
  public:
    D2dDynamicRssMeanTestCase()
        : TestCase("DynamicRssModel unquantized: truncated-normal mean and sd")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        const uint32_t n = 30;
        const uint32_t steps = 20;
        auto model = CreateObject<DynamicRssModel>();
        model->SetAttribute("Levels", UintegerValue(0));
        model->SetNDevices(n);
        model->AssignStreams(23);
        std::vector<Snapshot> snaps = RunDynamic(model, n, steps, false);
        NS_TEST_ASSERT_MSG_EQ(snaps.size(), 2u * steps, "snapshots taken");

        double sum = 0.0, sum2 = 0.0, mn = 1.0, mx = 0.0;
        uint64_t count = 0, onBound = 0, withinStepChanges = 0;
        std::set<double> distinct;
        for (uint32_t k = 0; k < steps; ++k)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    if (i == j)
                    {
                        continue;
                    }
                    const double w = snaps[2 * k].w[i][j];
                    withinStepChanges += w != snaps[2 * k + 1].w[i][j] ? 1 : 0;
                    sum += w;
                    sum2 += w * w;
                    mn = std::min(mn, w);
                    mx = std::max(mx, w);
                    onBound += (w == 0.05 || w == 0.55) ? 1 : 0;
                    distinct.insert(w);
                    ++count;
                }
            }
        }
        const double mean = sum / count;
        const double sd = std::sqrt(sum2 / count - mean * mean);
        const double sdTrunc = 0.09545974863445807;
        const double seMean = sdTrunc / std::sqrt(static_cast<double>(count));
        const double seSd = sdTrunc / std::sqrt(2.0 * count);
        NS_TEST_EXPECT_MSG_EQ(count, 17400u, "17400 draws");
        NS_TEST_EXPECT_MSG_EQ(withinStepChanges, 0u, "constant within a step");
        NS_TEST_EXPECT_MSG_EQ_TOL(mean, 0.3, 4 * seMean, "truncated-normal mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(sd, sdTrunc, 4 * seSd, "truncated-normal sd");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(mn, 0.05, "min >= 0.05");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(mx, 0.55, "max <= 0.55");
        // About 31 expected draws in each 0.01-wide edge strip.
        NS_TEST_EXPECT_MSG_LT(mn, 0.07, "lower tail reaches the bound");
        NS_TEST_EXPECT_MSG_GT(mx, 0.53, "upper tail reaches the bound");
        NS_TEST_EXPECT_MSG_EQ(onBound, 0u, "no clamping onto the bounds");
        NS_TEST_EXPECT_MSG_GT(distinct.size(), 17000u, "unquantized: continuous values");
        Simulator::Destroy();
    }
};

/** Same stream, same matrices; another stream, other matrices. */
class D2dDynamicRssStreamsTestCase : public TestCase
{
  public:
    D2dDynamicRssStreamsTestCase()
        : TestCase("DynamicRssModel: AssignStreams makes the draws reproducible")
    {
    }

  private:
    void DoRun() override
    {
        DestroyAtExit guard;
        const uint32_t n = 8;
        std::vector<Ptr<DynamicRssModel>> models;
        for (int64_t stream : {5, 5, 6})
        {
            auto m = CreateObject<DynamicRssModel>();
            m->SetNDevices(n);
            m->AssignStreams(stream);
            models.push_back(m);
        }
        std::vector<std::vector<Snapshot>> snaps(3);
        for (uint32_t k = 0; k < 4; ++k)
        {
            for (int m = 0; m < 3; ++m)
            {
                Simulator::Schedule(Seconds(k + 0.5),
                                    &TakeSnapshot,
                                    models[m],
                                    n,
                                    false,
                                    &snaps[m]);
            }
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(snaps[0].size(), 4u, "4 snapshots");
        uint64_t sameDiffers = 0, otherDiffers = 0;
        for (uint32_t k = 0; k < 4; ++k)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    sameDiffers += snaps[0][k].w[i][j] != snaps[1][k].w[i][j] ? 1 : 0;
                    otherDiffers += snaps[0][k].w[i][j] != snaps[2][k].w[i][j] ? 1 : 0;
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(sameDiffers, 0u, "same stream: identical matrices");
        NS_TEST_EXPECT_MSG_GT(otherDiffers, 0u, "different stream: different matrices");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------

/** The d2d-rss test suite. */
class D2dRssTestSuite : public TestSuite
{
  public:
    D2dRssTestSuite()
        : TestSuite("d2d-rss")
    {
        AddTestCase(new D2dDropProbabilityTestCase);
        AddTestCase(new D2dPropagationRssTestCase);
        AddTestCase(new D2dMatrixRssTestCase);
        AddTestCase(new D2dDynamicRssQuantizedTestCase);
        AddTestCase(new D2dDynamicRssMeanTestCase);
        AddTestCase(new D2dDynamicRssStreamsTestCase);
    }
};

/** Static instance. */
static D2dRssTestSuite g_d2dRssTestSuite;
