/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BELIEF_CONSENSUS_MATRIX_H
#define D2D_BELIEF_CONSENSUS_MATRIX_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The stochastic matrix W of Lalitha et al. 2018 (sec. 2): W_ij > 0 iff j is an in-neighbour
 * of i (j can send to i), W_ii = 1 - sum_{j != i} W_ij; row i is how device i weighs the
 * public beliefs in the consensus step, eq. (3).
 *
 * Built from a CSV file (N lines of N comma-separated numbers, no header) or from a
 * graph (undirected adjacency) with uniform weights (W_ij = 1 / (deg_i + 1) for j in
 * N(i) and for j = i) or Metropolis weights (W_ij = 1 / (1 + max(deg_i, deg_j)) for j in
 * N(i), the rest on the diagonal). Check() enforces Assumption 2 of the paper: W
 * row-stochastic (non-negative, rows summing to 1 within 1e-9), its graph strongly
 * connected (breadth-first search from device 0 on W and on its transpose) and aperiodic
 * (a positive diagonal entry suffices; otherwise the gcd of the cycle lengths, from BFS
 * levels, must be 1).
 *
 * Spectral quantities of Theorem 1 (GSL's non-symmetric eigen-solver):
 * lambda_max(W) = max_{1 <= i <= N-1} |lambda_i(W)|, the second largest eigenvalue
 * modulus (the eigenvalues of a non-symmetric W can be complex: the paper's max over
 * lambda_i is read as over their moduli, as in Lemma 1's mixing bound), and the
 * stationary distribution v (v = v W, sum v = 1, left eigenvector of eigenvalue 1).
 */
class D2dBeliefConsensusMatrix
{
  public:
    D2dBeliefConsensusMatrix() = default;
    /**
     * \param w the N x N matrix, row i = weights of receiver i
     */
    explicit D2dBeliefConsensusMatrix(std::vector<std::vector<double>> w);

    /**
     * \brief Read W from a CSV file: N lines of N comma-separated numbers, no header.
     * \param path the file
     * \return the matrix (not yet checked: call Check())
     * \throws std::invalid_argument with a one-line message if unreadable or malformed
     */
    static D2dBeliefConsensusMatrix FromCsv(const std::string& path);

    /**
     * \brief W from an undirected graph.
     * \param adjacency adjacency[i][j] true if i and j are linked (the diagonal is ignored)
     * \param weights "uniform" or "metropolis"
     * \return the matrix
     * \throws std::invalid_argument for an unknown weights rule or a non-square adjacency
     */
    static D2dBeliefConsensusMatrix FromGraph(const std::vector<std::vector<bool>>& adjacency,
                                              const std::string& weights);

    /**
     * \brief Check Assumption 2: square, entries in [0, 1], rows summing to 1 (within
     * 1e-9), strongly connected, aperiodic.
     * \throws std::invalid_argument with a one-line message saying what is wrong
     */
    void Check() const;

    /** \return N */
    uint32_t GetN() const;
    /** \param i receiver \param j sender \return W_ij */
    double Get(uint32_t i, uint32_t j) const;
    /** \return the rows */
    const std::vector<std::vector<double>>& GetRows() const;
    /** \param i device \return the j != i with W_ij > 0 (devices i listens to), ascending */
    std::vector<uint32_t> InNeighbours(uint32_t i) const;
    /** \param j device \return the i != j with W_ij > 0 (devices j sends to), ascending */
    std::vector<uint32_t> OutNeighbours(uint32_t j) const;

    /** \return true if the graph of W is strongly connected */
    bool IsStronglyConnected() const;
    /** \return the period of the graph of W (1 = aperiodic); assumes strong connectivity */
    uint32_t Period() const;

    /**
     * \brief The second largest eigenvalue modulus of W (Theorem 1's lambda_max(W)).
     * \return lambda_max in [0, 1] for a stochastic W
     */
    double LambdaMax() const;

    /**
     * \brief The stationary distribution: the left eigenvector of eigenvalue 1,
     * normalized to sum 1 (Lemma 1: v_i = sum_j v_j W_ji).
     * \return v
     */
    std::vector<double> StationaryDistribution() const;

    /**
     * \brief The sample bound of Theorem 1, eq. (4):
     * n >= max{16 C log N / (K (1 - lambda_max)), 16 C log(N M / delta) / K^2,
     * 2 log(2 M) / K}.
     * \param n number of devices N
     * \param m number of parameters M
     * \param lambdaMax lambda_max(W)
     * \param k K(Theta_M) (> 0)
     * \param c C = L / alpha of Assumption 3 (as the paper defines it)
     * \param delta confidence delta in (0, 1)
     * \return the bound on the number of samples (steps)
     */
    static double Theorem1Bound(uint32_t n,
                                uint32_t m,
                                double lambdaMax,
                                double k,
                                double c,
                                double delta);

    /** \return the matrix as a JSON array of arrays */
    std::string ToJson() const;

  private:
    /** \param transpose follow edges backwards \return devices reached from 0 */
    std::vector<bool> Reach(bool transpose) const;

    /** W, N rows of N values: m_w[i][j] = W_ij, receiver i's weight of sender j */
    std::vector<std::vector<double>> m_w;
};

} // namespace ns3

#endif /* D2D_BELIEF_CONSENSUS_MATRIX_H */
