/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_STEP_PROGRESS_H
#define D2D_STEP_PROGRESS_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Where one device stands in a synchronous "train locally, then average what
 * arrived from the peers" step (D2dModelExchange, D2dSegmentedGossip), and the two rules
 * both apply at the step's end: at the deadline every participant whose job is done and
 * that has not averaged averages what it has; participants that have not averaged by
 * then are the step's stragglers.
 */
struct D2dStepProgress
{
    bool participating{false}; //!< takes part (battery left, idle, job accepted)
    bool trained{false};       //!< its local job of the step is done
    bool averaged{false};      //!< it has averaged

    /**
     * \return true if it may average now with what it has (taking part, trained, not
     * averaged yet): what the deadline makes it do
     */
    bool CanAverage() const
    {
        return participating && trained && !averaged;
    }

    /**
     * \brief The deadline rule: every device that CanAverage() averages what arrived in
     * time, in index order.
     * \param states the devices' progress in a step (device i's at index i)
     * \param average called with each such device's index
     */
    template <class State, class Average>
    static void AverageAtDeadline(const std::vector<State>& states, Average average)
    {
        for (uint32_t i = 0; i < states.size(); ++i)
        {
            if (states[i].CanAverage())
            {
                average(i);
            }
        }
    }

    /**
     * \param states the devices' progress in a step
     * \return the participants that have not averaged (stragglers once the step is over)
     */
    template <class State>
    static uint32_t CountStragglers(const std::vector<State>& states)
    {
        uint32_t n = 0;
        for (const D2dStepProgress& s : states)
        {
            n += (s.participating && !s.averaged) ? 1 : 0;
        }
        return n;
    }
};

} // namespace ns3

#endif /* D2D_STEP_PROGRESS_H */
