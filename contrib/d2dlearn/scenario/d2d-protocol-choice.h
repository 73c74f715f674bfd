/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PROTOCOL_CHOICE_H
#define D2D_PROTOCOL_CHOICE_H

#include "ns3/d2d-flag-scope.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/type-id.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class D2dScenarioFlags;

/**
 * \ingroup d2dlearn
 * \brief The protocols a program's flag offers (D2dProtocolRegistry::ForProgram), declared
 * once: the flag's Choices() come from GetNames(), the traffic of the value in force from
 * GetTraffic() (the scenario layer's side of the registry: the registry knows no flags).
 */
class D2dProtocolChoice
{
  public:
    /**
     * \param flag the flag's name, without -- (e.g. "algorithm")
     * \param program the program whose protocols it offers (e.g. "cmfl")
     */
    D2dProtocolChoice(std::string flag, const std::string& program);

    /** \return the flag's name, without -- */
    const std::string& GetFlag() const;
    /** \return the accepted values, in the table's order */
    const std::vector<std::string>& GetNames() const;
    /**
     * \brief The links of the protocol chosen, and which of the flag's values send D2D
     * messages or have a server (D2dProtocolRegistry::GetTraits): what
     * D2dNetworkOptions::SetTraffic() takes.
     * \param chosen the value in force (one of GetNames())
     * \param aggregation the aggregation rule given to a protocol that has one instead of
     *        its own ("": its own; D2dProtocolRegistry::GetTraits)
     * \return the traffic of chosen, with the classes it makes and the attributes they
     *         leave unread
     */
    D2dTraffic GetTraffic(const std::string& chosen, const std::string& aggregation = "") const;
    /**
     * \brief Tell the flag scope which classes each of the flag's values makes
     * (D2dScenarioFlags::AddChoice with D2dProtocolTraits::madeTypes and unreadAttributes):
     * a flag of a protocol's then acts only with the values that make a protocol reading it.
     * \param flags the program's flags
     */
    void AddChoices(D2dScenarioFlags& flags) const;
    /**
     * \brief The same for a flag that chooses the aggregation rule of the protocols that
     * have one (fedavg's --aggregation): each rule's class, made by --flag=rule.
     * \param flags the program's flags
     * \param flag the flag's name, without --
     */
    static void AddAggregationChoices(D2dScenarioFlags& flags, const std::string& flag);
    /**
     * \param chosen the value in force
     * \param tid a class
     * \return true if chosen's class is tid or one of its subclasses
     */
    bool IsA(const std::string& chosen, TypeId tid) const;
    /**
     * \param chosen the value in force
     * \return its class's traits (D2dProtocolRegistry::GetTraits)
     */
    D2dProtocolTraits GetTraits(const std::string& chosen) const;
    /**
     * \param test a predicate of a protocol's traits
     * \return the flag's values whose traits pass it, in the table's order, as one
     *         list after the flag: e.g. "--algorithm=local" for fedavg's protocols that do
     *         not average models ("" if none)
     */
    std::string Having(const std::function<bool(const D2dProtocolTraits&)>& test) const;

  private:
    std::string m_flag;               //!< the flag's name
    std::vector<std::string> m_names; //!< the accepted values, in order
};

} // namespace ns3

#endif /* D2D_PROTOCOL_CHOICE_H */
