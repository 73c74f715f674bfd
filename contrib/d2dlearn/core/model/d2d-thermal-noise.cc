/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-thermal-noise.h"

#include <cmath>

namespace ns3
{

double
D2dThermalNoise::PowerW(double bandwidthHz, double noiseFigureDb)
{
    // sigma^2 = k T0 B F, F = 10^(NF / 10).
    return BOLTZMANN_J_PER_K * TEMPERATURE_K * bandwidthHz * std::pow(10.0, noiseFigureDb / 10.0);
}

} // namespace ns3
