/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-pca-exchange.h"

#include "d2d-discovery-payload.h"
#include "d2d-distributed-pca.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dPcaExchange");
NS_OBJECT_ENSURE_REGISTERED(D2dPcaExchange);

namespace
{
const std::string SKETCH = "pca_sketch";
const std::string SUBSPACE = "pca_subspace";
} // namespace

TypeId
D2dPcaExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dPcaExchange")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dPcaExchange>()
                            .AddAttribute("BytesPerValue",
                                          "Bytes per matrix entry on the air (4: float32)",
                                          UintegerValue(4),
                                          MakeUintegerAccessor(&D2dPcaExchange::m_bytesPerValue),
                                          MakeUintegerChecker<uint32_t>(1, 8));
    return tid;
}

D2dPcaExchange::D2dPcaExchange()
{
}

D2dPcaExchange::~D2dPcaExchange()
{
}

void
D2dPcaExchange::DoDispose()
{
    for (std::size_t i = 0; i < m_d2s.size(); ++i)
    {
        if (i + 1 < m_d2s.size())
        {
            m_d2s[i]->RemoveReceiveHandler(MakeCallback(&D2dPcaExchange::DeviceReceive, this));
        }
        else
        {
            m_d2s[i]->RemoveReceiveHandler(MakeCallback(&D2dPcaExchange::ServerReceive, this));
        }
        m_d2s[i]->RemoveSendDoneHandler(MakeCallback(&D2dPcaExchange::SendDone, this));
    }
    m_d2s.clear();
    m_finished = Callback<void, const std::vector<double>&, const std::vector<bool>&>();
    Object::DoDispose();
}

void
D2dPcaExchange::Setup(const std::vector<Ptr<D2dTransport>>& d2s,
                      std::vector<std::vector<double>> sketches,
                      std::size_t cols,
                      std::size_t d)
{
    NS_ABORT_MSG_IF(d2s.size() != sketches.size() + 1,
                    "D2dPcaExchange: N device transports and the server's are needed");
    m_d2s = d2s;
    m_sketches = std::move(sketches);
    m_cols = cols;
    m_d = d;
    const std::size_t n = m_sketches.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        m_d2s[i]->AddReceiveHandler(MakeCallback(&D2dPcaExchange::DeviceReceive, this), SUBSPACE);
        m_d2s[i]->AddSendDoneHandler(MakeCallback(&D2dPcaExchange::SendDone, this));
    }
    m_d2s[n]->AddReceiveHandler(MakeCallback(&D2dPcaExchange::ServerReceive, this), SKETCH);
    m_d2s[n]->AddSendDoneHandler(MakeCallback(&D2dPcaExchange::SendDone, this));
    m_arrived.assign(n, {});
    m_sketchIn.assign(n, false);
    m_subspaceIn.assign(n, false);
}

void
D2dPcaExchange::SetFinishedCallback(
    Callback<void, const std::vector<double>&, const std::vector<bool>&> cb)
{
    m_finished = cb;
}

uint32_t
D2dPcaExchange::GetSketchesReceived() const
{
    return std::count(m_sketchIn.begin(), m_sketchIn.end(), true);
}

uint64_t
D2dPcaExchange::GetBytesSent() const
{
    return m_bytes;
}

void
D2dPcaExchange::Start()
{
    const uint32_t n = m_sketches.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        auto payload = std::make_shared<D2dDiscoveryPayload>();
        payload->values = m_sketches[i];
        const uint64_t bytes = m_sketches[i].size() * m_bytesPerValue;
        auto msg = Create<D2dMessage>(SKETCH, bytes, payload);
        const uint64_t id = m_d2s[i]->Send(msg, n, D2dDeliveryMode::RELIABLE);
        if (id > 0)
        {
            m_pending.insert(id);
            m_bytes += bytes;
        }
    }
    MaybeFinish();
}

void
D2dPcaExchange::ServerReceive(const D2dReception& reception)
{
    if (!reception.IsComplete() || reception.src >= m_arrived.size())
    {
        return;
    }
    auto payload = reception.message->GetPayloadAs<D2dDiscoveryPayload>();
    m_arrived[reception.src] = payload->values;
    m_sketchIn[reception.src] = true;
}

void
D2dPcaExchange::DeviceReceive(const D2dReception& reception)
{
    if (reception.IsComplete() && reception.dst < m_subspaceIn.size())
    {
        m_subspaceIn[reception.dst] = true;
    }
}

void
D2dPcaExchange::SendDone(uint64_t msgId, uint32_t, bool)
{
    if (m_pending.erase(msgId) > 0)
    {
        MaybeFinish();
    }
}

void
D2dPcaExchange::MaybeFinish()
{
    if (!m_pending.empty() || m_done)
    {
        return;
    }
    const uint32_t n = m_sketches.size();
    // Every sketch has arrived or been given up on: F from those that arrived, if they stack
    // at least d rows (a lost sketch leaves an empty entry, which stacks nothing).
    std::size_t rows = 0;
    for (const auto& s : m_arrived)
    {
        rows += s.size() / m_cols;
    }
    if (!m_subspaceSent && rows >= m_d)
    {
        // The server's F, to every device in one transmission.
        m_subspaceSent = true;
        m_basis = D2dDistributedPca::CommonSubspace(m_arrived, m_cols, m_d);
        auto payload = std::make_shared<D2dDiscoveryPayload>();
        payload->values = m_basis;
        const uint64_t bytes = m_basis.size() * m_bytesPerValue;
        auto msg = Create<D2dMessage>(SUBSPACE, bytes, payload);
        std::vector<uint32_t> devices(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            devices[i] = i;
        }
        const uint64_t id = m_d2s[n]->Send(msg, devices, D2dDeliveryMode::RELIABLE);
        if (id > 0)
        {
            m_pending.insert(id);
            m_bytes += bytes;
            return;
        }
    }
    m_done = true;
    NS_LOG_INFO("distributed PCA done: "
                << m_bytes << " bytes, " << GetSketchesReceived() << " of " << n
                << " sketches, F at " << std::count(m_subspaceIn.begin(), m_subspaceIn.end(), true)
                << " devices");
    if (!m_finished.IsNull())
    {
        m_finished(m_basis, m_subspaceIn);
    }
}

} // namespace ns3
