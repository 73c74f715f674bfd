/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PROPAGATION_OPTIONS_H
#define D2D_PROPAGATION_OPTIONS_H

#include "ns3/d2d-propagation-helper.h"
#include "ns3/nstime.h"

#include <string>

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;
class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief The radio environment of a scenario: the propagation chain both backends use (path
 * loss, shadowing, fading: D2dPropagationHelper), the antenna heights, and where sigma^2 of
 * eq. (18) comes from (D2dChannel::NoiseModel): D2dNetworkOptions' propagation flags.
 *
 * The default (--propagation=log-distance, no shadowing, no fading, --noise=constant) is the
 * model every run had before these flags: ns-3's LogDistancePropagationLossModel at its
 * defaults, devices in the plane z = 0, sigma^2 = --noisePowerW.
 */
class D2dPropagationOptions
{
  public:
    // The flags' values; after Validate() the ones in force.
    /** --propagation: a preset (D2dPropagationHelper::GetPresets()) or an ns-3
     *  PropagationLossModel's TypeId name */
    std::string propagation{"log-distance"};
    double frequencyHz{0.0};         //!< --frequencyHz: the carrier, Hz (0: the preset's)
    double deviceHeightM{0.0};       //!< --deviceHeightM: devices' antenna height, m (0: preset's)
    std::string shadowing{"preset"}; //!< --shadowing: preset | none | log-normal
    double shadowingSigmaDb{8.0};    //!< --shadowingSigmaDb: log-normal sigma, dB
    double shadowingCorrelationM{50.0}; //!< --shadowingCorrelationM: its d_cor, m
    double nakagamiM{0.0};         //!< --nakagamiM: Nakagami-m fast fading (0: none; 1: Rayleigh)
    Time coherenceTime{0};         //!< --coherenceTime: fading held this long (0: drawn per use)
    std::string noise{"constant"}; //!< --noise: constant (--noisePowerW) | thermal
    double noiseFigureDb{9.0};     //!< --noiseFigureDb: the thermal noise's NF, dB

    /**
     * \brief Declare the flags.
     * \param flags the scenario's flags
     */
    void AddFlags(D2dScenarioFlags& flags);

    /**
     * \brief After D2dScenarioFlags::Parse(): --propagation known, --frequencyHz only where the
     * model has a carrier, heights where the model reads them, the combinations that cannot
     * act refused in one line. Bad input ends the program via support.Fail().
     * \param support the scenario's support (error messages)
     * \param flags the parsed flags
     * \param positional whether some link's RSS comes from the positions (false: --rssFile, or
     *        --dynamicRssLevels / --dropProbability and no server at a place)
     */
    void Validate(const D2dScenarioSupport& support,
                  const D2dScenarioFlags& flags,
                  bool positional);

    /** \return the helper of the chain these flags describe (after Validate()) */
    const D2dPropagationHelper& GetHelper() const
    {
        return m_helper;
    }

    /** \return the devices' antenna height in force, m */
    double GetDeviceHeightM() const;
    /** \return the server's height when it is placed at the centre, m (the preset's BS) */
    double GetServerHeightM() const;
    /** \return whether this is the default environment (the channel's own PropagationRssModel) */
    bool IsDefault() const;
    /**
     * \return whether the chain keeps a state per pair of nodes (LOS/NLOS, shadowing), which
     *         needs each link's two nodes (not D2dChannel's FixedDistanceM stand-ins)
     */
    bool NeedsLinkEnds() const;
    /** \return whether the chain has shadowing (the model's own or log-normal) */
    bool HasShadowing() const;

    /** \return whether sigma^2 is the thermal noise of the bandwidth used */
    bool IsThermal() const
    {
        return noise == "thermal";
    }

    /**
     * \brief run.json: the loss model, its source, the carrier, heights and the noise model in
     * force (parameters; the flags themselves are recorded by D2dScenarioFlags::Record()).
     * \param traces the run's trace helper
     */
    void Record(D2dTraceHelper& traces) const;

  private:
    D2dPropagationHelper m_helper; //!< the chain, after Validate()
};

} // namespace ns3

#endif /* D2D_PROPAGATION_OPTIONS_H */
