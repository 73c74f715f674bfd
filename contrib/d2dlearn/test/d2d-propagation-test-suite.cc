/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-propagation": the radio environment of both backends from ns-3's
 * propagation library (D2dPropagationHelper's presets, shadowing, Nakagami-m fading, block
 * fading), and sigma^2 of eq. (18) of Wagle et al. 2025 from the bandwidth a transmission
 * occupies (D2dChannel::NoiseModel Thermal).
 *
 * Expected numbers are literals computed independently (Python, math module), ns-3's own
 * CalcRxPower of a second chain made and seeded alike, or sample statistics checked against
 * the model's stated distribution with tolerances of five standard errors.
 */

#include "d2d-test-simulation.h"

#include "ns3/boolean.h"
#include "ns3/channel-condition-model.h"
#include "ns3/constant-rss-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-propagation-helper.h"
#include "ns3/d2d-shadowing-loss-model.h"
#include "ns3/d2d-thermal-noise.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/d2d-wifi-transport.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/propagation-rss-model.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** \return dBm in W */
double
DbmToW(double dbm)
{
    return std::pow(10.0, (dbm - 30.0) / 10.0);
}

/**
 * \return n devices at the preset's antenna height on a spiral from 12 m to about 200 m
 * from the first (distances the 3GPP models cover, LOS and NLOS both drawn)
 * \param n devices
 * \param heightM z, m
 */
NodeContainer
SpiralNodes(uint32_t n, double heightM)
{
    std::vector<Vector> at;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double r = i == 0 ? 0.0 : 12.0 * std::pow(1.5, i);
        at.emplace_back(r * std::cos(1.1 * i), r * std::sin(1.1 * i), heightM);
    }
    return MakeTestNodesAt(at);
}

/** Sample mean and standard deviation. */
struct Moments
{
    double mean{0};
    double sd{0};
};

/** \return the moments of xs \param xs samples */
Moments
MomentsOf(const std::vector<double>& xs)
{
    Moments m;
    for (double x : xs)
    {
        m.mean += x;
    }
    m.mean /= xs.size();
    for (double x : xs)
    {
        m.sd += (x - m.mean) * (x - m.mean);
    }
    m.sd = std::sqrt(m.sd / (xs.size() - 1));
    return m;
}

/** \return the sample correlation of xs and ys \param xs first \param ys second */
double
Correlation(const std::vector<double>& xs, const std::vector<double>& ys)
{
    const Moments a = MomentsOf(xs);
    const Moments b = MomentsOf(ys);
    double c = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
    {
        c += (xs[i] - a.mean) * (ys[i] - b.mean);
    }
    return c / (xs.size() - 1) / (a.sd * b.sd);
}

} // namespace

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief For every preset, the RSS the D2D channel uses for each ordered pair of devices
 * equals ns-3's CalcRxPower of a second chain of the same preset, seeded alike and asked in
 * the same order, at the same positions (1e-12 relative): LOS/NLOS and shadowing draws
 * included.
 */
class D2dPresetRssTestCase : public TestCase
{
  public:
    D2dPresetRssTestCase()
        : TestCase("every preset, the channel's W_ij is ns-3's CalcRxPower of the same chain")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& preset : D2dPropagationHelper::GetPresets())
        {
            DestroyAtExit guard;
            D2dPropagationHelper helper;
            helper.SetPathLoss(preset.name);
            NodeContainer nodes = SpiralNodes(8, preset.deviceHeightM);
            auto rss = CreateObject<PropagationRssModel>();
            rss->SetAttribute("PropagationLossModel", PointerValue(helper.Create()));
            rss->AssignStreams(100);
            D2dHelper d2d;
            d2d.SetRssModel(rss);
            d2d.SetRadioAttribute("TxPowerDbm", DoubleValue(23.0));
            Ptr<D2dChannel> channel = d2d.Install(nodes);

            // The twin: the same preset, its streams numbered as PropagationRssModel's.
            Ptr<PropagationLossModel> twin = helper.Create();
            const int64_t n = twin->AssignStreams(100);
            const int64_t c = PropagationRssModel::AssignConditionStreams(twin, 100 + n);
            NS_TEST_EXPECT_MSG_EQ((c > 0),
                                  !preset.conditionModel.empty(),
                                  preset.name << ": condition model streams");

            double lowest = 1.0;
            double highest = 0.0;
            for (uint32_t rx = 0; rx < nodes.GetN(); ++rx)
            {
                for (uint32_t tx = 0; tx < nodes.GetN(); ++tx)
                {
                    if (rx == tx)
                    {
                        continue;
                    }
                    const double expected =
                        DbmToW(twin->CalcRxPower(23.0,
                                                 nodes.Get(tx)->GetObject<MobilityModel>(),
                                                 nodes.Get(rx)->GetObject<MobilityModel>()));
                    const double got = channel->GetRssW(rx, tx);
                    NS_TEST_EXPECT_MSG_EQ_TOL(got,
                                              expected,
                                              1e-12 * expected,
                                              preset.name << ": W_" << rx << "," << tx);
                    lowest = std::min(lowest, got);
                    highest = std::max(highest, got);
                }
            }
            // The spiral spans 12 m to 200 m: the RSS spans orders of magnitude.
            NS_TEST_EXPECT_MSG_GT(highest / lowest, 100.0, preset.name << ": RSS spread");
        }
    }
};

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief Over the Wi-Fi backend (the chain on the YansWifiChannel), the receiving PHY's
 * PhyRxBegin trace reports the power ns-3's CalcRxPower of the same chain gives for the same
 * positions (1e-9 relative: the PHY converts through dBm), for every preset. (A 3GPP chain
 * keeps LOS/NLOS and shadowing per pair: for nodes that stand still it gives the same value
 * again.)
 */
class D2dWifiPresetRssTestCase : public TestCase
{
  public:
    D2dWifiPresetRssTestCase()
        : TestCase("every preset over Wi-Fi, the PHY receives the chain's power")
    {
    }

  private:
    /** \param out powers seen, W \param powers the PHY's per-band powers, W */
    static void OnRxBegin(std::vector<double>* out,
                          Ptr<const Packet>,
                          RxPowerWattPerChannelBand powers)
    {
        double w = 0;
        for (const auto& band : powers)
        {
            w = std::max(w, static_cast<double>(band.second));
        }
        out->push_back(w);
    }

    void DoRun() override
    {
        for (const auto& preset : D2dPropagationHelper::GetPresets())
        {
            DestroyAtExit guard;
            D2dPropagationHelper helper;
            helper.SetPathLoss(preset.name);
            NodeContainer nodes = MakeTestNodesAt(
                {Vector(0, 0, preset.deviceHeightM), Vector(30, 0, preset.deviceHeightM)});
            D2dWifiHelper wifi;
            Ptr<PropagationLossModel> chain = helper.Create();
            wifi.SetPropagationLoss(chain);
            auto transports = wifi.Install(nodes);
            wifi.AssignStreams(7);
            std::vector<double> seen;
            transports[1]->GetDevice()->GetPhy()->TraceConnectWithoutContext(
                "PhyRxBegin",
                MakeBoundCallback(&OnRxBegin, &seen));
            Ptr<D2dTransport> sender = transports[0];
            Simulator::Schedule(Seconds(0.5), [sender]() {
                sender->Send(Create<D2dMessage>("test", 500), 1, D2dDeliveryMode::UNRELIABLE);
            });
            Simulator::Stop(Seconds(2));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_GT(seen.size(), 0u, preset.name << ": the frame reached the PHY");
            double txPowerDbm = 0;
            {
                DoubleValue v;
                transports[0]->GetDevice()->GetPhy()->GetAttribute("TxPowerStart", v);
                txPowerDbm = v.Get();
            }
            const double expected =
                DbmToW(chain->CalcRxPower(txPowerDbm,
                                          nodes.Get(0)->GetObject<MobilityModel>(),
                                          nodes.Get(1)->GetObject<MobilityModel>()));
            for (double w : seen)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(w, expected, 1e-9 * expected, preset.name << ": PHY");
            }
        }
    }
};

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief Thermal noise: sigma^2 = k T0 (B / K) F on a band of K = 1, 4 and 16 sub-channels
 * (B = 10 MHz, NF = 9 dB, m = 1), and the P_D of eq. (18) a message meets at W = 1e-12 W,
 * r = 2; literals from Python (1e-12 relative). The constant model keeps NoisePowerW.
 */
class D2dThermalNoiseTestCase : public TestCase
{
  public:
    D2dThermalNoiseTestCase()
        : TestCase("thermal noise follows the bandwidth used, P_D on K = 1, 4, 16")
    {
    }

  private:
    void DoRun() override
    {
        // Python: s = 1.380649e-23 * 290 * (10e6 / K) * 10 ** 0.9;
        // p = 1 - math.exp(-3 * s / 1e-12)
        struct Case
        {
            uint32_t k;
            double noiseW;
            double pDrop;
        };

        const std::vector<Case> cases = {{1, 3.180396600537149e-13, 0.6148486789247543},
                                         {4, 7.950991501342873e-14, 0.21221474479551872},
                                         {16, 1.987747875335718e-14, 0.05788924429620457}};
        // -174 dBm/Hz + 10 log10(10 MHz) + 9 dB = -95 dBm, the rounded form of the same.
        NS_TEST_EXPECT_MSG_EQ_TOL(10 * std::log10(D2dThermalNoise::PowerW(10e6, 9.0) * 1e3),
                                  -95.0,
                                  0.03,
                                  "-174 dBm/Hz + 70 dB + 9 dB");
        for (const auto& c : cases)
        {
            DestroyAtExit guard;
            NodeContainer nodes = MakeTestNodesAt({Vector(0, 0, 0), Vector(10, 0, 0)});
            auto constant = CreateObject<ConstantRssModel>();
            constant->SetAttribute("RssW", DoubleValue(1e-12));
            D2dHelper d2d;
            d2d.SetRssModel(constant);
            d2d.SetChannelAttribute("SpectralEfficiency", DoubleValue(2.0));
            d2d.SetChannelAttribute("BandwidthHz", DoubleValue(10e6));
            d2d.SetChannelAttribute("SubChannels", UintegerValue(c.k));
            d2d.SetChannelAttribute("NoiseModel", EnumValue(D2dChannel::THERMAL_NOISE));
            d2d.SetChannelAttribute("NoiseFigureDb", DoubleValue(9.0));
            d2d.SetChannelAttribute("NoisePowerW", DoubleValue(5e-13)); // not used: Thermal
            Ptr<D2dChannel> channel = d2d.Install(nodes);
            NS_TEST_EXPECT_MSG_EQ_TOL(channel->GetNoisePowerW(),
                                      c.noiseW,
                                      1e-12 * c.noiseW,
                                      "sigma^2 at K = " << c.k);
            std::vector<D2dDeliveryRecord> recs;
            channel->GetRadio(0)->TraceConnectWithoutContext(
                "Delivery",
                MakeBoundCallback(&RecordTestDelivery, &recs));
            std::vector<uint64_t> ids;
            Simulator::Schedule(Seconds(0.1),
                                &SendTestMessage,
                                channel->GetRadio(0),
                                3000,
                                1u,
                                &ids);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(recs.size(), 1u, "one row");
            NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].dropProbability,
                                      c.pDrop,
                                      1e-12 * c.pDrop,
                                      "P_D at K = " << c.k);
            NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].rssW, 1e-12, 1e-24, "rss_w");
            NS_TEST_EXPECT_MSG_EQ_TOL(recs[0].sinr,
                                      1e-12 / c.noiseW,
                                      1e-12 * (1e-12 / c.noiseW),
                                      "sinr = W / sigma^2");
        }
        {
            DestroyAtExit guard;
            NodeContainer nodes = MakeTestNodesAt({Vector(0, 0, 0), Vector(10, 0, 0)});
            D2dHelper d2d;
            d2d.SetChannelAttribute("SubChannels", UintegerValue(16));
            d2d.SetChannelAttribute("NoisePowerW", DoubleValue(5e-13));
            Ptr<D2dChannel> channel = d2d.Install(nodes);
            NS_TEST_EXPECT_MSG_EQ(channel->GetNoisePowerW(), 5e-13, "Constant: NoisePowerW");
        }
    }
};

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief Log-normal shadowing over 10,000 links: sample mean 0 and standard deviation sigma
 * within five standard errors; a link whose end moved d_cor keeps correlation 1/e (five
 * standard errors, (1 - rho^2) / sqrt(n)); a link that did not move keeps its value.
 * D2dShadowingLossModel with one sigma (8 dB, d_cor 50 m) and by LOS state with TR 38.901's
 * UMi values (LOS: 4 dB, 10 m; NLOS: 7.82 dB, 13 m; Table 7.4.1-1 and Table 7.5-6).
 */
class D2dShadowingStatisticsTestCase : public TestCase
{
  public:
    D2dShadowingStatisticsTestCase()
        : TestCase("shadowing, its mean, sigma and correlation at d_cor over 10,000 links")
    {
    }

  private:
    /** A way to read a link's shadowing, dB. */
    using Reader = std::function<double(Ptr<MobilityModel>, Ptr<MobilityModel>)>;

    /**
     * \brief Check the statistics of one model.
     * \param what the model's name
     * \param read its shadowing of a link, dB
     * \param sigmaDb its sigma
     * \param correlationM its d_cor
     */
    void Check(const std::string& what, const Reader& read, double sigmaDb, double correlationM)
    {
        const uint32_t n = 10000;
        std::vector<Vector> at;
        for (uint32_t i = 0; i < n; ++i)
        {
            // Each link its own two nodes, 50 m long, far from the others.
            at.emplace_back(1000.0 * i, 0, 1.5);
            at.emplace_back(1000.0 * i + 50.0, 0, 1.5);
        }
        NodeContainer nodes = MakeTestNodesAt(at);
        std::vector<double> first;
        std::vector<double> again;
        std::vector<double> moved;
        for (uint32_t i = 0; i < n; ++i)
        {
            auto a = nodes.Get(2 * i)->GetObject<MobilityModel>();
            auto b = nodes.Get(2 * i + 1)->GetObject<MobilityModel>();
            first.push_back(read(a, b));
            again.push_back(read(b, a)); // reciprocal, not moved: the same value
            b->SetPosition(b->GetPosition() + Vector(0, correlationM, 0));
            moved.push_back(read(a, b));
        }
        const Moments m = MomentsOf(first);
        NS_TEST_EXPECT_MSG_EQ_TOL(m.mean, 0.0, 5 * sigmaDb / std::sqrt(n), what << ": mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.sd,
                                  sigmaDb,
                                  5 * sigmaDb / std::sqrt(2.0 * n),
                                  what << ": standard deviation");
        NS_TEST_EXPECT_MSG_EQ((first == again), true, what << ": kept, reciprocal");
        const double rho = std::exp(-1.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(Correlation(first, moved),
                                  rho,
                                  5 * (1 - rho * rho) / std::sqrt(n),
                                  what << ": correlation at d_cor");
        NS_TEST_EXPECT_MSG_EQ_TOL(MomentsOf(moved).sd,
                                  sigmaDb,
                                  5 * sigmaDb / std::sqrt(2.0 * n),
                                  what << ": standard deviation after the move");
    }

    void DoRun() override
    {
        {
            DestroyAtExit guard;
            auto model = CreateObject<D2dShadowingLossModel>();
            model->SetAttribute("SigmaDb", DoubleValue(8.0));
            model->SetAttribute("CorrelationDistanceM", DoubleValue(50.0));
            model->AssignStreams(3);
            Check(
                "D2dShadowingLossModel",
                [model](Ptr<MobilityModel> a, Ptr<MobilityModel> b) {
                    return -model->CalcRxPower(0.0, a, b);
                },
                8.0,
                50.0);
            NS_TEST_EXPECT_MSG_EQ(model->GetNLinks(), 10000u, "one entry per link");
        }
        // By LOS state, as the 3GPP presets chain it: TR 38.901's UMi values.
        for (const bool los : {true, false})
        {
            DestroyAtExit guard;
            auto model = CreateObject<D2dShadowingLossModel>();
            Ptr<ChannelConditionModel> condition;
            if (los)
            {
                condition = CreateObject<AlwaysLosChannelConditionModel>();
            }
            else
            {
                condition = CreateObject<NeverLosChannelConditionModel>();
            }
            model->SetAttribute("ChannelConditionModel", PointerValue(condition));
            model->SetAttribute("SigmaLosDb", DoubleValue(4.0));
            model->SetAttribute("SigmaNlosDb", DoubleValue(7.82));
            model->SetAttribute("CorrelationLosM", DoubleValue(10.0));
            model->SetAttribute("CorrelationNlosM", DoubleValue(13.0));
            model->AssignStreams(11);
            Check(
                los ? "UMi LOS" : "UMi NLOS",
                [model](Ptr<MobilityModel> a, Ptr<MobilityModel> b) {
                    return -model->CalcRxPower(0.0, a, b);
                },
                los ? 4.0 : 7.82,
                los ? 10.0 : 13.0);
        }
    }
};

// ---------------------------------------------------------------------------------------

/**
 * \ingroup d2dlearn-tests
 * \brief Nakagami-m fading (m = 2) with a 10 ms CoherenceTime: a link's RSS is held within
 * a block and redrawn in the next; over 10,000 blocks the power gain over the log-distance
 * RSS has mean 1 and variance 1/m (Gamma(m, 1/m)), within five standard errors.
 */
class D2dBlockFadingTestCase : public TestCase
{
  public:
    D2dBlockFadingTestCase()
        : TestCase("Nakagami-m block fading, held within a block, mean 1 and variance 1 over m")
    {
    }

  private:
    /** \param rss the model \param a rx \param b tx \param out where the value goes */
    static void Sample(Ptr<PropagationRssModel> rss,
                       Ptr<MobilityModel> a,
                       Ptr<MobilityModel> b,
                       std::vector<double>* out)
    {
        out->push_back(rss->GetRssW(1, 0, a, b, 20.0));
    }

    void DoRun() override
    {
        DestroyAtExit guard;
        NodeContainer nodes = MakeTestNodesAt({Vector(0, 0, 0), Vector(40, 0, 0)});
        auto a = nodes.Get(1)->GetObject<MobilityModel>();
        auto b = nodes.Get(0)->GetObject<MobilityModel>();
        D2dPropagationHelper helper;
        helper.SetNakagamiM(2.0);
        auto rss = CreateObject<PropagationRssModel>();
        rss->SetAttribute("PropagationLossModel", PointerValue(helper.Create()));
        rss->SetAttribute("CoherenceTime", TimeValue(MilliSeconds(10)));
        rss->AssignStreams(5);
        // Without fading: log-distance at 40 m (Python: 10 ** ((20 - 46.6777 - 30 *
        // math.log10(40) - 30) / 10)).
        const double mean = 3.357762897866435e-11;
        std::vector<double> within;
        std::vector<double> blocks;
        Simulator::Schedule(MilliSeconds(1), &Sample, rss, a, b, &within);
        Simulator::Schedule(MilliSeconds(9), &Sample, rss, a, b, &within);
        Simulator::Schedule(MilliSeconds(11), &Sample, rss, a, b, &within);
        const uint32_t n = 10000;
        for (uint32_t k = 2; k < n + 2; ++k)
        {
            Simulator::Schedule(MilliSeconds(10 * k + 5), &Sample, rss, a, b, &blocks);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(within.size(), 3u, "samples");
        NS_TEST_EXPECT_MSG_EQ(within[0], within[1], "held within the block [0, 10) ms");
        NS_TEST_EXPECT_MSG_NE(within[1], within[2], "redrawn in the next block");
        NS_TEST_EXPECT_MSG_EQ(rss->GetNHeld(), 1u, "one link held");
        std::vector<double> gain;
        for (double w : blocks)
        {
            gain.push_back(w / mean);
        }
        const Moments m = MomentsOf(gain);
        // Gamma(2, 1/2): mean 1, variance 0.5, fourth central moment 6 x 0.25 = 1.5; the
        // variance's standard error sqrt((1.5 - 0.25) / n).
        NS_TEST_EXPECT_MSG_EQ_TOL(m.mean, 1.0, 5 * std::sqrt(0.5 / n), "mean gain");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.sd * m.sd, 0.5, 5 * std::sqrt(1.25 / n), "gain variance 1/m");
    }
};

/**
 * \ingroup d2dlearn-tests
 * \brief The suite.
 */
class D2dPropagationTestSuite : public TestSuite
{
  public:
    D2dPropagationTestSuite()
        : TestSuite("d2d-propagation")
    {
        AddTestCase(new D2dPresetRssTestCase);
        AddTestCase(new D2dWifiPresetRssTestCase);
        AddTestCase(new D2dThermalNoiseTestCase);
        AddTestCase(new D2dShadowingStatisticsTestCase);
        AddTestCase(new D2dBlockFadingTestCase);
    }
};

/** The suite's instance. */
static D2dPropagationTestSuite g_d2dPropagationTestSuite;
