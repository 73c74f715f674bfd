/*
 * Built against the installed d2dlearn targets (tests/install/CMakeLists.txt), three times:
 * linked with d2dlearn::d2dlearn, with d2dlearn::learning (D2DLEARN_CHECK_LEARNING) and with
 * d2dlearn::scenario (D2DLEARN_CHECK_SCENARIO: a symbol of libd2dlearn-scenario.so).
 * It does not compile if the targets' usage requirements are incomplete or bring
 * LibTorch's headers along; it does not link if a library the target needs is missing
 * (the learning check uses a symbol of libd2dlearn-learning.so, whose libtorch the
 * linker must then resolve); run, it exits 0 when the library's TypeId is registered.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/d2dlearn-module.h"

#ifndef NS3_LOG_ENABLE
#error "d2dlearn's targets must define NS3_LOG_ENABLE (ns-3 does not export it)"
#endif
#ifndef NS3_ASSERT_ENABLE
#error "d2dlearn's targets must define NS3_ASSERT_ENABLE (ns-3 does not export it)"
#endif
// Debian installs torch/torch.h under /usr/include/torch/csrc/api/include: it is found
// only if that folder became an include folder of the target.
#if __has_include(<torch/torch.h>)
#error "LibTorch's include folders leaked into d2dlearn's usage requirements"
#endif

#include <iostream>
#include <string>
#include <vector>

int
main()
{
#if defined(D2DLEARN_CHECK_SCENARIO)
    // A symbol of libd2dlearn-scenario.so: the fedavg program's flag over the registry.
    const std::vector<std::string> names = ns3::D2dProtocolChoice("algorithm", "fedavg").GetNames();
    const std::string name = names.empty() ? std::string() : names.front();
    const std::string expected = "fedavg";
#elif defined(D2DLEARN_CHECK_LEARNING)
    const std::string name = ns3::D2dLearner::GetTypeId().GetName();
    const std::string expected = "ns3::D2dLearner";
#else
    const std::string name = ns3::D2dChannel::GetTypeId().GetName();
    const std::string expected = "ns3::D2dChannel";
#endif
    std::cout << "usage-check: " << name << "\n";
    return name == expected ? 0 : 1;
}
