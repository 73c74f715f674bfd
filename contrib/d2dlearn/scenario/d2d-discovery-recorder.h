/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DISCOVERY_RECORDER_H
#define D2D_DISCOVERY_RECORDER_H

#include "ns3/d2d-message-passing.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The bookkeeping of a graph-discovery run (D2dGraphDiscoveryHelper): its energy, J, by
 * component family and by stage, and the results its summary reports (label accuracies, the
 * mean W1 to uniform of the label histograms, links found, datapoints moved), of Wagle, Das,
 * Love and Brinton 2025, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning". The helper fills it from the trace sources and writes run.json from it.
 */
class D2dDiscoveryRecorder
{
  public:
    /**
     * \brief Running energy totals per component family: a sink of every energy event
     * (D2dNetwork::ConnectEnergyEvents).
     * \param component the component ("radio_*": D2D, "d2s_*": D2S, "compute")
     * \param energyJ the event's energy, J
     */
    void Energy(Time, uint32_t, const std::string& component, double energyJ, double, Time, double);

    /**
     * \brief A discovery stage ended: the D2D energy since the last stage is the RL's
     * ("learned") or the exchange's (any other stage).
     * \param stage the stage's name
     */
    void MarkStage(const std::string& stage);

    // Energy, J, by component family; at the stages; at the preparation's end.
    double d2dJ{0};            //!< D2D radios' energy so far, J (radio_tx + radio_rx + radio_idle)
    double d2sJ{0};            //!< D2S radios' energy so far, J (d2s_tx + d2s_rx + d2s_idle)
    double computeJ{0};        //!< computation's energy so far, J
    double rlEnergyJ{0};       //!< D2D energy of the RL stages ("learned"), J
    double exchangeEnergyJ{0}; //!< D2D energy of the exchange stages, J
    double stageMarkJ{0};      //!< d2dJ at the last stage's end, J
    double prepEndS{0};        //!< simulated time the preparation ended, s
    double prepD2sJ{0};        //!< D2S energy of the preparation, J
    double discoveryEndS{0};   //!< simulated time the discovery ended, s

    // Results.
    std::vector<D2dFractionalCounts> labelsBefore; //!< true-label histograms when prepared
    std::vector<uint32_t> satisfiedBefore;         //!< eq. (8) counts when prepared
    std::vector<bool> sittingOut;                  //!< devices the preparation left out
    std::vector<double> w1PerEdge;                 //!< unsupervised: mean W1 after each edge
    double labelAccuracy{0};      //!< semi-supervised: mean accuracy of the labels assigned
    double unlabelledAccuracy{0}; //!< semi-supervised: the same on the unlabelled samples
    double w1Before{0};           //!< mean W1 to uniform of the label histograms, prepared
    double w1After{0};            //!< the same after the exchange
    double pDropSum{0};           //!< sum of the found links' P_D
    uint32_t edgesFound{0};       //!< links the discovery found
    double pointsSent{0};         //!< datapoints sent by the exchange
    double pointsReceived{0};     //!< datapoints received
    uint64_t moved{0};            //!< datapoints the exchange moved into the shards
};

} // namespace ns3

#endif /* D2D_DISCOVERY_RECORDER_H */
