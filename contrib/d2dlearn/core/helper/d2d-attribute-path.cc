/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-attribute-path.h"

namespace ns3
{

bool
D2dAttributePath::Split(const std::string& path, std::string* typeName, std::string* attribute)
{
    const std::size_t sep = path.rfind("::");
    if (sep == std::string::npos)
    {
        return false;
    }
    *typeName = path.substr(0, sep);
    *attribute = path.substr(sep + 2);
    return sep > 3;
}

bool
D2dAttributePath::DefinedBy(TypeId tid,
                            const std::string& attribute,
                            TypeId::AttributeInformation* info)
{
    for (uint32_t a = 0; a < tid.GetAttributeN(); ++a)
    {
        if (tid.GetAttribute(a).name == attribute)
        {
            *info = tid.GetAttribute(a);
            return true;
        }
    }
    return false;
}

bool
D2dAttributePath::Lookup(const std::string& path, TypeId::AttributeInformation* info)
{
    std::string typeName;
    std::string attribute;
    TypeId tid;
    return Split(path, &typeName, &attribute) && TypeId::LookupByNameFailSafe(typeName, &tid) &&
           DefinedBy(tid, attribute, info);
}

std::string
D2dAttributePath::ValueTypeName(Ptr<const AttributeChecker> checker)
{
    const std::string type = checker->GetValueTypeName();
    return type.rfind("ns3::", 0) == 0 ? type : "ns3::" + type;
}

} // namespace ns3
