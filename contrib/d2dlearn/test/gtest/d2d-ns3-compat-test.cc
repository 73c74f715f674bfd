/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of d2d-ns3-compat.h, d2dlearn's one compatibility point with ns-3
 * 3.37 to 3.48, against the ns-3 this build uses: the enumeration accessors deduce the held
 * type (an enumeration, or an int that holds a scoped one) and round-trip a value through
 * D2dEnumValue, the value-type test accepts both spellings of EnumValue, and the version macro
 * and the feature flags agree with each other.
 */

#include "ns3/d2d-ns3-compat.h"
#include "ns3/object-base.h"
#include "ns3/type-id.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** An object with the two kinds of enumeration members d2dlearn's attributes hold. */
class CompatProbe : public ObjectBase
{
  public:
    enum Mode
    {
        FIRST,
        SECOND
    };

    enum class Scoped
    {
        ONE,
        TWO
    };

    TypeId GetInstanceTypeId() const override
    {
        return TypeId();
    }

    Mode mode{FIRST};                          //!< held as the enumeration
    int scoped{static_cast<int>(Scoped::ONE)}; //!< a Scoped held as int (as d2dlearn does)

    void SetMode(Mode m)
    {
        mode = m;
    }

    Mode GetMode() const
    {
        return mode;
    }
};

TEST(D2dNs3CompatTest, EnumAccessorOfAMember)
{
    CompatProbe probe;
    const auto accessor = D2dMakeEnumAccessor(&CompatProbe::mode);
    EXPECT_TRUE(accessor->Set(&probe, D2dEnumValue<CompatProbe::Mode>(CompatProbe::SECOND)));
    EXPECT_EQ(probe.mode, CompatProbe::SECOND);
    D2dEnumValue<CompatProbe::Mode> read;
    EXPECT_TRUE(accessor->Get(&probe, read));
    EXPECT_EQ(read.Get(), CompatProbe::SECOND);
}

TEST(D2dNs3CompatTest, EnumAccessorOfAScopedEnumerationHeldAsInt)
{
    CompatProbe probe;
    const auto accessor = D2dMakeEnumAccessor(&CompatProbe::scoped);
    EXPECT_TRUE(
        accessor->Set(&probe, D2dEnumValue<int>(static_cast<int>(CompatProbe::Scoped::TWO))));
    EXPECT_EQ(static_cast<CompatProbe::Scoped>(probe.scoped), CompatProbe::Scoped::TWO);
    D2dEnumValue<int> read;
    EXPECT_TRUE(accessor->Get(&probe, read));
    EXPECT_EQ(read.Get(), static_cast<int>(CompatProbe::Scoped::TWO));
}

TEST(D2dNs3CompatTest, EnumAccessorOfASetterAndAGetter)
{
    CompatProbe probe;
    const auto accessor = D2dMakeEnumAccessor(&CompatProbe::SetMode, &CompatProbe::GetMode);
    EXPECT_TRUE(accessor->Set(&probe, D2dEnumValue<CompatProbe::Mode>(CompatProbe::SECOND)));
    EXPECT_EQ(probe.GetMode(), CompatProbe::SECOND);
}

TEST(D2dNs3CompatTest, EnumValueTypeNames)
{
    EXPECT_TRUE(D2dIsEnumValueType("ns3::EnumValue"));            // to 3.40
    EXPECT_TRUE(D2dIsEnumValueType("ns3::EnumValue<ns3::Mode>")); // from 3.41
    EXPECT_FALSE(D2dIsEnumValueType("ns3::DoubleValue"));
    EXPECT_FALSE(D2dIsEnumValueType("ns3::UintegerValue"));
    // The checker of an enumeration attribute says one of them, in the release in use.
    const auto checker =
        MakeEnumChecker(CompatProbe::FIRST, "first", CompatProbe::SECOND, "second");
    EXPECT_TRUE(D2dIsEnumValueType(checker->GetValueTypeName()));
}

TEST(D2dNs3CompatTest, VersionAndFeatures)
{
    EXPECT_GE(D2DLEARN_NS3_VERSION, 337);
    EXPECT_LE(D2DLEARN_NS3_VERSION, 348);
    // GenericBatteryModel is in 3.40 and later; LiIonEnergySource in 3.37 and, deprecated, at
    // least to 3.44: between them every release has one of the two.
    EXPECT_EQ(D2DLEARN_HAVE_GENERIC_BATTERY, D2DLEARN_NS3_VERSION >= 340 ? 1 : 0);
    if (D2DLEARN_NS3_VERSION <= 344)
    {
        EXPECT_EQ(D2DLEARN_HAVE_LIION_SOURCE, 1);
    }
    EXPECT_TRUE(D2DLEARN_HAVE_GENERIC_BATTERY || D2DLEARN_HAVE_LIION_SOURCE);
}

} // namespace
