/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_TRUST_MATRICES_H
#define D2D_TRUST_MATRICES_H

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The transmitter-specific, partition-specific trust matrices of Wagle, Das, Love and
 * Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
 * Learning", 2025, eq. (2): T_j in {0,1}^{N x L}, T_j[i][l] = 1 when transmitter j trusts
 * receiver i with its partition l. Pure (no ns-3 state); the random structures of the paper's
 * App. F draw from a std::mt19937_64 seeded by the caller, so the same seed gives the same
 * matrices on every platform (the uniform draw is made from the generator's bits, not by a
 * library distribution).
 *
 * Structures (Get(j, i, l), every T_j[j][.] = 0: a device does not send to itself):
 * - random: every entry Bernoulli(density);
 * - row-sparse: random, then half of the rows of each T_j (receivers j never sends to) zero;
 * - column-sparse: random, then half of the columns of each T_j (partitions j never shares)
 *   zero;
 * - block: each T_j is a union of rectangles of 2 to 4 receivers by 2 to 4 partitions at
 *   random places, added until at least density N L entries are one (App. F: "blocks of sizes
 *   between 2 and 4 chosen at random").
 */
class D2dTrustMatrices
{
  public:
    D2dTrustMatrices() = default;
    /**
     * \param nDevices N
     * \param nLabels L
     * \param value every entry's value (the diagonal rows T_j[j] are zero all the same)
     */
    D2dTrustMatrices(uint32_t nDevices, uint32_t nLabels, bool value);

    /**
     * \param structure random | row-sparse | column-sparse | block
     * \param nDevices N (>= 1)
     * \param nLabels L (>= 1)
     * \param density in [0, 1]: probability of a one (random, row-sparse, column-sparse) or
     *        the share of ones to reach (block)
     * \param seed seeds the draws
     * \return the matrices
     * \throws std::invalid_argument for an unknown structure or density outside [0, 1]
     */
    static D2dTrustMatrices Generate(const std::string& structure,
                                     uint32_t nDevices,
                                     uint32_t nLabels,
                                     double density,
                                     uint64_t seed);

    /**
     * \brief Read a trust file: N x N non-empty lines, line j N + i holding T_j[i][0..L-1] as
     * L comma-separated 0/1 values (the rows of T_0, then those of T_1, ...). Lines starting
     * with # are comments. The diagonal rows T_j[j] are read but ignored (set to zero).
     * \param path the file
     * \param nDevices N
     * \param nLabels L
     * \return the matrices
     * \throws std::runtime_error naming the line for a file that cannot be read, is not a
     *         regular file (a FIFO would block, /dev/zero never ends), of the wrong shape, or
     *         with a value other than 0 or 1
     */
    static D2dTrustMatrices ReadFile(const std::string& path, uint32_t nDevices, uint32_t nLabels);

    /** Longest line accepted, bytes (far above L values of a few bytes each). */
    static constexpr std::size_t MAX_LINE_BYTES = std::size_t(1) << 20;

    /**
     * \brief Parse a trust file's text (ReadFile() after the file checks). Bounded: a line
     * is at most MAX_LINE_BYTES, no more than N x N rows are read, the matrices (N x N x L
     * bytes) are allocated before reading. An error is one line naming the file and the
     * line, quoting at most a short escaped excerpt of the bad bytes.
     * \param in the text
     * \param name how messages name the file
     * \param nDevices N
     * \param nLabels L
     * \return the matrices
     * \throws std::runtime_error, one line starting with name
     */
    static D2dTrustMatrices Parse(std::istream& in,
                                  const std::string& name,
                                  uint32_t nDevices,
                                  uint32_t nLabels);

    /** \return the names Generate() accepts */
    static const std::vector<std::string>& Structures();

    /**
     * \param transmitter j
     * \param receiver i
     * \param label l
     * \return T_j[i][l]
     */
    bool Get(uint32_t transmitter, uint32_t receiver, uint32_t label) const;
    /**
     * \param transmitter j
     * \param receiver i
     * \param label l
     * \param value the new T_j[i][l] (ignored when i == j)
     */
    void Set(uint32_t transmitter, uint32_t receiver, uint32_t label, bool value);
    /**
     * \param transmitter j
     * \param receiver i
     * \return T_j[i][.] as 0/1 values
     */
    std::vector<uint8_t> Row(uint32_t transmitter, uint32_t receiver) const;
    /** \return N */
    uint32_t GetNDevices() const;
    /** \return L */
    uint32_t GetNLabels() const;
    /** \return the share of ones among the N (N - 1) L off-diagonal entries */
    double Density() const;

  private:
    uint32_t m_n{0};             //!< N
    uint32_t m_l{0};             //!< L
    std::vector<uint8_t> m_bits; //!< T_j[i][l] at (j N + i) L + l
};

} // namespace ns3

#endif /* D2D_TRUST_MATRICES_H */
