/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RANDOM_WALK_MOBILITY_MODEL_H
#define D2D_RANDOM_WALK_MOBILITY_MODEL_H

#include "d2d-ns3-compat.h"

#include "ns3/event-id.h"
#include "ns3/mobility-model.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rectangle.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A 2-d random walk in a rectangle, with reflections computed in closed form: one
 * event per leg of the walk, whatever the speed.
 *
 * The walk of ns-3's RandomWalk2dMobilityModel in its Distance mode: a device draws a
 * direction (Direction, radians) and a speed (Speed, m/s), moves DistanceM metres in a
 * straight line, reflecting specularly off the rectangle's sides, then draws again. ns-3's
 * model schedules an event at every reflection, at a delay rounded to the time resolution
 * (1 ns): at high speeds near a corner that delay rounds to 0 and the rebounds repeat at
 * one instant without end (a walk at 1e5 m/s in a 10 m square did not finish 1 s of
 * simulated time in 120 s, with ns-3.37 and ns-3.48). Here the position at time t is the
 * straight-line position folded into the rectangle, each coordinate by the triangle wave
 * x = lo + W - |W - ((x0 + v t - lo) mod 2W)| (W = hi - lo), and the velocity's sign is that
 * of the fold: reflections need no event, and a leg costs one event at any speed.
 *
 * CourseChange fires at each draw (the start of each leg) and when the position is set, not
 * at reflections; users that need positions query them (GetPosition()) when they use them.
 */
class D2dRandomWalkMobilityModel : public MobilityModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    D2dRandomWalkMobilityModel();
    ~D2dRandomWalkMobilityModel() override;

#if D2DLEARN_HAVE_MOBILITY_COPY
    /**
     * \brief A copy of this model (ns-3 3.46 and later), as ns-3's own models make theirs.
     * \return the copy
     */
    Ptr<MobilityModel> Copy() const override
    {
        return CreateObject<D2dRandomWalkMobilityModel>(*this);
    }
#endif

    /**
     * \brief Fold a coordinate of a straight-line walk into [lo, hi] (specular reflections
     * at both ends).
     * \param u the coordinate without the walls (m)
     * \param lo the low wall (m)
     * \param hi the high wall (m), >= lo
     * \return the coordinate in [lo, hi] (m)
     */
    static double Fold(double u, double lo, double hi);

    /**
     * \brief The direction of a folded coordinate: +1 where it moves as the straight line
     * does, -1 where it moves against it (after an odd number of reflections).
     * \param u the coordinate without the walls (m)
     * \param lo the low wall (m)
     * \param hi the high wall (m), >= lo
     * \return +1 or -1
     */
    static double FoldSign(double u, double lo, double hi);

  private:
    /** \brief Finish the set-up once every attribute is set (Object::DoInitialize). */
    void DoInitialize() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;
    /**
     * \brief The current position: the leg's straight-line position folded into m_bounds.
     * \return the position now (m)
     */
    Vector DoGetPosition() const override;
    /**
     * \brief Move the device: it stands still there and, once initialised, starts a new leg
     * now (fires CourseChange).
     * \param position the new position (m)
     */
    void DoSetPosition(const Vector& position) override;
    /**
     * \brief The current velocity: the leg's, each component's sign flipped after an odd
     * number of reflections (z is 0).
     * \return the velocity now (m/s)
     */
    Vector DoGetVelocity() const override;
    /**
     * \brief Assign streams to the Speed (stream) and Direction (stream + 1) variables.
     * \param stream the first stream index
     * \return the number of streams used (2)
     */
    int64_t DoAssignStreams(int64_t stream) override;

    /** \brief Start a leg where the device is: draw direction and speed, schedule the next. */
    void StartLeg();

    Rectangle m_bounds;                    //!< the rectangle walked in (m)
    Ptr<RandomVariableStream> m_speed;     //!< speed of a leg (m/s)
    Ptr<RandomVariableStream> m_direction; //!< direction of a leg (radians)
    double m_distanceM{1.0};               //!< length of a leg (m)
    Vector m_origin;                       //!< position at the leg's start (m)
    Vector m_velocity;                     //!< velocity of the leg before reflections (m/s)
    Time m_legStart;                       //!< when the leg started
    EventId m_event;                       //!< the next leg's start
};

} // namespace ns3

#endif // D2D_RANDOM_WALK_MOBILITY_MODEL_H
