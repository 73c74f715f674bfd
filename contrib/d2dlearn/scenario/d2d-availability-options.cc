/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-availability-options.h"

#include "d2d-csv-file.h"
#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/d2d-helper.h"
#include "ns3/d2d-network.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dAvailabilityOptions");

void
D2dAvailabilityOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags.Bind("meanOnTime",
               "ns3::D2dAvailabilityModel::MeanOnTime",
               "Devices come and go: mean of a device's available periods (exponential; with "
               "--meanOffTime; 0: always available)");
    flags.Bind("meanOffTime",
               "ns3::D2dAvailabilityModel::MeanOffTime",
               "Devices come and go: mean of a device's away periods (exponential; with "
               "--meanOnTime), during which it neither computes nor communicates");
    flags.Add("availabilityFile",
              "A CSV file: device,start_s,end_s, one row per interval in which a device is "
              "available (a device without a row: always)",
              availabilityFile);
}

void
D2dAvailabilityOptions::Validate(const D2dScenarioSupport& support,
                                 const D2dScenarioFlags& flags,
                                 uint32_t nDevices)
{
    const Time on = flags.Get<TimeValue>("meanOnTime");
    const Time off = flags.Get<TimeValue>("meanOffTime");
    if (on.IsStrictlyPositive() != off.IsStrictlyPositive())
    {
        support.Fail(fmt::format("--meanOnTime={}s and --meanOffTime={}s: give both (> 0) for "
                                 "devices that come and go, or neither",
                                 D2dScenarioSupport::FormatNumber(on.GetSeconds()),
                                 D2dScenarioSupport::FormatNumber(off.GetSeconds())));
    }
    m_model = on.IsStrictlyPositive();
    if (m_model && !availabilityFile.empty())
    {
        support.Fail("--availabilityFile and --meanOnTime/--meanOffTime both say when devices "
                     "are there: give one");
    }
    m_file.clear();
    if (availabilityFile.empty())
    {
        return;
    }
    try
    {
        m_file = Read(availabilityFile, nDevices);
    }
    catch (const std::exception& e) // the file's checks (std::invalid_argument) and its rows
    {
        support.Fail(e.what());
    }
}

bool
D2dAvailabilityOptions::IsActive() const
{
    return m_model || !m_file.empty();
}

std::vector<D2dAvailabilityModel::Intervals>
D2dAvailabilityOptions::Read(const std::string& path, uint32_t nDevices)
{
    D2dCsvFile file("--availabilityFile", path, "a CSV file: device,start_s,end_s");
    std::vector<std::string> cells;
    if (!file.Next(cells) || cells != std::vector<std::string>{"device", "start_s", "end_s"})
    {
        file.Fail("the header must be device,start_s,end_s");
    }
    constexpr double MAX_S = 1e9; // about 31 years of simulated time
    std::vector<D2dAvailabilityModel::Intervals> intervals(nDevices);
    while (file.Next(cells))
    {
        if (cells.size() != 3)
        {
            file.Fail(fmt::format("{} fields (accepted: device,start_s,end_s)", cells.size()));
        }
        const uint32_t device = file.Device(cells[0], nDevices);
        double start = 0;
        double end = 0;
        if (!D2dScenarioSupport::ParseNumber(cells[1], start) ||
            !D2dScenarioSupport::ParseNumber(cells[2], end) || !(start >= 0) || !(end > start) ||
            !(end <= MAX_S))
        {
            file.Fail(fmt::format("interval '{}' to '{}' is out of range (accepted: 0 <= "
                                  "start_s < end_s <= {})",
                                  cells[1],
                                  cells[2],
                                  D2dScenarioSupport::FormatNumber(MAX_S)));
        }
        intervals[device].emplace_back(Seconds(start), Seconds(end));
    }
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        auto& list = intervals[i];
        std::sort(list.begin(), list.end());
        for (std::size_t k = 1; k < list.size(); ++k)
        {
            if (list[k].first < list[k - 1].second)
            {
                throw std::runtime_error(
                    fmt::format("{}: device {}'s intervals overlap ({} s to {} s and {} s to {} s; "
                                "accepted: disjoint intervals)",
                                file.Name(),
                                i,
                                list[k - 1].first.GetSeconds(),
                                list[k - 1].second.GetSeconds(),
                                list[k].first.GetSeconds(),
                                list[k].second.GetSeconds()));
            }
        }
    }
    return intervals;
}

void
D2dAvailabilityOptions::Install(const D2dNetwork& network, uint64_t seed, D2dTraceHelper& traces)
{
    if (!IsActive())
    {
        return;
    }
    const uint32_t n = network.devices.GetN();
    m_availability = CreateObject<D2dAvailabilityModel>(); // MeanOnTime/OffTime: the flags
    m_availability->SetAttribute("Seed", UintegerValue(seed));
    if (!m_file.empty())
    {
        m_availability->SetIntervals(m_file);
    }
    m_availability->Install(n);
    D2dHelper::ConnectAvailability(m_availability,
                                   network.devices,
                                   network.d2dTransports,
                                   network.d2sTransports);
    std::ostream& out = traces.OpenTrace("availability.csv", "sim_time_s,device,available");
    m_availability->AddStateCallback([&out](uint32_t device, bool available) {
        out << fmt::format("{:.9f},{},{}\n",
                           Simulator::Now().GetSeconds(),
                           device,
                           available ? 1 : 0);
    });
    m_availability->Start();
}

} // namespace ns3
