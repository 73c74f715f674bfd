/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_MESSAGE_REGISTRY_H
#define D2D_MESSAGE_REGISTRY_H

#include "d2d-message.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <unordered_map>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Network-wide message ids, and messages in flight for packet backends.
 *
 * Every transport of one network shares a registry, so message ids are unique across
 * the D2D and D2S links and deterministic (they do not depend on process history).
 * A packet backend (D2dWifiTransport) sends packets of the message's true size whose
 * header names the message id; the receiver looks the shared payload up here instead of
 * copying it into packet buffers.
 */
class D2dMessageRegistry : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \return a new id: 1, 2, 3, ... */
    uint64_t AllocateId();
    /**
     * \param id message id
     * \param message message in flight under that id
     */
    void Register(uint64_t id, Ptr<const D2dMessage> message);
    /**
     * \param id message id
     * \return the message registered under id, or null
     */
    Ptr<const D2dMessage> Lookup(uint64_t id) const;
    /** \param id forget the message registered under id */
    void Release(uint64_t id);
    /** \return number of messages currently registered */
    std::size_t GetNInFlight() const;

  protected:
    /** \brief Drop the references this object holds (Object::DoDispose). */
    void DoDispose() override;

  private:
    uint64_t m_nextId{1}; //!< id the next AllocateId() returns
    /** message id -> the message registered under it (Register() until Release()) */
    std::unordered_map<uint64_t, Ptr<const D2dMessage>> m_inFlight;
};

} // namespace ns3

#endif /* D2D_MESSAGE_REGISTRY_H */
