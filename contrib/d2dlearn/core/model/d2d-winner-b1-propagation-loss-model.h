/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_WINNER_B1_PROPAGATION_LOSS_MODEL_H
#define D2D_WINNER_B1_PROPAGATION_LOSS_MODEL_H

#include "ns3/channel-condition-model.h"
#include "ns3/propagation-loss-model.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The outdoor-to-outdoor UE-to-UE path loss of 3GPP TR 36.843 V12.0.1 (LTE D2D
 * proximity services, radio aspects), sec. A.2.1.2: WINNER+ B1 (urban micro, hexagonal
 * layout; WINNER+ D5.3 Table 4-1 and WINNER II D1.1.2 sec. 4.3) with both antennas at
 * h = 1.5 m, effective heights h' = h - 0.7 m = 0.8 m, a LOS offset of 0 dB and an NLOS
 * offset of -5 dB, never below free space:
 *
 *   PL = max(PL_FS(d), PL_B1(d)),  PL_FS = 20 log10 d + 46.4 + 20 log10(f_c / 5),
 *   LOS, 3 m <= d <= d_BP:  PL_B1 = 22.7 log10 d + 27.0 + 20 log10 f_c + LOS offset,
 *   LOS, d > d_BP:          PL_B1 = 40 log10 d + 7.56 - 17.3 log10 h'_1 - 17.3 log10 h'_2
 *                                   + 2.7 log10 f_c + LOS offset,
 *   NLOS:                   PL_B1 = (44.9 - 6.55 log10 h_1) log10 d + 5.83 log10 h_1 + C(f_c)
 *                                   + NLOS offset,
 *
 * d in m (3-D), f_c in GHz, d_BP = 4 h'_1 h'_2 f_c / c (f_c in Hz, c = 3e8 m/s), h_1 the
 * higher antenna; C = 14.78 + 34.97 log10 f_c in the 2 GHz band (1.9 to 2.2 GHz) and
 * 16.33 + 26.16 log10 f_c in the 700 MHz band (0.7 to 0.8 GHz), the two carriers of the
 * study; below 3 m, free space. The LOS state comes from a ChannelConditionModel
 * (D2dB1ChannelConditionModel: WINNER+ B1's LOS probability).
 *
 * The TR's own text was not available to this implementation: the formulas and values are
 * those that NIST's public-safety ns-3 (psc-ns3, OutdoorToOutdoorPropagationLossModel and
 * its documentation, "3GPP TR 36.843 V12.0.1 Section A.2.1.2") states. Where NIST's code and
 * documentation differ (46.6 or 46.4 dB in free space; h' = h - 1 or h - 0.7), this model
 * follows the documentation and WINNER II.
 */
class D2dWinnerB1PropagationLossModel : public PropagationLossModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dWinnerB1PropagationLossModel();

    /**
     * \param hz a carrier, Hz
     * \return whether it lies in one of the study's two bands (0.7 to 0.8 GHz, 1.9 to 2.2 GHz),
     *         those of the NLOS formula's C(f_c)
     */
    static bool IsStudiedCarrier(double hz);

    /**
     * \param distanceM d, m
     * \param heightAM one antenna's height, m
     * \param heightBM the other's, m
     * \param los whether the link is in line of sight
     * \return PL = max(PL_FS, PL_B1) of the class description, dB
     */
    double GetLossDb(double distanceM, double heightAM, double heightBM, bool los) const;

  protected:
    /** \brief Drop the condition model (Object::DoDispose). */
    void DoDispose() override;

  private:
    /**
     * \param txPowerDbm transmit power, dBm
     * \param a the transmitter's mobility
     * \param b the receiver's mobility
     * \return txPowerDbm - GetLossDb() at their distance, heights and LOS state, dBm
     */
    double DoCalcRxPower(double txPowerDbm,
                         Ptr<MobilityModel> a,
                         Ptr<MobilityModel> b) const override;
    /**
     * \param stream first stream
     * \return 0 (the condition model's streams are its own)
     */
    int64_t DoAssignStreams(int64_t stream) override;

    double m_frequencyHz{2e9};              //!< f_c (Frequency attribute), Hz
    double m_losOffsetDb{0.0};              //!< LOS offset (LosOffsetDb), dB
    double m_nlosOffsetDb{-5.0};            //!< NLOS offset (NlosOffsetDb), dB
    double m_effectiveHeightOffsetM{0.7};   //!< h - h' (EffectiveHeightOffsetM), m
    Ptr<ChannelConditionModel> m_condition; //!< the LOS state of each link
};

} // namespace ns3

#endif /* D2D_WINNER_B1_PROPAGATION_LOSS_MODEL_H */
