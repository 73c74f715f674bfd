/*
 * d2dlearn benchmark helper: the library-load floor of a learning program.
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Links exactly what a scenario links (d2dlearn-learning, hence LibTorch and ns-3) and does
 * nothing: its run time is what the dynamic loader and the libraries' constructors cost
 * before main (bench-startup runs it).
 */
#include "ns3/d2d-torch-runtime.h"

int
main()
{
    // A reference into the learning library, so that no linker drops it.
    return ns3::D2dTorchRuntime::GetWorkers() == 123456 ? 1 : 0;
}
