/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_MESSAGE_PASSING_H
#define D2D_MESSAGE_PASSING_H

#include "d2d-trust-matrices.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * Counts of datapoints per label (one value per partition l = 0..L-1), in datapoints, as
 * doubles because some are fractional: the expected arrivals (1 - P_D(i, j)) U_{j->i} and the
 * D-hat_i of eq. (12) (D2dExchangeOutcome), and the normalised label distributions of the
 * diversity score (D2dDiversityRewards::Normalise, which sum to 1). The others (D_i, b_i, Q, U,
 * the datapoints sent and received) hold whole numbers; V holds 0 or 1.
 */
using D2dFractionalCounts = std::vector<double>;

/**
 * \ingroup d2dlearn
 * \brief One message-passing step of the supervised paradigm: what every device holds
 * before it (D_i, b_i, T, the selections, P_D).
 */
struct D2dExchangeInstance
{
    std::vector<D2dFractionalCounts> counts;     //!< D_i: datapoints per label at device i
    std::vector<D2dFractionalCounts> thresholds; //!< b_i: the diversity threshold per label
    D2dTrustMatrices trust;            //!< T_j[i][l]
    /** selection[i] = j: receiver i selected transmitter j; -1: no incoming edge */
    std::vector<int64_t> selection;
    /** pDrop[i][j] = P_D(i, j), at receiver i of transmitter j (eq. 18) */
    std::vector<std::vector<double>> pDrop;
};

/**
 * \ingroup d2dlearn
 * \brief What a message-passing step gives (one edge per receiver).
 */
struct D2dExchangeOutcome
{
    std::vector<D2dFractionalCounts> available; //!< V_{j->i}, j = selection[i] (zeros without edge)
    std::vector<D2dFractionalCounts> requested; //!< Q_{j->i}
    std::vector<D2dFractionalCounts> allocated; //!< U_{j->i}
    std::vector<D2dFractionalCounts> sent;      //!< sum over i of U_{j->i}, at transmitter j
    std::vector<D2dFractionalCounts> received;  //!< (1 - P_D(i, j)) U_{j->i}: expected arrivals
    /** D_i + U_{j->i} - sent_i: the counts if nothing were lost (loss-free) */
    std::vector<D2dFractionalCounts> afterAllocated;
    /** D-hat_i of eq. (12) with the expected arrivals: D_i + received_i - sent_i */
    std::vector<D2dFractionalCounts> afterExpected;
};

/**
 * \ingroup d2dlearn
 * \brief Algorithm 1 (eqs. (9)-(12)) of Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025: the
 * supervised message passing over the edges the receivers selected. Pure functions.
 *
 * U is a number of datapoints: where eq. (11) shares the spare D_j[l] - b_j[l] pro rata,
 * the share is rounded down (the Appendix A example divides exactly), so that every
 * quantity but the expected arrivals stays an integer and a transmitter keeps at least b_j.
 */
class D2dMessagePassing
{
  public:
    /**
     * \brief Eq. (9): V_{j->i}[l] = 1 if T_j[i,l] = 1 and D_j[l] > b_j[l] (i is a requester).
     * \param trustRow T_j[i][.]
     * \param countsJ D_j
     * \param thresholdsJ b_j
     * \return V_{j->i}
     */
    static D2dFractionalCounts Available(const std::vector<uint8_t>& trustRow,
                                         const D2dFractionalCounts& countsJ,
                                         const D2dFractionalCounts& thresholdsJ);
    /**
     * \brief Eq. (10): Q_{j->i}[l] = R_i[l] = b_i[l] - D_i[l] if it is > 0 and V[l] = 1.
     * \param available V_{j->i}
     * \param countsI D_i
     * \param thresholdsI b_i
     * \return Q_{j->i}
     */
    static D2dFractionalCounts Request(const D2dFractionalCounts& available,
                                       const D2dFractionalCounts& countsI,
                                       const D2dFractionalCounts& thresholdsI);
    /**
     * \brief Eq. (11) at transmitter j for all its requesters at once: U = Q where the total
     * demand on label l fits the spare D_j[l] - b_j[l], else floor(Q / demand x spare).
     * \param requests Q_{j->i} of each requester
     * \param countsJ D_j
     * \param thresholdsJ b_j
     * \return U_{j->i} of each requester, in the order of requests
     */
    static std::vector<D2dFractionalCounts> Allocate(
        const std::vector<D2dFractionalCounts>& requests,
        const D2dFractionalCounts& countsJ,
        const D2dFractionalCounts& thresholdsJ);
    /**
     * \brief Eqs. (9)-(12) for every selected edge of the instance.
     * \param instance the step's input (sizes must agree)
     * \return V, Q, U, what each device sends, and D-hat
     */
    static D2dExchangeOutcome Run(const D2dExchangeInstance& instance);
    /**
     * \brief Which of an itemised message's datapoints arrived, per label, when only their
     * number is known (the channel loses whole fragments; the message lists its points label
     * by label): received x allocated / total, rounded down, the remainder given one point at
     * a time to the labels with the largest fractional parts (lowest label on ties).
     * \param allocated the datapoints sent per label
     * \param received how many arrived (<= their sum)
     * \return the datapoints received per label (sums to received, each <= allocated)
     */
    static D2dFractionalCounts Apportion(const D2dFractionalCounts& allocated, uint64_t received);
};

} // namespace ns3

#endif /* D2D_MESSAGE_PASSING_H */
