/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_POLYNOMIAL_FIT_H
#define D2D_POLYNOMIAL_FIT_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The closed-form learner of the polynomial regression toys of Fan, Mendler-Dünner,
 * Jaggi 2023 (sec. 3.4, App. A): the exact minimiser of the two squared-error terms of
 * eq. (2),
 *   sum_k (p(x_k) - y_k)^2 + lambda sum_m (p(x*_m) - psi_m)^2,
 * over polynomials p of a given degree (coefficients c_0..c_d, p(x) = sum_e c_e x^e),
 * solved from the normal equations (Gaussian elimination with partial pivoting, double).
 */
class D2dPolynomialFit
{
  public:
    /**
     * \param x local inputs
     * \param y local targets (same length as x)
     * \param xstar the shared inputs X*
     * \param psi the pseudo-labels on X* (same length as xstar; ignored if lambda = 0)
     * \param lambda weight of the distillation term (>= 0)
     * \param degree d
     * \return c_0..c_d
     * \throws std::invalid_argument if the sizes differ, lambda < 0, or the normal matrix
     *         is singular (fewer distinct points than d + 1)
     */
    static std::vector<double> Fit(const std::vector<double>& x,
                                   const std::vector<double>& y,
                                   const std::vector<double>& xstar,
                                   const std::vector<double>& psi,
                                   double lambda,
                                   uint32_t degree);
    /**
     * \param c coefficients c_0..c_d
     * \param x the point
     * \return p(x) (Horner)
     */
    static double Evaluate(const std::vector<double>& c, double x);
    /**
     * \param c coefficients
     * \param x points
     * \return p at each point
     */
    static std::vector<double> Evaluate(const std::vector<double>& c, const std::vector<double>& x);
};

} // namespace ns3

#endif /* D2D_POLYNOMIAL_FIT_H */
