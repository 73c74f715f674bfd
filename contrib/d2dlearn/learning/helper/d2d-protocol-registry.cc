/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-protocol-registry.h"

#include "ns3/abort.h"
#include "ns3/d2d-aggregation-strategy.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-json.h"
#include "ns3/d2d-text.h"
#include "ns3/string.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

// The programs that offer a protocol (their flag: graph-discovery's --downstream, the
// others' --algorithm).
const std::vector<std::string> FEDAVG_PROGRAMS{"fedavg", "cmfl", "consensus", "graph-discovery"};
const std::vector<std::string> SERVER_VARIANTS{"fedavg", "consensus", "graph-discovery"};
const std::vector<std::string> GRAPH_PROGRAMS{"fedavg", "graph-discovery"};

/**
 * The protocols. The order is the legend and table order of every figure, and the order in
 * which each program lists its choices.
 */
std::vector<D2dProtocolEntry>&
Protocols()
{
    static std::vector<D2dProtocolEntry> table{
        {"cmfl-1",
         "ns3::D2dCmfl",
         "CMFL-I",
         "Che, Li, Chen, He, Zheng, \"A Decentralized Federated Learning Framework via Committee "
         "Mechanism with Convergence Guarantee\", IEEE TPDS 2022 (selection strategy I)",
         {{"Strategy", "1"}},
         "",
         {"cmfl"}},
        {"cmfl-2",
         "ns3::D2dCmfl",
         "CMFL-II",
         "Che et al. 2022 (selection strategy II)",
         {{"Strategy", "2"}},
         "",
         {"cmfl"}},
        {"fedavg",
         "ns3::D2dFedAvg",
         "FedAvg",
         "McMahan, Moore, Ramage, Hampson, Aguera y Arcas, \"Communication-Efficient Learning "
         "of Deep Networks from Decentralized Data\", AISTATS 2017",
         {{"Variant", "fedavg"}},
         "",
         FEDAVG_PROGRAMS},
        {"fedprox",
         "ns3::D2dFedAvg",
         "FedProx",
         "Li, Sahu, Zaheer, Sanjabi, Talwalkar, Smith, \"Federated Optimization in "
         "Heterogeneous Networks\", MLSys 2020",
         {{"Variant", "fedprox"}},
         "",
         SERVER_VARIANTS},
        {"fedsgd",
         "ns3::D2dFedAvg",
         "FedSGD",
         "McMahan et al. 2017 (one gradient per client and round)",
         {{"Variant", "fedsgd"}},
         "",
         GRAPH_PROGRAMS},
        {"fedasync",
         "ns3::D2dFedAsync",
         "FedAsync",
         "Xie, Koyejo, Gupta, \"Asynchronous Federated Optimization\", arXiv 1903.03934, 2019",
         {},
         "",
         {"fedavg"}},
        {"fedbuff",
         "ns3::D2dFedBuff",
         "FedBuff",
         "Nguyen, Malik, Zhan, Yousefpour, Rabbat, Malek, Huba, \"Federated Learning with "
         "Buffered Asynchronous Aggregation\", AISTATS 2022",
         {},
         "",
         {"fedavg"}},
        {"median",
         "ns3::D2dFedAvg",
         "Median",
         "Yin, Chen, Ramchandran, Bartlett, \"Byzantine-Robust Distributed Learning: Towards "
         "Optimal Statistical Rates\", ICML 2018 (coordinate-wise median)",
         {},
         "median",
         {"cmfl"}},
        {"trimmed-mean",
         "ns3::D2dFedAvg",
         "Trimmed Mean",
         "Yin et al. 2018 (coordinate-wise trimmed mean)",
         {},
         "trimmed-mean",
         {"cmfl"}},
        {"krum",
         "ns3::D2dFedAvg",
         "Krum",
         "Blanchard, El Mhamdi, Guerraoui, Stainer, \"Machine Learning with Adversaries: "
         "Byzantine Tolerant Gradient Descent\", NeurIPS 2017",
         {},
         "krum",
         {"cmfl"}},
        {"multi-krum",
         "ns3::D2dFedAvg",
         "Multi-Krum",
         "Blanchard et al. 2017 (Multi-Krum)",
         {},
         "multi-krum",
         {"cmfl"}},
        {"braintorrent",
         "ns3::D2dBrainTorrent",
         "BrainTorrent",
         "Roy, Siddiqui, Pölsterl, Navab, Wachinger, \"BrainTorrent: A Peer-to-Peer "
         "Environment for Decentralized Federated Learning\", arXiv 1905.06731, 2019",
         {},
         "",
         {"cmfl"}},
        {"gossipfl",
         "ns3::D2dSegmentedGossip",
         "GossipFL",
         "Hu, Jiang, Wang, \"Decentralized Federated Learning: A Segmented Gossip Approach\", "
         "arXiv 1908.07782, 2019",
         {},
         "",
         {"cmfl"}},
        {"decentralized",
         "ns3::D2dDecentralizedFl",
         "Decentralized",
         "Wagle, Das, Love, Brinton, \"Multi-Agent Reinforcement Learning for Graph Discovery "
         "in D2D-Enabled Federated Learning\", 2025, sec. VI-E (fully decentralized FL)",
         {},
         "",
         GRAPH_PROGRAMS},
        {"semi-decentralized",
         "ns3::D2dSemiDecentralizedFl",
         "Semi-decentralized",
         "Wagle et al. 2025, sec. VI-E (D2D groups, one device per group to the server)",
         {},
         "",
         GRAPH_PROGRAMS},
        {"local",
         "ns3::D2dLocalTraining",
         "Local",
         "no collaboration (Fan, Mendler-Dünner, Jaggi 2023, sec. 5.2's local training)",
         {},
         "",
         {"fedavg", "consensus"}},
        {"consensus",
         "ns3::D2dPredictionConsensus",
         "Consensus",
         "Fan, Mendler-Dünner, Jaggi, \"Collaborative Learning via Prediction Consensus\", "
         "NeurIPS 2023 (Algorithm 1)",
         {},
         "",
         {"consensus"}},
    };
    return table;
}

/** The FedAvg server's aggregation rules. */
const std::vector<D2dAggregationEntry>&
Aggregations()
{
    static const std::vector<D2dAggregationEntry> table{
        {"mean", "ns3::D2dMeanAggregation", "Mean", "McMahan et al. 2017 (the n_k-weighted mean)"},
        {"median", "ns3::D2dMedianAggregation", "Median", "Yin et al. 2018"},
        {"trimmed-mean", "ns3::D2dTrimmedMeanAggregation", "Trimmed Mean", "Yin et al. 2018"},
        {"krum", "ns3::D2dKrumAggregation", "Krum", "Blanchard et al. 2017"},
        {"multi-krum", "ns3::D2dMultiKrumAggregation", "Multi-Krum", "Blanchard et al. 2017"},
    };
    return table;
}

template <class Entry>
std::vector<std::string>
NamesOf(const std::vector<Entry>& table)
{
    std::vector<std::string> names;
    names.reserve(table.size());
    for (const auto& e : table)
    {
        names.push_back(e.name);
    }
    return names;
}

template <class Entry>
const Entry&
Find(const std::vector<Entry>& table, const std::string& name, const std::string& what)
{
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const Entry& e) { return e.name == name; });
    if (it == table.end())
    {
        throw std::invalid_argument("no " + what + " " + name + " (" +
                                    D2dText::OrList(NamesOf(table)) + ")");
    }
    return *it;
}

/** \return items as a JSON array of strings (D2dJson::String each) \param items the strings */
std::string
QuoteList(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        out += (i ? ", " : "") + D2dJson::String(items[i]);
    }
    return out + "]";
}

} // namespace

const std::vector<D2dProtocolEntry>&
D2dProtocolRegistry::GetProtocols()
{
    return Protocols();
}

void
D2dProtocolRegistry::Register(D2dProtocolEntry entry)
{
    NS_ABORT_MSG_IF(entry.name.empty() || entry.typeName.empty(),
                    "D2dProtocolRegistry::Register: an entry needs a name and a class");
    for (const auto& e : Protocols())
    {
        NS_ABORT_MSG_IF(e.name == entry.name,
                        "D2dProtocolRegistry::Register: a protocol " << entry.name
                                                                     << " exists already");
    }
    Protocols().push_back(std::move(entry));
}

const std::vector<D2dAggregationEntry>&
D2dProtocolRegistry::GetAggregations()
{
    return Aggregations();
}

const D2dProtocolEntry&
D2dProtocolRegistry::GetProtocol(const std::string& name)
{
    return Find(Protocols(), name, "protocol");
}

const D2dAggregationEntry&
D2dProtocolRegistry::GetAggregation(const std::string& name)
{
    return Find(Aggregations(), name, "aggregation rule");
}

std::vector<std::string>
D2dProtocolRegistry::ForProgram(const std::string& program)
{
    std::vector<std::string> names;
    for (const auto& e : Protocols())
    {
        if (std::find(e.programs.begin(), e.programs.end(), program) != e.programs.end())
        {
            names.push_back(e.name);
        }
    }
    return names;
}

std::vector<std::string>
D2dProtocolRegistry::GetAggregationNames()
{
    return NamesOf(Aggregations());
}

ObjectFactory
D2dProtocolRegistry::GetFactory(const std::string& name)
{
    const D2dProtocolEntry& entry = GetProtocol(name);
    ObjectFactory factory;
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(entry.typeName, &tid),
                        "D2dProtocolRegistry: protocol " << name << ": no class "
                                                         << entry.typeName);
    factory.SetTypeId(tid);
    for (const auto& [attribute, value] : GetAttributes(name))
    {
        factory.Set(attribute, StringValue(value)); // aborts naming an unknown attribute
    }
    return factory;
}

std::vector<std::pair<std::string, std::string>>
D2dProtocolRegistry::GetAttributes(const std::string& name)
{
    const D2dProtocolEntry& entry = GetProtocol(name);
    auto attributes = entry.presets;
    if (!entry.aggregation.empty())
    {
        // A class name, not an object: each protocol made gets a strategy of its own.
        attributes.emplace_back("Aggregation", GetAggregation(entry.aggregation).typeName);
    }
    return attributes;
}

Ptr<D2dAggregationStrategy>
D2dProtocolRegistry::CreateAggregation(const std::string& name)
{
    return ObjectFactory(GetAggregation(name).typeName).Create<D2dAggregationStrategy>();
}

D2dProtocolTraits
D2dProtocolRegistry::GetTraits(const std::string& name, const std::string& aggregation)
{
    ObjectFactory factory = GetFactory(name);
    TypeId::AttributeInformation info;
    if (!aggregation.empty() && factory.GetTypeId().LookupAttributeByName("Aggregation", &info))
    {
        factory.Set("Aggregation", StringValue(GetAggregation(aggregation).typeName));
    }
    D2dProtocolTraits traits;
    auto probe = factory.Create<D2dFlProtocol>();
    NS_ABORT_MSG_UNLESS(probe,
                        "D2dProtocolRegistry: protocol " << name << ": "
                                                         << GetProtocol(name).typeName
                                                         << " is not a D2dFlProtocol");
    traits.usesD2d = probe->UsesD2d();
    traits.usesD2s = probe->UsesD2s();
    traits.minDevices = probe->GetMinDevices();
    traits.averagesModels = probe->AveragesModels();
    traits.sendsGradients = probe->SendsGradients();
    traits.madeTypes.push_back(factory.GetTypeId().GetName());
    for (const TypeId& part : probe->GetPartTypeIds())
    {
        traits.madeTypes.push_back(part.GetName());
    }
    traits.unreadAttributes = probe->GetUnreadAttributes();
    probe->Dispose();
    std::set<std::string> seen;
    for (TypeId tid = factory.GetTypeId();; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            const std::string source = tid.GetTraceSource(i).name;
            if (seen.insert(source).second)
            {
                traits.traceSources.push_back(source);
            }
        }
        if (tid == tid.GetParent())
        {
            break;
        }
    }
    return traits;
}

void
D2dProtocolRegistry::PrintJson(std::ostream& os)
{
    os << "{\n  \"protocols\": [\n";
    const auto& protocols = Protocols();
    for (std::size_t i = 0; i < protocols.size(); ++i)
    {
        const auto& e = protocols[i];
        const D2dProtocolTraits traits = GetTraits(e.name);
        os << "    {\"name\": " << D2dJson::String(e.name)
           << ", \"class\": " << D2dJson::String(e.typeName)
           << ", \"label\": " << D2dJson::String(e.label)
           << ",\n     \"reference\": " << D2dJson::String(e.reference) << ",\n     \"presets\": {";
        for (std::size_t k = 0; k < e.presets.size(); ++k)
        {
            os << (k ? ", " : "") << D2dJson::String(e.presets[k].first) << ": "
               << D2dJson::String(e.presets[k].second);
        }
        os << "}, \"aggregation\": " << D2dJson::String(e.aggregation)
           << ", \"programs\": " << QuoteList(e.programs)
           << ",\n     \"usesD2d\": " << (traits.usesD2d ? "true" : "false")
           << ", \"usesD2s\": " << (traits.usesD2s ? "true" : "false")
           << ", \"minDevices\": " << traits.minDevices
           << ", \"averagesModels\": " << (traits.averagesModels ? "true" : "false")
           << ", \"sendsGradients\": " << (traits.sendsGradients ? "true" : "false")
           << ",\n     \"traceSources\": " << QuoteList(traits.traceSources) << "}"
           << (i + 1 < protocols.size() ? "," : "") << "\n";
    }
    os << "  ],\n  \"aggregations\": [\n";
    const auto& rules = Aggregations();
    for (std::size_t i = 0; i < rules.size(); ++i)
    {
        const auto& r = rules[i];
        os << "    {\"name\": " << D2dJson::String(r.name)
           << ", \"class\": " << D2dJson::String(r.typeName)
           << ", \"label\": " << D2dJson::String(r.label)
           << ", \"reference\": " << D2dJson::String(r.reference) << "}"
           << (i + 1 < rules.size() ? "," : "") << "\n";
    }
    os << "  ]\n}\n";
}

} // namespace ns3
