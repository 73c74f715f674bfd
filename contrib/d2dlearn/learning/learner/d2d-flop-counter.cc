/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-flop-counter.h"

#include <ATen/core/ivalue.h>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace ns3
{

namespace
{
/** The kinds of counted operators. */
enum class Kind
{
    NONE,
    CONVOLUTION, //!< weight at input 1: [out, in/groups, kernel...]
    LINEAR,      //!< weight at input 1: [out, in]
    PRODUCT,     //!< the first matrix operand's last dimension is contracted
};

/** A counted operator open on this thread's stack. */
struct Open
{
    double inner{0};                   //!< multiply-adds its own counted operators gave
    std::map<std::string, double> ops; //!< the same, per operator
};

/** What the counter of this thread has seen. */
struct State
{
    bool active{false};
    std::vector<Open> open; //!< counted operators open, outermost first
    double multiplyAdds{0};
    std::map<std::string, double> byOperator;
};

thread_local State t_state;

/** \return the kind of an operator \param name its name, e.g. "aten::addmm" */
Kind
KindOf(const char* name)
{
    static const std::map<std::string, Kind> kinds{
        {"aten::conv1d", Kind::CONVOLUTION},
        {"aten::conv2d", Kind::CONVOLUTION},
        {"aten::conv3d", Kind::CONVOLUTION},
        {"aten::convolution", Kind::CONVOLUTION},
        {"aten::_convolution", Kind::CONVOLUTION},
        {"aten::conv_transpose1d", Kind::CONVOLUTION},
        {"aten::conv_transpose2d", Kind::CONVOLUTION},
        {"aten::conv_transpose3d", Kind::CONVOLUTION},
        {"aten::linear", Kind::LINEAR},
        {"aten::addmm", Kind::PRODUCT},
        {"aten::mm", Kind::PRODUCT},
        {"aten::bmm", Kind::PRODUCT},
        {"aten::baddbmm", Kind::PRODUCT},
        {"aten::matmul", Kind::PRODUCT},
        {"aten::addmv", Kind::PRODUCT},
        {"aten::mv", Kind::PRODUCT},
    };
    auto it = kinds.find(name);
    return it == kinds.end() ? Kind::NONE : it->second;
}

/** \return the index of the first matrix operand (addmm's and baddbmm's come after the
 *  added tensor) \param name the operator */
std::size_t
FirstOperand(const char* name)
{
    return std::strcmp(name, "aten::addmm") == 0 || std::strcmp(name, "aten::baddbmm") == 0 ||
                   std::strcmp(name, "aten::addmv") == 0
               ? 1
               : 0;
}

/** \return input i as a tensor, or an undefined one \param fn the record \param i index */
at::Tensor
TensorInput(const at::RecordFunction& fn, std::size_t i)
{
    const auto inputs = fn.inputs();
    return i < inputs.size() && inputs[i].isTensor() ? inputs[i].toTensor() : at::Tensor();
}

/**
 * \return the multiply-adds of one counted operator, or -1 if its recorded inputs and
 * output are not consistent with it (LibTorch 1.13 records some operators that the
 * TorchScript interpreter calls from inside a method with the caller's stack as inputs:
 * then the operators it calls, whose records are right, are counted instead)
 * \param fn the record (inputs and outputs)
 * \param kind its kind
 */
double
MultiplyAdds(const at::RecordFunction& fn, Kind kind)
{
    const auto& outputs = fn.outputs();
    if (outputs.size() != 1 || !outputs[0].isTensor())
    {
        return -1;
    }
    const auto& y = outputs[0].toTensor();
    const double out = static_cast<double>(y.numel());
    if (kind == Kind::CONVOLUTION)
    {
        const auto x = TensorInput(fn, 0);
        const auto w = TensorInput(fn, 1);
        if (!x.defined() || !w.defined() || w.dim() < 3 || x.dim() < 2 || y.dim() != x.dim())
        {
            return -1;
        }
        const double perOutput = static_cast<double>(w.numel() / w.size(0));
        // A transposed convolution's weight is [in, out/groups, kernel...]: each input
        // element scatters to out/groups x kernel outputs, counted from the input side.
        if (std::strstr(fn.name(), "transpose") != nullptr)
        {
            return x.size(1) == w.size(0) ? static_cast<double>(x.numel()) * perOutput : -1;
        }
        // [out, in/groups, kernel...]: each output element gathers in/groups x kernel.
        return y.size(1) == w.size(0) && x.size(1) % w.size(1) == 0 ? out * perOutput : -1;
    }
    if (kind == Kind::LINEAR)
    {
        const auto x = TensorInput(fn, 0);
        const auto w = TensorInput(fn, 1);
        if (!x.defined() || !w.defined() || w.dim() != 2 || x.dim() < 1 ||
            x.size(-1) != w.size(1) || y.size(-1) != w.size(0))
        {
            return -1;
        }
        return out * static_cast<double>(w.size(1));
    }
    const std::size_t first = FirstOperand(fn.name());
    const auto a = TensorInput(fn, first);
    const auto b = TensorInput(fn, first + 1);
    if (!a.defined() || !b.defined() || a.dim() < 1 || b.dim() < 1 ||
        a.size(-1) != b.size(b.dim() >= 2 ? -2 : 0))
    {
        return -1;
    }
    return out * static_cast<double>(a.size(-1));
}

std::unique_ptr<at::ObserverContext>
OnStart(const at::RecordFunction& fn)
{
    if (KindOf(fn.name()) != Kind::NONE)
    {
        t_state.open.emplace_back();
    }
    return nullptr;
}

void
OnEnd(const at::RecordFunction& fn, at::ObserverContext*)
{
    const Kind kind = KindOf(fn.name());
    if (kind == Kind::NONE || t_state.open.empty())
    {
        return;
    }
    Open own = std::move(t_state.open.back());
    t_state.open.pop_back();
    // The outermost operator whose record is consistent counts, not the ones it calls.
    double n = MultiplyAdds(fn, kind);
    if (n < 0)
    {
        n = own.inner;
    }
    else
    {
        own.ops = {{fn.name(), n}};
    }
    auto& total = t_state.open.empty() ? t_state.multiplyAdds : t_state.open.back().inner;
    auto& ops = t_state.open.empty() ? t_state.byOperator : t_state.open.back().ops;
    total += n;
    for (const auto& [op, macs] : own.ops)
    {
        ops[op] += macs;
    }
}
} // namespace

D2dFlopCounter::D2dFlopCounter()
{
    if (t_state.active)
    {
        throw std::logic_error("D2dFlopCounter: a counter already runs on this thread");
    }
    t_state = State{};
    t_state.active = true;
    m_handle = at::addThreadLocalCallback(at::RecordFunctionCallback(&OnStart, &OnEnd)
                                              .needsInputs(true)
                                              .needsOutputs(true)
                                              .scopes({at::RecordScope::FUNCTION}));
}

D2dFlopCounter::~D2dFlopCounter()
{
    at::removeCallback(m_handle);
    t_state.active = false;
}

double
D2dFlopCounter::GetMultiplyAdds() const
{
    return t_state.multiplyAdds;
}

std::map<std::string, double>
D2dFlopCounter::GetByOperator() const
{
    return t_state.byOperator;
}

} // namespace ns3
