/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FLAG_SCOPE_H
#define D2D_FLAG_SCOPE_H

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;

/**
 * \ingroup d2dlearn
 * \brief Which links a run's messages use: what decides whether a wireless flag can change it.
 * A scenario fills it after parsing (e.g. from D2dProtocolChoice::GetTraffic() for its
 * --algorithm) and gives it to D2dNetworkOptions::SetTraffic() before Validate().
 */
struct D2dTraffic
{
    bool known{false}; //!< false: the scenario did not say (no flag is refused for its traffic)
    bool d2d{false};   //!< the run sends messages over D2D links
    bool d2s{false};   //!< the run has a server and sends messages over device-to-server links
    /** the choice that decided it, for the messages, e.g. "--algorithm=fedavg" */
    std::string chosen;
    /** what sends D2D messages in this program, e.g. "--algorithm=decentralized or local"
     * (empty: nothing does) */
    std::string d2dUsers;
    /** what has a server in this program (empty: nothing does) */
    std::string d2sUsers;
    /** D2dNetworkOptions: the D2S radios take --txPowerDbm (no --d2sTxPowerDbm of the user's
     * or the scenario's) */
    bool d2sFollowsTx{false};
    /** the classes of D2dScenarioFlags::AddChoice() this run makes (empty: not said; no flag is
     * refused for them) */
    std::vector<std::string> chosenTypes;
    /** the attributes those objects leave unread (D2dFlProtocol::GetUnreadAttributes()) */
    std::vector<std::string> unreadAttributes;
};

/**
 * \ingroup d2dlearn
 * \brief The one table of which command-line flag acts on which configuration, and the rule
 * built on it: a flag whose value cannot change the run (a D2D channel parameter when the
 * protocol sends nothing over D2D links, a D2S parameter without a server, a Wi-Fi parameter
 * on the channel backend and back, an algorithm's parameter under another algorithm) is
 * refused with one line that says why and what would use it, unless it is at its default.
 *
 * A row of the table names a flag (and the program, or every program that declares it) and
 * the conditions under which it acts, all of which must hold. Which protocol, paradigm or
 * learner a flag acts with is not a row: a program names the classes each of its choices
 * makes (D2dScenarioFlags::AddChoice: D2dProtocolChoice, D2dTypeChoice), the run the ones it
 * made and the attributes they leave unread (D2dTraffic), and a flag whose targets
 * (D2dScenarioFlags::GetTargets) are all such classes acts only where one that reads it is
 * made. A flag without a row or such targets acts in every configuration of the programs
 * that declare it. --PrintHelp shows a row's conditions
 * after the flag's help ("(acts with: ...)"), --printScope lists, for the configuration on the
 * command line, every flag that acts and every flag that cannot and why.
 */
class D2dFlagScope
{
  public:
    /** What a condition asks of the configuration. */
    enum class Need
    {
        D2D,             //!< the run sends messages over D2D links
        D2S,             //!< the run has device-to-server links
        NO_D2D,          //!< the run says it sends no D2D messages
        MESSAGES,        //!< the run sends messages at all (D2D or D2S)
        TX_RADIOS,       //!< D2D messages, or D2S messages on radios that take --txPowerDbm
        POSITIONS,       //!< the devices' positions reach the links: D2D messages, or
                         //!< SERVER_PLACE
        SERVER_PLACE,    //!< a server at a place: over Wi-Fi, or --d2sLinks=distance without
                         //!< --rssFile
        D2D_BAND,        //!< D2D messages, or D2S ones with --d2sSubChannels=-1 (it follows)
        FINITE_SPECTRUM, //!< --subChannels > 0 on D2D links or --d2sSubChannels > 0 on D2S
        CO_CHANNEL,      //!< transmissions may share a sub-channel (immediate access, or
                         //!< --spectrumReuse=hearing on D2D links)
        IS,              //!< another flag's value (as parsed) is one of values
        IS_NOT           //!< another flag's value (as parsed) is none of values
    };

    /** One condition of a row. */
    struct Condition
    {
        Need need;                       //!< what is asked
        std::string flag;                //!< IS, IS_NOT: the other flag
        std::vector<std::string> values; //!< IS, IS_NOT: its values
        std::string text;                //!< IS, IS_NOT: how to say it ("" : --flag=v1 or v2)
        /** IS, IS_NOT: the condition also holds when an argument starts with this (another
         * way to choose what flag chooses, e.g. "--ns3::D2dFedAvg::Aggregation=") */
        std::string orArgument;
        /** IS, IS_NOT: the condition holds while the other flag is not given (its default
         * stands for a choice of its own, e.g. --speedMps > 0 alone is a random walk) */
        bool onlyIfGiven{false};
    };

    /** One row: where a flag acts. */
    struct Row
    {
        std::string flag;                  //!< the flag, without --
        std::string program;               //!< the program ("": every program declaring it)
        std::vector<Condition> conditions; //!< all must hold for the flag to act
    };

    /** \return the table, in the order the flags are declared in */
    static const std::vector<Row>& GetTable();

    /**
     * \param program the scenario program, e.g. "fedavg"
     * \param flag a flag, without --
     * \return the row of flag in program (a program's own row before a general one), or null
     */
    static const Row* Find(const std::string& program, const std::string& flag);

    /**
     * \param flags the program's flags (its name, its AddChoice() classes)
     * \param flag a flag, without --
     * \return for --PrintHelp: " (acts with: D2D messages; --backend=channel)", or "" for a
     *         flag that acts in every configuration
     */
    static std::string Describe(const D2dScenarioFlags& flags, const std::string& flag);

    /**
     * \param flags the parsed flags of the program
     * \param traffic the run's links
     * \param flag a flag of the program
     * \return "" if the flag can change the run; else why not, and what would use it, e.g. "it
     *         acts on D2D links, and --algorithm=fedavg sends no D2D messages (D2D messages:
     *         --algorithm=decentralized or semi-decentralized)"
     */
    static std::string WhyInert(const D2dScenarioFlags& flags,
                                const D2dTraffic& traffic,
                                const std::string& flag);

    /**
     * \brief The rule: the first flag given with a value other than its default that cannot
     * change the run ends the program with one line (support.Fail(): exit 2, nothing written).
     * \param flags the parsed flags of the program
     * \param traffic the run's links
     * \param support the program's support (its name, its error line)
     */
    static void Check(const D2dScenarioFlags& flags,
                      const D2dTraffic& traffic,
                      const D2dScenarioSupport& support);

    /**
     * \param flags the parsed flags of the program
     * \param traffic the run's links
     * \return the flags given with a value other than their default that cannot change the
     *         run, in declaration order (what Check() refuses; --inertFlags=record lists them
     *         in run.json instead)
     */
    static std::vector<std::string> GivenInert(const D2dScenarioFlags& flags,
                                               const D2dTraffic& traffic);

    /**
     * \brief --printScope: every flag of the program, in declaration order, one CSV row each:
     * flag,acts,why (acts "yes" or "no"; why empty when it acts), after a '#' line naming the
     * configuration.
     * \param os where to print
     * \param flags the parsed flags of the program
     * \param traffic the run's links
     */
    static void Print(std::ostream& os, const D2dScenarioFlags& flags, const D2dTraffic& traffic);
};

} // namespace ns3

#endif /* D2D_FLAG_SCOPE_H */
