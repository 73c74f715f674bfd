/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_STALENESS_H
#define D2D_STALENESS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief How much an asynchronous update counts given its staleness tau = t - tau_k (the
 * server's model version now minus the version the device trained from): the functions s of
 * Xie, Koyejo, Gupta, "Asynchronous Federated Optimization", arXiv 1903.03934, 2019, sec. 5
 * (FedAsync's alpha_t = alpha s(t - tau)), which FedBuff's experiments also use
 * (Nguyen et al., "Federated Learning with Buffered Asynchronous Aggregation", AISTATS 2022:
 * 1 / sqrt(1 + tau), the polynomial s with a = 1/2).
 */
class D2dStaleness
{
  public:
    /** The functions s (a Staleness attribute's values). */
    enum Kind
    {
        CONSTANT,   //!< s(tau) = 1
        POLYNOMIAL, //!< s(tau) = (tau + 1)^(-a)
        HINGE       //!< s(tau) = 1 if tau <= b, else 1 / (a (tau - b) + 1)
    };

    /**
     * \param kind the function
     * \param a its a (polynomial, hinge), >= 0
     * \param b its b (hinge), >= 0
     * \param staleness tau >= 0
     * \return s(tau), in (0, 1]
     */
    static double Weight(Kind kind, double a, double b, uint64_t staleness);
};

} // namespace ns3

#endif /* D2D_STALENESS_H */
