/*
 * d2dlearn: runs the module's ns-3 TestSuites (Debian's ns-3 ships no test runner).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
