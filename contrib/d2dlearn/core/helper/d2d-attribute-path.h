/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_ATTRIBUTE_PATH_H
#define D2D_ATTRIBUTE_PATH_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The one reader of ns-3's attribute syntax "ns3::Class::Attribute", as CommandLine
 * reads --ns3::Class::Attribute=value and Config::SetDefault its name: split at the last
 * "::" into a TypeId name and an attribute that the class itself defines (ns-3's
 * Config::SetDefaultFailSafe splits and looks up the same way, but offers neither step on
 * its own; TypeId::LookupAttributeByName also searches the parent classes, which
 * Config::SetDefault does not). The values themselves are left to ns-3: an attribute's
 * checker (AttributeChecker::CreateValidValue) parses and checks them.
 */
class D2dAttributePath
{
  public:
    /**
     * \brief Split an attribute path at its last "::".
     * \param path e.g. "ns3::D2dChannel::RangeM"
     * \param typeName set to the part before the last "::" ("ns3::D2dChannel") if there is one
     * \param attribute set to the part after it ("RangeM") if there is one
     * \return true if path has a "::" with more than 3 characters before it (no TypeId name
     *         is shorter: "ns3::" and a class); the parts are set even when it has fewer
     */
    static bool Split(const std::string& path, std::string* typeName, std::string* attribute);

    /**
     * \param tid a class
     * \param attribute an attribute name
     * \param info set to the attribute if found
     * \return true if the class defines the attribute itself (not one of its parents)
     */
    static bool DefinedBy(TypeId tid,
                          const std::string& attribute,
                          TypeId::AttributeInformation* info);

    /**
     * \brief Find the attribute a path names: Split(), TypeId::LookupByNameFailSafe, then
     * DefinedBy().
     * \param path "ns3::Class::Attribute"
     * \param info set to the attribute if found
     * \return true if the class exists and defines the attribute itself
     */
    static bool Lookup(const std::string& path, TypeId::AttributeInformation* info);

    /**
     * \param checker an attribute's checker
     * \return the name of its value type with the ns3:: prefix ("ns3::DoubleValue"; ns-3 3.37
     *         names some without it: "BooleanValue")
     */
    static std::string ValueTypeName(Ptr<const AttributeChecker> checker);
};

} // namespace ns3

#endif /* D2D_ATTRIBUTE_PATH_H */
