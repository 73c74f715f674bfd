/*
 * d2dlearn scenario: D2D graph discovery by multi-agent reinforcement learning, the data
 * exchange over the graph found, and federated learning on the new shards (Wagle, Das, Love
 * and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025; the supervised and semi-supervised paradigms).
 *
 * N devices with Fashion-MNIST shards of a few labels each (70/20/10 % by default) learn
 * which transmitter to take datapoints from (--graph=rl), or take a baseline graph (closest,
 * most-trusted, uniform) or none; the chosen transmitters send real datapoints over the
 * simulated D2D channel; then --downstream (fedavg, fedprox, fedsgd, decentralized,
 * semi-decentralized, or none) trains on the shards as they are after the exchange.
 * --paradigm=semi-supervised (sec. V-A1) first labels the shards: a fraction of each device's
 * points keeps its label, distributed PCA runs over the device-to-server link (the sketches up,
 * the subspace F down, messages of their true size) and label propagation on the projections
 * labels the rest; the propagated labels are the partitions from there on.
 * --paradigm=unsupervised (sec. V-B, Alg. 2) runs the same distributed PCA, then K-means
 * (--clusters) on each device's projections gives the partitions; the messages are the
 * request with the receiver's centroids and the transmitter's per-cluster {mean, covariance,
 * count}, the rewards those of eqs. (16)-(17); the final exchange moves real points
 * (--exchangeMode=real, the default) or lets the receivers draw from the Gaussians (sampled).
 * The labels only measure the mean W1 to uniform after each edge (run.json); downstream, the
 * devices train the self-supervised triplet encoder (--model=triplet), scored by linear
 * evaluation, or nothing (--downstream=none).
 * --graph=gcn is the GCN baseline (App. C): a graph convolutional network trained at the
 * server on the best links of small sub-systems scores every link, each receiver takes its
 * best-scored transmitter, then the same message passing and exchange as every baseline.
 * --dataset=polynomial is the regression extension (sec. VI-C4): each device cuts its sorted
 * targets at the --partitions - 1 largest gaps, the runs are the partitions the discovery
 * and the exchange use, and the downstream learner (--model=poly) reports the test MSE.
 * Writes the gd_*.csv traces, gd_energy.csv, rounds.csv, messages.csv, energy.csv and
 * run.json into --outDir.
 *
 * The work is the module's: each paradigm prepares itself (D2dDiscoveryParadigm::Prepare:
 * the distributed PCA, labelling, K-means), D2dGraphDiscovery runs over the network's
 * transports, D2dGcnGraphScorer scores the links for --graph=gcn, and
 * D2dGraphDiscoveryHelper declares the flags (each bound to the attribute it sets), checks
 * them against the data, assembles, runs and records; main() is the sequence of calls.
 *
 * --evaluate=INSTANCE.json runs one message-passing step (eqs. (9)-(12), the rewards of
 * eqs. (13)-(14)) on a hand-written instance and prints the result as JSON, without
 * simulating (README: "graph-discovery calculator").
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-graph-discovery-helper.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-message-passing.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-trust-matrices.h"

// Boost 1.74's JSON parser includes <boost/bind.hpp>, which asks for this to stay quiet.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#include <algorithm>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GraphDiscoveryScenario");

namespace
{
using boost::property_tree::ptree;

/**
 * \return the numbers of a JSON array node, each finite and in [lo, hi]
 * \param node the array
 * \param key its name (errors)
 * \param lo smallest accepted
 * \param hi largest accepted
 * \throws std::runtime_error naming the key, the value and the range
 */
std::vector<double>
Numbers(const ptree& node, const std::string& key, double lo, double hi)
{
    std::vector<double> v;
    for (const auto& child : node)
    {
        if (!child.second.empty())
        {
            throw std::runtime_error(key + ": a list of numbers expected, found a nested value");
        }
        const auto x = child.second.get_value_optional<double>();
        if (!x || !std::isfinite(*x) || *x < lo || *x > hi)
        {
            throw std::runtime_error(fmt::format("{}: '{}' is out of range (accepted: numbers "
                                                 "in [{}, {}])",
                                                 key,
                                                 child.second.data(),
                                                 lo,
                                                 hi));
        }
        v.push_back(*x);
    }
    return v;
}

/**
 * \return the integers of a JSON array node (Numbers() with no fraction allowed)
 * \param node the array
 * \param key its name (errors)
 * \param lo smallest accepted
 * \param hi largest accepted
 */
std::vector<int64_t>
Integers(const ptree& node, const std::string& key, double lo, double hi)
{
    std::vector<int64_t> out;
    for (double x : Numbers(node, key, lo, hi))
    {
        if (x != std::floor(x))
        {
            throw std::runtime_error(
                fmt::format("{}: {} is not an integer (accepted: integers in [{}, {}])",
                            key,
                            x,
                            lo,
                            hi));
        }
        out.push_back(static_cast<int64_t>(x));
    }
    return out;
}

/** The calculator's instances: the paper's are a few hundred bytes; a parsed tree takes
 * about 160 times its text, so 1 MiB bounds the memory to about 200 MB. */
constexpr std::size_t kMaxInstanceBytes = 1 << 20;
/** Deepest nesting of an instance: {"trust": [[[0, 1]]]} is 4 levels. */
constexpr int kMaxInstanceDepth = 8;

/**
 * \brief Read a calculator instance: a regular file (a FIFO or device is never opened for
 * reading), at most kMaxInstanceBytes, nested at most kMaxInstanceDepth deep (the JSON parser
 * recurses: 2,000,000 '[' overflowed its stack).
 * \param path the file
 * \return its text
 * \throws std::runtime_error saying what is wrong
 */
std::string
ReadInstance(const std::string& path)
{
    struct stat st
    {
    };

    if (stat(path.c_str(), &st) != 0)
    {
        throw std::runtime_error(std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
    {
        throw std::runtime_error("not a regular file (accepted: a JSON file)");
    }
    if (static_cast<std::size_t>(st.st_size) > kMaxInstanceBytes)
    {
        throw std::runtime_error(
            fmt::format("{} bytes (accepted: at most {})", st.st_size, kMaxInstanceBytes));
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(kMaxInstanceBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInstanceBytes)
    {
        throw std::runtime_error(fmt::format("more than {} bytes", kMaxInstanceBytes));
    }
    int depth = 0;
    bool inString = false;
    for (std::size_t k = 0; k < text.size(); ++k)
    {
        const char c = text[k];
        if (inString)
        {
            k += c == '\\' ? 1 : 0;
            inString = c != '"';
        }
        else if (c == '"')
        {
            inString = true;
        }
        else if ((c == '[' || c == '{') && ++depth > kMaxInstanceDepth)
        {
            throw std::runtime_error(
                fmt::format("nested more than {} levels deep", kMaxInstanceDepth));
        }
        else if (c == ']' || c == '}')
        {
            --depth;
        }
    }
    return text;
}

/** \return a JSON array of numbers */
std::string
Json(const std::vector<double>& v)
{
    std::string s = "[";
    for (std::size_t k = 0; k < v.size(); ++k)
    {
        s += (k ? ", " : "") + fmt::format("{:.9g}", v[k]);
    }
    return s + "]";
}

/** \return a JSON array of arrays */
std::string
Json(const std::vector<std::vector<double>>& m)
{
    std::string s = "[";
    for (std::size_t k = 0; k < m.size(); ++k)
    {
        s += (k ? ",\n    " : "") + Json(m[k]);
    }
    return s + "]";
}

/**
 * \brief The calculator: one message-passing step and the rewards on a JSON instance.
 * \param support errors
 * \param path the instance
 * \return the JSON printed
 */
std::string
Evaluate(const D2dScenarioSupport& support, const std::string& path)
{
    ptree in;
    try
    {
        std::istringstream text(ReadInstance(path));
        boost::property_tree::read_json(text, in);
    }
    catch (const std::exception& e)
    {
        support.Fail("--evaluate=" + path + ": cannot read the JSON instance (" +
                     D2dScenarioSupport::FirstLine(e.what()) + ")");
    }
    try
    {
        // Every key once, and only the known ones.
        const std::set<std::string> known{"counts",
                                          "thresholds",
                                          "pDrop",
                                          "trust",
                                          "selection",
                                          "minLabels",
                                          "alpha1",
                                          "alpha2",
                                          "alpha3",
                                          "gamma",
                                          "budget",
                                          "reliabilityThreshold",
                                          "thresholdOn",
                                          "diversity"};
        std::set<std::string> seen;
        for (const auto& [key, value] : in)
        {
            if (!known.count(key))
            {
                throw std::runtime_error("unknown key '" + key +
                                         "' (accepted: counts, "
                                         "thresholds, pDrop, trust, selection, minLabels, "
                                         "alpha1, alpha2, alpha3, gamma, budget, "
                                         "reliabilityThreshold, thresholdOn, diversity)");
            }
            if (!seen.insert(key).second)
            {
                throw std::runtime_error("key '" + key + "' given twice");
            }
        }
        D2dExchangeInstance inst;
        for (const auto& row : in.get_child("counts"))
        {
            inst.counts.push_back(Numbers(row.second, "counts", 0, 1e15));
        }
        const uint32_t n = inst.counts.size();
        if (n < 2 || inst.counts[0].empty())
        {
            throw std::runtime_error("counts must be N >= 2 rows of L >= 1 numbers");
        }
        const uint32_t nl = inst.counts[0].size();
        for (const auto& c : inst.counts)
        {
            if (c.size() != nl)
            {
                throw std::runtime_error("every row of counts must have L values");
            }
        }
        // A number for every entry, or N rows of cols numbers, each in [lo, hi].
        auto matrix = [&](const std::string& key, uint32_t cols, double lo, double hi) {
            std::vector<std::vector<double>> m;
            const auto& node = in.get_child(key);
            if (node.empty())
            {
                ptree one;
                one.push_back({"", node});
                return std::vector<std::vector<double>>(
                    n,
                    std::vector<double>(cols, Numbers(one, key, lo, hi)[0]));
            }
            for (const auto& row : node)
            {
                m.push_back(Numbers(row.second, key, lo, hi));
                if (m.back().size() != cols)
                {
                    throw std::runtime_error(key + ": every row must have " + std::to_string(cols) +
                                             " values");
                }
            }
            if (m.size() != n)
            {
                throw std::runtime_error(key + ": expected N = " + std::to_string(n) + " rows");
            }
            return m;
        };
        inst.thresholds = matrix("thresholds", nl, 0, 1e15);
        inst.pDrop = matrix("pDrop", n, 0, 1);
        inst.trust = D2dTrustMatrices(n, nl, false);
        uint32_t j = 0;
        for (const auto& tj : in.get_child("trust"))
        {
            uint32_t i = 0;
            for (const auto& row : tj.second)
            {
                const auto v = Numbers(row.second, "trust", 0, 1);
                if (v.size() != nl || i >= n)
                {
                    throw std::runtime_error("trust must be N x N x L (trust[j][i][l])");
                }
                for (uint32_t l = 0; l < nl; ++l)
                {
                    if (v[l] != 0 && v[l] != 1)
                    {
                        throw std::runtime_error("trust values must be 0 or 1");
                    }
                    inst.trust.Set(j, i, l, v[l] == 1);
                }
                ++i;
            }
            if (i != n)
            {
                throw std::runtime_error("trust must be N x N x L (trust[j][i][l])");
            }
            ++j;
        }
        if (j != n)
        {
            throw std::runtime_error("trust must be N x N x L (trust[j][i][l])");
        }
        inst.selection = Integers(in.get_child("selection"), "selection", -1, n - 1.0);
        if (inst.selection.size() != n)
        {
            throw std::runtime_error("selection must have N entries (-1: none)");
        }
        std::vector<uint32_t> minLabels;
        const auto& ml = in.get_child("minLabels");
        ptree mlList;
        if (ml.empty())
        {
            mlList.push_back({"", ml}); // one number for every device
        }
        for (int64_t v : Integers(ml.empty() ? mlList : ml, "minLabels", 0, nl))
        {
            minLabels.push_back(static_cast<uint32_t>(v));
        }
        if (ml.empty())
        {
            minLabels.assign(n, minLabels.front());
        }
        if (minLabels.size() != n)
        {
            throw std::runtime_error("minLabels must be a number or N numbers");
        }
        // A scalar key: its value (or the default), in the range of the flag of that name.
        auto scalar = [&](const std::string& key, double fallback, double lo, double hi) {
            const auto node = in.get_child_optional(key);
            if (!node)
            {
                return fallback;
            }
            ptree one;
            one.push_back({"", *node});
            return Numbers(one, key, lo, hi)[0];
        };
        const double alpha1 = scalar("alpha1", 1.0, 0, 1e6);
        const double alpha2 = scalar("alpha2", 1.0, 0, 1e6);
        const double alpha3 = scalar("alpha3", 0.0, 0, 1e6);
        const double gamma = scalar("gamma", 0.5, 0, 1e6);
        const double budget = scalar("budget", 0.0, 0, 1e12);
        const double alphaD = scalar("reliabilityThreshold", 0.1, 0, 1);
        const std::string thresholdOn = in.get("thresholdOn", std::string("allocated"));
        if (thresholdOn != "allocated" && thresholdOn != "expected")
        {
            throw std::runtime_error("thresholdOn must be allocated or expected");
        }
        const auto metric =
            D2dDiversityRewards::ParseMetric(in.get("diversity", std::string("w1")));

        const auto out = D2dMessagePassing::Run(inst);
        const auto clusters = D2dDiversityRewards::Clusters(inst.pDrop, alphaD);
        std::vector<double> gain(n, 0.0);
        std::vector<double> local(n, 0.0);
        std::vector<double> global(n, 0.0);
        std::vector<double> reward(n, 0.0);
        for (uint32_t i = 0; i < n; ++i)
        {
            if (inst.selection[i] < 0)
            {
                continue;
            }
            const double p = inst.pDrop[i][inst.selection[i]];
            gain[i] = D2dDiversityRewards::Gain(metric,
                                                inst.counts[i],
                                                out.afterExpected[i],
                                                thresholdOn == "allocated" ? out.afterAllocated[i]
                                                                           : out.afterExpected[i],
                                                inst.thresholds[i],
                                                minLabels[i]);
            local[i] = D2dDiversityRewards::LocalReward(gain[i], p, alpha1, alpha2);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            std::vector<double> members;
            double points = 0;
            for (uint32_t m = 0; m < n; ++m)
            {
                if (clusters[m] != clusters[i])
                {
                    continue;
                }
                members.push_back(local[m]);
                if (inst.selection[m] >= 0 && clusters[inst.selection[m]] != clusters[m])
                {
                    for (double x : out.allocated[m])
                    {
                        points += x;
                    }
                }
            }
            global[i] = D2dDiversityRewards::GlobalReward(members,
                                                          n,
                                                          budget > 0 ? alpha3 : 0.0,
                                                          budget,
                                                          budget > 0 ? points : 0.0);
            reward[i] = local[i] + gamma * global[i];
        }
        std::vector<double> clusterOf(clusters.begin(), clusters.end());
        std::string s = "{\n";
        s += "  \"V\": " + Json(out.available) + ",\n";
        s += "  \"Q\": " + Json(out.requested) + ",\n";
        s += "  \"U\": " + Json(out.allocated) + ",\n";
        s += "  \"sent\": " + Json(out.sent) + ",\n";
        s += "  \"received\": " + Json(out.received) + ",\n";
        s += "  \"Dhat\": " + Json(out.afterExpected) + ",\n";
        s += "  \"DhatAllocated\": " + Json(out.afterAllocated) + ",\n";
        s += "  \"clusters\": " + Json(clusterOf) + ",\n";
        s += "  \"gain\": " + Json(gain) + ",\n";
        s += "  \"localReward\": " + Json(local) + ",\n";
        s += "  \"globalReward\": " + Json(global) + ",\n";
        s += "  \"reward\": " + Json(reward) + "\n}\n";
        return s;
    }
    catch (const std::exception& e)
    {
        support.Fail("--evaluate=" + path + ": " + e.what());
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string evaluate;
    Time maxSimTime = Seconds(1e7);
    D2dGraphDiscoveryHelper discovery;
    D2dLearningOptions learning;
    learning.partition = "labels";             // App. C: 3 labels per device at 70/20/10 %
    learning.datasets.push_back("polynomial"); // sec. VI-C4: regression
    D2dNetworkOptions net("results/graph-discovery");
    net.areaSideM = 100.0;      // App. C-like: P_D ~0.003 at 10 m, 0.3 at 50 m, 0.94 at 100 m
    net.noisePowerW = 2e-12;    // sigma^2 of eq. (18), W
    net.d2sNoisePowerW = 1e-13; // the server's receiver: fedavg's noise floor
    net.reliable = true;        // the downstream models: retransmit lost fragments
    net.d2sTxPowerDbm = 30.0;   // device-to-server link, dBm
    net.access = "scheduled";   // an ideal MAC with spatial reuse
    // Sec. VI-G: "the D2S distance is 3x the average D2D distance" on every link; the D2S
    // energy of the reproduced figures (Fig. 6e) depends on it.
    net.d2sLinks = "equal";

    D2dScenarioSupport support("graph-discovery");
    D2dScenarioFlags flags(support);
    flags.Add("evaluate",
              "Calculator: one message-passing step on a JSON instance, no simulation",
              evaluate);
    discovery.AddFlags(flags);
    flags.Add("maxSimTime", "Stop the simulation at this time at the latest", maxSimTime)
        .Positive(9e9);
    flags
        .Add("d2sNoisePowerW",
             "sigma^2 of eq. 18 on the device-to-server link, W (--noisePowerW is the D2D "
             "links')",
             net.d2sNoisePowerW)
        .Positive(1);
    flags
        .Bind("roundDeadline",
              "ns3::D2dFlProtocol::RoundDeadline",
              "Downstream FL: round (phase) deadline (0: none)")
        .Default("60s");
    learning.AddFlags(flags);
    const uint32_t defaultDevices = 25; // --nDevices=0
    net.AddFlags(flags);
    flags.Find("nDevices").ShownDefault(std::to_string(defaultDevices));
    flags.Parse(argc, argv);
    if (!evaluate.empty())
    {
        std::cout << Evaluate(support, evaluate);
        return 0;
    }
    learning.Validate(support, false);
    net.DeferScope(); // the paradigm, made by Configure(), says if it has a server
    net.Validate(support, defaultDevices, 2);
    discovery.Validate(support, flags, learning, net.nDevices);
    support.SetQuiet(net.quiet);
    learning.checkModelMemory = false; // counted by discovery.CheckMemory
    learning.gradientsBy = discovery.downstream == "fedsgd" ? "--downstream=fedsgd" : "";
    learning.LoadData(support, net.nDevices, net.seed);
    discovery.CheckMemory(support, flags, learning, net.nDevices); // before Configure's trust
    discovery.Configure(support, learning, net.seed);
    {
        // (Known once Configure() made the paradigm.) The discovery's link tests and the
        // decentralized downstream learning are D2D messages; the distributed PCA and a server's
        // downstream learning D2S ones.
        D2dTraffic traffic;
        traffic.chosen = "--paradigm=" + flags.GetParsedText("paradigm") +
                         " --downstream=" + discovery.downstream;
        traffic.d2d = true;
        traffic.d2s = discovery.UsesServer();
        traffic.d2dUsers = "every --paradigm";
        traffic.d2sUsers = "--paradigm=unsupervised, semi-supervised with --labeller=propagation, "
                           "or a --downstream other than none and decentralized";
        net.SetTraffic(traffic);
    }
    net.CheckScope(support);
    if (net.printLinks)
    {
        // The links of the discovery (D2S for the distributed PCA) and of the downstream
        // learning, with its model's size.
        net.PrintLinks(std::cout,
                       discovery.UsesServer(),
                       discovery.downstream == "none"
                           ? std::vector<std::pair<std::string, uint64_t>>{}
                           : learning.ModelMessages());
        return 0;
    }
    auto traces = net.OpenTraces(support);
    D2dNetwork network = net.Build(*traces, discovery.UsesServer());
    int64_t stream = network.nextStream;
    discovery.Install(network, *traces, net);
    stream += discovery.AssignStreams(stream);
    discovery.Run(support, learning, maxSimTime);
    discovery.ApplyExchange(support, learning);
    auto record = [&]() {
        flags.Record(*traces);
        net.Record(*traces, network);
        discovery.Record(*traces);
    };
    if (discovery.downstream == "none")
    {
        support.FinishTraces(traces, net.seed, record);
        Simulator::Destroy();
        return 0;
    }

    // Downstream FL on the shards as the exchange left them.
    D2dLearningHelper helper;
    helper.SetProtocol(discovery.downstream); // D2dProtocolRegistry: class and presets
    if (discovery.downstream == "fedsgd")
    {
        Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate",
                           DoubleValue(learning.learningRate));
    }
    Config::SetDefault("ns3::D2dDecentralizedFl::Neighbours",
                       UintegerValue(std::min(7u, net.nDevices - 1)));
    learning.Configure(helper, net.seed);
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    stream += helper.AssignStreams(protocol, stream);
    protocol->SetTestSet(learning.test);
    traces->ConnectRounds(protocol);
    discovery.ConnectRounds(protocol);
    learning.Run(support,
                 traces,
                 protocol,
                 discovery.GetGraphName() + "+" + discovery.downstream,
                 net.seed,
                 maxSimTime,
                 net.quiet,
                 record);
    return 0;
}
