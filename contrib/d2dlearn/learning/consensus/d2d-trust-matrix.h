/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TRUST_MATRIX_H
#define D2D_TRUST_MATRIX_H

#include "d2d-trust-rules.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The trust of prediction consensus (Fan, Mendler-Dünner and Jaggi, "Collaborative
 * Learning via Prediction Consensus", 2023): each device's row of the trust matrix W (eq. 6,
 * D2dTrustRules), naive, computed once (static) or every few collaboration rounds (dynamic)
 * and restricted to the present peers in between; the last round's W, its pseudo-labels
 * and the product W^(t) ... W^(first). Part of D2dPredictionConsensus, which forwards its
 * Trust, Confidence and TrustEvery attributes here.
 */
class D2dTrustMatrix
{
  public:
    /** A row-stochastic matrix, W[i][j]: device i's trust in device j. */
    using Matrix = std::vector<std::vector<double>>;

    /** How the rows are made (D2dPredictionConsensus::TrustMode, same values). */
    enum Mode
    {
        NAIVE,  //!< w_ij = 1/N over the present peers (soft majority voting)
        STATIC, //!< eq. 6 at the first collaboration round, kept
        DYNAMIC //!< eq. 6 every GetEvery() collaboration rounds
    };

    /** \param mode how the rows are made */
    void SetMode(Mode mode);
    /** \return how the rows are made */
    Mode GetMode() const;
    /** \param confidence beta_i(x) of eq. 6 */
    void SetConfidence(D2dConfidence confidence);
    /** \return beta_i(x) of eq. 6 */
    D2dConfidence GetConfidence() const;
    /** \param every dynamic trust: collaboration rounds between recomputations (>= 1) */
    void SetEvery(uint32_t every);
    /** \return collaboration rounds between recomputations */
    uint32_t GetEvery() const;

    /** \param devices N: no row kept yet (a protocol's start) */
    void Reset(uint32_t devices);
    /**
     * \brief Device i's row of W this round: naive over the present peers; eq. 6 (or its
     * regression form, D2dTrustRules::RegressionTrustRow) when no row is kept or a dynamic
     * recomputation is due, then kept; else the kept row restricted to the present peers.
     * \param i the device
     * \param seen the predictions on X* it holds of each device (null: none)
     * \param present whether it holds device j's predictions
     * \param points |X*|
     * \param classes C (1 for regression)
     * \param regression the data are regression data
     * \param collaborationRound collaboration rounds begun (1 at the first)
     * \return the row
     */
    std::vector<double> Row(uint32_t i,
                            const std::vector<const std::vector<float>*>& seen,
                            const std::vector<bool>& present,
                            uint32_t points,
                            uint32_t classes,
                            bool regression,
                            uint32_t collaborationRound);
    /**
     * \brief Keep the round's matrix and pseudo-labels, and multiply the product by W.
     * \param w the round's W
     * \param psi each device's pseudo-labels (null: none this round)
     */
    void Close(Matrix w, std::vector<std::shared_ptr<const std::vector<float>>> psi);
    /** \return the last round's W (empty before the first collaboration round) */
    const Matrix& GetMatrix() const;
    /** \return W^(t) ... W^(first) over the collaboration rounds so far */
    const Matrix& GetProduct() const;
    /**
     * \param device a device
     * \return its last pseudo-labels (null: none)
     */
    std::shared_ptr<const std::vector<float>> GetPseudoLabels(uint32_t device) const;
    /** \brief Drop the pseudo-labels (the protocol's DoDispose). */
    void Dispose();

  private:
    Mode m_mode{DYNAMIC};                                        //!< how the rows are made
    D2dConfidence m_confidence{D2dConfidence::ENTROPY_PLUS_ONE}; //!< beta_i(x) of eq. 6
    uint32_t m_every{1}; //!< dynamic: rounds between recomputations
    Matrix m_rows;       //!< kept rows (between recomputations)
    Matrix m_w;          //!< the last round's W
    Matrix m_product;    //!< W^(t) ... W^(first)
    std::vector<std::shared_ptr<const std::vector<float>>> m_psi; //!< pseudo-labels
};

} // namespace ns3

#endif /* D2D_TRUST_MATRIX_H */
