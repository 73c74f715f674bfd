#include "d2d-energy-source.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dEnergySource");
NS_OBJECT_ENSURE_REGISTERED(D2dEnergySource);

TypeId
D2dEnergySource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dEnergySource")
            .SetParent<EnergySource>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dEnergySource>()
            .AddAttribute("InitialEnergyJ",
                          "Initial energy stored in the source, J",
                          DoubleValue(10.0),
                          MakeDoubleAccessor(&D2dEnergySource::SetInitialEnergy,
                                             &D2dEnergySource::GetInitialEnergy),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("SupplyVoltageV",
                          "Supply voltage, V",
                          DoubleValue(3.0),
                          MakeDoubleAccessor(&D2dEnergySource::SetSupplyVoltage,
                                             &D2dEnergySource::GetSupplyVoltage),
                          MakeDoubleChecker<double>(1e-12))
            .AddAttribute("LowBatteryThreshold",
                          "Depleted when the remaining energy is at or below this fraction "
                          "of the initial energy (0: empty means depleted)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&D2dEnergySource::m_lowBatteryTh),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("HighBatteryThreshold",
                          "Recharged (after a depletion) when the remaining energy rises "
                          "above this fraction of the initial energy (harvesters)",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&D2dEnergySource::m_highBatteryTh),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("RemainingEnergy",
                            "Remaining energy, J (at each update)",
                            MakeTraceSourceAccessor(&D2dEnergySource::m_remainingEnergyJ),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

const std::vector<D2dEnergySource::SourceAttributes>&
D2dEnergySource::KnownSourceAttributes()
{
    static const std::vector<SourceAttributes> names{
        {"InitialEnergyJ", "LowBatteryThreshold"},
        {"BasicEnergySourceInitialEnergyJ", "BasicEnergyLowBatteryThreshold"},
        {"LiIonEnergySourceInitialEnergyJ", "LiIonEnergyLowBatteryThreshold"}};
    return names;
}

D2dEnergySource::D2dEnergySource()
    : m_initialEnergyJ(0.0),
      m_supplyVoltageV(3.0),
      m_lowBatteryTh(0.0),
      m_highBatteryTh(0.15),
      m_depleted(false),
      m_lastUpdateTime(Seconds(0)) // as BasicEnergySource; DoInitialize() updates
{
    NS_LOG_FUNCTION(this);
}

D2dEnergySource::~D2dEnergySource()
{
    NS_LOG_FUNCTION(this);
}

void
D2dEnergySource::SetInitialEnergy(double initialEnergyJ)
{
    NS_LOG_FUNCTION(this << initialEnergyJ);
    NS_ABORT_MSG_IF(!(initialEnergyJ >= 0.0), "D2dEnergySource: InitialEnergyJ must be >= 0");
    m_initialEnergyJ = initialEnergyJ;
    m_remainingEnergyJ = initialEnergyJ;
}

void
D2dEnergySource::SetSupplyVoltage(double supplyVoltageV)
{
    NS_LOG_FUNCTION(this << supplyVoltageV);
    m_supplyVoltageV = supplyVoltageV;
}

double
D2dEnergySource::GetInitialEnergy() const
{
    return m_initialEnergyJ;
}

double
D2dEnergySource::GetSupplyVoltage() const
{
    return m_supplyVoltageV;
}

double
D2dEnergySource::GetRemainingEnergy()
{
    UpdateEnergySource();
    return m_remainingEnergyJ;
}

double
D2dEnergySource::GetEnergyFraction()
{
    UpdateEnergySource();
    return m_remainingEnergyJ / m_initialEnergyJ;
}

void
D2dEnergySource::UpdateEnergySource()
{
    NS_LOG_FUNCTION(this);
    const double before = m_remainingEnergyJ;
    const Time now = Simulator::Now();
    // Negative only if the simulator was reset (Simulator::Destroy) since the last update,
    // e.g. a model disposed after the run: no time passed in this source's run since.
    // (BasicEnergySource would add the energy back for a negative duration.)
    const Time duration = std::max(now - m_lastUpdateTime, Time(0));
    // E(t) = E(t0) - I V (t - t0), as BasicEnergySource computes it: the product with the
    // Time is a Time (whole ns of "J"), i.e. the energy in whole nJ.
    const double currentA = CalculateTotalCurrent();
    const double energyJ = (currentA * m_supplyVoltageV * duration).GetSeconds();
    // Never below 0 (BasicEnergySource asserts it, a no-op in release builds of ns-3).
    m_remainingEnergyJ = std::max(0.0, before - energyJ);
    m_lastUpdateTime = now;

    if (!m_depleted && m_remainingEnergyJ <= m_lowBatteryTh * m_initialEnergyJ)
    {
        m_depleted = true;
        NotifyEnergyDrained();
    }
    else if (m_depleted && m_remainingEnergyJ > m_highBatteryTh * m_initialEnergyJ)
    {
        m_depleted = false;
        NotifyEnergyRecharged();
    }
    else if (m_remainingEnergyJ != before)
    {
        NotifyEnergyChanged();
    }
}

void
D2dEnergySource::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    UpdateEnergySource(); // nothing is scheduled: the next update is the next change or read
}

void
D2dEnergySource::DoDispose()
{
    NS_LOG_FUNCTION(this);
    BreakDeviceEnergyModelRefCycle();
}

} // namespace ns3
