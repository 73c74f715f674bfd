/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "constant-rss-model.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConstantRssModel");
NS_OBJECT_ENSURE_REGISTERED(ConstantRssModel);

TypeId
ConstantRssModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ConstantRssModel")
            .SetParent<D2dRssModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<ConstantRssModel>()
            .AddAttribute("RssW",
                          "The RSS W of every link, W",
                          DoubleValue(1e-9),
                          MakeDoubleAccessor(&ConstantRssModel::m_rssW),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min()));
    return tid;
}

double
ConstantRssModel::ForDropProbability(double dropProbability,
                                     double spectralEfficiency,
                                     double noisePowerW)
{
    if (!(dropProbability >= 0 && dropProbability < 1))
    {
        throw std::invalid_argument("drop probability " + std::to_string(dropProbability) +
                                    " is outside [0, 1)");
    }
    if (dropProbability == 0)
    {
        return std::numeric_limits<double>::max(); // no loss, whatever r and sigma^2
    }
    if (!(spectralEfficiency > 0) || !(noisePowerW > 0))
    {
        throw std::invalid_argument("eq. (18) gives no drop probability but 0 unless the "
                                    "spectral efficiency and the noise power are > 0");
    }
    // Eq. (18) solved for W: -ln(1 - P_D) = (2^r - 1) sigma^2 / W.
    const double exponent = -std::log1p(-dropProbability);
    // (2^r - 1) sigma^2 as D2dChannel::DropProbability() computes it, so that the channel's
    // eq. (18) gives back the target to within a few units in the last place.
    const double numerator = (std::exp2(spectralEfficiency) - 1.0) * noisePowerW;
    if (exponent <= 0 || numerator / exponent > std::numeric_limits<double>::max())
    {
        return std::numeric_limits<double>::max();
    }
    return numerator / exponent;
}

double
ConstantRssModel::GetRssW(uint32_t /* rx */,
                          uint32_t /* tx */,
                          Ptr<MobilityModel> /* rxMobility */,
                          Ptr<MobilityModel> /* txMobility */,
                          double /* txPowerDbm */)
{
    return m_rssW;
}

} // namespace ns3
