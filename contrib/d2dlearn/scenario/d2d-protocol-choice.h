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
     * \return the traffic of chosen
     */
    D2dTraffic GetTraffic(const std::string& chosen) const;
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
