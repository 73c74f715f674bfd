/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_OPTIMIZER_STATE_H
#define D2D_OPTIMIZER_STATE_H

/*
 * Internal header (includes LibTorch): a learner's optimizer kept across its jobs. Only the
 * learning library's sources include it.
 */

#include "d2d-learner.h"

#include <cstdint>
#include <memory>
#include <torch/optim/optimizer.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A learner's optimizer between its jobs: the options of the job that made it and,
 * with KeepOptimizerState, its per-parameter state as flat vectors (SGD's momentum buffer:
 * P floats; Adam's two moments: 2 P floats and a step count per tensor), so that a device
 * holds no LibTorch tensor between jobs. Every job gets a fresh LibTorch optimizer (Make),
 * given this state bit for bit, and leaves its state here afterwards (Save).
 */
class D2dOptimizerState
{
  public:
    /**
     * \brief A fresh optimizer for a job. Without keep, the job's options; with keep, the
     * options of the first job that kept its state and that state restored bit for bit.
     * \param kind SGD or Adam \param learningRate the job's learning rate
     * \param momentum SGD's momentum \param weightDecay L2 weight decay
     * \param keep reuse the first job's options and the state Save() kept
     * \param params the model's parameters, in order
     * \return the optimizer (Adam with LibTorch's defaults besides learningRate and
     *         weightDecay, or SGD)
     */
    std::unique_ptr<torch::optim::Optimizer> Make(D2dLearner::Optimizer kind,
                                                  double learningRate,
                                                  double momentum,
                                                  double weightDecay,
                                                  bool keep,
                                                  const std::vector<torch::Tensor>& params);

    /**
     * \brief Copy the optimizer's per-parameter state into the flat vectors.
     * \param opt the job's optimizer (made by Make)
     * \param params its parameters, in order
     */
    void Save(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params);

  private:
    /**
     * \brief Give a fresh optimizer the state Save() kept (bit for bit).
     * \param opt the new job's optimizer
     * \param params its parameters, in order
     */
    void Restore(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params) const;

    bool m_made{false};                            //!< a job that keeps its state made it
    D2dLearner::Optimizer m_kind{D2dLearner::SGD}; //!< the optimizer of the kept options
    double m_learningRate{0};                      //!< the kept learning rate
    double m_momentum{0};                          //!< the kept SGD momentum
    double m_weightDecay{0};                       //!< the kept L2 weight decay
    std::vector<uint8_t> m_hasState;               //!< per parameter tensor: state kept
    std::vector<int64_t> m_steps;                  //!< Adam's step count, per tensor with state
    std::vector<float> m_buffer1;                  //!< SGD momentum buffer / Adam exp_avg
    std::vector<float> m_buffer2;                  //!< Adam exp_avg_sq
};

} // namespace ns3

#endif /* D2D_OPTIMIZER_STATE_H */
