/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_AVAILABILITY_OPTIONS_H
#define D2D_AVAILABILITY_OPTIONS_H

#include "ns3/d2d-availability-model.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;
class D2dTraceHelper;
struct D2dNetwork;

/**
 * \ingroup d2dlearn
 * \brief Devices that come and go (the fedavg program's availability flags): a
 * D2dAvailabilityModel from the flags, wired to the devices.
 *
 * - --meanOnTime=T --meanOffTime=T: exponential available and away periods of those means
 *   (D2dAvailabilityModel's on/off model; a device is available a fraction
 *   T_on / (T_on + T_off) of the time, from the start);
 * - --availabilityFile=FILE: a CSV file with a header `device,start_s,end_s` and one row per
 *   interval in which a device is available, s; a device with no row is always available.
 *
 * Install() connects each state change to the device's transports (D2dTransport::Leave(),
 * Rejoin(): its radios are off while it is away) and compute model (D2dComputeModel::Leave():
 * its job is lost; Rejoin()), and writes availability.csv, `sim_time_s,device,available`,
 * one row per change (the devices away from the start at time 0).
 */
class D2dAvailabilityOptions
{
  public:
    std::string availabilityFile; //!< --availabilityFile: the CSV file (empty: none)

    /**
     * \brief Declare the flags (--meanOnTime and --meanOffTime are the model's attributes).
     * \param flags the scenario's flags
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * \brief After parsing: both means or neither, not with a file; read and check the file.
     * \param support the scenario's support (error messages)
     * \param flags the parsed flags
     * \param nDevices the devices
     */
    void Validate(const D2dScenarioSupport& support,
                  const D2dScenarioFlags& flags,
                  uint32_t nDevices);

    /** \return true if devices may go away in this run */
    bool IsActive() const;

    /**
     * \brief Make the model, connect it to the devices and to availability.csv, start it
     * (after the network is built, before the protocol starts). Nothing if not IsActive().
     * \param network the network
     * \param seed --seed (the periods' draws)
     * \param traces the run's trace helper
     */
    void Install(const D2dNetwork& network, uint64_t seed, D2dTraceHelper& traces);

    /**
     * \brief Read an availability file.
     * \param path the file
     * \param nDevices the devices of the run
     * \return device i's intervals at index i, ascending
     * \throw std::runtime_error one line naming the file, the line and what is wrong
     */
    static std::vector<D2dAvailabilityModel::Intervals> Read(const std::string& path,
                                                             uint32_t nDevices);

  private:
    bool m_model{false};                                 //!< the on/off model is on
    std::vector<D2dAvailabilityModel::Intervals> m_file; //!< the file's intervals
    Ptr<D2dAvailabilityModel> m_availability;            //!< the model (Install)
};

} // namespace ns3

#endif /* D2D_AVAILABILITY_OPTIONS_H */
