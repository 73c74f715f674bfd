/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-random-walk-mobility-model.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dRandomWalkMobilityModel");
NS_OBJECT_ENSURE_REGISTERED(D2dRandomWalkMobilityModel);

TypeId
D2dRandomWalkMobilityModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dRandomWalkMobilityModel")
            .SetParent<MobilityModel>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dRandomWalkMobilityModel>()
            .AddAttribute("Bounds",
                          "The rectangle walked in (m); the walk reflects off its sides.",
                          RectangleValue(Rectangle(0.0, 100.0, 0.0, 100.0)),
                          MakeRectangleAccessor(&D2dRandomWalkMobilityModel::m_bounds),
                          MakeRectangleChecker())
            .AddAttribute("Speed",
                          "A random variable for the speed of each leg (m/s, >= 0).",
                          StringValue("ns3::UniformRandomVariable[Min=2.0|Max=4.0]"),
                          MakePointerAccessor(&D2dRandomWalkMobilityModel::m_speed),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("Direction",
                          "A random variable for the direction of each leg (radians).",
                          StringValue("ns3::UniformRandomVariable[Min=0.0|Max=6.283184]"),
                          MakePointerAccessor(&D2dRandomWalkMobilityModel::m_direction),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("DistanceM",
                          "Length of a leg (m): direction and speed are drawn again after it.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&D2dRandomWalkMobilityModel::m_distanceM),
                          MakeDoubleChecker<double>(1e-9));
    return tid;
}

D2dRandomWalkMobilityModel::D2dRandomWalkMobilityModel() = default;

D2dRandomWalkMobilityModel::~D2dRandomWalkMobilityModel() = default;

namespace
{
/** \return where u lies in the period 2 W of the fold, in [0, 2 W) (W = hi - lo > 0) */
double
Phase(double u, double lo, double w)
{
    const double r = std::fmod(u - lo, 2 * w);
    return r < 0 ? r + 2 * w : r;
}
} // namespace

double
D2dRandomWalkMobilityModel::Fold(double u, double lo, double hi)
{
    const double w = hi - lo;
    if (w <= 0)
    {
        return lo;
    }
    const double r = Phase(u, lo, w);
    return lo + (r <= w ? r : 2 * w - r);
}

double
D2dRandomWalkMobilityModel::FoldSign(double u, double lo, double hi)
{
    const double w = hi - lo;
    return w <= 0 || Phase(u, lo, w) < w ? 1.0 : -1.0;
}

void
D2dRandomWalkMobilityModel::DoInitialize()
{
    NS_ABORT_MSG_IF(m_bounds.xMax < m_bounds.xMin || m_bounds.yMax < m_bounds.yMin,
                    "D2dRandomWalkMobilityModel: Bounds is empty");
    m_origin.x = Fold(m_origin.x, m_bounds.xMin, m_bounds.xMax);
    m_origin.y = Fold(m_origin.y, m_bounds.yMin, m_bounds.yMax);
    StartLeg();
    MobilityModel::DoInitialize();
}

void
D2dRandomWalkMobilityModel::DoDispose()
{
    m_event.Cancel();
    MobilityModel::DoDispose();
}

void
D2dRandomWalkMobilityModel::StartLeg()
{
    m_origin = DoGetPosition();
    m_legStart = Simulator::Now();
    const double speed = m_speed->GetValue();
    const double direction = m_direction->GetValue();
    NS_ABORT_MSG_IF(!(speed >= 0) || !std::isfinite(speed),
                    "D2dRandomWalkMobilityModel: a Speed of " << speed << " m/s");
    m_velocity = Vector(speed * std::cos(direction), speed * std::sin(direction), 0.0);
    m_event.Cancel();
    if (speed > 0)
    {
        m_event = Simulator::Schedule(Seconds(m_distanceM / speed),
                                      &D2dRandomWalkMobilityModel::StartLeg,
                                      this);
    }
    NotifyCourseChange();
}

Vector
D2dRandomWalkMobilityModel::DoGetPosition() const
{
    const double t = (Simulator::Now() - m_legStart).GetSeconds();
    return Vector(Fold(m_origin.x + m_velocity.x * t, m_bounds.xMin, m_bounds.xMax),
                  Fold(m_origin.y + m_velocity.y * t, m_bounds.yMin, m_bounds.yMax),
                  m_origin.z);
}

void
D2dRandomWalkMobilityModel::DoSetPosition(const Vector& position)
{
    m_origin = position;
    m_legStart = Simulator::Now();
    m_velocity = Vector(0, 0, 0);
    m_event.Cancel();
    if (IsInitialized())
    {
        // A new leg from the new position, drawn now (as ns-3's random walk does).
        m_event = Simulator::ScheduleNow(&D2dRandomWalkMobilityModel::StartLeg, this);
    }
    NotifyCourseChange();
}

Vector
D2dRandomWalkMobilityModel::DoGetVelocity() const
{
    const double t = (Simulator::Now() - m_legStart).GetSeconds();
    return Vector(
        m_velocity.x * FoldSign(m_origin.x + m_velocity.x * t, m_bounds.xMin, m_bounds.xMax),
        m_velocity.y * FoldSign(m_origin.y + m_velocity.y * t, m_bounds.yMin, m_bounds.yMax),
        0.0);
}

int64_t
D2dRandomWalkMobilityModel::DoAssignStreams(int64_t stream)
{
    m_speed->SetStream(stream);
    m_direction->SetStream(stream + 1);
    return 2;
}

} // namespace ns3
