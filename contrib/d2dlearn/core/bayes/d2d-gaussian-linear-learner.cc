/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-gaussian-linear-learner.h"

#include "ns3/abort.h"
#include "ns3/double.h"

#include <fmt/format.h>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(D2dGaussianLinearLearner);

TypeId
D2dGaussianLinearLearner::GetTypeId()
{
    static TypeId tid = TypeId("ns3::D2dGaussianLinearLearner")
                            .SetParent<D2dBeliefLearner>()
                            .SetGroupName("D2dlearn");
    return tid;
}

const std::vector<double> D2dGaussianLinearLearner::THETA = {-0.3, 0.5, 0.8};
const std::vector<double> D2dGaussianLinearLearner::HALF_WIDTH = {1.0, 1.5};

D2dGaussianLinearLearner::D2dGaussianLinearLearner(uint32_t nDevices, uint32_t nTest)
    : m_n(nDevices),
      m_nTest(nTest),
      m_central(std::vector<double>(DIM, PRIOR_VAR))
{
    NS_ABORT_MSG_IF(nDevices == 0 || nTest == 0, "need devices and a test set");
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_private.emplace_back(std::vector<double>(DIM, PRIOR_VAR));
        m_x.push_back(CreateObject<UniformRandomVariable>());
        auto noise = CreateObject<NormalRandomVariable>();
        noise->SetAttribute("Variance", DoubleValue(NOISE_SD * NOISE_SD));
        m_noise.push_back(noise);
    }
    m_testX = CreateObject<UniformRandomVariable>();
    m_testNoise = CreateObject<NormalRandomVariable>();
    m_testNoise->SetAttribute("Variance", DoubleValue(NOISE_SD * NOISE_SD));
}

uint32_t
D2dGaussianLinearLearner::GetNDevices() const
{
    return m_n;
}

uint32_t
D2dGaussianLinearLearner::GetNValues() const
{
    return D2dGaussianBelief::VectorSize(DIM);
}

std::vector<double>
D2dGaussianLinearLearner::GetInitialPublic(uint32_t /*i*/) const
{
    return D2dGaussianBelief(std::vector<double>(DIM, PRIOR_VAR)).ToVector();
}

double
D2dGaussianLinearLearner::Draw(uint32_t i, std::vector<double>& phi)
{
    // User A (even i) sees x_1 only, user B (odd i) x_2 only.
    const uint32_t input = i % 2;
    phi.assign(DIM, 0.0);
    phi[0] = 1.0;
    phi[1 + input] = m_x[i]->GetValue(-HALF_WIDTH[input], HALF_WIDTH[input]);
    double y = m_noise[i]->GetValue();
    for (uint32_t k = 0; k < DIM; ++k)
    {
        y += THETA[k] * phi[k];
    }
    return y;
}

std::vector<double>
D2dGaussianLinearLearner::LocalUpdate(uint32_t i)
{
    std::vector<double> phi;
    const double y = Draw(i, phi);
    D2dGaussianBelief b = m_private[i];
    b.Update(phi, y, NOISE_SD * NOISE_SD); // eq. (2)
    return b.ToVector();
}

void
D2dGaussianLinearLearner::Consensus(uint32_t i,
                                    const std::vector<double>& weights,
                                    const std::vector<const std::vector<double>*>& beliefs)
{
    std::vector<D2dGaussianBelief> parsed;
    parsed.reserve(beliefs.size());
    std::vector<const D2dGaussianBelief*> ptrs;
    for (const auto* v : beliefs)
    {
        parsed.push_back(D2dGaussianBelief::FromVector(DIM, *v));
    }
    for (const auto& b : parsed)
    {
        ptrs.push_back(&b);
    }
    m_private[i] = D2dGaussianBelief::Consensus(weights, ptrs); // eq. (3)
}

void
D2dGaussianLinearLearner::CentralStep()
{
    for (uint32_t i = 0; i < m_n; ++i)
    {
        std::vector<double> phi;
        const double y = Draw(i, phi);
        m_central.Update(phi, y, NOISE_SD * NOISE_SD);
    }
}

const D2dGaussianBelief&
D2dGaussianLinearLearner::GetBelief(int64_t node) const
{
    return node < 0 ? m_central : m_private.at(node);
}

double
D2dGaussianLinearLearner::TestMse(int64_t node) const
{
    NS_ABORT_MSG_IF(m_testPhi.empty(), "AssignStreams() draws the test set: call it first");
    const auto mu = GetBelief(node).Mean();
    double sum = 0;
    for (uint32_t t = 0; t < m_nTest; ++t)
    {
        double pred = 0;
        for (uint32_t k = 0; k < DIM; ++k)
        {
            pred += mu[k] * m_testPhi[t][k];
        }
        sum += (pred - m_testY[t]) * (pred - m_testY[t]);
    }
    return sum / m_nTest;
}

double
D2dGaussianLinearLearner::TestExcessMse(int64_t node) const
{
    NS_ABORT_MSG_IF(m_testPhi.empty(), "AssignStreams() draws the test set: call it first");
    const auto mu = GetBelief(node).Mean();
    double sum = 0;
    for (uint32_t t = 0; t < m_nTest; ++t)
    {
        double pred = 0;
        for (uint32_t k = 0; k < DIM; ++k)
        {
            pred += mu[k] * m_testPhi[t][k];
        }
        sum += (pred - m_testClean[t]) * (pred - m_testClean[t]);
    }
    return sum / m_nTest;
}

std::string
D2dGaussianLinearLearner::GetBeliefsHeader() const
{
    return "mean_0,mean_1,mean_2,var_0,var_1,var_2";
}

std::string
D2dGaussianLinearLearner::GetBeliefsRow(int64_t node) const
{
    const auto& b = GetBelief(node);
    const auto mu = b.Mean();
    const auto var = b.Variance();
    return fmt::format("{},{},{},{},{},{}", mu[0], mu[1], mu[2], var[0], var[1], var[2]);
}

std::vector<std::pair<std::string, double>>
D2dGaussianLinearLearner::GetMetrics(int64_t node) const
{
    return {{"mse", TestMse(node)}, {"excess_mse", TestExcessMse(node)}};
}

int64_t
D2dGaussianLinearLearner::AssignStreams(int64_t stream)
{
    m_testX->SetStream(stream);
    m_testNoise->SetStream(stream + 1);
    for (uint32_t i = 0; i < m_n; ++i)
    {
        m_x[i]->SetStream(stream + 2 + 2 * i);
        m_noise[i]->SetStream(stream + 3 + 2 * i);
    }
    // The test set: both inputs, drawn once.
    m_testPhi.clear();
    m_testY.clear();
    m_testClean.clear();
    for (uint32_t t = 0; t < m_nTest; ++t)
    {
        std::vector<double> phi = {1.0,
                                   m_testX->GetValue(-HALF_WIDTH[0], HALF_WIDTH[0]),
                                   m_testX->GetValue(-HALF_WIDTH[1], HALF_WIDTH[1])};
        double clean = 0;
        for (uint32_t k = 0; k < DIM; ++k)
        {
            clean += THETA[k] * phi[k];
        }
        m_testPhi.push_back(phi);
        m_testClean.push_back(clean);
        m_testY.push_back(clean + m_testNoise->GetValue());
    }
    return 2 + 2 * m_n;
}

} // namespace ns3
