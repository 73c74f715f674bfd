/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MESSAGE_H
#define D2D_MESSAGE_H

#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Base class of the content a D2dMessage carries by reference.
 *
 * Protocols derive their own payloads (model weights, predictions, beliefs, votes,
 * datapoint offers). A payload is immutable once sent and is shared, never copied,
 * between the sender and every receiver: the channel only sees the message's size.
 */
class D2dPayload
{
  public:
    virtual ~D2dPayload() = default;
};

/**
 * \ingroup d2dlearn
 * \brief An application message of a collaboration protocol.
 *
 * A message has a kind (free text used in traces, e.g. "model_update", "vote"), its true
 * size in bytes (what the channel transmits and charges airtime and energy for), an
 * optional number of items (datapoints, scores) so that a partial unreliable delivery
 * can be mapped to a fraction of the items, and a shared immutable payload.
 */
class D2dMessage : public SimpleRefCount<D2dMessage>
{
  public:
    /**
     * \param kind message kind written in the `kind` column of messages.csv
     * \param sizeBytes size on the air in bytes (must be > 0)
     * \param payload shared content, may be null
     * \param items number of independent items in the message (0 if not itemised)
     */
    D2dMessage(std::string kind,
               uint64_t sizeBytes,
               std::shared_ptr<const D2dPayload> payload = nullptr,
               uint64_t items = 0);

    /** \return the kind of the message */
    const std::string& GetKind() const;
    /** \return the size on the air in bytes */
    uint64_t GetSizeBytes() const;
    /** \return the number of items (0 if not itemised) */
    uint64_t GetItems() const;
    /** \return the shared payload (may be null) */
    const std::shared_ptr<const D2dPayload>& GetPayload() const;

    /**
     * \brief Typed access to the payload.
     * \return the payload cast to T, or null if it is not a T
     */
    template <typename T>
    std::shared_ptr<const T> GetPayloadAs() const
    {
        return std::dynamic_pointer_cast<const T>(m_payload);
    }

  private:
    std::string m_kind;                          //!< kind, e.g. "model_update" (messages.csv)
    uint64_t m_sizeBytes;                        //!< size on the air (bytes, > 0)
    std::shared_ptr<const D2dPayload> m_payload; //!< shared immutable content (may be null)
    uint64_t m_items;                            //!< independent items carried (0: not itemised)
};

} // namespace ns3

#endif /* D2D_MESSAGE_H */
