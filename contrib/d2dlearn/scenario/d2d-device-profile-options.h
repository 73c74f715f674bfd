/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DEVICE_PROFILE_OPTIONS_H
#define D2D_DEVICE_PROFILE_OPTIONS_H

#include "ns3/node-container.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;
class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief What a device-profile file gives each device: one value per device for each column
 * the file has (a vector is empty when its column is absent).
 */
struct D2dDeviceProfile
{
    std::vector<double> flopsPerSecond; //!< flops_per_second: D2dComputeModel FlopsPerSecond
    std::vector<double> busyPowerW;     //!< busy_power_w: D2dComputeModel BusyPowerW, W
    std::vector<double> initialEnergyJ; //!< initial_energy_j: the battery's InitialEnergyJ, J
};

/**
 * \ingroup d2dlearn
 * \brief Devices as they are: each device's compute speed, compute power and battery, from a
 * named distribution or from a file with one row per device (D2dNetworkOptions' device flags,
 * in the programs whose devices train).
 *
 * - --computeSpread=SIGMA (the Flops compute model): device i computes at
 *   FlopsPerSecond x exp(SIGMA Z_i), Z_i standard normal drawn from --seed (D2dDataRng,
 *   purpose COMPUTE_SPEED, one draw per device in index order): log-normal with median
 *   FlopsPerSecond and shape SIGMA. The ratio of the 90th to the 10th percentile of the
 *   speeds is exp(2 x 1.2816 SIGMA): 10 at SIGMA = 0.9.
 * - --deviceProfiles=FILE: a CSV file with a header and one row per device 0..N-1 (any
 *   order, each once): `device` and at least one of `flops_per_second` (FLOP/s, the Flops
 *   model), `busy_power_w` (W, the Flops model) and `initial_energy_j` (J, a battery of
 *   --energySource=linear or basic). Each value replaces the device's attribute.
 * The values in force are recorded in run.json (flopsPerSecondPerDevice, busyPowerWPerDevice,
 * initialEnergyJPerDevice) for up to 10,000 devices.
 */
class D2dDeviceProfileOptions
{
  public:
    double computeSpread{0.0};  //!< --computeSpread: SIGMA of ln(speed) (0: all alike)
    std::string deviceProfiles; //!< --deviceProfiles: the CSV file (empty: none)

    /** The most devices whose values run.json lists. */
    static constexpr uint32_t MAX_RECORDED = 10000;

    /**
     * \brief Declare the flags.
     * \param flags the scenario's flags
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * \brief After parsing, nDevices known: read and check the file; refuse in one line a
     * column the run's models cannot use, and --computeSpread with a flops_per_second column.
     * \param support the scenario's support (error messages)
     * \param nDevices the devices
     * \param computeModel --computeModel (flops or cpu)
     * \param energySource --energySource
     */
    void Validate(const D2dScenarioSupport& support,
                  uint32_t nDevices,
                  const std::string& computeModel,
                  const std::string& energySource);

    /**
     * \brief Set each device's compute model and battery (after the network is built, before
     * the simulation starts).
     * \param devices the devices, index order
     * \param seed --seed (the speeds of --computeSpread)
     */
    void Apply(const NodeContainer& devices, uint64_t seed);

    /** \param traces the run's trace helper: run.json's per-device values */
    void Record(D2dTraceHelper& traces) const;

    /**
     * \brief Read a device-profile file.
     * \param path the file
     * \param nDevices the devices it must describe, each once
     * \return its values by device
     * \throw std::runtime_error one line naming the file (and the line) and what is wrong
     */
    static D2dDeviceProfile Read(const std::string& path, uint32_t nDevices);

    /**
     * \brief The speed factors of --computeSpread: exp(sigma Z_i) for i = 0..n-1.
     * \param seed --seed
     * \param n devices
     * \param sigma the shape (>= 0)
     * \return the factors, index order
     */
    static std::vector<double> LogNormalFactors(uint64_t seed, uint32_t n, double sigma);

  private:
    D2dDeviceProfile m_file;      //!< the file's values (Validate)
    std::vector<double> m_speeds; //!< the speeds set (Apply: the file's or --computeSpread's)
};

} // namespace ns3

#endif /* D2D_DEVICE_PROFILE_OPTIONS_H */
