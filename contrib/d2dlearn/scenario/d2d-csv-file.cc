/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-csv-file.h"

#include "d2d-scenario-support.h"

#include "ns3/d2d-input-file.h"
#include "ns3/d2d-text.h"

#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace ns3
{

D2dCsvFile::D2dCsvFile(const std::string& flag,
                       const std::string& path,
                       const std::string& accepted)
    : m_name(flag + "=" + path)
{
    D2dInputFile::Check(path, m_name, accepted); // before opening it
    m_in.open(path);
    if (!m_in)
    {
        throw std::runtime_error(
            fmt::format("{}: cannot be read (no such file or no permission)", m_name));
    }
}

bool
D2dCsvFile::Next(std::vector<std::string>& cells)
{
    std::string line;
    while (std::getline(m_in, line))
    {
        ++m_line;
        if (!line.empty() && line != "\r")
        {
            cells = D2dText::SplitCsvCells(line);
            return true;
        }
    }
    return false;
}

void
D2dCsvFile::Fail(const std::string& what) const
{
    throw std::runtime_error(
        fmt::format("{}: line {}: {}", m_name, std::max<uint64_t>(m_line, 1), what));
}

uint32_t
D2dCsvFile::Device(const std::string& cell, uint32_t nDevices) const
{
    double id = 0;
    if (!D2dScenarioSupport::ParseNumber(cell, id) || id < 0 || id >= nDevices ||
        id != std::floor(id))
    {
        Fail(fmt::format("device '{}' is not a device of this run (accepted: 0 to {})",
                         cell,
                         nDevices - 1));
    }
    return static_cast<uint32_t>(id);
}

const std::string&
D2dCsvFile::Name() const
{
    return m_name;
}

} // namespace ns3
