/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BELIEF_CONSENSUS_H
#define D2D_BELIEF_CONSENSUS_H

#include "d2d-belief-consensus-matrix.h"
#include "d2d-belief-learner.h"
#include "d2d-belief-payload.h"

#include "ns3/d2d-transport.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The distributed learning algorithm of Lalitha et al. 2018 (sec. 3 of A. Lalitha,
 * S. Shekhar, T. Javidi, F. Koushanfar, "Fully Decentralized Federated Learning", Third
 * Workshop on Bayesian Deep Learning, NeurIPS 2018) run over D2dTransports, for a whole
 * network (one object drives every device). It talks only to the transports (the D2D
 * channel's radios, D2dChannel::GetTransports, or the Wi-Fi backend's D2dWifiTransports):
 * when a belief goes on the air is the business of the channel access below it (D2dChannel
 * attribute AccessPolicy; Scheduled keeps half-duplex radios from losing each other's
 * beliefs).
 *
 * Timing. The paper's algorithm runs in synchronous instants k = 1 .. n; the only timing
 * of this protocol is that rule: instant (step) k starts at (k - 1) x StepInterval and
 * ends at its deadline k x StepInterval, where every device applies eq. (3). Each live
 * device draws its sample and forms its public belief b_i^(k) by eq. (2)
 * (D2dBeliefLearner::StartLocalUpdate: at once, or at the completion of a training job in
 * simulated time), then, as step 3 says, sends it at once in a D2dMessage of kind
 * "belief" (KIND; size: the belief's values x D2dBeliefLearner::GetBytesPerValue(), 8 for
 * float64; the payload a D2dBeliefPayload shared by reference) to its out-neighbours in
 * W: one broadcast to every device that hears it (attribute Broadcast, default) or one
 * unicast per out-neighbour, in the delivery mode of attribute Reliable. Receptions come
 * through a handler registered for kind "belief" only (D2dTransport::AddReceiveHandler),
 * so other protocols may share the transports. A device whose update has not completed
 * at the deadline skips the step's consensus (its private belief stays; trace
 * LocalUpdateMissed) and the late result is discarded.
 *
 * At the step deadline k x StepInterval every live device applies eq. (3) over itself and
 * its in-neighbours j (W_ij > 0). Neighbour j's belief is *fresh* if b_j^(k) arrived
 * complete before the deadline. Otherwise (lost, partial, late, or j's battery is empty)
 * the LossRule decides:
 *  - REUSE: the last belief received from j (of an earlier step, or a late one of this
 *    step's predecessors); before any belief from j has arrived, j's initial public belief
 *    b_j^(0), the prior (uniform for discrete beliefs). W's row is used as is.
 *  - RENORMALIZE: j is left out and row i of W is renormalized over the in-neighbours whose
 *    belief is fresh plus i itself (always included: its own b_i^(k) is local).
 * The "Consensus" trace reports, per step and device, how many in-neighbours were fresh,
 * reused and renormalized out.
 *
 * Cooperation ISOLATED: no messages; each device's private belief is its public one
 * (eq. 3 with W = I). CENTRAL: one learner gets every device's sample at each step
 * (D2dBeliefLearner::CentralStep), no messages. A device whose battery is depleted
 * (transport off) stops: no sample, no update, no send; its private belief stays.
 *
 * After the deadline of step k (every device's consensus done), "StepDone" fires with k.
 */
class D2dBeliefConsensus : public Object
{
  public:
    /** How a missing neighbour belief is handled at the deadline. */
    enum LossRule
    {
        REUSE,      //!< last belief received from the neighbour (initially its prior)
        RENORMALIZE //!< leave it out; renormalize the row of W over what arrived
    };

    /** Who learns with whom. */
    enum Cooperation
    {
        NETWORK,  //!< eqs. (2)-(3) over the D2D channel
        ISOLATED, //!< eq. (2) only, no messages
        CENTRAL   //!< one central learner with all samples
    };

    /** The message kind of a public belief (its receive handler takes only this kind). */
    static constexpr const char* KIND = "belief";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dBeliefConsensus();
    ~D2dBeliefConsensus() override;

    /** \param learner the beliefs of every device */
    void SetLearner(Ptr<D2dBeliefLearner> learner);
    /** \param w the consensus matrix (checked by the caller) */
    void SetMatrix(const D2dBeliefConsensusMatrix& w);
    /**
     * \param transports transport i is device i's (e.g. D2dChannel::GetTransports(), or
     * the D2dWifiTransports of D2dWifiHelper::Install()); Start() registers a receive
     * handler for kind "belief" on each (removed by Dispose), other handlers stay
     */
    void SetTransports(const std::vector<Ptr<D2dTransport>>& transports);
    /**
     * \param i device
     * \return true if it takes part: its transport is on (its battery not depleted), or the
     *         protocol was given no transports (SetTransports with none: nothing is sent,
     *         every device learns)
     */
    bool IsLive(uint32_t i) const;
    /** \brief Schedule the steps from now on. */
    void Start();

    /** \return the last step whose deadline has passed */
    uint32_t GetCompletedSteps() const;
    /** \return the time the last step ends (Steps x StepInterval after Start) */
    Time GetDuration() const;
    /** \return totals over all steps and devices: fresh, reused, renormalized out */
    std::vector<uint64_t> GetTotals() const;
    /** \return (step, live device) pairs whose local update missed the deadline */
    uint64_t GetMissedUpdates() const;

    /**
     * Signature of the Consensus trace.
     * \param step k
     * \param node device i
     * \param fresh in-neighbours whose b_j^(k) arrived in time
     * \param reused in-neighbours replaced by their last belief (REUSE)
     * \param renormalizedOut in-neighbours left out (RENORMALIZE)
     */
    typedef void (*ConsensusTracedCallback)(uint32_t step,
                                            uint32_t node,
                                            uint32_t fresh,
                                            uint32_t reused,
                                            uint32_t renormalizedOut);
    /** Signature of the StepDone trace. \param step k */
    typedef void (*StepDoneTracedCallback)(uint32_t step);
    /** Signature of the LocalUpdateMissed trace. \param step k \param node device i */
    typedef void (*LocalUpdateMissedTracedCallback)(uint32_t step, uint32_t node);

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \param k step to begin: local updates and sends */
    void BeginStep(uint32_t k);
    /** \param k step whose deadline it is: consensus, then the next step */
    void Deadline(uint32_t k);
    /**
     * \param i device
     * \param k step
     * \param values b_i^(k), the local update's result
     */
    void LocalDone(uint32_t i, uint32_t k, const std::vector<double>& values);
    /** \param i device \param k step: send b_i^(k) (step 3 of sec. 3) */
    void SendBelief(uint32_t i, uint32_t k);
    /** \param reception a belief received */
    void Receive(const D2dReception& reception);

    Time m_stepInterval;       //!< one step's duration, start to deadline (attribute StepInterval)
    uint32_t m_steps;          //!< n: steps, samples per device (attribute Steps)
    LossRule m_lossRule;       //!< attribute LossRule
    Cooperation m_cooperation; //!< attribute Cooperation
    bool m_broadcast;          //!< attribute Broadcast (false: a unicast per out-neighbour)
    bool m_reliable;           //!< attribute Reliable: beliefs sent with ARQ

    Ptr<D2dBeliefLearner> m_learner; //!< every device's beliefs: eqs. (2) and (3)
    D2dBeliefConsensusMatrix m_w;    //!< W: W_ij is the weight of j's belief at i in eq. (3)
    std::vector<Ptr<D2dTransport>> m_transports; //!< device i's transport at i
    /** The handler registered on every transport for kind "belief" (null until Start). */
    D2dTransport::ReceiveCallback m_receiveCb;
    std::vector<std::vector<uint32_t>> m_in;  //!< in-neighbours of each device, ascending
    std::vector<std::vector<uint32_t>> m_out; //!< out-neighbours of each device, ascending
    /** Per device, per in-neighbour (same order as m_in): the newest belief received. */
    std::vector<std::vector<std::shared_ptr<const D2dBeliefPayload>>> m_last;
    std::vector<std::shared_ptr<const D2dBeliefPayload>> m_initial; //!< b_j^(0)
    std::vector<std::shared_ptr<const D2dBeliefPayload>> m_public;  //!< b_i^(k)
    uint32_t m_currentStep{0}; //!< the step begun last (0: none yet)
    uint32_t m_completed{0};   //!< the last step whose deadline has passed (0: none)
    /** Over all steps and devices: in-neighbours fresh, reused, renormalized out */
    std::vector<uint64_t> m_totals{0, 0, 0};
    uint64_t m_missed{0}; //!< local updates not completed by their deadline

    /** Consensus: (step, device, fresh, reused, renormalized out) after eq. (3) */
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t> m_consensusTrace;
    TracedCallback<uint32_t> m_stepDoneTrace;         //!< StepDone: (step)
    TracedCallback<uint32_t, uint32_t> m_missedTrace; //!< LocalUpdateMissed: (step, device)
};

} // namespace ns3

#endif /* D2D_BELIEF_CONSENSUS_H */
