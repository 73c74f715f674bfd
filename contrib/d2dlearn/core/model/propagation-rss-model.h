/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROPAGATION_RSS_MODEL_H
#define PROPAGATION_RSS_MODEL_H

#include "d2d-rss-model.h"

#include "ns3/propagation-loss-model.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief RSS from an ns-3 PropagationLossModel (default log-distance) and the
 * transmitter's power, at the node positions of the moment (mobility changes RSS).
 */
class PropagationRssModel : public D2dRssModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PropagationRssModel();

    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \param rxMobility receiver's mobility (its position now)
     * \param txMobility transmitter's mobility (its position now)
     * \param txPowerDbm transmitter's power (dBm)
     * \return W_ij in watts: the loss model's received power, converted from dBm
     */
    double GetRssW(uint32_t rx,
                   uint32_t tx,
                   Ptr<MobilityModel> rxMobility,
                   Ptr<MobilityModel> txMobility,
                   double txPowerDbm) override;
    /**
     * \param stream first RNG stream index to use (the loss model's)
     * \return number of streams the loss model used
     */
    int64_t AssignStreams(int64_t stream) override;

    /** \return the loss model */
    Ptr<PropagationLossModel> GetPropagationLossModel() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    Ptr<PropagationLossModel> m_loss; //!< the loss model (PropagationLossModel attribute)
};

} // namespace ns3

#endif /* PROPAGATION_RSS_MODEL_H */
