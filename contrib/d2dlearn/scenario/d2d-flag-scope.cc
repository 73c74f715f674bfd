/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-flag-scope.h"

#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/d2d-text.h"
#include "ns3/log.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <fmt/format.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dFlagScope");

namespace
{

using Need = D2dFlagScope::Need;
using Condition = D2dFlagScope::Condition;

/** \return the condition "D2D messages" */
Condition
D2d()
{
    return {Need::D2D, "", {}, "", "", false};
}

/** \return the condition "a server" */
Condition
D2s()
{
    return {Need::D2S, "", {}, "", "", false};
}

/** \return the condition "messages at all" */
Condition
Messages()
{
    return {Need::MESSAGES, "", {}, "", "", false};
}

/**
 * \param flag another flag
 * \param values the values under which the row's flag acts
 * \param text how to say it (empty: --flag=v1 or v2)
 * \param orArgument an argument prefix that chooses the same thing otherwise
 * \return the condition
 */
Condition
Is(const std::string& flag,
   std::vector<std::string> values,
   const std::string& text = "",
   const std::string& orArgument = "")
{
    return {Need::IS, flag, std::move(values), text, orArgument, false};
}

/**
 * \param flag another flag
 * \param values the values under which the row's flag does not act
 * \param text how to say where it acts, e.g. "--dynamicRssLevels > 0"
 * \return the condition
 */
Condition
IsNot(const std::string& flag, std::vector<std::string> values, const std::string& text)
{
    return {Need::IS_NOT, flag, std::move(values), text, "", false};
}

/** \return the D2D channel backend */
Condition
OnChannel()
{
    return Is("backend", {"channel"});
}

/** \return the condition "a finite spectrum on some link of the run" */
Condition
FiniteSpectrum()
{
    return {Need::FINITE_SPECTRUM, "", {}, "", "", false};
}

/** \return the Wi-Fi backend */
Condition
Wifi()
{
    return Is("backend", {"wifi"});
}

} // namespace

namespace
{

/**
 * \return the rows of one program's own flags (fedavg, cmfl, graph-discovery), after the
 *         network's and the learning options' in GetTable()
 */
const std::vector<D2dFlagScope::Row>&
ProgramRows()
{
    using Row = D2dFlagScope::Row;
    static const std::vector<Row> rows = {
        // fedavg and cmfl: which protocol (and aggregation rule) a flag of theirs acts with
        // is not a row: the programs name the classes each --algorithm (and --aggregation)
        // makes (D2dProtocolChoice::AddChoices), and each flag's attributes say which it acts
        // on (D2dScenarioFlags::GetTargets; WhyNotMade). What remains are other flags' values.
        {"stragglerSlowdown", "fedavg", {IsNot("stragglers", {"0"}, "--stragglers > 0")}},
        {"meanOnTime", "fedavg", {OnChannel()}},
        {"meanOffTime", "fedavg", {OnChannel()}},
        {"availabilityFile", "fedavg", {OnChannel()}},
        {"stalenessA", "fedavg", {Is("staleness", {"polynomial", "hinge"})}},
        {"stalenessB", "fedavg", {Is("staleness", {"hinge"})}},
        {"scalingLow", "cmfl", {Is("attack", {"gradient-scaling"})}},
        // consensus: how the low-quality agents' labels are flipped, where there are some.
        {"flipMode", "consensus", {IsNot("flipList", {""}, "--flipList (low-quality agents)")}},
        // bayes-consensus: W's weights and the beliefs' messages matter where the devices
        // combine over the network (isolated and central cooperation use no W; --graph and
        // --wFile may still set the number of devices).
        {"weights", "bayes-consensus", {Is("cooperation", {"network"})}},
        {"broadcast", "bayes-consensus", {D2d()}},
        {"lossRule", "bayes-consensus", {D2d()}},

        // graph-discovery: the RL iterations are periodic only at the RSS steps.
        // graph-discovery: sigma^2 of its D2S links, as --noisePowerW of the D2D links.
        {"d2sNoisePowerW", "graph-discovery", {OnChannel(), D2s(), Is("noise", {"constant"})}},
        // alpha3 weighs the cluster budget term of eq. (14), which --budget=0 leaves out.
        {"alpha3", "graph-discovery", {IsNot("budget", {"0"}, "--budget > 0")}},
        {"sleepBetweenIterations",
         "graph-discovery",
         {OnChannel(), IsNot("dynamicRssLevels", {"0"}, "--dynamicRssLevels > 0")}},
    };
    return rows;
}

} // namespace

const std::vector<D2dFlagScope::Row>&
D2dFlagScope::GetTable()
{
    // The backend comes first in a row: over the wrong backend that is the reason to give.
    static const std::vector<Row> table = [] {
        std::vector<Row> rows = {
            // D2dNetworkOptions: the network of every scenario.
            {"mtuBytes", "", {Messages()}},
            {"maxRetransmissions",
             "",
             {OnChannel(), Messages(), Is("reliable", {"true"}, "--reliable")}},
            {"spectralEfficiency", "", {OnChannel(), Messages()}},
            {"bandwidthHz", "", {OnChannel(), Messages()}},
            {"noisePowerW", "", {OnChannel(), Messages(), Is("noise", {"constant"})}},
            {"noise", "", {OnChannel(), Messages()}},
            {"noiseFigureDb", "", {OnChannel(), Messages(), Is("noise", {"thermal"})}},
            {"propagation", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"frequencyHz", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"deviceHeightM", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"shadowing", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"shadowingSigmaDb",
             "",
             {{Need::POSITIONS, "", {}, "", "", false}, Is("shadowing", {"log-normal"})}},
            {"shadowingCorrelationM",
             "",
             {{Need::POSITIONS, "", {}, "", "", false}, Is("shadowing", {"log-normal"})}},
            {"nakagamiM", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"coherenceTime",
             "",
             {OnChannel(),
              {Need::POSITIONS, "", {}, "", "", false},
              IsNot("nakagamiM", {"0"}, "--nakagamiM > 0")}},
            {"txPowerDbm", "", {{Need::TX_RADIOS, "", {}, "", "", false}}},
            {"d2sTxPowerDbm", "", {D2s()}},
            {"reliable", "", {Messages()}},
            {"fastPath", "", {OnChannel(), Messages()}},
            {"rangeM", "", {OnChannel(), D2d()}},
            {"access", "", {OnChannel(), Messages()}},
            {"subChannels", "", {OnChannel(), {Need::D2D_BAND, "", {}, "", "", false}}},
            {"d2sSubChannels", "", {OnChannel(), D2s()}},
            {"d2sBandwidthHz", "", {OnChannel(), D2s()}},
            {"subChannelsPerTransmission", "", {OnChannel(), Messages(), FiniteSpectrum()}},
            {"receiveChains", "", {OnChannel(), Messages(), FiniteSpectrum()}},
            {"interference",
             "",
             {OnChannel(),
              Messages(),
              FiniteSpectrum(),
              {Need::CO_CHANNEL, "", {}, "", "", false}}},
            {"spectrumReuse",
             "",
             {OnChannel(),
              D2d(),
              Is("access", {"scheduled"}),
              IsNot("subChannels", {"0"}, "--subChannels > 0")}},
            {"reuseDistanceM",
             "",
             {OnChannel(),
              D2d(),
              Is("access", {"scheduled"}),
              IsNot("subChannels", {"0"}, "--subChannels > 0"),
              Is("spectrumReuse", {"hearing"})}},
            {"d2sLinks", "", {OnChannel(), D2s()}},
            {"d2sDistanceFactor",
             "",
             {OnChannel(), D2s(), Is("d2sLinks", {"equal"}, "", "--rssFile=")}},
            {"serverPosition", "", {{Need::SERVER_PLACE, "", {}, "", "", false}}},
            {"areaSideM", "", {Messages()}},
            {"mobility", "", {{Need::POSITIONS, "", {}, "", "", false}}},
            {"speedMps",
             "",
             {{Need::POSITIONS, "", {}, "", "", false},
              {Need::IS,
               "mobility",
               {"random-walk"},
               "--mobility=random-walk (--speedMps > 0 alone is one)",
               "",
               true}}},
            {"waypointMinSpeedMps", "", {Is("mobility", {"random-waypoint"})}},
            {"waypointMaxSpeedMps", "", {Is("mobility", {"random-waypoint"})}},
            {"waypointPause", "", {Is("mobility", {"random-waypoint"})}},
            {"gaussMarkovMeanSpeedMps", "", {Is("mobility", {"gauss-markov"})}},
            {"gaussMarkovAlpha", "", {Is("mobility", {"gauss-markov"})}},
            {"gaussMarkovTimeStep", "", {Is("mobility", {"gauss-markov"})}},
            {"mobilityTrace", "", {Is("mobility", {"ns2"})}},
            {"jobWallLimit", "", {Is("model", {"torchscript:*"}, "--model=torchscript:PATH")}},
            {"radioProfile", "", {OnChannel()}},
            {"allowUnorderedRadioPowers", "", {OnChannel(), Is("radioProfile", {"custom"})}},
            {"d2dRadio", "", {{Need::NO_D2D, "", {}, "", "", false}}},
            {"drx", "", {OnChannel(), D2d()}},
            {"d2sDrx", "", {OnChannel(), D2s()}},
            {"sleepWhileTraining", "", {Messages()}},
            // The compute model: jobs run where devices train (bayes-consensus: its
            // variational learner, which its compute flags name by Configures()).
            {"cpuFrequencyHz", "", {Is("computeModel", {"cpu"})}},
            {"cyclesPerFlop", "", {Is("computeModel", {"cpu"})}},
            {"switchedCapacitance", "", {Is("computeModel", {"cpu"})}},
            {"computeSpread", "", {Is("computeModel", {"flops"})}},
            {"dynamicRssLevels", "", {OnChannel(), D2d()}},
            {"rssStep",
             "",
             {OnChannel(), D2d(), IsNot("dynamicRssLevels", {"0"}, "--dynamicRssLevels > 0")}},
            {"rssFile", "", {OnChannel()}}, // also the number of devices
            {"dropProbability", "", {OnChannel(), D2d()}},
            {"d2sDropProbability", "", {OnChannel(), D2s()}},
            {"printLinks", "", {OnChannel()}},
            {"wifiStandard", "", {Wifi(), Messages()}},
            {"wifiRateManager", "", {Wifi(), Messages()}},
            {"wifiDataMode", "", {Wifi(), Messages(), Is("wifiRateManager", {"constant"})}},
            {"wifiLossExponent",
             "",
             {Wifi(),
              Messages(),
              Is("propagation", {"log-distance", "ns3::LogDistancePropagationLossModel"})}},
            {"pcap", "", {Wifi(), Messages()}},
            {"netanim", "", {Messages()}},
            {"flowMonitor", "", {Wifi(), Messages()}},

            // D2dLearningOptions: the data set's own flags, and each partition's.
            {"syntheticSamples", "", {Is("dataset", {"gaussian-mixture"})}},
            {"cifarLabels", "", {Is("dataset", {"cifar100"})}},
            {"alpha", "", {Is("partition", {"dirichlet"})}},
            {"labelsPerDevice", "", {Is("partition", {"labels"})}},
            {"labelProportions", "", {Is("partition", {"labels"})}},
            {"quantitySkew", "", {Is("partition", {"quantity"})}},

        };
        const auto& programs = ProgramRows();
        rows.insert(rows.end(), programs.begin(), programs.end());
        return rows;
    }();
    return table;
}

const D2dFlagScope::Row*
D2dFlagScope::Find(const std::string& program, const std::string& flag)
{
    const Row* general = nullptr;
    for (const auto& row : GetTable())
    {
        if (row.flag != flag)
        {
            continue;
        }
        if (row.program == program)
        {
            return &row;
        }
        if (row.program.empty() && !general)
        {
            general = &row;
        }
    }
    return general;
}

namespace
{

/**
 * \param c an IS or IS_NOT condition
 * \return how to say where it holds, e.g. "--algorithm=fedavg, fedprox or fedsgd"
 */
std::string
Where(const Condition& c)
{
    if (!c.text.empty())
    {
        return c.text;
    }
    return "--" + c.flag + "=" + D2dText::OrList(c.values);
}

/**
 * \param c a condition
 * \return its text in --PrintHelp, e.g. "D2D messages"
 */
std::string
Describe(const Condition& c)
{
    switch (c.need)
    {
    case Need::D2D:
        return "D2D messages";
    case Need::D2S:
        return "a server (D2S links)";
    case Need::NO_D2D:
        return "a protocol that sends no D2D messages";
    case Need::MESSAGES:
        return "messages";
    case Need::TX_RADIOS:
        return "D2D messages, or D2S ones without --d2sTxPowerDbm";
    case Need::POSITIONS:
        return "D2D messages, or a server at a place";
    case Need::SERVER_PLACE:
        return "a server at a place: --d2sLinks=distance without --rssFile, or --backend=wifi";
    case Need::D2D_BAND:
        return "D2D messages, or a server whose cell follows it (--d2sSubChannels=-1)";
    case Need::FINITE_SPECTRUM:
        return "--subChannels > 0 (D2D messages) or --d2sSubChannels > 0 (a server)";
    case Need::CO_CHANNEL:
        return "transmissions that share a sub-channel: --access=immediate, or "
               "--spectrumReuse=hearing on D2D links";
    case Need::IS:
        return Where(c);
    case Need::IS_NOT:
        return Where(c);
    }
    return "";
}

/**
 * \return why a flag of a finite spectrum (or, with coChannel, of co-channel interference)
 * cannot act in this run, or "" if it can
 * \param flags the program's flags, parsed
 * \param traffic the run's links
 * \param coChannel the flag needs transmissions that may share a sub-channel too
 */
std::string
WhySpectrumInert(const D2dScenarioFlags& flags, const D2dTraffic& traffic, bool coChannel)
{
    // The spectrum in force on each kind of link the run has.
    auto number = [&flags](const std::string& name) {
        return flags.Has(name) ? std::stod(flags.GetParsedText(name)) : 0.0;
    };
    const double k = number("subChannels");
    const double d2sGiven = number("d2sSubChannels");
    const double d2sK = flags.Has("d2sSubChannels") && d2sGiven >= 0 ? d2sGiven : k;
    const bool d2d = !traffic.known || traffic.d2d;
    const bool d2s = !traffic.known || traffic.d2s;
    const bool finiteD2d = d2d && k > 0;
    const bool finiteD2s = d2s && d2sK > 0;
    if (!finiteD2d && !finiteD2s)
    {
        return "it acts on a finite spectrum, and every link of this run has an "
               "unlimited one (--subChannels=0 and --d2sSubChannels=0 or -1, or links "
               "this run does not use)";
    }
    if (coChannel)
    {
        const bool immediate = flags.Has("access") && flags.GetParsedText("access") == "immediate";
        const bool hearing =
            flags.Has("spectrumReuse") && flags.GetParsedText("spectrumReuse") == "hearing";
        if (!immediate && !(finiteD2d && hearing))
        {
            return "under --access=scheduled with --spectrumReuse=none no two "
                   "transmissions share a sub-channel, so there is no interference to "
                   "leave out (it acts with --access=immediate, or "
                   "--spectrumReuse=hearing on D2D links)";
        }
    }
    return "";
}

/**
 * \return whether the class named type is the class named base or derives from it (both
 * registered TypeIds; false if either is not)
 * \param type a class \param base another
 */
bool
IsOrDerives(const std::string& type, const std::string& base)
{
    if (type == base)
    {
        return true;
    }
    TypeId t;
    TypeId b;
    return TypeId::LookupByNameFailSafe(type, &t) && TypeId::LookupByNameFailSafe(base, &b) &&
           t.IsChildOf(b);
}

/**
 * \param unread the attributes an object leaves unread
 * \param attribute an attribute ("": a flag's Configures() class, read whenever made)
 * \return whether the object reads it
 */
bool
Reads(const std::vector<std::string>& unread, const std::string& attribute)
{
    return attribute.empty() || std::find(unread.begin(), unread.end(), attribute) == unread.end();
}

/** Where a flag acts among the classes a program makes one of (D2dScenarioFlags::AddChoice). */
struct Reach
{
    /** every class the flag acts on (its attributes', its Configures()) is such a class or
     *  a base of one: it acts only in runs that make one that reads it */
    bool derived{false};
    std::vector<std::string> classes;   //!< those classes, in the flag's order
    std::vector<std::string> arguments; //!< the choices' arguments that make a reader
};

/**
 * \param flags the program's flags \param flag a flag
 * \return its reach (not derived if the flag acts on no class, or on one no choice is or
 *         derives from: it acts through that one)
 */
Reach
ReachOf(const D2dScenarioFlags& flags, const std::string& flag)
{
    Reach reach;
    const auto& choices = flags.GetChoices();
    const auto targets = flags.GetTargets(flag);
    if (choices.empty() || targets.empty())
    {
        return reach;
    }
    for (const auto& [cls, attribute] : targets)
    {
        bool any = false;
        for (const auto& choice : choices)
        {
            if (!IsOrDerives(choice.typeName, cls))
            {
                continue;
            }
            any = true;
            if (Reads(choice.unreadAttributes, attribute) &&
                std::find(reach.arguments.begin(), reach.arguments.end(), choice.argument) ==
                    reach.arguments.end())
            {
                reach.arguments.push_back(choice.argument);
            }
        }
        if (!any)
        {
            return {};
        }
        if (std::find(reach.classes.begin(), reach.classes.end(), cls) == reach.classes.end())
        {
            reach.classes.push_back(cls);
        }
    }
    reach.derived = true;
    return reach;
}

/**
 * \param arguments e.g. {"--algorithm=cmfl-1", "--algorithm=cmfl-2", "--aggregation=krum"}
 * \return them as one list, the values of one flag together: "--algorithm=cmfl-1 or cmfl-2,
 *         or --aggregation=krum"
 */
std::string
ArgumentList(const std::vector<std::string>& arguments)
{
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& argument : arguments)
    {
        const auto eq = argument.find('=');
        const std::string head = argument.substr(0, eq == std::string::npos ? 0 : eq + 1);
        const std::string value = argument.substr(head.size());
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
            return g.first == head;
        });
        if (it == groups.end())
        {
            groups.push_back({head, {}});
            it = groups.end() - 1;
        }
        it->second.push_back(value);
    }
    std::string out;
    for (std::size_t i = 0; i < groups.size(); ++i)
    {
        out += (i == 0                   ? ""
                : i + 1 == groups.size() ? ", or "
                                         : ", ") +
               groups[i].first + D2dText::OrList(groups[i].second);
    }
    return out.empty() ? std::string("no choice of this program") : out;
}

/**
 * \param flags the program's flags \param traffic the run \param flag a flag
 * \return "" unless the flag acts only on objects of D2dScenarioFlags::AddChoice() classes
 *         (ReachOf) and this run makes none that reads it (D2dTraffic::chosenTypes,
 *         unreadAttributes); then why, and what would use it
 */
std::string
WhyNotMade(const D2dScenarioFlags& flags, const D2dTraffic& traffic, const std::string& flag)
{
    if (traffic.chosenTypes.empty())
    {
        return "";
    }
    const Reach reach = ReachOf(flags, flag);
    if (!reach.derived)
    {
        return "";
    }
    std::vector<std::string> unread; // attributes of objects this run makes, unread by them
    for (const auto& [cls, attribute] : flags.GetTargets(flag))
    {
        for (const auto& type : traffic.chosenTypes)
        {
            if (!IsOrDerives(type, cls))
            {
                continue;
            }
            if (Reads(traffic.unreadAttributes, attribute))
            {
                return ""; // made, and read
            }
            unread.push_back(attribute);
        }
    }
    const std::string here = traffic.chosen.empty() ? "this run" : traffic.chosen;
    if (!unread.empty())
    {
        return fmt::format("it sets {}, which this run leaves unread: it acts with {} (here {})",
                           D2dText::OrList(unread),
                           ArgumentList(reach.arguments),
                           here);
    }
    return fmt::format("it acts on {}, of which this run makes none: it acts with {} (here {})",
                       D2dText::OrList(reach.classes),
                       ArgumentList(reach.arguments),
                       here);
}

} // namespace

std::string
D2dFlagScope::Describe(const D2dScenarioFlags& flags, const std::string& flag)
{
    std::vector<std::string> parts;
    if (const Reach reach = ReachOf(flags, flag); reach.derived)
    {
        // (Nothing to say of a flag that acts with every value of the flags that choose.)
        const auto head = [](const std::string& argument) {
            return argument.substr(0, argument.find('=') + 1);
        };
        const auto& choices = flags.GetChoices();
        const bool every = std::all_of(choices.begin(), choices.end(), [&](const auto& c) {
            const bool sameFlag =
                std::any_of(reach.arguments.begin(), reach.arguments.end(), [&](const auto& a) {
                    return head(a) == head(c.argument);
                });
            return !sameFlag ||
                   std::find(reach.arguments.begin(), reach.arguments.end(), c.argument) !=
                       reach.arguments.end();
        });
        if (!every)
        {
            parts.push_back(ArgumentList(reach.arguments));
        }
    }
    if (const Row* row = Find(flags.GetProgram(), flag))
    {
        for (const auto& c : row->conditions)
        {
            parts.push_back(ns3::Describe(c));
        }
    }
    if (parts.empty())
    {
        return "";
    }
    std::string out = " (acts with: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        out += (i == 0 ? "" : "; ") + parts[i];
    }
    return out + ")";
}

std::string
D2dFlagScope::WhyInert(const D2dScenarioFlags& flags,
                       const D2dTraffic& traffic,
                       const std::string& flag)
{
    const Row* row = Find(flags.GetProgram(), flag);
    if (auto why = WhyNotMade(flags, traffic, flag); !why.empty() || !row)
    {
        return why; // "" for a flag without a row that acts
    }
    const std::string chosen = traffic.chosen.empty() ? "this run" : traffic.chosen;
    auto users = [&](const std::string& what, const std::string& who) {
        return who.empty() ? fmt::format("no configuration of {} has {}", flags.GetProgram(), what)
                           : fmt::format("{}: {}", what, who);
    };
    const bool wifi = flags.Has("backend") && flags.GetParsedText("backend") == "wifi";
    // The server is a node at a place (D2dNetworkOptions: --d2sLinks and --rssFile on the
    // channel; always over Wi-Fi), so the devices' positions reach their D2S links.
    const bool serverPlace =
        (!traffic.known || traffic.d2s) &&
        (wifi || (flags.Has("d2sLinks") && flags.GetParsedText("d2sLinks") == "distance" &&
                  !(flags.Has("rssFile") && flags.Given("rssFile"))));
    for (const auto& c : row->conditions)
    {
        switch (c.need)
        {
        case Need::D2D:
            if (traffic.known && !traffic.d2d)
            {
                return fmt::format("it acts on D2D links, and {} sends no D2D messages ({})",
                                   chosen,
                                   users("D2D messages", traffic.d2dUsers));
            }
            break;
        case Need::D2S:
            if (traffic.known && !traffic.d2s)
            {
                return fmt::format("it acts on device-to-server links, and {} has no server ({})",
                                   chosen,
                                   users("a server", traffic.d2sUsers));
            }
            break;
        case Need::NO_D2D:
            if (!traffic.known || traffic.d2d)
            {
                return fmt::format("it keeps on the D2D radios of a run that sends no D2D "
                                   "messages, and {} {}: its D2D radios are on anyway",
                                   chosen,
                                   traffic.known ? "sends D2D messages"
                                                 : "does not say which links it uses");
            }
            break;
        case Need::MESSAGES:
            if (traffic.known && !traffic.d2d && !traffic.d2s)
            {
                return fmt::format("it acts on messages, and {} sends none ({}; {})",
                                   chosen,
                                   users("D2D messages", traffic.d2dUsers),
                                   users("a server", traffic.d2sUsers));
            }
            break;
        case Need::TX_RADIOS:
            if (traffic.known && !traffic.d2d && !(traffic.d2s && traffic.d2sFollowsTx))
            {
                return fmt::format(
                    "it sets the D2D radios' transmit power, and {} sends no D2D messages ({}); "
                    "{}",
                    chosen,
                    users("D2D messages", traffic.d2dUsers),
                    traffic.d2s ? "the device-to-server radios' is --d2sTxPowerDbm"
                                : "it has no server either");
            }
            break;
        case Need::POSITIONS:
            if (traffic.known && !traffic.d2d && !serverPlace)
            {
                return fmt::format(
                    "the devices' positions reach no link of this run: {} sends no D2D messages "
                    "({}), and {}",
                    chosen,
                    users("D2D messages", traffic.d2dUsers),
                    traffic.d2s ? "its device-to-server links all have one length "
                                  "(--d2sLinks=equal: --d2sDistanceFactor x the mean D2D "
                                  "distance)"
                                : "it has no server");
            }
            break;
        case Need::SERVER_PLACE:
            if (traffic.known && !traffic.d2s)
            {
                return fmt::format("it places the server, and {} has no server ({})",
                                   chosen,
                                   users("a server", traffic.d2sUsers));
            }
            if (!serverPlace)
            {
                return fmt::format(
                    "it places the server, and the device-to-server links of this run all have "
                    "one length whatever its place ({}: --d2sDistanceFactor x the mean D2D "
                    "distance; a server at a place: {}--backend=wifi)",
                    flags.Given("rssFile") ? "--rssFile implies --d2sLinks=equal"
                                           : "--d2sLinks=equal",
                    flags.Given("rssFile") ? "no --rssFile and " : "--d2sLinks=distance or ");
            }
            break;
        case Need::D2D_BAND:
            if (traffic.known && !traffic.d2d &&
                !(traffic.d2s && (!flags.Has("d2sSubChannels") ||
                                  std::stod(flags.GetParsedText("d2sSubChannels")) < 0)))
            {
                return fmt::format("it divides the D2D band, and {} sends no D2D messages ({}); "
                                   "{}",
                                   chosen,
                                   users("D2D messages", traffic.d2dUsers),
                                   traffic.d2s ? "its server's cell has --d2sSubChannels"
                                               : "it has no server either");
            }
            break;
        case Need::FINITE_SPECTRUM:
        case Need::CO_CHANNEL:
            if (auto why = WhySpectrumInert(flags, traffic, c.need == Need::CO_CHANNEL);
                !why.empty())
            {
                return why;
            }
            break;
        case Need::IS:
        case Need::IS_NOT: {
            if (!flags.Has(c.flag) || (!c.orArgument.empty() && flags.HasArgument(c.orArgument)) ||
                (c.onlyIfGiven && !flags.Given(c.flag)))
            {
                break;
            }
            const std::string value = flags.GetParsedText(c.flag);
            // A value ending in '*' stands for every value it begins ("torchscript:*").
            const bool in = std::any_of(c.values.begin(), c.values.end(), [&](const auto& v) {
                return v == value || (!v.empty() && v.back() == '*' &&
                                      value.compare(0, v.size() - 1, v, 0, v.size() - 1) == 0);
            });
            if (in != (c.need == Need::IS))
            {
                return fmt::format("it acts with {} (here --{}={})", Where(c), c.flag, value);
            }
            break;
        }
        }
    }
    return "";
}

void
D2dFlagScope::Check(const D2dScenarioFlags& flags,
                    const D2dTraffic& traffic,
                    const D2dScenarioSupport& support)
{
    const std::vector<std::string> inert = GivenInert(flags, traffic);
    if (!inert.empty())
    {
        const std::string& name = inert.front();
        support.Fail(fmt::format("--{}={} cannot change this run: {}; leave it out (its "
                                 "default: {})",
                                 name,
                                 flags.GetParsedText(name),
                                 WhyInert(flags, traffic, name),
                                 flags.GetDefaultText(name)));
    }
}

std::vector<std::string>
D2dFlagScope::GivenInert(const D2dScenarioFlags& flags, const D2dTraffic& traffic)
{
    std::vector<std::string> inert;
    for (const auto& name : flags.GetNames())
    {
        if (!flags.AtDefault(name) && !WhyInert(flags, traffic, name).empty())
        {
            inert.push_back(name);
        }
    }
    return inert;
}

void
D2dFlagScope::Print(std::ostream& os, const D2dScenarioFlags& flags, const D2dTraffic& traffic)
{
    os << fmt::format("# flags of {} in this configuration ({}; D2D messages: {}, server: {})\n",
                      flags.GetProgram(),
                      traffic.chosen.empty() ? "the command line" : traffic.chosen,
                      traffic.known ? (traffic.d2d ? "yes" : "no") : "not said",
                      traffic.known ? (traffic.d2s ? "yes" : "no") : "not said");
    os << "flag,acts,why\n";
    for (const auto& name : flags.GetNames())
    {
        const std::string why = WhyInert(flags, traffic, name);
        std::string quoted = why;
        if (why.find_first_of(",\"") != std::string::npos)
        {
            quoted.clear();
            for (char ch : why)
            {
                quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
            }
            quoted = "\"" + quoted + "\"";
        }
        os << fmt::format("{},{},{}\n", name, why.empty() ? "yes" : "no", quoted);
    }
    os.flush();
}

} // namespace ns3
