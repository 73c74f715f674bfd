/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of devices as they are (D2dDeviceProfileOptions): --computeSpread's
 * log-normal speed factors against the distribution's formulas (4 standard errors; the
 * 90th/10th percentile ratio exp(2 x 1.2816 sigma)), and the device-profile file: values by
 * device in any row order, and each kind of bad file refused in one line naming the line.
 * Torch-free. All draws are seeded, so a test that passes once passes always.
 */

#include "ns3/d2d-device-profile-options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/** ln(factor) is N(0, sigma^2): mean and standard deviation within 4 standard errors. */
TEST(D2dDeviceProfile, LogNormalFactorsHaveTheStatedShape)
{
    const uint32_t n = 200000;
    for (double sigma : {0.3, 0.9})
    {
        const auto f = D2dDeviceProfileOptions::LogNormalFactors(7, n, sigma);
        ASSERT_EQ(f.size(), n);
        double s = 0;
        double s2 = 0;
        for (double x : f)
        {
            ASSERT_GT(x, 0.0);
            s += std::log(x);
            s2 += std::log(x) * std::log(x);
        }
        const double mean = s / n;
        const double sd = std::sqrt(s2 / n - mean * mean);
        EXPECT_NEAR(mean, 0.0, 4 * sigma / std::sqrt(n)) << "sigma " << sigma;
        // The sample sd of a normal has standard error sigma / sqrt(2 n).
        EXPECT_NEAR(sd, sigma, 4 * sigma / std::sqrt(2.0 * n)) << "sigma " << sigma;
        // Quantiles: the 90th over the 10th percentile is exp(2 z_0.9 sigma), z_0.9 = 1.28155.
        std::vector<double> sorted = f;
        std::sort(sorted.begin(), sorted.end());
        const double ratio = sorted[n * 9 / 10] / sorted[n / 10];
        EXPECT_NEAR(std::log(ratio), 2 * 1.2815516 * sigma, 0.02) << "sigma " << sigma;
    }
}

/** The same seed gives the same factors; another seed others; sigma 0 gives 1. */
TEST(D2dDeviceProfile, LogNormalFactorsAreSeeded)
{
    EXPECT_EQ(D2dDeviceProfileOptions::LogNormalFactors(3, 50, 0.9),
              D2dDeviceProfileOptions::LogNormalFactors(3, 50, 0.9));
    EXPECT_NE(D2dDeviceProfileOptions::LogNormalFactors(3, 50, 0.9),
              D2dDeviceProfileOptions::LogNormalFactors(4, 50, 0.9));
    for (double x : D2dDeviceProfileOptions::LogNormalFactors(3, 50, 0.0))
    {
        EXPECT_EQ(x, 1.0);
    }
    // A device's factor does not depend on how many devices follow it.
    const auto ten = D2dDeviceProfileOptions::LogNormalFactors(3, 10, 0.9);
    const auto fifty = D2dDeviceProfileOptions::LogNormalFactors(3, 50, 0.9);
    EXPECT_TRUE(std::equal(ten.begin(), ten.end(), fifty.begin()));
}

/** A file in the test's temporary folder. */
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const std::string path = "/tmp/d2d-device-profile-test-" + std::to_string(getpid()) + name;
    std::ofstream(path) << text;
    return path;
}

/** Each device's values, whatever the row order; absent columns stay empty. */
TEST(D2dDeviceProfile, ReadsEachDevicesValues)
{
    const std::string path = WriteFile("ok.csv",
                                       "device, busy_power_w,flops_per_second\r\n"
                                       "2,0.5,3e9\r\n"
                                       "0,2,1e10\n"
                                       "\n"
                                       "1,1.25,4.5e9\n");
    const D2dDeviceProfile p = D2dDeviceProfileOptions::Read(path, 3);
    EXPECT_EQ(p.flopsPerSecond, (std::vector<double>{1e10, 4.5e9, 3e9}));
    EXPECT_EQ(p.busyPowerW, (std::vector<double>{2, 1.25, 0.5}));
    EXPECT_TRUE(p.initialEnergyJ.empty());
    std::remove(path.c_str());
}

/** Each bad file: one line naming the file, the line where it can, and what is wrong. */
TEST(D2dDeviceProfile, RefusesBadFilesInOneLine)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "empty"},
        {"device\n0\n1\n", "at least one of"},
        {"flops_per_second\n1e9\n1e9\n", "at least one of"},
        {"device,speed\n0,1\n1,1\n", "line 1: column 'speed'"},
        {"device,busy_power_w,busy_power_w\n0,1,1\n1,1,1\n", "line 1: column 'busy_power_w'"},
        {"device,flops_per_second\n0,1e9\n", "device 1 has none"},
        {"device,flops_per_second\n0,1e9\n0,2e9\n", "line 3: device 0 has a row already"},
        {"device,flops_per_second\n0,1e9\n2,1e9\n", "line 3: device '2' is not a device"},
        {"device,flops_per_second\n0,1e9\n1.5,1e9\n", "line 3: device '1.5'"},
        {"device,flops_per_second\n0,1e9\n1,0\n", "line 3: flops_per_second '0' is out of range"},
        {"device,flops_per_second\n0,1e9\n1,nan\n", "flops_per_second 'nan'"},
        {"device,initial_energy_j\n0,-1\n1,5\n", "line 2: initial_energy_j '-1'"},
        {"device,busy_power_w\n0,1\n1\n", "line 3: 1 fields, the header has 2"},
    };
    for (const auto& [text, words] : cases)
    {
        const std::string path = WriteFile("bad.csv", text);
        try
        {
            D2dDeviceProfileOptions::Read(path, 2);
            ADD_FAILURE() << "accepted: " << text;
        }
        catch (const std::runtime_error& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find("--deviceProfiles=" + path), std::string::npos) << what;
            EXPECT_NE(what.find(words), std::string::npos) << what << " (wanted: " << words << ")";
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
        std::remove(path.c_str());
    }
}

} // namespace
