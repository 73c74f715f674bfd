/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-model-exchange.h"

#include "d2d-fl-protocol.h"
#include "d2d-locality-order.h"

#include "ns3/abort.h"
#include "ns3/d2d-robust-aggregation.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dModelExchange");
NS_OBJECT_ENSURE_REGISTERED(D2dModelExchange);

/**
 * Deferred mode: each device's trained-model job of a step, and how many deferred averages
 * that have not run yet read it. A job's result is dropped (Release) once the step is over
 * (sealed: no average can be added) and no deferred average is left to read it. Used in
 * the event loop's thread only.
 */
struct D2dModelExchange::JobLedger
{
    std::vector<std::shared_ptr<D2dDeferredJob>> jobs; //!< by device (null: none, or dropped)
    std::vector<uint32_t> readers;                     //!< by device
    bool sealed{false};

    /** \param n devices */
    explicit JobLedger(std::size_t n)
        : jobs(n),
          readers(n, 0)
    {
    }

    /** \param k a device whose job a deferred average no longer needs */
    void Done(uint32_t k)
    {
        NS_ASSERT(readers[k] > 0);
        if (--readers[k] == 0 && sealed)
        {
            Drop(k);
        }
    }

    /** \brief The step is over: drop the jobs no deferred average reads. */
    void Seal()
    {
        sealed = true;
        for (uint32_t k = 0; k < jobs.size(); ++k)
        {
            if (readers[k] == 0)
            {
                Drop(k);
            }
        }
    }

    /** \param k a device whose job's result nobody will read */
    void Drop(uint32_t k)
    {
        if (auto job = std::move(jobs[k])) // leaves jobs[k] null
        {
            job->Release(); // a job not run yet still runs when its learner settles
        }
    }
};

TypeId
D2dModelExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dModelExchange")
                            .SetParent<Object>()
                            .SetGroupName("D2dlearn")
                            .AddConstructor<D2dModelExchange>();
    return tid;
}

D2dModelExchange::D2dModelExchange()
{
}

void
D2dModelExchange::DoDispose()
{
    m_ledger = nullptr; // learners may still hold deferred averages: they keep what they read
    m_learners.clear();
    // The transports may outlive this object: leave them no callback into it.
    for (const auto& transport : m_transports)
    {
        transport->RemoveReceiveHandler(MakeCallback(&D2dModelExchange::Receive, this));
        transport->TraceDisconnectWithoutContext("Delivery",
                                                 MakeCallback(&D2dModelExchange::Delivery, this));
        transport->TraceDisconnectWithoutContext("Presence",
                                                 MakeCallback(&D2dModelExchange::Presence, this));
    }
    m_transports.clear();
    m_averaged = AveragedCallback();
    m_done = Callback<void>();
    Object::DoDispose();
}

void
D2dModelExchange::Setup(const std::vector<Ptr<D2dLearner>>& learners,
                        const std::vector<Ptr<D2dTransport>>& transports,
                        D2dDeliveryMode mode,
                        const D2dModelCodec& codec)
{
    NS_ABORT_MSG_IF(transports.size() != learners.size(),
                    "D2dModelExchange: " << transports.size() << " transports for "
                                         << learners.size() << " learners");
    m_learners = learners;
    m_transports = transports;
    m_mode = mode;
    m_codec = codec;
    for (const auto& transport : m_transports)
    {
        transport->AddReceiveHandler(MakeCallback(&D2dModelExchange::Receive, this),
                                     D2dModelCodec::KIND_MODEL);
        transport->TraceConnectWithoutContext("Delivery",
                                              MakeCallback(&D2dModelExchange::Delivery, this));
        transport->TraceConnectWithoutContext("Presence",
                                              MakeCallback(&D2dModelExchange::Presence, this));
    }
    m_state.assign(m_learners.size(), DeviceState());
}

void
D2dModelExchange::SetSampleWeighting(bool bySamples)
{
    m_bySamples = bySamples;
}

void
D2dModelExchange::SetDeferred(bool deferred)
{
    m_deferred = deferred;
}

uint32_t
D2dModelExchange::Begin(uint32_t round,
                        const std::vector<std::vector<uint32_t>>& in,
                        const D2dTrainTask& task,
                        AveragedCallback averaged,
                        Callback<void> done)
{
    const auto n = static_cast<uint32_t>(m_learners.size());
    NS_ABORT_MSG_IF(m_transports.empty(), "D2dModelExchange: Setup() not called");
    NS_ABORT_MSG_IF(in.size() != n, "D2dModelExchange: " << in.size() << " neighbour lists");
    ComputeModels(); // what the last step left deferred, before anyone reads or trains
    if (m_ledger)
    {
        m_ledger->Seal(); // a step left open: its messages are forgotten below
    }
    ++m_step;
    m_round = round;
    m_open = true;
    m_averaged = averaged;
    m_done = done;
    m_received = 0;
    ForgetMessages(); // messages of earlier steps are stale from now on
    m_state.assign(n, DeviceState());
    m_ledger = m_deferred ? std::make_shared<JobLedger>(n) : nullptr;
    D2dTrainTask job = task;
    job.deferrable = m_deferred;
    m_out.assign(n, {});
    // Who takes part: a battery left, idle, and the job accepted.
    std::vector<uint32_t> starting;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_transports[i]->IsOff() && !m_learners[i]->IsTraining())
        {
            starting.push_back(i);
            m_state[i].participating = true;
        }
    }
    // Who waits for whom (among participants only).
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_state[i].participating)
        {
            continue;
        }
        for (uint32_t j : in[i])
        {
            NS_ABORT_MSG_IF(j >= n || j == i, "D2dModelExchange: bad neighbour " << j);
            if (m_state[j].participating && m_state[i].pending.insert(j).second)
            {
                m_out[j].push_back(i);
            }
        }
    }
    for (auto& out : m_out)
    {
        std::sort(out.begin(), out.end());
    }
    // Start the jobs. A job refused (battery just empty) is no participant after all.
    const uint64_t step = m_step;
    uint32_t participants = 0;
    std::vector<uint32_t> refused;
    for (uint32_t i : starting)
    {
        const bool ok = m_learners[i]->Train(job, [this, i, step](const D2dTrainResult& r) {
            Trained(i, step, r.deferred);
        });
        if (ok)
        {
            ++participants;
        }
        else
        {
            refused.push_back(i);
        }
    }
    m_waiting = participants;
    for (uint32_t j : refused)
    {
        m_state[j].participating = false;
        for (uint32_t i : m_out[j])
        {
            m_state[i].pending.erase(j);
        }
        m_out[j].clear();
    }
    NS_LOG_INFO("round " << round << " step " << step << ": " << participants << " participants");
    if (participants == 0)
    {
        EndStep();
        if (!m_done.IsNull())
        {
            Simulator::ScheduleNow(m_done);
        }
    }
    // Jobs complete at their completion events (never in Train itself), so nothing has
    // averaged yet.
    return participants;
}

void
D2dModelExchange::Trained(uint32_t device, uint64_t step, std::shared_ptr<D2dDeferredJob> job)
{
    if (!m_open || step != m_step)
    {
        NS_LOG_INFO("device " << device << ": job of an earlier step done, ignored");
        return; // a straggler done after its step's deadline: it keeps its model
    }
    DeviceState& s = m_state[device];
    s.trained = true;
    if (job && m_ledger)
    {
        m_ledger->jobs[device] = job;
    }
    if (!m_out[device].empty())
    {
        Ptr<D2dLearner> learner = m_learners[device];
        // The weights (no copy), or the job that computes them when a receiver reads them.
        auto message = job ? m_codec.EncodeDeferred(D2dModelCodec::KIND_MODEL,
                                                    D2dModelCodec::WHAT_WEIGHTS,
                                                    m_round,
                                                    learner->GetNSamples(),
                                                    device,
                                                    job,
                                                    learner->GetNParameters())
                           : m_codec.Encode(D2dModelCodec::KIND_MODEL,
                                            D2dModelCodec::WHAT_WEIGHTS,
                                            m_round,
                                            learner->GetNSamples(),
                                            device,
                                            learner->GetSharedParameters());
        // Copied: a resolution below may end the step.
        const std::vector<uint32_t> out = m_out[device];
        std::vector<uint32_t> unsent;
        for (uint32_t dst : out)
        {
            if (m_messages.Send(m_transports[device], device, {dst}, message, m_mode) == 0)
            {
                unsent.push_back(dst); // the sender is off: nothing will come
            }
        }
        for (uint32_t dst : unsent)
        {
            Resolve(dst, device);
        }
    }
    TryAverage(device);
}

void
D2dModelExchange::Receive(const D2dReception& r)
{
    if (!m_open)
    {
        return;
    }
    const auto sent = m_messages.Resolve(r.msgId, r.dst);
    if (!sent)
    {
        return; // a message of an earlier step
    }
    // Resolved by its reception, complete (received) or not (lost).
    const uint32_t src = sent->src;
    const uint32_t dst = r.dst;
    DeviceState& s = m_state[dst];
    if (r.IsComplete() && s.pending.count(src) && !s.averaged)
    {
        // What arrived is what was sent (a model with missing fragments is no model).
        s.received[src] = r.message->GetPayloadAs<D2dModelPayload>();
        ++m_received;
    }
    Resolve(dst, src);
}

void
D2dModelExchange::Delivery(const D2dDeliveryRecord& record)
{
    if (!m_open || record.delivered)
    {
        return; // a delivered message is resolved by its reception
    }
    const auto sent = m_messages.Resolve(record.msgId, record.dst);
    if (!sent)
    {
        return;
    }
    const uint32_t src = sent->src;
    NS_LOG_INFO("model of " << src << " to " << record.dst << " lost: " << record.reason);
    Resolve(record.dst, src);
}

void
D2dModelExchange::Presence(uint32_t device, bool present)
{
    if (present || !m_open || device >= m_state.size())
    {
        return;
    }
    DeviceState& s = m_state[device];
    if (!s.participating || s.averaged || s.gone)
    {
        return;
    }
    // A participant went away (or its battery emptied) before it averaged: its job, or its
    // models still to send, are lost. Its in-neighbours stop waiting for it, and it averages
    // nothing (a straggler of the step); it takes part again in the first step that finds it
    // back.
    NS_LOG_INFO("device " << device << " left the step before averaging");
    s.gone = true;
    s.trained = false; // an away device computes no average
    --m_waiting;
    Simulator::ScheduleNow(&D2dModelExchange::Gone, this, device, m_step); // not in the trace
}

void
D2dModelExchange::Gone(uint32_t device, uint64_t step)
{
    if (!m_open || step != m_step)
    {
        return;
    }
    const std::vector<uint32_t> out = m_out[device];
    for (uint32_t dst : out)
    {
        Resolve(dst, device);
    }
    if (m_waiting == 0 && m_open)
    {
        EndStep();
        if (!m_done.IsNull())
        {
            m_done();
        }
    }
}

void
D2dModelExchange::Resolve(uint32_t device, uint32_t origin)
{
    if (m_state[device].pending.erase(origin) > 0)
    {
        TryAverage(device);
    }
}

void
D2dModelExchange::TryAverage(uint32_t device)
{
    const DeviceState& s = m_state[device];
    if (m_open && s.CanAverage() && s.pending.empty())
    {
        Average(device);
        if (m_waiting == 0)
        {
            EndStep();
            if (!m_done.IsNull())
            {
                Simulator::ScheduleNow(m_done); // not from inside a reception
            }
        }
    }
}

void
D2dModelExchange::Average(uint32_t device)
{
    DeviceState& s = m_state[device];
    Ptr<D2dLearner> learner = m_learners[device];
    // Its own model: the weights it trained (no copy), or the job that trains them.
    auto own = std::make_shared<D2dModelPayload>();
    own->samples = learner->GetNSamples();
    own->origin = device;
    if (m_ledger && m_ledger->jobs[device])
    {
        own->deferred = m_ledger->jobs[device];
    }
    else
    {
        own->values = learner->GetSharedParameters();
    }
    std::vector<std::shared_ptr<const D2dModelPayload>> models;
    std::vector<double> weights;
    std::vector<uint32_t> contributors;
    bool ownDone = false;
    auto add = [&](const std::shared_ptr<const D2dModelPayload>& payload) {
        models.push_back(payload);
        weights.push_back(m_bySamples ? static_cast<double>(payload->samples) : 1.0);
        contributors.push_back(payload->origin);
    };
    // Ascending device order, the device itself included at its place.
    for (const auto& [origin, payload] : s.received)
    {
        if (!ownDone && origin > device)
        {
            add(own);
            ownDone = true;
        }
        add(payload);
    }
    if (!ownDone)
    {
        add(own);
    }
    // The sum itself: sum_k (a_k / sum a) w_k in ascending k, each model read when it is
    // added (one model: its own, no copy).
    auto average = [models, weights]() -> std::shared_ptr<const std::vector<float>> {
        if (models.size() == 1)
        {
            return models[0]->Resolve();
        }
        return std::make_shared<const std::vector<float>>(
            D2dRobustAggregation::Mean(weights,
                                       [&models](std::size_t k) { return models[k]->Resolve(); }));
    };
    if (m_ledger)
    {
        // Deferred: computed when the learner's weights are first read (ComputeModels).
        // The reading hold is given back when the learner drops the computation.
        struct Reading
        {
            std::shared_ptr<JobLedger> ledger;
            std::vector<uint32_t> devices; //!< those with a job in the ledger

            ~Reading()
            {
                for (uint32_t k : devices)
                {
                    ledger->Done(k);
                }
            }
        };

        auto reading = std::make_shared<Reading>();
        reading->ledger = m_ledger;
        for (uint32_t k : contributors)
        {
            if (m_ledger->jobs[k])
            {
                ++m_ledger->readers[k];
                reading->devices.push_back(k);
            }
        }
        s.contributors = contributors;
        learner->SetDeferredParameters([average, reading]() { return average(); });
    }
    else if (models.size() > 1)
    {
        learner->SetParameters(average());
    }
    s.averaged = true;
    s.received.clear();
    --m_waiting;
    if (!m_averaged.IsNull())
    {
        m_averaged(device, contributors);
    }
}

void
D2dModelExchange::Close()
{
    if (!m_open)
    {
        return;
    }
    D2dStepProgress::AverageAtDeadline(m_state, [this](uint32_t i) { Average(i); });
    EndStep();
    ForgetMessages();
}

void
D2dModelExchange::EndStep()
{
    m_open = false;
    if (m_ledger)
    {
        m_ledger->Seal();
    }
}

void
D2dModelExchange::ComputeModels()
{
    if (!m_ledger)
    {
        return; // eager mode (or nothing left deferred)
    }
    const auto ledger = m_ledger; // the deferred averages hold it too
    if (ledger->sealed)
    {
        m_ledger = nullptr; // the step is over: nothing more will be deferred
    }
    const auto n = static_cast<uint32_t>(m_state.size());
    std::vector<std::vector<uint32_t>> reads(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        reads[i] = m_state[i].contributors;
    }
    const auto order = D2dLocalityOrder(reads);
    // The jobs in the order the averages first read them, and how many each average adds.
    std::vector<std::shared_ptr<D2dDeferredJob>> firstRead;
    std::vector<uint32_t> added(n, 0);
    std::vector<bool> seen(n, false);
    for (uint32_t i : order)
    {
        for (uint32_t k : reads[i])
        {
            if (!seen[k] && ledger->jobs[k])
            {
                seen[k] = true;
                firstRead.push_back(ledger->jobs[k]);
                ++added[i];
            }
        }
    }
    // Keep the workers busy with the next jobs, a few ahead (each ahead is a model).
    const std::size_t ahead = 2 * std::max<std::size_t>(1, D2dTorchRuntime::GetWorkers());
    std::size_t prefetched = 0;
    std::size_t needed = 0;
    for (uint32_t i : order)
    {
        if (reads[i].empty())
        {
            continue;
        }
        needed += added[i];
        for (; prefetched < firstRead.size() && prefetched < needed + ahead; ++prefetched)
        {
            firstRead[prefetched]->Prefetch();
        }
        if (!m_learners[i]->IsTraining() && m_learners[i]->HasDeferredParameters())
        {
            m_learners[i]->GetSharedParameters(); // computes the average, nothing copied
        }
        m_state[i].contributors.clear();
    }
}

void
D2dModelExchange::ForgetMessages()
{
    // Those on the air go on; their outcomes, stale, resolve nothing.
    m_messages.Withdraw(m_transports, false);
}

bool
D2dModelExchange::IsOpen() const
{
    return m_open;
}

std::vector<uint32_t>
D2dModelExchange::GetParticipants() const
{
    std::vector<uint32_t> p;
    for (uint32_t i = 0; i < m_state.size(); ++i)
    {
        if (m_state[i].participating)
        {
            p.push_back(i);
        }
    }
    return p;
}

bool
D2dModelExchange::HasAveraged(uint32_t device) const
{
    return device < m_state.size() && m_state[device].averaged;
}

uint32_t
D2dModelExchange::GetNStragglers() const
{
    return D2dStepProgress::CountStragglers(m_state);
}

uint32_t
D2dModelExchange::GetNModelsReceived() const
{
    return m_received;
}

} // namespace ns3
