/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RSS_MODEL_H
#define D2D_RSS_MODEL_H

#include "ns3/mobility-model.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Received signal strength W_ij (watts) at receiver i from transmitter j.
 *
 * The notation of Wagle et al. 2025: W_ij is the RSS at c_i when c_j transmits. Subclasses:
 * PropagationRssModel (an ns-3 PropagationLossModel and the transmit power),
 * MatrixRssModel (an explicit N x N matrix, e.g. from --rssFile) and DynamicRssModel
 * (redrawn from a Gaussian and quantized every step, Wagle et al. 2025, sec. VI-P).
 */
class D2dRssModel : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \param rxMobility receiver's mobility (positions at the time of the call)
     * \param txMobility transmitter's mobility
     * \param txPowerDbm transmitter's power (dBm)
     * \return W_ij in watts (> 0)
     */
    virtual double GetRssW(uint32_t rx,
                           uint32_t tx,
                           Ptr<MobilityModel> rxMobility,
                           Ptr<MobilityModel> txMobility,
                           double txPowerDbm) = 0;

    /**
     * \param stream first RNG stream index to use
     * \return number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream);
};

} // namespace ns3

#endif /* D2D_RSS_MODEL_H */
