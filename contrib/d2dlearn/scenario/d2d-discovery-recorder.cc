/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-discovery-recorder.h"

namespace ns3
{

void
D2dDiscoveryRecorder::Energy(Time,
                             uint32_t,
                             const std::string& component,
                             double energyJ,
                             double,
                             Time,
                             double)
{
    if (component.rfind("radio_", 0) == 0)
    {
        d2dJ += energyJ; // radio_tx + radio_rx + radio_idle
    }
    else if (component.rfind("d2s_", 0) == 0)
    {
        d2sJ += energyJ; // d2s_tx + d2s_rx + d2s_idle
    }
    else if (component == "compute")
    {
        computeJ += energyJ;
    }
}

void
D2dDiscoveryRecorder::MarkStage(const std::string& stage)
{
    (stage == "learned" ? rlEnergyJ : exchangeEnergyJ) += d2dJ - stageMarkJ;
    stageMarkJ = d2dJ;
}

} // namespace ns3
