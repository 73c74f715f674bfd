/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_PCA_EXCHANGE_H
#define D2D_PCA_EXCHANGE_H

#include "ns3/callback.h"
#include "ns3/d2d-delivery.h"
#include "ns3/d2d-transport.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The messages of distributed PCA (Liang, Balcan, Kanchanapally and Woodruff,
 * "Improved distributed principal component analysis", 2014) over the device-to-server link,
 * as the semi-supervised paradigm of graph discovery uses it (Wagle, Das, Love and Brinton,
 * 2025, sec. V-A1): every device sends its sketch (its top-t right singular vectors scaled by
 * their singular values, rows x D values) to the server ("pca_sketch"); once every sketch has
 * arrived the server computes F from them (D2dDistributedPca::CommonSubspace) and multicasts
 * it, d x D values, to every device ("pca_subspace"). Each message is of its true size
 * (BytesPerValue per value), so it costs its airtime and energy; delivery is reliable (ARQ).
 *
 * Losses are survived: once every sketch has arrived or been given up on, the server computes
 * F from the sketches that arrived (Liang et al.'s algorithm over fewer devices), provided
 * they stack at least d rows; otherwise it sends nothing. The finished callback runs when the
 * last message is done, with F (empty if none was computed) and, per device, whether F
 * reached it; a device without F falls back on its own top-d subspace (the caller's choice).
 */
class D2dPcaExchange : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    D2dPcaExchange();
    ~D2dPcaExchange() override;

    /**
     * \param d2s the device-to-server transports: device i at index i, the server at index N
     * \param sketches device i's sketch at index i (a whole number of rows of cols values)
     * \param cols D
     * \param d d
     */
    void Setup(const std::vector<Ptr<D2dTransport>>& d2s,
               std::vector<std::vector<double>> sketches,
               std::size_t cols,
               std::size_t d);
    /**
     * \param cb called once at the end with F^T (d x D; empty if the server could not compute
     *        it) and, per device, whether F reached it
     */
    void SetFinishedCallback(
        Callback<void, const std::vector<double>&, const std::vector<bool>&> cb);
    /** \brief Send the sketches (schedule at the time wanted). */
    void Start();
    /** \return bytes put on the air (sketches plus the subspace once) */
    uint64_t GetBytesSent() const;
    /** \return the sketches that reached the server */
    uint32_t GetSketchesReceived() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    void ServerReceive(const D2dReception& reception);
    void DeviceReceive(const D2dReception& reception);
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    void MaybeFinish();

    uint32_t m_bytesPerValue;
    std::vector<Ptr<D2dTransport>> m_d2s;
    std::vector<std::vector<double>> m_sketches;
    std::size_t m_cols{0};
    std::size_t m_d{0};
    Callback<void, const std::vector<double>&, const std::vector<bool>&> m_finished;
    std::vector<std::vector<double>> m_arrived;
    std::vector<bool> m_sketchIn;
    std::vector<bool> m_subspaceIn;
    std::vector<double> m_basis;
    std::set<uint64_t> m_pending;
    bool m_subspaceSent{false};
    bool m_done{false};
    uint64_t m_bytes{0};
};

} // namespace ns3

#endif /* D2D_PCA_EXCHANGE_H */
