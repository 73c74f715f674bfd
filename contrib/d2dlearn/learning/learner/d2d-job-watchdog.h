/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_JOB_WATCHDOG_H
#define D2D_JOB_WATCHDOG_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A wall-time budget for the work a user's model does: a TorchScript module's forward
 * is the user's code, and one that never returns (a loop on a data-dependent condition) would
 * hang the run for ever. Each job of such a model (the load-time probe, a training job, an
 * evaluation) holds a Guard while it runs; one monitor thread ends the process when a guard
 * outlives its budget: one line naming the job, the model and the budget, exit status 2 (with
 * the run's temporary files and empty folders removed: SetOnLate()). LibTorch has no way
 * to interrupt a running forward, so the process ends rather than the job alone.
 *
 * The budget (the scenarios' --jobWallLimit, SetLimitSeconds()): a given number of seconds
 * per job, or, by default, BASE_SECONDS + the job's counted FLOPs / AUTO_FLOPS_PER_SECOND,
 * a rate about 100 times below what LibTorch reaches on one core of this project's 2-core
 * test machine, so that no job that would finish is stopped.
 */
class D2dJobWatchdog
{
  public:
    /** Budget of a job whatever its FLOPs, s (the auto rule's constant term). */
    static constexpr double BASE_SECONDS = 5.0;
    /** The auto rule's rate, FLOP/s: a job of F FLOPs gets BASE_SECONDS + F / this. */
    static constexpr double AUTO_FLOPS_PER_SECOND = 1e8;

    /**
     * \param seconds the budget of every job, s; 0: the auto rule
     */
    static void SetLimitSeconds(double seconds);
    /**
     * \brief What ends the process for a late job, given the error line: the scenario layer
     * sets D2dStopSignals::Exit (the run's temporary files go too); by default the line goes
     * to stderr ("error: ...") and the process _exit(2)s.
     * \param onLate the function; it must not return
     */
    static void SetOnLate(void (*onLate)(const std::string& what));
    /** \return the limit SetLimitSeconds() set, s (0: auto) */
    static double GetLimitSeconds();
    /**
     * \param flops the job's work, FLOPs (as the compute model counts it)
     * \return its budget, s: the limit, or BASE_SECONDS + flops / AUTO_FLOPS_PER_SECOND
     */
    static double GetBudgetSeconds(double flops);
    /**
     * \param flops the job's work, FLOPs
     * \return how the budget came about, for the error: "a limit of 10 s (--jobWallLimit)" or
     *         "5 s + 2e+09 FLOPs at 1e+08 FLOP/s (--jobWallLimit=0, the default)"
     */
    static std::string DescribeBudget(double flops);

    /**
     * \brief While alive, the job it names must end within its budget, or the process ends.
     */
    class Guard
    {
      public:
        /**
         * \param what the job and its model, for the error: "--model=torchscript:m.pt: a
         *        training job of 1.2e+09 FLOPs"
         * \param budgetSeconds its budget, s (> 0)
         * \param budgetText how the budget came about (DescribeBudget())
         */
        Guard(const std::string& what, double budgetSeconds, const std::string& budgetText);
        ~Guard();
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

      private:
        uint64_t m_id; //!< its entry in the monitor's table
    };
};

} // namespace ns3

#endif /* D2D_JOB_WATCHDOG_H */
