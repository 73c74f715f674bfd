/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRACE_HELPER_H
#define D2D_TRACE_HELPER_H

#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-energy-model.h"
#include "ns3/d2d-transport.h"
#include "ns3/node-container.h"

#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Writes a run's trace folder: messages.csv, energy.csv and run.json (SPEC.md).
 *
 * Rows are streamed into temporary files as the simulation runs; Finish() renames them
 * into place and writes run.json last, so a run that fails or is interrupted leaves no
 * complete-looking trace: files not finished are deleted by the destructor.
 *
 * messages.csv: msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,fragments_lost,
 * retransmissions,delivered,mode,p_drop,reason — one row per (message, receiver).
 * energy.csv: sim_time_s,node,component,energy_j,remaining_j — one row per period of
 * constant draw of a component (see D2dEnergyModel).
 */
class D2dTraceHelper
{
  public:
    /**
     * \brief Open the trace files in outDir (created if missing).
     * \param outDir output folder
     * \throws std::runtime_error if the folder or the files cannot be created
     */
    explicit D2dTraceHelper(const std::string& outDir);
    ~D2dTraceHelper();
    D2dTraceHelper(const D2dTraceHelper&) = delete;
    D2dTraceHelper& operator=(const D2dTraceHelper&) = delete;

    /** \param transport write the outcomes of the messages it sends */
    void ConnectTransport(Ptr<D2dTransport> transport);
    /** \param channel connect every radio of the channel */
    void ConnectChannel(Ptr<D2dChannel> channel);
    /** \param model write its energy events */
    void ConnectEnergyModel(Ptr<D2dEnergyModel> model);
    /**
     * \brief Connect the D2dEnergyModels of every energy source of the nodes.
     * \param nodes nodes with an aggregated EnergySourceContainer
     */
    void ConnectEnergy(NodeContainer nodes);

    /**
     * \brief Record a parameter for run.json.
     * \param name parameter name
     * \param value its value as text (numbers and true/false are written unquoted)
     */
    void AddParameter(const std::string& name, const std::string& value);
    /**
     * \brief Record every attribute of an object for run.json ("Class::Attribute").
     * \param object the object
     */
    void AddAttributes(Ptr<Object> object);

    /**
     * \brief Flush the energy models' open periods, close the trace files, write run.json
     * and move everything into place.
     * \param seed the run's seed
     * \param wallSeconds wall-clock duration of the run (s)
     * \throws std::runtime_error on an I/O error
     */
    void Finish(uint64_t seed, double wallSeconds);

    /** \return the output folder */
    const std::string& GetOutDir() const;
    /** \return number of messages.csv rows so far */
    uint64_t GetNMessageRows() const;
    /** \return number of energy.csv rows so far */
    uint64_t GetNEnergyRows() const;

    /** \return the module version written in run.json */
    static std::string Version();

  private:
    /** \brief Append one messages.csv row. */
    void WriteDelivery(const D2dDeliveryRecord& record);
    /** \brief Append one energy.csv row. */
    void WriteEnergy(Time time,
                     uint32_t node,
                     const std::string& component,
                     double energyJ,
                     double remainingJ);

    std::string m_outDir;
    std::ofstream m_messages;
    std::ofstream m_energy;
    std::vector<char> m_messagesBuffer;
    std::vector<char> m_energyBuffer;
    std::vector<Ptr<D2dEnergyModel>> m_energyModels;
    std::vector<std::pair<std::string, std::string>> m_parameters;
    uint64_t m_nMessageRows{0};
    uint64_t m_nEnergyRows{0};
    bool m_finished{false};
};

} // namespace ns3

#endif /* D2D_TRACE_HELPER_H */
