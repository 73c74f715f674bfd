/*
 * d2dlearn-print-protocols: the protocol registry (D2dProtocolRegistry) as JSON, as ns-3's
 * utils/print-introspected-doxygen prints the TypeIds. The analysis package reads its output,
 * committed as analysis/d2dlearn_analysis/protocols.json; CTest (registry-protocols-json)
 * fails when the two differ.
 *
 *   build/bin/d2dlearn-print-protocols > analysis/d2dlearn_analysis/protocols.json
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/command-line.h"
#include "ns3/d2d-protocol-registry.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    CommandLine cmd(__FILE__);
    cmd.Usage("Print d2dlearn's protocols and aggregation rules (names, classes, presets, "
              "labels, programs, links and trace sources) as JSON on standard output.");
    cmd.Parse(argc, argv);
    D2dProtocolRegistry::PrintJson(std::cout);
    return std::cout.good() ? 0 : 1;
}
