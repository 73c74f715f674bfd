/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_SCENARIO_FLAGS_H
#define D2D_SCENARIO_FLAGS_H

#include "d2d-scenario-support.h"

#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <string>
#include <variant>
#include <vector>

namespace ns3
{

class D2dTraceHelper;

/**
 * \ingroup d2dlearn
 * \brief A scenario's command-line flags, each declared once: its name, help, value, the
 * attributes it sets and its range. From that one declaration come the CommandLine entry,
 * the one-line error on a malformed or out-of-range value (before any output exists), the
 * rejection of --ns3::Class::Attribute for the attributes it sets, and its run.json record.
 *
 * Two kinds of flags:
 * - Bind(name, "ns3::Class::Attribute"): the flag *is* the attribute (as
 *   CommandLine::AddValue(name, attributePath)): its help and default are the attribute's,
 *   its accepted range is the attribute's checker, and its value becomes the attribute's
 *   default (Config::SetDefault) before any object is made, so every object of the class,
 *   however created, has it. Also() sends the same value to further attributes.
 * - Add(name, help, variable): the value lands in a program variable; Sets() names the
 *   attributes the program sets from it (their checker then checks the value too), Range(),
 *   Positive() and Choices() what a variable without an attribute accepts.
 *
 * Use, in a scenario's main():
 * \code
 *   D2dScenarioSupport support("cmfl");
 *   D2dScenarioFlags flags(support);
 *   flags.Bind("committeeFraction", "ns3::D2dCmfl::CommitteeFraction").Range(0.01, 0.5);
 *   flags.Add("maxSimTime", "Stop the simulation at this time at the latest", maxSimTime)
 *       .Positive(1e12);
 *   flags.Parse(argc, argv);
 *   const double omega = flags.Get<DoubleValue>("committeeFraction");
 *   ...
 *   flags.Record(*traces); // run.json: every flag's value
 * \endcode
 *
 * Values bound to attributes are applied before ns-3's CommandLine parses the arguments, so
 * an object that an --ns3::Class::Attribute=ClassName argument creates while parsing (a
 * PointerValue) already has them.
 */
class D2dScenarioFlags
{
  public:
    /** A flag of the table; the modifiers return it, so that they chain. */
    class Flag
    {
      public:
        /**
         * \brief Accept only lo <= value <= hi (numbers; times in seconds). For a flag
         * with an attribute, this narrows the attribute's checker.
         * \param lo lowest accepted value
         * \param hi highest accepted value
         * \return this flag
         */
        Flag& Range(double lo, double hi);
        /**
         * \brief Accept only 0 < value <= hi (numbers; times in seconds).
         * \param hi highest accepted value
         * \return this flag
         */
        Flag& Positive(double hi);
        /**
         * \brief Accept only these texts (a text variable).
         * \param accepted the accepted values, in the order the error message lists them
         * \return this flag
         */
        Flag& Choices(std::vector<std::string> accepted);
        /**
         * \brief The program sets this attribute ("ns3::Class::Attribute", of the class
         * that defines it) from the flag's variable: --ns3::Class::Attribute is then
         * rejected, and, unless Range() or Choices() say what the flag accepts (e.g. a
         * count from which the program computes a share), the first such attribute's
         * checker checks the value.
         * \param attribute the attribute
         * \return this flag
         */
        Flag& Sets(const std::string& attribute);
        /**
         * \brief A bound flag's value also becomes this attribute's default.
         * \param attribute the attribute ("ns3::Class::Attribute")
         * \return this flag
         */
        Flag& Also(const std::string& attribute);
        /**
         * \brief The flag's value reaches the run only through objects of this class: the
         * program gives it to them (fedavg's --aggregation chooses D2dFedAvg's rule), or
         * what it sets matters only where they are made (bayes-consensus's learning flags:
         * its variational learner). For the flag scope, the flag then acts where such an
         * object is made (AddChoice()), whatever attributes it sets. Without Configures(), a
         * bound flag acts through its attributes' classes, an Add() flag everywhere (the
         * program may read its variable anywhere: its Sets() attributes do not limit it).
         * \param typeName the class, as its TypeId names it (aborts if none is registered)
         * \return this flag
         */
        Flag& Configures(const std::string& typeName);
        /**
         * \brief An Add() flag whose value reaches the run only through the attributes it
         * Sets() (the program reads its variable for nothing else a run shows): for the
         * flag scope it then acts, like a bound flag, where an object that reads one of
         * them is made (AddChoice()).
         * \return this flag
         */
        Flag& ThroughAttributes();
        /**
         * \brief A bound flag's default in this program (else the attribute's).
         * \param text the default, as the attribute's value type parses it
         * \return this flag
         */
        Flag& Default(const std::string& text);
        /**
         * \brief What --PrintHelp shows as the default, for a default the program resolves
         * after parsing (e.g. --nDevices=0 stands for the scenario's number of devices).
         * \param text the default shown
         * \return this flag
         */
        Flag& ShownDefault(const std::string& text);
        /** \brief Leave the flag out of run.json (e.g. a scenario writes it itself). \return this
         * flag */
        Flag& Unrecorded();

      private:
        friend class D2dScenarioFlags;
        /** The variable of an Add() flag. */
        using Variable = std::variant<std::monostate,
                                      uint32_t*,
                                      uint64_t*,
                                      int32_t*,
                                      int64_t*,
                                      double*,
                                      bool*,
                                      std::string*,
                                      Time*>;

        std::string m_name;                    //!< name without --
        std::string m_help;                    //!< help text
        Variable m_variable;                   //!< Add(): the variable
        std::vector<std::string> m_attributes; //!< Bind(): the attribute, then Also()'s
                                               //!< Add(): Sets()'s
        bool m_bound{false};                   //!< Bind() rather than Add()
        std::vector<std::string> m_configures; //!< Configures()
        bool m_throughAttributes{false};       //!< ThroughAttributes()
        Ptr<const AttributeChecker> m_checker; //!< checks the value (may be null)
        Ptr<AttributeValue> m_value;           //!< Bind(): the value in force
        bool m_hasRange{false};                //!< Range() or Positive() given
        double m_lo{0};                        //!< lowest accepted value
        double m_hi{0};                        //!< highest accepted value
        bool m_loExclusive{false};             //!< Positive(): value > lo
        std::vector<std::string> m_choices;    //!< Choices()
        bool m_record{true};                   //!< written to run.json
        bool m_given{false};                   //!< on the command line
        std::string m_text;                    //!< the value as given (last one)
        std::string m_shownDefault;            //!< ShownDefault() (empty: the value's)
        std::string m_defaultText;             //!< the value before Parse(), as text
        std::string m_parsedText;              //!< the value Parse() left, as text
    };

    /** \param support the program's support (its name prefixes the error messages) */
    explicit D2dScenarioFlags(const D2dScenarioSupport& support);

    /**
     * \brief A flag whose value lands in variable (which must outlive Parse()).
     * \tparam T uint32_t, uint64_t, int32_t, int64_t, double, bool, std::string or Time
     * \param name the flag's name, without --
     * \param help its help text
     * \param variable holds the default; after Parse(), the value in force
     * \return the flag, for its modifiers
     */
    template <typename T>
    Flag& Add(const std::string& name, const std::string& help, T& variable)
    {
        Flag& flag = NewFlag(name, help);
        flag.m_variable = &variable;
        return flag;
    }

    /**
     * \brief A flag bound to an attribute: its value becomes the attribute's default.
     * \param name the flag's name, without --
     * \param attribute "ns3::Class::Attribute", of the class that defines it
     * \param help its help text (empty: the attribute's)
     * \return the flag, for its modifiers
     */
    Flag& Bind(const std::string& name, const std::string& attribute, const std::string& help = "");

    /**
     * \brief Check every argument (one-line error and exit 2 on the first bad one), set the
     * bound attributes' defaults, let ns-3's CommandLine parse the arguments, then check
     * the variables' ranges and choices.
     * \param argc argument count
     * \param argv arguments
     */
    void Parse(int argc, char** argv);

    /**
     * \brief A flag declared earlier (e.g. by D2dNetworkOptions::AddFlags()), to add what this
     * program does with it, e.g. Find("txPowerDbm").Sets("ns3::WifiPhy::TxPowerStart").
     * \param name the flag (aborts if there is none)
     * \return the flag
     */
    Flag& Find(const std::string& name);

    /**
     * \param prefix e.g. "--ns3::D2dFedAvg::Aggregation="
     * \return whether an argument Parse() read starts with prefix (e.g. an attribute set by
     *         its full name, which is not a flag of the program)
     */
    bool HasArgument(const std::string& prefix) const;
    /** \return whether --name was on the command line (after Parse()) \param name the flag */
    bool Given(const std::string& name) const;
    /** \return whether the program declares --name \param name a flag, without -- */
    bool Has(const std::string& name) const;
    /**
     * \param name the flag (aborts if there is none)
     * \return after Parse(): true unless --name was given with a value other than its
     *         default (the value before Parse(), compared as text: --dropProbability=-1.0 is
     *         at its default -1)
     */
    bool AtDefault(const std::string& name) const;
    /**
     * \param name the flag (aborts if there is none)
     * \return its value as Parse() left it, as text (numbers as ns-3's CommandLine prints them,
     *         times in seconds with "s", booleans true or false), whatever the program did to
     *         its variable afterwards
     */
    std::string GetParsedText(const std::string& name) const;
    /**
     * \param name the flag (aborts if there is none)
     * \return after Parse(): its default as --PrintHelp showed it (ShownDefault(), else the
     *         value before Parse())
     */
    std::string GetDefaultText(const std::string& name) const;
    /** \return the flags' names, in declaration order */
    std::vector<std::string> GetNames() const;
    /** \return the program's name (D2dScenarioSupport::GetProgram()) */
    const std::string& GetProgram() const;
    /**
     * \brief The program makes an object of this class in the runs that give this argument
     * (e.g. "ns3::D2dUnsupervisedParadigm", "--paradigm=unsupervised"). A flag whose targets
     * (GetTargets(): its Configures() classes, else a bound flag's attributes) all belong to
     * such classes or their bases acts only in a run that makes one of them that reads it
     * (D2dFlagScope; the run names its classes in D2dTraffic::chosenTypes).
     * \param typeName the class, as its TypeId names it
     * \param argument the argument that chooses it
     * \param unreadAttributes attributes the object made by that argument leaves unread
     *        (D2dFlProtocol::GetUnreadAttributes()): a flag acts there through the others
     */
    void AddChoice(const std::string& typeName,
                   const std::string& argument,
                   std::vector<std::string> unreadAttributes = {});

    /** A class of which a program makes one per run, and the argument that makes it. */
    struct Choice
    {
        std::string typeName;                      //!< the class
        std::string argument;                      //!< e.g. "--algorithm=fedprox"
        std::vector<std::string> unreadAttributes; //!< what that object does not read
    };

    /** \return AddChoice()'s classes and arguments, in the order given */
    const std::vector<Choice>& GetChoices() const;
    /**
     * \param name a flag
     * \return where the flag scope looks for the objects the flag acts on, as (class,
     *         attribute; "" for Configures()): its Configures() classes if it has any, else
     *         a bound flag's attributes, or an Add() flag's with ThroughAttributes() (none
     *         for another Add() flag)
     */
    std::vector<std::pair<std::string, std::string>> GetTargets(const std::string& name) const;

    /**
     * \brief After Parse(): a bound flag that was not on the command line takes this value
     * instead of its default (a default that depends on other flags, e.g. on the data set);
     * its attributes' defaults and its run.json record follow. Call before the objects that
     * read the attributes are made.
     * \param name the flag (aborts if it is not a bound flag)
     * \param text the value, as the attribute's value type parses it (aborts if refused)
     */
    void DefaultAfterParse(const std::string& name, const std::string& text);

    /**
     * \brief A bound flag's value, as parsed (or its default).
     * \tparam V the attribute's value class, e.g. DoubleValue
     * \param name the flag
     * \return the value, e.g. a double
     */
    template <typename V>
    auto Get(const std::string& name) const
    {
        auto value = DynamicCast<const V>(Find(name).m_value);
        NS_ABORT_MSG_IF(!value,
                        "D2dScenarioFlags::Get: --" << name << " is not a bound flag of that type");
        return value->Get();
    }

    /**
     * \brief Write the command line (D2dTraceHelper::AddCommandLine) and every flag's value
     * to run.json: numbers and booleans bare, times in seconds under name_s, enumerations by
     * name.
     * \param traces the run's traces
     */
    void Record(D2dTraceHelper& traces) const;

    /** \return the flags as D2dScenarioSupport::CheckArguments() takes them */
    std::vector<D2dScenarioSupport::Param> GetParams() const;

    /**
     * \brief The default --PrintHelp shows for a flag: its ShownDefault(), else its value in
     * force before parsing, times in seconds ("60s", where ns-3 would print "+6e+10ns").
     * \param name the flag (aborts if there is none)
     * \return the text, e.g. "10" or "60s" (empty for a variable without a default shown)
     */
    std::string GetHelpDefault(const std::string& name) const;

  private:
    /** \return a new flag \param name its name \param help its help */
    Flag& NewFlag(const std::string& name, const std::string& help);
    /** \return the flag called name (aborts if none) \param name the flag */
    const Flag& Find(const std::string& name) const;
    /** \brief Fail unless the flag's value is in its Range() and Choices(). \param flag it */
    void CheckValue(const Flag& flag) const;
    /** \return the flag's value in force, as text (times in seconds) \param f the flag */
    std::string ValueText(const Flag& f) const;

    const D2dScenarioSupport& m_support; //!< error messages
    std::deque<Flag> m_flags;            //!< in declaration order (references stay valid)
    /** AddChoice(): classes the program makes one of, and the arguments that choose them */
    std::vector<Choice> m_choices;
    bool m_parsed{false};   //!< Parse() was called
    int m_argc{0};          //!< the arguments Parse() read
    char** m_argv{nullptr}; //!< the arguments Parse() read (main()'s)
};

} // namespace ns3

#endif /* D2D_SCENARIO_FLAGS_H */
