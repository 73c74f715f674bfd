/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DRX_H
#define D2D_DRX_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class D2dChannel;

/**
 * \ingroup d2dlearn
 * \brief Discontinuous reception (DRX) of the radios of one D2dChannel: when each radio is
 * awake, asleep or on its way between the two.
 *
 * The shape of 3GPP's DRX (TS 38.321 sec. 5.7 for the Uu link, sec. 5.28 for the sidelink
 * DRX of Release 17): every radio follows one cycle, the same for all (a common
 * configuration, as sidelink DRX's default for groupcast and broadcast), made of an
 * on-duration at the start of each cycle, [k Cycle, k Cycle + OnDuration), in which it
 * listens. Any transmission or reception restarts its inactivity timer: the radio stays
 * awake until InactivityTimer after its last activity ends, or the on-duration ends,
 * whichever is later. Then it sleeps until the next on-duration, if the gap is at least its
 * energy model's SleepTransitionTime (ramp-down, sleep, ramp-up ending at the on-duration's
 * start; D2dRadioEnergyModel charges each).
 *
 * Reachability (the channel access asks IsAwake()): a message starts only when its sender
 * and every receiver that hears it are awake. A receiver that sleeps is not woken: the
 * message waits until its next on-duration, and that wait is the delivery record's
 * sleepWait (messages.csv's sleep_wait_s). A sender that sleeps wakes when it has a message
 * whose receivers are awake (RequestWake(): the ramp-up's half of the transition time later;
 * it stays awake until that message went on the air). A radio without
 * energy model (the mains-powered server) never sleeps, nor does a radio that is off.
 *
 * Sleep the device asks for (SleepUntil): a device whose protocol knows it has nothing to
 * send or receive until a time t tells its transport (D2dTransport::IdleUntil), and its
 * radio sleeps as soon as it is free (no transmission, reception or queued message of its
 * own) until t, the ramp-up ending at t, if the gap holds its ramps; the cycle's
 * on-durations and the inactivity timer in between are skipped, and with a cycle it sleeps
 * on to the first on-duration at or after t (as DRX alone would have it: a radio whose
 * message waits for the medium need not listen). Messages for it wait, and a message of
 * its own wakes it, as above; once it has sent, it sleeps again until t.
 * With Cycle 0 there is no cycle at all: the radios listen except when their device asks
 * them to sleep (D2dChannel::GetOrCreateDrx makes such a D2dDrx at the first request).
 *
 * Events: per sleeping radio, one at each state change (ramp-down end, ramp-up start, wake)
 * and one check at the end of its active time; nothing is kept for a radio while the
 * channel has no DRX (D2dChannel::GetDrx() null), nor, with Cycle 0, for a radio whose
 * device never asked it to sleep.
 */
class D2dDrx : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dDrx();
    ~D2dDrx() override;

    /**
     * \brief Follow the radios of a channel from now (the start of a cycle): call once the
     * radios are attached, at time 0.
     * \param channel the channel (not a Ptr: it owns this object)
     */
    void Setup(D2dChannel* channel);
    /**
     * \brief A radio attached to the channel after Setup() follows the cycle too.
     * \param index its index
     */
    void AddRadio(uint32_t index);

    /** \return the Cycle attribute */
    Time GetCycle() const;
    /** \return the OnDuration attribute */
    Time GetOnDuration() const;
    /** \return the InactivityTimer attribute */
    Time GetInactivityTimer() const;

    /**
     * \param index a radio's index
     * \return whether it is awake (it may send and receive)
     */
    bool IsAwake(uint32_t index) const;
    /**
     * \brief The radio has a message to send: wake it as soon as it can (now if awake; at the
     * end of its ramp-down and ramp-up if it is going to sleep; half the transition time from
     * now if asleep). The channel access is told when it is awake (RadioAwake).
     * \param index the radio's index
     * \return when it will be awake
     */
    Time RequestWake(uint32_t index);
    /**
     * \param index a radio's index
     * \return when it is next awake without being asked (now if awake)
     */
    Time GetWakeTime(uint32_t index) const;
    /**
     * \brief The radio's device has nothing to send or receive until a time: sleep as soon
     * as the radio is free, and be awake again at that time (see the class description).
     * \param index the radio's index
     * \param until the time (nothing happens if it is not after now)
     */
    void SleepUntil(uint32_t index, Time until);
    /**
     * \brief A transmission or reception of the radio ended: its inactivity timer restarts.
     * \param index the radio's index
     */
    void Activity(uint32_t index);
    /**
     * \brief The channel access no longer holds the radio for a transmission: it may sleep
     * when its active time is over.
     * \param index the radio's index
     */
    void Released(uint32_t index);
    /**
     * \brief The radio is back after its device was away: it draws the power of the state
     * the cycle has it in now (kept while away), and its timers run again.
     * \param index the radio's index
     */
    void Rejoined(uint32_t index);
    /** \return whether the radios follow a cycle (Cycle > 0) */
    bool HasCycle() const;
    /**
     * \param t a time
     * \return the start of the first on-duration at or after t (t without a cycle)
     */
    Time NextOnStart(Time t) const;
    /**
     * \param t a time
     * \return whether t is in an on-duration (always, without a cycle)
     */
    bool InOnDuration(Time t) const;

  protected:
    /** \brief Cancel the events (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** A radio's sleep state. */
    enum State : uint8_t
    {
        AWAKE,     //!< listening, sending or receiving
        RAMP_DOWN, //!< going to sleep
        ASLEEP,    //!< asleep
        RAMP_UP    //!< waking
    };

    /** Per radio. */
    struct Radio
    {
        State state{AWAKE};    //!< sleep state
        bool wakeAsked{false}; //!< RAMP_DOWN: wake at its end instead of sleeping
        bool toSend{false};    //!< woken to send (RequestWake): awake until it has sent
        Time wakeAt;           //!< RAMP_DOWN, ASLEEP, RAMP_UP: when awake (as planned)
        Time activeUntil;      //!< end of the inactivity timer
        Time holdUntil;        //!< SleepUntil's time: asleep until then where it can be
        EventId event;         //!< the next state change or check
    };

    /** \param index grow the per-radio state to hold it */
    void Grow(uint32_t index);
    /**
     * \brief End of an active time (or a busy radio's check): sleep if it may.
     * \param index the radio's index
     */
    void Check(uint32_t index);
    /** \param index schedule the radio's check at the end of its active time */
    void ScheduleCheck(uint32_t index);
    /** \param index ramp-down over: sleep, or ramp up if a wake was asked */
    void RampDownEnd(uint32_t index);
    /** \param index start the ramp-up (or wake, without transition time) */
    void RampUpStart(uint32_t index);
    /** \param index awake: tell the energy model and the channel access */
    void Wake(uint32_t index);
    /**
     * \param index a radio's index
     * \return whether it may sleep at all: attached, with an energy model, not off
     */
    bool Sleeps(uint32_t index) const;
    /** \param index \return its energy model's SleepTransitionTime / 2 */
    Time HalfTransition(uint32_t index) const;
    /**
     * \param index a radio's index
     * \param state its new state, told to its energy model
     */
    void SetState(uint32_t index, State state);

    D2dChannel* m_channel{nullptr}; //!< the channel (owner)
    Time m_cycle;                   //!< Cycle attribute
    Time m_onDuration;              //!< OnDuration attribute
    Time m_inactivity;              //!< InactivityTimer attribute
    std::vector<Radio> m_radios;    //!< by radio index
};

} // namespace ns3

#endif /* D2D_DRX_H */
