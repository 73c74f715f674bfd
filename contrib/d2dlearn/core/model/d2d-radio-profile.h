/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RADIO_PROFILE_H
#define D2D_RADIO_PROFILE_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A radio's power in each state, as a published source gives it: the values of
 * D2dRadioEnergyModel's attributes that make the radio that device.
 *
 * The one table of profiles (GetAll()); a scenario selects one by name (--radioProfile),
 * D2dHelper::SetRadioProfile() applies it to the radios' energy models, and the manual's
 * table is d2dlearn-print-radio-profiles' output. Adding a profile is one entry in
 * d2d-radio-profile.cc, with its source and the source's own numbers.
 */
struct D2dRadioProfile
{
    std::string name;   //!< the --radioProfile value, e.g. "ns3-wifi"
    std::string label;  //!< its name in tables, e.g. "ns-3 Wi-Fi"
    std::string source; //!< where the numbers come from: authors or project, title, year
    /** the source's own numbers, as it gives them (currents, J/bit, ...) */
    std::string sourceValues;
    /** D2dRadioEnergyModel attributes set to these values (as strings), in this order;
     *  empty for "custom", which leaves the attributes as the user set them */
    std::vector<std::pair<std::string, std::string>> attributes;

    /** \return every profile, in the table's order (the default first) */
    static const std::vector<D2dRadioProfile>& GetAll();
    /** \return the profiles' names, in the table's order */
    static std::vector<std::string> GetNames();
    /**
     * \param name a profile's name
     * \return its entry
     * \throws std::invalid_argument "no radio profile NAME (a, b or c)" for another name
     */
    static const D2dRadioProfile& Get(const std::string& name);
    /** \return the D2dRadioEnergyModel attributes that give a radio's state powers (those a
     *  profile may set; a user sets them with the custom profile) */
    static const std::vector<std::string>& GetStateAttributes();
    /** \return the name of the default profile ("ns3-wifi") */
    static const std::string& GetDefaultName();
    /**
     * \param name a profile's name
     * \return whether it is the one that takes the attributes as the user set them
     */
    static bool IsCustom(const std::string& name);
};

} // namespace ns3

#endif /* D2D_RADIO_PROFILE_H */
