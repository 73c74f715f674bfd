/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PROTOCOL_REGISTRY_H
#define D2D_PROTOCOL_REGISTRY_H

#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class D2dAggregationStrategy;
class D2dFlProtocol;

/**
 * \ingroup d2dlearn
 * \brief One learning protocol a user can select by name: its class and the attributes that
 * make it this protocol (FedProx is D2dFedAvg with Variant=fedprox).
 */
struct D2dProtocolEntry
{
    std::string name;      //!< the --algorithm value, e.g. "fedprox"
    std::string typeName;  //!< its class, a D2dFlProtocol, e.g. "ns3::D2dFedAvg"
    std::string label;     //!< its name in figures and tables, e.g. "FedProx"
    std::string reference; //!< where it comes from: authors, title or venue and year
    /** attributes of typeName set to these values (as their strings), in this order */
    std::vector<std::pair<std::string, std::string>> presets;
    /** the server's aggregation rule (a D2dProtocolRegistry rule name; "": the class's
     *  default), given to the class's Aggregation attribute */
    std::string aggregation;
    /** the scenario programs whose --algorithm (graph-discovery: --downstream) offers it */
    std::vector<std::string> programs;
};

/**
 * \ingroup d2dlearn
 * \brief A server's aggregation rule a user can select by name (a D2dAggregationStrategy).
 */
struct D2dAggregationEntry
{
    std::string name;      //!< the --aggregation value, e.g. "trimmed-mean"
    std::string typeName;  //!< its class, e.g. "ns3::D2dTrimmedMeanAggregation"
    std::string label;     //!< its name in figures and tables, e.g. "Trimmed Mean"
    std::string reference; //!< where it comes from
};

/**
 * \ingroup d2dlearn
 * \brief What a protocol does on the network and asks of a scenario, read from its class
 * (D2dFlProtocol::UsesD2d(), UsesD2s(), GetMinDevices(), AveragesModels(), SendsGradients(),
 * its TypeId's trace sources), with its presets applied: what a program asks instead of
 * comparing protocol names.
 */
struct D2dProtocolTraits
{
    bool usesD2d{false};                   //!< it sends messages over D2D links (peers)
    bool usesD2s{false};                   //!< it has a server, reached over D2S links
    uint32_t minDevices{2};                //!< the fewest devices it runs with
    bool averagesModels{true};             //!< it averages models: one architecture
    bool sendsGradients{false};            //!< the devices send gradients, not weights
    std::vector<std::string> traceSources; //!< the trace sources of its class and parents
    /** its class, then the classes of the objects it makes and configures
     *  (D2dFlProtocol::GetPartTypeIds()), as their TypeIds name them */
    std::vector<std::string> madeTypes;
    /** the attributes it leaves unread as configured (D2dFlProtocol::GetUnreadAttributes()) */
    std::vector<std::string> unreadAttributes;
};

/**
 * \ingroup d2dlearn
 * \brief The one table of the library's learning protocols and aggregation rules: the only
 * place a protocol's or a rule's name maps to a class.
 *
 * Every program that lets a user choose a protocol reads it: the scenarios' --algorithm
 * (ForProgram() gives a program's choices, in the table's order), graph-discovery's
 * --downstream, the FedAvg server's --aggregation (CreateAggregation()), the tests and the
 * benchmarks; the analysis reads the labels from the JSON PrintJson() writes (the program
 * d2dlearn-protocols, checked against analysis/d2dlearn_analysis/protocols.json).
 *
 * Adding a protocol to the library: its class (a D2dFlProtocol with a constructor) in its
 * own .h/.cc, one line in the table of d2d-protocol-registry.cc naming the programs that
 * offer it, and its tests (doc/howto/add-a-protocol.md).
 *
 * \code
 *   static const D2dProtocolChoice protocols("algorithm", "fedavg");
 *   flags.Add("algorithm", "The protocol", algorithm).Choices(protocols.GetNames());
 *   ...
 *   helper.SetProtocol(algorithm); // class and presets
 * \endcode
 */
class D2dProtocolRegistry
{
  public:
    /** \return every protocol, in the table's order (the legend order of the figures) */
    static const std::vector<D2dProtocolEntry>& GetProtocols();
    /**
     * \brief Add a protocol of a program's own (a class outside the library) after the
     * table's: a program that calls it before parsing its flags offers the protocol like
     * the library's (doc/howto/add-a-protocol.md). References to entries obtained before
     * are invalidated.
     * \param entry the protocol; its name must be new (aborts otherwise)
     */
    static void Register(D2dProtocolEntry entry);
    /** \return every aggregation rule, in the table's order */
    static const std::vector<D2dAggregationEntry>& GetAggregations();

    /**
     * \param name a protocol's name
     * \return its entry
     * \throws std::invalid_argument "no protocol NAME (a, b or c)" for another name
     */
    static const D2dProtocolEntry& GetProtocol(const std::string& name);
    /**
     * \param name an aggregation rule's name
     * \return its entry
     * \throws std::invalid_argument "no aggregation rule NAME (a, b or c)" for another name
     */
    static const D2dAggregationEntry& GetAggregation(const std::string& name);

    /**
     * \param program a scenario program's name, e.g. "cmfl"
     * \return the names of the protocols it offers, in the table's order
     */
    static std::vector<std::string> ForProgram(const std::string& program);
    /** \return the names of the aggregation rules, in the table's order */
    static std::vector<std::string> GetAggregationNames();

    /**
     * \param name a protocol's name
     * \return the attributes that make its class this protocol, as (name, value string): its
     *         presets, then Aggregation=the class of its aggregation rule if it has one
     */
    static std::vector<std::pair<std::string, std::string>> GetAttributes(const std::string& name);
    /**
     * \param name a protocol's name
     * \return a factory of its class with its presets (and aggregation rule) set; add
     *         attributes with ObjectFactory::Set before Create
     */
    static ObjectFactory GetFactory(const std::string& name);
    /**
     * \param name an aggregation rule's name
     * \return a new strategy of its class (attributes: their defaults in force)
     */
    static Ptr<D2dAggregationStrategy> CreateAggregation(const std::string& name);

    /**
     * \param name a protocol's name
     * \param aggregation an aggregation rule's name given to the class's Aggregation
     *        attribute instead of the protocol's ("": the protocol's, or the attribute's
     *        default in force; ignored by a class without the attribute)
     * \return what its class says it does, presets applied (a probe object is made and
     *         disposed)
     */
    static D2dProtocolTraits GetTraits(const std::string& name,
                                       const std::string& aggregation = "");

    /**
     * \brief The table as JSON: {"protocols": [{name, class, label, reference, presets,
     * aggregation, programs, usesD2d, usesD2s, traceSources}], "aggregations": [{name,
     * class, label, reference}]}, keys and entries in a fixed order.
     * \param os where to write
     */
    static void PrintJson(std::ostream& os);
};

} // namespace ns3

#endif /* D2D_PROTOCOL_REGISTRY_H */
