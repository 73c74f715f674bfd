/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-trust-matrices.h"

#include "ns3/d2d-matrix-csv.h"

#include <algorithm>
#include <fstream>
#include <istream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

namespace
{
/** \return a uniform double in [0, 1) from the generator's top 53 bits (portable) */
double
Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/** \return a uniform integer in [0, n) */
uint32_t
Below(std::mt19937_64& rng, uint32_t n)
{
    return std::min<uint32_t>(n - 1, static_cast<uint32_t>(Uniform(rng) * n));
}

/** \return k distinct indices of [0, n), drawn by a partial Fisher-Yates shuffle */
std::vector<uint32_t>
Pick(std::mt19937_64& rng, uint32_t n, uint32_t k)
{
    std::vector<uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    for (uint32_t a = 0; a < k && a < n; ++a)
    {
        std::swap(all[a], all[a + Below(rng, n - a)]);
    }
    all.resize(std::min(k, n));
    return all;
}
} // namespace

D2dTrustMatrices::D2dTrustMatrices(uint32_t nDevices, uint32_t nLabels, bool value)
    : m_n(nDevices),
      m_l(nLabels),
      m_bits(static_cast<std::size_t>(nDevices) * nDevices * nLabels, value ? 1 : 0)
{
    for (uint32_t j = 0; j < m_n; ++j)
    {
        for (uint32_t l = 0; l < m_l; ++l)
        {
            m_bits[(static_cast<std::size_t>(j) * m_n + j) * m_l + l] = 0;
        }
    }
}

const std::vector<std::string>&
D2dTrustMatrices::Structures()
{
    static const std::vector<std::string> names{"random", "row-sparse", "column-sparse", "block"};
    return names;
}

D2dTrustMatrices
D2dTrustMatrices::Generate(const std::string& structure,
                           uint32_t nDevices,
                           uint32_t nLabels,
                           double density,
                           uint64_t seed)
{
    if (!(density >= 0.0 && density <= 1.0))
    {
        throw std::invalid_argument("trust density must be in [0, 1]");
    }
    const auto& names = Structures();
    if (std::find(names.begin(), names.end(), structure) == names.end())
    {
        throw std::invalid_argument("unknown trust structure '" + structure + "'");
    }
    std::mt19937_64 rng(seed);
    D2dTrustMatrices t(nDevices, nLabels, false);
    if (structure == "block")
    {
        const double target = density * nDevices * nLabels;
        for (uint32_t j = 0; j < nDevices; ++j)
        {
            uint64_t ones = 0;
            // Each rectangle adds at least one new entry unless T_j is full: at most N L tries.
            for (uint64_t tries = 0; ones < target && tries < 64ULL * nDevices * nLabels; ++tries)
            {
                const uint32_t rows = std::min(nDevices, 2 + Below(rng, 3));
                const uint32_t cols = std::min(nLabels, 2 + Below(rng, 3));
                const uint32_t r0 = Below(rng, nDevices - rows + 1);
                const uint32_t c0 = Below(rng, nLabels - cols + 1);
                for (uint32_t i = r0; i < r0 + rows; ++i)
                {
                    for (uint32_t l = c0; l < c0 + cols; ++l)
                    {
                        auto& bit =
                            t.m_bits[(static_cast<std::size_t>(j) * nDevices + i) * nLabels + l];
                        if (!bit)
                        {
                            bit = 1;
                            ++ones;
                        }
                    }
                }
            }
        }
    }
    else
    {
        for (uint32_t j = 0; j < nDevices; ++j)
        {
            for (uint32_t i = 0; i < nDevices; ++i)
            {
                for (uint32_t l = 0; l < nLabels; ++l)
                {
                    const bool one = Uniform(rng) < density;
                    t.m_bits[(static_cast<std::size_t>(j) * nDevices + i) * nLabels + l] = one;
                }
            }
            if (structure == "row-sparse")
            {
                for (uint32_t i : Pick(rng, nDevices, nDevices / 2))
                {
                    for (uint32_t l = 0; l < nLabels; ++l)
                    {
                        t.m_bits[(static_cast<std::size_t>(j) * nDevices + i) * nLabels + l] = 0;
                    }
                }
            }
            else if (structure == "column-sparse")
            {
                for (uint32_t l : Pick(rng, nLabels, nLabels / 2))
                {
                    for (uint32_t i = 0; i < nDevices; ++i)
                    {
                        t.m_bits[(static_cast<std::size_t>(j) * nDevices + i) * nLabels + l] = 0;
                    }
                }
            }
        }
    }
    for (uint32_t j = 0; j < nDevices; ++j)
    {
        for (uint32_t l = 0; l < nLabels; ++l)
        {
            t.m_bits[(static_cast<std::size_t>(j) * nDevices + j) * nLabels + l] = 0;
        }
    }
    return t;
}

D2dTrustMatrices
D2dTrustMatrices::ReadFile(const std::string& path, uint32_t nDevices, uint32_t nLabels)
{
    struct stat st
    {
    };

    if (stat(path.c_str(), &st) != 0)
    {
        throw std::runtime_error("cannot read " + D2dMatrixCsv::Excerpt(path, 200));
    }
    if (!S_ISREG(st.st_mode))
    {
        throw std::runtime_error(D2dMatrixCsv::Excerpt(path, 200) + ": not a regular file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error("cannot read " + D2dMatrixCsv::Excerpt(path, 200));
    }
    return Parse(in, D2dMatrixCsv::Excerpt(path, 200), nDevices, nLabels);
}

D2dTrustMatrices
D2dTrustMatrices::Parse(std::istream& in,
                        const std::string& name,
                        uint32_t nDevices,
                        uint32_t nLabels)
{
    D2dTrustMatrices t(nDevices, nLabels, false);
    const uint64_t expected = static_cast<uint64_t>(nDevices) * nDevices;
    uint64_t row = 0;
    uint64_t lineNo = 0;
    std::string line;
    for (;;)
    {
        const auto read = D2dMatrixCsv::ReadLine(in, line, MAX_LINE_BYTES);
        if (read == D2dMatrixCsv::LineRead::TOO_LONG)
        {
            throw std::runtime_error(name + " line " + std::to_string(lineNo + 1) +
                                     ": longer than " + std::to_string(MAX_LINE_BYTES) + " bytes");
        }
        if (read == D2dMatrixCsv::LineRead::END)
        {
            break;
        }
        ++lineNo;
        if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#')
        {
            continue;
        }
        if (row >= expected)
        {
            throw std::runtime_error(name + " line " + std::to_string(lineNo) +
                                     ": more than N x N = " + std::to_string(expected) + " rows");
        }
        std::vector<std::string> values;
        std::size_t from = 0;
        for (;;)
        {
            const auto comma = line.find(',', from);
            const std::string cell = line.substr(from, comma - from);
            const auto a = cell.find_first_not_of(" \t");
            const auto b = cell.find_last_not_of(" \t");
            values.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
            if (comma == std::string::npos || values.size() > nLabels)
            {
                break;
            }
            from = comma + 1;
        }
        if (values.size() != nLabels)
        {
            throw std::runtime_error(
                name + " line " + std::to_string(lineNo) +
                ": expected L = " + std::to_string(nLabels) + " values, got " +
                (values.size() > nLabels ? "more" : std::to_string(values.size())));
        }
        for (uint32_t l = 0; l < nLabels; ++l)
        {
            if (values[l] != "0" && values[l] != "1")
            {
                throw std::runtime_error(name + " line " + std::to_string(lineNo) +
                                         ": values must be 0 or 1 (got '" +
                                         D2dMatrixCsv::Excerpt(values[l], 40) + "')");
            }
            t.Set(static_cast<uint32_t>(row / nDevices),
                  static_cast<uint32_t>(row % nDevices),
                  l,
                  values[l] == "1");
        }
        ++row;
    }
    if (row != expected)
    {
        throw std::runtime_error(name + ": " + std::to_string(row) +
                                 " rows, expected N x N = " + std::to_string(expected));
    }
    return t;
}

bool
D2dTrustMatrices::Get(uint32_t transmitter, uint32_t receiver, uint32_t label) const
{
    return m_bits.at((static_cast<std::size_t>(transmitter) * m_n + receiver) * m_l + label) != 0;
}

void
D2dTrustMatrices::Set(uint32_t transmitter, uint32_t receiver, uint32_t label, bool value)
{
    if (transmitter != receiver)
    {
        m_bits.at((static_cast<std::size_t>(transmitter) * m_n + receiver) * m_l + label) = value;
    }
}

std::vector<uint8_t>
D2dTrustMatrices::Row(uint32_t transmitter, uint32_t receiver) const
{
    const auto begin =
        m_bits.begin() + (static_cast<std::size_t>(transmitter) * m_n + receiver) * m_l;
    return std::vector<uint8_t>(begin, begin + m_l);
}

uint32_t
D2dTrustMatrices::GetNDevices() const
{
    return m_n;
}

uint32_t
D2dTrustMatrices::GetNLabels() const
{
    return m_l;
}

double
D2dTrustMatrices::Density() const
{
    if (m_n < 2 || m_l == 0)
    {
        return 0.0;
    }
    const double ones = std::accumulate(m_bits.begin(), m_bits.end(), 0.0);
    return ones / (static_cast<double>(m_n) * (m_n - 1) * m_l);
}

} // namespace ns3
