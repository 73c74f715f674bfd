/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * D2dProtocolRegistry: the one table of protocol and aggregation-rule names. Each entry
 * makes the class it names with the attributes that make it that protocol; each program
 * offers the protocols it offered before the registry, in the same set; the traits are the
 * classes' own.
 */
#include "ns3/config.h"
#include "ns3/d2d-aggregation-strategy.h"
#include "ns3/d2d-cmfl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-protocol-choice.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/** \return the value of attribute name of object o, as its string */
std::string
AttributeString(Ptr<Object> o, const std::string& name)
{
    TypeId::AttributeInformation info;
    EXPECT_TRUE(o->GetInstanceTypeId().LookupAttributeByName(name, &info)) << name;
    Ptr<AttributeValue> value = info.checker->Create();
    o->GetAttribute(name, *value);
    return value->SerializeToString(info.checker);
}

} // namespace

// Every entry: a unique name, a D2dFlProtocol class with a constructor, and a factory that
// sets its presets (read back from the object made).
TEST(D2dProtocolRegistry, EveryEntryMakesItsClassWithItsPresets)
{
    std::set<std::string> names;
    for (const auto& e : D2dProtocolRegistry::GetProtocols())
    {
        EXPECT_TRUE(names.insert(e.name).second) << "duplicate " << e.name;
        EXPECT_FALSE(e.label.empty()) << e.name;
        EXPECT_FALSE(e.reference.empty()) << e.name;
        EXPECT_FALSE(e.programs.empty()) << e.name;
        TypeId tid;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(e.typeName, &tid)) << e.name;
        EXPECT_TRUE(tid.IsChildOf(D2dFlProtocol::GetTypeId())) << e.name;
        EXPECT_TRUE(tid.HasConstructor()) << e.name;
        auto p = D2dProtocolRegistry::GetFactory(e.name).Create<D2dFlProtocol>();
        ASSERT_TRUE(p) << e.name;
        EXPECT_EQ(p->GetInstanceTypeId().GetName(), e.typeName);
        for (const auto& [attribute, value] : e.presets)
        {
            EXPECT_EQ(AttributeString(p, attribute), value) << e.name << " " << attribute;
        }
        p->Dispose();
    }
    EXPECT_EQ(names.size(), 17u); // the library's protocols
}

// What the scenarios offer: what they offered before the registry, value for value, and
// since then FedAsync and FedBuff in fedavg (the order is the table's: the legend order of
// the figures).
TEST(D2dProtocolRegistry, EachProgramOffersItsProtocols)
{
    using Names = std::vector<std::string>;
    EXPECT_EQ(D2dProtocolRegistry::ForProgram("fedavg"),
              (Names{"fedavg",
                     "fedprox",
                     "fedsgd",
                     "fedasync",
                     "fedbuff",
                     "decentralized",
                     "semi-decentralized",
                     "local"}));
    EXPECT_EQ(D2dProtocolRegistry::ForProgram("cmfl"),
              (Names{"cmfl-1",
                     "cmfl-2",
                     "fedavg",
                     "median",
                     "trimmed-mean",
                     "krum",
                     "multi-krum",
                     "braintorrent",
                     "gossipfl"}));
    EXPECT_EQ(D2dProtocolRegistry::ForProgram("consensus"),
              (Names{"fedavg", "fedprox", "local", "consensus"}));
    EXPECT_EQ(D2dProtocolRegistry::ForProgram("graph-discovery"),
              (Names{"fedavg", "fedprox", "fedsgd", "decentralized", "semi-decentralized"}));
    EXPECT_TRUE(D2dProtocolRegistry::ForProgram("d2d-exchange").empty());
}

// The presets that make a class a protocol: FedProx is FedAvg with Variant=fedprox,
// CMFL-II is CMFL with strategy 2, Krum is FedAvg whose server aggregates with Krum.
TEST(D2dProtocolRegistry, PresetsMakeTheVariants)
{
    auto fedprox = D2dProtocolRegistry::GetFactory("fedprox").Create<D2dFedAvg>();
    ASSERT_TRUE(fedprox);
    EXPECT_EQ(AttributeString(fedprox, "Variant"), "fedprox");
    auto cmfl2 = D2dProtocolRegistry::GetFactory("cmfl-2").Create<D2dCmfl>();
    ASSERT_TRUE(cmfl2);
    EXPECT_EQ(AttributeString(cmfl2, "Strategy"), "2");
    const ObjectFactory krumFactory = D2dProtocolRegistry::GetFactory("krum");
    auto krum1 = krumFactory.Create<D2dFedAvg>();
    auto krum2 = krumFactory.Create<D2dFedAvg>();
    PointerValue r1;
    PointerValue r2;
    krum1->GetAttribute("Aggregation", r1);
    krum2->GetAttribute("Aggregation", r2);
    ASSERT_TRUE(r1.Get<D2dAggregationStrategy>());
    EXPECT_EQ(r1.Get<D2dAggregationStrategy>()->GetInstanceTypeId().GetName(),
              "ns3::D2dKrumAggregation");
    // Each protocol made gets a rule object of its own.
    EXPECT_NE(r1.Get<D2dAggregationStrategy>(), r2.Get<D2dAggregationStrategy>());
    auto fedavg = D2dProtocolRegistry::GetFactory("fedavg").Create<D2dFedAvg>();
    PointerValue mean;
    fedavg->GetAttribute("Aggregation", mean);
    EXPECT_EQ(mean.Get<D2dAggregationStrategy>()->GetInstanceTypeId().GetName(),
              "ns3::D2dMeanAggregation");
    for (auto p : {Ptr<D2dFlProtocol>(fedprox),
                   Ptr<D2dFlProtocol>(cmfl2),
                   Ptr<D2dFlProtocol>(krum1),
                   Ptr<D2dFlProtocol>(krum2),
                   Ptr<D2dFlProtocol>(fedavg)})
    {
        p->Dispose();
    }
}

// The aggregation rules by name (the fedavg scenario's --aggregation), and the one-line
// error naming the accepted names.
TEST(D2dProtocolRegistry, AggregationRulesByName)
{
    const std::vector<std::pair<std::string, std::string>> expected{
        {"mean", "ns3::D2dMeanAggregation"},
        {"median", "ns3::D2dMedianAggregation"},
        {"trimmed-mean", "ns3::D2dTrimmedMeanAggregation"},
        {"krum", "ns3::D2dKrumAggregation"},
        {"multi-krum", "ns3::D2dMultiKrumAggregation"}};
    std::vector<std::string> names;
    for (const auto& [rule, type] : expected)
    {
        names.push_back(rule);
        auto strategy = D2dProtocolRegistry::CreateAggregation(rule);
        ASSERT_TRUE(strategy) << rule;
        EXPECT_EQ(strategy->GetInstanceTypeId().GetName(), type) << rule;
    }
    EXPECT_EQ(D2dProtocolRegistry::GetAggregationNames(), names);
    try
    {
        D2dProtocolRegistry::CreateAggregation("Median");
        ADD_FAILURE() << "Median accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "no aggregation rule Median (mean, median, trimmed-mean, krum or multi-krum)");
    }
    EXPECT_THROW(D2dProtocolRegistry::GetProtocol("gossip"), std::invalid_argument);
    EXPECT_THROW(D2dProtocolRegistry::GetProtocol("semi"), std::invalid_argument);
}

// Traits come from the classes: the links each uses, its trace sources (parents' too).
TEST(D2dProtocolRegistry, TraitsAreTheClassesOwn)
{
    struct Expect
    {
        const char* name;
        bool d2d;
        bool d2s;
    };

    for (const Expect& e : {Expect{"fedavg", false, true},
                            Expect{"krum", false, true},
                            Expect{"decentralized", true, false},
                            Expect{"semi-decentralized", true, true},
                            Expect{"local", false, false},
                            Expect{"cmfl-1", true, false},
                            Expect{"braintorrent", true, false},
                            Expect{"gossipfl", true, false},
                            Expect{"consensus", true, false}})
    {
        const D2dProtocolTraits t = D2dProtocolRegistry::GetTraits(e.name);
        EXPECT_EQ(t.usesD2d, e.d2d) << e.name;
        EXPECT_EQ(t.usesD2s, e.d2s) << e.name;
        EXPECT_NE(std::find(t.traceSources.begin(), t.traceSources.end(), "RoundEnd"),
                  t.traceSources.end())
            << e.name;
    }
    // What a scenario asks instead of a name: the fewest devices, one architecture, gradients.
    for (const auto& name : D2dProtocolRegistry::ForProgram("fedavg"))
    {
        const D2dProtocolTraits t = D2dProtocolRegistry::GetTraits(name);
        const bool local = name == "local";
        EXPECT_EQ(t.minDevices, local ? 1u : 2u) << name;
        EXPECT_EQ(t.averagesModels, !local) << name;
        EXPECT_EQ(t.sendsGradients, name == "fedsgd") << name; // FedAvg's Variant preset
    }
    const D2dProtocolChoice choice("algorithm", "fedavg");
    EXPECT_EQ(choice.Having([](const D2dProtocolTraits& t) { return !t.averagesModels; }),
              "--algorithm=local");
    EXPECT_EQ(choice.Having([](const D2dProtocolTraits& t) { return t.sendsGradients; }),
              "--algorithm=fedsgd");
    const auto dec = D2dProtocolRegistry::GetTraits("decentralized").traceSources;
    EXPECT_NE(std::find(dec.begin(), dec.end(), "Averaged"), dec.end());

    const D2dProtocolChoice fedavg("algorithm", "fedavg");
    const D2dTraffic traffic = fedavg.GetTraffic("decentralized");
    EXPECT_TRUE(traffic.d2d);
    EXPECT_FALSE(traffic.d2s);
    EXPECT_EQ(traffic.chosen, "--algorithm=decentralized");
    EXPECT_EQ(traffic.d2dUsers, "--algorithm=decentralized or semi-decentralized");
    EXPECT_EQ(traffic.d2sUsers,
              "--algorithm=fedavg, fedprox, fedsgd, fedasync, fedbuff or semi-decentralized");
    EXPECT_TRUE(fedavg.IsA("fedsgd", D2dFedAvg::GetTypeId()));
    EXPECT_TRUE(fedavg.IsA("fedsgd", D2dFlProtocol::GetTypeId()));
    EXPECT_FALSE(fedavg.IsA("local", D2dFedAvg::GetTypeId()));
}

// The JSON the analysis reads: every protocol and rule, in the table's order.
TEST(D2dProtocolRegistry, TraitsSayWhatTheProtocolMakesAndReads)
{
    using Names = std::vector<std::string>;

    struct Expect
    {
        const char* name;
        const char* aggregation; // "" : the protocol's own
        Names made;
        Names unread;
    };

    const std::string mu = "ns3::D2dFedAvg::ProximalMu";
    const std::string deadline = "ns3::D2dFlProtocol::RoundDeadline";
    const std::string devices = "ns3::D2dFlProtocol::EvaluateDevices"; // a global model's
    const Names fedsgd = {devices,
                          mu,
                          "ns3::D2dFlProtocol::LocalEpochs",
                          "ns3::D2dFlProtocol::LocalSteps",
                          "ns3::D2dLearner::Optimizer",
                          "ns3::D2dLearner::LearningRate"}; // GlobalLearningRate 1, not 0
    const std::string learner = "ns3::D2dLearner";
    for (const Expect& e :
         {Expect{"fedavg",
                 "",
                 {"ns3::D2dFedAvg", learner, "ns3::D2dMeanAggregation"},
                 {devices, mu}},
          Expect{"fedprox", "", {"ns3::D2dFedAvg", learner, "ns3::D2dMeanAggregation"}, {devices}},
          Expect{"fedsgd",
                 "trimmed-mean",
                 {"ns3::D2dFedAvg", learner, "ns3::D2dTrimmedMeanAggregation"},
                 fedsgd},
          Expect{"krum", "", {"ns3::D2dFedAvg", learner, "ns3::D2dKrumAggregation"}, {devices, mu}},
          Expect{"multi-krum",
                 "",
                 {"ns3::D2dFedAvg", learner, "ns3::D2dMultiKrumAggregation"},
                 {devices, mu}},
          Expect{"cmfl-2",
                 "",
                 {"ns3::D2dCmfl", learner, "ns3::D2dCommitteeConsensus"},
                 {deadline, devices}},
          Expect{"braintorrent", "", {"ns3::D2dBrainTorrent", learner}, {}},
          Expect{"local",
                 "",
                 {"ns3::D2dLocalTraining", learner},
                 {"ns3::D2dFlProtocol::Compression"}},
          // A class without an Aggregation attribute ignores the rule asked for.
          Expect{"fedasync", "krum", {"ns3::D2dFedAsync", learner}, {devices}}})
    {
        const D2dProtocolTraits t = D2dProtocolRegistry::GetTraits(e.name, e.aggregation);
        EXPECT_EQ(t.madeTypes, e.made) << e.name << " " << e.aggregation;
        EXPECT_EQ(t.unreadAttributes, e.unread) << e.name << " " << e.aggregation;
    }
    // FedSGD with GlobalLearningRate 0 steps the server by the learners' rate: it reads it.
    Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate", DoubleValue(0.0));
    const auto zero = D2dProtocolRegistry::GetTraits("fedsgd").unreadAttributes;
    Config::SetDefault("ns3::D2dFedAvg::GlobalLearningRate", DoubleValue(1.0));
    EXPECT_EQ(zero, (Names(fedsgd.begin(), fedsgd.end() - 1)));
    // The traffic a program gives the flag scope carries them.
    const D2dProtocolChoice fedavg("algorithm", "fedavg");
    const D2dTraffic traffic = fedavg.GetTraffic("fedprox", "median");
    EXPECT_EQ(traffic.chosenTypes,
              (Names{"ns3::D2dFedAvg", "ns3::D2dLearner", "ns3::D2dMedianAggregation"}));
    EXPECT_EQ(traffic.unreadAttributes, (Names{devices}));
}

TEST(D2dProtocolRegistry, JsonListsEveryEntry)
{
    std::ostringstream os;
    D2dProtocolRegistry::PrintJson(os);
    const std::string json = os.str();
    std::size_t last = 0;
    for (const auto& e : D2dProtocolRegistry::GetProtocols())
    {
        const std::size_t at = json.find("{\"name\": \"" + e.name + "\", \"class\": \"" +
                                         e.typeName + "\", \"label\": \"" + e.label + "\"");
        ASSERT_NE(at, std::string::npos) << e.name;
        EXPECT_GT(at, last) << e.name << " out of order";
        last = at;
    }
    EXPECT_NE(json.find("\"presets\": {\"Variant\": \"fedprox\"}"), std::string::npos);
    EXPECT_NE(json.find("{\"name\": \"multi-krum\", \"class\": \"ns3::D2dMultiKrumAggregation\""),
              std::string::npos);
}
