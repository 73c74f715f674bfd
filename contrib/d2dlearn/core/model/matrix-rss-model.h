/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MATRIX_RSS_MODEL_H
#define MATRIX_RSS_MODEL_H

#include "d2d-rss-model.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief RSS given explicitly as an N x N matrix W (watts), as the experiments of
 * Wagle et al. 2025 (App. C) do.
 *
 * W_ij (row i, column j) is the RSS at receiver i of transmitter j; the diagonal is
 * ignored; positions and transmit power play no part.
 */
class MatrixRssModel : public D2dRssModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** The largest N of a matrix file (the scenarios' --nDevices maximum). */
    static constexpr std::size_t MAX_N = 100000;

    /**
     * \brief Read W from a CSV file: N lines of N comma-separated numbers, no header
     * (D2dMatrixCsv: a regular file, bounded lines, decimal numbers only).
     * \param path file path
     * \return the matrix, row-major
     * \throws std::runtime_error with a one-line message naming the file, line and column
     *         when the file is unreadable, not square, or holds a non-number or a negative
     *         or non-finite off-diagonal value.
     */
    static std::vector<std::vector<double>> ReadCsv(const std::string& path);

    /** \param w the matrix, N x N, off-diagonal entries >= 0 (0 means no link) */
    void SetMatrix(std::vector<std::vector<double>> w);
    /** \return N */
    uint32_t GetN() const;

    /**
     * \param rx receiver index i (row)
     * \param tx transmitter index j (column)
     * \param rxMobility not used
     * \param txMobility not used
     * \param txPowerDbm not used (dBm)
     * \return W_ij in watts (0: no link); aborts if i or j >= N
     */
    double GetRssW(uint32_t rx,
                   uint32_t tx,
                   Ptr<MobilityModel> rxMobility,
                   Ptr<MobilityModel> txMobility,
                   double txPowerDbm) override;

  private:
    std::vector<std::vector<double>> m_w; //!< W: m_w[i][j] RSS at receiver i of transmitter j, W
};

} // namespace ns3

#endif /* MATRIX_RSS_MODEL_H */
