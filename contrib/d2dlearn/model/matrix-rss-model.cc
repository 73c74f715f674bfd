/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "matrix-rss-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <boost/algorithm/string.hpp>
#include <boost/lexical_cast.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MatrixRssModel");
NS_OBJECT_ENSURE_REGISTERED(MatrixRssModel);

TypeId
MatrixRssModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MatrixRssModel")
                            .SetParent<D2dRssModel>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<MatrixRssModel>();
    return tid;
}

std::vector<std::vector<double>>
MatrixRssModel::ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error("rssFile: cannot read '" + path +
                                 "' (expected N lines of N comma-separated RSS values in W)");
    }
    std::vector<std::vector<double>> w;
    std::string line;
    std::size_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        boost::algorithm::trim(line);
        if (line.empty())
        {
            continue;
        }
        std::vector<std::string> cells;
        boost::algorithm::split(cells, line, boost::is_any_of(","));
        std::vector<double> row;
        row.reserve(cells.size());
        for (std::size_t col = 0; col < cells.size(); ++col)
        {
            std::string cell = boost::algorithm::trim_copy(cells[col]);
            double value = 0.0;
            try
            {
                value = boost::lexical_cast<double>(cell);
            }
            catch (const boost::bad_lexical_cast&)
            {
                throw std::runtime_error("rssFile: '" + path + "' line " + std::to_string(lineNo) +
                                         " column " + std::to_string(col + 1) + ": '" + cell +
                                         "' is not a number (expected RSS in W, >= 0)");
            }
            const bool diagonal = (col == w.size());
            if (!diagonal && (!std::isfinite(value) || value < 0))
            {
                throw std::runtime_error("rssFile: '" + path + "' line " + std::to_string(lineNo) +
                                         " column " + std::to_string(col + 1) + ": RSS " + cell +
                                         " out of range (expected a finite value >= 0 W)");
            }
            row.push_back(value);
        }
        w.push_back(std::move(row));
    }
    if (w.size() < 2)
    {
        throw std::runtime_error("rssFile: '" + path + "' holds " + std::to_string(w.size()) +
                                 " rows (expected an N x N matrix with N >= 2)");
    }
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        if (w[i].size() != w.size())
        {
            throw std::runtime_error("rssFile: '" + path + "' row " + std::to_string(i + 1) +
                                     " has " + std::to_string(w[i].size()) + " values (expected " +
                                     std::to_string(w.size()) +
                                     ", the number of rows: an N x N matrix)");
        }
    }
    return w;
}

void
MatrixRssModel::SetMatrix(std::vector<std::vector<double>> w)
{
    for (const auto& row : w)
    {
        NS_ABORT_MSG_IF(row.size() != w.size(), "MatrixRssModel: the matrix must be N x N");
    }
    m_w = std::move(w);
}

uint32_t
MatrixRssModel::GetN() const
{
    return static_cast<uint32_t>(m_w.size());
}

double
MatrixRssModel::GetRssW(uint32_t rx,
                        uint32_t tx,
                        Ptr<MobilityModel> /* rxMobility */,
                        Ptr<MobilityModel> /* txMobility */,
                        double /* txPowerDbm */)
{
    NS_ABORT_MSG_IF(rx >= m_w.size() || tx >= m_w.size(),
                    "MatrixRssModel: link " << tx << "->" << rx << " outside the " << m_w.size()
                                            << " x " << m_w.size() << " matrix");
    return m_w[rx][tx];
}

} // namespace ns3
