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
 *   sampled position inside the square.
 */

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
class D2dMobilityTestSuite : public TestSuite
{
  public:
    D2dMobilityTestSuite()
        : TestSuite("d2d-mobility")
    {
        AddTestCase(new D2dFoldTestCase);
        AddTestCase(new D2dReflectionTestCase);
        AddTestCase(new D2dFastWalkTestCase);
    }
};

/** Static instance. */
static D2dMobilityTestSuite g_d2dMobilityTestSuite;

} // namespace
