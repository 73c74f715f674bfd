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
 * (BytesPerValue per value), so it costs its airtime and energy; delivery is reliable. The
 * finished callback runs when the last message is done, with F if every sketch reached the
 * server and F reached every device, or with an empty F otherwise.
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
    /** \param cb called once at the end with F^T (d x D; empty if a message was lost) */
    void SetFinishedCallback(Callback<void, const std::vector<double>&> cb);
    /** \brief Send the sketches (schedule at the time wanted). */
    void Start();
    /** \return bytes put on the air (sketches plus the subspace once) */
    uint64_t GetBytesSent() const;

  protected:
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
    Callback<void, const std::vector<double>&> m_finished;
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
