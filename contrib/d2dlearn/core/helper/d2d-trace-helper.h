/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRACE_HELPER_H
#define D2D_TRACE_HELPER_H

#include "ns3/d2d-channel.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-energy-model.h"
#include "ns3/d2d-run-record.h"
#include "ns3/d2d-trace-file.h"
#include "ns3/d2d-trace-folder.h"
#include "ns3/d2d-transport.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ns3
{

class D2dWifiEnergyMeter; // d2d-wifi-energy-meter.h: keeps the Wi-Fi headers out of users

/**
 * \ingroup d2dlearn
 * \brief Writes a run's trace folder: messages.csv, energy.csv and run.json.
 *
 * Rows are streamed into hidden temporary files as the simulation runs; Finish() moves
 * them into place with run.json last, so a folder holds a complete run exactly when it
 * holds run.json: an earlier run's run.json is removed first, then the earlier run's
 * other files (listed in the hidden manifest .run-files), so that none sits beside the new
 * run.json. A run that fails leaves no trace (the destructor deletes the temporary files);
 * SIGINT and SIGTERM delete them too and exit with 130 or 143, leaving the folder as it was
 * (a complete earlier run, or nothing); a signal that comes while the files are moved into
 * place waits until they all are (D2dStopSignals). run.json's strings and numbers are
 * written by D2dJson. A write error (a full disk) stops the simulation when it
 * happens, and Finish() then throws it. Two parts do the folder's and run.json's work: the
 * folder, its lock, the temporary files and their publishing are a D2dTraceFolder; the
 * parameters and the summary a D2dRunRecord; the helper connects the trace sources and
 * writes the rows.
 *
 * Finish() first calls D2dTransport::ReportUnfinished() on every transport connected
 * (ConnectTransport(), ConnectChannel()), once each, in the order of connection, so that
 * the messages still in flight when the simulation stopped get their rows (reason
 * "unfinished"); then it flushes the energy models' open periods and closes the files.
 *
 * run.json holds the seed, version, simulated and wall time, the row counts and the
 * parameters; a parameter's JSON type follows the type it was added with (AddParameter()
 * overloads; AddAttributes() writes numbers and booleans bare, other attributes as
 * strings). Its last key, "summary", is a D2dRunSummary of every row written (learning
 * metric, energy per component, latency per message kind, complete-delivery rate,
 * retransmissions per fragment, bytes, rounds, times): the row a campaign tool collects.
 *
 * messages.csv: msg_id,kind,src,dst,bytes,t_send_s,t_recv_s,fragments,fragments_lost,
 * retransmissions,delivered,complete,mode,p_drop,reason — one row per (message, receiver).
 * rounds.csv (EnableRounds(), ConnectRounds()): round,sim_time_s,node,metric,value — one
 * row per measurement of a learning protocol; and, where energy is traced, after the first
 * row of each (round, sim_time_s), the energy every connected model has drawn up to that
 * time, at every trace level (node -1: metric `energy_j` the total, `energy_j.COMPONENT`
 * each of D2dRunSummary::EnergyComponents() and any other component seen; J): exact, the
 * open periods of draw included up to that time (GetEnergySoFar()), so that a figure of a
 * metric against energy needs no join with energy.csv's periods. Its bounds from
 * energy.csv: at least the rows stamped up to that time, at most those plus, per (node,
 * component), the first row after it (FULL) or all rows (STANDARD).
 * Protocol-specific files are opened with OpenTrace() by their writers (D2dCmflTraceWriter,
 * D2dBeliefTraceWriter).
 * energy.csv: sim_time_s,node,component,energy_j,remaining_j — one row per period of
 * constant draw of a component (see D2dEnergyModel).
 *
 * Trace level (SetLevel(), the scenarios' --traces): FULL writes the rows above. STANDARD
 * (the scenarios' default) keeps the files in proportion to the run: energy.csv gets one row
 * per (device, component) per energy period (SetEnergyPeriod(), 1 s of simulated time) with
 * the energy of every period of draw that ended in it, stamped with the time of the flush
 * (the latest of its periods' ends; FlushEnergy() flushes at once, e.g. before a protocol
 * file records the energy so far), the remaining energy after its last period and a sixth
 * column, periods, the number of periods of draw the row sums; and
 * messages.csv leaves out the kinds the scenario named with SetUntracedKinds() (a protocol's
 * high-volume control messages), whose rows run.json counts per kind in
 * "untraced_message_rows". Either way the summary describes exactly the rows written, so
 * that it can be recomputed from the files; run.json's "traces" names the level.
 */
class D2dTraceHelper
{
  public:
    /**
     * \brief Open the trace files in outDir (created if missing), holding the folder's
     * lock (outDir/.run-lock, flock) until destroyed: one run into a folder at a time.
     * \param outDir output folder
     * \throws std::runtime_error if the folder or the files cannot be created, or another
     * run (named by its pid and host) writes into the folder
     */
    explicit D2dTraceHelper(const std::string& outDir);

    /** What a helper does with its folder. */
    enum class Mode
    {
        RUN,     //!< make the folder if missing, lock it, write the traces (the constructor)
        VALIDATE //!< --validate: CheckOutDir() and nothing else: no folder, lock or file
    };

    /**
     * \brief A helper in the given mode: RUN as D2dTraceHelper(outDir); VALIDATE refuses
     * what RUN would refuse, with the same message, and writes nothing (its traces go
     * nowhere), so a scenario can build the whole run, every check included, before it stops.
     * \param outDir output folder
     * \param mode RUN or VALIDATE
     */
    D2dTraceHelper(const std::string& outDir, Mode mode);

    /**
     * \brief Check, without making or changing anything, that a run could write into outDir:
     * the refusals of D2dTraceHelper(outDir) with its messages (a path that is not a folder
     * and cannot become one, a folder it may not write into, one another run holds).
     * \param outDir output folder
     * \throws std::runtime_error as the constructor
     */
    static void CheckOutDir(const std::string& outDir);

    ~D2dTraceHelper();
    D2dTraceHelper(const D2dTraceHelper&) = delete;
    D2dTraceHelper& operator=(const D2dTraceHelper&) = delete;

    /**
     * \return "" or the first write error of a trace file (a full disk): the run was stopped
     *         when it happened, and Finish() reports it
     */
    const std::string& GetWriteError() const
    {
        return m_writeError;
    }

    /**
     * \brief messages.csv gets the channel's columns (the scenarios ask for them on every
     * D2dChannel, SubChannels 0 included: sub_channel is then empty, interference_w 0): t_start_s
     * (when the transmission started: t_start_s - t_send_s is the queueing delay), airtime_s (its
     * airtime, retransmissions included), sub_channel (its sub-channels, joined by '+'),
     * interference_w (the co-channel interference I at the receiver in eq. 18), sleep_wait_s
     * (what it waited for a sleeping radio), rss_w (the W_ij of eq. 18 behind p_drop) and sinr
     * (W_ij / (sigma^2 + I)); rss_w and sinr are empty on out_of_range rows. Call before any row
     * is written; cannot be undone. \param on whether to write them
     */
    void SetSpectrumColumns(bool on);
    /** \return whether messages.csv has the spectrum columns */
    bool HasSpectrumColumns() const;

    /** What the trace files hold (see the class description). */
    enum Level
    {
        STANDARD, //!< energy.csv per energy period; messages.csv without the untraced kinds
        FULL      //!< every row
    };

    /**
     * \param level the trace level (default FULL; the scenarios' --traces default is
     *        STANDARD). Call before any row is written; STANDARD cannot be undone.
     */
    void SetLevel(Level level);
    /** \return the trace level */
    Level GetLevel() const;
    /**
     * \param name "standard" or "full"
     * \return the level
     * \throws std::invalid_argument for another name
     */
    static Level ParseLevel(const std::string& name);
    /**
     * \param period STANDARD: the period of the energy.csv rows (> 0)
     */
    void SetEnergyPeriod(Time period);
    /**
     * \param kinds STANDARD: message kinds whose rows messages.csv leaves out (counted in
     *        run.json's "untraced_message_rows")
     */
    void SetUntracedKinds(const std::set<std::string>& kinds);
    /**
     * \brief STANDARD: write the energy accumulated so far (every (device, component) with
     * energy since its last row) now, so that energy.csv's rows up to now hold all the energy
     * reported so far. No effect at FULL.
     */
    void FlushEnergy();
    /**
     * \brief Close every energy model's and Wi-Fi meter's open period now (its energy up to
     * now reported: D2dEnergyModel::Flush, D2dWifiEnergyMeter::Flush), then FlushEnergy():
     * energy.csv's rows up to now then hold all the energy spent up to now, e.g. for a
     * running total written beside them (graph discovery's gd_energy.csv).
     */
    void CloseEnergyPeriods();

    /** \param transport write the outcomes of the messages it sends */
    void ConnectTransport(Ptr<D2dTransport> transport);
    /** \param channel connect every radio of the channel */
    void ConnectChannel(Ptr<D2dChannel> channel);
    /** \param model write its energy events */
    void ConnectEnergyModel(Ptr<D2dEnergyModel> model);
    /**
     * \brief Write the energy events of a Wi-Fi radio (ns-3's WifiRadioEnergyModel, through
     * its meter), flushed at Finish() as the D2dEnergyModels are.
     * \param meter the meter of one device's Wi-Fi radio
     */
    void ConnectWifiEnergy(Ptr<D2dWifiEnergyMeter> meter);
    /**
     * \brief Connect the D2dEnergyModels of every energy source of the nodes.
     * \param nodes nodes with an aggregated EnergySourceContainer
     */
    void ConnectEnergy(NodeContainer nodes);

    /**
     * \brief Record the program's arguments (those after its name, joined by single spaces)
     * as the run.json text parameter "commandLine".
     * \param argc argument count, as main() received it
     * \param argv arguments, as main() received them
     */
    void AddCommandLine(int argc, char** argv);

    /**
     * \brief Record a text parameter for run.json: written as a JSON string, whatever it holds.
     * \param name parameter name
     * \param value its value
     */
    void AddParameter(const std::string& name, const std::string& value);
    /**
     * \brief Record a text parameter for run.json, as a JSON string (without this overload a
     * string literal would convert to bool).
     * \param name parameter name
     * \param value its value
     */
    void AddParameter(const std::string& name, const char* value);
    /**
     * \brief Record a boolean parameter for run.json: written as true or false.
     * \param name parameter name
     * \param value its value
     */
    void AddParameter(const std::string& name, bool value);
    /**
     * \brief Record a real parameter for run.json: a bare JSON number in the shortest form
     * that reads back as the same double (null if not finite).
     * \param name parameter name
     * \param value its value
     */
    void AddParameter(const std::string& name, double value);

    /**
     * \brief Record an integer parameter for run.json: a bare JSON number.
     * \tparam T an integer type other than bool
     * \param name parameter name
     * \param value its value
     */
    template <typename T,
              typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
    void AddParameter(const std::string& name, T value)
    {
        m_record.AddParameter(name, value);
    }

    /**
     * \brief Record a headline result of the run (what it found, not what it was given)
     * under run.json's summary "results" (D2dRunSummary::AddResult): numbers as
     * AddParameter() writes them. Results must be recomputable from the trace files.
     * \param name result name
     * \param value its value (null if not finite)
     */
    void AddResult(const std::string& name, double value);

    /**
     * \brief Record an integer result (see AddResult(const std::string&, double)).
     * \tparam T an integer type other than bool
     * \param name result name
     * \param value its value
     */
    template <typename T,
              typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
    void AddResult(const std::string& name, T value)
    {
        m_record.Summary().AddResult(name, std::to_string(value));
    }

    /**
     * \brief Record a list of numbers as a result (non-finite values as null).
     * \param name result name
     * \param values the numbers
     */
    void AddResultArray(const std::string& name, const std::vector<double>& values);
    /**
     * \brief Record a result whose value is already JSON (an array of objects, ...).
     * \param name result name
     * \param json its value, valid JSON
     */
    void AddResultJson(const std::string& name, const std::string& json);

    /**
     * \brief Record every attribute of an object for run.json ("Class::Attribute"):
     * Double, Uinteger, Integer and Boolean attributes as bare JSON values, others as strings.
     * \param object the object
     */
    void AddAttributes(Ptr<Object> object);

    /**
     * \brief Record a parameter whose value is already JSON (an array, an object).
     * \param name key in run.json's "parameters"
     * \param json its value, valid JSON
     */
    void AddParameterJson(const std::string& name, const std::string& json);

    /**
     * \brief Record a list of numbers as a JSON array (non-finite values as null).
     * \param name key in run.json's "parameters"
     * \param values the numbers
     */
    void AddParameterArray(const std::string& name, const std::vector<double>& values);

    /**
     * \brief Record a list of integers (e.g. device indices) as a JSON array.
     * \param name key in run.json's "parameters"
     * \param values the integers
     */
    void AddParameterArray(const std::string& name, const std::vector<uint32_t>& values);

    /**
     * \brief Open a further trace file (algorithm-specific: beliefs.csv, ccp.csv, ...),
     * written like the others: to a temporary file renamed by Finish(), removed if the run
     * does not finish.
     * \param file file name in outDir (e.g. "beliefs.csv")
     * \param header the header row, without the newline
     * \return the stream to write rows to (valid until the helper is destroyed)
     * \throws std::runtime_error if the file cannot be created or is open already
     */
    std::ostream& OpenTrace(const std::string& file, const std::string& header);

    /**
     * \brief Open rounds.csv (`round,sim_time_s,node,metric,value`); WriteRound() rows go
     * there. Scenarios that learn call it before simulating (ConnectRounds() does) so that
     * the file exists even if no round completes.
     */
    void EnableRounds();

    /**
     * \brief Write netanim.xml, an animation NetAnim opens (the XML ns-3's AnimationInterface
     * writes, version netanim-3.108, written here for both backends): each node (device i
     * has id i, the server nDevices) at its position when called, and one packet element
     * `p` per messages.csv row, from its sender to its receiver, over the time it was on the
     * air (sent to received if it never went on the air), with its kind and id as
     * meta-info. NetAnimPositions() takes the node updates of moving nodes.
     * \param nodes the devices, then the server if any
     */
    void EnableNetAnim(NodeContainer nodes);
    /**
     * \brief A trace file whose content is written once, when the run finishes (before the
     * files are published): e.g. ns-3's FlowMonitor statistics. Opened now, so that a
     * file that cannot be made fails the run before it simulates.
     * \param file its name in the output folder
     * \param header its first line
     * \param write what writes the rest, called by Finish() with the file's stream
     */
    void AddFinalTrace(const std::string& file,
                       const std::string& header,
                       std::function<void(std::ostream&)> write);

    /**
     * \return netanim.xml's stream for node position updates (`nu` elements, written by
     *         D2dPositionTraceWriter at positions.csv's samples), or nullptr without
     *         EnableNetAnim()
     */
    std::ostream* NetAnimPositions();

    /**
     * \brief Write a learning protocol's measurements to rounds.csv: EnableRounds(), and a
     * sink on the object's "RoundRecord" trace (D2dFlProtocol::RoundRecordTracedCallback)
     * writing every record as a row with the simulated time of the call. Objects connected
     * share the file, rows in the order fired.
     * \param protocol an object with a RoundRecord trace source (a D2dFlProtocol)
     */
    void ConnectRounds(Ptr<Object> protocol);

    /**
     * \brief Write one row of rounds.csv (EnableRounds() must have been called).
     * \param round round (or step) number
     * \param time simulated time of the measurement
     * \param node device index, -1 for the global or mean model
     * \param metric e.g. "accuracy", "loss", "mse"
     * \param value the metric's value
     */
    void WriteRound(uint32_t round,
                    Time time,
                    int64_t node,
                    const std::string& metric,
                    double value);

    /**
     * \brief The energy drawn up to now by every connected energy model and Wi-Fi meter,
     * per component: the periods reported so far plus the open ones up to now, which are
     * not closed (nothing is written, no source updated).
     * \return energy per component (J); components without energy are absent
     */
    std::map<std::string, double> GetEnergySoFar() const;

    /**
     * \brief Report the unfinished messages of every connected transport, flush the energy
     * models' open periods, close the trace files, write run.json and move everything into
     * place.
     * \param seed the run's seed
     * \param wallSeconds wall-clock duration of the run (s)
     * \throws std::runtime_error on an I/O error
     */
    void Finish(uint64_t seed, double wallSeconds);

    /** \return the output folder */
    const std::string& GetOutDir() const;
    /** \return number of messages.csv rows so far */
    uint64_t GetNMessageRows() const;
    /** \return number of energy.csv rows so far */
    uint64_t GetNEnergyRows() const;

    /** \return the module version written in run.json */
    static std::string Version();

  private:
    /**
     * \brief After a row is written: on the first error, note it (Finish() throws it) and
     * stop the simulation, so that a full disk stops the run when it happens.
     * \param stream the stream written
     * \param file its file name
     */
    void CheckWritten(const D2dTraceFile& stream, const std::string& file);

    /**
     * \brief The constructor's work after the folder's lock is held: messages.csv's and
     * energy.csv's temporary files opened, their headers written.
     */
    void Open();
    /** \brief Append one messages.csv row. */
    void WriteDelivery(const D2dDeliveryRecord& record);
    /**
     * \brief RoundRecord sink: WriteRound() at the current simulated time.
     * \param round round
     * \param node device index, or -1
     * \param metric metric
     * \param value value
     */
    void WriteRoundRecord(uint32_t round, int64_t node, const std::string& metric, double value);
    /** \brief EnergyEvent sink (D2dEnergyModel::EnergyEventTracedCallback): a row (FULL) or
     *  into the period's sums (STANDARD). */
    void WriteEnergy(Time time,
                     uint32_t node,
                     const std::string& component,
                     double energyJ,
                     double remainingJ,
                     Time start,
                     double powerW);

    /**
     * \brief Append one energy.csv row.
     * \param time end of its (last) period
     * \param node device index
     * \param component energy component
     * \param energyJ energy of its periods, J
     * \param remainingJ remaining energy after the last, J
     * \param start start of its (first) period
     * \param duration its periods' summed duration
     * \param powerW the component's draw (FULL), or energyJ / duration (STANDARD), W
     * \param periods periods of draw it sums
     */
    void WriteEnergyRow(Time time,
                        uint32_t node,
                        const std::string& component,
                        double energyJ,
                        double remainingJ,
                        Time start,
                        Time duration,
                        double powerW,
                        uint64_t periods);

    /** STANDARD: the energy of one (device, component) since its last row. */
    struct EnergySum
    {
        double energyJ{0};    //!< energy of its periods, J
        double remainingJ{0}; //!< remaining energy after its last period, J
        Time first;           //!< start of its first period
        Time last;            //!< end of its last period
        Time duration;        //!< its periods' summed duration
        uint64_t order{0};    //!< arrival order of its last period
        uint64_t periods{0};  //!< periods of draw summed
    };

    /** the output folder, its lock and the temporary files until they are published: made
     *  first, destroyed last (after the streams), when it removes what was not published */
    D2dTraceFolder m_folder;
    Level m_level{FULL};                            //!< trace level
    bool m_spectrumColumns{false};                  //!< messages.csv's spectrum columns
    Time m_energyPeriod{Seconds(1)};                //!< STANDARD: period of the energy.csv rows
    Time m_energyPeriodEnd{Seconds(1)};             //!< STANDARD: end of the current energy period
    std::set<std::string> m_untracedKinds;          //!< STANDARD: kinds left out of messages.csv
    std::map<std::string, uint64_t> m_untracedRows; //!< their rows, per kind
    /** STANDARD: energy since the last row, per (device, component) */
    std::map<std::pair<uint32_t, std::string>, EnergySum> m_energySums;
    uint64_t m_energyEvents{0}; //!< STANDARD: energy periods reported so far
    // The buffers outlive the streams that use them: declared first, destroyed last.
    std::vector<char> m_messagesBuffer;                  //!< buffer of m_messages
    std::vector<char> m_energyBuffer;                    //!< buffer of m_energy
    D2dTraceFile m_messages;                             //!< messages.csv's temporary file
    D2dTraceFile m_energy;                               //!< energy.csv's temporary file
    std::vector<Ptr<D2dTransport>> m_transports;         //!< connected, in connection order
    std::unordered_set<const D2dTransport*> m_connected; //!< the same, for lookups
    std::vector<Ptr<D2dEnergyModel>> m_energyModels;     //!< connected (ConnectEnergyModel)
    std::vector<Ptr<D2dWifiEnergyMeter>> m_wifiMeters;   //!< Wi-Fi radios' energy
    /// The sinks, made once and connected to every device: each connection then shares
    /// one callback object (about 64 bytes per device and trace source less).
    Callback<void, const D2dDeliveryRecord&> m_deliverySink;
    Callback<void, Time, uint32_t, const std::string&, double, double, Time, double>
        m_energySink;           //!< ditto
    D2dRunRecord m_record;      //!< run.json's parameters and summary
    uint64_t m_nMessageRows{0}; //!< messages.csv rows written
    uint64_t m_nEnergyRows{0};  //!< energy.csv rows written
    /** Further trace files (OpenTrace), in opening order: (file name, stream). */
    std::vector<std::pair<std::string, std::unique_ptr<D2dTraceFile>>> m_extra;
    D2dTraceFile* m_rounds{nullptr};  //!< rounds.csv once EnableRounds() was called
    D2dTraceFile* m_netanim{nullptr}; //!< netanim.xml once EnableNetAnim() was called
    /** AddFinalTrace(): (the file's stream, what writes it at Finish()) */
    std::vector<std::pair<std::ostream*, std::function<void(std::ostream&)>>> m_finalTraces;
    /** energy of the periods reported so far, per component (J): GetEnergySoFar() */
    std::map<std::string, double> m_reportedEnergyJ;
    /** (round, time) of the last rounds.csv energy rows; round -1 before the first */
    std::pair<int64_t, Time> m_lastEnergyRound{-1, Time()};
    std::string m_writeError; //!< the first write error (CheckWritten)
};

} // namespace ns3

#endif /* D2D_TRACE_HELPER_H */
