/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of devices that come and go: D2dAvailabilityModel's counter-based draws
 * (uniform in (0, 1), the same for the same (seed, device, k), independent across them),
 * its exponential periods against the distribution's mean (4 standard errors) and its
 * stationary start (a device available with probability T_on / (T_on + T_off)); and
 * D2dAvailabilityOptions::Read, the availability file: intervals by device, sorted, and each
 * kind of bad file refused in one line naming the file. Torch-free; all draws are seeded.
 */

#include "ns3/d2d-availability-model.h"
#include "ns3/d2d-availability-options.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

TEST(D2dAvailability, UniformDrawsAreOpenDeterministicAndDistinct)
{
    const double u = D2dAvailabilityModel::Uniform(1, 0, 0);
    EXPECT_EQ(u, D2dAvailabilityModel::Uniform(1, 0, 0));
    EXPECT_NE(u, D2dAvailabilityModel::Uniform(2, 0, 0));
    EXPECT_NE(u, D2dAvailabilityModel::Uniform(1, 1, 0));
    EXPECT_NE(u, D2dAvailabilityModel::Uniform(1, 0, 1));
    for (uint64_t k = 0; k < 100000; ++k)
    {
        const double x = D2dAvailabilityModel::Uniform(7, static_cast<uint32_t>(k % 13), k);
        ASSERT_GT(x, 0.0);
        ASSERT_LT(x, 1.0);
    }
}

/** -mean ln(U): mean `mean` and standard deviation `mean`; the sample mean within 4 SE. */
TEST(D2dAvailability, ExponentialPeriodsHaveTheStatedMean)
{
    EXPECT_DOUBLE_EQ(D2dAvailabilityModel::Exponential(10.0, std::exp(-1.0)), 10.0);
    const uint32_t n = 200000;
    const double mean = 20.0;
    double s = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        s += D2dAvailabilityModel::Exponential(mean, D2dAvailabilityModel::Uniform(3, i % 1000, i));
    }
    const double se = mean / std::sqrt(static_cast<double>(n));
    EXPECT_NEAR(s / n, mean, 4 * se);
}

/** The stationary start: available at 0 with probability on / (on + off) = 2/3 (4 SE). */
TEST(D2dAvailability, StationaryStartShare)
{
    const uint32_t n = 200000;
    uint32_t on = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        on += D2dAvailabilityModel::Uniform(1, i, 0) < 20.0 / 30.0 ? 1 : 0;
    }
    const double p = 2.0 / 3.0;
    EXPECT_NEAR(static_cast<double>(on) / n, p, 4 * std::sqrt(p * (1 - p) / n));
}

/** \return a temporary file holding text */
std::string
TempFile(const std::string& text)
{
    char name[] = "/tmp/d2d-availability-XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    std::ofstream(name) << text;
    return name;
}

TEST(D2dAvailability, FileIntervalsByDeviceSorted)
{
    const std::string path = TempFile("device,start_s,end_s\n2,5,6\n0,0,1.5\n2,1,2\n");
    const auto intervals = D2dAvailabilityOptions::Read(path, 3);
    std::remove(path.c_str());
    ASSERT_EQ(intervals.size(), 3u);
    ASSERT_EQ(intervals[0].size(), 1u);
    EXPECT_EQ(intervals[0][0].second, Seconds(1.5));
    EXPECT_TRUE(intervals[1].empty()); // no row: always available
    ASSERT_EQ(intervals[2].size(), 2u);
    EXPECT_EQ(intervals[2][0].first, Seconds(1));
    EXPECT_EQ(intervals[2][1].first, Seconds(5));
}

TEST(D2dAvailability, BadFilesRefusedInOneLine)
{
    const std::pair<const char*, const char*> cases[] = {
        {"device,start,end\n0,0,1\n", "header"},
        {"device,start_s,end_s\n3,0,1\n", "device '3'"},
        {"device,start_s,end_s\n0,2,1\n", "out of range"},
        {"device,start_s,end_s\n0,-1,1\n", "out of range"},
        {"device,start_s,end_s\n0,0,nan\n", "out of range"},
        {"device,start_s,end_s\n0,0,1,2\n", "4 fields"},
        {"device,start_s,end_s\n1,0,5\n1,4,8\n", "overlap"}};
    for (const auto& [text, words] : cases)
    {
        const std::string path = TempFile(text);
        try
        {
            D2dAvailabilityOptions::Read(path, 3);
            ADD_FAILURE() << "accepted: " << text;
        }
        catch (const std::runtime_error& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find(words), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
            EXPECT_NE(what.find("--availabilityFile="), std::string::npos) << what;
        }
        std::remove(path.c_str());
    }
}

} // namespace
