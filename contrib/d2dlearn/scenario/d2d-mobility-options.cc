/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-mobility-options.h"

#include "ns3/box.h"
#include "ns3/d2d-input-file.h"
#include "ns3/d2d-position-trace-writer.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mobility-helper.h"
#include "ns3/ns2-mobility-helper.h"
#include "ns3/pointer.h"
#include "ns3/position-allocator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rectangle.h"
#include "ns3/string.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dMobilityOptions");

namespace
{

/**
 * \param token e.g. "$node_(12)"
 * \param id set to the node index
 * \return true if token is $node_(i) with i a non-negative integer
 */
bool
ParseNodeToken(const std::string& token, uint32_t& id)
{
    const std::string prefix = "$node_(";
    if (token.size() <= prefix.size() + 1 || token.compare(0, prefix.size(), prefix) != 0 ||
        token.back() != ')')
    {
        return false;
    }
    const std::string digits = token.substr(prefix.size(), token.size() - prefix.size() - 1);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    id = static_cast<uint32_t>(std::stoul(digits));
    return true;
}

} // namespace

void
D2dMobilityOptions::AddFlags(D2dScenarioFlags& flags)
{
    flags
        .Add("mobility",
             "How the devices move: constant (ns-3's ConstantPositionMobilityModel), random-walk "
             "(--speedMps; --speedMps > 0 alone means it too), random-waypoint (ns-3's "
             "RandomWaypointMobilityModel, waypoints uniform in the square), gauss-markov "
             "(ns-3's GaussMarkovMobilityModel in the square, z = 0) or ns2 (an ns-2 mobility "
             "trace, --mobilityTrace, through ns-3's Ns2MobilityHelper)",
             model)
        .Choices({"constant", "random-walk", "random-waypoint", "gauss-markov", "ns2"});
    flags
        .Add("waypointMinSpeedMps",
             "--mobility=random-waypoint: least speed of a leg (uniform between this and "
             "--waypointMaxSpeedMps), m/s",
             waypointMinSpeedMps)
        .Positive(MAX_SPEED_MPS);
    flags
        .Add("waypointMaxSpeedMps",
             "--mobility=random-waypoint: greatest speed of a leg, m/s",
             waypointMaxSpeedMps)
        .Positive(MAX_SPEED_MPS);
    flags
        .Add("waypointPause",
             "--mobility=random-waypoint: pause at each waypoint (and at the start)",
             waypointPause)
        .Range(0, 1e9);
    flags
        .Add("gaussMarkovMeanSpeedMps",
             "--mobility=gauss-markov: mean speed, m/s (ns-3's Gaussian term of the speed, "
             "NormalVelocity, has a standard deviation of 1 m/s)",
             gaussMarkovMeanSpeedMps)
        .Positive(MAX_SPEED_MPS);
    flags
        .Add("gaussMarkovAlpha",
             "--mobility=gauss-markov: memory of speed and direction, 0 (memoryless) to 1 "
             "(constant velocity)",
             gaussMarkovAlpha)
        .Sets("ns3::GaussMarkovMobilityModel::Alpha")
        .Range(0, 1);
    flags
        .Add("gaussMarkovTimeStep",
             "--mobility=gauss-markov: time between updates of speed and direction",
             gaussMarkovTimeStep)
        .Sets("ns3::GaussMarkovMobilityModel::TimeStep")
        .Positive(1e9);
    flags.Add("mobilityTrace",
              "--mobility=ns2: ns-2 mobility trace file ($node_(i) set X_/Y_, $ns_ at T "
              "\"$node_(i) setdest x y speed\"); its nodes (highest i + 1) must be --nDevices, "
              "its coordinates in the square",
              mobilityTrace);
    flags
        .Add("positionEvery",
             "Period of positions.csv's samples of every node's position (0: the positions "
             "at time 0 only)",
             positionEvery)
        .Range(0, 1e9);
}

void
D2dMobilityOptions::Validate(const D2dScenarioSupport& support,
                             const D2dScenarioFlags& flags,
                             double speedMps,
                             double areaSideM,
                             const std::string& rssFile,
                             uint32_t& nDevices)
{
    NS_LOG_FUNCTION(this << speedMps << areaSideM << nDevices);
    if (!flags.Given("mobility"))
    {
        model = speedMps > 0 ? "random-walk" : "constant"; // as before --mobility existed
    }
    if (model == "random-walk" && !(speedMps > 0))
    {
        support.Fail("--mobility=random-walk needs --speedMps > 0 (the walk's speed, m/s)");
    }
    // Which model's parameters act with which --mobility: D2dFlagScope's table.
    if (!rssFile.empty() && Moves())
    {
        support.Fail(fmt::format("--mobility={} cannot be combined with --rssFile: the matrix, "
                                 "not the positions, gives every link",
                                 model));
    }
    if (!rssFile.empty() && flags.Given("positionEvery"))
    {
        support.Fail("--positionEvery cannot be combined with --rssFile: with an RSS matrix the "
                     "devices have no positions (no positions.csv)");
    }
    if (model == "random-waypoint" && waypointMinSpeedMps > waypointMaxSpeedMps)
    {
        support.Fail(fmt::format("--waypointMinSpeedMps={} is above --waypointMaxSpeedMps={} "
                                 "(accepted: min <= max)",
                                 D2dScenarioSupport::FormatNumber(waypointMinSpeedMps),
                                 D2dScenarioSupport::FormatNumber(waypointMaxSpeedMps)));
    }
    if (model == "gauss-markov")
    {
        // ns-3's model keeps a device in its box only by reversing, at each step, a velocity
        // that would cross a side within the step, and reports the positions between steps
        // unclamped: a step longer than half the side leaves the square (measured: at 1e5 m/s
        // with 1 ms steps in a 10 m square, devices 100 m outside). The speed: the mean plus
        // the bound of ns-3's default NormalVelocity term (10 m/s, 10 standard deviations).
        const double step = (gaussMarkovMeanSpeedMps + GAUSS_MARKOV_SPEED_MARGIN_MPS) *
                            D2dScenarioSupport::ToSeconds(gaussMarkovTimeStep);
        if (step > areaSideM / 2)
        {
            support.Fail(fmt::format(
                "--gaussMarkovMeanSpeedMps={} with --gaussMarkovTimeStep={} s moves a device up "
                "to {} m a step, more than half --areaSideM={} m (ns-3's GaussMarkovMobilityModel "
                "then leaves the square between steps; accepted: (speed + {} m/s) x step <= "
                "side / 2)",
                D2dScenarioSupport::FormatNumber(gaussMarkovMeanSpeedMps),
                D2dScenarioSupport::FormatNumber(
                    D2dScenarioSupport::ToSeconds(gaussMarkovTimeStep)),
                D2dScenarioSupport::FormatNumber(step),
                D2dScenarioSupport::FormatNumber(areaSideM),
                D2dScenarioSupport::FormatNumber(GAUSS_MARKOV_SPEED_MARGIN_MPS)));
        }
    }
    if (model == "ns2")
    {
        if (mobilityTrace.empty())
        {
            support.Fail("--mobility=ns2 needs --mobilityTrace=FILE (an ns-2 mobility trace)");
        }
        D2dNs2TraceInfo info;
        try
        {
            info = ReadNs2Trace(mobilityTrace, areaSideM);
        }
        catch (const std::exception& e)
        {
            support.Fail(e.what());
        }
        if (nDevices != 0 && nDevices != info.nodes)
        {
            support.Fail(fmt::format("--nDevices={} does not match --mobilityTrace={}, which "
                                     "moves {} nodes (accepted: 0 or {})",
                                     nDevices,
                                     mobilityTrace,
                                     info.nodes,
                                     info.nodes));
        }
        nDevices = info.nodes;
    }
}

bool
D2dMobilityOptions::Moves() const
{
    return model != "constant";
}

D2dNs2TraceInfo
D2dMobilityOptions::ReadNs2Trace(const std::string& path, double areaSideM)
{
    // Before opening it: a FIFO would block, /dev/zero never end.
    D2dInputFile::Check(path,
                        "--mobilityTrace=" + path,
                        "an ns-2 movement trace ($node_(i) set X_ ..., $ns_ at t \"$node_(i) "
                        "setdest x y speed\")");
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error(
            fmt::format("--mobilityTrace={}: cannot be read (no such file or no permission)",
                        path));
    }
    D2dNs2TraceInfo info;
    std::map<uint32_t, unsigned> initial; // node -> bit 1: X_ given, bit 2: Y_ given
    int64_t highest = -1;
    std::string line;
    uint64_t number = 0;
    auto fail = [&](const std::string& what) {
        throw std::runtime_error(
            fmt::format("--mobilityTrace={}: line {}: {}", path, number, what));
    };
    auto coordinate = [&](const std::string& token, const char* axis) {
        double v = 0;
        if (!D2dScenarioSupport::ParseNumber(token, v))
        {
            fail(fmt::format("'{}' is not a number", token));
        }
        if (axis[0] == 'Z' ? v != 0 : !(v >= 0 && v <= areaSideM))
        {
            fail(axis[0] == 'Z'
                     ? fmt::format("Z_ = {}: d2dlearn's devices move in the plane z = 0", token)
                     : fmt::format("{} = {} m is outside the square (accepted: 0 to "
                                   "--areaSideM={} m)",
                                   axis,
                                   token,
                                   D2dScenarioSupport::FormatNumber(areaSideM)));
        }
        return v;
    };
    while (std::getline(in, line))
    {
        ++number;
        for (char& c : line)
        {
            c = c == '"' ? ' ' : c; // $ns_ at T "$node_(i) ..." : the quotes are not tokens
        }
        std::istringstream words(line);
        std::vector<std::string> t;
        for (std::string w; words >> w;)
        {
            t.push_back(w);
        }
        if (t.empty() || t[0][0] == '#')
        {
            continue;
        }
        uint32_t id = 0;
        const std::string kExpected = "expected `$node_(i) set X_ x`, `$ns_ at T \"$node_(i) "
                                      "set X_ x\"` or `$ns_ at T \"$node_(i) setdest x y "
                                      "speed\"`";
        if (t.size() == 4 && ParseNodeToken(t[0], id) && t[1] == "set" &&
            (t[2] == "X_" || t[2] == "Y_" || t[2] == "Z_"))
        {
            coordinate(t[3], t[2].c_str());
            initial[id] |= t[2] == "X_" ? 1U : t[2] == "Y_" ? 2U : 0U;
        }
        else if ((t.size() == 7 || t.size() == 8) && t[0] == "$ns_" && t[1] == "at" &&
                 ParseNodeToken(t[3], id))
        {
            double at = 0;
            if (!D2dScenarioSupport::ParseNumber(t[2], at) || at < 0)
            {
                fail(fmt::format("time '{}' is not a number >= 0", t[2]));
            }
            info.lastTimeS = std::max(info.lastTimeS, at);
            if (t.size() == 7 && t[4] == "set" && (t[5] == "X_" || t[5] == "Y_" || t[5] == "Z_"))
            {
                coordinate(t[6], t[5].c_str());
            }
            else if (t.size() == 8 && t[4] == "setdest")
            {
                coordinate(t[5], "x");
                coordinate(t[6], "y");
                double speed = 0;
                if (!D2dScenarioSupport::ParseNumber(t[7], speed) || speed < 0 ||
                    speed > MAX_SPEED_MPS)
                {
                    fail(fmt::format("speed '{}' is not a number from 0 to {} m/s",
                                     t[7],
                                     D2dScenarioSupport::FormatNumber(MAX_SPEED_MPS)));
                }
                ++info.movements;
            }
            else
            {
                fail(kExpected);
            }
        }
        else
        {
            fail(kExpected);
        }
        highest = std::max<int64_t>(highest, id);
    }
    if (in.bad())
    {
        throw std::runtime_error(fmt::format("--mobilityTrace={}: read error", path));
    }
    if (highest < 0)
    {
        throw std::runtime_error(fmt::format("--mobilityTrace={}: no $node_(i) line", path));
    }
    info.nodes = static_cast<uint32_t>(highest + 1);
    for (uint32_t i = 0; i < info.nodes; ++i)
    {
        auto it = initial.find(i);
        if (it == initial.end() || it->second != 3U)
        {
            throw std::runtime_error(fmt::format("--mobilityTrace={}: node {} of 0..{} has no "
                                                 "initial position (`$node_({}) set X_ x` and "
                                                 "`$node_({}) set Y_ y`)",
                                                 path,
                                                 i,
                                                 info.nodes - 1,
                                                 i,
                                                 i));
        }
    }
    return info;
}

void
D2dMobilityOptions::Install(NodeContainer devices,
                            double areaSideM,
                            double speedMps,
                            double heightM) const
{
    NS_LOG_FUNCTION(this << devices.GetN() << areaSideM << speedMps << heightM);
    if (model == "ns2")
    {
        // Each node gets a ConstantVelocityMobilityModel whose moves ns-3 schedules now (an
        // ns-2 trace's node i is the container's node i); their course changes are announced.
        Ns2MobilityHelper ns2(mobilityTrace);
        ns2.Install(devices.Begin(), devices.End());
        return;
    }
    MobilityHelper mobility;
    auto position = CreateObject<RandomRectanglePositionAllocator>();
    auto side = CreateObject<UniformRandomVariable>();
    side->SetAttribute("Min", DoubleValue(0.0));
    side->SetAttribute("Max", DoubleValue(areaSideM));
    position->SetX(side);
    position->SetY(side);
    position->SetZ(heightM);
    position->AssignStreams(0);
    mobility.SetPositionAllocator(position);
    if (model == "random-walk")
    {
        // RSS, P_D, delays and first-order distances follow the positions at send time.
        // d2dlearn's walk (the legs of ns-3's RandomWalk2dMobilityModel, reflections in
        // closed form): ns-3's never ended at 1e5 m/s (rebounds at 0 ns delays).
        mobility.SetMobilityModel(
            "ns3::D2dRandomWalkMobilityModel",
            "Bounds",
            RectangleValue(Rectangle(0, areaSideM, 0, areaSideM)),
            "Speed",
            StringValue(fmt::format("ns3::ConstantRandomVariable[Constant={}]", speedMps)));
    }
    else if (model == "random-waypoint")
    {
        // The waypoints: uniform in the square, from the model's own streams.
        auto waypoints = CreateObject<RandomRectanglePositionAllocator>();
        auto x = CreateObject<UniformRandomVariable>();
        x->SetAttribute("Min", DoubleValue(0.0));
        x->SetAttribute("Max", DoubleValue(areaSideM));
        auto y = CreateObject<UniformRandomVariable>();
        y->SetAttribute("Min", DoubleValue(0.0));
        y->SetAttribute("Max", DoubleValue(areaSideM));
        waypoints->SetX(x);
        waypoints->SetY(y);
        waypoints->SetZ(heightM);
        mobility.SetMobilityModel(
            "ns3::RandomWaypointMobilityModel",
            "Speed",
            StringValue(fmt::format("ns3::UniformRandomVariable[Min={}|Max={}]",
                                    waypointMinSpeedMps,
                                    waypointMaxSpeedMps)),
            "Pause",
            StringValue(fmt::format("ns3::ConstantRandomVariable[Constant={}]",
                                    D2dScenarioSupport::ToSeconds(waypointPause))),
            "PositionAllocator",
            PointerValue(waypoints));
    }
    else if (model == "gauss-markov")
    {
        // ns-3's model is 3-D: a box of height 0 and a pitch that stays 0 keep z = heightM.
        mobility.SetMobilityModel(
            "ns3::GaussMarkovMobilityModel",
            "Bounds",
            BoxValue(Box(0, areaSideM, 0, areaSideM, heightM, heightM)),
            "TimeStep",
            TimeValue(gaussMarkovTimeStep),
            "Alpha",
            DoubleValue(gaussMarkovAlpha),
            "MeanVelocity",
            StringValue(
                fmt::format("ns3::ConstantRandomVariable[Constant={}]", gaussMarkovMeanSpeedMps)),
            "MeanDirection",
            StringValue("ns3::UniformRandomVariable[Min=0|Max=6.283185307179586]"),
            "MeanPitch",
            StringValue("ns3::ConstantRandomVariable[Constant=0]"),
            "NormalPitch",
            StringValue("ns3::NormalRandomVariable[Mean=0|Variance=0]"));
    }
    else
    {
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    }
    mobility.Install(devices);
    mobility.AssignStreams(devices, FIRST_STREAM);
}

void
D2dMobilityOptions::StartTrace(D2dTraceHelper& traces,
                               NodeContainer devices,
                               Ptr<Node> server,
                               const std::string& rssFile) const
{
    NS_LOG_FUNCTION(this << devices.GetN() << server);
    if (!rssFile.empty())
    {
        return; // the matrix gives every link: the positions mean nothing
    }
    NodeContainer nodes(devices);
    if (server && server->GetObject<MobilityModel>())
    {
        nodes.Add(server); // node N, as the D2S rows of messages.csv name it
    }
    auto writer = Create<D2dPositionTraceWriter>(traces, POSITIONS_FILE);
    writer->Start(nodes, positionEvery);
}

} // namespace ns3
