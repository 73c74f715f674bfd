/*
 * d2dlearn: tests of the belief consensus of Lalitha et al. 2018 (fully decentralized
 * Bayesian learning): eq. (2) and eq. (3) against hand-computed values, Gaussian
 * natural-parameter consensus, the checks of W (Assumption 2), lambda_max, v and the
 * Theorem 1 bound, the network-identifiable discrete problem over the D2D channel
 * (cooperation converges, isolation does not, steps to zero error below the Theorem 1
 * bound), Example 1 (central, isolated, cooperative MSE), both loss rules at P_D = 0.3, and
 * the same small consensus over the packet-level Wi-Fi backend and over the D2D channel
 * (same beliefs, bit for bit). The protocol sends every belief in the same instant: the
 * channel's Scheduled access is what keeps half-duplex radios from losing them (checked
 * against Immediate).
 * D2dBeliefTraceWriter writes beliefs.csv, consensus.csv and rounds.csv rows equal to what
 * the learner reported at each StepDone and what the Consensus trace fired, with node -1
 * means when asked (not for the central learner).
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-test-eq18.h"

#include "ns3/boolean.h"
#include "ns3/d2d-belief-consensus-matrix.h"
#include "ns3/d2d-belief-consensus.h"
#include "ns3/d2d-belief-trace-writer.h"
#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-coordinate-belief-learner.h"
#include "ns3/d2d-discrete-belief.h"
#include "ns3/d2d-gaussian-belief.h"
#include "ns3/d2d-gaussian-linear-learner.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-wifi-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/matrix-rss-model.h"
#include "ns3/mobility-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Undirected ring of n devices. */
std::vector<std::vector<bool>>
Ring(uint32_t n)
{
    std::vector<std::vector<bool>> a(n, std::vector<bool>(n, false));
    for (uint32_t i = 0; i < n; ++i)
    {
        a[i][(i + 1) % n] = a[(i + 1) % n][i] = true;
    }
    return a;
}

/**
 * A run of the protocol over a D2D channel where every link drops with probability p,
 * with the channel's Scheduled access (the protocol sends every belief at the start of
 * its step; the access layer serialises the half-duplex radios).
 */
struct BayesRun
{
    NodeContainer nodes;
    Ptr<D2dChannel> channel;
    Ptr<D2dBeliefConsensus> protocol;
    /** per step: number of devices whose estimate is wrong (discrete learners) */
    std::vector<uint32_t> wrongPerStep;

    BayesRun(Ptr<D2dBeliefLearner> learner,
             const D2dBeliefConsensusMatrix& w,
             double dropProbability,
             const std::string& cooperation,
             const std::string& lossRule,
             uint32_t steps)
    {
        const uint32_t n = learner->GetNDevices();
        nodes.Create(n);
        std::vector<std::vector<double>> rss(n,
                                             std::vector<double>(n, RssForDrop(dropProbability)));
        auto matrix = CreateObject<MatrixRssModel>();
        matrix->SetMatrix(rss);
        D2dHelper helper;
        helper.SetRssModel(matrix);
        helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
        helper.SetChannelAttribute("BandwidthHz", DoubleValue(20e6));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(1.0));
        helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
        // Batteries that outlast the run: the radios idle at 0.819 W (D2dRadioEnergyModel's
        // IdlePowerW), which would empty the source's default 10 J in about 12 s.
        helper.SetInitialEnergyJ(1e4);
        channel = helper.Install(nodes);
        int64_t stream = 1;
        stream += helper.AssignStreams(stream);
        learner->AssignStreams(stream);
        const std::vector<Ptr<D2dTransport>> transports = channel->GetTransports();
        protocol = CreateObject<D2dBeliefConsensus>();
        protocol->SetAttribute("Steps", UintegerValue(steps));
        protocol->SetAttribute("Cooperation",
                               EnumValue(cooperation == "network" ? D2dBeliefConsensus::NETWORK
                                         : cooperation == "isolated"
                                             ? D2dBeliefConsensus::ISOLATED
                                             : D2dBeliefConsensus::CENTRAL));
        protocol->SetAttribute("LossRule",
                               EnumValue(lossRule == "reuse" ? D2dBeliefConsensus::REUSE
                                                             : D2dBeliefConsensus::RENORMALIZE));
        protocol->SetLearner(learner);
        protocol->SetMatrix(w);
        protocol->SetTransports(transports);
        auto coordinate = DynamicCast<D2dCoordinateBeliefLearner>(learner);
        if (coordinate)
        {
            protocol->TraceConnectWithoutContext(
                "StepDone",
                Callback<void, uint32_t>([this, coordinate, n](uint32_t) {
                    uint32_t wrong = 0;
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        wrong += coordinate->GetEstimate(i) != coordinate->GetTrueIndex();
                    }
                    wrongPerStep.push_back(wrong);
                }));
        }
        protocol->Start();
        Simulator::Stop(protocol->GetDuration() + MilliSeconds(1));
        Simulator::Run();
    }

    ~BayesRun()
    {
        protocol = nullptr;
        Simulator::Destroy();
    }

    /** \return the first step from which every device's estimate stays right (0-based count) */
    uint32_t StepsToZeroError() const
    {
        uint32_t last = 0;
        for (uint32_t k = 0; k < wrongPerStep.size(); ++k)
        {
            if (wrongPerStep[k] > 0)
            {
                last = k + 1;
            }
        }
        return last + 1; // the 1-based step from which the error is zero
    }
};

} // namespace

/** Eq. (2) and eq. (3) against hand-computed values, in log space. */
class D2dBayesEquationsTestCase : public TestCase
{
  public:
    D2dBayesEquationsTestCase()
        : TestCase("eq. (2) and eq. (3) against hand-computed values")
    {
    }

  private:
    void DoRun() override
    {
        // Eq. (2): rho = [0.5, 0.3, 0.2], l = [0.2, 0.5, 0.9]: l rho = [0.1, 0.15, 0.18],
        // sum 0.43, b = [0.232558, 0.348837, 0.418605].
        const std::vector<double> rho = {std::log(0.5), std::log(0.3), std::log(0.2)};
        const std::vector<double> lik = {std::log(0.2), std::log(0.5), std::log(0.9)};
        const auto b = D2dDiscreteBelief::LocalUpdate(rho, lik);
        const double expected2[] = {0.1 / 0.43, 0.15 / 0.43, 0.18 / 0.43};
        for (int k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(std::exp(b[k]), expected2[k], 1e-12, "eq. (2) entry " << k);
        }
        // Eq. (3): W_i = [0.5, 0.25, 0.25] over b1 = [.5 .3 .2], b2 = [.2 .4 .4],
        // b3 = [.1 .1 .8]: prod b_j^W_ij = [0.265915, 0.244942, 0.336363], normalized
        // [0.3138666, 0.2891201, 0.3970133].
        std::vector<std::vector<double>> pub = {{0.5, 0.3, 0.2}, {0.2, 0.4, 0.4}, {0.1, 0.1, 0.8}};
        for (auto& v : pub)
        {
            for (auto& x : v)
            {
                x = std::log(x);
            }
        }
        const auto r = D2dDiscreteBelief::Consensus({0.5, 0.25, 0.25}, {&pub[0], &pub[1], &pub[2]});
        const double expected3[] = {0.3138666, 0.28912006, 0.39701334};
        for (int k = 0; k < 3; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(std::exp(r[k]), expected3[k], 1e-7, "eq. (3) entry " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(D2dDiscreteBelief::Argmax(r), 2, "estimate = argmax");
        // Log space: beliefs of exp(-2000) (0 in double) keep their ratios. rho = [1/2, 1/2]
        // and 1000 samples with likelihood ratio e^-2: log b(1) - log b(0) = -2000.
        std::vector<double> logRho = D2dDiscreteBelief::Uniform(2);
        for (int s = 0; s < 1000; ++s)
        {
            logRho = D2dDiscreteBelief::LocalUpdate(logRho, {0.0, -2.0});
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(logRho[1] - logRho[0], -2000.0, 1e-9, "no underflow");
        NS_TEST_ASSERT_MSG_EQ_TOL(logRho[0], 0.0, 1e-12, "normalized");
        const auto mixed = D2dDiscreteBelief::Consensus({0.5, 0.5}, {&logRho, &logRho});
        NS_TEST_ASSERT_MSG_EQ_TOL(mixed[1], -2000.0, 1e-9, "consensus keeps -2000");
    }
};

/** Gaussian beliefs: eq. (2) and eq. (3) on natural parameters, hand-computed. */
class D2dBayesGaussianTestCase : public TestCase
{
  public:
    D2dBayesGaussianTestCase()
        : TestCase("Gaussian belief: update and natural-parameter consensus, hand-computed")
    {
    }

  private:
    void DoRun() override
    {
        // Prior N(0, 0.5): Lambda = 2; y = 1 at phi = 1 with s^2 = 0.64: Lambda = 3.5625,
        // eta = 1.5625, mean 0.438596, variance 0.280702.
        D2dGaussianBelief b(std::vector<double>{0.5});
        b.Update({1.0}, 1.0, 0.64);
        NS_TEST_ASSERT_MSG_EQ_TOL(b.GetPrecision()[0], 3.5625, 1e-12, "precision");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.Mean()[0], 1.5625 / 3.5625, 1e-12, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.Variance()[0], 1.0 / 3.5625, 1e-12, "variance");
        // Consensus of N(1, 1) and N(3, 0.5) with weights 1/2: Lambda = 1.5, eta = 3.5,
        // mean 7/3, variance 2/3 (the normalized geometric mean of the two densities).
        auto n1 = D2dGaussianBelief::FromVector(1, {1.0, 1.0});
        auto n2 = D2dGaussianBelief::FromVector(1, {2.0, 6.0});
        auto c = D2dGaussianBelief::Consensus({0.5, 0.5}, {&n1, &n2});
        NS_TEST_ASSERT_MSG_EQ_TOL(c.Mean()[0], 7.0 / 3.0, 1e-12, "consensus mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.Variance()[0], 2.0 / 3.0, 1e-12, "consensus variance");
        // 3-D: mean solves Lambda mu = eta; the vector form round-trips.
        D2dGaussianBelief g(std::vector<double>{0.5, 0.5, 0.5});
        g.Update({1.0, 0.5, 0.0}, 0.7, 0.64);
        g.Update({1.0, 0.0, -1.0}, -0.4, 0.64);
        const auto mu = g.Mean();
        const auto& lambda = g.GetPrecision();
        for (int i = 0; i < 3; ++i)
        {
            double lhs = 0;
            for (int j = 0; j < 3; ++j)
            {
                lhs += lambda[i * 3 + j] * mu[j];
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(lhs, g.GetEta()[i], 1e-12, "Lambda mu = eta, row " << i);
        }
        auto back = D2dGaussianBelief::FromVector(3, g.ToVector());
        NS_TEST_ASSERT_MSG_EQ_TOL(back.Mean()[2], mu[2], 1e-14, "round trip");
        NS_TEST_ASSERT_MSG_EQ(g.ToVector().size(), 9, "6 precision + 3 eta values");
    }
};

/** W: checks of Assumption 2, lambda_max, v, weights, Theorem 1 bound. */
class D2dBayesMatrixTestCase : public TestCase
{
  public:
    D2dBayesMatrixTestCase()
        : TestCase("W: stochastic, strongly connected, aperiodic; lambda_max, v, eq. (4)")
    {
    }

  private:
    bool Refused(const D2dBeliefConsensusMatrix& w, const std::string& word)
    {
        try
        {
            w.Check();
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what()).find(word) != std::string::npos;
        }
        return false;
    }

    void DoRun() override
    {
        // Example 1's W: eigenvalues 1 and trace - 1 = 0.3; v = [6/7, 1/7] (v1 0.1 = v2 0.6).
        D2dBeliefConsensusMatrix w({{0.9, 0.1}, {0.6, 0.4}});
        w.Check();
        NS_TEST_ASSERT_MSG_EQ_TOL(w.LambdaMax(), 0.3, 1e-12, "lambda_max of Example 1's W");
        auto v = w.StationaryDistribution();
        NS_TEST_ASSERT_MSG_EQ_TOL(v[0], 6.0 / 7.0, 1e-12, "v_1");
        NS_TEST_ASSERT_MSG_EQ_TOL(v[1], 1.0 / 7.0, 1e-12, "v_2");
        // Ring of 5 with uniform weights 1/3: circulant, eigenvalues (1 + 2 cos(2 pi k/5))/3:
        // modulus max over k != 0 is (1 + 2 cos(2 pi / 5)) / 3 = 0.53934.
        auto ring = D2dBeliefConsensusMatrix::FromGraph(Ring(5), "uniform");
        ring.Check();
        NS_TEST_ASSERT_MSG_EQ_TOL(ring.LambdaMax(),
                                  (1 + 2 * std::cos(2 * M_PI / 5)) / 3,
                                  1e-12,
                                  "ring lambda_max");
        // A directed 3-cycle 0 -> 1 -> 2 -> 0 with a self-loop at 0: v solves v = v W.
        D2dBeliefConsensusMatrix cyc({{0.5, 0, 0.5}, {1, 0, 0}, {0, 1, 0}});
        cyc.Check();
        v = cyc.StationaryDistribution();
        NS_TEST_ASSERT_MSG_EQ_TOL(v[0], 0.5, 1e-12, "cycle v_0 (v0 = 0.5 v0 + v1, v1 = v2)");
        NS_TEST_ASSERT_MSG_EQ_TOL(v[1], 0.25, 1e-12, "cycle v_1");
        // Metropolis on the path 0 - 1 - 2 (degrees 1, 2, 1): W_01 = 1/3, W_00 = 2/3,
        // W_10 = W_12 = W_11 = 1/3.
        std::vector<std::vector<bool>> path = {{false, true, false},
                                               {true, false, true},
                                               {false, true, false}};
        auto metro = D2dBeliefConsensusMatrix::FromGraph(path, "metropolis");
        NS_TEST_ASSERT_MSG_EQ_TOL(metro.Get(0, 1), 1.0 / 3, 1e-15, "Metropolis W_01");
        NS_TEST_ASSERT_MSG_EQ_TOL(metro.Get(0, 0), 2.0 / 3, 1e-15, "Metropolis W_00");
        NS_TEST_ASSERT_MSG_EQ_TOL(metro.Get(1, 1), 1.0 / 3, 1e-15, "Metropolis W_11");
        auto uni = D2dBeliefConsensusMatrix::FromGraph(path, "uniform");
        NS_TEST_ASSERT_MSG_EQ_TOL(uni.Get(0, 1), 0.5, 1e-15, "uniform W_01");
        NS_TEST_ASSERT_MSG_EQ_TOL(uni.Get(1, 0), 1.0 / 3, 1e-15, "uniform W_10");
        // Refused: not stochastic (row sums 1.1; negative entry), not strongly connected
        // (0 never hears 1), periodic (2-cycle without self-weights; ring of 4 with zero
        // diagonal has period 2).
        NS_TEST_ASSERT_MSG_EQ(
            Refused(D2dBeliefConsensusMatrix({{0.9, 0.2}, {0.6, 0.4}}), "not stochastic"),
            true,
            "row sum 1.1 refused");
        NS_TEST_ASSERT_MSG_EQ(
            Refused(D2dBeliefConsensusMatrix({{1.2, -0.2}, {0.6, 0.4}}), "not stochastic"),
            true,
            "negative entry refused");
        NS_TEST_ASSERT_MSG_EQ(
            Refused(D2dBeliefConsensusMatrix({{1, 0}, {0.5, 0.5}}), "not strongly connected"),
            true,
            "one-way graph refused");
        NS_TEST_ASSERT_MSG_EQ(Refused(D2dBeliefConsensusMatrix({{0, 1}, {1, 0}}), "periodic"),
                              true,
                              "2-cycle refused");
        std::vector<std::vector<double>> ring4(4, std::vector<double>(4, 0.0));
        for (int i = 0; i < 4; ++i)
        {
            ring4[i][(i + 1) % 4] = ring4[i][(i + 3) % 4] = 0.5;
        }
        NS_TEST_ASSERT_MSG_EQ(D2dBeliefConsensusMatrix(ring4).Period(), 2, "ring of 4: period 2");
        NS_TEST_ASSERT_MSG_EQ(Refused(D2dBeliefConsensusMatrix(ring4), "period 2"),
                              true,
                              "period-2 ring refused");
        std::vector<std::vector<double>> tri = {{0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
        NS_TEST_ASSERT_MSG_EQ(D2dBeliefConsensusMatrix(tri).Period(), 1, "triangle aperiodic");
        // CSV: read back; ragged file refused.
        const std::string file = "d2d-bayes-test-w.csv";
        {
            std::ofstream out(file);
            out << "0.9,0.1\n0.6,0.4\n";
        }
        auto read = D2dBeliefConsensusMatrix::FromCsv(file);
        NS_TEST_ASSERT_MSG_EQ_TOL(read.Get(1, 0), 0.6, 1e-15, "CSV W_10");
        {
            std::ofstream out(file);
            out << "0.9,0.1\n0.6\n";
        }
        bool refused = false;
        try
        {
            D2dBeliefConsensusMatrix::FromCsv(file);
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        std::remove(file.c_str());
        NS_TEST_ASSERT_MSG_EQ(refused, true, "ragged CSV refused");
        // Eq. (4): N = 2, M = 2, lambda_max = 0.5, K = 1, C = 1, delta = 0.5:
        // max{16 ln 2 / 0.5, 16 ln 8, 2 ln 4} = 16 ln 8 = 33.271.
        NS_TEST_ASSERT_MSG_EQ_TOL(D2dBeliefConsensusMatrix::Theorem1Bound(2, 2, 0.5, 1, 1, 0.5),
                                  16 * std::log(8.0),
                                  1e-12,
                                  "Theorem 1 bound");
    }
};

/**
 * The coordinate problem: G = 3 levels, D = 3 coordinates, theta* = levels (2, 1, 2),
 * eps = 0.1 (M = 27), N = 9 devices on a ring (device i sees coordinate i mod 3) with
 * uniform weights 1/3, over a channel with P_D = 1e-6 on every link, 150 steps.
 */
class D2dBayesIdentifiabilityTestCase : public TestCase
{
  public:
    D2dBayesIdentifiabilityTestCase()
        : TestCase("network-identifiable problem: cooperation learns theta*, isolation does "
                   "not; steps to zero error below Theorem 1")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 9;
        const uint32_t steps = 150;
        auto w = D2dBeliefConsensusMatrix::FromGraph(Ring(n), "uniform");
        w.Check();
        for (uint32_t seed : {1, 2, 3})
        {
            RngSeedManager::SetSeed(seed);
            auto learner =
                CreateObject<D2dCoordinateBeliefLearner>(n, 3, std::vector<uint32_t>{2, 1, 2}, 0.1);
            NS_TEST_ASSERT_MSG_EQ(learner->GetM(), 27, "M = 3^3");
            const double k = learner->ComputeK(w.StationaryDistribution());
            // K: v = 1/9 each, 3 devices per coordinate; the closest psi differs in one
            // coordinate by one level: min(KL(0.9||0.5), KL(0.5||0.1), KL(0.5||0.9)) / 3
            // = KL(Bern(0.9) || Bern(0.5)) / 3 = 0.36806 / 3.
            const double klNear = 0.9 * std::log(0.9 / 0.5) + 0.1 * std::log(0.1 / 0.5);
            NS_TEST_ASSERT_MSG_EQ_TOL(k, klNear / 3, 1e-12, "K(Theta_M)");
            const double bound = D2dBeliefConsensusMatrix::Theorem1Bound(n,
                                                                         27,
                                                                         w.LambdaMax(),
                                                                         k,
                                                                         learner->GetC(),
                                                                         0.1);
            uint32_t toZero;
            {
                BayesRun run(learner, w, 1e-6, "network", "reuse", steps);
                NS_TEST_ASSERT_MSG_EQ(run.wrongPerStep.size(), steps, "every step done");
                NS_TEST_ASSERT_MSG_EQ(run.wrongPerStep.back(), 0, "every device finds theta*");
                toZero = run.StepsToZeroError();
                NS_TEST_ASSERT_MSG_LT(toZero, steps, "zero error reached and kept, seed " << seed);
                NS_TEST_ASSERT_MSG_LT(double(toZero), bound, "below the Theorem 1 bound");
                for (uint32_t i = 0; i < n; ++i)
                {
                    NS_TEST_ASSERT_MSG_GT(
                        std::exp(learner->GetLogPrivate(i)[learner->GetTrueIndex()]),
                        0.99,
                        "belief of theta* at device " << i);
                }
                const auto totals = run.protocol->GetTotals();
                NS_TEST_ASSERT_MSG_EQ(totals[0], uint64_t(steps) * n * 2, "all beliefs fresh");
            }
            std::cout << "seed " << seed << ": steps to zero error " << toZero
                      << ", Theorem 1 bound " << bound << " (K " << k << ", lambda_max "
                      << w.LambdaMax() << ")" << std::endl;
            // Isolated: device i learns only coordinate i mod 3; theta* stays one of 9 tied
            // parameters (belief 1/9 at most) and argmax picks another.
            RngSeedManager::SetSeed(seed);
            auto alone =
                CreateObject<D2dCoordinateBeliefLearner>(n, 3, std::vector<uint32_t>{2, 1, 2}, 0.1);
            {
                BayesRun run(alone, w, 1e-6, "isolated", "reuse", steps);
                NS_TEST_ASSERT_MSG_EQ(run.wrongPerStep.back(),
                                      n,
                                      "no isolated device finds theta*");
                for (uint32_t i = 0; i < n; ++i)
                {
                    NS_TEST_ASSERT_MSG_LT(std::exp(alone->GetLogPrivate(i)[alone->GetTrueIndex()]),
                                          1.0 / 9 + 1e-9,
                                          "isolated belief of theta* <= 1/9");
                }
                NS_TEST_ASSERT_MSG_EQ(run.protocol->GetTotals()[0], 0, "isolated: no messages");
            }
        }
    }
};

/**
 * Example 1 revisited: two users, W = [[0.9, 0.1], [0.6, 0.4]], 200 steps, P_D = 1e-6.
 */
class D2dBayesExample1TestCase : public TestCase
{
  public:
    D2dBayesExample1TestCase()
        : TestCase("Example 1: cooperative MSE near central's and below isolated users'")
    {
    }

  private:
    void DoRun() override
    {
        D2dBeliefConsensusMatrix w({{0.9, 0.1}, {0.6, 0.4}});
        w.Check();
        const uint32_t steps = 200;
        for (uint32_t seed : {1, 2, 3})
        {
            double central;
            double centralExcess;
            std::vector<double> isolated(2);
            std::vector<double> coop(2);
            std::vector<double> coopExcess(2);
            {
                RngSeedManager::SetSeed(seed);
                auto l = CreateObject<D2dGaussianLinearLearner>(2, 2000);
                BayesRun run(l, w, 1e-6, "central", "reuse", steps);
                central = l->TestMse(-1);
                centralExcess = l->TestExcessMse(-1);
            }
            {
                RngSeedManager::SetSeed(seed);
                auto l = CreateObject<D2dGaussianLinearLearner>(2, 2000);
                BayesRun run(l, w, 1e-6, "isolated", "reuse", steps);
                isolated = {l->TestMse(0), l->TestMse(1)};
            }
            {
                RngSeedManager::SetSeed(seed);
                auto l = CreateObject<D2dGaussianLinearLearner>(2, 2000);
                BayesRun run(l, w, 1e-6, "network", "reuse", steps);
                coop = {l->TestMse(0), l->TestMse(1)};
                coopExcess = {l->TestExcessMse(0), l->TestExcessMse(1)};
            }
            std::cout << "seed " << seed << ": MSE central " << central << " (excess "
                      << centralExcess << "), isolated " << isolated[0] << " " << isolated[1]
                      << ", cooperative " << coop[0] << " " << coop[1] << " (excess "
                      << coopExcess[0] << " " << coopExcess[1] << ")" << std::endl;
            for (int u = 0; u < 2; ++u)
            {
                NS_TEST_ASSERT_MSG_LT(coop[u],
                                      1.1 * central,
                                      "user " << u << " within 1.1 x central");
                NS_TEST_ASSERT_MSG_LT(coopExcess[u],
                                      COOP_EXCESS_FACTOR * centralExcess,
                                      "user " << u << " excess MSE within the stated factor");
                NS_TEST_ASSERT_MSG_LT(coop[u], isolated[0], "user " << u << " below isolated A");
                NS_TEST_ASSERT_MSG_LT(coop[u], isolated[1], "user " << u << " below isolated B");
            }
            // Isolated users cannot learn the other input's weight: excess MSE near
            // 0.8^2 Var(x_2) = 0.48 for A and 0.5^2 Var(x_1) = 0.083 for B (prior mean 0).
            NS_TEST_ASSERT_MSG_GT(isolated[0], central + 0.3, "isolated A misses theta_2");
            NS_TEST_ASSERT_MSG_GT(isolated[1], central + 0.04, "isolated B misses theta_1");
        }
    }

    /** Stated factor on the excess MSE: cooperative users end within 3 x the central
     * learner's (measured 1.3 - 1.8 x: the W-weighted consensus passes user B's x_2
     * information to A at the stationary weight v_B = 1/7, not in full). */
    static constexpr double COOP_EXCESS_FACTOR = 3.0;
    /** Stated factor on the MSE against noisy labels (floor 0.64): within 1.05 x central. */
    static constexpr double COOP_MSE_FACTOR = 1.05;
};

/**
 * Message loss: P_D = 0.3 on every link (MatrixRssModel, r = 1, sigma^2 = 1 W, RSS =
 * -1 / ln 0.7), the coordinate problem on the ring of 9, 200 steps; both loss rules.
 */
class D2dBayesLossTestCase : public TestCase
{
  public:
    D2dBayesLossTestCase()
        : TestCase("P_D = 0.3: both loss rules converge; fresh fraction 0.7")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 9;
        const uint32_t steps = 200;
        auto w = D2dBeliefConsensusMatrix::FromGraph(Ring(n), "uniform");
        for (std::string rule : {"reuse", "renormalize"})
        {
            RngSeedManager::SetSeed(5);
            auto learner =
                CreateObject<D2dCoordinateBeliefLearner>(n, 3, std::vector<uint32_t>{2, 1, 2}, 0.1);
            BayesRun run(learner, w, 0.3, "network", rule, steps);
            NS_TEST_ASSERT_MSG_EQ_TOL(run.channel->GetDropProbability(1, 0),
                                      0.3,
                                      1e-12,
                                      "eq. (18)");
            NS_TEST_ASSERT_MSG_EQ(run.wrongPerStep.back(),
                                  0,
                                  rule << ": every device finds theta*");
            const auto t = run.protocol->GetTotals();
            const double all = double(steps) * n * 2;
            NS_TEST_ASSERT_MSG_EQ(t[0] + t[1] + t[2], all, "every neighbour counted once");
            // 3600 (neighbour, step) pairs: 4.5 standard errors of 0.3 is 0.034.
            NS_TEST_ASSERT_MSG_EQ_TOL(t[0] / all, 0.7, 0.035, rule << ": fresh fraction 1 - P_D");
            if (rule == "reuse")
            {
                NS_TEST_ASSERT_MSG_EQ(t[2], 0, "reuse leaves nothing out");
                NS_TEST_ASSERT_MSG_GT(t[1], 0, "reuse reuses");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(t[1], 0, "renormalize reuses nothing");
                NS_TEST_ASSERT_MSG_GT(t[2], 0, "renormalize leaves out");
            }
            std::cout << rule << ": fresh " << t[0] << " reused " << t[1] << " left out " << t[2]
                      << ", steps to zero error " << run.StepsToZeroError() << std::endl;
        }
    }
};

namespace
{

/** What a small belief consensus ends with, whatever carried its messages. */
struct SmallConsensusOutcome
{
    std::vector<std::vector<double>> logPrivate; //!< per device: log rho_i at the end
    std::vector<uint32_t> wrongPerStep;          //!< per step: devices whose estimate is wrong
    std::vector<uint64_t> totals;                //!< fresh, reused, renormalized out
    uint64_t beliefRows{0};                      //!< Delivery rows of kind "belief"
    uint64_t completeRows{0};                    //!< of which complete
    uint64_t halfDuplexRows{0};                  //!< of which lost to half-duplex
};

/**
 * The coordinate problem (G = 3 levels, theta* = (2, 1, 2), eps = 0.1) on a ring of 4
 * devices with uniform weights, the devices on a 10 m square; each belief goes as one
 * reliable unicast per out-neighbour (Broadcast false), or one multicast per device and
 * step (Broadcast true; over Wi-Fi, 802.11 neither acknowledges nor retries group frames, and
 * the transports' GroupJitter spreads the simultaneous ones so that carrier sensing works,
 * see D2dBayesWifiBroadcastTestCase). Unicast frames are acknowledged and retried after a
 * random backoff, so the 802.11 MAC serialises them as the channel's Scheduled access does.
 * \param backend "channel" (D2dRadio, default propagation RSS, P_D about 1e-4 per link)
 *        or "wifi" (D2dWifiTransport: 802.11a ad hoc, 6 Mbit/s, every link in range)
 * \param access the channel's AccessPolicy (ignored by Wi-Fi)
 * \param steps steps of 100 ms
 * \param broadcast one multicast per device and step to its out-neighbours instead of
 *        unicasts (the protocol's Broadcast attribute)
 * \param groupJitter Wi-Fi only: D2dWifiTransport::GroupJitter
 * \return the outcome
 */
SmallConsensusOutcome
RunSmallConsensus(const std::string& backend,
                  D2dChannelAccess::Policy access,
                  uint32_t steps,
                  bool broadcast = false,
                  Time groupJitter = MilliSeconds(10))
{
    const uint32_t n = 4;
    RngSeedManager::SetSeed(7);
    NodeContainer nodes;
    nodes.Create(n);
    auto positions = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < n; ++i)
    {
        positions->Add(Vector(10.0 * (i % 2), 10.0 * (i / 2), 0.0));
    }
    MobilityHelper mobility;
    mobility.SetPositionAllocator(positions);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    std::vector<Ptr<D2dTransport>> transports;
    if (backend == "wifi")
    {
        D2dWifiHelper wifi;
        wifi.SetTransportAttribute("GroupJitter", TimeValue(groupJitter));
        for (const auto& t : wifi.Install(nodes))
        {
            transports.push_back(t);
        }
        wifi.AssignStreams(1);
    }
    else
    {
        D2dHelper d2d;
        d2d.SetChannelAttribute("AccessPolicy", EnumValue(access));
        transports = d2d.Install(nodes)->GetTransports();
        d2d.AssignStreams(1);
    }
    SmallConsensusOutcome out;
    for (const auto& t : transports)
    {
        t->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>([&out](const D2dDeliveryRecord& r) {
                if (r.kind == D2dBeliefConsensus::KIND)
                {
                    ++out.beliefRows;
                    out.completeRows += r.IsComplete();
                    out.halfDuplexRows += r.reason == "half_duplex";
                }
            }));
    }
    // The learner's streams are the same on both backends: the same samples.
    auto learner =
        CreateObject<D2dCoordinateBeliefLearner>(n, 3, std::vector<uint32_t>{2, 1, 2}, 0.1);
    learner->AssignStreams(10000);
    auto protocol = CreateObject<D2dBeliefConsensus>();
    protocol->SetAttribute("Steps", UintegerValue(steps));
    protocol->SetAttribute("Reliable", BooleanValue(true));
    protocol->SetAttribute("Broadcast", BooleanValue(broadcast));
    protocol->SetLearner(learner);
    protocol->SetMatrix(D2dBeliefConsensusMatrix::FromGraph(Ring(n), "uniform"));
    protocol->SetTransports(transports);
    protocol->TraceConnectWithoutContext("StepDone", Callback<void, uint32_t>([&](uint32_t) {
                                             uint32_t wrong = 0;
                                             for (uint32_t i = 0; i < n; ++i)
                                             {
                                                 wrong += learner->GetEstimate(i) !=
                                                          learner->GetTrueIndex();
                                             }
                                             out.wrongPerStep.push_back(wrong);
                                         }));
    protocol->Start();
    Simulator::Stop(protocol->GetDuration() + MilliSeconds(1));
    Simulator::Run();
    for (uint32_t i = 0; i < n; ++i)
    {
        out.logPrivate.push_back(learner->GetLogPrivate(i));
    }
    out.totals = protocol->GetTotals();
    protocol->Dispose();
    Simulator::Destroy();
    return out;
}

} // namespace

/**
 * The protocol runs over any D2dTransport: a small consensus (4 devices, 30 steps) over the
 * Wi-Fi backend ends with the same private beliefs, bit for bit, as over the D2D channel
 * with Scheduled access: every neighbour belief arrives in time on both, so eq. (3) gets
 * the same inputs. Without the access layer (Immediate) the beliefs, all sent in the same
 * instant, are lost to half-duplex.
 */
class D2dBayesWifiTestCase : public TestCase
{
  public:
    D2dBayesWifiTestCase()
        : TestCase("belief consensus over Wi-Fi reaches the channel's outcome; Scheduled "
                   "access, not the protocol, avoids half-duplex losses")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint32_t steps = 30;
        // Two in-neighbours and two out-neighbours (one unicast each) per device and step.
        const uint64_t allFresh = uint64_t(steps) * n * 2;
        const uint64_t allRows = allFresh;
        const SmallConsensusOutcome channel =
            RunSmallConsensus("channel", D2dChannelAccess::SCHEDULED, steps);
        const SmallConsensusOutcome wifi =
            RunSmallConsensus("wifi", D2dChannelAccess::SCHEDULED, steps);
        const SmallConsensusOutcome raw =
            RunSmallConsensus("channel", D2dChannelAccess::IMMEDIATE, steps);
        std::cout << "fresh: channel " << channel.totals[0] << ", wifi " << wifi.totals[0]
                  << ", channel immediate " << raw.totals[0] << " of " << allFresh
                  << "; wrong devices after step 1, 5, 10, 30 (channel):";
        for (uint32_t k : {1, 5, 10, 30})
        {
            std::cout << ' ' << channel.wrongPerStep.at(k - 1);
        }
        std::cout << std::endl;

        for (const auto* run : {&channel, &wifi})
        {
            const std::string name = run == &channel ? "channel" : "wifi";
            const uint64_t fresh = run->totals[0];
            const uint64_t reused = run->totals[1];
            NS_TEST_ASSERT_MSG_EQ(fresh, allFresh, name << ": every neighbour belief fresh");
            NS_TEST_ASSERT_MSG_EQ(reused, 0, name << ": nothing reused");
            NS_TEST_ASSERT_MSG_EQ(run->beliefRows, allRows, name << ": one row per receiver");
            NS_TEST_ASSERT_MSG_EQ(run->completeRows, allRows, name << ": every row complete");
            NS_TEST_ASSERT_MSG_EQ(run->wrongPerStep.size(), steps, name << ": every step done");
            const uint32_t wrongAtEnd = run->wrongPerStep.back();
            NS_TEST_ASSERT_MSG_EQ(wrongAtEnd, 0, name << ": every device finds theta*");
        }
        // Same samples, same inputs to eq. (3): the same beliefs, bit for bit.
        const bool sameErrors = channel.wrongPerStep == wifi.wrongPerStep;
        NS_TEST_ASSERT_MSG_EQ(sameErrors, true, "same errors at every step");
        for (uint32_t i = 0; i < n; ++i)
        {
            const bool sameBelief = channel.logPrivate[i] == wifi.logPrivate[i];
            NS_TEST_ASSERT_MSG_EQ(sameBelief, true, "same private belief at device " << i);
        }
        // The beliefs go out in the same instant: the raw radios lose them.
        const uint64_t rawFresh = raw.totals[0];
        NS_TEST_ASSERT_MSG_GT(raw.halfDuplexRows, 0, "immediate access: half-duplex losses");
        NS_TEST_ASSERT_MSG_LT(rawFresh, allFresh, "immediate access: beliefs missing");
    }
};

/**
 * Group transmissions over Wi-Fi get through: the belief consensus with Broadcast = true (one
 * reliable multicast per device and step, all handed to the MACs in the same instant) gets
 * at least 95 % of the neighbour beliefs through with D2dWifiTransport's default GroupJitter
 * (RFC 5148 jitter before each group attempt), and far fewer without it (GroupJitter = 0:
 * the four multicasts and their retransmissions, timed alike, collide). The issue that asked
 * for it measured 8 of 240 without jitter.
 */
class D2dBayesWifiBroadcastTestCase : public TestCase
{
  public:
    D2dBayesWifiBroadcastTestCase()
        : TestCase("belief consensus broadcasts over Wi-Fi: at least 95 % of beliefs with the "
                   "group jitter, far fewer without it")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint32_t steps = 30;
        const uint64_t allFresh = uint64_t(steps) * n * 2; // two in-neighbours each
        const SmallConsensusOutcome jittered =
            RunSmallConsensus("wifi", D2dChannelAccess::SCHEDULED, steps, true);
        const SmallConsensusOutcome bare =
            RunSmallConsensus("wifi", D2dChannelAccess::SCHEDULED, steps, true, Seconds(0));
        std::cout << "Wi-Fi broadcasts, fresh beliefs of " << allFresh << ": with jitter "
                  << jittered.totals[0] << ", without " << bare.totals[0] << std::endl;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(jittered.totals[0] * 100,
                                    allFresh * 95,
                                    "with the group jitter: at least 95 % of beliefs fresh");
        NS_TEST_ASSERT_MSG_LT(bare.totals[0] * 2,
                              allFresh,
                              "without it: fewer than half (the collisions the jitter avoids)");
        NS_TEST_ASSERT_MSG_EQ(jittered.wrongPerStep.back(), 0, "every device finds theta*");
    }
};

/** The d2d-bayes suite. */
namespace
{

/** What a traced run reported, and the folder its writer wrote. */
struct TracedBayesRun
{
    std::vector<std::string> beliefs;   //!< beliefs.csv rows expected, from StepDone
    std::vector<std::string> consensus; //!< consensus.csv rows expected, from Consensus
    std::vector<std::string> rounds;    //!< rounds.csv rows expected, from StepDone
    uint32_t reused{0};                 //!< in-neighbour beliefs reused, all records
    uint32_t badSums{0}; //!< Consensus records whose fresh + reused + out != 2 (ring degree)
};

/** \return printf's text of a rounds.csv row */
std::string
RoundsRow(uint32_t k, double timeS, int64_t node, const std::string& metric, double value)
{
    char text[160];
    std::snprintf(text,
                  sizeof(text),
                  "%u,%.9f,%lld,%s,%.9g",
                  k,
                  timeS,
                  static_cast<long long>(node),
                  metric.c_str(),
                  value);
    return text;
}

/**
 * 8 steps of the network-identifiable problem of the Wi-Fi case (4 devices on a ring,
 * P_D = 0.3 per link, REUSE) with a D2dBeliefTraceWriter in outDir (meanRows on), and
 * the rows the test expects, built by its own sinks from the same events.
 * \param outDir the trace folder
 * \param cooperation "network" or "central"
 * \return the expected rows
 */
TracedBayesRun
RunTracedBayes(const std::string& outDir, const std::string& cooperation)
{
    const uint32_t n = 4;
    NodeContainer nodes;
    nodes.Create(n);
    auto matrix = CreateObject<MatrixRssModel>();
    matrix->SetMatrix(std::vector<std::vector<double>>(n, std::vector<double>(n, RssForDrop(0.3))));
    D2dHelper helper;
    helper.SetRssModel(matrix);
    helper.SetChannelAttribute("SpectralEfficiency", DoubleValue(1.0));
    helper.SetChannelAttribute("BandwidthHz", DoubleValue(20e6));
    helper.SetChannelAttribute("NoisePowerW", DoubleValue(1.0));
    helper.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
    Ptr<D2dChannel> channel = helper.Install(nodes);
    helper.AssignStreams(1);
    auto learner =
        CreateObject<D2dCoordinateBeliefLearner>(n, 3, std::vector<uint32_t>{2, 1, 2}, 0.1);
    learner->AssignStreams(10000);
    const std::vector<Ptr<D2dTransport>> transports = channel->GetTransports();
    auto protocol = CreateObject<D2dBeliefConsensus>();
    protocol->SetAttribute("Steps", UintegerValue(8));
    protocol->SetAttribute("Cooperation",
                           EnumValue(cooperation == "central" ? D2dBeliefConsensus::CENTRAL
                                                              : D2dBeliefConsensus::NETWORK));
    protocol->SetLearner(learner);
    protocol->SetMatrix(D2dBeliefConsensusMatrix::FromGraph(Ring(n), "uniform"));
    protocol->SetTransports(transports);

    auto traces = std::make_unique<D2dTraceHelper>(outDir);
    D2dBeliefTraceWriter writer(*traces);
    writer.Connect(protocol, learner, true);

    TracedBayesRun out;
    const bool central = cooperation == "central";
    protocol->TraceConnectWithoutContext(
        "StepDone",
        Callback<void, uint32_t>([&](uint32_t k) {
            std::vector<int64_t> rowNodes{-1};
            if (!central)
            {
                rowNodes = {0, 1, 2, 3};
            }
            const double t = Simulator::Now().GetSeconds();
            std::vector<double> sums(2, 0.0);
            std::vector<std::string> names;
            for (auto i : rowNodes)
            {
                out.beliefs.push_back(std::to_string(k) + "," + std::to_string(i) + "," +
                                      learner->GetBeliefsRow(i));
                const auto m = learner->GetMetrics(i);
                names.clear();
                for (std::size_t j = 0; j < m.size(); ++j)
                {
                    out.rounds.push_back(RoundsRow(k, t, i, m[j].first, m[j].second));
                    sums[j] += m[j].second;
                    names.push_back(m[j].first);
                }
            }
            if (!central)
            {
                for (std::size_t j = 0; j < names.size(); ++j)
                {
                    out.rounds.push_back(RoundsRow(k, t, -1, names[j], sums[j] / 4));
                }
            }
        }));
    protocol->TraceConnectWithoutContext(
        "Consensus",
        Callback<void, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>(
            [&out](uint32_t k, uint32_t i, uint32_t fresh, uint32_t reused, uint32_t gone) {
                std::ostringstream row;
                row << k << ',' << i << ',' << fresh << ',' << reused << ',' << gone;
                out.consensus.push_back(row.str());
                out.reused += reused;
                out.badSums += fresh + reused + gone != 2;
            }));
    protocol->Start();
    Simulator::Stop(protocol->GetDuration() + MilliSeconds(1));
    Simulator::Run();
    traces->Finish(1, 0.0);
    protocol->Dispose();
    Simulator::Destroy();
    return out;
}

/** \return the lines of a text file, without the newlines */
std::vector<std::string>
Lines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

} // namespace

/**
 * D2dBeliefTraceWriter: every file row equals what the test's own sinks built from the
 * same StepDone and Consensus events (node -1 means computed here); the central learner
 * gets node -1 rows only and no mean rows.
 */
class D2dBayesTraceWriterTestCase : public TestCase
{
  public:
    D2dBayesTraceWriterTestCase()
        : TestCase("D2dBeliefTraceWriter: beliefs, consensus and rounds rows = the events")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string cooperation : {"network", "central"})
        {
            char tmpl[] = "/tmp/d2d-bayes-writer-XXXXXX";
            const char* made = mkdtemp(tmpl);
            NS_TEST_ASSERT_MSG_NE(made, nullptr, "temporary folder");
            const std::string dir(made);
            const TracedBayesRun o = RunTracedBayes(dir, cooperation);
            const bool central = cooperation == "central";
            const uint32_t nodes = central ? 1 : 4;
            NS_TEST_ASSERT_MSG_EQ(o.beliefs.size(), 8u * nodes, cooperation << ": belief rows");
            NS_TEST_ASSERT_MSG_EQ(o.rounds.size(),
                                  8u * 2 * (nodes + (central ? 0 : 1)),
                                  cooperation << ": 2 metrics per node (and the mean)");
            // (A variable: ns-3.37's NS_TEST_ASSERT_MSG_EQ streams its limit unparenthesized.)
            const std::size_t consensusRows = central ? 0u : 8u * 4;
            NS_TEST_ASSERT_MSG_EQ(o.consensus.size(),
                                  consensusRows,
                                  cooperation << ": consensus records");
            NS_TEST_ASSERT_MSG_EQ(o.badSums, 0u, "every in-neighbour is fresh, reused or out");
            if (!central)
            {
                NS_TEST_ASSERT_MSG_GT(o.reused, 0u, "P_D = 0.3: some beliefs reused");
            }
            const std::vector<std::pair<std::string, const std::vector<std::string>*>> files{
                {"beliefs.csv", &o.beliefs},
                {"consensus.csv", &o.consensus},
                {"rounds.csv", &o.rounds}};
            for (const auto& [file, expected] : files)
            {
                const std::vector<std::string> lines = Lines(dir + "/" + file);
                NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + expected->size(), file << " rows");
                for (std::size_t i = 0; i < std::min(expected->size(), lines.size() - 1); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(lines[i + 1], (*expected)[i], file << " row " << i + 1);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(Lines(dir + "/beliefs.csv")[0],
                                  "step,node,estimate,belief_true,log_belief_true,error",
                                  "beliefs.csv header");
            NS_TEST_ASSERT_MSG_EQ(Lines(dir + "/consensus.csv")[0],
                                  "step,node,fresh,reused,renormalized_out",
                                  "consensus.csv header");
            std::filesystem::remove_all(dir);
        }
    }
};

class D2dBayesTestSuite : public TestSuite
{
  public:
    D2dBayesTestSuite()
        : TestSuite("d2d-bayes")
    {
        AddTestCase(new D2dBayesEquationsTestCase);
        AddTestCase(new D2dBayesGaussianTestCase);
        AddTestCase(new D2dBayesMatrixTestCase);
        AddTestCase(new D2dBayesIdentifiabilityTestCase);
        AddTestCase(new D2dBayesExample1TestCase);
        AddTestCase(new D2dBayesLossTestCase);
        AddTestCase(new D2dBayesWifiTestCase);
        AddTestCase(new D2dBayesWifiBroadcastTestCase);
        AddTestCase(new D2dBayesTraceWriterTestCase);
    }
};

/** Static instance. */
static D2dBayesTestSuite g_d2dBayesTestSuite;
