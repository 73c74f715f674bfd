/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dAttributePath, the reader of "ns3::Class::Attribute": the
 * split at the last "::" as Config::SetDefault makes it, the lookup in the class itself
 * (not its parents, which Config::SetDefault does not search either), and the value type
 * names with their ns3:: prefix.
 */

#include "ns3/boolean.h"
#include "ns3/d2d-attribute-path.h"
#include "ns3/d2d-channel.h"
#include "ns3/double.h"
#include "ns3/random-variable-stream.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>

using ns3::D2dAttributePath;
using ns3::TypeId;

namespace
{

TEST(D2dAttributePathTest, SplitsAtTheLastSeparator)
{
    std::string typeName;
    std::string attribute;
    EXPECT_TRUE(D2dAttributePath::Split("ns3::D2dChannel::RangeM", &typeName, &attribute));
    EXPECT_EQ(typeName, "ns3::D2dChannel");
    EXPECT_EQ(attribute, "RangeM");
    EXPECT_TRUE(D2dAttributePath::Split("ns3::a::b::C", &typeName, &attribute));
    EXPECT_EQ(typeName, "ns3::a::b");
    EXPECT_EQ(attribute, "C");
    EXPECT_TRUE(D2dAttributePath::Split("ns3::D2dChannel::", &typeName, &attribute));
    EXPECT_EQ(typeName, "ns3::D2dChannel");
    EXPECT_EQ(attribute, "");
}

TEST(D2dAttributePathTest, RefusesAPathWithoutAClass)
{
    std::string typeName = "unset";
    std::string attribute = "unset";
    EXPECT_FALSE(D2dAttributePath::Split("RangeM", &typeName, &attribute));
    EXPECT_EQ(typeName, "unset"); // no "::": nothing set
    EXPECT_EQ(attribute, "unset");
    // "ns3::RangeM" names no class: the parts are set (for a message) but refused.
    EXPECT_FALSE(D2dAttributePath::Split("ns3::RangeM", &typeName, &attribute));
    EXPECT_EQ(typeName, "ns3");
    EXPECT_EQ(attribute, "RangeM");
    EXPECT_FALSE(D2dAttributePath::Split("::RangeM", &typeName, &attribute));
    EXPECT_EQ(typeName, "");
    EXPECT_FALSE(D2dAttributePath::Split("", &typeName, &attribute));
}

TEST(D2dAttributePathTest, LooksUpAttributesTheClassDefinesItself)
{
    TypeId::AttributeInformation info;
    ASSERT_TRUE(D2dAttributePath::Lookup("ns3::D2dChannel::MtuBytes", &info));
    EXPECT_EQ(info.name, "MtuBytes");
    ASSERT_TRUE(D2dAttributePath::Lookup("ns3::UniformRandomVariable::Max", &info));
    EXPECT_EQ(info.name, "Max");
    // Stream is defined by the parent, RandomVariableStream: Config::SetDefault refuses it
    // under the child's name, so the lookup does too.
    EXPECT_FALSE(D2dAttributePath::Lookup("ns3::UniformRandomVariable::Stream", &info));
    EXPECT_TRUE(D2dAttributePath::Lookup("ns3::RandomVariableStream::Stream", &info));
    EXPECT_TRUE(
        D2dAttributePath::DefinedBy(ns3::RandomVariableStream::GetTypeId(), "Antithetic", &info));
    EXPECT_FALSE(
        D2dAttributePath::DefinedBy(ns3::UniformRandomVariable::GetTypeId(), "Antithetic", &info));
    EXPECT_FALSE(D2dAttributePath::Lookup("ns3::D2dChannel::NoSuchAttribute", &info));
    EXPECT_FALSE(D2dAttributePath::Lookup("ns3::NoSuchClass::MtuBytes", &info));
    EXPECT_FALSE(D2dAttributePath::Lookup("ns3::MtuBytes", &info));
    EXPECT_FALSE(D2dAttributePath::Lookup("MtuBytes", &info));
}

TEST(D2dAttributePathTest, ValueTypeNamesHaveTheNs3Prefix)
{
    EXPECT_EQ(D2dAttributePath::ValueTypeName(ns3::MakeDoubleChecker<double>()),
              "ns3::DoubleValue");
    EXPECT_EQ(D2dAttributePath::ValueTypeName(ns3::MakeUintegerChecker<uint32_t>()),
              "ns3::UintegerValue");
    EXPECT_EQ(D2dAttributePath::ValueTypeName(ns3::MakeBooleanChecker()), "ns3::BooleanValue");
    TypeId::AttributeInformation info;
    ASSERT_TRUE(D2dAttributePath::Lookup("ns3::D2dChannel::FastPath", &info));
    EXPECT_EQ(D2dAttributePath::ValueTypeName(info.checker), "ns3::BooleanValue");
}

} // namespace
