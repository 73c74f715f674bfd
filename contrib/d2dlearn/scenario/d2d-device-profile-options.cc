/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-device-profile-options.h"

#include "d2d-csv-file.h"
#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-energy-source.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/log.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dDeviceProfileOptions");

void
D2dDeviceProfileOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("computeSpread",
             "Devices compute at different speeds: device i at FlopsPerSecond x exp(SIGMA Z_i), "
             "Z_i standard normal from --seed (log-normal, median FlopsPerSecond; 0.9: the "
             "fastest tenth 10 times the slowest tenth; 0: all alike)",
             computeSpread)
        .Range(0, 5);
    flags.Add("deviceProfiles",
              "A CSV file, one row per device: device, and any of flops_per_second, "
              "busy_power_w, initial_energy_j (each replaces that device's value)",
              deviceProfiles);
}

void
D2dDeviceProfileOptions::Validate(const D2dScenarioSupport& support,
                                  uint32_t nDevices,
                                  const std::string& computeModel,
                                  const std::string& energySource)
{
    m_file = D2dDeviceProfile();
    if (deviceProfiles.empty())
    {
        return;
    }
    try
    {
        m_file = Read(deviceProfiles, nDevices);
    }
    catch (const std::runtime_error& e)
    {
        support.Fail(e.what());
    }
    const auto refuse = [&](const char* column, const std::string& why) {
        support.Fail(fmt::format("--deviceProfiles={}: column {} cannot act {}",
                                 deviceProfiles,
                                 column,
                                 why));
    };
    if (computeModel != "flops" && !m_file.flopsPerSecond.empty())
    {
        refuse("flops_per_second", "with --computeModel=" + computeModel + " (only with flops)");
    }
    if (computeModel != "flops" && !m_file.busyPowerW.empty())
    {
        refuse("busy_power_w", "with --computeModel=" + computeModel + " (only with flops)");
    }
    if (energySource != "linear" && energySource != "basic" && !m_file.initialEnergyJ.empty())
    {
        refuse("initial_energy_j",
               "with --energySource=" + energySource + " (only with linear or basic)");
    }
    if (computeSpread > 0 && !m_file.flopsPerSecond.empty())
    {
        support.Fail(fmt::format("--computeSpread={} and --deviceProfiles={}'s flops_per_second "
                                 "both set the speeds: give one",
                                 D2dScenarioSupport::FormatNumber(computeSpread),
                                 deviceProfiles));
    }
}

D2dDeviceProfile
D2dDeviceProfileOptions::Read(const std::string& path, uint32_t nDevices)
{
    D2dCsvFile file("--deviceProfiles",
                    path,
                    "a CSV file: device, and any of flops_per_second, busy_power_w, "
                    "initial_energy_j");
    const auto fail = [&file](const std::string& what) {
        file.Fail(what);
    };
    std::vector<std::string> header;
    if (!file.Next(header))
    {
        fail("empty (accepted: a header naming device and the columns)");
    }
    D2dDeviceProfile profile;

    // One unit each, and the accepted range: (name, vector, lowest, highest).
    struct Column
    {
        const char* name;
        std::vector<double>* values;
        double low;
        double high;
    };

    const Column known[] = {{"flops_per_second", &profile.flopsPerSecond, 1.0, 1e18},
                            {"busy_power_w", &profile.busyPowerW, 0.0, 1e4},
                            {"initial_energy_j", &profile.initialEnergyJ, 0.0, 1e12}};
    std::vector<const Column*> meaning;
    int deviceColumn = -1;
    for (std::size_t c = 0; c < header.size(); ++c)
    {
        if (header[c] == "device" && deviceColumn < 0)
        {
            deviceColumn = static_cast<int>(c);
            meaning.push_back(nullptr);
            continue;
        }
        const Column* found = nullptr;
        for (const auto& k : known)
        {
            found = header[c] == k.name && k.values->empty() ? &k : found;
        }
        if (!found)
        {
            fail(fmt::format("column '{}' is not one of device, flops_per_second, busy_power_w, "
                             "initial_energy_j (each once)",
                             header[c]));
        }
        found->values->assign(nDevices, std::nan(""));
        meaning.push_back(found);
    }
    if (deviceColumn < 0 || header.size() < 2)
    {
        fail("the header needs device and at least one of flops_per_second, busy_power_w, "
             "initial_energy_j");
    }
    std::vector<bool> seen(nDevices, false);
    uint32_t rows = 0;
    std::vector<std::string> cells;
    while (file.Next(cells))
    {
        if (cells.size() != header.size())
        {
            fail(fmt::format("{} fields, the header has {}", cells.size(), header.size()));
        }
        const uint32_t device = file.Device(cells[deviceColumn], nDevices);
        if (seen[device])
        {
            fail(fmt::format("device {} has a row already (accepted: each device once)", device));
        }
        seen[device] = true;
        ++rows;
        for (std::size_t c = 0; c < cells.size(); ++c)
        {
            const Column* column = meaning[c];
            double v = 0;
            if (!column)
            {
                continue;
            }
            if (!D2dScenarioSupport::ParseNumber(cells[c], v) || !(v >= column->low) ||
                !(v <= column->high) || (column->low >= 1.0 && !(v > 0)))
            {
                fail(fmt::format("{} '{}' is out of range (accepted: {} to {})",
                                 column->name,
                                 cells[c],
                                 D2dScenarioSupport::FormatNumber(column->low),
                                 D2dScenarioSupport::FormatNumber(column->high)));
            }
            (*column->values)[device] = v;
        }
    }
    if (rows != nDevices)
    {
        for (uint32_t i = 0; i < nDevices; ++i)
        {
            if (!seen[i])
            {
                throw std::runtime_error(
                    fmt::format("{}: {} rows for {} devices: device {} has none (accepted: "
                                "one row per device, 0 to {})",
                                file.Name(),
                                rows,
                                nDevices,
                                i,
                                nDevices - 1));
            }
        }
    }
    return profile;
}

std::vector<double>
D2dDeviceProfileOptions::LogNormalFactors(uint64_t seed, uint32_t n, double sigma)
{
    // Its own stream of the seed (not ns-3's): the other draws of the run are unchanged.
    D2dDataRng rng(seed, D2dDataRng::COMPUTE_SPEED);
    std::vector<double> factors(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        factors[i] = std::exp(sigma * rng.Normal());
    }
    return factors;
}

void
D2dDeviceProfileOptions::Apply(const NodeContainer& devices, uint64_t seed)
{
    m_speeds.clear();
    const uint32_t n = devices.GetN();
    std::vector<double> speeds = m_file.flopsPerSecond;
    if (computeSpread > 0)
    {
        const std::vector<double> factors = LogNormalFactors(seed, n, computeSpread);
        speeds.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            DoubleValue base;
            D2dHelper::GetComputeModel(devices.Get(i))->GetAttribute("FlopsPerSecond", base);
            speeds[i] = base.Get() * factors[i];
        }
    }
    for (uint32_t i = 0; i < n && !speeds.empty(); ++i)
    {
        D2dHelper::GetComputeModel(devices.Get(i))
            ->SetAttribute("FlopsPerSecond", DoubleValue(speeds[i]));
    }
    for (uint32_t i = 0; i < n && !m_file.busyPowerW.empty(); ++i)
    {
        D2dHelper::GetComputeModel(devices.Get(i))
            ->SetAttribute("BusyPowerW", DoubleValue(m_file.busyPowerW[i]));
    }
    for (uint32_t i = 0; i < n && !m_file.initialEnergyJ.empty(); ++i)
    {
        Ptr<EnergySource> source = devices.Get(i)->GetObject<EnergySourceContainer>()->Get(0);
        bool set = false;
        for (const auto& names : D2dEnergySource::KnownSourceAttributes())
        {
            TypeId::AttributeInformation info;
            if (!set &&
                source->GetInstanceTypeId().LookupAttributeByName(names.initialEnergyJ, &info))
            {
                source->SetAttribute(names.initialEnergyJ, DoubleValue(m_file.initialEnergyJ[i]));
                set = true;
            }
        }
        NS_ABORT_MSG_IF(!set,
                        "D2dDeviceProfileOptions: " << source->GetInstanceTypeId().GetName()
                                                    << " has no initial-energy attribute");
    }
    m_speeds = std::move(speeds);
}

void
D2dDeviceProfileOptions::Record(D2dTraceHelper& traces) const
{
    for (const auto& [name, values] :
         {std::pair<const char*, const std::vector<double>&>{"flopsPerSecondPerDevice", m_speeds},
          {"busyPowerWPerDevice", m_file.busyPowerW},
          {"initialEnergyJPerDevice", m_file.initialEnergyJ}})
    {
        if (!values.empty() && values.size() <= MAX_RECORDED)
        {
            traces.AddParameterArray(name, values);
        }
    }
}

} // namespace ns3
