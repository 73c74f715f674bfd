/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROPAGATION_RSS_MODEL_H
#define PROPAGATION_RSS_MODEL_H

#include "d2d-rss-model.h"

#include "ns3/nstime.h"
#include "ns3/propagation-loss-model.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief RSS from an ns-3 PropagationLossModel (default log-distance), or a chain of them
 * (path loss, shadowing, fading: D2dPropagationHelper), and the transmitter's power, at the
 * node positions of the moment (mobility changes RSS).
 *
 * A chain with fast fading draws anew at every evaluation (ns-3's semantics, which the Wi-Fi
 * channel applies per frame). With CoherenceTime T > 0 the RSS of a link (receiver,
 * transmitter) is held for the block of time [k T, (k + 1) T) in which it was first asked
 * for (block fading): a message's receivers, the hearing test and the interference it causes
 * then see one value per link and block.
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

    /**
     * \brief Fix the streams of the channel condition models (LOS/NLOS) of a chain's loss
     * models (their ChannelConditionModel attribute): PropagationLossModel::AssignStreams
     * leaves them to ns-3's automatic numbering.
     * \param chain the first loss model of the chain
     * \param stream the first stream
     * \return the number of streams used
     */
    static int64_t AssignConditionStreams(Ptr<PropagationLossModel> chain, int64_t stream);

    /** \return the links whose RSS is held in the current coherence block */
    std::size_t GetNHeld() const;

    /** \return the loss model */
    Ptr<PropagationLossModel> GetPropagationLossModel() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    Ptr<PropagationLossModel> m_loss; //!< the loss model (PropagationLossModel attribute)
    Time m_coherence;                 //!< CoherenceTime attribute (0: no holding)
    int64_t m_block{-1};              //!< the coherence block m_held belongs to
    std::unordered_map<uint64_t, double> m_held; //!< RSS (W) by (rx << 32 | tx), this block
};

} // namespace ns3

#endif /* PROPAGATION_RSS_MODEL_H */
