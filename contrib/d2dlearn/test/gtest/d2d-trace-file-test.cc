/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dTraceFile: a failed write keeps its system error whatever
 * errno becomes after it (a full disk was reported as "Invalid argument" when a trace was
 * checked after LibTorch had set errno), on /dev/full (every write fails with ENOSPC); a
 * good file has no error; OpenNew refuses a name that is taken, with the reason.
 */

#include "ns3/d2d-trace-file.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using ns3::D2dTraceFile;

namespace
{

/** A fresh path in the temporary folder (not created). */
std::string
FreshPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() /
            ("d2d-trace-file-test-" + std::to_string(getpid()) + "-" + name))
        .string();
}

TEST(D2dTraceFileTest, FullDiskIsReportedAsFullWhateverErrnoIsLater)
{
    if (!std::filesystem::exists("/dev/full"))
    {
        GTEST_SKIP() << "no /dev/full on this system";
    }
    D2dTraceFile file;
    ASSERT_TRUE(file.OpenExisting("/dev/full"));
    const std::string row(64 * 1024, 'x'); // more than the buffer: written at once
    file << row;
    EXPECT_TRUE(file.fail());
    errno = EINVAL; // what a later library call may leave
    EXPECT_EQ(file.Error(), ENOSPC);
    EXPECT_EQ(file.ErrorText(), "No space left on device");
}

TEST(D2dTraceFileTest, FailedFlushAtCloseIsReportedAsFull)
{
    if (!std::filesystem::exists("/dev/full"))
    {
        GTEST_SKIP() << "no /dev/full on this system";
    }
    D2dTraceFile file;
    ASSERT_TRUE(file.OpenExisting("/dev/full"));
    file << "round,value\n1,0.5\n"; // buffered: the write happens at Close()
    EXPECT_FALSE(file.fail());
    EXPECT_EQ(file.Error(), 0);
    errno = EINVAL;
    file.Close();
    EXPECT_TRUE(file.fail());
    EXPECT_EQ(file.Error(), ENOSPC);
    file.Close(); // closed already: the first error stays
    EXPECT_EQ(file.Error(), ENOSPC);
}

TEST(D2dTraceFileTest, GoodFileHasNoErrorAndHoldsWhatWasWritten)
{
    const std::string path = FreshPath("good");
    std::vector<char> buffer(16);
    {
        D2dTraceFile file;
        file.OpenNew(path, buffer.data(), static_cast<std::streamsize>(buffer.size()));
        ASSERT_TRUE(file.IsOpen());
        file << "a,b\n" << 1 << ',' << 2.5 << '\n' << std::string(100, 'z') << '\n';
        file.Close();
        EXPECT_FALSE(file.fail());
        EXPECT_EQ(file.Error(), 0);
    }
    EXPECT_EQ(std::filesystem::file_size(path), 4u + 6u + 101u);
    std::remove(path.c_str());
}

TEST(D2dTraceFileTest, OpenNewRefusesATakenNameWithTheReason)
{
    const std::string path = FreshPath("taken");
    {
        D2dTraceFile first;
        first.OpenNew(path);
        first.Close();
    }
    D2dTraceFile second;
    try
    {
        second.OpenNew(path);
        ADD_FAILURE() << "a taken name was opened";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("File exists (something is in the way"),
                  std::string::npos)
            << e.what();
    }
    std::remove(path.c_str());
}

} // namespace
