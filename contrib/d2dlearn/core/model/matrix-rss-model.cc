/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "matrix-rss-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include "d2d-matrix-csv.h"

#include <cmath>
#include <fmt/format.h>
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
    const std::string what = "rssFile: '" + D2dMatrixCsv::Excerpt(path, 200) + "'";
    auto w = D2dMatrixCsv::Read(path, what, MAX_N);
    if (w.size() < 2)
    {
        throw std::runtime_error(what + " holds a " + std::to_string(w.size()) + " x " +
                                 std::to_string(w.size()) +
                                 " matrix (expected an N x N matrix with N >= 2)");
    }
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        for (std::size_t j = 0; j < w.size(); ++j)
        {
            if (i != j && !(w[i][j] >= 0))
            {
                throw std::runtime_error(what + " row " + std::to_string(i + 1) + " column " +
                                         std::to_string(j + 1) + ": RSS " +
                                         fmt::format("{}", w[i][j]) +
                                         " out of range (expected a finite value >= 0 W)");
            }
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
