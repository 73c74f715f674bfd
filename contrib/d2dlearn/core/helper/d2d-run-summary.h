/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RUN_SUMMARY_H
#define D2D_RUN_SUMMARY_H

#include "d2d-streaming-quantile.h"

#include "ns3/d2d-delivery.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The summary of a run that run.json holds (its "summary" object), accumulated from
 * the same records that the trace files get: what a campaign tool collects into one row per
 * run (analysis/sweep.py collect).
 *
 * D2dTraceHelper feeds it every messages.csv row (AddDelivery), every energy.csv row
 * (AddEnergy) and every rounds.csv row (AddRound), so each number can be recomputed from
 * the trace files alone:
 *
 * - learning metric (`metric`): the first of `accuracy`, `mse`, `error` that has node -1
 *   rows (the global model, or the mean over devices), else the first that has device
 *   rows, whose curve is then the per-round mean over the device rows (bayes-consensus
 *   writes no node -1 rows for its network runs): `metric_from` is "node -1" or "device
 *   mean"; `final_<metric>` is the value of the highest round (of node -1: the last row
 *   written for that round), `best_<metric>` the maximum (accuracy) or minimum (mse,
 *   error) over the rounds and `best_<metric>_round` the first round where it occurs;
 *   values are those of rounds.csv (9 significant digits);
 * - `rounds_completed`: the highest round of those rows (of any rounds.csv row if the run
 *   has none of those metrics); present only when the run writes rounds.csv;
 * - `energy_j`: the sum of energy_j per component (the six of energy.csv always, zero when
 *   absent, and any other seen) and `total`, the sum of all rows, J;
 * - `message_rows`, `messages` (distinct msg_id), `complete_delivery_rate` (rows with
 *   complete = 1 over all rows: 1 - loss), `delivered_rate` (rows with delivered = 1, which
 *   counts partial unreliable deliveries), `fragments` and `retransmissions` (per distinct
 *   message: its fragments, and the largest retransmissions value of its rows, the sender's
 *   final count), `retransmissions_per_fragment` (their ratio) and `bytes_sent` (per
 *   distinct message its bytes: a broadcast counts once, retransmissions not at all);
 * - `kinds`: per message kind, `rows`, `complete_rate`, and over its delivered rows
 *   (t_recv_s - t_send_s) `latency_n`, `latency_mean_s` and `latency_p95_s`: the 95th
 *   percentile by linear interpolation between order statistics (Hyndman and Fan's type 7,
 *   numpy's default) while the kind has at most LATENCIES_EXACT delivered rows
 *   (`latency_p95_estimator` "exact"), beyond that the P-squared estimate of Jain and
 *   Chlamtac 1985 ("p2"; D2dStreamingQuantile), so that memory does not grow with the run;
 * - `results` (only when a scenario adds some, AddResult()): the scenario's headline
 *   results, what the run found rather than what it was given (graph discovery's mean W1 to
 *   uniform, links found and their mean P_D, energy per phase; a learning scenario's
 *   finalAccuracy, roundsCompleted, bytesSent; ...), each recomputable from the traces;
 * - `simulated_time_s`, `wall_time_s` as at the top of run.json.
 *
 * A ratio or statistic of nothing (no rows, no delivered rows) is null.
 */
class D2dRunSummary
{
  public:
    /** \param record one messages.csv row */
    void AddDelivery(const D2dDeliveryRecord& record);

    /**
     * \param component energy.csv component
     * \param energyJ energy of the row, J
     */
    void AddEnergy(const std::string& component, double energyJ);

    /**
     * \brief A scenario's headline result (what the run found, not what it was given):
     * summary key "results", an object of these in the order added. Each must be
     * recomputable from the run's trace files (analysis/audit.py recomputes them).
     * \param name key in "results" (a second call with the same name replaces the value)
     * \param json its value, valid JSON
     */
    void AddResult(const std::string& name, const std::string& json);

    /** \brief The run writes rounds.csv: report rounds_completed even if no row comes. */
    void EnableRounds();

    /**
     * \param round round (or step)
     * \param node device, -1 for the global or mean model
     * \param metric metric name
     * \param value its value, as written to rounds.csv (9 significant digits)
     */
    void AddRound(uint32_t round, int64_t node, const std::string& metric, double value);

    /**
     * \brief The summary as a JSON object, one key per line.
     * \param simulatedSeconds simulated time at the end of the run, s
     * \param wallSeconds wall-clock duration of the run, s
     * \param indent indentation of the object's closing brace (its keys get two more spaces)
     * \return the object, without a trailing newline
     */
    std::string ToJson(double simulatedSeconds,
                       double wallSeconds,
                       const std::string& indent) const;

    /**
     * \brief Percentile by linear interpolation between order statistics (Hyndman and Fan
     * 1996, type 7): with the n values sorted x_0 <= ... <= x_{n-1}, h = (n - 1) q,
     * x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)).
     * \param values the values (not empty; copied and sorted)
     * \param q the quantile, 0 to 1
     * \return the percentile
     */
    static double Percentile(std::vector<double> values, double q);
    /**
     * \return the energy.csv components every summary lists, in its order (radio_tx,
     *         radio_rx, radio_idle, compute, d2s_tx, d2s_rx, d2s_idle)
     */
    static const std::vector<std::string>& EnergyComponents();

    /**
     * \param value a double
     * \return value as rounds.csv writes it ("{:.9g}"), read back
     */
    static double AsWritten(double value);

    /** Latencies per kind kept exactly (type 7) before the P-squared estimate takes over. */
    static constexpr std::size_t LATENCIES_EXACT = 4096;

  private:
    /** AddResult(): (name, JSON value), in the order added */
    std::vector<std::pair<std::string, std::string>> m_results;

    /** Per message kind. */
    struct Kind
    {
        uint64_t rows{0};     //!< messages.csv rows
        uint64_t complete{0}; //!< of which complete
        double latencySum{0}; //!< sum of t_recv - t_send over delivered rows, s
        /** their 95th percentile: exact up to LATENCIES_EXACT values, then P-squared */
        D2dStreamingQuantile p95{0.95, LATENCIES_EXACT};
    };

    /** Per distinct message. */
    struct Message
    {
        uint64_t bytes{0};           //!< size
        uint32_t fragments{0};       //!< fragments
        uint32_t retransmissions{0}; //!< largest value over its rows
    };

    /** A metric's curve over rounds: its final and best values. */
    struct Curve
    {
        uint32_t finalRound{0}; //!< highest round seen
        double finalValue{0};   //!< its last value
        double bestValue{0};    //!< best value
        uint32_t bestRound{0};  //!< first round of the best value
        bool seen{false};       //!< any value
        bool hasBest{false};    //!< any value that is a number

        /**
         * \param round round
         * \param value value in that round
         * \param higherIsBetter accuracy: true; mse, error: false
         */
        void Add(uint32_t round, double value, bool higherIsBetter);
    };

    /** One metric's rows. */
    struct Metric
    {
        Curve global; //!< node -1 rows
        /** device rows: round -> (sum of values, rows) */
        std::map<uint32_t, std::pair<double, uint64_t>> devices;
    };

    uint64_t m_rows{0};                  //!< messages.csv rows
    uint64_t m_complete{0};              //!< rows with complete = 1
    uint64_t m_delivered{0};             //!< rows with delivered = 1
    std::map<std::string, Kind> m_kinds; //!< message kind -> its messages.csv statistics
    /** Messages whose last row has not come (D2dDeliveryRecord::lastRow); the others are
     * folded into the totals below, so that memory holds the messages in flight only. */
    std::unordered_map<uint64_t, Message> m_messages;
    uint64_t m_messagesDone{0};              //!< messages whose last row came
    uint64_t m_fragmentsDone{0};             //!< their fragments
    uint64_t m_retransmissionsDone{0};       //!< their retransmissions
    uint64_t m_bytesDone{0};                 //!< their bytes
    std::map<std::string, double> m_energy;  //!< per component, J
    double m_energyTotal{0};                 //!< all rows, J
    std::map<std::string, Metric> m_metrics; //!< known rounds.csv metric name -> its rows
    bool m_rounds{false};                    //!< rounds.csv is written
    bool m_anyRound{false};                  //!< some rounds.csv row came
    uint32_t m_maxRound{0};                  //!< highest round of any row
};

} // namespace ns3

#endif /* D2D_RUN_SUMMARY_H */
