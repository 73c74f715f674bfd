/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_THERMAL_NOISE_H
#define D2D_THERMAL_NOISE_H

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Thermal noise at a receiver: sigma^2 = k T0 B F (H. T. Friis, "Noise Figures of
 * Radio Receivers", Proc. IRE 32(7), 1944), k Boltzmann's constant, T0 = 290 K, B the
 * bandwidth, F = 10^(NF / 10) the noise figure; in dBm about -174 dBm/Hz + 10 log10 B + NF.
 * The sigma^2 of eq. (18) of Wagle et al. 2025 under D2dChannel's NoiseModel Thermal.
 */
class D2dThermalNoise
{
  public:
    /** Boltzmann's constant k, J/K (SI 2019, exact). */
    static constexpr double BOLTZMANN_J_PER_K = 1.380649e-23;
    /** The reference temperature T0 of a noise figure, K (ns-3's wifi PHY and IEEE use 290). */
    static constexpr double TEMPERATURE_K = 290.0;

    /**
     * \param bandwidthHz B, Hz
     * \param noiseFigureDb NF, dB
     * \return sigma^2 = k T0 B 10^(NF / 10), W
     */
    static double PowerW(double bandwidthHz, double noiseFigureDb);
};

} // namespace ns3

#endif /* D2D_THERMAL_NOISE_H */
