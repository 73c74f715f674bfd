/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BELIEF_LEARNER_H
#define D2D_BELIEF_LEARNER_H

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The learning side of Lalitha et al. 2018's algorithm for every device of a network: the
 * private beliefs rho_i, the local samples and likelihoods, the local Bayesian update
 * eq. (2) and the consensus eq. (3). D2dBeliefConsensus drives it over the channel.
 *
 * Public beliefs are exchanged as vectors of values (D2dBeliefPayload). A central learner
 * (node -1 in traces) sees every device's sample of a step (CentralStep), drawn from the
 * same per-device random streams, so that central, isolated and cooperative runs with
 * one seed see the same data.
 */
class D2dBeliefLearner : public Object
{
  public:
    /**
     * \brief Get the type ID (an abstract class: its subclasses are made with their
     * constructors' arguments, CreateObject<T>(...)).
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~D2dBeliefLearner() override;

    /** \return number of devices N */
    virtual uint32_t GetNDevices() const = 0;
    /** \return number of values of a public belief */
    virtual uint32_t GetNValues() const = 0;
    /** \param i device \return the initial public belief b_i^(0) (the prior) */
    virtual std::vector<double> GetInitialPublic(uint32_t i) const = 0;
    /**
     * \brief Steps 1-2: device i draws its sample and updates its private belief by
     * eq. (2) into its public belief.
     * \param i device
     * \return b_i^(k)
     */
    virtual std::vector<double> LocalUpdate(uint32_t i) = 0;
    /**
     * \brief Steps 1-2 in simulated time: start device i's local update; `done` gets b_i^(k)
     * when it completes. The default calls LocalUpdate(i) and `done` at once (an update
     * that takes no time); a learner whose update is a training job (D2dVariationalLearner)
     * calls `done` at the job's completion event, or never (battery depleted mid-job).
     * \param i device
     * \param done called with b_i^(k)
     * \return false if the update could not start (depleted battery, or a job still running)
     */
    virtual bool StartLocalUpdate(uint32_t i, Callback<void, const std::vector<double>&> done);
    /**
     * \return bytes of one value of a public belief on the air (the message size is this
     * times GetNValues()); default 8 (float64)
     */
    virtual uint64_t GetBytesPerValue() const;
    /**
     * \brief Step 4, eq. (3): the private belief of i from weighted public beliefs.
     * \param i device
     * \param weights the weights (W_ij, or W_ij renormalized)
     * \param publicBeliefs b_j, one per weight
     */
    virtual void Consensus(uint32_t i,
                           const std::vector<double>& weights,
                           const std::vector<const std::vector<double>*>& publicBeliefs) = 0;
    /** \brief One step of the central learner: every device's sample, eq. (2) applied to one
     * belief. */
    virtual void CentralStep() = 0;

    /** \return the header of beliefs.csv after "step,node," */
    virtual std::string GetBeliefsHeader() const = 0;
    /** \param node device, or -1 for the central learner \return the row after "step,node," */
    virtual std::string GetBeliefsRow(int64_t node) const = 0;
    /**
     * \param node device, or -1 for the central learner
     * \return (metric, value) pairs for rounds.csv
     */
    virtual std::vector<std::pair<std::string, double>> GetMetrics(int64_t node) const = 0;

    /**
     * \param stream first RNG stream index
     * \return number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream) = 0;
};

} // namespace ns3

#endif /* D2D_BELIEF_LEARNER_H */
