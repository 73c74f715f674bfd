/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-device-generator.h"

#include <ATen/CPUGeneratorImpl.h>

namespace ns3
{

void
D2dDeviceGenerator::Seed(uint64_t runSeed, uint32_t id)
{
    // The device's own stream: the run seed and the device id, mixed (splitmix64).
    uint64_t z = runSeed * 0x9E3779B97F4A7C15ULL + (static_cast<uint64_t>(id) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    m_seed = z;
    m_generator.reset();
    m_initialDrawn = false;
}

at::Generator&
D2dDeviceGenerator::Get()
{
    if (!m_generator)
    {
        m_generator = at::make_generator<at::CPUGeneratorImpl>(m_seed);
    }
    return *m_generator;
}

bool
D2dDeviceGenerator::InitialDrawn() const
{
    return m_initialDrawn;
}

void
D2dDeviceGenerator::SetInitialDrawn()
{
    m_initialDrawn = true;
}

} // namespace ns3
