#ifndef D2D_NS3_COMPAT_H
#define D2D_NS3_COMPAT_H

/**
 * \file
 * \ingroup d2dlearn
 * d2dlearn's one compatibility point with the ns-3 releases it builds against, 3.37 (Debian
 * 12's package, November 2022) to 3.48 (June 2026). Nothing else in the module spells an ns-3
 * version or works around a release: a change of ns-3's API is met here, once.
 *
 * D2DLEARN_NS3_VERSION is 100 x major + minor of the ns-3 in use (337, 341, 348, ...),
 * defined by d2dlearn's CMake from the ns-3 it found: the installed package's version
 * (standalone) or the source tree's VERSION file (inside an ns-3 tree, contrib/d2dlearn). It is
 * a usage requirement of the d2dlearn targets, so a program that links them gets it too.
 *
 * What changed, by release (ns-3's CHANGES.md), and how it is met here:
 * - 3.38: CommandLine::AddValue's callback takes `const std::string&`: D2dCommandLineArgument.
 * - 3.40: GenericBatteryModel added, LiIonEnergySource deprecated (later removed; present in
 *   3.44, gone in 3.48): D2DLEARN_HAVE_GENERIC_BATTERY, D2DLEARN_HAVE_LIION_SOURCE (CMake's
 *   D2DLEARN_NS3_LIION_SOURCE: whether that release's own energy headers have
 *   li-ion-energy-source.h; not __has_include, which would find Debian's 3.37 header in
 *   /usr/include/ns3 when compiling in a newer tree), which decide whether --energySource=liion
 *   and --energySource=generic are accepted.
 * - 3.41: EnumValue is a class template (MakeEnumAccessor<T>, EnumValue<T>):
 *   D2dMakeEnumAccessor, D2dEnumValue, D2dIsEnumValueType. An attribute refuses, at run time,
 *   an EnumValue of another type (EnumValue(0) is EnumValue<int>): d2dlearn sets enumeration
 *   attributes with the enumeration's own constants.
 * - 3.42: the energy module in namespace ns3::energy: the using-declarations below.
 * - 3.42: EventId::IsRunning deprecated (removed in 3.46): d2dlearn calls !IsExpired(), which
 *   every release has.
 * - 3.42: TestCase::Duration and TestSuite::Type became enum classes (the old names removed in
 *   3.46): the test suites use the defaults (QUICK, UNIT), which every release has.
 * - 3.43: the energy TypeIds named ns3::energy::... (the old names deprecated): d2dlearn
 *   compares TypeIds and takes names from GetTypeId().GetName(), never from a string.
 * - 3.44 (3.41 still initializes it): a default-constructed UintegerValue, DoubleValue, ...
 *   holds an indeterminate value: d2dlearn gives every value it may read without a
 *   GetAttribute an initial one.
 * - 3.45 to 3.48 (3.44 still has sqrt(x*x + y*y + z*z)): Vector3D::GetLength is std::hypot,
 *   which rounds differently in the last bits: distances, hence the log-distance RSS and
 *   eq. (18)'s drop probability, differ from 3.37's by a few units in the last place (see
 *   the validation page; nothing to meet here).
 * - 3.46: MobilityModel::Copy() is pure virtual (every mobility model implements it):
 *   D2DLEARN_HAVE_MOBILITY_COPY, under which D2dRandomWalkMobilityModel implements it.
 */

#include "ns3/attribute-accessor-helper.h"
#include "ns3/enum.h"

#include <string>
#include <type_traits>

#ifndef D2DLEARN_NS3_VERSION
#error "D2DLEARN_NS3_VERSION is not defined: d2dlearn's CMake defines it (348 for ns-3.48)"
#endif
#if D2DLEARN_NS3_VERSION < 337
#error "d2dlearn needs ns-3.37 or newer"
#endif

// LiIonEnergySource: 3.37 to the release that removed it (present in 3.44, gone in 3.48),
// as d2dlearn's CMake found it in the release's energy headers (d2dlearn_ns3_definitions).
#ifndef D2DLEARN_NS3_LIION_SOURCE
#error \
    "D2DLEARN_NS3_LIION_SOURCE is not defined: d2dlearn's CMake defines it (1 if the ns-3 in use has LiIonEnergySource)"
#endif
/** \def D2DLEARN_HAVE_LIION_SOURCE
 * 1 if the ns-3 in use has LiIonEnergySource, else 0 */
#if D2DLEARN_NS3_LIION_SOURCE
#define D2DLEARN_HAVE_LIION_SOURCE 1
#else
#define D2DLEARN_HAVE_LIION_SOURCE 0
#endif
// The flow-monitor module, linked where the installed ns-3 has it (d2dlearn_ns3_optional;
// not defined inside an ns-3 tree, where d2dlearn does not make ns-3 build it).
/** \def D2DLEARN_HAVE_FLOW_MONITOR
 * 1 if d2dlearn links ns-3's flow-monitor module (--flowMonitor), else 0 */
#if defined(D2DLEARN_NS3_FLOW_MONITOR) && D2DLEARN_NS3_FLOW_MONITOR
#define D2DLEARN_HAVE_FLOW_MONITOR 1
#else
#define D2DLEARN_HAVE_FLOW_MONITOR 0
#endif
// MobilityModel::Copy(), pure virtual: 3.46 and later.
/** \def D2DLEARN_HAVE_MOBILITY_COPY
 * 1 if MobilityModel has Copy() (ns-3.46 and later), else 0 */
#if D2DLEARN_NS3_VERSION >= 346
#define D2DLEARN_HAVE_MOBILITY_COPY 1
#else
#define D2DLEARN_HAVE_MOBILITY_COPY 0
#endif
// GenericBatteryModel: 3.40 and later.
/** \def D2DLEARN_HAVE_GENERIC_BATTERY
 * 1 if the ns-3 in use has GenericBatteryModel (3.40 and later), else 0 */
#if D2DLEARN_NS3_VERSION >= 340
#define D2DLEARN_HAVE_GENERIC_BATTERY 1
#else
#define D2DLEARN_HAVE_GENERIC_BATTERY 0
#endif

namespace ns3
{

#if D2DLEARN_NS3_VERSION >= 342
// The energy module's classes as d2dlearn names them in every release: ns3::X.
namespace energy
{
class EnergySource;
class BasicEnergySource;
class DeviceEnergyModel;
class DeviceEnergyModelContainer;
class EnergySourceContainer;
class SimpleDeviceEnergyModel;
#if D2DLEARN_HAVE_GENERIC_BATTERY
class GenericBatteryModel;
#endif
#if D2DLEARN_HAVE_LIION_SOURCE
class LiIonEnergySource;
#endif
} // namespace energy

using energy::BasicEnergySource;
using energy::DeviceEnergyModel;
using energy::DeviceEnergyModelContainer;
using energy::EnergySource;
using energy::EnergySourceContainer;
using energy::SimpleDeviceEnergyModel;
#if D2DLEARN_HAVE_GENERIC_BATTERY
using energy::GenericBatteryModel;
#endif
#if D2DLEARN_HAVE_LIION_SOURCE
using energy::LiIonEnergySource;
#endif
#endif

/// The argument type of a CommandLine::AddValue callback.
#if D2DLEARN_NS3_VERSION >= 338
using D2dCommandLineArgument = const std::string&;
#else
using D2dCommandLineArgument = std::string;
#endif

/**
 * The attribute value class of an enumeration attribute held as T (an enumeration, or an
 * int for a scoped enumeration in ns-3 before 3.41): EnumValue<T> from 3.41, EnumValue before.
 * \tparam T the held type
 */
#if D2DLEARN_NS3_VERSION >= 341
template <typename T>
using D2dEnumValue = EnumValue<T>;
#else
template <typename T>
using D2dEnumValue = EnumValue;
#endif

/**
 * MakeEnumAccessor of a data member, its held type deduced.
 * \param member the data member (an enumeration, or an int)
 * \return the accessor
 */
template <typename C, typename M>
Ptr<const AttributeAccessor>
D2dMakeEnumAccessor(M C::*member)
{
#if D2DLEARN_NS3_VERSION >= 341
    return MakeEnumAccessor<M>(member);
#else
    return MakeEnumAccessor(member);
#endif
}

/**
 * MakeEnumAccessor of a setter and a getter, the held type that of the getter's result.
 * \param setter the setter
 * \param getter the getter
 * \return the accessor
 */
template <typename C, typename A, typename R>
Ptr<const AttributeAccessor>
D2dMakeEnumAccessor(void (C::*setter)(A), R (C::*getter)() const)
{
#if D2DLEARN_NS3_VERSION >= 341
    return MakeEnumAccessor<std::decay_t<R>>(setter, getter);
#else
    return MakeEnumAccessor(setter, getter);
#endif
}

/**
 * \param valueTypeName an AttributeChecker's GetValueTypeName()
 * \return whether it is an EnumValue's: "ns3::EnumValue" before 3.41, "ns3::EnumValue<T>" from
 *         3.41
 */
inline bool
D2dIsEnumValueType(const std::string& valueTypeName)
{
    return valueTypeName.rfind("ns3::EnumValue", 0) == 0;
}

} // namespace ns3

#endif /* D2D_NS3_COMPAT_H */
