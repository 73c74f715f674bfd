/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of the scenario programs' number handling, torch-free so that the
 * sanitized test binary runs them too:
 * - whole numbers in exponent notation (1e10, as the README writes ranges) are read
 *   exactly by integer flags, bound integer attributes and --ns3::Class::Attribute, and a
 *   number that is not whole or does not fit is refused with one line;
 * - a negative time (a flag's value before its range is checked) is converted to seconds
 *   without Time::GetSeconds(), which shifts a negative value left in ns-3 3.37's
 *   int64x64-128.h: undefined behaviour, which the sanitized build reports.
 */

#include "d2d-test-args.h"

#include "ns3/config.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-list-flag.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-stop-signals.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace ns3;

namespace
{
/** argv for Parse(): "support-test", then args. */
class Args : public D2dTestArgs
{
  public:
    explicit Args(std::vector<std::string> args)
        : D2dTestArgs("support-test", std::move(args))
    {
    }
};

/** Every test starts from the classes' own defaults. */
class D2dScenarioSupportTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Config::Reset();
    }
};

/** \return the decimal digits WholeNumber gives for text, or "refused" */
std::string
Whole(const std::string& text)
{
    std::string decimal;
    return D2dScenarioSupport::WholeNumber(text, &decimal) ? decimal : "refused";
}

TEST_F(D2dScenarioSupportTest, WholeNumbersInExponentNotation)
{
    // Digits, signs and leading zeros.
    EXPECT_EQ(Whole("0"), "0");
    EXPECT_EQ(Whole("+17"), "17");
    EXPECT_EQ(Whole("-17"), "-17");
    EXPECT_EQ(Whole("007"), "7");
    EXPECT_EQ(Whole("-0"), "0");
    // Exponent notation, by hand: digits x 10^(exponent - fraction digits).
    EXPECT_EQ(Whole("1e10"), "10000000000");
    EXPECT_EQ(Whole("1E3"), "1000");
    EXPECT_EQ(Whole("1e+3"), "1000");
    EXPECT_EQ(Whole("2.5e3"), "2500");
    EXPECT_EQ(Whole("-2.5e3"), "-2500");
    EXPECT_EQ(Whole(".5e1"), "5");
    EXPECT_EQ(Whole("0.25e2"), "25");
    EXPECT_EQ(Whole("1200e-2"), "12");
    EXPECT_EQ(Whole("1.0e0"), "1");
    EXPECT_EQ(Whole("5.e1"), "50");
    EXPECT_EQ(Whole("0e-7"), "0");
    EXPECT_EQ(Whole("1.8446744073709551615e19"), "18446744073709551615"); // 2^64 - 1
    // Not whole, not a number, or beyond every integer type.
    for (const char* bad : {"1.5",       "12.",  "1.5e0", "1e-1", "1250e-2", "",      "+",  "-",
                            "e5",        ".e1",  "1e",    "1e+",  "0x10",    "1,000", " 1", "1 ",
                            "1e1000000", "1e41", "inf",   "nan",  "1e3.0",   "--1"})
    {
        EXPECT_EQ(Whole(bad), "refused") << "'" << bad << "'";
    }
    EXPECT_EQ(Whole("1e39"), "1" + std::string(39, '0'));
}

/** Parse args with a flag table made by declare; the process exits on bad input. */
template <typename Declare>
void
ParseOrExit(const std::vector<std::string>& a, Declare declare)
{
    D2dScenarioSupport support("support-test");
    D2dScenarioFlags flags(support);
    declare(flags);
    Args args(a);
    flags.Parse(args.Argc(), args.Argv());
    std::exit(0);
}

// Integer flags used to refuse 1e10 although the README writes ranges that way; ns-3's
// own parsing would read "1e3" as 1 (and abort on the rest for an attribute).
TEST_F(D2dScenarioSupportTest, IntegerFlagsAcceptExponentNotation)
{
    D2dScenarioSupport support("support-test");
    D2dScenarioFlags flags(support);
    uint32_t n = 7;
    int64_t k = 0;
    uint64_t big = 0;
    flags.Add("n", "a count", n).Range(1, 1e6);
    flags.Add("k", "a signed count", k);
    flags.Add("big", "a large count", big);
    flags.Bind("mtu", "ns3::D2dChannel::MtuBytes");
    Args args({"--n=2.5e3",
               "--k=-3e2",
               "--big=1e19",
               "--mtu=1.2e3",
               "--ns3::D2dChannel::FragmentHeaderBytes=4e1"});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_EQ(n, 2500u);
    EXPECT_EQ(k, -300);
    EXPECT_EQ(big, 10000000000000000000ULL);
    EXPECT_EQ(flags.Get<UintegerValue>("mtu"), 1200u);
    auto channel = CreateObject<D2dChannel>();
    UintegerValue mtu;
    UintegerValue header;
    channel->GetAttribute("MtuBytes", mtu);
    channel->GetAttribute("FragmentHeaderBytes", header);
    EXPECT_EQ(mtu.Get(), 1200u);
    EXPECT_EQ(header.Get(), 40u);
}

TEST_F(D2dScenarioSupportTest, IntegerFlagsRefuseWhatIsNotAWholeNumberInRange)
{
    uint32_t n = 7;
    auto declare = [&n](D2dScenarioFlags& f) {
        f.Add("n", "a count", n).Range(1, 1e6);
    };
    EXPECT_EXIT(ParseOrExit({"--n=1e6"}, declare), ::testing::ExitedWithCode(0), "");
    EXPECT_EXIT(ParseOrExit({"--n=1.5"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --n=1.5 is not accepted \\(accepted: 1 to 1e\\+06\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--n=2.5e0"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --n=2.5e0 is not accepted \\(accepted: 1 to 1e\\+06\\)\n$");
    // A whole number of the type, outside the range; then beyond uint32_t.
    EXPECT_EXIT(ParseOrExit({"--n=1.1e6"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --n=1.1e6 is out of range \\(accepted: 1 to 1e\\+06\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--n=1e10"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --n=1e10 is not accepted \\(accepted: 1 to 1e\\+06\\)\n$");
}

// Each case holds a few death tests (a fork each, slow with LibTorch loaded).
TEST_F(D2dScenarioSupportTest, BoundIntegerAttributesRefuseWhatIsNotAWholeNumberInRange)
{
    auto declare = [](D2dScenarioFlags& f) {
        f.Bind("mtu", "ns3::D2dChannel::MtuBytes");
    };
    // A bound attribute: its checker decides (MtuBytes: at least 1, uint32_t).
    EXPECT_EXIT(ParseOrExit({"--mtu=0e3"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --mtu=0e3 is out of range \\(accepted: at least 1\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--mtu=1e10"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --mtu=1e10 is out of range \\(accepted: at least 1\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--mtu=1.255e2"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --mtu=1.255e2 is not accepted");
    EXPECT_EXIT(ParseOrExit({"--ns3::D2dChannel::FragmentHeaderBytes=1e-1"}, declare),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --ns3::D2dChannel::FragmentHeaderBytes=1e-1 is not "
                "accepted");
}

// Time::GetSeconds() of a negative time shifts a negative int128 left (ns-3 3.37,
// int64x64-128.h): UBSan's "left shift of negative value". ToSeconds takes the magnitude.
TEST_F(D2dScenarioSupportTest, NegativeTimesInSeconds)
{
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::ToSeconds(Seconds(2.5)), 2.5);
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::ToSeconds(Seconds(-1.5)), -1.5);
    // One step (1 ns): the mirror image of +1 ns (ns-3 converts 1 ns to 9.9999999996e-10 s).
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::ToSeconds(Time(-1)), -Time(1).GetSeconds());
    EXPECT_NEAR(D2dScenarioSupport::ToSeconds(Time(-1)), -1e-9, 1e-18);
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::ToSeconds(Time(0)), 0.0);
    // The most negative time: Abs() of it would overflow; -(2^63 - 1) ns instead.
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::ToSeconds(Time(std::numeric_limits<int64_t>::min())),
                     -9223372036.854775807);
    // The flags' range check and message go through it (--roundDeadline=-1s, as in fedavg
    // and cmfl).
    Time t = Seconds(1);
    EXPECT_EXIT(ParseOrExit({"--t=-1s"},
                            [&t](D2dScenarioFlags& f) { f.Add("t", "a time", t).Positive(100); }),
                ::testing::ExitedWithCode(2),
                "^support-test: error: --t=-1s is out of range \\(accepted: more than 0 s, at "
                "most 100 s\\)\n$");
    EXPECT_EXIT(
        ParseOrExit({"--ns3::D2dChannel::FragmentHeaderBytes=-1e3"}, [](D2dScenarioFlags&) {}),
        ::testing::ExitedWithCode(2),
        "FragmentHeaderBytes=-1e3 is not accepted");
}

} // namespace

TEST(D2dScenarioSupportNearestName, NamesTheFlagAMisspellingIsNearest)
{
    std::vector<D2dScenarioSupport::Param> params(4);
    params[0].name = "nDevices";
    params[1].name = "rounds";
    params[2].name = "dropProbability";
    params[3].name = "d2sDropProbability";
    // Case only (distance 0 once lowered), one letter dropped, two swapped letters.
    EXPECT_EQ(D2dScenarioSupport::NearestName("ndevices", params), "nDevices");
    EXPECT_EQ(D2dScenarioSupport::NearestName("round", params), "rounds");
    EXPECT_EQ(D2dScenarioSupport::NearestName("dropProbabilty", params), "dropProbability");
    EXPECT_EQ(D2dScenarioSupport::NearestName("d2sDropProb", params), "");
    // Nothing near: no suggestion (distance 3 > max(2, 6 / 4)).
    EXPECT_EQ(D2dScenarioSupport::NearestName("seed", params), "");
    EXPECT_EQ(D2dScenarioSupport::NearestName("xyz", params), "");
}

// The one reader of list flags: commas, spaces or both separate the items.
TEST(D2dListFlagTest, CommasSpacesOrBoth)
{
    const std::vector<std::string> want{"0.7", "0.2", "0.1"};
    EXPECT_EQ(D2dListFlag::Split("0.7,0.2,0.1"), want);
    EXPECT_EQ(D2dListFlag::Split("0.7, 0.2, 0.1"), want);
    EXPECT_EQ(D2dListFlag::Split("0.7 0.2 0.1"), want);
    EXPECT_EQ(D2dListFlag::Split(" 0.7 ,0.2\t 0.1 "), want);
    EXPECT_TRUE(D2dListFlag::Split("").empty());
    EXPECT_TRUE(D2dListFlag::Split("  ").empty());
    // Nothing between two commas, or before or after one: an empty item, not skipped.
    EXPECT_EQ(D2dListFlag::Split("1,,2"), (std::vector<std::string>{"1", "", "2"}));
    EXPECT_EQ(D2dListFlag::Split("1, ,2"), (std::vector<std::string>{"1", "", "2"}));
    EXPECT_EQ(D2dListFlag::Split("1,"), (std::vector<std::string>{"1", ""}));
    EXPECT_EQ(D2dListFlag::Split(",1"), (std::vector<std::string>{"", "1"}));
}

TEST(D2dListFlagTest, RealsAndWholeNumbersNameTheBadItem)
{
    EXPECT_EQ(D2dListFlag::Reals("1e-3, 2 0.5"), (std::vector<double>{1e-3, 2.0, 0.5}));
    EXPECT_TRUE(D2dListFlag::Reals("").empty());
    auto badReal = [](const std::string& text) {
        try
        {
            D2dListFlag::Reals(text);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(badReal("1,,2"), "");
    EXPECT_EQ(badReal("0.5 inf"), "inf");
    EXPECT_EQ(badReal("nan"), "nan");
    EXPECT_EQ(badReal("1x,2"), "1x");
    EXPECT_EQ(D2dListFlag::Whole("0 3,5", 5), (std::vector<uint64_t>{0, 3, 5}));
    auto badWhole = [](const std::string& text, uint64_t max) {
        try
        {
            D2dListFlag::Whole(text, max);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(badWhole("1,6", 5), "6");
    EXPECT_EQ(badWhole("-1", 5), "-1");
    EXPECT_EQ(badWhole("+1", 5), "+1");
    EXPECT_EQ(badWhole("1.0", 5), "1.0");
    EXPECT_EQ(badWhole("99999999999999999999", UINT64_MAX), "99999999999999999999");
}

// An exception nothing catches ends a program that made a D2dScenarioSupport in one line and
// exit status 2 (D2dStopSignals' terminate handler), not "terminate called ..." and SIGABRT;
// a registered temporary file is deleted. A bad_alloc says it is memory.
TEST(D2dUncaughtExceptionTest, OneLineAndExitTwo)
{
    const std::string tmp = ::testing::TempDir() + "d2d-uncaught.tmp";
    auto uncaught = [&tmp](bool memory) {
        D2dScenarioSupport support("support-test");
        std::FILE* f = std::fopen(tmp.c_str(), "w");
        std::fclose(f);
        D2dStopSignals::AddFile(tmp);
        // Thrown on a thread of its own: nothing catches it there (gtest does on this one).
        std::thread([memory] {
            if (memory)
            {
                throw std::bad_alloc();
            }
            throw std::runtime_error("outDir: cannot create '.rounds.csv.1.tmp'");
        }).join();
    };
    EXPECT_EXIT(uncaught(false),
                ::testing::ExitedWithCode(2),
                "^[^\n]*: error: outDir: cannot create '.rounds.csv.1.tmp'\n$");
    EXPECT_EXIT(uncaught(true), ::testing::ExitedWithCode(2), "error: out of memory");
    std::FILE* left = std::fopen(tmp.c_str(), "r");
    EXPECT_EQ(left, nullptr) << "the temporary file was left";
    if (left)
    {
        std::fclose(left);
    }
}

// The progress lines' estimate of the time left: the pace so far times the work to go.
TEST(D2dProgressTest, WallSecondsLeftIsThePaceTimesTheWorkToGo)
{
    // 5 of 20 rounds in 10 s: 2 s a round, 15 to go: 30 s.
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::WallSecondsLeft(5, 20, 10), 30.0);
    // 2.5 of 10 simulated seconds in 4 s of wall time: 12 s left.
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::WallSecondsLeft(2.5, 10, 4), 12.0);
    EXPECT_DOUBLE_EQ(D2dScenarioSupport::WallSecondsLeft(20, 20, 40), 0.0);
    // Nothing done yet, or inconsistent input: no estimate.
    EXPECT_TRUE(std::isnan(D2dScenarioSupport::WallSecondsLeft(0, 20, 10)));
    EXPECT_TRUE(std::isnan(D2dScenarioSupport::WallSecondsLeft(21, 20, 10)));
    EXPECT_TRUE(std::isnan(D2dScenarioSupport::WallSecondsLeft(1, 20, -1)));
}
