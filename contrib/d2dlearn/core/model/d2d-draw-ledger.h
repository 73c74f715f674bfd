/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DRAW_LEDGER_H
#define D2D_DRAW_LEDGER_H

#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The draw of a D2D energy model: the power each of its components draws now, W, their
 * sum, when the open period of constant draw started, and the energy of the closed periods,
 * J. Part of D2dEnergyModel, which closes a period at every change of draw and reports it.
 */
class D2dDrawLedger
{
  public:
    /** (component, W), in the order the components first drew. */
    using Draws = std::vector<std::pair<std::string, double>>;

    /**
     * \brief Set a component's draw; the sum is summed again in the components' order.
     * \param component the component
     * \param powerW its draw from now, W (>= 0)
     */
    void Set(const std::string& component, double powerW);
    /**
     * \param component a component
     * \return its draw now, W (0 if it never drew)
     */
    double Get(const std::string& component) const;
    /** \return the sum of the draws now, W */
    double GetPowerW() const;
    /** \return the draws now */
    const Draws& GetDraws() const;
    /** \brief Nothing is drawn any more (depletion). */
    void Clear();

    /**
     * \brief Open a new period of constant draw.
     * \param now its start
     * \return the start of the period it closes
     */
    Time StartPeriod(Time now);
    /** \return when the open period started */
    Time GetPeriodStart() const;
    /** \param energyJ energy of a closed period of one component, J */
    void AddEnergy(double energyJ);
    /** \return the energy of the closed periods, all components, J */
    double GetTotalJ() const;

  private:
    Draws m_draws;      //!< (component, W)
    double m_powerW{0}; //!< sum of m_draws, in its order
    Time m_periodStart; //!< start of the open period
    double m_totalJ{0}; //!< energy of the closed periods, J
};

} // namespace ns3

#endif /* D2D_DRAW_LEDGER_H */
