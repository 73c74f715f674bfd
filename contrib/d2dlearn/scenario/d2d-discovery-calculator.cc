/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-discovery-calculator.h"

#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-input-file.h"
#include "ns3/d2d-message-passing.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trust-matrices.h"

// Boost 1.74's JSON parser includes <boost/bind.hpp>, which asks for this to stay quiet.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

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

/** What the calculator reads: the instance and the parameters of the rewards. */
struct CalculatorInput
{
    D2dExchangeInstance inst;             //!< counts, thresholds, P_D, trust and selection
    std::vector<uint32_t> minLabels;      //!< each device's minimum label count
    double alpha1{1.0};                   //!< weight of the gain, eq. (13)
    double alpha2{1.0};                   //!< weight of P_D, eq. (13)
    double alpha3{0.0};                   //!< weight of the budget term, eq. (14)
    double gamma{0.5};                    //!< weight of the global reward
    double budget{0.0};                   //!< B_k, datapoints (0: no budget term)
    double alphaD{0.1};                   //!< reliability threshold alpha_D of eq. (1)
    std::string thresholdOn{"allocated"}; //!< thresholds on the allocated or expected counts
    D2dDiversityRewards::Metric metric{}; //!< g's distance
};

/**
 * \return T_j[i][l] of the instance's "trust" (N x N x L values, 0 or 1)
 * \param trust the node
 * \param n devices N
 * \param nl labels L
 */
D2dTrustMatrices
ParseTrust(const ptree& trust, uint32_t n, uint32_t nl)
{
    D2dTrustMatrices matrices(n, nl, false);
    uint32_t j = 0;
    for (const auto& tj : trust)
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
                matrices.Set(j, i, l, v[l] == 1);
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
    return matrices;
}

/**
 * \return each device's minimum label count: "minLabels" as one number or N numbers in
 * [0, L]
 * \param ml the node
 * \param n devices N
 * \param nl labels L
 */
std::vector<uint32_t>
ParseMinLabels(const ptree& ml, uint32_t n, uint32_t nl)
{
    std::vector<uint32_t> minLabels;
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
    return minLabels;
}

/**
 * \return the calculator's input: the instance of eqs. (9)-(12) and the parameters of the
 * rewards, every key checked (each once, each known, each value in its flag's range)
 * \param in the parsed JSON
 * \throws std::runtime_error naming the key
 */
CalculatorInput
ParseInput(const ptree& in)
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
    CalculatorInput input;
    D2dExchangeInstance& inst = input.inst;
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
    inst.trust = ParseTrust(in.get_child("trust"), n, nl);
    inst.selection = Integers(in.get_child("selection"), "selection", -1, n - 1.0);
    if (inst.selection.size() != n)
    {
        throw std::runtime_error("selection must have N entries (-1: none)");
    }
    input.minLabels = ParseMinLabels(in.get_child("minLabels"), n, nl);
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
    input.alpha1 = scalar("alpha1", 1.0, 0, 1e6);
    input.alpha2 = scalar("alpha2", 1.0, 0, 1e6);
    input.alpha3 = scalar("alpha3", 0.0, 0, 1e6);
    input.gamma = scalar("gamma", 0.5, 0, 1e6);
    input.budget = scalar("budget", 0.0, 0, 1e12);
    input.alphaD = scalar("reliabilityThreshold", 0.1, 0, 1);
    input.thresholdOn = in.get("thresholdOn", std::string("allocated"));
    if (input.thresholdOn != "allocated" && input.thresholdOn != "expected")
    {
        throw std::runtime_error("thresholdOn must be allocated or expected");
    }
    input.metric = D2dDiversityRewards::ParseMetric(in.get("diversity", std::string("w1")));

    return input;
}

/**
 * \return the calculator's output as JSON: one message-passing step (D2dMessagePassing: V, Q,
 * U, what is sent and received, the expected and allocated label counts after it) and the
 * rewards (D2dDiversityRewards: the gain g, the local reward of eq. (13), the cluster's global
 * reward of eq. (14) and r = local + gamma x global), numbers to 9 significant digits
 * \param input the instance and the parameters
 */
std::string
Rewards(const CalculatorInput& input)
{
    const auto out = D2dMessagePassing::Run(input.inst);
    const auto clusters = D2dDiversityRewards::Clusters(input.inst.pDrop, input.alphaD);
    const auto n = static_cast<uint32_t>(input.inst.counts.size());
    std::vector<double> gain(n, 0.0);
    std::vector<double> local(n, 0.0);
    std::vector<double> global(n, 0.0);
    std::vector<double> reward(n, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (input.inst.selection[i] < 0)
        {
            continue;
        }
        const double p = input.inst.pDrop[i][input.inst.selection[i]];
        gain[i] = D2dDiversityRewards::Gain(input.metric,
                                            input.inst.counts[i],
                                            out.afterExpected[i],
                                            input.thresholdOn == "allocated" ? out.afterAllocated[i]
                                                                             : out.afterExpected[i],
                                            input.inst.thresholds[i],
                                            input.minLabels[i]);
        local[i] = D2dDiversityRewards::LocalReward(gain[i], p, input.alpha1, input.alpha2);
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
            if (input.inst.selection[m] >= 0 && clusters[input.inst.selection[m]] != clusters[m])
            {
                for (double x : out.allocated[m])
                {
                    points += x;
                }
            }
        }
        global[i] = D2dDiversityRewards::GlobalReward(members,
                                                      n,
                                                      input.budget > 0 ? input.alpha3 : 0.0,
                                                      input.budget,
                                                      input.budget > 0 ? points : 0.0);
        reward[i] = local[i] + input.gamma * global[i];
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

} // namespace

std::string
D2dDiscoveryCalculator::ReadInstance(const std::string& path)
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
    if (static_cast<std::size_t>(st.st_size) > D2dDiscoveryCalculator::MAX_INSTANCE_BYTES)
    {
        throw std::runtime_error(fmt::format("{} bytes (accepted: at most {})",
                                             st.st_size,
                                             D2dDiscoveryCalculator::MAX_INSTANCE_BYTES));
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(D2dDiscoveryCalculator::MAX_INSTANCE_BYTES + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > D2dDiscoveryCalculator::MAX_INSTANCE_BYTES)
    {
        throw std::runtime_error(
            fmt::format("more than {} bytes", D2dDiscoveryCalculator::MAX_INSTANCE_BYTES));
    }
    if (D2dInputFile::JsonDepth(text) >
        static_cast<std::size_t>(D2dDiscoveryCalculator::MAX_INSTANCE_DEPTH))
    {
        throw std::runtime_error(fmt::format("nested more than {} levels deep",
                                             D2dDiscoveryCalculator::MAX_INSTANCE_DEPTH));
    }
    return text;
}

std::string
D2dDiscoveryCalculator::Evaluate(const std::string& json)
{
    ptree in;
    try
    {
        std::istringstream text(json);
        boost::property_tree::read_json(text, in);
    }
    catch (const std::exception& e)
    {
        throw std::runtime_error("cannot read the JSON instance (" +
                                 D2dScenarioSupport::FirstLine(e.what()) + ")");
    }
    return Rewards(ParseInput(in));
}

} // namespace ns3
