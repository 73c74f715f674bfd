/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-client-sample.h"

#include "d2d-fl-protocol.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

D2dClientSample::D2dClientSample()
    : m_pick(CreateObject<UniformRandomVariable>())
{
}

void
D2dClientSample::SetFraction(double fraction)
{
    m_fraction = fraction;
}

double
D2dClientSample::GetFraction() const
{
    return m_fraction;
}

void
D2dClientSample::SetOverSelection(double factor)
{
    m_overSelection = factor;
}

double
D2dClientSample::GetOverSelection() const
{
    return m_overSelection;
}

int64_t
D2dClientSample::AssignStreams(int64_t stream)
{
    m_pick->SetStream(stream);
    return 1;
}

uint32_t
D2dClientSample::Draw(std::vector<uint32_t>& order, uint32_t devices)
{
    m_answers.clear();
    m_asked.clear();
    m_failed.clear();
    const auto available = static_cast<uint32_t>(order.size());
    // m answers close the round; over-selection samples s m of the K devices (Bonawitz et al.
    // 2019), m itself by default.
    m_target =
        static_cast<uint32_t>(std::max(1.0, std::round(m_fraction * static_cast<double>(devices))));
    // (m below is the number sampled: m_target, or s m_target with over-selection, at most
    // the devices available.)
    const auto m = std::min(
        available,
        static_cast<uint32_t>(std::round(m_overSelection * static_cast<double>(m_target))));
    // Partial Fisher-Yates: the first m of a uniform permutation of the available devices.
    D2dFlProtocol::PartialShuffle(order, m, m_pick);
    m_available = available;
    m_asked.insert(order.begin(), order.begin() + m);
    return m;
}

bool
D2dClientSample::IsAsked(uint32_t device) const
{
    return m_asked.count(device) > 0;
}

void
D2dClientSample::Answer(uint32_t device, std::shared_ptr<const D2dModelPayload> payload)
{
    m_answers[device] = std::move(payload);
}

bool
D2dClientSample::GiveUp(uint32_t device)
{
    return IsAsked(device) && !m_answers.count(device) && m_failed.insert(device).second;
}

bool
D2dClientSample::IsComplete() const
{
    return m_answers.size() >= m_target || m_answers.size() + m_failed.size() >= m_asked.size();
}

const std::set<uint32_t>&
D2dClientSample::GetAsked() const
{
    return m_asked;
}

uint32_t
D2dClientSample::GetAvailable() const
{
    return m_available;
}

const D2dClientSample::Answers&
D2dClientSample::GetAnswers() const
{
    return m_answers;
}

void
D2dClientSample::ClearAnswers()
{
    m_answers.clear();
}

void
D2dClientSample::Dispose()
{
    m_pick = nullptr;
}

} // namespace ns3
