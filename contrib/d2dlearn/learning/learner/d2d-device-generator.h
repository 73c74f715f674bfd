/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DEVICE_GENERATOR_H
#define D2D_DEVICE_GENERATOR_H

/*
 * Internal header (includes LibTorch): a learner's own random stream. Only the learning
 * library's sources include it.
 */

#include <ATen/core/Generator.h>
#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A device's own torch generator: seeded from the run seed and the device id
 * (splitmix64), made at its first use (a device that never trains or evaluates holds
 * none), so that a learner's initial weights and batch order do not depend on thread timing
 * or on the other devices. Its first draws are the initial weights (InitialDrawn()).
 */
class D2dDeviceGenerator
{
  public:
    /**
     * \brief Seed the stream (before the first Get()).
     * \param runSeed the run's seed \param id the device id
     */
    void Seed(uint64_t runSeed, uint32_t id);
    /** \return the generator, made at the first call */
    at::Generator& Get();
    /** \return true once the initial weights have been drawn (the stream's first draws) */
    bool InitialDrawn() const;
    /** \brief The initial weights have been drawn (or are no longer due). */
    void SetInitialDrawn();

  private:
    uint64_t m_seed{0};                       //!< the device's seed (run seed and id, mixed)
    std::optional<at::Generator> m_generator; //!< made at its first use
    bool m_initialDrawn{false};               //!< the initial weights were drawn
};

} // namespace ns3

#endif /* D2D_DEVICE_GENERATOR_H */
