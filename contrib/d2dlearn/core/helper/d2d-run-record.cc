/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-run-record.h"

#include "ns3/boolean.h"
#include "ns3/d2d-attribute-path.h"
#include "ns3/d2d-json.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/uinteger.h"

#include <fmt/format.h>

namespace ns3
{

void
D2dRunRecord::AddCommandLine(int argc, char** argv)
{
    std::string commandLine;
    for (int i = 1; i < argc; ++i)
    {
        commandLine += (i > 1 ? " " : "") + std::string(argv[i]);
    }
    AddParameter("commandLine", commandLine);
}

void
D2dRunRecord::AddParameter(const std::string& name, const std::string& value)
{
    m_parameters.emplace_back(name, D2dJson::String(value));
}

void
D2dRunRecord::AddParameter(const std::string& name, const char* value)
{
    AddParameter(name, std::string(value));
}

void
D2dRunRecord::AddParameter(const std::string& name, bool value)
{
    m_parameters.emplace_back(name, value ? "true" : "false");
}

void
D2dRunRecord::AddParameter(const std::string& name, double value)
{
    m_parameters.emplace_back(name, D2dJson::Number(value));
}

void
D2dRunRecord::AddParameterJson(const std::string& name, const std::string& json)
{
    m_parameters.emplace_back(name, json);
}

void
D2dRunRecord::AddParameterArray(const std::string& name, const std::vector<double>& values)
{
    AddParameterJson(name, D2dJson::NumberArray(values));
}

void
D2dRunRecord::AddParameterArray(const std::string& name, const std::vector<uint32_t>& values)
{
    std::string json = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        json += fmt::format("{}{}", i ? ", " : "", values[i]);
    }
    AddParameterJson(name, json + "]");
}

void
D2dRunRecord::AddAttributes(Ptr<Object> object)
{
    const TypeId tid = object->GetInstanceTypeId();
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t a = 0; a < t.GetAttributeN(); ++a)
        {
            const auto info = t.GetAttribute(a);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            auto value = info.checker->Create();
            if (!info.accessor->Get(PeekPointer(object), *value))
            {
                continue;
            }
            const std::string name = tid.GetName() + "::" + info.name;
            const std::string type = D2dAttributePath::ValueTypeName(info.checker);
            if (type == "ns3::DoubleValue")
            {
                AddParameter(name, DynamicCast<DoubleValue>(value)->Get());
                continue;
            }
            if (type == "ns3::UintegerValue")
            {
                AddParameter(name, DynamicCast<UintegerValue>(value)->Get());
                continue;
            }
            if (type == "ns3::IntegerValue")
            {
                AddParameter(name, DynamicCast<IntegerValue>(value)->Get());
                continue;
            }
            if (type == "ns3::BooleanValue")
            {
                AddParameter(name, DynamicCast<BooleanValue>(value)->Get());
                continue;
            }
            const std::string text = value->SerializeToString(info.checker);
            if (text.empty() || text.find("0x") == 0)
            {
                continue; // pointers carry no value worth recording
            }
            AddParameter(name, text);
        }
        if (t == t.GetParent() || t.GetParent() == Object::GetTypeId() || t.GetParent() == TypeId())
        {
            break;
        }
    }
}

D2dRunSummary&
D2dRunRecord::Summary()
{
    return m_summary;
}

std::string
D2dRunRecord::ToJson(const std::string& head, double simulatedSeconds, double wallSeconds) const
{
    std::string json = "{\n" + head;
    json += "  \"parameters\": {";
    for (std::size_t i = 0; i < m_parameters.size(); ++i)
    {
        json += fmt::format("{}\n    {}: {}",
                            i == 0 ? "" : ",",
                            D2dJson::String(m_parameters[i].first),
                            m_parameters[i].second);
    }
    json += "\n  },\n  \"summary\": ";
    json += m_summary.ToJson(simulatedSeconds, wallSeconds, "  ");
    json += "\n}\n";
    return json;
}

} // namespace ns3
