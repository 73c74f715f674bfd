/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-optimizer-state.h"

#include "ns3/abort.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

namespace ns3
{

namespace
{

/** \return the key of a parameter in a LibTorch optimizer's state map */
std::string
StateKey(const torch::Tensor& p)
{
    return c10::guts::to_string(p.unsafeGetTensorImpl());
}

} // namespace

std::unique_ptr<torch::optim::Optimizer>
D2dOptimizerState::Make(D2dLearner::Optimizer kind,
                        double learningRate,
                        double momentum,
                        double weightDecay,
                        bool keep,
                        const std::vector<torch::Tensor>& params)
{
    if (!keep || !m_made)
    {
        m_kind = kind;
        m_learningRate = learningRate;
        m_momentum = momentum;
        m_weightDecay = weightDecay;
        m_made = keep;
    }
    std::unique_ptr<torch::optim::Optimizer> made;
    if (m_kind == D2dLearner::ADAM)
    {
        made = std::make_unique<torch::optim::Adam>(
            params,
            torch::optim::AdamOptions(m_learningRate).weight_decay(m_weightDecay));
    }
    else
    {
        made = std::make_unique<torch::optim::SGD>(params,
                                                   torch::optim::SGDOptions(m_learningRate)
                                                       .momentum(m_momentum)
                                                       .weight_decay(m_weightDecay));
    }
    if (keep)
    {
        Restore(*made, params);
    }
    return made;
}

void
D2dOptimizerState::Save(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params)
{
    m_hasState.assign(params.size(), 0);
    m_steps.clear();
    m_buffer1.clear();
    m_buffer2.clear();
    auto append = [](std::vector<float>& to, const torch::Tensor& t) {
        auto c = t.detach().contiguous();
        to.insert(to.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    };
    for (std::size_t i = 0; i < params.size(); ++i)
    {
        auto it = opt.state().find(StateKey(params[i]));
        if (it == opt.state().end())
        {
            continue;
        }
        if (m_kind == D2dLearner::ADAM)
        {
            const auto& st = static_cast<const torch::optim::AdamParamState&>(*it->second);
            NS_ABORT_MSG_IF(st.max_exp_avg_sq().defined(), "D2dLearner: amsgrad is not kept");
            m_steps.push_back(st.step());
            append(m_buffer1, st.exp_avg());
            append(m_buffer2, st.exp_avg_sq());
        }
        else
        {
            const auto& st = static_cast<const torch::optim::SGDParamState&>(*it->second);
            if (!st.momentum_buffer().defined())
            {
                continue;
            }
            append(m_buffer1, st.momentum_buffer());
        }
        m_hasState[i] = 1;
    }
}

void
D2dOptimizerState::Restore(torch::optim::Optimizer& opt,
                           const std::vector<torch::Tensor>& params) const
{
    if (m_hasState.size() != params.size())
    {
        return; // nothing kept yet
    }
    std::size_t offset = 0;
    std::size_t k = 0;
    auto take = [&params](const std::vector<float>& from, std::size_t at, std::size_t i) {
        return torch::from_blob(const_cast<float*>(from.data()) + at,
                                params[i].sizes(),
                                torch::kFloat)
            .clone();
    };
    for (std::size_t i = 0; i < params.size(); ++i)
    {
        if (!m_hasState[i])
        {
            continue;
        }
        const auto n = static_cast<std::size_t>(params[i].numel());
        if (m_kind == D2dLearner::ADAM)
        {
            auto st = std::make_unique<torch::optim::AdamParamState>();
            st->step(m_steps[k++]);
            st->exp_avg(take(m_buffer1, offset, i));
            st->exp_avg_sq(take(m_buffer2, offset, i));
            opt.state()[StateKey(params[i])] = std::move(st);
        }
        else
        {
            auto st = std::make_unique<torch::optim::SGDParamState>();
            st->momentum_buffer(take(m_buffer1, offset, i));
            opt.state()[StateKey(params[i])] = std::move(st);
        }
        offset += n;
    }
}

} // namespace ns3
