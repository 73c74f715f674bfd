/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SHADOWING_LOSS_MODEL_H
#define D2D_SHADOWING_LOSS_MODEL_H

#include "ns3/channel-condition-model.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/vector.h"

#include <cstdint>
#include <unordered_map>
#include <utility>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Log-normal shadowing of each link, spatially correlated: a PropagationLossModel to
 * chain after a path loss model (PropagationLossModel::SetNext) that has no shadowing of its
 * own, e.g. ns-3's LogDistancePropagationLossModel or FriisPropagationLossModel.
 *
 * The shadowing S of a link (dB, subtracted from the received power) is N(0, sigma^2) when
 * the link is first seen. When it is evaluated again after the link's vector (the position
 * of the node with the larger id minus that of the other, 2-D) moved by Delta, it is
 * redrawn with the exponential autocorrelation of M. Gudmundson, "Correlation model for
 * shadow fading in mobile radio systems", Electronics Letters 27(23), 1991, the model of
 * 3GPP TR 38.901 V16.1.0 sec. 7.4.4 that ns-3's ThreeGppPropagationLossModel also applies:
 *
 *   S' = R S + sqrt(1 - R^2) sigma N(0, 1),  R = exp(-Delta / d_cor),
 *
 * so that the correlation of two values of a link whose ends moved d_cor apart is 1/e. A
 * link that did not move keeps its value and draws nothing. The value is reciprocal (one per
 * unordered pair of nodes), and independent between links. The nodes are told apart by the
 * id of the Node their MobilityModel is aggregated to (a 64-bit key: no wrap at any number
 * of nodes).
 *
 * With a ChannelConditionModel (the one of the 3GPP path loss model it follows), sigma and
 * d_cor are those of the link's condition (LOS, NLOS, NLOSv), as in TR 38.901 Table 7.4.1-1
 * and Table 7.5-6 (TR 37.885 for V2V), and a link whose condition changed draws anew. With
 * BreakpointFrequencyHz > 0 a LOS link longer than the breakpoint distance d_BP = 2 pi h_BS
 * h_UT f_c / c has SigmaLosBeyondBreakpointDb (TR 38.901's RMa: 4 dB, then 6 dB).
 *
 * ns-3's ThreeGppPropagationLossModel draws the same way but stores the link's vector as
 * (0, 0, 0) at its first evaluation, so that its second evaluation of a link that did not
 * move is decorrelated by the link's own length (ns-3.37 to 3.48); and it keys a pair of
 * nodes by a Cantor pairing computed in 32 bits, whose product (x1 + x2)(x1 + x2 + 1)
 * wraps once two node ids sum to 65,536 (above 32,769 nodes). The presets therefore
 * switch its shadowing off and chain this model.
 */
class D2dShadowingLossModel : public PropagationLossModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dShadowingLossModel();

    /**
     * \param a one end of the link
     * \param b the other end
     * \return the link's shadowing now, dB (what DoCalcRxPower subtracts); draws as
     *         DoCalcRxPower does
     */
    double GetShadowingDb(Ptr<MobilityModel> a, Ptr<MobilityModel> b) const;

    /** \return the number of links whose shadowing is held */
    std::size_t GetNLinks() const;

  protected:
    /** \brief Forget every link (Object::DoDispose). */
    void DoDispose() override;

  private:
    /**
     * \param txPowerDbm the power before the shadowing, dBm
     * \param a one end of the link
     * \param b the other end
     * \return txPowerDbm minus the link's shadowing (GetShadowingDb()), dBm
     */
    double DoCalcRxPower(double txPowerDbm,
                         Ptr<MobilityModel> a,
                         Ptr<MobilityModel> b) const override;
    /**
     * \param stream the stream of N(0, 1)
     * \return 1
     */
    int64_t DoAssignStreams(int64_t stream) override;

    /** What a link holds. */
    struct Link
    {
        double shadowingDb{0.0}; //!< S, dB
        double dx{0.0};          //!< the link's vector when S was drawn, x (m)
        double dy{0.0};          //!< the link's vector when S was drawn, y (m)
        int condition{-1};       //!< its LOS condition then (-1: no condition model)
    };

    /**
     * \param a one end \param b the other
     * \param condition the link's LosConditionValue, or -1
     * \return sigma (dB) and d_cor (m) of the link now
     */
    std::pair<double, double> SigmaAndDistance(Ptr<MobilityModel> a,
                                               Ptr<MobilityModel> b,
                                               int condition) const;

    double m_sigmaDb{8.0};                              //!< sigma, dB (SigmaDb attribute)
    double m_correlationDistanceM{50.0};                //!< d_cor, m (CorrelationDistanceM)
    Ptr<ChannelConditionModel> m_condition;             //!< ChannelConditionModel (null: none)
    double m_sigmaLosDb{4.0};                           //!< SigmaLosDb, dB
    double m_sigmaNlosDb{7.82};                         //!< SigmaNlosDb, dB
    double m_sigmaNlosvDb{4.0};                         //!< SigmaNlosvDb, dB
    double m_correlationLosM{10.0};                     //!< CorrelationLosM, m
    double m_correlationNlosM{13.0};                    //!< CorrelationNlosM, m
    double m_correlationNlosvM{13.0};                   //!< CorrelationNlosvM, m
    double m_sigmaLosFarDb{4.0};                        //!< SigmaLosBeyondBreakpointDb, dB
    double m_breakpointFrequencyHz{0.0};                //!< BreakpointFrequencyHz (0: no rule)
    Ptr<NormalRandomVariable> m_normal;                 //!< N(0, 1)
    mutable std::unordered_map<uint64_t, Link> m_links; //!< by the pair's key
};

} // namespace ns3

#endif /* D2D_SHADOWING_LOSS_MODEL_H */
