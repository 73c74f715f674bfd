/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-mobility": D2dRandomWalkMobilityModel, the random walk of --speedMps.
 * - Fold/FoldSign against hand-worked values;
 * - a leg with reflections against an independent computation (the walk advanced from
 *   wall to wall, each reflection applied in turn), positions and velocities;
 * - speed: at 1e5 m/s in a 10 m square, 1 s of simulated time ends (ns-3's
 *   RandomWalk2dMobilityModel did not end it in 120 s: its rebounds at a corner repeat at one
 *   instant once their delay rounds to 0 ns) with one course change per 1 m leg, and every
 *   sampled position inside the square;
 * - range loss: a device moving away from another at a constant velocity
 *   (ConstantVelocityMobilityModel) loses the link at t* = (R - d0) / v, the moment the
 *   geometry says, for D2dChannel RangeM = R: Hears() changes at t* or the nanosecond after
 *   it (checked every nanosecond from t* - 5 ns to t* + 5 ns), a message sent 1 ms before t*
 *   delivered, one sent 1 ms after it (and 1 s after) not, with reason out_of_range; and the
 *   reverse with a device moving back into range.
 */

#include "d2d-test-observer.h"

#include "ns3/constant-position-mobility-model.h"
#include "ns3/constant-velocity-mobility-model.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-random-walk-mobility-model.h"
#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rectangle.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

/** Fold and FoldSign against values worked by hand. */
class D2dFoldTestCase : public TestCase
{
  public:
    D2dFoldTestCase()
        : TestCase("Fold: a straight line folded into [lo, hi] by reflections")
    {
    }

  private:
    void DoRun() override
    {
        using M = D2dRandomWalkMobilityModel;
        // In the square: unchanged; past hi by 2: 2 before hi; 31 = 20 + 11: 20 - 11 = 9.
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(4.0, 0, 10), 4.0, 1e-12, "inside");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(12.0, 0, 10), 8.0, 1e-12, "one reflection at hi");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(-3.0, 0, 10), 3.0, 1e-12, "one reflection at lo");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(25.0, 0, 10), 5.0, 1e-12, "two reflections");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(31.0, 0, 10), 9.0, 1e-12, "three reflections");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(7.5, 5, 8), 7.5, 1e-12, "offset interval");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::Fold(9.0, 5, 8), 7.0, 1e-12, "offset, reflected");
        NS_TEST_EXPECT_MSG_EQ(M::FoldSign(4.0, 0, 10), 1.0, "inside: as the line");
        NS_TEST_EXPECT_MSG_EQ(M::FoldSign(12.0, 0, 10), -1.0, "after hi: against it");
        NS_TEST_EXPECT_MSG_EQ(M::FoldSign(-3.0, 0, 10), -1.0, "after lo: against it");
        NS_TEST_EXPECT_MSG_EQ(M::FoldSign(25.0, 0, 10), 1.0, "two reflections: as the line");
        NS_TEST_EXPECT_MSG_EQ(M::Fold(3.0, 2, 2), 2.0, "an interval of width 0");
    }
};

/** A device with one leg (a constant speed and direction) walked for long enough to
 * reflect many times, against the walk advanced from wall to wall. */
class D2dReflectionTestCase : public TestCase
{
  public:
    D2dReflectionTestCase()
        : TestCase("A leg reflects specularly off every side, as a wall-to-wall walk")
    {
    }

  private:
    /** The reference: position and velocity after t seconds, wall to wall. */
    static void WallToWall(double t,
                           double x,
                           double y,
                           double vx,
                           double vy,
                           double xMax,
                           double yMax,
                           Vector& position,
                           Vector& velocity)
    {
        double left = t;
        while (left > 0)
        {
            const double tx = vx > 0 ? (xMax - x) / vx : vx < 0 ? -x / vx : INFINITY;
            const double ty = vy > 0 ? (yMax - y) / vy : vy < 0 ? -y / vy : INFINITY;
            const double step = std::min({tx, ty, left});
            x += vx * step;
            y += vy * step;
            left -= step;
            if (left > 0 && step == tx)
            {
                vx = -vx;
            }
            if (left > 0 && step == ty)
            {
                vy = -vy;
            }
        }
        position = Vector(x, y, 0);
        velocity = Vector(vx, vy, 0);
    }

    void DoRun() override
    {
        const double speed = 7.0;
        const double direction = 0.3; // radians
        auto walk = CreateObject<D2dRandomWalkMobilityModel>();
        walk->SetAttribute("Bounds", RectangleValue(Rectangle(0, 10, 0, 5)));
        walk->SetAttribute("Speed", StringValue("ns3::ConstantRandomVariable[Constant=7]"));
        walk->SetAttribute("Direction", StringValue("ns3::ConstantRandomVariable[Constant=0.3]"));
        walk->SetAttribute("DistanceM", DoubleValue(1e6)); // one leg for the whole test
        walk->SetPosition(Vector(2.0, 1.0, 1.5));
        walk->Initialize();
        std::vector<double> times{0.0, 0.37, 1.0, 1.25, 3.9, 12.345, 60.0};
        int checked = 0;
        for (double t : times)
        {
            Simulator::Schedule(Seconds(t), [&, t]() {
                Vector p;
                Vector v;
                WallToWall(t,
                           2.0,
                           1.0,
                           speed * std::cos(direction),
                           speed * std::sin(direction),
                           10,
                           5,
                           p,
                           v);
                const Vector got = walk->GetPosition();
                NS_TEST_EXPECT_MSG_EQ_TOL(got.x, p.x, 1e-9, "x at " << t << " s");
                NS_TEST_EXPECT_MSG_EQ_TOL(got.y, p.y, 1e-9, "y at " << t << " s");
                NS_TEST_EXPECT_MSG_EQ(got.z, 1.5, "z kept");
                const Vector vel = walk->GetVelocity();
                NS_TEST_EXPECT_MSG_EQ_TOL(vel.x, v.x, 1e-12, "vx at " << t << " s");
                NS_TEST_EXPECT_MSG_EQ_TOL(vel.y, v.y, 1e-12, "vy at " << t << " s");
                ++checked;
            });
        }
        Simulator::Stop(Seconds(61)); // a walk's legs go on for ever
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(checked, static_cast<int>(times.size()), "every time checked");
        Simulator::Destroy();
    }
};

/** 1e5 m/s in a 10 m square for 1 s: it ends, one leg per metre, always in the square. */
class D2dFastWalkTestCase : public TestCase
{
  public:
    D2dFastWalkTestCase()
        : TestCase("A walk at 1e5 m per s ends: one event per 1 m leg, positions in the square")
    {
    }

  private:
    void DoRun() override
    {
        const int nDevices = 4;
        std::vector<Ptr<D2dRandomWalkMobilityModel>> walks;
        std::vector<uint64_t> legs(nDevices, 0);
        for (int i = 0; i < nDevices; ++i)
        {
            auto walk = CreateObject<D2dRandomWalkMobilityModel>();
            walk->SetAttribute("Bounds", RectangleValue(Rectangle(0, 10, 0, 10)));
            walk->SetAttribute("Speed",
                               StringValue("ns3::ConstantRandomVariable[Constant=100000]"));
            walk->SetPosition(Vector(2.5 * i, 10 - 2.5 * i, 0)); // corners and sides too
            walk->AssignStreams(10 * i);
            walk->TraceConnectWithoutContext(
                "CourseChange",
                MakeBoundCallback(
                    +[](uint64_t* count, Ptr<const MobilityModel>) { ++*count; },
                    &legs[i]));
            walk->Initialize();
            walks.push_back(walk);
        }
        uint64_t outside = 0;
        uint64_t samples = 0;
        for (int k = 1; k < 1000; ++k)
        {
            Simulator::Schedule(MicroSeconds(997 * k), [&]() {
                for (const auto& w : walks)
                {
                    const Vector p = w->GetPosition();
                    outside += (p.x < 0 || p.x > 10 || p.y < 0 || p.y > 10) ? 1 : 0;
                    ++samples;
                }
            });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(samples, 999u * nDevices, "every sample taken");
        NS_TEST_EXPECT_MSG_EQ(outside, 0u, "every position in the square");
        for (int i = 0; i < nDevices; ++i)
        {
            // Legs start at 0, 10 us, ..., 999,990 us (1 m at 1e5 m/s; the position was
            // set before the trace was connected): 100,000 legs before the stop at 1 s.
            NS_TEST_EXPECT_MSG_EQ(legs[i], 100000u, "course changes of device " << i);
        }
    }
};

/** The d2d-mobility test suite. */
/**
 * Device 1 leaves device 0's range R at a constant speed v from d0 (then, in a second run,
 * comes back into it from d0 > R): the link goes (comes) at t* = |R - d0| / v, as the
 * geometry says, to the nanosecond the simulator resolves.
 */
class D2dRangeLossTestCase : public TestCase
{
  public:
    D2dRangeLossTestCase()
        : TestCase("A device that leaves the range loses its links at t* = (R - d0) over v")
    {
    }

  private:
    static constexpr double R = 50.0;  //!< RangeM, m
    static constexpr double D0 = 20.0; //!< initial distance, m
    static constexpr double V = 10.0;  //!< speed, m/s (t* = 3 s)

    /**
     * rief One run: device 0 at the origin, device 1 at d0 on the x axis moving at vx.
     * \param d0 initial distance, m
     * \param vx velocity along x, m/s
     * \param leaving true: heard before t*, not after; false: the reverse
     */
    void RunOne(double d0, double vx, bool leaving)
    {
        const double tStar = std::abs(R - d0) / std::abs(vx);
        NodeContainer nodes;
        nodes.Create(2);
        auto still = CreateObject<ConstantPositionMobilityModel>();
        still->SetPosition(Vector(0, 0, 0));
        nodes.Get(0)->AggregateObject(still);
        auto moving = CreateObject<ConstantVelocityMobilityModel>();
        moving->SetPosition(Vector(d0, 0, 0));
        moving->SetVelocity(Vector(vx, 0, 0));
        nodes.Get(1)->AggregateObject(moving);
        D2dHelper helper;
        helper.SetChannelAttribute("RangeM", DoubleValue(R));
        helper.SetChannelAttribute("NoisePowerW", DoubleValue(0.0)); // P_D = 0: range only
        Ptr<D2dChannel> channel = helper.Install(nodes);
        helper.AssignStreams(1);
        D2dTestChannelObserver observed;
        observed.Connect(channel);

        // Hears() every nanosecond from t* - 5 ns to t* + 5 ns: where the link changes.
        const Time star = Seconds(tStar);
        Time change = Seconds(-1);
        bool before = false;
        for (int64_t k = -5; k <= 5; ++k)
        {
            Simulator::Schedule(star + NanoSeconds(k), [&, k]() {
                const bool hears = channel->Hears(0, 1) && channel->Hears(1, 0);
                if (k > -5 && hears != before && change.IsStrictlyNegative())
                {
                    change = Simulator::Now();
                }
                before = hears;
            });
        }
        // A message 1 ms before t*, 1 ms after it and 1 s after it, from device 1 to 0.
        std::vector<uint64_t> ids;
        for (double dt : {-1e-3, 1e-3, 1.0})
        {
            Simulator::Schedule(Seconds(tStar + dt), [&]() {
                ids.push_back(channel->GetRadio(1)->Send(Create<D2dMessage>("model", 100),
                                                         0,
                                                         D2dDeliveryMode::UNRELIABLE));
            });
        }
        Simulator::Stop(Seconds(tStar + 2));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(change.IsStrictlyNegative(), false, "the link changed near t*");
        // The geometry: in range while closer than R (Hears: distance < RangeM). At t* itself
        // the distance is R up to the rounding of t* in seconds (1e-15 m, where a nanosecond
        // moves the device 1e-8 m): the change is at t* or the nanosecond after it.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(change, star, "the link changes at t* = " << star.As(Time::S));
        NS_TEST_EXPECT_MSG_LT_OR_EQ(change,
                                    star + NanoSeconds(1),
                                    "the link changes at t* = " << star.As(Time::S));
        NS_TEST_EXPECT_MSG_EQ(before, !leaving, "after t*");
        std::map<uint64_t, const D2dDeliveryRecord*> byId;
        for (const auto& r : observed.records)
        {
            byId[r.msgId] = &r;
        }
        NS_TEST_ASSERT_MSG_EQ(ids.size(), 3U, "three sends");
        for (std::size_t i = 0; i < ids.size(); ++i)
        {
            const bool heard = (i == 0) == leaving; // the send 1 ms before t* when leaving
            if (ids[i] == 0 || byId.count(ids[i]) == 0)
            {
                // A send none can hear may not get an id's record: then not delivered.
                NS_TEST_EXPECT_MSG_EQ(heard, false, "send " << i << ": no record");
                continue;
            }
            const D2dDeliveryRecord& r = *byId[ids[i]];
            NS_TEST_EXPECT_MSG_EQ(r.delivered,
                                  heard,
                                  "send " << i << " (leaving " << leaving << ")");
            if (!heard)
            {
                NS_TEST_EXPECT_MSG_EQ(r.reason, "out_of_range", "send " << i);
            }
        }
        uint64_t received = 0;
        for (const auto& rx : observed.receptions)
        {
            received += rx.message ? 1 : 0;
        }
        // A named value: ns-3.37's macro pastes the limit unparenthesized, so a conditional
        // there compared (received == leaving) and the check could not fail.
        const uint64_t expected = leaving ? 1U : 2U;
        NS_TEST_EXPECT_MSG_EQ(received, expected, "messages received");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        RunOne(D0, V, true);             // leaves at (50 - 20) / 10 = 3 s
        RunOne(R + (R - D0), -V, false); // 80 m away, back in range at 3 s
    }
};

class D2dMobilityTestSuite : public TestSuite
{
  public:
    D2dMobilityTestSuite()
        : TestSuite("d2d-mobility")
    {
        AddTestCase(new D2dFoldTestCase);
        AddTestCase(new D2dReflectionTestCase);
        AddTestCase(new D2dFastWalkTestCase);
        AddTestCase(new D2dRangeLossTestCase);
    }
};

/** Static instance. */
static D2dMobilityTestSuite g_d2dMobilityTestSuite;

} // namespace
