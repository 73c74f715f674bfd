/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DATAPOINT_EXCHANGE_H
#define D2D_DATAPOINT_EXCHANGE_H

#include "d2d-discovery-payload.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

class D2dDiscoveryParadigm;

/**
 * \ingroup d2dlearn
 * \brief The datapoint exchange that ends each edge round of graph discovery (Wagle, Das,
 * Love and Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled
 * Federated Learning", 2025, sec. V, eqs. (11)-(12) and Remark 2): the record of every
 * edge's exchange (a Link), which data message carries which, and the settling of an edge
 * round: the transmitter loses all it allocated, the receiver gains what arrived.
 *
 * D2dGraphDiscovery owns one: it sends the data messages ("gd_data") and tells this class
 * what it sent and what arrived.
 */
class D2dDatapointExchange
{
  public:
    /** One edge's datapoint exchange: a row of gd_links.csv. */
    struct Link
    {
        uint32_t edge{0};              //!< the edge round (Remark 2), from 0
        uint32_t receiver{0};          //!< i
        uint32_t transmitter{0};       //!< j
        double pDrop{0};               //!< P_D(i, j) when the data was sent, a probability
        D2dFractionalCounts requested; //!< Q_{j->i} as j received it (zeros if lost)
        D2dFractionalCounts allocated; //!< U_{j->i}: the datapoints j sent (and dropped)
        D2dFractionalCounts received;  //!< the datapoints that reached i, per partition
    };

    /**
     * \brief Record an edge's exchange as its transmitter sends it.
     * \param link the exchange (received: zeros)
     * \return its index among the links
     */
    std::size_t AddLink(const Link& link);
    /**
     * \brief Note that a data message carries the exchange of a link.
     * \param msgId the message
     * \param index the link's index (AddLink)
     */
    void AddMessage(uint64_t msgId, std::size_t index);
    /**
     * \brief A data message arrived, whole or in part: its link received the datapoints of
     * the items that arrived (D2dMessagePassing::Apportion); a message of no link is ignored.
     * \param msgId the message
     * \param allocated the datapoints it carried, per partition
     * \param items the items (datapoints) that arrived
     */
    void Receive(uint64_t msgId, const D2dFractionalCounts& allocated, uint64_t items);
    /**
     * \brief Settle an edge round: its links reported in order, then the paradigm moves the
     * points (D2dDiscoveryParadigm::Exchange); forget the round's data messages.
     * \param edge the edge round
     * \param paradigm the paradigm (its counts D_i)
     * \param onLink called with each of the round's links before the counts change
     * \param counts set to each device's counts: D_j - U_{j->i} and D_i + received, from the
     *        paradigm's counts before the round
     * \return whether the paradigm moved the points itself (then its GetCounts are the new
     *         counts; otherwise counts are, for the caller to set)
     */
    bool Settle(uint32_t edge,
                D2dDiscoveryParadigm& paradigm,
                const std::function<void(const Link&)>& onLink,
                std::vector<D2dFractionalCounts>& counts);

    /** \return the datapoint exchanges, in order */
    const std::vector<Link>& GetLinks() const;

  private:
    std::vector<Link> m_links;                   //!< every exchange, in order
    std::map<uint64_t, std::size_t> m_dataLinks; //!< data msgId -> index in m_links
};

} // namespace ns3

#endif /* D2D_DATAPOINT_EXCHANGE_H */
