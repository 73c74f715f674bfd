/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FED_ASYNC_H
#define D2D_FED_ASYNC_H

#include "d2d-async-fl.h"

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief FedAsync (Xie, Koyejo, Gupta, "Asynchronous Federated Optimization", arXiv
 * 1903.03934, 2019, Algorithm 1): each update y of staleness t - tau makes a new version
 * x_t = (1 - alpha_t) x_{t-1} + alpha_t y with alpha_t = alpha s(t - tau) (MixingAlpha alpha,
 * the Staleness function s of D2dAsyncFl). A device trains on its local objective
 * g_{x_tau}(x) = f(x) + (rho / 2) ||x - x_tau||^2 of the paper's Algorithm 1 (ProximalRho rho;
 * the learner's proximal term, as FedProx's), from the x_tau it received; rho = 0 (the
 * default) is plain local SGD.
 */
class D2dFedAsync : public D2dAsyncFl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Eq. of Algorithm 1's server: x <- (1 - alpha_t) x + alpha_t y, in double, each
     * value rounded to float once.
     * \param x the global model, changed in place
     * \param y the device's model
     * \param alphaT alpha_t in [0, 1]
     */
    static void Mix(std::vector<float>& x, const std::vector<float>& y, double alphaT);

  protected:
    bool Apply(std::vector<float>& x,
               const std::vector<float>& update,
               uint32_t staleness,
               double& weight) override;
    bool UploadsDelta() const override;
    /** \brief Algorithm 1's proximal term (rho / 2) ||x - x_tau||^2 when rho > 0. */
    void ConfigureTask(D2dTrainTask& task,
                       const std::shared_ptr<const std::vector<float>>& base) const override;

  private:
    double m_alpha; //!< MixingAlpha: alpha of alpha_t = alpha s(t - tau)
    double m_rho;   //!< ProximalRho: rho of the devices' local objective
};

} // namespace ns3

#endif /* D2D_FED_ASYNC_H */
