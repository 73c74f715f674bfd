/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_PREDICTION_CONSENSUS_H
#define D2D_PREDICTION_CONSENSUS_H

#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-trust-matrix.h"
#include "ns3/d2d-trust-rules.h"
#include "ns3/event-id.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Collaborative learning via prediction consensus (Fan, Mendler-Dünner, Jaggi 2023,
 * Algorithm 1) over D2D links: agents share predictions on a shared unlabeled set X*, not
 * model parameters.
 *
 * Rounds 1..WarmupRounds train locally (lambda = 0, no message). Each later round t:
 * 1. every live, idle agent predicts on X* (a compute job: forward FLOPs x n*) and
 *    broadcasts its n* x C predictions Y_i^(t-1) (kind "predictions", 4 or 2 bytes per
 *    value by Compression, plus HeaderBytes; one item per X* row);
 * 2. the exchange phase ends when every broadcast has finished (send-done; unreliable
 *    delivery: ReceptionGuard later, as receptions follow the end of a transmission by a
 *    propagation delay) or at RoundDeadline after the round's start; a prediction that did
 *    not arrive complete by then (lost, or delivered with fragments missing) is missing: LossRule
 * renormalize drops its column and renormalises the row over what arrived, reuse takes the last
 * complete predictions received from that peer (missing if none);
 * 3. each agent computes its trust row (eq. 6, Trust = dynamic: every TrustEvery-th
 *    collaboration round, the kept row restricted to the present peers in between; static:
 *    once, at its first collaboration round, then kept; naive: 1/|present|; regression:
 *    D2dTrustRules::RegressionTrustRow, which needs Confidence none), the
 *    pseudo-labels psi_i = sum_j w_ij Y_j (eq. 1), and
 * 4. trains LocalEpochs on L(f(X_i), y_i) + Lambda dist(f(X*), psi_i) (eqs. 2-3; the
 *    learner's distillation, DistillBatch X* rows per step).
 * The round ends when every training job has completed, or RoundDeadline after the
 * training phase started; agents still busy are stragglers (left out until their job
 * completes); an agent whose battery is empty stops for good.
 *
 * Traces: RoundRecord (rounds.csv): per agent `accuracy`, `loss` (test set) and
 * `xstar_accuracy` (on X*'s held-out labels, the paper's metric); node -1: the means over the
 * regular agents (SetLowQuality's are left out, as in the paper's Table 1), with
 * `round_time_s`, `participants`, `stragglers`, `bytes_sent`. Trust: one record per
 * (round, agent, peer) with w_ij and how peer j's predictions were at hand (fresh,
 * reused, missing). Consensus: one record per (round, agent) with the round's matrix
 * diagnostics (D2dTrustRules): an agent that computed no row this round has the row e_i
 * (it keeps its own predictions).
 */
class D2dPredictionConsensus : public D2dFlProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dPredictionConsensus();

    /** Values of the Trust attribute. */
    enum TrustMode
    {
        NAIVE = D2dTrustMatrix::NAIVE,     //!< w_ij = 1/N (soft majority voting)
        STATIC = D2dTrustMatrix::STATIC,   //!< eq. 6 once, at the first collaboration round, kept
        DYNAMIC = D2dTrustMatrix::DYNAMIC, //!< eq. 6 every TrustEvery-th collaboration round
    };

    /** Values of the LossRule attribute. */
    enum LossRule
    {
        RENORMALIZE, //!< drop a missing peer's column, renormalise over what arrived
        REUSE,       //!< use the last predictions received from that peer
    };

    /** Header bytes of a predictions message (kind, round, origin, n*, C). */
    static constexpr uint64_t HeaderBytes = 32;

    /**
     * \param xstar the shared set X* (its labels are used only to measure xstar_accuracy)
     */
    void SetSharedSet(std::shared_ptr<const D2dDataset> xstar);

    /**
     * \return bytes on the air of one predictions message (n* x C values + HeaderBytes)
     */
    uint64_t PredictionMessageBytes() const;

    /** \return the trust matrix of the last collaboration round (rows e_i where none) */
    const std::vector<std::vector<double>>& GetTrustMatrix() const;
    /**
     * \param device an agent
     * \return its pseudo-labels psi (eq. 1, n* x C row-major) of the last collaboration
     * round, null if it computed none (or before the first)
     */
    std::shared_ptr<const std::vector<float>> GetPseudoLabels(uint32_t device) const;

    /** One Consensus record: an agent's view of a collaboration round. */
    struct ConsensusRecord
    {
        uint32_t round{0};          //!< the collaboration round
        uint32_t node{0};           //!< the agent
        uint32_t fresh{0};          //!< peers' predictions received this round (itself included)
        uint32_t reused{0};         //!< peers whose last predictions were reused
        uint32_t missing{0};        //!< peers left out
        double selfTrust{0};        //!< w_ii
        double columnSum{0};        //!< sum_i w_ij (j = node)
        double columnSumOffDiag{0}; //!< sum_{i != j} w_ij
        double consensusWeight{0};  //!< pi_j of this round's W (ConsensusDistribution)
        double trace{0};            //!< tr(W)
        double delta{0};            //!< eq. 8 of W
        double lambda{0};           //!< eq. 9 of W
        double productDelta{0};     //!< eq. 8 of W^(t) ... W^(first): Lemma 1's left side
        double disagreement{0};     //!< on X*, over the fresh predictions of the round
    };

    /** Signature of the Trust trace: (round, agent, peer, w, "fresh"|"reused"|"missing"). */
    typedef void (*TrustTracedCallback)(uint32_t round,
                                        uint32_t node,
                                        uint32_t peer,
                                        double w,
                                        const std::string& received);
    /** Signature of the Consensus trace. */
    typedef void (*ConsensusTracedCallback)(const ConsensusRecord& record);

    /**
     * \return true: the predictions are broadcast over D2D (SetTransports); initialization
     * registers a receive handler (kind "predictions") and a send-done handler on each
     * transport
     */
    bool UsesD2d() const override;

  protected:
    /** \brief Finish the set-up once every attribute is set (Object::DoInitialize). */
    void DoInitialize() override;
    /**
     * \brief With CommonInitialModel, every device of device 0's architecture takes device 0's
     * initial weights; then round 0's record (before training) and round 1.
     */
    void DoStart() override;
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    /** \brief Begin a round: predictions (collaboration) or training (warm-up). */
    void StartRound();
    /** \brief A prediction job finished: keep and broadcast. */
    void Predicted(uint32_t device, uint32_t round, const D2dTrainResult& result);
    /** \brief A transport's receive handler. */
    void Receive(const D2dReception& reception);
    /** \brief A transport's send-done handler. */
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    /** \brief End the exchange phase if nothing is pending. */
    void MaybeEndExchange();
    /** \brief Trust, pseudo-labels, and the training jobs. */
    void EndExchange();
    /** \brief Start the training jobs (psi: per device, null for local training). */
    void StartTraining(const std::vector<std::shared_ptr<const std::vector<float>>>& psi);
    /** \brief A training job finished. */
    void Trained(uint32_t device, uint32_t round);
    /** \brief Record and go on. */
    void EndOfRound();
    /** \return C, the classes of X* (1 for regression) */
    uint32_t Classes() const;
    /** \param mode the Trust attribute (D2dTrustMatrix) */
    void SetTrust(TrustMode mode);
    /** \return the Trust attribute */
    TrustMode GetTrust() const;
    /** \param confidence the Confidence attribute, a D2dConfidence (D2dTrustMatrix) */
    void SetConfidence(int confidence);
    /** \return the Confidence attribute */
    int GetConfidence() const;
    /** \param every the TrustEvery attribute (D2dTrustMatrix) */
    void SetTrustEvery(uint32_t every);
    /** \return the TrustEvery attribute */
    uint32_t GetTrustEvery() const;
    /** \brief The round's rounds.csv figures of the agents (round 0: before training). */
    void EndOfRoundRecord(uint32_t round);

    std::shared_ptr<const D2dDataset> m_xstar; //!< X*, the shared unlabelled set (SetSharedSet)
    /** the trust: Trust, Confidence and TrustEvery, the rows kept, W, the pseudo-labels */
    D2dTrustMatrix m_trust;
    LossRule m_lossRule;       //!< attribute LossRule
    double m_lambda;           //!< weight of eq. 2's disagreement term (0: local training)
    uint32_t m_warmup;         //!< rounds of local training only (attribute WarmupRounds)
    uint32_t m_distillBatch;   //!< X* rows per training step in the distillation term
    bool m_commonInitialModel; //!< attribute CommonInitialModel
    Time m_receptionGuard;     //!< unreliable: wait after the last send-done for receptions

    /** Where the current round is. */
    enum Phase
    {
        IDLE,     //!< no round running (before round 1, between EndOfRound and the next)
        EXCHANGE, //!< the agents predict on X* and broadcast their predictions
        TRAINING  //!< the training jobs run (warm-up rounds start here)
    };

    Phase m_phase{IDLE};                         //!< the current round's phase
    bool m_exchangeEnding{false};                //!< EndExchange is scheduled
    uint32_t m_collaborationRound{0};            //!< collaboration rounds begun
    std::set<uint32_t> m_predicting;             //!< prediction jobs not completed
    std::map<uint64_t, uint32_t> m_pendingSends; //!< broadcasts not finished -> sender
    /** Predictions made this round, by device (null: none). */
    std::vector<std::shared_ptr<const std::vector<float>>> m_own;
    /** m_fresh[i][j]: j's predictions of this round received complete by i. */
    std::vector<std::vector<std::shared_ptr<const std::vector<float>>>> m_fresh;
    /** m_last[i][j]: the last complete predictions i received from j (any round). */
    std::vector<std::vector<std::shared_ptr<const std::vector<float>>>> m_last;
    std::set<uint32_t> m_running; //!< training jobs not completed
    uint32_t m_completed{0};      //!< training jobs of the round completed (its participants)
    /** The phase's end: RoundDeadline, or the end of the exchange after ReceptionGuard */
    EventId m_deadlineEvent;
    /** Trust: (round, agent, peer, w_ij, "fresh"|"reused"|"missing") */
    TracedCallback<uint32_t, uint32_t, uint32_t, double, const std::string&> m_trustTrace;
    TracedCallback<const ConsensusRecord&> m_consensusTrace; //!< Consensus
};

} // namespace ns3

#endif /* D2D_PREDICTION_CONSENSUS_H */
