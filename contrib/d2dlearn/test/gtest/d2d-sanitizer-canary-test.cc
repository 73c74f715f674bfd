/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Canaries of the sanitized test binary (d2dlearn-gtest-sanitized): each disabled
 * case commits the error one sanitizer must report, and the CTest tests sanitize-canary-*
 * run it alone and pass only on that report. A clean sanitized run means something only if
 * these fail loudly. Never run in the normal test run (disabled, and only in that binary).
 */

#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/** Keeps the compiler from removing the accesses and allocations below. */
volatile int g_sink = 0;
int* volatile g_pointer = nullptr;

// AddressSanitizer: one element past the end of a heap array.
TEST(D2dSanitizerCanaryTest, DISABLED_HeapOverflow)
{
    int* a = new int[4];
    g_pointer = a;
    g_sink = g_pointer[4];
    delete[] a;
}

// UndefinedBehaviorSanitizer: ns-3 3.37's Time::GetSeconds() of a negative time, the
// defect the scenarios' ToSeconds avoids, in its own words.
TEST(D2dSanitizerCanaryTest, DISABLED_NegativeLeftShift)
{
    volatile int64_t steps = -1;
    g_sink = static_cast<int>(Time(static_cast<int64_t>(steps)).GetSeconds() * 1e9);
}

// LeakSanitizer: a block nothing points to at exit.
TEST(D2dSanitizerCanaryTest, DISABLED_Leak)
{
    g_pointer = new int[4];
    g_pointer[0] = 1;
    g_pointer = nullptr;
}
} // namespace
