/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-local-training.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dLocalTraining");
NS_OBJECT_ENSURE_REGISTERED(D2dLocalTraining);

TypeId
D2dLocalTraining::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dLocalTraining")
            .SetParent<D2dFlProtocol>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dLocalTraining>()
            .AddAttribute("CommonInitialModel",
                          "Every device of device 0's architecture starts from device 0's "
                          "initial weights (false: each from its own initialization)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&D2dLocalTraining::m_commonInitialModel),
                          MakeBooleanChecker());
    return tid;
}

D2dLocalTraining::D2dLocalTraining()
{
}

void
D2dLocalTraining::DoDispose()
{
    m_deadlineEvent.Cancel();
    for (const auto& learner : m_learners)
    {
        learner->TraceDisconnectWithoutContext("TrainingLost",
                                               MakeCallback(&D2dLocalTraining::Lost, this));
    }
    D2dFlProtocol::DoDispose();
}

uint32_t
D2dLocalTraining::GetMinDevices() const
{
    return 1;
}

bool
D2dLocalTraining::AveragesModels() const
{
    return false;
}

std::vector<std::string>
D2dLocalTraining::GetUnreadAttributes() const
{
    return {"ns3::D2dFlProtocol::Compression"};
}

void
D2dLocalTraining::DoStart()
{
    NS_ABORT_MSG_IF(m_learners.empty() || !GetTestSet(),
                    "D2dLocalTraining: not set up (SetLearners, SetTestSet)");
    const uint32_t k = GetNDevices();
    m_jobs.Revive(k);
    if (m_commonInitialModel)
    {
        const auto w0 = m_learners[0]->GetSharedParameters(); // shared, copy-on-write
        for (uint32_t i = 1; i < k; ++i)
        {
            // Only devices of device 0's architecture can take its weights.
            if (!m_learners[i]->IsTraining() &&
                m_learners[i]->GetSpec().ToString() == m_learners[0]->GetSpec().ToString())
            {
                m_learners[i]->SetParameters(w0);
            }
        }
    }
    for (const auto& learner : m_learners)
    {
        learner->TraceConnectWithoutContext("TrainingLost",
                                            MakeCallback(&D2dLocalTraining::Lost, this));
    }
    RecordDevices(0, LiveDevices());
    StartRound();
}

void
D2dLocalTraining::StartRound()
{
    ++m_round;
    MarkRoundStart(Simulator::Now());
    m_roundOpen = true;
    m_completed = 0;
    m_lost = 0;
    m_available = 0;
    for (const auto& learner : m_learners)
    {
        m_available += learner->IsAway() ? 0 : 1;
    }
    const uint32_t round = m_round;
    m_running = StartLiveJobs(LocalTask(), [this, round](uint32_t i, const D2dTrainResult&) {
        Trained(i, round);
    });
    NS_LOG_INFO("round " << m_round << ": " << m_running.size() << " jobs");
    if (m_running.empty())
    {
        Simulator::ScheduleNow(&D2dLocalTraining::EndOfRound, this);
    }
    else if (m_deadline > Seconds(0))
    {
        m_deadlineEvent = Simulator::Schedule(m_deadline, &D2dLocalTraining::EndOfRound, this);
    }
}

void
D2dLocalTraining::Trained(uint32_t device, uint32_t round)
{
    if (!m_roundOpen || round != m_round)
    {
        return; // a straggler's job of an earlier round
    }
    m_running.erase(device);
    ++m_completed;
    if (m_running.empty())
    {
        m_deadlineEvent.Cancel();
        EndOfRound();
    }
}

void
D2dLocalTraining::Lost(uint32_t device, Time, Time)
{
    if (!m_roundOpen || m_running.erase(device) == 0)
    {
        return; // not a job of this round
    }
    ++m_lost;
    if (m_running.empty())
    {
        m_deadlineEvent.Cancel();
        m_roundOpen = false; // (EndOfRound opens no other event of this round)
        Simulator::ScheduleNow(&D2dLocalTraining::EndOfRound, this); // not inside the trace
    }
}

void
D2dLocalTraining::EndOfRound()
{
    m_roundOpen = false;
    RecordDevices(m_round, LiveDevices()); // skips devices still training
    if (!m_learners.empty() && m_learners[0]->MayGoAway())
    {
        WriteRow(m_round, -1, "available", static_cast<double>(m_available));
    }
    WriteRoundTime(m_round);
    WriteRow(m_round, -1, "participants", static_cast<double>(m_completed));
    WriteRow(m_round, -1, "stragglers", static_cast<double>(m_running.size() + m_lost));
    EndRound(MakeCallback(&D2dLocalTraining::StartRound, this));
}

} // namespace ns3
