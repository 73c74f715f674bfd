/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_SUPERVISED_PARADIGM_H
#define D2D_SUPERVISED_PARADIGM_H

#include "d2d-discovery-paradigm.h"
#include "d2d-diversity-rewards.h"
#include "d2d-trust-matrices.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The supervised paradigm of Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement
 * Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025, sec. V-A: partitions
 * are labels, the messages are label vectors (eqs. (9)-(11), D2dMessagePassing), and g is the
 * distance (W1 or JS) between the label histograms before and after the exchange when eq. (8)
 * holds after it.
 *
 * Attributes: ThresholdOn (allocated: eq. (8) is checked on D_i + U - sent, the loss-free
 * counts, the default; expected: on D-hat_i with (1 - P_D) U, the literal reading, under which
 * a receiver that needs a new label cannot reach b_i over a lossy link), Metric (w1 | js),
 * BytesPerCount (8 bits per entry as in the paper's sec. IV-C), RequestBytes.
 */
class D2dSupervisedParadigm : public D2dDiscoveryParadigm
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dSupervisedParadigm();

    /** Values of ThresholdOn: the counts eq. (8) is checked on inside g. */
    enum ThresholdOn
    {
        ON_ALLOCATED, //!< the loss-free D_i + U - sent
        ON_EXPECTED   //!< D-hat_i with (1 - P_D) U (the literal reading)
    };

    /** Values of Metric: the distance of the label histograms (D2dDiversityRewards::Metric). */
    enum Metric
    {
        METRIC_W1, //!< 1-Wasserstein
        METRIC_JS  //!< Jensen-Shannon
    };

    /** Values of Trust: the trust matrices (D2dTrustMatrices::Structures(), in order). */
    enum Trust
    {
        TRUST_RANDOM,        //!< random
        TRUST_ROW_SPARSE,    //!< row-sparse
        TRUST_COLUMN_SPARSE, //!< column-sparse
        TRUST_BLOCK,         //!< block
        TRUST_FILE           //!< read from TrustFile
    };

    /**
     * \brief Set the state of every device.
     * \param counts D_i (N x L)
     * \param thresholds b_i (N x L)
     * \param minLabels L-hat_i (N)
     * \param trust T_j (N devices, L labels)
     */
    void Setup(std::vector<D2dFractionalCounts> counts,
               std::vector<D2dFractionalCounts> thresholds,
               std::vector<uint32_t> minLabels,
               D2dTrustMatrices trust);

    /**
     * \brief Make the trust matrices T_j (attributes Trust, TrustDensity, TrustFile; a
     * TrustFile given is the trust whatever Trust says). Prepare() calls it unless it was
     * called for these N and L, so that a caller can check a trust file before any output.
     * \param nDevices N
     * \param nLabels L
     * \param seed the run's seed (the generated structures draw from seed + 7)
     * \throws std::runtime_error for a file that cannot be read or has the wrong shape, or
     *         Trust file without a TrustFile
     */
    void LoadTrust(uint32_t nDevices, uint32_t nLabels, uint64_t seed);

    /**
     * \brief The supervised preparation: D_i from the partitions' labels, b_i[l] =
     * floor(ThresholdFraction |D_i|) for every label, L-hat_i = MinLabels (0: the labels i
     * satisfies initially + 1, at most L), the trust matrices (LoadTrust), then done at once.
     * \param data the devices' data
     * \param done called before Prepare returns
     */
    void Prepare(const Data& data, Callback<void> done) override;

    /** \return N, the devices Setup() was given */
    uint32_t GetNDevices() const override;
    /** \return L, the labels of the trust matrices */
    uint32_t GetNPartitions() const override;
    /** \param device i \return D_i: its datapoints per label */
    const D2dFractionalCounts& GetCounts(uint32_t device) const override;
    /** \param device i \param counts its new D_i (after an exchange of datapoints) */
    void SetCounts(uint32_t device, const D2dFractionalCounts& counts) override;
    /** \return the size of a link request, bytes (attribute RequestBytes) */
    uint64_t GetRequestBytes() const override;
    /** \return the size of V, Q and U, bytes each: BytesPerCount x L */
    uint64_t GetVectorBytes() const override;
    /**
     * \brief Eq. (9) (D2dMessagePassing::Available): the labels j trusts i with and has
     * beyond b_j.
     * \param transmitter j
     * \param receiver i
     * \return V_{j->i}
     */
    D2dFractionalCounts Offer(uint32_t transmitter, uint32_t receiver) const override;
    /**
     * \brief Eq. (10) (D2dMessagePassing::Request): b_i - D_i on the labels offered.
     * \param receiver i
     * \param offer V_{j->i}
     * \return Q_{j->i}
     */
    D2dFractionalCounts Demand(uint32_t receiver, const D2dFractionalCounts& offer) const override;
    /**
     * \brief Eq. (11) (D2dMessagePassing::Allocate): the demands, scaled down to j's spare
     * D_j - b_j where they exceed it.
     * \param transmitter j
     * \param demands the demands that reached j, one per requester
     * \return U_{j->i} for each demand, in order
     */
    std::vector<D2dFractionalCounts> Allocate(
        uint32_t transmitter,
        const std::vector<D2dFractionalCounts>& demands) const override;
    /**
     * \brief g (D2dDiversityRewards::Gain): the Metric distance from D_i to D-hat_i =
     * D_i + (1 - P_D) U - sent if eq. (8) holds (L-hat_i labels at or above b_i) on the
     * ThresholdOn counts, else 0.
     * \param receiver i
     * \param allocated U_{j->i} (zeros if no allocation arrived)
     * \param pDrop P_D(i, j) of the edge (0 if none)
     * \param sent what i allocates to its own requesters this step
     * \return the score g
     */
    double Gain(uint32_t receiver,
                const D2dFractionalCounts& allocated,
                double pDrop,
                const D2dFractionalCounts& sent) const override;
    /**
     * \param transmitter j
     * \param receiver i
     * \return the labels j offers i (the sum of V_{j->i}): the most-trusted baseline's score
     */
    double Shareable(uint32_t transmitter, uint32_t receiver) const override;
    /** \param device i \return the labels l with D_i[l] >= b_i[l] (eq. (8) count) */
    uint32_t Satisfied(uint32_t device) const override;

    /** \return b_i */
    const D2dFractionalCounts& GetThresholds(uint32_t device) const;
    /** \return L-hat_i \param device i */
    uint32_t GetMinLabels(uint32_t device) const override;
    /** \return the labels device i satisfied when Setup gave its D_i (eq. (8) count) */
    uint32_t GetSatisfiedBefore(uint32_t device) const;
    /** \return the trust matrices */
    const D2dTrustMatrices& GetTrust() const;

  private:
    std::vector<D2dFractionalCounts> m_counts;     //!< D_i of device i, per label
    std::vector<D2dFractionalCounts> m_thresholds; //!< b_i of device i, per label (eq. (8))
    std::vector<uint32_t> m_minLabels;             //!< L-hat_i of device i
    std::vector<uint32_t> m_satisfiedBefore;       //!< Satisfied(i) when Setup ran
    D2dTrustMatrices m_trust;                      //!< the trust matrices T_j (N devices, L labels)
    double m_thresholdFraction;                    //!< b_i[l] / |D_i| (attribute ThresholdFraction)
    uint32_t m_minLabelsGiven;                     //!< attribute MinLabels (0: per device)
    Trust m_trustStructure;                        //!< attribute Trust
    double m_trustDensity;                         //!< attribute TrustDensity
    std::string m_trustFile;                       //!< attribute TrustFile
    ThresholdOn m_thresholdOn;                     //!< attribute ThresholdOn
    Metric m_metric;                               //!< attribute Metric
    uint32_t m_bytesPerCount;                      //!< bytes per entry of V, Q, U (BytesPerCount)
    uint32_t m_requestBytes;                       //!< link request size, bytes (RequestBytes)
};

} // namespace ns3

#endif /* D2D_SUPERVISED_PARADIGM_H */
