/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-test-fixtures.h"

#include "ns3/abort.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-channel-access.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/enum.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

namespace ns3
{

const D2dTestData&
GaussianTestData(uint64_t trainSeed, uint64_t testSeed, std::size_t nTrain, std::size_t nTest)
{
    static std::map<std::tuple<uint64_t, uint64_t, std::size_t, std::size_t>, D2dTestData> cache;
    const auto key = std::make_tuple(trainSeed, testSeed, nTrain, nTest);
    auto it = cache.find(key);
    if (it == cache.end())
    {
        const auto means = D2dSyntheticData::PaperGaussianMeans();
        D2dTestData data{D2dSyntheticData::GaussianMixture(means, 1.0, {}, nTrain, trainSeed),
                         D2dSyntheticData::GaussianMixture(means, 1.0, {}, nTest, testSeed)};
        it = cache.emplace(key, std::move(data)).first;
    }
    return it->second;
}

std::shared_ptr<const D2dDataset>
FashionTestSplit(const std::string& split, double fraction, uint64_t seed)
{
    static std::map<std::tuple<std::string, double, uint64_t>, std::shared_ptr<const D2dDataset>>
        cache;
    const auto key = std::make_tuple(split, fraction, seed);
    auto it = cache.find(key);
    if (it == cache.end())
    {
        it = cache
                 .emplace(
                     key,
                     D2dFashionMnist::Load(D2dFashionMnist::DefaultDir(), split, fraction, seed))
                 .first;
    }
    return it->second;
}

const D2dTestData&
FashionTestData(double fraction, uint64_t trainSeed, uint64_t testSeed)
{
    static std::map<std::tuple<double, uint64_t, uint64_t>, D2dTestData> cache;
    const auto key = std::make_tuple(fraction, trainSeed, testSeed);
    auto it = cache.find(key);
    if (it == cache.end())
    {
        D2dTestData data{FashionTestSplit("train", fraction, trainSeed),
                         FashionTestSplit("test", fraction, testSeed)};
        it = cache.emplace(key, std::move(data)).first;
    }
    return it->second;
}

void
SetUniformDropProbability(Ptr<D2dChannel> channel, double pd, uint32_t rx, uint32_t tx)
{
    // Eq. 18, P_D = 1 - exp(-(2^r - 1) sigma^2 / W): W measured on one link with a probe
    // noise, then the noise that gives pd on every link of that W.
    DoubleValue r;
    channel->GetAttribute("SpectralEfficiency", r);
    const double k = std::pow(2.0, r.Get()) - 1.0; // 2^r - 1
    const double probeNoiseW = 1e-13;
    channel->SetAttribute("NoisePowerW", DoubleValue(probeNoiseW));
    const double p0 = channel->GetDropProbability(rx, tx);
    NS_ABORT_MSG_IF(!(p0 > 1e-12 && p0 < 0.5), "probe P_D " << p0);
    const double rssW = -k * probeNoiseW / std::log1p(-p0);
    channel->SetAttribute("NoisePowerW", DoubleValue(-std::log1p(-pd) * rssW / k));
    NS_ABORT_MSG_IF(std::fabs(channel->GetDropProbability(rx, tx) - pd) > 1e-9,
                    "P_D " << channel->GetDropProbability(rx, tx));
}

NodeContainer
MakeTestNodesOnLine(uint32_t n, double spacingM)
{
    NodeContainer nodes;
    nodes.Create(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto m = CreateObject<ConstantPositionMobilityModel>();
        m->SetPosition(Vector(spacingM * i, 0, 0));
        nodes.Get(i)->AggregateObject(m);
    }
    return nodes;
}

Ptr<D2dLearner>
MakeTestLearner(const NodeContainer& nodes,
                uint32_t id,
                const D2dModelSpec& spec,
                std::shared_ptr<const D2dDataset> train,
                const std::vector<D2dShard>& shards,
                uint64_t seed,
                double learningRate,
                const std::map<uint32_t, double>& slowdown)
{
    auto l = CreateObject<D2dLearner>();
    l->SetAttribute("LearningRate", DoubleValue(learningRate));
    l->Setup(id, spec, train, shards.at(id), seed);
    Ptr<D2dComputeModel> compute = D2dHelper::GetComputeModel(nodes.Get(id));
    const auto it = slowdown.find(id);
    if (it != slowdown.end())
    {
        compute->SetAttribute("SlowdownFactor", DoubleValue(it->second));
    }
    l->SetComputeModel(compute);
    return l;
}

void
ConfigureTestProtocolHelper(D2dHelper& d2d, double noiseW, double flopsPerSecond)
{
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(noiseW));
    // The protocols hand every message to the radios at once: the channel's ideal MAC
    // keeps half-duplex radios from losing them.
    d2d.SetChannelAttribute("AccessPolicy", EnumValue(D2dChannelAccess::SCHEDULED));
    d2d.SetInitialEnergyJ(1e9);
    d2d.SetComputeAttribute("FlopsPerSecond", DoubleValue(flopsPerSecond));
}

void
SetTestBatteries(const NodeContainer& nodes, const std::map<uint32_t, double>& energyJ)
{
    for (const auto& [i, joules] : energyJ)
    {
        nodes.Get(i)->GetObject<EnergySourceContainer>()->Get(0)->SetAttribute("InitialEnergyJ",
                                                                               DoubleValue(joules));
    }
}

D2dTestLearners
MakeTestLearners(const NodeContainer& nodes,
                 const D2dModelSpec& spec,
                 std::shared_ptr<const D2dDataset> train,
                 const std::vector<D2dShard>& shards,
                 uint64_t seed,
                 double learningRate,
                 const std::map<uint32_t, double>& slowdown)
{
    D2dTestLearners t;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto l = MakeTestLearner(nodes, i, spec, train, shards, seed, learningRate, slowdown);
        t.samples.push_back(static_cast<double>(l->GetNSamples()));
        t.initial.push_back(l->GetParameters());
        t.learners.push_back(l);
    }
    return t;
}

std::vector<std::vector<float>>
TestModelsNow(const std::vector<Ptr<D2dLearner>>& learners)
{
    std::vector<std::vector<float>> now;
    for (const auto& l : learners)
    {
        now.push_back(l->IsTraining() ? std::vector<float>() : l->GetParameters());
    }
    return now;
}

std::string
ReadTextFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string>
ReadTextLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

std::vector<std::string>
SplitCsvLine(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string field; std::getline(ss, field, ',');)
    {
        fields.push_back(field);
    }
    return fields;
}

} // namespace ns3
