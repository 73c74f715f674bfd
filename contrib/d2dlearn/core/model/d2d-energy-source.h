#ifndef D2D_ENERGY_SOURCE_H
#define D2D_ENERGY_SOURCE_H

#include "d2d-ns3-compat.h"

#include "ns3/energy-source.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A linear battery without periodic events: ns-3's BasicEnergySource, brought up to
 * date only when its draw changes and when it is read.
 *
 * The remaining energy falls linearly with the total current of the source's device
 * energy models (minus its harvesters' power): E(t) = E(t0) - I V (t - t0), in closed
 * form between two updates, where t0 is the last update. An update happens at every
 * change of draw (a DeviceEnergyModel calls UpdateEnergySource() before its current
 * changes) and at every read (GetRemainingEnergy(), GetEnergyFraction()); nothing is
 * scheduled. The arithmetic is BasicEnergySource's (ns-3.37) to the bit: the energy of an
 * update is (I V x duration) computed as an ns-3 Time and read in seconds, so it is a
 * whole number of nJ; depletion (remaining <= LowBatteryThreshold x initial energy) and
 * recharge (above HighBatteryThreshold x initial energy) notify the models as
 * BasicEnergySource does, and so does a change of the remaining energy.
 *
 * What the periodic update of BasicEnergySource (every PeriodicEnergyUpdateInterval,
 * 1 s by default) did, and what replaces it:
 * - It found depletion within one interval for any model. The D2D models
 *   (D2dRadioEnergyModel, D2dComputeModel) schedule a check at the predicted instant of
 *   depletion themselves (D2dEnergyModel), so they deplete on time; a DeviceEnergyModel of
 *   another type on this source is found depleted only at the next change of draw or read.
 * - It rounded: each update's energy is rounded to whole nJ, so a period between two
 *   changes of draw was rounded once per periodic update that fell in it, here once. The
 *   remaining energy (and the remaining_j of the energy trace) can therefore differ from
 *   BasicEnergySource's by a few nJ per second of draw; where no periodic update fell
 *   between two changes they are equal to the bit (tested).
 * - It fired the RemainingEnergy trace once per interval; here the trace fires at updates.
 *
 * At 1,000,000 devices a BasicEnergySource holds one pending event per device and runs
 * 1,000,000 events per simulated second; this source holds and runs none.
 */
class D2dEnergySource : public EnergySource
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dEnergySource();
    ~D2dEnergySource() override;

    /** \return the initial energy, J */
    double GetInitialEnergy() const override;
    /** \return the supply voltage, V */
    double GetSupplyVoltage() const override;
    /** \return the remaining energy, J (the source is brought up to date first) */
    double GetRemainingEnergy() override;
    /** \return remaining over initial energy (the source is brought up to date first) */
    double GetEnergyFraction() override;
    /**
     * \brief Bring the remaining energy up to date (closed form since the last update) and
     * notify the models of a depletion, a recharge or a change.
     */
    void UpdateEnergySource() override;

    /** The attribute names of the energy sources the module uses, per source type. */
    struct SourceAttributes
    {
        const char* initialEnergyJ;      //!< the initial energy, J
        const char* lowBatteryThreshold; //!< depleted at or below, fraction of initial
    };

    /**
     * \return the names of D2dEnergySource's, BasicEnergySource's and LiIonEnergySource's
     * attributes, in that order: a caller uses the first entry whose attribute a source's
     * TypeId has (so that a subclass is served too)
     */
    static const std::vector<SourceAttributes>& KnownSourceAttributes();

    /** \param initialEnergyJ the initial (and remaining) energy, J (>= 0) */
    void SetInitialEnergy(double initialEnergyJ);
    /** \param supplyVoltageV the supply voltage, V (> 0) */
    void SetSupplyVoltage(double supplyVoltageV);

  private:
    /** \brief Finish the set-up once every attribute is set (Object::DoInitialize). */
    void DoInitialize() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

    double m_initialEnergyJ;                //!< initial energy, J
    double m_supplyVoltageV;                //!< supply voltage, V
    double m_lowBatteryTh;                  //!< depleted at or below, fraction of initial
    double m_highBatteryTh;                 //!< recharged above, fraction of initial
    bool m_depleted;                        //!< depletion reported, no recharge since
    TracedValue<double> m_remainingEnergyJ; //!< remaining energy, J
    Time m_lastUpdateTime;                  //!< time of the last update
};

} // namespace ns3

#endif // D2D_ENERGY_SOURCE_H
