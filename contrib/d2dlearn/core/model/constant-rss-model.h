/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONSTANT_RSS_MODEL_H
#define CONSTANT_RSS_MODEL_H

#include "d2d-rss-model.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The same RSS W (watts) on every link, whatever the positions and transmit power:
 * a channel in which every link has one drop probability P_D.
 *
 * ForDropProbability() gives the W at which eq. (18) of Wagle, Das, Love and Brinton,
 * "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning" (2025), P_D = 1 - exp(-(2^r - 1) sigma^2 / W), yields a target P_D, so that
 * the channel still computes its drop probabilities with eq. (18). ns-3's
 * FixedRssLossModel also fixes the received power, but in dBm: the round trip through
 * dBm would move P_D off the target in its last digits, which a sweep over P_D should not
 * see. A D2dChannel with this model and RangeM > 0 cuts the links by distance (as with
 * positions), so that W is uniform within range.
 */
class ConstantRssModel : public D2dRssModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Inverse of eq. (18): W = (2^r - 1) sigma^2 / (-ln(1 - P_D)).
     * \param dropProbability the target P_D, in [0, 1)
     * \param spectralEfficiency r (bit/s/Hz), > 0 unless P_D = 0
     * \param noisePowerW sigma^2 (W), > 0 unless P_D = 0
     * \return W (watts); P_D = 0 gives the largest finite double, at which eq. (18) gives 0
     * \throws std::invalid_argument when an argument is outside its range
     */
    static double ForDropProbability(double dropProbability,
                                     double spectralEfficiency,
                                     double noisePowerW);

    double GetRssW(uint32_t rx,
                   uint32_t tx,
                   Ptr<MobilityModel> rxMobility,
                   Ptr<MobilityModel> txMobility,
                   double txPowerDbm) override;

  private:
    double m_rssW{1e-9}; //!< W of every link, watts
};

} // namespace ns3

#endif /* CONSTANT_RSS_MODEL_H */
