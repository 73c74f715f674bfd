/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dMemoryBudget, torch-free: the estimate is
 * the terms' sum plus the program, the largest size that fits is found exactly (checked
 * against a linear search), the refusal is one line with the size, the estimate, the largest
 * term and the largest size that fits, and D2DLEARN_MEMORY_MB caps the memory available
 * (a value that is not a size is refused).
 */

#include "ns3/d2d-memory-budget.h"

#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{
/** 100 bytes per pair and 1 kB per device. */
D2dMemoryBudget
Quadratic()
{
    return D2dMemoryBudget([](uint64_t n) {
        return D2dMemoryBudget::Terms{{"pairwise state", 100.0 * n * n}, {"devices", 1e3 * n}};
    });
}
} // namespace

TEST(D2dMemoryBudget, BytesAreTheTermsPlusTheProgram)
{
    // 1,000 devices: 1e8 + 1e6 bytes of terms.
    EXPECT_DOUBLE_EQ(Quadratic().Bytes(1000), D2dMemoryBudget::ProgramBytes + 1e8 + 1e6);
}

TEST(D2dMemoryBudget, MaxDevicesIsTheLargestThatFits)
{
    const auto budget = Quadratic();
    // 1 GB: 100 n^2 + 1e3 n <= 1e9 - 2.5e8 gives n <= 2,733 (2,733: 7.497e8; 2,734: 7.502e8).
    const double available = 1e9;
    uint64_t linear = 0;
    for (uint64_t n = 1; n <= 5000; ++n)
    {
        if (budget.Bytes(n) <= available)
        {
            linear = n;
        }
    }
    EXPECT_EQ(linear, 2733u);
    EXPECT_EQ(budget.MaxDevices(available, 1000000), linear);
    EXPECT_EQ(budget.MaxDevices(available, 100), 100u) << "everything up to the bound fits";
    EXPECT_EQ(budget.MaxDevices(1e6, 1000), 0u) << "not even the program fits";
}

TEST(D2dMemoryBudget, RefusalIsOneLineWithEstimateTermsAndLargestSize)
{
    const auto budget = Quadratic();
    EXPECT_EQ(budget.Refusal("toy", 2733, 1e9), "") << "a size that fits is accepted";
    const std::string r = budget.Refusal("toy", 10000, 1e9);
    // 100 * 1e8 + 1e7 + 2.5e8 = 1.026e10 bytes.
    EXPECT_EQ(r,
              "--nDevices=10000: toy holds about 10.3 GB for 10000 devices (pairwise state "
              "10 GB), more than the 1 GB available (accepted here: at most 2733 devices)");
    EXPECT_EQ(r.find('\n'), std::string::npos);
}

TEST(D2dMemoryBudget, EnvironmentCapsTheMemoryAvailable)
{
    ASSERT_EQ(setenv("D2DLEARN_MEMORY_MB", "123", 1), 0);
    EXPECT_LE(D2dMemoryBudget::AvailableBytes(), 123e6);
    EXPECT_GT(D2dMemoryBudget::AvailableBytes(), 0);
    for (const char* bad : {"", "abc", "-5", "0", "12MB", "nan"})
    {
        ASSERT_EQ(setenv("D2DLEARN_MEMORY_MB", bad, 1), 0);
        EXPECT_THROW(D2dMemoryBudget::AvailableBytes(), std::invalid_argument) << bad;
    }
    unsetenv("D2DLEARN_MEMORY_MB");
    EXPECT_GT(D2dMemoryBudget::AvailableBytes(), 123e6) << "this machine has more than 123 MB";
}
