/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-test-observer.h"

#include "ns3/callback.h"
#include "ns3/d2d-radio.h"
#include "ns3/simulator.h"

namespace ns3
{

void
D2dTestChannelObserver::Connect(Ptr<D2dChannel> ch)
{
    for (uint32_t i = 0; i < ch->GetNRadios(); ++i)
    {
        auto radio = ch->GetRadio(i);
        radio->TraceConnectWithoutContext(
            "Delivery",
            Callback<void, const D2dDeliveryRecord&>(
                [this](const D2dDeliveryRecord& r) { records.push_back(r); }));
        radio->SetReceiveCallback(Callback<void, const D2dReception&>(
            [this](const D2dReception& r) { receptions.push_back(r); }));
        radio->SetSendDoneCallback(Callback<void, uint64_t, uint32_t, bool>(
            [this](uint64_t id, uint32_t, bool ok) { sendDone.emplace_back(id, ok); }));
    }
    ch->TraceConnectWithoutContext(
        "Transmission",
        Callback<void, uint64_t, uint32_t, uint64_t, Time>(
            [this](uint64_t id, uint32_t s, uint64_t, Time airtime) {
                ++transmissions;
                onAir[id] = {Simulator::Now() - airtime, Simulator::Now()};
                sender[id] = s;
            }));
}

} // namespace ns3
