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
    /**
     * \brief The server's receive handler of "pca_sketch": keeps a complete sketch as the
     * sender's (a partial one is dropped).
     * \param reception the reception at the server
     */
    void ServerReceive(const D2dReception& reception);
    /**
     * \brief A device's receive handler of "pca_subspace": a complete F marks its receiver as
     * reached.
     * \param reception the reception at a device
     */
    void DeviceReceive(const D2dReception& reception);
    /**
     * \brief A send-done of any of the transports: a message of this exchange is done (those
     * of other protocols are ignored); then MaybeFinish.
     * \param msgId the message id
     * \param dst its receiver (unused)
     * \param success see D2dTransport::SendDoneCallback (unused: a lost sketch is given up on)
     */
    void SendDone(uint64_t msgId, uint32_t dst, bool success);
    /**
     * \brief Once no message is pending: the first time, F from the sketches that arrived
     * (if they stack at least d rows) multicast to every device; the next time (or if F cannot
     * be computed or sent), the end: the finished callback.
     */
    void MaybeFinish();

    uint32_t m_bytesPerValue; //!< bytes per matrix value on the air (attribute BytesPerValue)
    /** The device-to-server transports: device i at index i, the server at index N */
    std::vector<Ptr<D2dTransport>> m_d2s;
    std::vector<std::vector<double>> m_sketches; //!< device i's sketch at i, rows x D values
    std::size_t m_cols{0};                       //!< D, the values per sketch row (features)
    std::size_t m_d{0};                          //!< d, the rows of F^T
    /** Called once at the end with F^T and, per device, whether F reached it */
    Callback<void, const std::vector<double>&, const std::vector<bool>&> m_finished;
    /** Device i's sketch at i as it reached the server (empty: it did not) */
    std::vector<std::vector<double>> m_arrived;
    std::vector<bool> m_sketchIn;   //!< per device: whether its sketch reached the server
    std::vector<bool> m_subspaceIn; //!< per device: whether F reached it
    std::vector<double> m_basis;    //!< F^T, d x D row-major (empty: not computed)
    std::set<uint64_t> m_pending;   //!< ids of this exchange's messages not yet done
    bool m_subspaceSent{false};     //!< whether the server has sent F
    bool m_done{false};             //!< whether the finished callback has run
    uint64_t m_bytes{0};            //!< bytes put on the air (sketches and F)
};

} // namespace ns3

#endif /* D2D_PCA_EXCHANGE_H */
