/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Internal header (includes LibTorch): only the learning library's sources and its tests
 * include it.
 */
#ifndef D2D_FLOP_COUNTER_H
#define D2D_FLOP_COUNTER_H

#include <ATen/record_function.h>
#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Counts the multiply-adds of the convolutions, linear layers and matrix products
 * LibTorch runs on this thread while the counter lives, from the operators' real shapes
 * (a RecordFunction observer on the dispatcher, so it sees the operators of a TorchScript
 * module exactly as those of a C++ one).
 *
 * Counted operators, each as (elements of its output) x (the length of the dimension it
 * contracts): aten::conv1d/2d/3d, aten::convolution, aten::_convolution and their
 * transposed forms (the weight's size(1) x kernel area: input channels per group x kernel),
 * aten::linear (the weight's size(1)), aten::addmm, mm, bmm, baddbmm, matmul, addmv, mv
 * (the first matrix operand's last dimension). An operator inside a counted one (linear
 * calling addmm, conv2d calling convolution) is not counted again. Everything else
 * (activations, pooling, normalisation, additions) is not counted: forward FLOPs are then
 * 2 x these multiply-adds, the convention of d2dlearn's built-in models (D2dNetImpl), so a
 * built-in model counted here gives its own formula's number. Recurrent layers are counted
 * through the matrix products they run (aten::lstm calls linear and matmul per step).
 *
 * Not thread-safe across threads by design: only the operators of the constructing thread
 * are seen (a thread-local callback). Nesting counters on one thread is not supported.
 */
class D2dFlopCounter
{
  public:
    /** \brief Start counting this thread's operators. */
    D2dFlopCounter();
    /** \brief Stop counting. */
    ~D2dFlopCounter();
    D2dFlopCounter(const D2dFlopCounter&) = delete;
    D2dFlopCounter& operator=(const D2dFlopCounter&) = delete;

    /** \return the multiply-adds counted so far */
    double GetMultiplyAdds() const;
    /** \return multiply-adds per counted operator name (e.g. "aten::conv2d") */
    std::map<std::string, double> GetByOperator() const;

  private:
    at::CallbackHandle m_handle; //!< the thread-local observer
};

} // namespace ns3

#endif /* D2D_FLOP_COUNTER_H */
