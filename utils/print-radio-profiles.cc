/*
 * d2dlearn-print-radio-profiles: the radio profiles (D2dRadioProfile) as the manual's table,
 * in Markdown: each state's draw as D2dRadioEnergyModel computes it with the profile's
 * attributes, beside the numbers its source gives. doc/data/radio-profiles.md is its output;
 * CTest (radio-profiles-table) fails when the two differ.
 *
 *   build/bin/d2dlearn-print-radio-profiles > doc/data/radio-profiles.md
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/command-line.h"
#include "ns3/d2d-radio-energy-model.h"
#include "ns3/d2d-radio-profile.h"
#include "ns3/double.h"
#include "ns3/string.h"

#include <fmt/format.h>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    CommandLine cmd(__FILE__);
    cmd.Usage("Print d2dlearn's radio profiles (--radioProfile) as a Markdown table: each "
              "state's draw and the source's own numbers.");
    cmd.Parse(argc, argv);
    // The scenarios' defaults: --txPowerDbm=20 (0.1 W), 2 bit/s/Hz x 10 MHz; the first-order
    // model's transmit draw also depends on the distance, shown at 100 m.
    const double txPowerW = 0.1;
    const double rateBps = 2.0 * 10e6;
    const double distanceM = 100.0;
    std::cout << "<!-- Written by d2dlearn-print-radio-profiles (utils/print-radio-profiles.cc) "
                 "from D2dRadioProfile; CTest radio-profiles-table fails when it differs. -->\n\n"
              << "| `--radioProfile` | transmit (W) | receive (W) | idle (W) | sleep (W) | "
                 "sleep transition (ms, mJ) | off (W) | the source's numbers | source |\n"
              << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& profile : D2dRadioProfile::GetAll())
    {
        auto model = CreateObject<D2dRadioEnergyModel>();
        for (const auto& [attribute, value] : profile.attributes)
        {
            model->SetAttribute(attribute, StringValue(value));
        }
        DoubleValue transitionJ;
        model->GetAttribute("SleepTransitionEnergyJ", transitionJ);
        const Time transition = model->GetSleepTransitionTime();
        // custom: the attributes' defaults, which a user changes.
        std::cout << fmt::format(
            "| `{}`{} | {:.4g} | {:.4g} | {:.4g} | {:.4g} | {} | 0 | {} | {} |\n",
            profile.name,
            D2dRadioProfile::IsCustom(profile.name) ? " (defaults)" : "",
            model->GetTxDrawW(txPowerW, rateBps, distanceM),
            model->GetRxDrawW(rateBps),
            model->GetIdlePowerW(),
            model->GetSleepPowerW(),
            transition.IsZero() ? std::string("none")
                                : fmt::format("{:.4g}, {:.4g}",
                                              transition.GetSeconds() * 1e3,
                                              transitionJ.Get() * 1e3),
            profile.sourceValues.empty() ? "-" : profile.sourceValues,
            profile.source);
        model->Dispose();
    }
    std::cout << "\nDraws at the scenarios' defaults: 20 dBm transmit power, a link rate of 2 "
                 "bit/s/Hz x 10 MHz = 20 Mbit/s (receive draw per ongoing reception), and, for "
                 "the first-order model, whose transmit draw R (E_elec + eps_amp d^2) grows "
                 "with the distance d, 100 m.\n";
    return std::cout.good() ? 0 : 1;
}
