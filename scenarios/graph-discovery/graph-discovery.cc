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
 * --evaluate=INSTANCE.json runs one message-passing step (eqs. (9)-(12), the rewards of
 * eqs. (13)-(14)) on a hand-written instance and prints the result as JSON, without
 * simulating (README: "graph-discovery calculator").
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2d-decentralized-fl.h"
#include "ns3/d2d-discovery-trace-writer.h"
#include "ns3/d2d-distributed-pca.h"
#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-energy-model.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-gap-partition.h"
#include "ns3/d2d-gcn-link-scorer.h"
#include "ns3/d2d-graph-discovery.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-options.h"
#include "ns3/d2d-message-passing.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-pca-exchange.h"
#include "ns3/d2d-semi-decentralized-fl.h"
#include "ns3/d2d-semi-supervised-paradigm.h"
#include "ns3/d2d-shard-exchange.h"
#include "ns3/d2d-supervised-paradigm.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-trust-matrices.h"
#include "ns3/d2d-unsupervised-paradigm.h"
#include "ns3/energy-source-container.h"
#include "ns3/enum.h"

// Boost 1.74's JSON parser includes <boost/bind.hpp>, which asks for this to stay quiet.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#include <algorithm>
#include <limits>
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
/** Running energy totals per component family, from every energy model's EnergyEvent. */
struct EnergyTally
{
    double d2d{0};     //!< radio_tx + radio_rx + radio_idle, J
    double d2s{0};     //!< d2s_tx + d2s_rx, J
    double compute{0}; //!< compute, J

    void Event(Time, uint32_t, const std::string& component, double energyJ, double)
    {
        if (component.rfind("radio_", 0) == 0)
        {
            d2d += energyJ;
        }
        else if (component.rfind("d2s_", 0) == 0)
        {
            d2s += energyJ;
        }
        else if (component == "compute")
        {
            compute += energyJ;
        }
    }

    void Connect(const NodeContainer& nodes)
    {
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            auto sources = nodes.Get(i)->GetObject<EnergySourceContainer>();
            if (!sources)
            {
                continue;
            }
            for (uint32_t s = 0; s < sources->GetN(); ++s)
            {
                for (const char* type : {"ns3::D2dRadioEnergyModel", "ns3::D2dComputeModel"})
                {
                    auto models = sources->Get(s)->FindDeviceEnergyModels(type);
                    for (uint32_t m = 0; m < models.GetN(); ++m)
                    {
                        models.Get(m)->TraceConnectWithoutContext(
                            "EnergyEvent",
                            MakeCallback(&EnergyTally::Event, this));
                    }
                }
            }
        }
    }
};

/** \return the numbers of a comma-separated list; throws std::invalid_argument */
std::vector<double>
ParseList(const std::string& text)
{
    std::vector<double> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::size_t used = 0;
        const double v = std::stod(item, &used);
        if (used != item.size() || !std::isfinite(v))
        {
            throw std::invalid_argument(item);
        }
        out.push_back(v);
    }
    return out;
}

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
    std::string graph = "rl";
    uint32_t iterations = 5000;
    uint32_t bufferSize = 256;
    double gamma = 0.5;
    double delta = 0.9;
    double alpha1 = 1.0;
    double alpha2 = 1.0;
    double alpha3 = -1.0; // -1: 0 without --budget, 1 / budget with it
    std::string bufferMode = "per-action";
    std::string betaMode = "sign-aware";
    std::string thresholdOn = "allocated";
    std::string stateMode = "per-link";
    double thresholdFraction = 0.1;
    uint32_t minLabels = 0; // 0: labels satisfied initially + 1, per device
    uint32_t edges = 1;
    std::string trust = "random";
    double trustDensity = 0.5;
    std::string trustFile;
    double reliabilityThreshold = 0.1;
    double budget = 0.0;
    std::string diversity = "w1";
    std::string downstream = "fedavg";
    std::string targets = "0.6,0.7";
    uint32_t traceEvery = 50;
    bool controlReliable = true;
    std::string rewardSharing = "cluster-head";
    std::string evaluate;
    Time maxSimTime = Seconds(1e7);
    std::string paradigmName = "supervised";
    uint32_t pcaDims = 50;
    uint32_t pcaLocalRank = 0;
    double labelledFraction = 0.15;
    uint32_t knn = 7;
    uint32_t clusters = 7;
    uint32_t requestPoints = 100;
    double retainFraction = 0.5;
    std::string exchangeMode = "real";
    std::string labeller = "propagation";
    std::string agreementMix = "post-exchange";
    std::string agreementScale = "mean";
    uint32_t gcnSystems = 8;
    uint32_t gcnSystemDevices = 10;
    uint32_t gcnSubsetSize = 4;
    uint32_t gcnEpochs = 100;
    uint32_t partitions = 0; // 0: 3 for regression data

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

    D2dScenarioSupport support("graph-discovery");
    D2dScenarioFlags flags(support);
    flags.Add("evaluate",
              "Calculator: one message-passing step on a JSON instance, no simulation",
              evaluate);
    flags
        .Add("paradigm",
             "Learning paradigm: labelled shards, or a labelled fraction and label "
             "propagation on distributed-PCA projections (sec. V-A1)",
             paradigmName)
        .Choices({"supervised", "semi-supervised", "unsupervised"});
    flags.Add("pcaDims", "Semi-supervised: d, the dimension of the PCA subspace F", pcaDims)
        .Range(1, 1e6)
        .Sets("ns3::D2dSemiSupervisedParadigm::PcaDims");
    flags
        .Add("pcaLocalRank",
             "Semi-supervised: t, singular vectors each device sends (0: d)",
             pcaLocalRank)
        .Range(0, 1e6)
        .Sets("ns3::D2dSemiSupervisedParadigm::PcaLocalRank");
    flags
        .Add("labelledFraction",
             "Semi-supervised: share of each device's points that is labelled (at least one "
             "per label present)",
             labelledFraction)
        .Positive(1)
        .Sets("ns3::D2dSemiSupervisedParadigm::LabelledFraction");
    flags.Add("knn", "Semi-supervised: k of the label-propagation kNN graph", knn)
        .Range(1, 1e6)
        .Sets("ns3::D2dSemiSupervisedParadigm::Knn");
    flags
        .Add("labeller",
             "Semi-supervised: labels the unlabelled points by label propagation on the "
             "distributed-PCA projections (sec. V-A1) or a local MLP on the raw features "
             "(App. D-D)",
             labeller)
        .Choices({"propagation", "mlp"})
        .Sets("ns3::D2dSemiSupervisedParadigm::Labeller");
    flags.Add("clusters", "Unsupervised: K-means clusters per device (L)", clusters)
        .Range(1, 1000)
        .Sets("ns3::D2dUnsupervisedParadigm::Clusters");
    flags.Add("requestPoints", "Unsupervised: Q, datapoints a receiver requests", requestPoints)
        .Range(1, 1e8)
        .Sets("ns3::D2dUnsupervisedParadigm::RequestPoints");
    flags
        .Add("retainFraction",
             "Unsupervised: share of each cluster a transmitter keeps (b_j)",
             retainFraction)
        .Range(0, 1)
        .Sets("ns3::D2dUnsupervisedParadigm::RetainFraction");
    flags
        .Add("exchangeMode",
             "Unsupervised: the final exchange moves real points or lets the receiver draw from "
             "the transmitter's Gaussians",
             exchangeMode)
        .Choices({"real", "sampled"})
        .Sets("ns3::D2dUnsupervisedParadigm::ExchangeMode");
    flags
        .Add("agreementMix",
             "Unsupervised, eq. 17's h^A: post-exchange means and covariances, or the printed "
             "pre-exchange means with post-exchange covariances",
             agreementMix)
        .Choices({"post-exchange", "printed"})
        .Sets("ns3::D2dUnsupervisedParadigm::AgreementMix");
    flags
        .Add("agreementScale",
             "Unsupervised, eq. 17's agreement: mean ratio - 1, or the printed sum",
             agreementScale)
        .Choices({"mean", "sum"})
        .Sets("ns3::D2dUnsupervisedParadigm::AgreementScale");
    flags.Add("graph", "How the D2D graph is found", graph)
        .Choices({"rl", "closest", "most-trusted", "uniform", "gcn", "none"})
        .Sets("ns3::D2dGraphDiscovery::Graph");
    flags
        .Add("gcnSystems",
             "--graph=gcn: training systems drawn from the deployment (1 if N <= "
             "--gcnSystemDevices)",
             gcnSystems)
        .Range(1, 10000);
    flags.Add("gcnSystemDevices", "--graph=gcn: devices per training system", gcnSystemDevices)
        .Range(2, 1e6);
    flags
        .Add("gcnSubsetSize",
             "--graph=gcn: size of the subsets the best links are searched over",
             gcnSubsetSize)
        .Range(2, 8);
    flags.Add("gcnEpochs", "--graph=gcn: training epochs (Adam 1e-3, weight decay 5e-4)", gcnEpochs)
        .Range(1, 1e6);
    flags
        .Add("partitions",
             "Regression data: L, partitions cut at the L-1 largest gaps of the sorted targets "
             "(0: 3)",
             partitions)
        .Range(0, 1e6);
    flags.Add("iterations", "RL iterations per edge", iterations)
        .Range(1, 1e7)
        .Sets("ns3::D2dGraphDiscovery::Iterations");
    flags.Add("bufferSize", "H: rewards an experience buffer holds", bufferSize)
        .Range(1, 1e7)
        .Sets("ns3::D2dGraphDiscovery::BufferSize");
    flags.Add("gamma", "gamma: weight of the global reward", gamma)
        .Range(0, 1e6)
        .Sets("ns3::D2dGraphDiscovery::Gamma");
    flags.Add("delta", "delta: reduction of below-mean rewards", delta)
        .Range(0, 1)
        .Sets("ns3::D2dGraphDiscovery::Delta");
    flags.Add("alpha1", "alpha1: weight of the diversity score (eq. 13)", alpha1)
        .Range(0, 1e6)
        .Sets("ns3::D2dGraphDiscovery::Alpha1");
    flags.Add("alpha2", "alpha2: weight of P_D (eq. 13)", alpha2)
        .Range(0, 1e6)
        .Sets("ns3::D2dGraphDiscovery::Alpha2");
    flags
        .Add("alpha3",
             "alpha3: weight of the cluster budget per datapoint (eq. 14; -1: 0 without "
             "--budget, 1/budget with it)",
             alpha3)
        .Range(-1, 1e6)
        .Sets("ns3::D2dGraphDiscovery::Alpha3");
    flags.Add("bufferMode", "Experience buffers: per (state, action) or one per device", bufferMode)
        .Choices({"per-action", "shared"})
        .Sets("ns3::D2dGraphDiscovery::BufferMode");
    flags.Add("betaMode", "Below-mean rewards: R - delta|R| or (1 - delta) R", betaMode)
        .Choices({"sign-aware", "literal"})
        .Sets("ns3::D2dGraphDiscovery::BetaMode");
    flags
        .Add("thresholdOn",
             "Eq. 8 inside g: loss-free allocated counts or expected D-hat",
             thresholdOn)
        .Choices({"allocated", "expected"})
        .Sets("ns3::D2dSupervisedParadigm::ThresholdOn");
    flags
        .Add("stateMode",
             "Dynamic RSS: state per link (quantised W_ij) or the whole row",
             stateMode)
        .Choices({"per-link", "row"})
        .Sets("ns3::D2dGraphDiscovery::StateMode");
    flags.Add("thresholdFraction", "b_i[l] = this x |D_i| for every label", thresholdFraction)
        .Range(0, 1);
    flags.Add("minLabels", "L-hat (0: the labels a device satisfies initially + 1)", minLabels)
        .Range(0, 1e6);
    flags
        .Add("edges",
             "E: incoming edges per device (Remark 2; unsupervised: 2 unless given)",
             edges)
        .Range(1, 1000)
        .Sets("ns3::D2dGraphDiscovery::Edges");
    flags.Add("trust", "Trust matrices (App. F structures, or --trustFile)", trust)
        .Choices({"random", "row-sparse", "column-sparse", "block", "file"});
    flags.Add("trustDensity", "Share of ones of the trust matrices", trustDensity).Range(0, 1);
    flags.Add("trustFile",
              "--trust=file: N x N lines of L 0/1 values (T_j[i] at line jN+i)",
              trustFile);
    flags
        .Add("reliabilityThreshold",
             "alpha_D: P_D bound inside a reliable cluster (eq. 1)",
             reliabilityThreshold)
        .Range(0, 1)
        .Sets("ns3::D2dGraphDiscovery::ReliabilityThreshold");
    flags
        .Add("budget",
             "B_k: datapoints a cluster may receive over inter-cluster links (0: no "
             "budget term)",
             budget)
        .Range(0, 1e12)
        .Sets("ns3::D2dGraphDiscovery::Budget");
    flags.Add("diversity", "g's distance: 1-Wasserstein or Jensen-Shannon", diversity)
        .Choices({"w1", "js"})
        .Sets("ns3::D2dSupervisedParadigm::Metric");
    flags.Add("downstream", "The FL protocol trained on the exchanged shards", downstream)
        .Choices({"fedavg", "fedprox", "fedsgd", "decentralized", "semi-decentralized", "none"});
    flags.Add("targets", "Accuracies whose first round and energy run.json records", targets);
    flags.Add("traceEvery", "gd_iterations.csv: keep every this many iterations", traceEvery)
        .Range(1, 1e9);
    flags.Add("controlReliable", "Send the control messages reliably", controlReliable)
        .Sets("ns3::D2dGraphDiscovery::ControlReliable");
    flags
        .Add("rewardSharing",
             "Local rewards: to the cluster head, which returns r^G (O(1) messages per device), "
             "or multicast to every member (literal)",
             rewardSharing)
        .Choices({"cluster-head", "multicast"})
        .Sets("ns3::D2dGraphDiscovery::RewardSharing");
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
    net.AddFlags(flags);
    flags.Parse(argc, argv);

    if (!evaluate.empty())
    {
        std::cout << Evaluate(support, evaluate);
        return 0;
    }

    learning.Validate(support, false);
    const bool regression = learning.dataset == "polynomial";
    if (learning.dataset != "fashion-mnist" && !regression)
    {
        support.Fail("--dataset=" + learning.dataset +
                     ": graph-discovery exchanges labelled datapoints (fashion-mnist) or "
                     "partitioned regression data (polynomial)");
    }
    if (regression && paradigmName != "supervised")
    {
        support.Fail("--paradigm=" + paradigmName +
                     ": regression data (--dataset=polynomial) takes the supervised paradigm "
                     "on its gap partitions");
    }
    if (!regression && partitions > 0)
    {
        support.Fail(fmt::format("--partitions={}: only for regression data "
                                 "(--dataset=polynomial); classification partitions are labels",
                                 partitions));
    }
    if (regression && partitions > D2dLearningOptions::PolynomialPoints)
    {
        support.Fail(fmt::format("--partitions={}: must be in [1, {}] (the points per device)",
                                 partitions,
                                 D2dLearningOptions::PolynomialPoints));
    }
    if (graph == "gcn" && gcnSubsetSize > gcnSystemDevices)
    {
        support.Fail(fmt::format("--gcnSubsetSize={}: must be in [2, --gcnSystemDevices = {}]",
                                 gcnSubsetSize,
                                 gcnSystemDevices));
    }
    net.Validate(support, 25, 2);
    const uint32_t n = net.nDevices;
    support.SetQuiet(net.quiet);
    std::vector<double> targetList;
    try
    {
        targetList = ParseList(targets);
    }
    catch (const std::exception&)
    {
        support.Fail("--targets=" + targets + ": a comma-separated list of accuracies in [0, 1]");
    }
    for (double t : targetList)
    {
        support.CheckRange("targets", t, 0, 1);
    }
    if (trust == "file" && trustFile.empty())
    {
        support.Fail("--trust=file needs --trustFile=PATH");
    }
    if (!trustFile.empty() && trust != "file")
    {
        trust = "file"; // a trust file given is the trust
    }
    if (alpha3 < 0)
    {
        alpha3 = budget > 0 ? 1.0 / budget : 0.0;
    }

    learning.LoadData(support, n, net.seed);
    // Regression (sec. VI-C4): a copy of the training set whose labels are each point's gap
    // partition at its device; the discovery and the exchange move points by these labels,
    // the downstream learner uses the shards (the same indices) on the regression set.
    std::shared_ptr<D2dDataset> partData = learning.train;
    if (regression)
    {
        const uint32_t parts = partitions > 0 ? partitions : 3;
        partData = std::make_shared<D2dDataset>(*learning.train);
        partData->numClasses = parts;
        partData->labels.assign(partData->Size(), 0);
        for (const auto& shard : learning.shards)
        {
            std::vector<double> y;
            for (std::size_t idx : shard.indices)
            {
                y.push_back(learning.train->targets[idx]);
            }
            const auto part = D2dGapPartition::Assign(y, parts);
            for (std::size_t k = 0; k < shard.indices.size(); ++k)
            {
                partData->labels[shard.indices[k]] = part[k];
            }
        }
    }
    const uint32_t nl = partData->numClasses;
    // Given values that cannot take effect are refused rather than clamped in silence.
    if (edges > n - 1)
    {
        support.Fail(fmt::format("--edges={} with --nDevices={}: a device has {} possible "
                                 "transmitters (accepted: 1 to {})",
                                 edges,
                                 n,
                                 n - 1,
                                 n - 1));
    }
    if (minLabels > nl)
    {
        support.Fail(fmt::format("--minLabels={} is above the {} labels of the data (accepted: "
                                 "0 to {})",
                                 minLabels,
                                 nl,
                                 nl));
    }
    const bool semiSupervised = paradigmName == "semi-supervised";
    const bool unsupervised = paradigmName == "unsupervised";
    if (!semiSupervised && labeller != "propagation")
    {
        support.Fail("--labeller=" + labeller +
                     ": labels only the semi-supervised paradigm's points "
                     "(--paradigm=semi-supervised; accepted: propagation, mlp)");
    }
    if (unsupervised && graph == "gcn")
    {
        support.Fail("--graph=gcn: the GCN baseline learns from the supervised paradigm's local "
                     "rewards (--paradigm=supervised or semi-supervised)");
    }
    if (unsupervised)
    {
        if (!flags.Given("edges"))
        {
            // Remark 2: the paper's unsupervised runs allow two incoming edges (one on two
            // devices, where a device has one possible transmitter).
            edges = std::min(2u, n - 1);
        }
        if (downstream != "none" && learning.model.rfind("triplet", 0) != 0)
        {
            // Sec. V-B: the devices hold no labels, so they train a self-supervised encoder.
            support.Fail("--model=" + learning.model +
                         ": --paradigm=unsupervised trains the self-supervised triplet encoder "
                         "(--model=triplet[:M]) or nothing (--downstream=none)");
        }
        const std::size_t dim = learning.train->FeatureSize();
        const uint32_t t = pcaLocalRank > 0 ? pcaLocalRank : pcaDims;
        std::size_t sketchRows = 0;
        std::size_t fewest = SIZE_MAX;
        for (const auto& shard : learning.shards)
        {
            sketchRows += std::min<std::size_t>({t, shard.indices.size(), dim});
            fewest = std::min(fewest, shard.indices.size());
        }
        const std::size_t dMax = std::min(sketchRows, dim);
        if (pcaDims > dMax)
        {
            support.Fail(fmt::format("--pcaDims={}: must be in [1, {}] (the feature size and the "
                                     "rows the devices' sketches stack)",
                                     pcaDims,
                                     dMax));
        }
        if (clusters > fewest)
        {
            support.Fail(fmt::format("--clusters={}: must be in [1, {}] (the fewest points a "
                                     "device holds)",
                                     clusters,
                                     fewest));
        }
    }
    Ptr<D2dSemiSupervisedParadigm> semi;
    if (semiSupervised)
    {
        const std::size_t dim = learning.train->FeatureSize();
        const uint32_t t = pcaLocalRank > 0 ? pcaLocalRank : pcaDims;
        std::size_t sketchRows = 0;
        for (const auto& shard : learning.shards)
        {
            if (!shard.labelMap.empty())
            {
                support.Fail("--paradigm=semi-supervised: shards with flipped labels are not "
                             "supported (no --flip)");
            }
            sketchRows += std::min<std::size_t>({t, shard.indices.size(), dim});
        }
        const std::size_t dMax = std::min(sketchRows, dim);
        if (pcaDims > dMax)
        {
            support.Fail(fmt::format("--pcaDims={}: must be in [1, {}] (the feature size and the "
                                     "rows the devices' sketches stack)",
                                     pcaDims,
                                     dMax));
        }
        semi = CreateObject<D2dSemiSupervisedParadigm>();
        semi->SetAttribute("PcaDims", UintegerValue(pcaDims));
        semi->SetAttribute("PcaLocalRank", UintegerValue(pcaLocalRank));
        semi->SetAttribute("LabelledFraction", DoubleValue(labelledFraction));
        semi->SetAttribute("Knn", UintegerValue(knn));
        semi->SetAttribute("Labeller",
                           EnumValue(labeller == "mlp" ? D2dSemiSupervisedParadigm::MLP
                                                       : D2dSemiSupervisedParadigm::PROPAGATION));
        semi->SetData(learning.train, learning.shards);
        semi->ChooseLabelled(net.seed);
    }
    std::vector<D2dCounts> counts(n);
    std::vector<D2dCounts> thresholds;
    std::vector<uint32_t> lhat(n);
    std::vector<uint32_t> satisfiedBefore(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const double b = std::floor(thresholdFraction * learning.shards[i].indices.size() + 1e-9);
        thresholds.emplace_back(nl, b);
    }
    // D_i, and L-hat_i from it: from the labels (supervised) or the propagated labels.
    auto countPartitions = [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            counts[i] = D2dShardExchange::Counts(*partData, learning.shards[i], nl);
            satisfiedBefore[i] = D2dDiversityRewards::Satisfied(counts[i], thresholds[i]);
            lhat[i] = minLabels > 0 ? minLabels : std::min(nl, satisfiedBefore[i] + 1);
        }
    };
    if (!semiSupervised)
    {
        countPartitions();
    }
    D2dTrustMatrices trustMatrices;
    try
    {
        trustMatrices = trust == "file"
                            ? D2dTrustMatrices::ReadFile(trustFile, n, nl)
                            : D2dTrustMatrices::Generate(trust, n, nl, trustDensity, net.seed + 7);
    }
    catch (const std::exception& e)
    {
        support.Fail(std::string("--trustFile: ") + e.what() +
                     " (N x N lines of L comma-separated 0/1 values)");
    }

    const bool d2s = downstream == "fedavg" || downstream == "fedprox" || downstream == "fedsgd" ||
                     downstream == "semi-decentralized";
    if (net.printLinks)
    {
        // The links of the discovery (D2S for the distributed PCA) and of the downstream
        // learning, with its model's size.
        net.PrintLinks(std::cout,
                       d2s || semiSupervised || unsupervised,
                       downstream == "none" ? std::vector<std::pair<std::string, uint64_t>>{}
                                            : learning.ModelMessages());
        return 0;
    }
    auto traces = net.OpenTraces(support);
    // Semi-supervised and unsupervised: distributed PCA goes over the device-to-server link.
    D2dNetwork network = net.Build(*traces, d2s || semiSupervised || unsupervised);
    int64_t stream = network.nextStream;
    EnergyTally energy;
    energy.Connect(network.devices);
    if (network.server)
    {
        energy.Connect(NodeContainer(network.server));
    }

    Ptr<D2dSupervisedParadigm> paradigm =
        semi ? Ptr<D2dSupervisedParadigm>(semi) : CreateObject<D2dSupervisedParadigm>();
    if (!semiSupervised)
    {
        paradigm->Setup(counts, thresholds, lhat, trustMatrices);
    }
    Ptr<D2dUnsupervisedParadigm> unsup;
    if (unsupervised)
    {
        unsup = CreateObject<D2dUnsupervisedParadigm>();
        unsup->SetAttribute("Clusters", UintegerValue(clusters));
        unsup->SetAttribute("RequestPoints", UintegerValue(requestPoints));
        unsup->SetAttribute("RetainFraction", DoubleValue(retainFraction));
        unsup->SetAttribute("ExchangeMode",
                            EnumValue(exchangeMode == "sampled" ? D2dUnsupervisedParadigm::SAMPLED
                                                                : D2dUnsupervisedParadigm::REAL));
        unsup->SetAttribute("AgreementMix",
                            EnumValue(agreementMix == "printed"
                                          ? D2dGaussianClusters::PRINTED
                                          : D2dGaussianClusters::POST_EXCHANGE));
        unsup->SetAttribute("AgreementScale", StringValue(agreementScale));
    }
    auto gd = CreateObject<D2dGraphDiscovery>();
    gd->SetAttribute("Paradigm",
                     PointerValue(unsup ? Ptr<D2dDiscoveryParadigm>(unsup)
                                        : Ptr<D2dDiscoveryParadigm>(paradigm)));
    gd->SetAttribute("Graph", StringValue(graph));
    gd->SetAttribute("Iterations", UintegerValue(iterations));
    gd->SetAttribute("BufferSize", UintegerValue(bufferSize));
    gd->SetAttribute("Gamma", DoubleValue(gamma));
    gd->SetAttribute("Delta", DoubleValue(delta));
    gd->SetAttribute("Alpha1", DoubleValue(alpha1));
    gd->SetAttribute("Alpha2", DoubleValue(alpha2));
    gd->SetAttribute("Alpha3", DoubleValue(alpha3));
    gd->SetAttribute("Budget", DoubleValue(budget));
    gd->SetAttribute("BufferMode", StringValue(bufferMode));
    gd->SetAttribute("BetaMode", StringValue(betaMode));
    gd->SetAttribute("StateMode", StringValue(stateMode));
    gd->SetAttribute("Edges", UintegerValue(edges));
    gd->SetAttribute("ReliabilityThreshold", DoubleValue(reliabilityThreshold));
    gd->SetAttribute("ControlReliable", BooleanValue(controlReliable));
    gd->SetAttribute("RewardSharing",
                     EnumValue(rewardSharing == "multicast" ? D2dGraphDiscovery::MULTICAST
                                                            : D2dGraphDiscovery::CLUSTER_HEAD));
    paradigm->SetAttribute("ThresholdOn", StringValue(thresholdOn));
    paradigm->SetAttribute("Metric", StringValue(diversity));
    if (net.dynamicRssLevels > 0)
    {
        // Sec. VI-P: the RSS is redrawn at every RL step.
        gd->SetAttribute("IterationPeriod", TimeValue(net.rssStep));
    }
    gd->Setup(network.channel->GetTransports(), network.channel);
    stream += gd->AssignStreams(stream);
    D2dDiscoveryTraceWriter writer(*traces, traceEvery);
    writer.Connect(gd);
    auto& energyCsv = traces->OpenTrace("gd_energy.csv",
                                        "round,sim_time_s,d2d_j,d2s_j,compute_j,total_j,accuracy");

    // Energy at each stage of discovery: RL phase = learned - previous exchanged. gd_stages.csv
    // records the D2D energy at each stage, so that both sums can be recomputed.
    auto& stagesCsv = traces->OpenTrace("gd_stages.csv", "edge,stage,sim_time_s,d2d_j");
    // --traces=standard: the RL's control messages are counted, not written (gd_iterations.csv
    // records each device's choice and rewards).
    traces->SetUntracedKinds(D2dGraphDiscovery::ControlKinds());
    double rlEnergy = 0;
    double exchangeEnergy = 0;
    double stageMark = 0;
    gd->TraceConnectWithoutContext(
        "Stage",
        Callback<void, uint32_t, const std::string&>([&](uint32_t edge, const std::string& stage) {
            (stage == "learned" ? rlEnergy : exchangeEnergy) += energy.d2d - stageMark;
            stageMark = energy.d2d;
            traces->FlushEnergy(); // energy.csv up to now holds the energy.d2d written
            stagesCsv << fmt::format("{},{},{:.9f},{:.17g}\n",
                                     edge,
                                     stage,
                                     Simulator::Now().GetSeconds(),
                                     energy.d2d);
            if (!net.quiet)
            {
                std::fprintf(stderr,
                             "graph-discovery: edge %u %s at %.3f s (%.1f s wall)\n",
                             edge,
                             stage.c_str(),
                             Simulator::Now().GetSeconds(),
                             support.WallSeconds());
            }
        }));
    gd->SetFinishedCallback(Callback<void>([]() { Simulator::Stop(); }));
    // Unsupervised: the mean W1 between the label histograms and uniform before and after each
    // edge round (the paper's Fig. 8d; the labels are used for nothing else).
    std::vector<double> w1PerEdge;
    // Unsupervised: a device that the common subspace F did not reach sits the discovery out;
    // the W1 figures are means over the devices that took part (all, if none did).
    std::vector<bool> sittingOut(n, false);
    auto takesPart = [&](uint32_t i) {
        return !sittingOut[i];
    };
    auto missedF = [&]() {
        return static_cast<uint32_t>(std::count(sittingOut.begin(), sittingOut.end(), true));
    };
    auto partakers = [&]() {
        return missedF() == n ? n : n - missedF();
    };
    auto counted = [&](uint32_t i) {
        return takesPart(i) || partakers() == n;
    };
    auto meanLabelW1 = [&]() {
        double w = 0;
        const uint32_t m = partakers();
        for (uint32_t i = 0; i < n; ++i)
        {
            if (counted(i))
            {
                w += D2dDiversityRewards::DistanceToUniform(unsup->LabelCounts(i, nl)) / m;
            }
        }
        return w;
    };
    if (unsupervised)
    {
        gd->TraceConnectWithoutContext(
            "Stage",
            Callback<void, uint32_t, const std::string&>([&](uint32_t, const std::string& stage) {
                if (stage == "exchanged")
                {
                    w1PerEdge.push_back(meanLabelW1());
                }
            }));
    }
    // The GCN baseline (App. C) trains at the server once the partitions are known; its
    // training takes no simulated time (D2dGcnLinkScorer lists the assumptions).
    D2dGcnLinkScorer::Result gcn;
    auto trainGcn = [&]() {
        if (graph != "gcn")
        {
            return;
        }
        std::vector<std::vector<double>> rssDbm(n, std::vector<double>(n, 0.0));
        std::vector<std::vector<double>> pDrop(n, std::vector<double>(n, 0.0));
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                if (i != j)
                {
                    rssDbm[i][j] = 10.0 * std::log10(network.channel->GetRssW(i, j) * 1e3);
                    pDrop[i][j] = network.channel->GetDropProbability(i, j);
                }
            }
        }
        D2dGcnLinkScorer::Options o;
        o.systemDevices = gcnSystemDevices;
        o.systems = gcnSystems;
        o.subsetSize = gcnSubsetSize;
        o.epochs = gcnEpochs;
        o.alpha1 = alpha1;
        o.alpha2 = alpha2;
        o.seed = net.seed + 11;
        gcn = D2dGcnLinkScorer::Run(*paradigm, rssDbm, pDrop, o);
        gd->SetLinkScores(gcn.scores);
        if (!net.quiet)
        {
            std::fprintf(stderr,
                         "graph-discovery: GCN trained on %u systems, loss %.4f -> %.4f, "
                         "best-link agreement %.3f (%.1f s wall)\n",
                         gcn.systems,
                         gcn.losses.front(),
                         gcn.losses.back(),
                         gcn.bestLinkAgreement,
                         support.WallSeconds());
        }
    };
    Ptr<D2dPcaExchange> pca;
    double pcaEndS = 0;
    double pcaD2sEnergyJ = 0;
    double labelAccuracy = 0;
    double unlabelledAccuracy = 0;
    if (semiSupervised)
    {
        // Sec. V-A1: distributed PCA over the D2S link, then label propagation at each
        // device; discovery starts once every device has labelled its points.
        auto& labelling = traces->OpenTrace(
            "gd_labelling.csv",
            "device,points,labelled,accuracy,unlabelled_accuracy,iterations,subspace,pca_end_s");
        const bool mlp = semi->GetLabeller() == D2dSemiSupervisedParadigm::MLP;
        // Every device has labelled its points: the labels stand for the unknown ones.
        auto labelled = [&, mlp]() {
            pcaEndS = Simulator::Now().GetSeconds();
            pcaD2sEnergyJ = energy.d2s;
            traces->FlushEnergy(); // energy.csv up to pcaEndS holds pcaD2sEnergyJ
            for (uint32_t i = 0; i < n; ++i)
            {
                // The propagated labels stand for the unknown ones from here on.
                const auto& assigned = semi->GetAssigned(i);
                const auto& marks = semi->GetLabelled(i);
                for (std::size_t k = 0; k < assigned.size(); ++k)
                {
                    learning.train->labels[learning.shards[i].indices[k]] = assigned[k];
                }
                labelAccuracy += semi->GetAccuracy(i) / n;
                unlabelledAccuracy += semi->GetUnlabelledAccuracy(i) / n;
                labelling << fmt::format("{},{},{},{:.9g},{:.9g},{},{},{:.9f}\n",
                                         i,
                                         assigned.size(),
                                         std::count(marks.begin(), marks.end(), true),
                                         semi->GetAccuracy(i),
                                         semi->GetUnlabelledAccuracy(i),
                                         semi->GetIterations(i),
                                         assigned.empty()              ? "none"
                                         : mlp                         ? "raw"
                                         : semi->UsedCommonSubspace(i) ? "common"
                                                                       : "local",
                                         pcaEndS);
            }
            countPartitions();
            paradigm->Setup(counts, thresholds, lhat, trustMatrices);
            if (!net.quiet && mlp)
            {
                std::fprintf(stderr,
                             "graph-discovery: local MLPs labelled the points at %.3f s, "
                             "accuracy %.4f (unlabelled %.4f)\n",
                             pcaEndS,
                             labelAccuracy,
                             unlabelledAccuracy);
            }
            else if (!net.quiet)
            {
                std::fprintf(stderr,
                             "graph-discovery: distributed PCA (%llu bytes) done at %.3f s; "
                             "labels propagated, accuracy %.4f (unlabelled %.4f)\n",
                             static_cast<unsigned long long>(pca->GetBytesSent()),
                             pcaEndS,
                             labelAccuracy,
                             unlabelledAccuracy);
            }
            trainGcn();
            Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
        };
        if (mlp)
        {
            // App. D-D: "a small, completely local classification model at each device": no
            // distributed PCA; each device trains its MLP on its labelled points (no simulated
            // cost, as the propagation's) and discovery starts once all have labelled.
            Simulator::ScheduleNow([&, labelled]() {
                semi->LabelWithMlp(Callback<void>(std::function<void()>(labelled)));
            });
        }
        else
        {
            std::vector<std::vector<double>> sketches;
            for (uint32_t i = 0; i < n; ++i)
            {
                sketches.push_back(semi->Sketch(i));
            }
            pca = CreateObject<D2dPcaExchange>();
            pca->SetAttribute("BytesPerValue", UintegerValue(semi->GetBytesPerValue()));
            pca->Setup(network.d2s->GetTransports(),
                       std::move(sketches),
                       semi->GetFeatureSize(),
                       semi->GetPcaDims());
            pca->SetFinishedCallback(
                Callback<void, const std::vector<double>&, const std::vector<bool>&>(
                    [&, labelled](const std::vector<double>& basis,
                                  const std::vector<bool>& reached) {
                        // A device that F did not reach labels on its own top-d subspace.
                        semi->Label(basis, reached);
                        labelled();
                    }));
            Simulator::ScheduleNow(&D2dPcaExchange::Start, pca);
        }
    }
    else if (unsupervised)
    {
        // Sec. V-B1: distributed PCA over the D2S link, then K-means on each device's
        // projections; discovery starts once every device has its clusters.
        const std::size_t dim = learning.train->FeatureSize();
        auto features = [&](uint32_t i) {
            std::vector<double> x;
            x.reserve(learning.shards[i].indices.size() * dim);
            for (std::size_t idx : learning.shards[i].indices)
            {
                const float* f = learning.train->Sample(idx);
                x.insert(x.end(), f, f + dim);
            }
            return x;
        };
        std::vector<std::vector<double>> sketches;
        for (uint32_t i = 0; i < n; ++i)
        {
            sketches.push_back(
                D2dDistributedPca::LocalSketch(features(i),
                                               learning.shards[i].indices.size(),
                                               dim,
                                               pcaLocalRank > 0 ? pcaLocalRank : pcaDims));
        }
        pca = CreateObject<D2dPcaExchange>();
        pca->Setup(network.d2s->GetTransports(), std::move(sketches), dim, pcaDims);
        pca->SetFinishedCallback(
            Callback<void, const std::vector<double>&, const std::vector<bool>&>(
                [&, features, dim](const std::vector<double>& basis,
                                   const std::vector<bool>& reached) {
                    // Eq. (15) and (17) compare centroids and Gaussians across devices: a
                    // device that F did not reach (lost after the retries, or never computed)
                    // cannot be compared with the others and sits the discovery out.
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        sittingOut[i] = basis.empty() || (!reached.empty() && !reached[i]);
                    }
                    pcaEndS = Simulator::Now().GetSeconds();
                    pcaD2sEnergyJ = energy.d2s;
                    traces->FlushEnergy(); // energy.csv up to pcaEndS holds pcaD2sEnergyJ
                    std::vector<std::vector<double>> projections;
                    std::vector<std::vector<int64_t>> labels;
                    std::vector<std::vector<uint64_t>> ids;
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        const auto& shard = learning.shards[i];
                        projections.push_back(sittingOut[i]
                                                  ? std::vector<double>{}
                                                  : D2dDistributedPca::Project(features(i),
                                                                               shard.indices.size(),
                                                                               dim,
                                                                               basis,
                                                                               pcaDims));
                        labels.emplace_back();
                        ids.emplace_back();
                        for (std::size_t idx : shard.indices)
                        {
                            labels.back().push_back(learning.train->labels[idx]);
                            ids.back().push_back(idx);
                        }
                    }
                    unsup->Setup(std::move(projections),
                                 pcaDims,
                                 std::move(labels),
                                 std::move(ids),
                                 net.seed,
                                 sittingOut);
                    w1PerEdge.push_back(meanLabelW1());
                    if (!net.quiet)
                    {
                        std::fprintf(
                            stderr,
                            "graph-discovery: distributed PCA (%llu bytes) done at %.3f s; "
                            "K-means: %u clusters per device\n",
                            static_cast<unsigned long long>(pca->GetBytesSent()),
                            pcaEndS,
                            clusters);
                        if (missedF() > 0)
                        {
                            std::fprintf(stderr,
                                         "graph-discovery: %u device(s) missed the subspace F "
                                         "and sit the discovery out\n",
                                         missedF());
                        }
                    }
                    Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
                }));
        Simulator::ScheduleNow(&D2dPcaExchange::Start, pca);
    }
    else
    {
        trainGcn();
        Simulator::ScheduleNow(&D2dGraphDiscovery::Start, gd);
    }
    Simulator::Stop(maxSimTime);
    Simulator::Run();
    // Labeller jobs still queued did not happen (D2dTorchRuntime's lifetime rule); the
    // downstream learning starts the workers again (D2dLearningOptions::Configure).
    D2dTorchRuntime::Shutdown();
    if (!gd->IsFinished())
    {
        support.Fail("discovery did not finish before --maxSimTime=" +
                     std::to_string(maxSimTime.GetSeconds()) + " s");
    }
    const double discoveryEndS = Simulator::Now().GetSeconds();
    writer.WriteFinal(gd, network.channel, network.devices, lhat, satisfiedBefore);
    traces->FlushEnergy();
    energyCsv << fmt::format("0,{:.9f},{:.9g},{:.9g},{:.9g},{:.9g},\n",
                             discoveryEndS,
                             energy.d2d,
                             energy.d2s,
                             energy.compute,
                             energy.d2d + energy.d2s + energy.compute);

    // The exchange's outcome: bias left, links' P_D, delivered fraction.
    double w1Before = 0;
    double w1After = 0;
    const uint32_t partaking = partakers();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!counted(i))
        {
            continue; // sat the discovery out
        }
        w1Before += D2dDiversityRewards::DistanceToUniform(counts[i]) / partaking;
        w1After += D2dDiversityRewards::DistanceToUniform(unsup ? unsup->LabelCounts(i, nl)
                                                                : paradigm->GetCounts(i)) /
                   partaking;
    }
    if (unsup)
    {
        // Which devices took part, in the common subspace or not at all (F missed).
        auto& subspaceCsv = traces->OpenTrace(
            "gd_subspace.csv",
            "device,points_before,points_after,subspace,kmeans_iterations,label_w1_before,"
            "label_w1_after,pca_end_s");
        for (uint32_t i = 0; i < n; ++i)
        {
            subspaceCsv << fmt::format(
                "{},{},{},{},{},{:.9g},{:.9g},{:.9f}\n",
                i,
                counts[i].empty() ? 0.0 : std::accumulate(counts[i].begin(), counts[i].end(), 0.0),
                unsup->GetLabels(i).size(),
                takesPart(i) ? "common" : "none",
                unsup->GetKMeansIterations(i),
                D2dDiversityRewards::DistanceToUniform(counts[i]),
                D2dDiversityRewards::DistanceToUniform(unsup->LabelCounts(i, nl)),
                pcaEndS);
        }
    }
    double pDropSum = 0;
    uint32_t edgesFound = 0;
    for (const auto& g : gd->GetGraphs())
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (g[i] >= 0)
            {
                pDropSum += network.channel->GetDropProbability(i, g[i]);
                ++edgesFound;
            }
        }
    }
    double pointsSent = 0;
    double pointsReceived = 0;
    for (const auto& link : gd->GetLinks())
    {
        for (std::size_t l = 0; l < link.allocated.size(); ++l)
        {
            pointsSent += link.allocated[l];
            pointsReceived += link.received[l];
        }
    }
    uint64_t moved = 0;
    if (unsup)
    {
        // The points each device holds now (real ones: sampled points have no dataset index).
        for (uint32_t i = 0; i < n; ++i)
        {
            std::vector<std::size_t> held;
            for (uint64_t id : unsup->GetIds(i))
            {
                if (id != UINT64_MAX)
                {
                    held.push_back(id);
                }
            }
            std::sort(held.begin(), held.end());
            learning.shards[i].indices = std::move(held);
        }
        moved = static_cast<uint64_t>(pointsReceived + 0.5);
    }
    else
    {
        try
        {
            moved = D2dShardExchange::Apply(*partData, learning.shards, gd->GetLinks());
        }
        catch (const std::exception& e)
        {
            support.Fail(e.what());
        }
    }
    auto writeDiscovery = [&]() {
        flags.Record(*traces);
        net.Record(*traces, network);
        traces->AddAttributes(gd);
        if (unsup)
        {
            traces->AddAttributes(unsup);
        }
        else
        {
            traces->AddAttributes(paradigm);
        }
        traces->AddParameter("trustDensityMeasured", trustMatrices.Density());
        traces->AddParameterArray("minLabelsPerDevice", lhat);
        traces->AddResult("gdMeanW1ToUniformBefore", w1Before);
        traces->AddResult("gdMeanW1ToUniformAfter", w1After);
        // A mean over no link and a fraction of no datapoint are undefined: null.
        const double undefined = std::numeric_limits<double>::quiet_NaN();
        traces->AddResult("gdMeanLinkPDrop", edgesFound ? pDropSum / edgesFound : undefined);
        traces->AddResult("gdEdgesFound", edgesFound);
        traces->AddResult("gdPointsSent", pointsSent);
        traces->AddResult("gdPointsReceived", pointsReceived);
        traces->AddResult("gdPointsMoved", moved);
        traces->AddResult("gdDeliveredFraction",
                          pointsSent > 0 ? pointsReceived / pointsSent : undefined);
        traces->AddResult("gdRlEnergyJ", rlEnergy);
        traces->AddResult("gdExchangeEnergyJ", exchangeEnergy);
        traces->AddResult("gdDiscoveryEndS", discoveryEndS);
        if (unsupervised)
        {
            traces->AddResult("gdPcaBytes", pca->GetBytesSent());
            traces->AddResult("gdPcaEndS", pcaEndS);
            traces->AddResult("gdPcaD2sEnergyJ", pcaD2sEnergyJ);
            traces->AddResultArray("gdMeanW1ToUniformPerEdge", w1PerEdge);
            traces->AddResult("gdPcaSketchesReceived", pca->GetSketchesReceived());
            traces->AddResult("gdPcaSubspaceMissed", missedF());
            traces->AddResult("gdDevicesTakingPart", n - missedF());
        }
        if (graph == "gcn")
        {
            traces->AddResult("gdGcnSystems", gcn.systems);
            traces->AddResult("gdGcnLossBefore", gcn.losses.front());
            traces->AddResult("gdGcnLossAfter", gcn.losses.back());
            traces->AddResult("gdGcnBestLinkAgreement", gcn.bestLinkAgreement);
        }
        if (regression)
        {
            traces->AddParameter("gdRegressionPartitions", nl);
        }
        if (semiSupervised && !pca)
        {
            traces->AddResult("gdLabellingEndS", pcaEndS); // mlp: no PCA
        }
        if (semiSupervised && pca)
        {
            traces->AddResult("gdPcaBytes", pca->GetBytesSent());
            traces->AddResult("gdPcaSketchesReceived", pca->GetSketchesReceived());
            traces->AddResult("gdPcaEndS", pcaEndS);
            traces->AddResult("gdPcaD2sEnergyJ", pcaD2sEnergyJ);
        }
        if (semiSupervised)
        {
            traces->AddResult("gdLabellingMeanAccuracy", labelAccuracy);
            traces->AddResult("gdLabellingMeanUnlabelledAccuracy", unlabelledAccuracy);
        }
    };
    if (!net.quiet)
    {
        std::fprintf(stderr,
                     "graph-discovery: %s graph, mean W1 to uniform %.4f -> %.4f, mean link P_D "
                     "%.4f, %.0f of %.0f points delivered, RL energy %.3f J\n",
                     graph.c_str(),
                     w1Before,
                     w1After,
                     edgesFound ? pDropSum / edgesFound
                                : std::numeric_limits<double>::quiet_NaN(),
                     pointsReceived,
                     pointsSent,
                     rlEnergy);
    }

    if (downstream == "none")
    {
        support.FinishTraces(traces, net.seed, writeDiscovery);
        Simulator::Destroy();
        return 0;
    }

    // Downstream FL on the shards as the exchange left them.
    D2dLearningHelper helper;
    helper.SetProtocolType(downstream == "decentralized"        ? "ns3::D2dDecentralizedFl"
                           : downstream == "semi-decentralized" ? "ns3::D2dSemiDecentralizedFl"
                                                                : "ns3::D2dFedAvg");
    if (helper.GetProtocolType() == D2dFedAvg::GetTypeId())
    {
        helper.SetProtocolAttribute("Variant", StringValue(downstream));
    }
    if (downstream == "fedsgd")
    {
        Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate",
                           DoubleValue(learning.learningRate));
    }
    Config::SetDefault("ns3::D2dDecentralizedFl::Neighbours", UintegerValue(std::min(7u, n - 1)));
    learning.Configure(helper, net.seed);
    Ptr<D2dFlProtocol> protocol = helper.Install(network);
    stream += helper.AssignStreams(protocol, stream);
    protocol->SetTestSet(learning.test);
    traces->ConnectRounds(protocol);

    struct Reached
    {
        int64_t round{-1};
        double d2d{0}, d2s{0}, compute{0};
    };

    std::vector<Reached> reached(targetList.size());
    protocol->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>([&](uint32_t round, double accuracy, double) {
            traces->FlushEnergy();
            energyCsv << fmt::format("{},{:.9f},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                                     round,
                                     Simulator::Now().GetSeconds(),
                                     energy.d2d,
                                     energy.d2s,
                                     energy.compute,
                                     energy.d2d + energy.d2s + energy.compute,
                                     accuracy);
            for (std::size_t k = 0; k < targetList.size(); ++k)
            {
                if (reached[k].round < 0 && accuracy >= targetList[k])
                {
                    reached[k] = {round, energy.d2d, energy.d2s, energy.compute};
                }
            }
        }));
    learning.Run(support,
                 traces,
                 protocol,
                 graph + "+" + downstream,
                 net.seed,
                 maxSimTime,
                 net.quiet,
                 [&]() {
                     writeDiscovery();
                     std::string json = "[";
                     for (std::size_t k = 0; k < targetList.size(); ++k)
                     {
                         const auto& r = reached[k];
                         json +=
                             (k ? ", " : "") +
                             (r.round < 0 ? fmt::format("{{\"target\": {:.9g}, \"round\": null}}",
                                                        targetList[k])
                                          : fmt::format("{{\"target\": {:.9g}, \"round\": {}, "
                                                        "\"energyJ\": {:.9g}, \"d2dJ\": {:.9g}, "
                                                        "\"d2sJ\": {:.9g}, \"computeJ\": {:.9g}}}",
                                                        targetList[k],
                                                        r.round,
                                                        r.d2d + r.d2s + r.compute,
                                                        r.d2d,
                                                        r.d2s,
                                                        r.compute));
                     }
                     traces->AddResultJson("targetsReached", json + "]");
                 });
    return 0;
}
