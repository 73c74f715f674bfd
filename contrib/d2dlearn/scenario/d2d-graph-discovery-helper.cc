/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-graph-discovery-helper.h"

#include "d2d-protocol-choice.h"

#include "ns3/d2d-distributed-pca.h"
#include "ns3/d2d-diversity-rewards.h"
#include "ns3/d2d-energy-model.h"
#include "ns3/d2d-gap-partition.h"
#include "ns3/d2d-gcn-graph-scorer.h"
#include "ns3/d2d-list-flag.h"
#include "ns3/d2d-memory-budget.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-semi-supervised-paradigm.h"
#include "ns3/d2d-shard-exchange.h"
#include "ns3/d2d-supervised-paradigm.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/d2d-type-choices.h"
#include "ns3/d2d-unsupervised-paradigm.h"
#include "ns3/energy-source-container.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dGraphDiscoveryHelper");

namespace
{
/** --paradigm's values and the D2dDiscoveryParadigm each makes. */
const D2dTypeChoice&
Paradigms()
{
    static const D2dTypeChoice paradigms("paradigm",
                                         {{"supervised", "ns3::D2dSupervisedParadigm"},
                                          {"semi-supervised", "ns3::D2dSemiSupervisedParadigm"},
                                          {"unsupervised", "ns3::D2dUnsupervisedParadigm"}});
    return paradigms;
}

/** --downstream's values: the registry's protocols of graph-discovery, then none. */
std::vector<std::string>
DownstreamChoices()
{
    auto names = D2dProtocolRegistry::ForProgram("graph-discovery");
    names.emplace_back("none");
    return names;
}

/**
 * \return the rows of the devices' distributed-PCA sketches stacked at the server, at most
 * the feature size: the largest d the common subspace can have
 * \param learning the data
 * \param rank t of each sketch
 */
std::size_t
SketchRows(const D2dLearningOptions& learning, uint32_t rank)
{
    const std::size_t dim = learning.train->FeatureSize();
    std::size_t rows = 0;
    for (const auto& shard : learning.shards)
    {
        rows += std::min<std::size_t>({rank, shard.indices.size(), dim});
    }
    return std::min(rows, dim);
}

/**
 * \return the default of one of D2dGraphDiscovery's attributes (the bound flag's value), as
 * text \param name the attribute
 */
std::string
DiscoveryDefault(const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(D2dGraphDiscovery::GetTypeId().LookupAttributeByName(name, &info));
    return info.initialValue->SerializeToString(info.checker);
}
} // namespace

D2dGraphDiscoveryHelper::D2dGraphDiscoveryHelper()
{
    m_paradigmFactory.SetTypeId(Paradigms().GetTypeName(paradigm));
}

std::string
D2dGraphDiscoveryHelper::GetParadigmTypeName() const
{
    return Paradigms().GetTypeName(paradigm);
}

void
D2dGraphDiscoveryHelper::ScopeTrainingFlags(D2dScenarioFlags& flags)
{
    for (const auto& name : D2dLearningOptions::GetTrainingFlags())
    {
        if (flags.Has(name))
        {
            flags.Find(name).Configures("ns3::D2dFlProtocol");
        }
    }
    for (const auto& name : D2dNetworkOptions::GetComputeFlags())
    {
        flags.Find(name).Configures("ns3::D2dFlProtocol");
    }
}

void
D2dGraphDiscoveryHelper::SetChosenTypes(D2dTraffic& traffic) const
{
    traffic.chosenTypes = {GetParadigmTypeName()};
    if (GetGraphName() == "gcn")
    {
        traffic.chosenTypes.push_back(D2dGcnGraphScorer::GetTypeId().GetName());
    }
    traffic.unreadAttributes.clear();
    if (HasDownstream())
    {
        const D2dProtocolTraits traits = D2dProtocolRegistry::GetTraits(downstream);
        traffic.chosenTypes.insert(traffic.chosenTypes.end(),
                                   traits.madeTypes.begin(),
                                   traits.madeTypes.end());
        traffic.unreadAttributes = traits.unreadAttributes;
    }
}

bool
D2dGraphDiscoveryHelper::HasDownstream() const
{
    const auto names = D2dProtocolRegistry::ForProgram("graph-discovery");
    return std::find(names.begin(), names.end(), downstream) != names.end();
}

bool
D2dGraphDiscoveryHelper::DownstreamSendsGradients() const
{
    return HasDownstream() && D2dProtocolRegistry::GetTraits(downstream).sendsGradients;
}

void
D2dGraphDiscoveryHelper::AddFlags(D2dScenarioFlags& flags)
{
    AddParadigmFlags(flags);
    AddGraphFlags(flags);
    AddPolicyFlags(flags);
    AddRunFlags(flags);
}

void
D2dGraphDiscoveryHelper::AddParadigmFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("paradigm",
             "Learning paradigm: labelled shards, or a labelled fraction and label "
             "propagation on distributed-PCA projections (sec. V-A1)",
             paradigm)
        .Choices(Paradigms().GetNames());
    Paradigms().AddChoices(flags); // a paradigm's flags act only in its runs (D2dFlagScope)
    flags
        .Bind("pcaDims",
              "ns3::D2dSemiSupervisedParadigm::PcaDims",
              "Semi-supervised and unsupervised: d, the dimension of the PCA subspace F")
        .Also("ns3::D2dUnsupervisedParadigm::PcaDims")
        .Range(1, 1e6);
    flags
        .Bind("pcaLocalRank",
              "ns3::D2dSemiSupervisedParadigm::PcaLocalRank",
              "Semi-supervised and unsupervised: t, singular vectors each device sends (0: d)")
        .Also("ns3::D2dUnsupervisedParadigm::PcaLocalRank")
        .Range(0, 1e6);
    flags
        .Bind("labelledFraction",
              "ns3::D2dSemiSupervisedParadigm::LabelledFraction",
              "Semi-supervised: share of each device's points that is labelled (at least one "
              "per label present)")
        .Positive(1);
    flags
        .Bind("knn",
              "ns3::D2dSemiSupervisedParadigm::Knn",
              "Semi-supervised: k of the label-propagation kNN graph")
        .Range(1, 1e6);
    flags.Bind("labeller",
               "ns3::D2dSemiSupervisedParadigm::Labeller",
               "Semi-supervised: labels the unlabelled points by label propagation on the "
               "distributed-PCA projections (sec. V-A1) or a local MLP on the raw features "
               "(App. D-D)");
    flags
        .Bind("clusters",
              "ns3::D2dUnsupervisedParadigm::Clusters",
              "Unsupervised: K-means clusters per device (L)")
        .Range(1, 1000);
    flags
        .Bind("requestPoints",
              "ns3::D2dUnsupervisedParadigm::RequestPoints",
              "Unsupervised: Q, datapoints a receiver requests")
        .Range(1, 1e8);
    flags.Bind("retainFraction",
               "ns3::D2dUnsupervisedParadigm::RetainFraction",
               "Unsupervised: share of each cluster a transmitter keeps (b_j)");
    flags.Bind("exchangeMode",
               "ns3::D2dUnsupervisedParadigm::ExchangeMode",
               "Unsupervised: the final exchange moves real points or lets the receiver draw "
               "from the transmitter's Gaussians");
    flags.Bind("normalDraws",
               "ns3::D2dUnsupervisedParadigm::NormalDraws",
               "Unsupervised: the samples' standard normals by the ziggurat or by Box-Muller "
               "(slower; the generator d2dlearn used before 2026-11), the same distribution");
    flags.Bind("agreementMix",
               "ns3::D2dUnsupervisedParadigm::AgreementMix",
               "Unsupervised, eq. 17's h^A: post-exchange means and covariances, or the printed "
               "pre-exchange means with post-exchange covariances");
    flags
        .Bind("agreementScale",
              "ns3::D2dUnsupervisedParadigm::AgreementScale",
              "Unsupervised, eq. 17's agreement: mean ratio - 1, or the printed sum")
        .Choices({"mean", "sum"});
}

void
D2dGraphDiscoveryHelper::AddGraphFlags(D2dScenarioFlags& flags)
{
    flags.Bind("graph", "ns3::D2dGraphDiscovery::Graph", "How the D2D graph is found")
        .Choices({"rl", "closest", "most-trusted", "uniform", "gcn", "none"});
    // The GCN baseline's flags act where it is made (Configure: --graph=gcn).
    flags.AddChoice(D2dGcnGraphScorer::GetTypeId().GetName(), "--graph=gcn");
    flags
        .Bind("gcnSystems",
              "ns3::D2dGcnGraphScorer::Systems",
              "--graph=gcn: training systems drawn from the deployment (1 if N <= "
              "--gcnSystemDevices)")
        .Range(1, 10000);
    flags
        .Bind("gcnSystemDevices",
              "ns3::D2dGcnGraphScorer::SystemDevices",
              "--graph=gcn: devices per training system")
        .Range(2, 1e6);
    flags
        .Bind("gcnSubsetSize",
              "ns3::D2dGcnGraphScorer::SubsetSize",
              "--graph=gcn: size of the subsets the best links are searched over")
        .Range(2, 8);
    flags
        .Bind("gcnEpochs",
              "ns3::D2dGcnGraphScorer::Epochs",
              "--graph=gcn: training epochs (Adam 1e-3, weight decay 5e-4)")
        .Range(1, 1e6);
    flags
        .Add("partitions",
             "Regression data: L, partitions cut at the L-1 largest gaps of the sorted targets "
             "(0: 3)",
             partitions)
        .Range(0, 1e6);
}

void
D2dGraphDiscoveryHelper::AddPolicyFlags(D2dScenarioFlags& flags)
{
    flags.Bind("iterations", "ns3::D2dGraphDiscovery::Iterations", "RL iterations per edge")
        .Range(1, 1e7);
    flags.Bind("bufferSize", "ns3::D2dGraphDiscovery::BufferSize").Range(1, 1e7);
    flags.Bind("gamma", "ns3::D2dGraphDiscovery::Gamma");
    flags.Bind("delta", "ns3::D2dGraphDiscovery::Delta");
    flags
        .Bind("alpha1",
              "ns3::D2dGraphDiscovery::Alpha1",
              "alpha1: weight of the diversity score (eq. 13)")
        .Also("ns3::D2dGcnGraphScorer::Alpha1");
    flags.Bind("alpha2", "ns3::D2dGraphDiscovery::Alpha2", "alpha2: weight of P_D (eq. 13)")
        .Also("ns3::D2dGcnGraphScorer::Alpha2");
    flags.Bind("alpha3",
               "ns3::D2dGraphDiscovery::Alpha3",
               "alpha3: weight of the cluster budget per datapoint (eq. 14; -1: 0 without "
               "--budget, 1/budget with it)");
    flags
        .Bind("bufferMode",
              "ns3::D2dGraphDiscovery::BufferMode",
              "Experience buffers: per (state, action) or one per device")
        .Choices({"per-action", "shared"});
    flags
        .Bind("betaMode",
              "ns3::D2dGraphDiscovery::BetaMode",
              "Below-mean rewards: R - delta|R| or (1 - delta) R")
        .Choices({"sign-aware", "literal"});
    flags
        .Bind("thresholdOn",
              "ns3::D2dSupervisedParadigm::ThresholdOn",
              "Eq. 8 inside g: loss-free allocated counts or expected D-hat")
        .Choices({"allocated", "expected"});
    flags
        .Bind("stateMode",
              "ns3::D2dGraphDiscovery::StateMode",
              "Dynamic RSS: state per link (quantised W_ij) or the whole row")
        .Choices({"per-link", "row"});
    flags.Bind("thresholdFraction",
               "ns3::D2dSupervisedParadigm::ThresholdFraction",
               "b_i[l] = this x |D_i| for every label");
    flags
        .Bind("minLabels",
              "ns3::D2dSupervisedParadigm::MinLabels",
              "L-hat (0: the labels a device satisfies initially + 1)")
        .Range(0, 1e6);
    flags
        .Bind("edges",
              "ns3::D2dGraphDiscovery::Edges",
              "E: incoming edges per device (Remark 2; unsupervised: 2 unless given)")
        .Range(1, 1000);
    flags
        .Bind("trust",
              "ns3::D2dSupervisedParadigm::Trust",
              "Trust matrices (App. F structures, or --trustFile)")
        .Choices({"random", "row-sparse", "column-sparse", "block", "file"});
    flags.Bind("trustDensity",
               "ns3::D2dSupervisedParadigm::TrustDensity",
               "Share of ones of the trust matrices");
    flags.Bind("trustFile",
               "ns3::D2dSupervisedParadigm::TrustFile",
               "--trust=file: N x N lines of L 0/1 values (T_j[i] at line jN+i)");
    flags.Bind("reliabilityThreshold",
               "ns3::D2dGraphDiscovery::ReliabilityThreshold",
               "alpha_D: P_D bound inside a reliable cluster (eq. 1)");
    flags.Bind("budget",
               "ns3::D2dGraphDiscovery::Budget",
               "B_k: datapoints a cluster may receive over inter-cluster links (0: no budget "
               "term)");
    flags
        .Bind("diversity",
              "ns3::D2dSupervisedParadigm::Metric",
              "g's distance: 1-Wasserstein or Jensen-Shannon")
        .Choices({"w1", "js"});
}

void
D2dGraphDiscoveryHelper::AddRunFlags(D2dScenarioFlags& flags)
{
    flags.Add("downstream", "The FL protocol trained on the exchanged shards", downstream)
        .Choices(DownstreamChoices());
    static const D2dProtocolChoice protocols("downstream", "graph-discovery");
    protocols.AddChoices(flags); // a protocol's flags act only in runs that train with it
    flags.Add("targets", "Accuracies whose first round and energy run.json records", targets)
        .Configures("ns3::D2dFlProtocol"); // the downstream rounds' accuracies
    flags.Add("traceEvery", "gd_iterations.csv: keep every this many iterations", traceEvery)
        .Range(1, 1e9);
    flags.Bind("controlReliable",
               "ns3::D2dGraphDiscovery::ControlReliable",
               "Send the control messages reliably");
    flags.Bind("rewardSharing",
               "ns3::D2dGraphDiscovery::RewardSharing",
               "Local rewards: to the cluster head, which returns r^G (O(1) messages per device), "
               "or multicast to every member (literal)");
}

void
D2dGraphDiscoveryHelper::CheckMemory(const D2dScenarioSupport& support,
                                     const D2dScenarioFlags& flags,
                                     const D2dLearningOptions& learning,
                                     uint32_t nDevices) const
{
    const double iterations = flags.Get<UintegerValue>("iterations");
    const double edges = flags.Get<UintegerValue>("edges");
    const bool gcn =
        flags.Get<D2dEnumValue<D2dGraphDiscovery::GraphMode>>("graph") == D2dGraphDiscovery::GCN;
    const double perHolder = HasDownstream() ? learning.ModelBytesPerHolder() : 0.0;
    const double dataBytes = learning.DataBytes();
    // T_j[i][l]: one byte per pair and label (D2dTrustMatrices), the supervised paradigms'.
    const double trustBytesPerPair =
        paradigm == "unsupervised" ? 0.0 : std::max<uint32_t>(1, learning.train->numClasses);
    D2dMemoryBudget([=](uint64_t n) {
        const double nn = static_cast<double>(n);
        return D2dMemoryBudget::Terms{
            {"devices", D2dMemoryBudget::DeviceBytes * nn},
            {"data", dataBytes},
            {"link policies", 176.0 * nn * std::min(edges, nn - 1) * iterations},
            {"N x N matrices", (gcn ? 32.0 : 24.0) * nn * nn},
            {"trust matrices", trustBytesPerPair * nn * nn},
            {"models", perHolder * (nn + 1)}};
    }).Check(support, "graph-discovery", nDevices);
}

void
D2dGraphDiscoveryHelper::Validate(const D2dScenarioSupport& support,
                                  D2dScenarioFlags& flags,
                                  const D2dLearningOptions& learning,
                                  uint32_t nDevices)
{
    m_paradigmFactory.SetTypeId(Paradigms().GetTypeName(paradigm));
    const bool regression = learning.data.dataset == "polynomial";
    // Labelled datapoints from files (Fashion-MNIST and the published formats), or the
    // partitioned regression data; not the 2-D Gaussian mixture.
    const std::vector<std::string> pointSets =
        {"fashion-mnist", "mnist", "cifar10", "cifar100", "tensors", "leaf"};
    if (std::find(pointSets.begin(), pointSets.end(), learning.data.dataset) == pointSets.end() &&
        !regression)
    {
        support.Fail("--dataset=" + learning.data.dataset +
                     ": graph-discovery exchanges labelled datapoints (fashion-mnist, mnist, "
                     "cifar10, cifar100, tensors, leaf) or partitioned regression data "
                     "(polynomial)");
    }
    // A datapoint's size on the air follows the data set unless the attribute is given.
    m_bytesPerPointGiven = flags.HasArgument("--ns3::D2dGraphDiscovery::BytesPerPoint=");
    if (regression && paradigm != "supervised")
    {
        support.Fail("--paradigm=" + paradigm +
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
    const bool gcn =
        flags.Get<D2dEnumValue<D2dGraphDiscovery::GraphMode>>("graph") == D2dGraphDiscovery::GCN;
    const uint32_t subset = flags.Get<UintegerValue>("gcnSubsetSize");
    const uint32_t systemDevices = flags.Get<UintegerValue>("gcnSystemDevices");
    if (gcn && subset > systemDevices)
    {
        support.Fail(fmt::format("--gcnSubsetSize={}: must be in [2, --gcnSystemDevices = {}]",
                                 subset,
                                 systemDevices));
    }
    try
    {
        m_targets = D2dListFlag::Reals(targets);
    }
    catch (const std::exception&)
    {
        support.Fail("--targets=" + targets +
                     ": a list of accuracies in [0, 1] (separated by commas or spaces)");
    }
    for (double t : m_targets)
    {
        support.CheckRange("targets", t, 0, 1);
    }
    if (flags.Get<D2dEnumValue<D2dSupervisedParadigm::Trust>>("trust") ==
            D2dSupervisedParadigm::TRUST_FILE &&
        flags.Get<StringValue>("trustFile").empty())
    {
        support.Fail("--trust=file needs --trustFile=PATH");
    }
    if (paradigm == "unsupervised")
    {
        if (!flags.Given("edges"))
        {
            // Remark 2: the paper's unsupervised runs allow two incoming edges (one on two
            // devices, where a device has one possible transmitter).
            flags.DefaultAfterParse("edges", std::to_string(std::min(2u, nDevices - 1)));
        }
        if (gcn)
        {
            support.Fail("--graph=gcn: the GCN baseline learns from the supervised paradigm's "
                         "local rewards (--paradigm=supervised or semi-supervised)");
        }
        if (HasDownstream() && learning.training.model.rfind("triplet", 0) != 0)
        {
            // Sec. V-B: the devices hold no labels, so they train a self-supervised encoder.
            support.Fail("--model=" + learning.training.model +
                         ": --paradigm=unsupervised trains the self-supervised triplet encoder "
                         "(--model=triplet[:M]) or nothing (--downstream=none)");
        }
    }
}

void
D2dGraphDiscoveryHelper::Configure(const D2dScenarioSupport& support,
                                   const D2dLearningOptions& learning,
                                   uint64_t seed)
{
    m_seed = seed;
    // Byte-valued samples (pixels of the idx and CIFAR files, LEAF's characters) travel as
    // bytes plus a label byte (Fashion-MNIST: 785); float samples (tensors, LEAF's FEMNIST) as
    // float32 values plus a 4-byte label.
    const std::size_t features = learning.train->FeatureSize();
    const bool bytes =
        learning.data.dataset == "fashion-mnist" || learning.data.dataset == "mnist" ||
        learning.data.dataset == "cifar10" || learning.data.dataset == "cifar100" ||
        (learning.data.dataset == "leaf" && learning.train->featureShape.size() == 1 &&
         learning.train->numClasses == 80);
    // Regression (polynomial) keeps the attribute's default, as before.
    m_bytesPerPoint = learning.data.dataset == "polynomial"
                          ? 0
                          : static_cast<uint32_t>(bytes ? features + 1 : 4 * features + 4);
    const auto n = static_cast<uint32_t>(learning.shards.size());
    // Regression (sec. VI-C4): a copy of the training set whose labels are each point's gap
    // partition at its device; the discovery and the exchange move points by these labels,
    // the downstream learner uses the shards (the same indices) on the regression set.
    m_partData = learning.train;
    if (learning.data.dataset == "polynomial")
    {
        const uint32_t parts = partitions > 0 ? partitions : 3;
        m_partData = std::make_shared<D2dDataset>(*learning.train);
        m_partData->numClasses = parts;
        m_partData->labels.assign(m_partData->Size(), 0);
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
                m_partData->labels[shard.indices[k]] = part[k];
            }
        }
    }
    const uint32_t nl = m_partData->numClasses;
    m_paradigm = m_paradigmFactory.Create<D2dDiscoveryParadigm>();
    // Given values that cannot take effect are refused rather than clamped in silence.
    UintegerValue edges;
    edges.DeserializeFromString(DiscoveryDefault("Edges"), MakeUintegerChecker<uint32_t>());
    if (edges.Get() > n - 1)
    {
        support.Fail(fmt::format("--edges={} with --nDevices={}: a device has {} possible "
                                 "transmitters (accepted: 1 to {})",
                                 edges.Get(),
                                 n,
                                 n - 1,
                                 n - 1));
    }
    if (auto supervised = DynamicCast<D2dSupervisedParadigm>(m_paradigm))
    {
        UintegerValue minLabels;
        supervised->GetAttribute("MinLabels", minLabels);
        if (minLabels.Get() > nl)
        {
            support.Fail(fmt::format("--minLabels={} is above the {} labels of the data "
                                     "(accepted: 0 to {})",
                                     minLabels.Get(),
                                     nl,
                                     nl));
        }
    }
    // Zero unless a PCA paradigm sets them (a default-constructed UintegerValue holds an
    // indeterminate value from ns-3.44 on).
    UintegerValue pcaDims(0);
    UintegerValue rank(0);
    if (auto semi = DynamicCast<D2dSemiSupervisedParadigm>(m_paradigm))
    {
        for (const auto& shard : learning.shards)
        {
            if (!shard.labelMap.empty())
            {
                support.Fail("--paradigm=semi-supervised: shards with flipped labels are not "
                             "supported (no --flip)");
            }
        }
        semi->GetAttribute("PcaDims", pcaDims);
        semi->GetAttribute("PcaLocalRank", rank);
    }
    auto unsup = DynamicCast<D2dUnsupervisedParadigm>(m_paradigm);
    if (unsup)
    {
        unsup->GetAttribute("PcaDims", pcaDims);
        unsup->GetAttribute("PcaLocalRank", rank);
    }
    if (pcaDims.Get() > 0)
    {
        const std::size_t dMax = SketchRows(learning, rank.Get() > 0 ? rank.Get() : pcaDims.Get());
        if (pcaDims.Get() > dMax)
        {
            support.Fail(fmt::format("--pcaDims={}: must be in [1, {}] (the feature size and the "
                                     "rows the devices' sketches stack)",
                                     pcaDims.Get(),
                                     dMax));
        }
    }
    if (unsup)
    {
        UintegerValue clusters;
        unsup->GetAttribute("Clusters", clusters);
        std::size_t fewest = SIZE_MAX;
        for (const auto& shard : learning.shards)
        {
            fewest = std::min(fewest, shard.indices.size());
        }
        if (clusters.Get() > fewest)
        {
            support.Fail(fmt::format("--clusters={}: must be in [1, {}] (the fewest points a "
                                     "device holds)",
                                     clusters.Get(),
                                     fewest));
        }
    }
    if (auto supervised = DynamicCast<D2dSupervisedParadigm>(m_paradigm))
    {
        try
        {
            supervised->LoadTrust(n, nl, seed);
        }
        catch (const std::exception& e)
        {
            support.Fail(std::string("--trustFile: ") + e.what() +
                         " (N x N lines of L comma-separated 0/1 values)");
        }
    }
}

bool
D2dGraphDiscoveryHelper::UsesServer() const
{
    return (HasDownstream() && D2dProtocolRegistry::GetTraits(downstream).usesD2s) ||
           (m_paradigm && m_paradigm->UsesServer());
}

std::string
D2dGraphDiscoveryHelper::GetGraphName() const
{
    return DiscoveryDefault("Graph");
}

Ptr<D2dGraphDiscovery>
D2dGraphDiscoveryHelper::GetDiscovery() const
{
    return m_gd;
}

void
D2dGraphDiscoveryHelper::Install(const D2dNetwork& network,
                                 D2dTraceHelper& traces,
                                 const D2dNetworkOptions& net)
{
    NS_ABORT_MSG_UNLESS(m_paradigm, "D2dGraphDiscoveryHelper::Install: Configure() first");
    m_traces = &traces;
    m_quiet = net.run.quiet;
    m_devices = network.devices;
    m_links = network.links;
    // Every energy event (radios, D2S, computation), by component family.
    network.ConnectEnergyEvents(MakeCallback(&D2dDiscoveryRecorder::Energy, &m_record));
    m_gd = CreateObject<D2dGraphDiscovery>();
    m_gd->SetAttribute("Paradigm", PointerValue(m_paradigm));
    if (!m_bytesPerPointGiven && m_bytesPerPoint > 0)
    {
        m_gd->SetAttribute("BytesPerPoint", UintegerValue(m_bytesPerPoint));
    }
    if (GetGraphName() == "gcn")
    {
        // The GCN baseline (App. C) trains at the server once the partitions are known.
        auto scorer = CreateObject<D2dGcnGraphScorer>();
        scorer->SetAttribute("Seed", UintegerValue(m_seed + 11));
        m_gd->SetAttribute("LinkScorer", PointerValue(scorer));
    }
    if (net.rss.dynamicRssLevels > 0)
    {
        // Sec. VI-P: the RSS is redrawn at every RL step.
        m_gd->SetAttribute("IterationPeriod", TimeValue(net.rss.rssStep));
    }
    m_gd->Setup(network.d2dTransports, network.links);
    m_writer = std::make_unique<D2dDiscoveryTraceWriter>(traces, traceEvery);
    m_writer->Connect(m_gd);
    m_energyCsv = &traces.OpenTrace("gd_energy.csv",
                                    "round,sim_time_s,d2d_j,d2s_j,compute_j,total_j,accuracy");
    // Energy at each stage of discovery: RL phase = learned - previous exchanged. gd_stages.csv
    // records the D2D energy at each stage, so that both sums can be recomputed.
    m_stagesCsv = &traces.OpenTrace("gd_stages.csv", "edge,stage,sim_time_s,d2d_j");
    // --traces=standard: the RL's control messages are counted, not written (gd_iterations.csv
    // records each device's choice and rewards).
    traces.SetUntracedKinds(D2dGraphDiscovery::ControlKinds());
    m_gd->TraceConnectWithoutContext("Stage", MakeCallback(&D2dGraphDiscoveryHelper::Stage, this));
    m_gd->SetFinishedCallback(Callback<void>([]() { Simulator::Stop(); }));
    if (DynamicCast<D2dSemiSupervisedParadigm>(m_paradigm))
    {
        m_labellingCsv = &traces.OpenTrace(
            "gd_labelling.csv",
            "device,points,labelled,accuracy,unlabelled_accuracy,iterations,subspace,pca_end_s");
    }
    m_data.server = network.d2sTransports;
}

int64_t
D2dGraphDiscoveryHelper::AssignStreams(int64_t stream)
{
    return m_gd->AssignStreams(stream);
}

void
D2dGraphDiscoveryHelper::Stage(uint32_t edge, const std::string& stage)
{
    // The open periods closed first (a Wi-Fi radio's idle draw is open at any time): the
    // stage's energy and energy.csv's rows up to now then hold the same m_record.d2dJ.
    m_traces->CloseEnergyPeriods();
    m_record.MarkStage(stage);
    *m_stagesCsv << fmt::format("{},{},{:.9f},{:.17g}\n",
                                edge,
                                stage,
                                Simulator::Now().GetSeconds(),
                                m_record.d2dJ);
    if (!m_quiet)
    {
        std::fprintf(stderr,
                     "graph-discovery: edge %u %s at %.3f s (%.1f s wall)\n",
                     edge,
                     stage.c_str(),
                     Simulator::Now().GetSeconds(),
                     m_support->WallSeconds());
    }
    if (stage == "exchanged" && DynamicCast<D2dUnsupervisedParadigm>(m_paradigm))
    {
        // The paper's Fig. 8d: the mean W1 of the label histograms to uniform after each edge
        // round (the labels are used for nothing else).
        m_record.w1PerEdge.push_back(MeanLabelW1());
    }
}

bool
D2dGraphDiscoveryHelper::Counted(uint32_t i) const
{
    // A device that the preparation left out (the unsupervised one that the common subspace
    // F did not reach) sits the discovery out: the means are over those that took part (all,
    // if none did).
    return !m_record.sittingOut[i] ||
           std::find(m_record.sittingOut.begin(), m_record.sittingOut.end(), false) ==
               m_record.sittingOut.end();
}

double
D2dGraphDiscoveryHelper::MeanLabelW1() const
{
    const uint32_t n = m_record.sittingOut.size();
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        m += Counted(i) ? 1 : 0;
    }
    double w = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (Counted(i))
        {
            w += D2dDiversityRewards::DistanceToUniform(m_paradigm->GetLabelCounts(i)) / m;
        }
    }
    return w;
}

void
D2dGraphDiscoveryHelper::Prepared()
{
    const uint32_t n = m_paradigm->GetNDevices();
    m_record.sittingOut.assign(n, false);
    m_record.labelsBefore.clear();
    m_record.satisfiedBefore.clear();
    for (uint32_t i = 0; i < n; ++i)
    {
        m_record.sittingOut[i] = !m_paradigm->TakesPart(i);
        m_record.labelsBefore.push_back(m_paradigm->GetLabelCounts(i));
        m_record.satisfiedBefore.push_back(m_paradigm->Satisfied(i));
    }
    auto semi = DynamicCast<D2dSemiSupervisedParadigm>(m_paradigm);
    auto unsup = DynamicCast<D2dUnsupervisedParadigm>(m_paradigm);
    if (semi || unsup)
    {
        m_record.prepEndS = Simulator::Now().GetSeconds();
        m_traces
            ->CloseEnergyPeriods(); // energy.csv up to m_record.prepEndS holds m_record.prepD2sJ
        m_record.prepD2sJ = m_record.d2sJ;
    }
    if (semi)
    {
        const bool mlp = semi->GetLabeller() == D2dSemiSupervisedParadigm::MLP;
        for (uint32_t i = 0; i < n; ++i)
        {
            const auto& marks = semi->GetLabelled(i);
            m_record.labelAccuracy += semi->GetAccuracy(i) / n;
            m_record.unlabelledAccuracy += semi->GetUnlabelledAccuracy(i) / n;
            *m_labellingCsv << fmt::format("{},{},{},{:.9g},{:.9g},{},{},{:.9f}\n",
                                           i,
                                           semi->GetAssigned(i).size(),
                                           std::count(marks.begin(), marks.end(), true),
                                           semi->GetAccuracy(i),
                                           semi->GetUnlabelledAccuracy(i),
                                           semi->GetIterations(i),
                                           semi->GetAssigned(i).empty()  ? "none"
                                           : mlp                         ? "raw"
                                           : semi->UsedCommonSubspace(i) ? "common"
                                                                         : "local",
                                           m_record.prepEndS);
        }
        if (!m_quiet)
        {
            std::fprintf(stderr,
                         mlp ? "graph-discovery: local MLPs labelled the points at %.3f s, "
                               "accuracy %.4f (unlabelled %.4f)\n"
                             : "graph-discovery: distributed PCA done at %.3f s; labels "
                               "propagated, accuracy %.4f (unlabelled %.4f)\n",
                         m_record.prepEndS,
                         m_record.labelAccuracy,
                         m_record.unlabelledAccuracy);
        }
    }
    if (unsup)
    {
        m_record.w1PerEdge.push_back(MeanLabelW1());
        if (!m_quiet)
        {
            const auto out =
                std::count(m_record.sittingOut.begin(), m_record.sittingOut.end(), true);
            std::fprintf(stderr,
                         "graph-discovery: distributed PCA (%llu bytes) done at %.3f s; K-means "
                         "done; %ld device(s) missed the subspace F and sit the discovery out\n",
                         static_cast<unsigned long long>(unsup->GetPcaExchange()->GetBytesSent()),
                         m_record.prepEndS,
                         static_cast<long>(out));
        }
    }
    Simulator::ScheduleNow(&D2dGraphDiscovery::Start, m_gd);
}

bool
D2dGraphDiscoveryHelper::Run(const D2dScenarioSupport& support,
                             D2dLearningOptions& learning,
                             Time maxSimTime)
{
    m_support = &support;
    m_data.train = learning.train;
    m_data.partitions = m_partData;
    m_data.shards = learning.shards;
    m_data.seed = m_seed;
    // --threads for the discovery's own computations (the distributed PCA's SVDs, the MLP
    // labellers, the unsupervised draws and eq. (17)): without this the workers kept their
    // default of 2 until the downstream learning's Configure, and --downstream=none never set
    // them.
    D2dTorchRuntime::SetWorkers(learning.training.threads);
    // The preparation schedules what takes simulated time (the distributed PCA's messages,
    // the MLP labellers' jobs); the discovery starts when it calls back.
    m_paradigm->Prepare(m_data, MakeCallback(&D2dGraphDiscoveryHelper::Prepared, this));
    Simulator::Stop(maxSimTime);
    Simulator::Run();
    // Labeller jobs still queued did not happen (D2dTorchRuntime's lifetime rule); the
    // downstream learning starts the workers again (D2dLearningOptions::Configure).
    D2dTorchRuntime::Shutdown();
    if (m_traces && !m_traces->GetWriteError().empty())
    {
        return false; // a full disk stopped the run: the traces say so, not the discovery
    }
    if (!m_gd->IsFinished())
    {
        support.Fail("discovery did not finish before --maxSimTime=" +
                     std::to_string(maxSimTime.GetSeconds()) + " s");
    }
    m_record.discoveryEndS = Simulator::Now().GetSeconds();
    const uint32_t n = m_paradigm->GetNDevices();
    std::vector<uint32_t> minLabels(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        minLabels[i] = m_paradigm->GetMinLabels(i);
    }
    m_writer->WriteFinal(m_gd, m_links, m_devices, minLabels, m_record.satisfiedBefore);
    m_traces->CloseEnergyPeriods();
    *m_energyCsv << fmt::format("0,{:.9f},{:.9g},{:.9g},{:.9g},{:.9g},\n",
                                m_record.discoveryEndS,
                                m_record.d2dJ,
                                m_record.d2sJ,
                                m_record.computeJ,
                                m_record.d2dJ + m_record.d2sJ + m_record.computeJ);

    // The exchange's outcome: bias left, links' P_D, delivered fraction.
    uint32_t partaking = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        partaking += Counted(i) ? 1 : 0;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (Counted(i))
        {
            m_record.w1Before +=
                D2dDiversityRewards::DistanceToUniform(m_record.labelsBefore[i]) / partaking;
            m_record.w1After +=
                D2dDiversityRewards::DistanceToUniform(m_paradigm->GetLabelCounts(i)) / partaking;
        }
    }
    if (auto unsup = DynamicCast<D2dUnsupervisedParadigm>(m_paradigm))
    {
        // Which devices took part, in the common subspace or not at all (F missed).
        auto& subspaceCsv = m_traces->OpenTrace(
            "gd_subspace.csv",
            "device,points_before,points_after,subspace,kmeans_iterations,label_w1_before,"
            "label_w1_after,pca_end_s");
        for (uint32_t i = 0; i < n; ++i)
        {
            const auto& before = m_record.labelsBefore[i];
            subspaceCsv << fmt::format(
                "{},{},{},{},{},{:.9g},{:.9g},{:.9f}\n",
                i,
                before.empty() ? 0.0 : std::accumulate(before.begin(), before.end(), 0.0),
                unsup->GetLabels(i).size(),
                m_record.sittingOut[i] ? "none" : "common",
                unsup->GetKMeansIterations(i),
                D2dDiversityRewards::DistanceToUniform(before),
                D2dDiversityRewards::DistanceToUniform(unsup->GetLabelCounts(i)),
                m_record.prepEndS);
        }
    }
    for (const auto& g : m_gd->GetGraphs())
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (g[i] >= 0)
            {
                m_record.pDropSum += m_links->GetDropProbability(i, g[i]);
                ++m_record.edgesFound;
            }
        }
    }
    for (const auto& link : m_gd->GetLinks())
    {
        for (std::size_t l = 0; l < link.allocated.size(); ++l)
        {
            m_record.pointsSent += link.allocated[l];
            m_record.pointsReceived += link.received[l];
        }
    }
    if (!m_quiet)
    {
        std::fprintf(stderr,
                     "graph-discovery: %s graph, mean W1 to uniform %.4f -> %.4f, mean link P_D "
                     "%.4f, %.0f of %.0f points delivered, RL energy %.3f J\n",
                     GetGraphName().c_str(),
                     m_record.w1Before,
                     m_record.w1After,
                     m_record.edgesFound ? m_record.pDropSum / m_record.edgesFound
                                         : std::numeric_limits<double>::quiet_NaN(),
                     m_record.pointsReceived,
                     m_record.pointsSent,
                     m_record.rlEnergyJ);
    }
    return true;
}

void
D2dGraphDiscoveryHelper::ApplyExchange(const D2dScenarioSupport& support,
                                       D2dLearningOptions& learning)
{
    if (auto unsup = DynamicCast<D2dUnsupervisedParadigm>(m_paradigm))
    {
        unsup->MoveShards(learning.shards);
        m_record.moved = static_cast<uint64_t>(m_record.pointsReceived + 0.5);
        return;
    }
    try
    {
        m_record.moved = D2dShardExchange::Apply(*m_partData, learning.shards, m_gd->GetLinks());
    }
    catch (const std::exception& e)
    {
        support.Fail(e.what());
    }
}

void
D2dGraphDiscoveryHelper::RoundEnd(uint32_t round, double accuracy, double)
{
    // The open periods closed: a Wi-Fi radio's idle draw is open at any time.
    m_traces->CloseEnergyPeriods();
    *m_energyCsv << fmt::format("{},{:.9f},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                                round,
                                Simulator::Now().GetSeconds(),
                                m_record.d2dJ,
                                m_record.d2sJ,
                                m_record.computeJ,
                                m_record.d2dJ + m_record.d2sJ + m_record.computeJ,
                                accuracy);
    for (std::size_t k = 0; k < m_targets.size(); ++k)
    {
        if (m_reached[k].round < 0 && accuracy >= m_targets[k])
        {
            m_reached[k] = {round, m_record.d2dJ, m_record.d2sJ, m_record.computeJ};
        }
    }
}

void
D2dGraphDiscoveryHelper::ConnectRounds(Ptr<D2dFlProtocol> protocol)
{
    m_downstreamRan = true;
    m_reached.assign(m_targets.size(), Reached{});
    protocol->TraceConnectWithoutContext("RoundEnd",
                                         MakeCallback(&D2dGraphDiscoveryHelper::RoundEnd, this));
}

void
D2dGraphDiscoveryHelper::Record(D2dTraceHelper& traces) const
{
    traces.AddAttributes(m_gd);
    traces.AddAttributes(m_paradigm);
    if (auto supervised = DynamicCast<D2dSupervisedParadigm>(m_paradigm))
    {
        traces.AddParameter("trustDensityMeasured", supervised->GetTrust().Density());
        std::vector<uint32_t> lhat;
        for (uint32_t i = 0; i < supervised->GetNDevices(); ++i)
        {
            lhat.push_back(supervised->GetMinLabels(i));
        }
        traces.AddParameterArray("minLabelsPerDevice", lhat);
    }
    traces.AddResult("gdMeanW1ToUniformBefore", m_record.w1Before);
    traces.AddResult("gdMeanW1ToUniformAfter", m_record.w1After);
    // A mean over no link and a fraction of no datapoint are undefined: null.
    const double undefined = std::numeric_limits<double>::quiet_NaN();
    traces.AddResult("gdMeanLinkPDrop",
                     m_record.edgesFound ? m_record.pDropSum / m_record.edgesFound : undefined);
    traces.AddResult("gdEdgesFound", m_record.edgesFound);
    traces.AddResult("gdPointsSent", m_record.pointsSent);
    traces.AddResult("gdPointsReceived", m_record.pointsReceived);
    traces.AddResult("gdPointsMoved", m_record.moved);
    traces.AddResult("gdDeliveredFraction",
                     m_record.pointsSent > 0 ? m_record.pointsReceived / m_record.pointsSent
                                             : undefined);
    traces.AddResult("gdRlEnergyJ", m_record.rlEnergyJ);
    traces.AddResult("gdExchangeEnergyJ", m_record.exchangeEnergyJ);
    traces.AddResult("gdDiscoveryEndS", m_record.discoveryEndS);
    const auto n = static_cast<uint32_t>(m_record.sittingOut.size());
    const auto out = static_cast<uint32_t>(
        std::count(m_record.sittingOut.begin(), m_record.sittingOut.end(), true));
    if (auto unsup = DynamicCast<D2dUnsupervisedParadigm>(m_paradigm))
    {
        traces.AddResult("gdPcaBytes", unsup->GetPcaExchange()->GetBytesSent());
        traces.AddResult("gdPcaEndS", m_record.prepEndS);
        traces.AddResult("gdPcaD2sEnergyJ", m_record.prepD2sJ);
        traces.AddResultArray("gdMeanW1ToUniformPerEdge", m_record.w1PerEdge);
        traces.AddResult("gdPcaSketchesReceived", unsup->GetPcaExchange()->GetSketchesReceived());
        traces.AddResult("gdPcaSubspaceMissed", out);
        traces.AddResult("gdDevicesTakingPart", n - out);
    }
    PointerValue scorer;
    m_gd->GetAttribute("LinkScorer", scorer);
    if (auto gcn = DynamicCast<D2dGcnGraphScorer>(scorer.Get<Object>()))
    {
        const auto& r = gcn->GetResult();
        traces.AddResult("gdGcnSystems", r.systems);
        traces.AddResult("gdGcnLossBefore", r.losses.front());
        traces.AddResult("gdGcnLossAfter", r.losses.back());
        traces.AddResult("gdGcnBestLinkAgreement", r.bestLinkAgreement);
    }
    if (m_partData != m_data.train)
    {
        traces.AddParameter("gdRegressionPartitions", m_partData->numClasses);
    }
    if (auto semi = DynamicCast<D2dSemiSupervisedParadigm>(m_paradigm))
    {
        if (auto pca = semi->GetPcaExchange())
        {
            traces.AddResult("gdPcaBytes", pca->GetBytesSent());
            traces.AddResult("gdPcaSketchesReceived", pca->GetSketchesReceived());
            traces.AddResult("gdPcaEndS", m_record.prepEndS);
            traces.AddResult("gdPcaD2sEnergyJ", m_record.prepD2sJ);
        }
        else
        {
            traces.AddResult("gdLabellingEndS", m_record.prepEndS); // mlp: no PCA
        }
        traces.AddResult("gdLabellingMeanAccuracy", m_record.labelAccuracy);
        traces.AddResult("gdLabellingMeanUnlabelledAccuracy", m_record.unlabelledAccuracy);
    }
    if (!m_downstreamRan)
    {
        return;
    }
    std::string json = "[";
    for (std::size_t k = 0; k < m_targets.size(); ++k)
    {
        const auto& r = m_reached[k];
        json += (k ? ", " : "") +
                (r.round < 0 ? fmt::format("{{\"target\": {:.9g}, \"round\": null}}", m_targets[k])
                             : fmt::format("{{\"target\": {:.9g}, \"round\": {}, "
                                           "\"energyJ\": {:.9g}, \"d2dJ\": {:.9g}, "
                                           "\"d2sJ\": {:.9g}, \"computeJ\": {:.9g}}}",
                                           m_targets[k],
                                           r.round,
                                           r.d2d + r.d2s + r.compute,
                                           r.d2d,
                                           r.d2s,
                                           r.compute));
    }
    traces.AddResultJson("targetsReached", json + "]");
}

} // namespace ns3
