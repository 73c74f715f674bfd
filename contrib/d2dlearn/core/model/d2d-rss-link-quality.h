/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RSS_LINK_QUALITY_H
#define D2D_RSS_LINK_QUALITY_H

#include "d2d-link-quality.h"
#include "d2d-rss-model.h"

#include "ns3/mobility-model.h"
#include "ns3/node-container.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Link quality for a backend that has no eq. (18) of its own (802.11): P_D(i, j) of
 * eq. (18) of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning for Graph
 * Discovery in D2D-Enabled Federated Learning", 2025, 1 - exp(-(2^r - 1) sigma^2 / W_ij), at
 * the RSS W_ij that an RSS model gives between the devices' positions for TxPowerDbm (e.g. a
 * PropagationRssModel with the loss model of the Wi-Fi channel: what a device can estimate
 * from the RSSI it measures).
 *
 * It is an estimate that a protocol decides with, not the loss the backend applies: over
 * Wi-Fi, frames are lost by the Wi-Fi PHY's error model, and messages.csv records those
 * outcomes. A link whose W_ij is at or below RxSensitivityW has P_D = 1.
 */
class D2dRssLinkQuality : public D2dLinkQuality
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dRssLinkQuality();
    ~D2dRssLinkQuality() override;

    /** \param model the RSS model (W_ij) */
    void SetRssModel(Ptr<D2dRssModel> model);
    /** \param nodes the devices, node i for device index i (their MobilityModels) */
    void SetNodes(const NodeContainer& nodes);

    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return P_D(i, j) of eq. (18) at W_ij now; 1 if W_ij <= RxSensitivityW
     */
    double GetDropProbability(uint32_t rx, uint32_t tx) const override;
    /** \return W_ij now, W \param rx receiver index i \param tx transmitter index j */
    double GetRssW(uint32_t rx, uint32_t tx) const override;
    /**
     * \param rx receiver index i
     * \param tx transmitter index j
     * \return with a DynamicRssModel, the quantized state of W_ij; else 0
     */
    uint32_t GetLinkState(uint32_t rx, uint32_t tx) const override;
    /** \return true with a DynamicRssModel */
    bool IsDynamic() const override;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    Ptr<D2dRssModel> m_rss;                     //!< gives W_ij (SetRssModel)
    std::vector<Ptr<MobilityModel>> m_mobility; //!< by device index (may be null)
    double m_spectralEfficiency;                //!< r, bit/s/Hz
    double m_noisePowerW;                       //!< sigma^2, W
    double m_txPowerDbm;                        //!< transmit power, dBm
    double m_rxSensitivityW;                    //!< W at or below which P_D = 1
};

} // namespace ns3

#endif /* D2D_RSS_LINK_QUALITY_H */
