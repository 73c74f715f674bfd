/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PROPAGATION_HELPER_H
#define D2D_PROPAGATION_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/propagation-loss-model.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Log-normal shadowing by LOS condition (D2dShadowingLossModel's attributes): sigma
 * and decorrelation distance of LOS, NLOS and NLOSv links. sigmaLosDb 0: no shadowing.
 */
struct D2dShadowingTable
{
    double sigmaLosDb{0.0};        //!< sigma of a LOS link, dB
    double sigmaNlosDb{0.0};       //!< of an NLOS link, dB
    double sigmaNlosvDb{0.0};      //!< of an NLOSv link, dB (V2V)
    double correlationLosM{0.0};   //!< d_cor of a LOS link, m
    double correlationNlosM{0.0};  //!< of an NLOS link, m
    double correlationNlosvM{0.0}; //!< of an NLOSv link, m
    /** > 0: sigma of a LOS link beyond RMa's breakpoint distance, dB (0: no breakpoint rule) */
    double sigmaLosBeyondBreakpointDb{0.0};
};

/**
 * \ingroup d2dlearn
 * \brief A named radio environment: an ns-3 path loss model, the channel condition model
 * (LOS/NLOS) it needs, and the evaluation assumptions it comes with. One row of
 * D2dPropagationHelper::GetPresets().
 */
struct D2dPropagationPreset
{
    std::string name;           //!< the --propagation value, e.g. "3gpp-umi"
    std::string lossModel;      //!< the path loss model's TypeId name
    std::string conditionModel; //!< the channel condition model's TypeId ("": the loss
                                //!< model's own default, or it has none)
    double frequencyHz{0.0};    //!< the carrier, Hz (0: the model has no frequency)
    double deviceHeightM{0.0};  //!< the devices' antenna height, m (0: the plane z = 0)
    double serverHeightM{0.0};  //!< the server's (base station's) antenna height, m
    /** the loss model's own shadowing (a ThreeGppPropagationLossModel named by TypeId) */
    bool ownShadowing{false};
    /** the preset's shadowing: D2dShadowingLossModel with the condition model's LOS state */
    D2dShadowingTable shadowing;
    std::string source; //!< where the model and these values come from
    /** a model of links between devices only: a run with a server (D2S links) is refused */
    bool devicesOnly{false};
};

/**
 * \ingroup d2dlearn
 * \brief Makes the chain of ns-3 PropagationLossModels of a radio environment: a path loss
 * model (a preset of GetPresets() or any ns-3 PropagationLossModel by TypeId), then
 * log-normal shadowing, then Nakagami-m fast fading (PropagationLossModel::SetNext), for the
 * D2D channel (PropagationRssModel) and the Wi-Fi channel alike, so that both backends see
 * the same received power.
 *
 * Each Create() makes a new chain, whose random streams the caller assigns
 * (PropagationLossModel::AssignStreams). The path loss model is made by an ObjectFactory, so
 * that --ns3::Class::Attribute defaults reach it.
 */
class D2dPropagationHelper
{
  public:
    /** Which shadowing the chain has. */
    enum class Shadowing
    {
        PRESET,     //!< the preset's: D2dShadowingLossModel with its table (by LOS state),
                    //!< a 3GPP model named by TypeId its own, or none
        NONE,       //!< none (a 3GPP model's own switched off)
        LOG_NORMAL, //!< D2dShadowingLossModel with SetShadowing()'s sigma and d_cor (a 3GPP
                    //!< model's own switched off)
    };

    D2dPropagationHelper();

    /** \return the presets, the default (log-distance) first */
    static const std::vector<D2dPropagationPreset>& GetPresets();
    /**
     * \param name a preset's name
     * \return the preset, or nullptr
     */
    static const D2dPropagationPreset* FindPreset(const std::string& name);

    /**
     * \brief The path loss: a preset's name, or the TypeId name of an ns-3
     * PropagationLossModel (no channel condition model, no frequency of its own: the model's
     * defaults). Aborts on an unknown name (the scenario layer checks first).
     * \param name the preset or the TypeId
     */
    void SetPathLoss(const std::string& name);
    /**
     * \brief Set an attribute of the path loss models Create() makes (after SetPathLoss()).
     * \param name the attribute
     * \param value its value
     */
    void SetPathLossAttribute(const std::string& name, const AttributeValue& value);
    /** \return the preset in force (a TypeId: a row with that lossModel and no name) */
    const D2dPropagationPreset& GetPreset() const;
    /**
     * \param hz the carrier, Hz: the path loss model's Frequency attribute (0: the preset's)
     */
    void SetFrequencyHz(double hz);
    /**
     * \param mode which shadowing
     * \param sigmaDb LOG_NORMAL: sigma, dB
     * \param correlationM LOG_NORMAL: d_cor, m
     */
    void SetShadowing(Shadowing mode, double sigmaDb = 0.0, double correlationM = 0.0);
    /**
     * \param m Nakagami-m fast fading with this m on every link (ns-3's
     *        NakagamiPropagationLossModel with m0 = m1 = m2 = m; 1: Rayleigh); 0: none
     */
    void SetNakagamiM(double m);

    /** \return a new chain: path loss, then shadowing, then fading */
    Ptr<PropagationLossModel> Create() const;

    /** \return whether the chain draws random numbers at each evaluation (fading) */
    bool HasFading() const;
    /** \return whether the chain has shadowing (its own or D2dShadowingLossModel) */
    bool HasShadowing() const;
    /** \return the carrier the chain is built for, Hz (0: none) */
    double GetFrequencyHz() const;

  private:
    D2dPropagationPreset m_preset;            //!< the path loss (a preset or a TypeId)
    ObjectFactory m_loss;                     //!< makes the path loss model
    double m_frequencyHz{0.0};                //!< SetFrequencyHz()
    Shadowing m_shadowing{Shadowing::PRESET}; //!< SetShadowing()
    double m_sigmaDb{0.0};                    //!< LOG_NORMAL: sigma, dB
    double m_correlationM{0.0};               //!< LOG_NORMAL: d_cor, m
    double m_nakagamiM{0.0};                  //!< SetNakagamiM()
};

} // namespace ns3

#endif /* D2D_PROPAGATION_HELPER_H */
