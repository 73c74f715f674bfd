/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dScenarioFlags, the table in which a scenario declares each
 * flag once: a flag bound to an attribute sets the class's default (also for an object that
 * an --ns3::Class::Attribute argument makes while the arguments are parsed), takes its range
 * from the attribute's checker (narrowed by Range()), and is refused with one line naming
 * it; a flag with a variable is checked by its Range()/Choices() or by the checker of the
 * attribute it Sets(); run.json gets each value once, times as name_s.
 */

#include "d2d-test-args.h"

#include "ns3/config.h"
#include "ns3/d2d-channel.h"
#include "ns3/d2d-cmfl.h"
#include "ns3/d2d-fed-avg.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/d2d-trimmed-mean-aggregation.h"
#include "ns3/d2d-type-choices.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/** argv for Parse(): "flags-test", then args. */
class Args : public D2dTestArgs
{
  public:
    explicit Args(std::vector<std::string> args)
        : D2dTestArgs("flags-test", std::move(args))
    {
    }
};

/** Every test starts from the classes' own defaults. */
class D2dScenarioFlagsTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Config::Reset();
    }
};

TEST_F(D2dScenarioFlagsTest, BoundFlagSetsTheClassDefault)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    flags.Bind("spectralEfficiency", "ns3::D2dChannel::SpectralEfficiency");
    Args args({"--spectralEfficiency=4.5"});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_TRUE(flags.Given("spectralEfficiency"));
    EXPECT_DOUBLE_EQ(flags.Get<DoubleValue>("spectralEfficiency"), 4.5);
    DoubleValue r;
    CreateObject<D2dChannel>()->GetAttribute("SpectralEfficiency", r);
    EXPECT_DOUBLE_EQ(r.Get(), 4.5);
}

TEST_F(D2dScenarioFlagsTest, ProgramDefaultAppliesWhenNotGiven)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    flags.Bind("roundDeadline", "ns3::D2dFlProtocol::RoundDeadline").Default("120s");
    Args args({});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_FALSE(flags.Given("roundDeadline"));
    TimeValue deadline;
    CreateObject<D2dFedAvg>()->GetAttribute("RoundDeadline", deadline);
    EXPECT_EQ(deadline.Get(), Seconds(120));
}

TEST_F(D2dScenarioFlagsTest, AlsoSetsTheSecondAttribute)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    flags.Bind("globalLearningRate", "ns3::D2dFedAvg::GlobalLearningRate")
        .Also("ns3::D2dFedAvg::ProximalMu"); // any double attribute: the value goes to both
    Args args({"--globalLearningRate=0.25"});
    flags.Parse(args.Argc(), args.Argv());
    auto fl = CreateObject<D2dFedAvg>();
    DoubleValue eta;
    DoubleValue mu;
    fl->GetAttribute("GlobalLearningRate", eta);
    fl->GetAttribute("ProximalMu", mu);
    EXPECT_DOUBLE_EQ(eta.Get(), 0.25);
    EXPECT_DOUBLE_EQ(mu.Get(), 0.25);
}

// --ns3::D2dFedAvg::Aggregation=ns3::D2dTrimmedMeanAggregation makes the strategy while
// CommandLine parses; the bound --trimFraction, later on the line, must reach it anyway.
TEST_F(D2dScenarioFlagsTest, BoundValueReachesObjectsMadeWhileParsing)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    flags.Bind("trimFraction", "ns3::D2dTrimmedMeanAggregation::TrimFraction");
    Args args(
        {"--ns3::D2dFedAvg::Aggregation=ns3::D2dTrimmedMeanAggregation", "--trimFraction=0.2"});
    flags.Parse(args.Argc(), args.Argv());
    PointerValue strategy;
    CreateObject<D2dFedAvg>()->GetAttribute("Aggregation", strategy);
    auto trimmed = strategy.Get<D2dTrimmedMeanAggregation>();
    ASSERT_TRUE(trimmed);
    DoubleValue beta;
    trimmed->GetAttribute("TrimFraction", beta);
    EXPECT_DOUBLE_EQ(beta.Get(), 0.2);
}

TEST_F(D2dScenarioFlagsTest, VariableFlagsAndGiven)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    uint32_t n = 7;
    std::string mode = "a";
    Time t = Seconds(1);
    flags.Add("n", "a count", n).Range(1, 10);
    flags.Add("mode", "a choice", mode).Choices({"a", "b"});
    flags.Add("t", "a time", t).Positive(100);
    Args args({"--n=3", "--t=250ms"});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(mode, "a");
    EXPECT_EQ(t, MilliSeconds(250));
    EXPECT_TRUE(flags.Given("n"));
    EXPECT_FALSE(flags.Given("mode"));
}

// ns-3 3.37's CommandLine reads a text with operator>>, which stops at the first space:
// --outDir="a b" used to give "a". The whole value is kept, spaces, quotes, tabs and all;
// the last occurrence wins; an untouched flag keeps its default.
TEST_F(D2dScenarioFlagsTest, TextFlagsKeepTheirWholeValue)
{
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    std::string outDir = "results";
    std::string rssFile = "";
    std::string dataDir = "default dir";
    std::string wFile = "w.csv";
    flags.Add("outDir", "a folder", outDir);
    flags.Add("rssFile", "a file", rssFile);
    flags.Add("dataDir", "a folder", dataDir);
    flags.Add("wFile", "a file", wFile);
    Args args({"--outDir=first",
               "--outDir=my runs/a b",
               "--rssFile= lead \"q\" 'x'\ttab ",
               "--wFile=x=y z"});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_EQ(outDir, "my runs/a b");
    EXPECT_EQ(rssFile, " lead \"q\" 'x'\ttab ");
    EXPECT_EQ(wFile, "x=y z");
    EXPECT_EQ(dataDir, "default dir");
}

/**
 * The last word of a death test's child: what it wrote is flushed and it exits with its
 * status, skipping the teardown of what the test program loaded (LibTorch's static objects
 * take about half a second to destroy in the child's copy-on-write pages, per EXPECT_EXIT).
 * The programs' own exit, teardown included, is tested by the process-level tests.
 */
void
ExitWithoutTeardown(int status, void*)
{
    std::fflush(nullptr);
    std::_Exit(status);
}

/** Parse args with a flag table made by declare; the process exits on bad input. */
template <typename Declare>
void
ParseOrExit(const std::vector<std::string>& a, Declare declare)
{
    // Registered last, run first by exit() (the flags' std::exit and the one below).
    on_exit(&ExitWithoutTeardown, nullptr);
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    declare(flags);
    Args args(a);
    flags.Parse(args.Argc(), args.Argv());
    std::exit(0);
}

// The bound range is the checker's (SpectralEfficiency: 1e-9 to 64) narrowed by Range().
TEST_F(D2dScenarioFlagsTest, BoundRangeFromTheCheckerInOneLine)
{
    auto bind = [](D2dScenarioFlags& f) {
        f.Bind("spectralEfficiency", "ns3::D2dChannel::SpectralEfficiency");
    };
    EXPECT_EXIT(ParseOrExit({"--spectralEfficiency=65"}, bind),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --spectralEfficiency=65 is out of range \\(accepted: "
                "1e-09 to 64\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--spectralEfficiency=64"}, bind), ::testing::ExitedWithCode(0), "");
    auto narrowed = [](D2dScenarioFlags& f) {
        f.Bind("spectralEfficiency", "ns3::D2dChannel::SpectralEfficiency").Range(0.5, 8);
    };
    EXPECT_EXIT(ParseOrExit({"--spectralEfficiency=9"}, narrowed),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --spectralEfficiency=9 is out of range \\(accepted: 0.5 "
                "to 8\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--spectralEfficiency=x"}, narrowed),
                ::testing::ExitedWithCode(2),
                "--spectralEfficiency=x is not accepted \\(accepted: 0.5 to 8\\)");
    // An exclusive bound of the checker (TrimFraction < 0.5) is said so.
    EXPECT_EXIT(ParseOrExit({"--trimFraction=0.5"},
                            [](D2dScenarioFlags& f) {
                                f.Bind("trimFraction",
                                       "ns3::D2dTrimmedMeanAggregation::TrimFraction");
                            }),
                ::testing::ExitedWithCode(2),
                "accepted: at least 0, below 0.5\\)");
}

// The shares' former percent names: one table (RenamedShare), refused in one line that
// names the new one and the value as a share.
TEST_F(D2dScenarioFlagsTest, FormerPercentNamesRefusedWithTheNewOne)
{
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("committeePercent"), "committeeFraction");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("maliciousPercent"), "maliciousFraction");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("ns3::D2dKrumAggregation::ByzantinePercent"),
              "ns3::D2dKrumAggregation::ByzantineFraction");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("ns3::D2dCmfl::ActivationPercent"),
              "ns3::D2dCmfl::ActivationFraction");
    // A flag is not an attribute, nor the reverse; the new names are not renamed.
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("CommitteePercent"), "");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("ns3::D2dCmfl::committeePercent"), "");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("committeeFraction"), "");
    EXPECT_EQ(D2dScenarioSupport::RenamedShare("clientFraction"), "");
    auto bind = [](D2dScenarioFlags& f) {
        f.Bind("trimFraction", "ns3::D2dTrimmedMeanAggregation::TrimFraction");
    };
    EXPECT_EXIT(ParseOrExit({"--trimPercent=20"}, bind),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --trimPercent: renamed; use --trimFraction, a share in "
                "\\[0, 1\\] \\(20 percent is 0.2\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--trimPercent=many"}, bind),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --trimPercent: renamed; use --trimFraction, a share in "
                "\\[0, 1\\] \\(30 percent is 0.3\\)\n$");
    EXPECT_EXIT(ParseOrExit({"--ns3::D2dCmfl::CommitteePercent=40"}, bind),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --ns3::D2dCmfl::CommitteePercent: renamed; use "
                "--ns3::D2dCmfl::CommitteeFraction, a share in \\[0, 1\\] \\(40 percent is "
                "0.4\\)\n$");
    // A program without the new flag: an unknown parameter.
    EXPECT_EXIT(ParseOrExit({"--committeePercent=40"}, bind),
                ::testing::ExitedWithCode(2),
                "unknown parameter --committeePercent");
}

TEST_F(D2dScenarioFlagsTest, VariableChecksAndAttributeConflicts)
{
    uint32_t rounds = 5;
    std::string optimizer = "sgd";
    auto declare = [&rounds, &optimizer](D2dScenarioFlags& f) {
        f.Add("rounds", "rounds", rounds).Sets("ns3::D2dFlProtocol::Rounds").Range(1, 1e6);
        f.Add("optimizer", "optimizer", optimizer).Sets("ns3::D2dLearner::Optimizer");
    };
    EXPECT_EXIT(ParseOrExit({"--rounds=0"}, declare),
                ::testing::ExitedWithCode(2),
                "^flags-test: error: --rounds=0 is out of range \\(accepted: 1 to 1e\\+06\\)\n$");
    // No Range(): the checker of the attribute it sets decides (an EnumValue's names).
    EXPECT_EXIT(ParseOrExit({"--optimizer=Adam"}, declare),
                ::testing::ExitedWithCode(2),
                "--optimizer=Adam is not accepted \\(accepted: sgd or adam\\)");
    EXPECT_EXIT(ParseOrExit({"--optimizer=adam"}, declare), ::testing::ExitedWithCode(0), "");
    // The attribute a flag sets is not accepted beside it.
    EXPECT_EXIT(ParseOrExit({"--ns3::D2dFlProtocol::Rounds=3"}, declare),
                ::testing::ExitedWithCode(2),
                "--ns3::D2dFlProtocol::Rounds is set by --rounds; use that");
    // Time flags past 2^63 ns would wrap around in ns-3: refused.
    Time t = Seconds(1);
    EXPECT_EXIT(ParseOrExit({"--t=18446744074s"},
                            [&t](D2dScenarioFlags& f) { f.Add("t", "a time", t).Positive(9e9); }),
                ::testing::ExitedWithCode(2),
                "--t=18446744074s is not accepted");
}

// --PrintHelp shows the defaults a user gets: times in seconds (ns-3 would print a bound
// time as "+6e+10ns"), and the real default of a flag resolved after parsing (the 0 of
// --nDevices stands for the scenario's number) rather than the placeholder.
TEST_F(D2dScenarioFlagsTest, HelpShowsTheRealDefaults)
{
    uint32_t nDevices = 0;
    uint32_t rounds = 7;
    Time duration = Seconds(10);
    Time step = MilliSeconds(250);
    bool quiet = false;
    std::string outDir = "results/x";
    auto declare = [&](D2dScenarioFlags& f) {
        f.Add("nDevices", "devices (0: the scenario's default)", nDevices).ShownDefault("10");
        f.Add("rounds", "rounds", rounds);
        f.Add("duration", "a time", duration);
        f.Add("step", "a time", step);
        f.Add("quiet", "no output", quiet);
        f.Add("outDir", "a folder", outDir);
        f.Bind("roundDeadline", "ns3::D2dFlProtocol::RoundDeadline").Default("60s");
    };
    D2dScenarioSupport support("flags-test");
    D2dScenarioFlags flags(support);
    declare(flags);
    EXPECT_EQ(flags.GetHelpDefault("nDevices"), "10");
    EXPECT_EQ(flags.GetHelpDefault("rounds"), "7");
    EXPECT_EQ(flags.GetHelpDefault("duration"), "10s");
    EXPECT_EQ(flags.GetHelpDefault("step"), "0.25s");
    EXPECT_EQ(flags.GetHelpDefault("quiet"), "false");
    EXPECT_EQ(flags.GetHelpDefault("outDir"), "results/x");
    EXPECT_EQ(flags.GetHelpDefault("roundDeadline"), "60s");
    // What --PrintHelp prints (to standard output, sent here to the death test's stderr).
    const auto help = [&declare]() {
        std::cout.rdbuf(std::cerr.rdbuf());
        ParseOrExit({"--PrintHelp"}, declare);
    };
    EXPECT_EXIT(help(),
                ::testing::ExitedWithCode(0),
                "--nDevices: +devices \\(0: [^\n]*\\[10\\]\n");
    EXPECT_EXIT(help(), ::testing::ExitedWithCode(0), "--duration: +a time \\[10s\\]\n");
    EXPECT_EXIT(help(), ::testing::ExitedWithCode(0), "--step: +a time \\[0.25s\\]\n");
    EXPECT_EXIT(help(), ::testing::ExitedWithCode(0), "--roundDeadline: [^\n]*\\[60s\\]\n");
    // The values are still parsed as ns-3 parses them.
    Args args({"--nDevices=4", "--duration=2min", "--step=3s"});
    flags.Parse(args.Argc(), args.Argv());
    EXPECT_EQ(nDevices, 4u);
    EXPECT_EQ(duration, Minutes(2));
    EXPECT_EQ(step, Seconds(3));
}

// A text flag whose values select ns-3 classes, declared once: the flag's choices and the
// class of each value; the one-line error on another value is the flag's.
TEST_F(D2dScenarioFlagsTest, TypeChoiceNamesTheFlagAndItsValues)
{
    // (The protocols' choices are D2dProtocolChoice's, of the registry: its own test.)
    const D2dTypeChoice paradigms("paradigm",
                                  {{"supervised", "ns3::D2dSupervisedParadigm"},
                                   {"semi-supervised", "ns3::D2dSemiSupervisedParadigm"},
                                   {"unsupervised", "ns3::D2dUnsupervisedParadigm"},
                                   {"labels", "ns3::D2dSupervisedParadigm"}});
    EXPECT_EQ(paradigms.GetFlag(), "paradigm");
    EXPECT_EQ(
        paradigms.GetNames(),
        (std::vector<std::string>{"supervised", "semi-supervised", "unsupervised", "labels"}));
    EXPECT_EQ(paradigms.GetTypeName("semi-supervised"), "ns3::D2dSemiSupervisedParadigm");
    EXPECT_EQ(paradigms.GetTypeName("labels"), "ns3::D2dSupervisedParadigm");
    EXPECT_EQ(paradigms.GetTypeName("unsupervised"), "ns3::D2dUnsupervisedParadigm");
    for (const auto& name : paradigms.GetNames())
    {
        TypeId tid;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(paradigms.GetTypeName(name), &tid)) << name;
    }
    const std::string expected = "--paradigm=rl is not accepted (supervised, semi-supervised, "
                                 "unsupervised or labels)";
    try
    {
        paradigms.GetTypeName("rl");
        ADD_FAILURE() << "rl accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()), expected);
    }
    // The flag declared with these choices refuses the value in the same words.
    std::string paradigm = "supervised";
    EXPECT_EXIT(
        ParseOrExit({"--paradigm=rl"},
                    [&](D2dScenarioFlags& f) {
                        f.Add("paradigm", "The paradigm", paradigm).Choices(paradigms.GetNames());
                    }),
        ::testing::ExitedWithCode(2),
        "^flags-test: error: --paradigm=rl is not accepted \\(supervised, semi-supervised, "
        "unsupervised or labels\\)\n$");
}

TEST_F(D2dScenarioFlagsTest, RecordWritesEachFlagOnce)
{
    const auto dir = std::filesystem::temp_directory_path() / "d2d-scenario-flags-test";
    std::filesystem::remove_all(dir);
    {
        D2dScenarioSupport support("flags-test");
        D2dScenarioFlags flags(support);
        uint32_t n = 7;
        Time t = Seconds(1);
        std::string hidden = "x";
        flags.Add("n", "a count", n);
        flags.Add("t", "a time", t);
        flags.Add("hidden", "not in run.json", hidden).Unrecorded();
        flags.Bind("gradientUpload", "ns3::D2dCmfl::GradientUpload");
        flags.Bind("phaseTimeout", "ns3::D2dCmfl::PhaseTimeout");
        Args args({"--t=1500ms", "--gradientUpload=broadcast", "--phaseTimeout=2min"});
        flags.Parse(args.Argc(), args.Argv());
        D2dTraceHelper traces(dir.string());
        flags.Record(traces);
        traces.Finish(1, 0.0);
    }
    std::ifstream in(dir / "run.json");
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    EXPECT_NE(json.find("\"n\": 7"), std::string::npos) << json;
    EXPECT_NE(json.find("\"t_s\": 1.5"), std::string::npos) << json;
    EXPECT_NE(json.find("\"gradientUpload\": \"broadcast\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"phaseTimeout_s\": 120"), std::string::npos) << json;
    EXPECT_EQ(json.find("hidden"), std::string::npos) << json;
    std::filesystem::remove_all(dir);
}
} // namespace
