/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CCP_PAYLOAD_H
#define D2D_CCP_PAYLOAD_H

#include "ns3/d2d-message.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The scores P_k^c of one committee member c: (training client k, score), in the
 * order the member scored them (Che et al. 2022, eq. (7)).
 */
typedef std::vector<std::pair<uint32_t, double>> D2dScoreVector;

/**
 * \ingroup d2dlearn
 * \brief A message of the committee consensus protocol (Che et al. 2022, "Committee Consensus
 * Protocol", Algorithms CCP and voting) on the air.
 *
 * - SCORE (kind "ccp_score"): member `origin` broadcasts its scores P_k^c to the committee
 *   (Alg. 1, lines 1-5); `scores` holds float32-rounded values, `set` is empty.
 * - REQUEST (kind "ccp_request"): the primary's <Request, S^p, operation, timestamp>,
 *   broadcast; `set` = S^p, `step` names the operation ("aggregation" / "election"),
 *   `digest` = the digest of the primary's result, `timestamp` = when it was made.
 * - REPLY (kind "ccp_reply"): a replica's <Reply, timestamp, S^p, response>, unicast to the
 *   primary; `timestamp` echoes the request's, `digest` is the replica's result.
 *
 * Size on the air (BytesFor): a fixed 32-byte header (type, round, step, attempt, origin,
 * timestamp, counts) + 4 bytes per client id of `set` + 8 bytes per score entry (uint32
 * id + float32 score) + 8 bytes of digest (present in every message, 0 in SCORE).
 */
class D2dCcpPayload : public D2dPayload
{
  public:
    /** What the message is. */
    enum class Type
    {
        SCORE,   //!< a member's score vector
        REQUEST, //!< the primary's request
        REPLY    //!< a replica's reply
    };

    Type type{Type::SCORE};    //!< what the message is
    uint32_t round{0};         //!< round t
    std::string step;          //!< "scores", "aggregation" or "election" (the vote's operation)
    uint32_t attempt{0};       //!< attempt of the vote (1-based), 0 for SCORE
    uint32_t origin{0};        //!< the member that made the message
    std::vector<uint32_t> set; //!< REQUEST/REPLY: S^p (client ids)
    D2dScoreVector scores;     //!< SCORE: (k, P_k^c), float32-rounded
    uint64_t digest{0};        //!< REQUEST/REPLY: digest of the operation's result
    Time timestamp;            //!< REQUEST: when it was made; REPLY: the request's

    /** Fixed header bytes of every CCP message. */
    static constexpr uint64_t HEADER_BYTES = 32;
    /** Bytes per client id of the set (uint32). */
    static constexpr uint64_t BYTES_PER_ID = 4;
    /** Bytes per score entry (uint32 id + float32 score). */
    static constexpr uint64_t BYTES_PER_SCORE = 8;
    /** Bytes of the digest (uint64). */
    static constexpr uint64_t DIGEST_BYTES = 8;

    /**
     * \brief Size of a CCP message on the air.
     * \param setSize client ids in `set`
     * \param scoreEntries entries in `scores`
     * \return 32 + 4 setSize + 8 scoreEntries + 8 bytes
     */
    static uint64_t BytesFor(std::size_t setSize, std::size_t scoreEntries)
    {
        return HEADER_BYTES + BYTES_PER_ID * setSize + BYTES_PER_SCORE * scoreEntries +
               DIGEST_BYTES;
    }

    /** \return the size of this message on the air (BytesFor of its set and scores) */
    uint64_t GetSizeBytes() const
    {
        return BytesFor(set.size(), scores.size());
    }
};

} // namespace ns3

#endif /* D2D_CCP_PAYLOAD_H */
