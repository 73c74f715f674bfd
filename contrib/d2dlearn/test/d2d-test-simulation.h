/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TEST_SIMULATION_H
#define D2D_TEST_SIMULATION_H

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-message.h"
#include "ns3/d2d-radio.h"
#include "ns3/mobility-model.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"
#include "ns3/vector.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/*
 * Set-up and callbacks the simulator suites share, header-only: the torch-free (sanitized)
 * test runner uses them too, without the learning library d2d-test-fixtures.cc links.
 */

/** Calls Simulator::Destroy() when a DoRun returns, early returns included. */
struct DestroyAtExit
{
    bool resetConfig{false}; //!< also Config::Reset(): the defaults the case set

    ~DestroyAtExit()
    {
        Simulator::Destroy();
        if (resetConfig)
        {
            Config::Reset();
        }
    }
};

/**
 * \param positionsM each node's constant position, m
 * \return one node per position, each with a ConstantPositionMobilityModel there
 */
inline NodeContainer
MakeTestNodesAt(const std::vector<Vector>& positionsM)
{
    NodeContainer nodes;
    nodes.Create(static_cast<uint32_t>(positionsM.size()));
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto m = CreateObject<ConstantPositionMobilityModel>();
        m->SetPosition(positionsM[i]);
        nodes.Get(i)->AggregateObject(m);
    }
    return nodes;
}

/**
 * \param xsM each node's x coordinate on the x axis, m
 * \return one node per coordinate, at (x, 0, 0), with a ConstantPositionMobilityModel
 */
inline NodeContainer
MakeTestNodesAtX(const std::vector<double>& xsM)
{
    std::vector<Vector> positions;
    for (double x : xsM)
    {
        positions.emplace_back(x, 0.0, 0.0);
    }
    return MakeTestNodesAt(positions);
}

/**
 * Moves a node (for Simulator::Schedule).
 * \param node a node with a MobilityModel
 * \param positionM its new position, m
 */
inline void
MoveTestNode(Ptr<Node> node, Vector positionM)
{
    node->GetObject<MobilityModel>()->SetPosition(positionM);
}

/**
 * Appends a delivery record (a delivery trace sink, with MakeBoundCallback).
 * \param out the records so far
 * \param rec the new one
 */
inline void
RecordTestDelivery(std::vector<D2dDeliveryRecord>* out, const D2dDeliveryRecord& rec)
{
    out->push_back(rec);
}

/** Energy per (device, component), J: what AddTestEnergy() sums. */
using TestEnergyTable = std::map<std::pair<uint32_t, std::string>, double>;

/**
 * Adds one period's energy to a table (an EnergyEvent sink, with MakeBoundCallback; the
 * arguments after the table are D2dEnergyModel::EnergyEventTracedCallback's).
 * \param table the energy so far
 * \param node the device
 * \param component the component
 * \param energyJ the period's energy, J
 */
inline void
AddTestEnergy(TestEnergyTable* table,
              Time,
              uint32_t node,
              const std::string& component,
              double energyJ,
              double,
              Time,
              double)
{
    (*table)[{node, component}] += energyJ;
}

/**
 * \param table energy per (device, component), as AddTestEnergy() sums it
 * \param component a component
 * \return that component's energy summed over the devices, J
 */
inline double
SumTestEnergy(const TestEnergyTable& table, const std::string& component)
{
    double sum = 0;
    for (const auto& [key, joules] : table)
    {
        sum += key.second == component ? joules : 0.0;
    }
    return sum;
}

/**
 * Sends one unreliable message named "test" (for Simulator::Schedule).
 * \param radio the sender's radio
 * \param bytes its size, bytes
 * \param dst the receiver's device index
 * \param ids where its message id is appended, or nullptr
 */
inline void
SendTestMessage(Ptr<D2dRadio> radio, uint64_t bytes, uint32_t dst, std::vector<uint64_t>* ids)
{
    const uint64_t id =
        radio->Send(Create<D2dMessage>("test", bytes), dst, D2dDeliveryMode::UNRELIABLE);
    if (ids)
    {
        ids->push_back(id);
    }
}

/**
 * \brief A fresh, empty, uniquely named folder in the system's temporary directory.
 * \param name part of the folder's name ("d2d-<name>-XXXXXX")
 * \return its path
 */
inline std::string
TestTempDir(const std::string& name)
{
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("d2d-" + name + "-XXXXXX")).string();
    const char* dir = mkdtemp(pattern.data());
    NS_ABORT_MSG_IF(!dir, "mkdtemp " << pattern);
    return dir;
}

} // namespace ns3

#endif /* D2D_TEST_SIMULATION_H */
