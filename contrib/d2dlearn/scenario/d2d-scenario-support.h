/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SCENARIO_SUPPORT_H
#define D2D_SCENARIO_SUPPORT_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief What every scenario program does the same way: one-line errors on bad input,
 * rejecting unknown parameters before ns-3's CommandLine prints its whole help, and
 * progress on stderr.
 */
class D2dScenarioSupport
{
  public:
    /**
     * \param program program name used as the prefix of messages
     * \param quiet no progress output
     */
    explicit D2dScenarioSupport(std::string program, bool quiet = false);

    /**
     * A parameter the program adds with CommandLine::AddValue, the form of its value and
     * the ns-3 attributes the program sets from it.
     */
    /** The form of a parameter's value (the integers checked against their type's range). */
    enum class Form
    {
        UINT32,  //!< uint32_t
        UINT64,  //!< uint64_t
        INT32,   //!< int32_t
        INT64,   //!< int64_t
        REAL,    //!< a finite real
        BOOLEAN, //!< true, false, 1, 0, t, f (or no value)
        TIME,    //!< an ns-3 Time
        TEXT,    //!< any text
    };

    /** A flag's declaration: its name, what it accepts and its range. */
    struct Param
    {
        std::string name; //!< name without the leading --
        Form kind;        //!< the form of its value
        /**
         * The ns-3 attributes ("ns3::Class::Attribute", the class that defines the
         * attribute) the program sets from this parameter, overriding their defaults:
         * CheckArguments rejects --ns3::Class::Attribute=value for them.
         */
        std::vector<std::string> attributes{};
        /**
         * An attribute ("ns3::Class::Attribute") whose checker decides which values are
         * accepted: the value must parse as the attribute's value type and pass its
         * checker (empty: only the form of kind is checked).
         */
        std::string checkedBy{};
        /** What the messages say is accepted, if not the form of kind or the checker's range */
        std::string accepted{};
    };

    /**
     * \brief Exit with a one-line error, before ns-3's CommandLine prints its whole help or
     * aborts, if argv holds a parameter that is neither in params nor an ns-3 global, or a
     * value of the wrong form or outside the range of its type, or an empty value (--name=,
     * which CommandLine answers with its whole help), or an
     * --ns3::Class::Attribute=value whose class, attribute or value ns-3 does not accept
     * (the form follows the attribute's value type; its checker decides the range) or
     * that a parameter sets (Param::attributes), or --RngSeed (the seed is set by --seed;
     * --RngRun is a parameter of D2dNetworkOptions), or --PrintAttributes / --PrintGroup
     * naming a class or group ns-3 does not know (CommandLine aborts on those), or a share's
     * former percent name (RenamedShare: the error names the new one). An unknown
     * parameter's error names the nearest one (NearestName) when there is one.
     * \param argc argument count
     * \param argv arguments
     * \param params the parameters the program adds with CommandLine::AddValue
     */
    void CheckArguments(int argc, char** argv, const std::vector<Param>& params) const;

    /**
     * \param name a parameter name that is not one of params
     * \param params the program's parameters
     * \return the parameter nearest to name (case-insensitive Levenshtein distance at most
     *         max(2, length / 4)), or "" if none is that near
     */
    static std::string NearestName(const std::string& name, const std::vector<Param>& params);

    /**
     * \brief The one table of the shares renamed when every share became a fraction in
     * [0, 1] (a percent in [0, 100] before): the flags (committeePercent ->
     * committeeFraction) and the attributes (ns3::D2dCmfl::CommitteePercent ->
     * ns3::D2dCmfl::CommitteeFraction), which CheckArguments refuses with the new name.
     * \param name a flag name or an attribute path, without --
     * \return the new name, or "" if name was not renamed
     */
    static std::string RenamedShare(const std::string& name);

    /**
     * \brief Print "program: error: message" on one line and exit with status 2.
     * \param message what is wrong: the parameter, its value and the accepted range
     */
    [[noreturn]] void Fail(const std::string& message) const;

    /**
     * \brief Fail unless lo <= value <= hi.
     * \param name parameter name (without --)
     * \param value its value
     * \param lo lowest accepted value
     * \param hi highest accepted value
     */
    void CheckRange(const std::string& name, double value, double lo, double hi) const;

    /**
     * \brief Fail unless value is one of accepted: "--name=value is not accepted (a, b or c)".
     * \param name parameter name (without --)
     * \param value its value
     * \param accepted the accepted values, in the order the message lists them
     */
    void CheckChoice(const std::string& name,
                     const std::string& value,
                     const std::vector<std::string>& accepted) const;

    /** \param quiet no progress output */
    void SetQuiet(bool quiet);

    /**
     * \brief Say something the user should know of the run's input, one line on stderr
     * ("program: text"), unless --quiet (run.json records it too, by the caller).
     * \param text the line
     */
    void Note(const std::string& text) const;

    /**
     * \return value for a message: whole numbers in full unless long and exactly
     * representable in short form (1e+09), others in the shortest form that reads back
     * \param value a number
     */
    static std::string FormatNumber(double value);
    /**
     * \param token text
     * \param value set to its value
     * \return true if token is a finite number (the whole token)
     */
    static bool ParseNumber(const std::string& token, double& value);

    /**
     * \brief Find an attribute of the class that defines it (Config::SetDefault, which
     * CommandLine uses for --ns3::Class::Attribute, does not look in parent classes):
     * D2dAttributePath::Lookup.
     * \param path "ns3::Class::Attribute"
     * \param info set to the attribute if found
     * \return true if the class exists and defines the attribute itself
     */
    static bool LookupAttribute(const std::string& path, TypeId::AttributeInformation* info);

    /**
     * \param checker an attribute's checker
     * \return the name of its value type with the ns3:: prefix ("ns3::DoubleValue"):
     *         D2dAttributePath::ValueTypeName
     */
    static std::string ValueTypeName(Ptr<const AttributeChecker> checker);

    /**
     * \param text an error message, e.g. a LibTorch c10::Error's (message, then a backtrace)
     * \return its first line, at most 300 bytes, as D2dMatrixCsv::Excerpt() escapes it:
     * what a one-line error may quote of it
     */
    static std::string FirstLine(const std::string& text);

    /**
     * \brief Read a whole number written in decimal digits or in exponent notation, as the
     * README writes ranges (1e10, 2.5e3, 1200e-2): exactly, without rounding.
     * \param text the text (an optional sign, digits, an optional fraction and exponent)
     * \param decimal set to the number in decimal digits ("-12", "10000000000") if whole
     * \return false if text is not a number of that form or not a whole number (1.5, 1e-3),
     * or has more than 40 digits (outside every integer type)
     */
    static bool WholeNumber(const std::string& text, std::string* decimal);

    /**
     * \param t a time, possibly negative (a flag's value before its range is checked)
     * \return t in seconds: Time::GetSeconds() shifts a negative value left in ns-3 3.37's
     * int64x64-128.h (undefined behaviour that UBSan reports), so the magnitude is converted
     */
    static double ToSeconds(Time t);

    /** \return the program name, as constructed */
    const std::string& GetProgram() const;

    /**
     * \brief Print progress on stderr every interval of simulated time until stop, with the
     * wall time so far and an estimate of the time left (WallSecondsLeft over the simulated
     * time).
     * \param interval simulated time between lines
     * \param stop the end of the simulation
     */
    void StartProgress(Time interval, Time stop);

    /**
     * \brief The wall time a run has left, at the pace so far: wallSpent / done x (total -
     * done), the work being rounds or simulated seconds.
     * \param done the work done since the pace was first measured (> 0 for an estimate)
     * \param total the work to do in all, from the same start
     * \param wallSpent the wall time that took, s
     * \return the estimate, s; NaN when nothing is done yet (no pace to go by)
     */
    static double WallSecondsLeft(double done, double total, double wallSpent);

    /**
     * \brief Print one line per completed learning round (unless quiet), with the wall time
     * so far and an estimate of the time left (WallSecondsLeft over the rounds since the
     * first line).
     * \param round the round just completed (1-based)
     * \param rounds rounds the run is configured for
     * \param accuracy test accuracy after the round
     * \param loss test loss after the round
     * \param regression true: the test set has no classes; the line gives the loss as the
     *        test MSE and no accuracy
     */
    void RoundProgress(uint32_t round,
                       uint32_t rounds,
                       double accuracy,
                       double loss,
                       bool regression = false) const;

    /**
     * \brief Complete the run's traces: call writeLast (the traces written only at the end;
     * may be empty), then D2dTraceHelper::Finish. On an I/O error the temporary files are
     * deleted (traces is reset) and the program fails with a one-line error, so no
     * half-written output is left.
     * \param traces the run's traces
     * \param seed the run's seed, recorded in run.json
     * \param writeLast writes the last traces and run.json parameters; may throw
     *        std::runtime_error
     */
    void FinishTraces(std::unique_ptr<D2dTraceHelper>& traces,
                      uint64_t seed,
                      const std::function<void()>& writeLast = {}) const;

    /** \return wall-clock seconds since construction */
    double WallSeconds() const;

  private:
    /** \brief Print one progress line and schedule the next. */
    void Progress(Time interval, Time stop);

    /**
     * \brief CheckArguments' check of the program itself: abort (a program error, not the
     * user's) unless every attribute a parameter declares exists.
     * \param params the program's parameters
     */
    static void CheckDeclarations(const std::vector<Param>& params);
    /**
     * \brief CheckArguments on one of CommandLine's own arguments (--PrintHelp, --version,
     * ...): --PrintAttributes and --PrintGroup must name a known class or group.
     * \param name the argument's name, without --
     * \param value its value ("" if none)
     * \return true if name is one of them (checked), false otherwise
     */
    bool CheckBuiltin(const std::string& name, const std::string& value) const;
    /**
     * \brief CheckArguments on a share's former percent name (RenamedShare): fail with the
     * new name and the value as a share ("--committeePercent: renamed; use
     * --committeeFraction, a share in [0, 1] (30 percent is 0.3)"). A flag is refused so only
     * if the program has its new name (else it is an unknown parameter).
     * \param name the argument's name, without --
     * \param value its value ("" if none)
     * \param params the program's parameters
     */
    void CheckRenamed(const std::string& name,
                      const std::string& value,
                      const std::vector<Param>& params) const;
    /**
     * \brief CheckArguments on --ns3::Class::Attribute=value: a known class, an attribute
     * it defines itself (the error names the parent class that does), not one a parameter
     * sets, and a value its checker accepts.
     * \param name the argument's name, without --
     * \param value its value
     * \param params the program's parameters
     */
    void CheckAttributeArgument(const std::string& name,
                                const std::string& value,
                                const std::vector<Param>& params) const;
    /**
     * \brief CheckArguments on --name=value of the program's own parameters: a known name
     * (or the nearest one named), a non-empty value of the parameter's form (not given as
     * the next argument), in the range of the attribute that checks it.
     * \param name the argument's name, without --
     * \param hasValue whether the argument has '='
     * \param value its value ("" if none)
     * \param next the next argument, null if none
     * \param params the program's parameters
     */
    void CheckParameterArgument(const std::string& name,
                                bool hasValue,
                                const std::string& value,
                                const char* next,
                                const std::vector<Param>& params) const;

    std::string m_program; //!< the program's name, the prefix of its messages
    bool m_quiet;          //!< no progress on stderr (SetQuiet)
    std::chrono::steady_clock::time_point
        m_start; //!< construction time (WallSeconds counts from it)
    /** (round, wall seconds) of the first RoundProgress() line: the pace counts from it */
    mutable std::pair<uint32_t, double> m_firstRound{0, -1.0};
    double m_progressStartWall{0}; //!< wall seconds when StartProgress() was called

    /**
     * \param seconds an estimate of the time left, s (NaN: none)
     * \return ", about 12 s left", ", about 3 min 5 s left", ", under 1 s left"; "" for NaN
     *         (no pace yet) or 0 (nothing left)
     */
    static std::string LeftText(double seconds);
};

} // namespace ns3

#endif /* D2D_SCENARIO_SUPPORT_H */
