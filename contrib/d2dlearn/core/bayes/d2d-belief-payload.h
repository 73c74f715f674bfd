/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_BELIEF_PAYLOAD_H
#define D2D_BELIEF_PAYLOAD_H

#include "ns3/d2d-message.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A public belief b_j^(k) on the air (Lalitha et al. 2018, sec. 3 step 3): the sender, the
 * step it belongs to and its values (the M log-probabilities of a discrete belief, or the
 * natural parameters of a Gaussian one). The message carrying it is sized as the values
 * times D2dBeliefLearner::GetBytesPerValue() (8 bytes, float64, unless the learner sends
 * float32 like D2dVariationalLearner).
 */
class D2dBeliefPayload : public D2dPayload
{
  public:
    /**
     * \param sender device index j
     * \param step step k (1-based; 0 for the initial belief)
     * \param values the belief's values
     */
    D2dBeliefPayload(uint32_t sender, uint32_t step, std::vector<double> values)
        : m_sender(sender),
          m_step(step),
          m_values(std::move(values))
    {
    }

    /** \return the sender's index */
    uint32_t GetSender() const
    {
        return m_sender;
    }

    /** \return the step the belief belongs to */
    uint32_t GetStep() const
    {
        return m_step;
    }

    /** \return the values */
    const std::vector<double>& GetValues() const
    {
        return m_values;
    }

    /** Bytes per value on the air of the discrete and Gaussian learners: float64. */
    static constexpr uint64_t BYTES_PER_VALUE = 8;

  private:
    uint32_t m_sender;            //!< j, the sending device's index
    uint32_t m_step;              //!< k, the step (1-based; 0: the initial belief b_j^(0))
    std::vector<double> m_values; //!< the belief's values (log-probabilities or natural parameters)
};

} // namespace ns3

#endif /* D2D_BELIEF_PAYLOAD_H */
