/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-learning-helper.h"

#include "ns3/abort.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-protocol-registry.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dLearningHelper");

D2dLearningHelper::D2dLearningHelper()
{
    m_protocolType = TypeId::LookupByName("ns3::D2dFedAvg");
    m_learner.SetTypeId("ns3::D2dLearner");
}

void
D2dLearningHelper::SetProtocolType(const std::string& type)
{
    NS_LOG_FUNCTION(this << type);
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(type, &tid),
                        "D2dLearningHelper::SetProtocolType: no class " << type);
    m_protocolType = tid;
    CheckProtocolType();
}

void
D2dLearningHelper::SetProtocol(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    const ObjectFactory factory = D2dProtocolRegistry::GetFactory(name);
    m_protocolType = factory.GetTypeId();
    CheckProtocolType();
    for (const auto& [attribute, value] : D2dProtocolRegistry::GetAttributes(name))
    {
        SetProtocolAttribute(attribute, StringValue(value));
    }
}

void
D2dLearningHelper::SetProtocolAttribute(const std::string& name, const AttributeValue& value)
{
    m_protocolAttributes.emplace_back(name, value.Copy());
}

TypeId
D2dLearningHelper::GetProtocolType() const
{
    return m_protocolType;
}

Ptr<D2dFlProtocol>
D2dLearningHelper::CreateProtocol() const
{
    CheckProtocolType();
    ObjectFactory factory;
    factory.SetTypeId(m_protocolType);
    for (const auto& [name, value] : m_protocolAttributes)
    {
        factory.Set(name, *value); // aborts naming the attribute if the type lacks it
    }
    return factory.Create<D2dFlProtocol>();
}

void
D2dLearningHelper::CheckProtocolType() const
{
    const TypeId tid = m_protocolType;
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(D2dFlProtocol::GetTypeId()) && tid.HasConstructor(),
                        "D2dLearningHelper::SetProtocolType: " << tid.GetName()
                                                               << " is not a D2dFlProtocol "
                                                                  "with a constructor");
}

bool
D2dLearningHelper::ProtocolUsesD2d() const
{
    auto probe = CreateProtocol();
    const bool uses = probe->UsesD2d();
    probe->Dispose();
    return uses;
}

bool
D2dLearningHelper::ProtocolUsesD2s() const
{
    auto probe = CreateProtocol();
    const bool uses = probe->UsesD2s();
    probe->Dispose();
    return uses;
}

void
D2dLearningHelper::SetLearnerAttribute(const std::string& name, const AttributeValue& value)
{
    m_learner.Set(name, value);
}

void
D2dLearningHelper::SetData(std::shared_ptr<const D2dDataset> train,
                           std::vector<D2dShard> shards,
                           std::shared_ptr<const D2dDataset> test)
{
    m_train = std::move(train);
    m_shards = std::move(shards);
    m_test = std::move(test);
}

void
D2dLearningHelper::SetModel(const D2dModelSpec& spec)
{
    m_specs = {spec};
}

void
D2dLearningHelper::SetModels(std::vector<D2dModelSpec> specs)
{
    m_specs = std::move(specs);
}

void
D2dLearningHelper::SetSeed(uint64_t seed)
{
    m_seed = seed;
    m_seedSet = true;
}

std::vector<Ptr<D2dLearner>>
D2dLearningHelper::InstallLearners(const NodeContainer& devices) const
{
    NS_LOG_FUNCTION(this << devices.GetN());
    NS_ABORT_MSG_IF(!m_train || !m_test, "D2dLearningHelper: no data (SetData)");
    NS_ABORT_MSG_IF(m_shards.size() < devices.GetN(),
                    "D2dLearningHelper: " << m_shards.size() << " shards for " << devices.GetN()
                                          << " devices (SetData: one each)");
    NS_ABORT_MSG_IF(m_specs.empty(), "D2dLearningHelper: no architecture (SetModel)");
    const uint64_t seed = m_seedSet ? m_seed : RngSeedManager::GetSeed();
    D2dTorchRuntime::Seed(seed);
    std::vector<Ptr<D2dLearner>> learners;
    learners.reserve(devices.GetN());
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        auto learner = m_learner.Create<D2dLearner>();
        learner->Setup(i, m_specs[i % m_specs.size()], m_train, m_shards[i], seed);
        learner->SetComputeModel(D2dHelper::GetComputeModel(devices.Get(i)));
        learners.push_back(learner);
    }
    return learners;
}

Ptr<D2dFlProtocol>
D2dLearningHelper::Install(const std::vector<Ptr<D2dLearner>>& learners,
                           const std::vector<Ptr<D2dTransport>>& d2d,
                           const std::vector<Ptr<D2dTransport>>& d2s,
                           D2dDeliveryMode mode) const
{
    NS_LOG_FUNCTION(this << learners.size() << d2d.size() << d2s.size());
    auto protocol = CreateProtocol();
    protocol->SetLearners(learners);
    protocol->SetTestSet(m_test);
    if (protocol->UsesD2d())
    {
        protocol->SetTransports(d2d, mode);
    }
    if (protocol->UsesD2s())
    {
        protocol->SetD2sTransports(d2s, mode);
    }
    return protocol;
}

Ptr<D2dFlProtocol>
D2dLearningHelper::Install(const NodeContainer& devices,
                           Ptr<D2dChannel> d2d,
                           Ptr<D2dChannel> d2s,
                           D2dDeliveryMode mode) const
{
    const auto learners = InstallLearners(devices);
    return Install(learners,
                   d2d ? d2d->GetTransports() : std::vector<Ptr<D2dTransport>>{},
                   d2s ? d2s->GetTransports() : std::vector<Ptr<D2dTransport>>{},
                   mode);
}

Ptr<D2dFlProtocol>
D2dLearningHelper::Install(const D2dNetwork& network) const
{
    // The transports of the backend (the channel's radios or 802.11's).
    return Install(InstallLearners(network.devices),
                   network.d2dTransports,
                   network.d2sTransports,
                   network.mode);
}

int64_t
D2dLearningHelper::AssignStreams(Ptr<D2dFlProtocol> protocol, int64_t stream) const
{
    return protocol->AssignStreams(stream);
}

} // namespace ns3
