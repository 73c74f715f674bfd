/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_B1_CHANNEL_CONDITION_MODEL_H
#define D2D_B1_CHANNEL_CONDITION_MODEL_H

#include "ns3/channel-condition-model.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The LOS probability of WINNER+ B1 (WINNER II D1.1.2 Table 4-7), which 3GPP TR
 * 36.843 V12.0.1 sec. A.2.1.2 applies to its outdoor UE-to-UE links:
 *
 *   P_LOS(d) = min(18 / d, 1) (1 - exp(-d / 36)) + exp(-d / 36),  d the 2-D distance, m.
 *
 * ns-3's ThreeGppChannelConditionModel draws each pair's state from it once and keeps it
 * (UpdatePeriod 0).
 */
class D2dB1ChannelConditionModel : public ThreeGppChannelConditionModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param distance2dM d, m
     * \return P_LOS(d)
     */
    static double LosProbability(double distance2dM);

  private:
    /**
     * \param a one end
     * \param b the other
     * \return LosProbability() of their 2-D distance
     */
    double ComputePlos(Ptr<const MobilityModel> a, Ptr<const MobilityModel> b) const override;
};

} // namespace ns3

#endif /* D2D_B1_CHANNEL_CONDITION_MODEL_H */
