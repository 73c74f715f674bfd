/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "d2d-unsupervised-paradigm.h"

#include "d2d-distributed-pca.h"
#include "d2d-message-passing.h"

#include "ns3/abort.h"
#include "ns3/d2d-ns3-compat.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dUnsupervisedParadigm");
NS_OBJECT_ENSURE_REGISTERED(D2dUnsupervisedParadigm);

namespace
{
/** Purpose constants of the paradigm's D2dDataRng streams (sub = device). */
constexpr uint32_t GAIN_SAMPLES = 0x47440003;
constexpr uint32_t EXCHANGE_DRAW = 0x47440004;
constexpr uint64_t SAMPLED_ID = std::numeric_limits<uint64_t>::max();
} // namespace

TypeId
D2dUnsupervisedParadigm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::D2dUnsupervisedParadigm")
            .SetParent<D2dDiscoveryParadigm>()
            .SetGroupName("D2dlearn")
            .AddConstructor<D2dUnsupervisedParadigm>()
            .AddAttribute("Clusters",
                          "L: K-means clusters per device (the paper's K = 7, sec. VI-N)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&D2dUnsupervisedParadigm::m_nClusters),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("RequestPoints",
                          "Q_{j->i}: datapoints a receiver requests from its transmitter",
                          UintegerValue(100),
                          MakeUintegerAccessor(&D2dUnsupervisedParadigm::m_requestPoints),
                          MakeUintegerChecker<uint32_t>(1, 100000000))
            .AddAttribute("RetainFraction",
                          "b_j[l] / D_j[l]: share of each cluster a transmitter keeps (b_j "
                          "rounded up)",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&D2dUnsupervisedParadigm::m_retainFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AgreementMix",
                          "Means of h^A in eq. (17): post-exchange (N(mu-tilde, Sigma-tilde)) or "
                          "printed (N(mu, Sigma-tilde), as the paper's text prints it)",
                          EnumValue(D2dGaussianClusters::POST_EXCHANGE),
                          D2dMakeEnumAccessor(&D2dUnsupervisedParadigm::m_mix),
                          MakeEnumChecker(D2dGaussianClusters::POST_EXCHANGE,
                                          "post-exchange",
                                          D2dGaussianClusters::PRINTED,
                                          "printed"))
            .AddAttribute("AgreementScale",
                          "eq. (17)'s agreement: mean (sum / terms - 1, App. B's scale) or sum "
                          "(the printed sum of the ratios)",
                          EnumValue(D2dUnsupervisedParadigm::SCALE_MEAN),
                          D2dMakeEnumAccessor(&D2dUnsupervisedParadigm::m_agreementScale),
                          MakeEnumChecker(D2dUnsupervisedParadigm::SCALE_MEAN,
                                          "mean",
                                          D2dUnsupervisedParadigm::SCALE_SUM,
                                          "sum"))
            .AddAttribute("GainForm",
                          "g of eq. (16): excess (sum_l Tr ratio - L, 0 when nothing arrives) "
                          "or sum (the printed sum of the ratios, L when nothing arrives)",
                          EnumValue(D2dUnsupervisedParadigm::GAIN_EXCESS),
                          D2dMakeEnumAccessor(&D2dUnsupervisedParadigm::m_gainForm),
                          MakeEnumChecker(D2dUnsupervisedParadigm::GAIN_EXCESS,
                                          "excess",
                                          D2dUnsupervisedParadigm::GAIN_SUM,
                                          "sum"))
            .AddAttribute("KlRidge",
                          "Added to every covariance's diagonal in the KL divergences of "
                          "eq. (17) (squared projection units)",
                          DoubleValue(1e-6),
                          MakeDoubleAccessor(&D2dUnsupervisedParadigm::m_klRidge),
                          MakeDoubleChecker<double>(0, 1e12))
            .AddAttribute("ExchangeMode",
                          "What the final exchange moves: real (the transmitter's points) or "
                          "sampled (the receiver draws from the transmitter's Gaussians)",
                          EnumValue(D2dUnsupervisedParadigm::REAL),
                          D2dMakeEnumAccessor(&D2dUnsupervisedParadigm::m_exchangeMode),
                          MakeEnumChecker(D2dUnsupervisedParadigm::REAL,
                                          "real",
                                          D2dUnsupervisedParadigm::SAMPLED,
                                          "sampled"))
            .AddAttribute("NormalDraws",
                          "How the Gaussian samples' standard normals are drawn: ziggurat "
                          "(Marsaglia and Tsang 2000, via Boost.Random) or box-muller (slower; "
                          "the generator d2dlearn used before 2026-11): the same distribution",
                          EnumValue(D2dGaussianClusters::ZIGGURAT),
                          D2dMakeEnumAccessor(&D2dUnsupervisedParadigm::m_normalDraws),
                          MakeEnumChecker(D2dGaussianClusters::ZIGGURAT,
                                          "ziggurat",
                                          D2dGaussianClusters::BOX_MULLER,
                                          "box-muller"))
            .AddAttribute("KMeansIterations",
                          "Bound on Lloyd's iterations of K-means",
                          UintegerValue(300),
                          MakeUintegerAccessor(&D2dUnsupervisedParadigm::m_kmeansIterations),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("PcaDims",
                          "d: dimension of the common subspace F of distributed PCA (Prepare)",
                          UintegerValue(50),
                          MakeUintegerAccessor(&D2dUnsupervisedParadigm::m_pcaDims),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("PcaLocalRank",
                          "t: singular vectors each device sends (0: d)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&D2dUnsupervisedParadigm::m_pcaLocalRank),
                          MakeUintegerChecker<uint32_t>(0, 1000000));
    return tid;
}

D2dUnsupervisedParadigm::D2dUnsupervisedParadigm()
{
}

void
D2dUnsupervisedParadigm::DoDispose()
{
    NS_LOG_INFO("eq. (17): " << m_agreement.GetDivergences() << " KL divergences computed");
    m_pca = nullptr;
    m_train = nullptr;
    D2dDiscoveryParadigm::DoDispose();
}

bool
D2dUnsupervisedParadigm::UsesServer() const
{
    return true;
}

Ptr<D2dPcaExchange>
D2dUnsupervisedParadigm::GetPcaExchange() const
{
    return m_pca;
}

std::vector<double>
D2dUnsupervisedParadigm::Features(uint32_t device) const
{
    const std::size_t dim = m_train->FeatureSize();
    std::vector<double> x;
    x.reserve(m_shards[device].indices.size() * dim);
    for (std::size_t idx : m_shards[device].indices)
    {
        const float* f = m_train->Sample(idx);
        x.insert(x.end(), f, f + dim);
    }
    return x;
}

void
D2dUnsupervisedParadigm::Prepare(const Data& data, Callback<void> done)
{
    // Sec. V-B1: distributed PCA over the D2S link, then K-means on each device's
    // projections; discovery starts once every device has its clusters.
    NS_LOG_FUNCTION(this);
    m_train = data.train;
    m_shards = data.shards;
    m_nLabels = data.train->numClasses;
    const std::size_t dim = m_train->FeatureSize();
    const uint32_t n = m_shards.size();
    // The devices' SVDs on the worker pool (--threads), one BLAS thread each: the same bits
    // whatever the threads.
    std::vector<std::vector<double>> sketches(n);
    D2dTorchRuntime::ParallelFor(n, [&](std::size_t i) {
        sketches[i] =
            D2dDistributedPca::LocalSketch(Features(i),
                                           m_shards[i].indices.size(),
                                           dim,
                                           m_pcaLocalRank > 0 ? m_pcaLocalRank : m_pcaDims);
    });
    const uint64_t seed = data.seed;
    m_pca = CreateObject<D2dPcaExchange>();
    m_pca->Setup(data.server, std::move(sketches), dim, m_pcaDims);
    m_pca->SetFinishedCallback(Callback<void, const std::vector<double>&, const std::vector<bool>&>(
        [this, done, dim, n, seed](const std::vector<double>& basis,
                                   const std::vector<bool>& reached) {
            // Eq. (15) and (17) compare centroids and Gaussians across devices: a device that
            // F did not reach (lost after the retries, or never computed) cannot be compared
            // with the others and sits the discovery out.
            std::vector<bool> sittingOut(n, false);
            std::vector<std::vector<double>> projections(n);
            std::vector<std::vector<int64_t>> labels;
            std::vector<std::vector<uint64_t>> ids;
            for (uint32_t i = 0; i < n; ++i)
            {
                sittingOut[i] = basis.empty() || (!reached.empty() && !reached[i]);
            }
            D2dTorchRuntime::ParallelFor(n, [&](std::size_t i) {
                // Features(i) is built again rather than kept from the sketches: keeping
                // every device's samples as doubles would hold twice the training set.
                if (!sittingOut[i])
                {
                    projections[i] = D2dDistributedPca::Project(Features(i),
                                                                m_shards[i].indices.size(),
                                                                dim,
                                                                basis,
                                                                m_pcaDims);
                }
            });
            for (uint32_t i = 0; i < n; ++i)
            {
                const auto& shard = m_shards[i];
                labels.emplace_back();
                ids.emplace_back();
                for (std::size_t idx : shard.indices)
                {
                    labels.back().push_back(m_train->labels[idx]);
                    ids.back().push_back(idx);
                }
            }
            Setup(std::move(projections),
                  m_pcaDims,
                  std::move(labels),
                  std::move(ids),
                  seed,
                  std::move(sittingOut));
            done();
        }));
    m_pca->Start();
}

D2dFractionalCounts
D2dUnsupervisedParadigm::GetLabelCounts(uint32_t device) const
{
    return LabelCounts(device, m_nLabels);
}

void
D2dUnsupervisedParadigm::MoveShards(std::vector<D2dShard>& shards) const
{
    // The points each device holds now (real ones: sampled points have no dataset index).
    for (uint32_t i = 0; i < shards.size(); ++i)
    {
        std::vector<std::size_t> held;
        for (uint64_t id : GetIds(i))
        {
            if (id != UINT64_MAX)
            {
                held.push_back(id);
            }
        }
        std::sort(held.begin(), held.end());
        shards[i].indices = std::move(held);
    }
}

void
D2dUnsupervisedParadigm::Setup(std::vector<std::vector<double>> projections,
                               uint32_t d,
                               std::vector<std::vector<int64_t>> labels,
                               std::vector<std::vector<uint64_t>> ids,
                               uint64_t seed,
                               std::vector<bool> sittingOut)
{
    NS_ABORT_MSG_IF(d == 0, "D2dUnsupervisedParadigm::Setup: d must be > 0");
    NS_ABORT_MSG_IF(labels.size() != projections.size() || ids.size() != projections.size(),
                    "D2dUnsupervisedParadigm::Setup: sizes disagree");
    m_d = d;
    m_seed = seed;
    m_points = std::move(projections);
    m_labels = std::move(labels);
    m_ids = std::move(ids);
    const std::size_t n = m_points.size();
    m_assign.assign(n, {});
    m_centroids.assign(n, {});
    m_stats.assign(n, {});
    m_counts.assign(n, {});
    m_iterations.assign(n, 0);
    m_sampleRng.clear();
    m_sendRng.clear();
    NS_ABORT_MSG_IF(!sittingOut.empty() && sittingOut.size() != n,
                    "D2dUnsupervisedParadigm::Setup: one sitting-out flag per device");
    m_out = sittingOut.empty() ? std::vector<bool>(n, false) : std::move(sittingOut);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_out[i])
        {
            // No projection on F: no clusters; the points stay where they are.
            NS_ABORT_MSG_IF(!m_points[i].empty() || m_labels[i].size() != m_ids[i].size(),
                            "D2dUnsupervisedParadigm::Setup: device "
                                << i << " sits out: no projections, n labels and n ids");
            m_counts[i].assign(m_nClusters, 0.0);
            m_sampleRng.emplace_back(seed, GAIN_SAMPLES, i);
            m_sendRng.emplace_back(seed, EXCHANGE_DRAW, i);
            continue;
        }
        const std::size_t ni = m_points[i].size() / d;
        NS_ABORT_MSG_IF(m_points[i].size() != ni * d || m_labels[i].size() != ni ||
                            m_ids[i].size() != ni,
                        "D2dUnsupervisedParadigm::Setup: device " << i << ": n x d points, n "
                                                                  << "labels and n ids");
        NS_ABORT_MSG_IF(ni < m_nClusters,
                        "D2dUnsupervisedParadigm::Setup: device " << i << " holds " << ni
                                                                  << " points, fewer than Clusters "
                                                                  << m_nClusters);
        auto km = D2dGaussianClusters::KMeans(m_points[i],
                                              ni,
                                              d,
                                              m_nClusters,
                                              seed,
                                              i,
                                              m_kmeansIterations);
        m_assign[i] = std::move(km.assign);
        m_centroids[i] = std::move(km.centroids);
        m_iterations[i] = km.iterations;
        m_stats[i] = D2dGaussianClusters::Statistics(m_points[i], d, m_assign[i], m_nClusters);
        m_counts[i].assign(m_nClusters, 0.0);
        for (uint32_t l = 0; l < m_nClusters; ++l)
        {
            m_counts[i][l] = m_stats[i][l].count;
        }
        m_sampleRng.emplace_back(seed, GAIN_SAMPLES, i);
        m_sendRng.emplace_back(seed, EXCHANGE_DRAW, i);
    }
    m_post = m_stats;
    m_postChanged.clear();
    m_sampleFactors.assign(n, std::vector<std::vector<double>>(m_nClusters));
    m_agreement = D2dAgreementCache(m_mix, m_klRidge);
    // Eq. (17)'s blocks on the learners' worker pool (--threads) and this thread: the bits
    // do not depend on how many (D2dAgreementCache).
    m_agreement.SetParallelFor(&D2dTorchRuntime::ParallelFor);
    m_agreement.Reset(n);
    m_edgeRound = 0;
}

void
D2dUnsupervisedParadigm::Recluster(uint32_t i)
{
    const std::size_t ni = m_points[i].size() / m_d;
    m_assign[i].resize(ni);
    for (std::size_t p = 0; p < ni; ++p)
    {
        m_assign[i][p] = D2dGaussianClusters::Nearest(&m_points[i][p * m_d], m_centroids[i], m_d);
    }
    m_stats[i] = D2dGaussianClusters::Statistics(m_points[i], m_d, m_assign[i], m_nClusters);
    m_sampleFactors[i].assign(m_nClusters, {});
    m_agreement.BeforeChanged(i);
    for (uint32_t l = 0; l < m_nClusters; ++l)
    {
        m_counts[i][l] = m_stats[i][l].count;
        if (m_stats[i][l].count > 0)
        {
            std::copy(m_stats[i][l].mean.begin(),
                      m_stats[i][l].mean.end(),
                      m_centroids[i].begin() + l * m_d);
        }
    }
}

uint32_t
D2dUnsupervisedParadigm::GetNDevices() const
{
    return m_points.size();
}

uint32_t
D2dUnsupervisedParadigm::GetNPartitions() const
{
    return m_nClusters;
}

const D2dFractionalCounts&
D2dUnsupervisedParadigm::GetCounts(uint32_t device) const
{
    return m_counts.at(device);
}

void
D2dUnsupervisedParadigm::SetCounts(uint32_t /* device */, const D2dFractionalCounts& /* counts */)
{
    // The counts follow the points (Exchange); nothing to set.
}

uint64_t
D2dUnsupervisedParadigm::GetRequestBytes() const
{
    // Q (a 32-bit count) and the receiver's L centroids as float32.
    return 4 + 4ULL * m_d * m_nClusters;
}

uint64_t
D2dUnsupervisedParadigm::GetVectorBytes() const
{
    return GetAllocationBytes();
}

uint64_t
D2dUnsupervisedParadigm::GetAllocationBytes() const
{
    return m_nClusters * D2dGaussianClusters::ClusterMessageBytes(m_d);
}

uint64_t
D2dUnsupervisedParadigm::GetRewardExtraBytes() const
{
    // The sender's L means and covariances before and after, float32.
    return 2ULL * m_nClusters * 4 * (m_d + m_d * m_d);
}

bool
D2dUnsupervisedParadigm::HasOfferPhase() const
{
    return false;
}

bool
D2dUnsupervisedParadigm::HasSystemAgreement() const
{
    return true;
}

D2dFractionalCounts
D2dUnsupervisedParadigm::Thresholds(uint32_t device) const
{
    D2dFractionalCounts b(m_nClusters);
    for (uint32_t l = 0; l < m_nClusters; ++l)
    {
        b[l] = std::ceil(m_retainFraction * m_counts.at(device)[l]);
    }
    return b;
}

D2dFractionalCounts
D2dUnsupervisedParadigm::Offer(uint32_t transmitter, uint32_t /* receiver */) const
{
    const auto b = Thresholds(transmitter);
    D2dFractionalCounts v(m_nClusters);
    for (uint32_t l = 0; l < m_nClusters; ++l)
    {
        v[l] = std::max(0.0, m_counts[transmitter][l] - b[l]);
    }
    return v;
}

D2dFractionalCounts
D2dUnsupervisedParadigm::Demand(uint32_t /* receiver */,
                                const D2dFractionalCounts& /* offer */) const
{
    return D2dFractionalCounts{static_cast<double>(m_requestPoints)};
}

std::vector<D2dFractionalCounts>
D2dUnsupervisedParadigm::Allocate(uint32_t transmitter,
                                  const std::vector<D2dFractionalCounts>& demands) const
{
    NS_ABORT_MSG("D2dUnsupervisedParadigm::Allocate: eq. (15) needs the requesters; "
                 "use AllocateTo");
    return AllocateTo(transmitter, std::vector<uint32_t>(demands.size(), 0), demands);
}

std::vector<D2dFractionalCounts>
D2dUnsupervisedParadigm::AllocateTo(uint32_t transmitter,
                                    const std::vector<uint32_t>& receivers,
                                    const std::vector<D2dFractionalCounts>& demands) const
{
    NS_ABORT_MSG_IF(receivers.size() != demands.size(),
                    "D2dUnsupervisedParadigm::AllocateTo: one requester per demand");
    // Eq. (15): each request spread over j's clusters by distance to the requester's
    // centroids, in whole points.
    std::vector<D2dFractionalCounts> wanted;
    for (std::size_t k = 0; k < demands.size(); ++k)
    {
        const double q = demands[k].empty() ? 0.0 : demands[k][0];
        const auto shares = D2dGaussianClusters::AllotShares(m_centroids.at(receivers[k]),
                                                             m_centroids.at(transmitter),
                                                             m_d);
        const auto whole = D2dApportion(shares, static_cast<std::size_t>(std::max(0.0, q)));
        wanted.emplace_back(whole.begin(), whole.end());
    }
    // D = min(V, Q-tilde) with V shared among the requesters as eq. (11), whole points.
    auto u = D2dMessagePassing::Allocate(wanted, m_counts.at(transmitter), Thresholds(transmitter));
    for (auto& row : u)
    {
        for (double& x : row)
        {
            x = std::floor(x + 1e-9);
        }
    }
    return u;
}

double
D2dUnsupervisedParadigm::Gain(uint32_t /* receiver */,
                              const D2dFractionalCounts& /* allocated */,
                              double /* pDrop */,
                              const D2dFractionalCounts& /* sent */) const
{
    NS_ABORT_MSG("D2dUnsupervisedParadigm::Gain: the samples need the transmitter; "
                 "use GainFrom");
    return 0;
}

void
D2dUnsupervisedParadigm::StartStep()
{
    // m_post = m_stats, copying only what the last step changed (each device on its own:
    // the worker pool).
    D2dTorchRuntime::ParallelFor(m_postChanged.size(),
                                 [this](std::size_t k) { RestorePost(m_postChanged[k]); });
    m_postChanged.clear();
    m_agreement.AfterReset();
}

double
D2dUnsupervisedParadigm::GainFrom(uint32_t receiver,
                                  uint32_t transmitter,
                                  const D2dFractionalCounts& allocated,
                                  double /* pDrop */,
                                  const D2dFractionalCounts& /* sent */)
{
    PrepareDraw(transmitter, allocated);
    const bool drawn = Draw(receiver, transmitter, allocated);
    return ApplyDraw(receiver, drawn);
}

std::vector<double>
D2dUnsupervisedParadigm::GainsFrom(const std::vector<GainRequest>& requests)
{
    std::vector<bool> seen(m_points.size(), false);
    for (const auto& r : requests)
    {
        NS_ABORT_MSG_IF(seen.at(r.receiver),
                        "D2dUnsupervisedParadigm::GainsFrom: receiver " << r.receiver
                                                                        << " twice in a step");
        seen[r.receiver] = true;
        PrepareDraw(r.transmitter, *r.allocated);
    }
    std::vector<char> drawn(requests.size(), 0);
    D2dTorchRuntime::ParallelFor(requests.size(), [&](std::size_t k) {
        const auto& r = requests[k];
        drawn[k] = Draw(r.receiver, r.transmitter, *r.allocated) ? 1 : 0;
    });
    std::vector<double> g(requests.size());
    for (std::size_t k = 0; k < requests.size(); ++k)
    {
        g[k] = ApplyDraw(requests[k].receiver, drawn[k] != 0);
    }
    return g;
}

void
D2dUnsupervisedParadigm::PrepareDraw(uint32_t transmitter, const D2dFractionalCounts& allocated)
{
    for (uint32_t l = 0; l < m_nClusters && l < allocated.size(); ++l)
    {
        if (static_cast<uint64_t>(std::max(0.0, allocated[l]) + 0.5) > 0)
        {
            SampleFactorOf(transmitter, l);
        }
    }
}

bool
D2dUnsupervisedParadigm::Draw(uint32_t receiver,
                              uint32_t transmitter,
                              const D2dFractionalCounts& allocated)
{
    // Alg. 2 steps 8-9: draw D_{j,l->i} points from each of j's Gaussians, add them to i's
    // nearest clusters, recompute (i's summaries merged with those of the points drawn, in
    // m_post[i], which starts as m_stats[i]).
    RestorePost(receiver);
    uint64_t total = 0;
    for (uint32_t l = 0; l < m_nClusters && l < allocated.size(); ++l)
    {
        total += static_cast<uint64_t>(std::max(0.0, allocated[l]) + 0.5);
    }
    if (total == 0)
    {
        return false;
    }
    std::vector<double> x(total * m_d);
    std::vector<uint32_t> a(total);
    uint64_t at = 0;
    for (uint32_t l = 0; l < m_nClusters && l < allocated.size(); ++l)
    {
        const auto count = static_cast<uint64_t>(std::max(0.0, allocated[l]) + 0.5);
        if (count == 0)
        {
            continue;
        }
        D2dGaussianClusters::SampleTo(m_stats[transmitter][l].mean,
                                      m_sampleFactors[transmitter][l],
                                      count,
                                      m_sampleRng[receiver],
                                      m_normalDraws,
                                      &x[at * m_d]);
        for (uint64_t p = at; p < at + count; ++p)
        {
            a[p] = D2dGaussianClusters::Nearest(&x[p * m_d], m_centroids[receiver], m_d);
        }
        at += count;
    }
    D2dGaussianClusters::AddPoints(m_post[receiver], x, m_d, a);
    return true;
}

void
D2dUnsupervisedParadigm::RestorePost(uint32_t device)
{
    // A cluster that got points holds more of them than before; the others kept their bits.
    auto& post = m_post[device];
    const auto& before = m_stats[device];
    for (std::size_t l = 0; l < post.size(); ++l)
    {
        if (post[l].count != before[l].count)
        {
            post[l] = before[l];
        }
    }
}

double
D2dUnsupervisedParadigm::ApplyDraw(uint32_t receiver, bool drawn)
{
    if (!drawn)
    {
        // Nothing drawn: the statistics after are those before.
        m_agreement.AfterSameAsBefore(receiver);
    }
    else
    {
        // Once each (StartStep restores the devices listed in parallel).
        if (std::find(m_postChanged.begin(), m_postChanged.end(), receiver) == m_postChanged.end())
        {
            m_postChanged.push_back(receiver);
        }
        m_agreement.AfterChanged(receiver);
    }
    // Step 10: the trace ratio of eq. (16).
    const double ratio = D2dGaussianClusters::TraceRatio(m_stats[receiver], m_post[receiver]);
    return m_gainForm == GAIN_SUM ? ratio : ratio - m_nClusters;
}

const std::vector<double>&
D2dUnsupervisedParadigm::SampleFactorOf(uint32_t device, uint32_t cluster)
{
    auto& f = m_sampleFactors.at(device).at(cluster);
    if (f.empty())
    {
        f = D2dGaussianClusters::SampleFactor(m_stats[device][cluster]);
    }
    return f;
}

double
D2dUnsupervisedParadigm::SystemAgreement(const std::vector<uint32_t>& devices) const
{
    const auto a = m_agreement.Sum(devices, m_stats, m_post);
    if (m_agreementScale == SCALE_SUM)
    {
        return a.sum;
    }
    return a.terms > 0 ? a.sum / static_cast<double>(a.terms) - 1.0 : 0.0;
}

void
D2dUnsupervisedParadigm::PrepareAgreements(const std::vector<std::vector<uint32_t>>& groups)
{
    m_agreement.Update(groups, m_stats, m_post);
}

bool
D2dUnsupervisedParadigm::Exchange(const std::vector<Transfer>& transfers)
{
    const std::size_t n = m_points.size();
    // The points each transmitter sends are drawn from what it held before the round.
    std::vector<std::vector<bool>> gone(n);
    for (std::size_t j = 0; j < n; ++j)
    {
        gone[j].assign(m_assign[j].size(), false);
    }
    std::vector<std::vector<double>> addPoints(n);
    std::vector<std::vector<int64_t>> addLabels(n);
    std::vector<std::vector<uint64_t>> addIds(n);
    for (const auto& t : transfers)
    {
        const uint32_t j = t.transmitter;
        const uint32_t i = t.receiver;
        NS_ABORT_MSG_IF(m_out.at(i) || m_out.at(j),
                        "D2dUnsupervisedParadigm::Exchange: a link of a device that sits out");
        for (uint32_t l = 0; l < m_nClusters && l < t.allocated.size(); ++l)
        {
            const auto sent = static_cast<uint64_t>(std::max(0.0, t.allocated[l]) + 0.5);
            const auto arrived =
                std::min<uint64_t>(sent,
                                   static_cast<uint64_t>(std::max(0.0, t.received.at(l)) + 0.5));
            if (m_exchangeMode == SAMPLED)
            {
                const auto s = arrived == 0 ? std::vector<double>{}
                                            : D2dGaussianClusters::Sample(m_stats[j][l].mean,
                                                                          SampleFactorOf(j, l),
                                                                          arrived,
                                                                          m_sendRng.at(i),
                                                                          m_normalDraws);
                addPoints[i].insert(addPoints[i].end(), s.begin(), s.end());
                addLabels[i].insert(addLabels[i].end(), arrived, -1);
                addIds[i].insert(addIds[i].end(), arrived, SAMPLED_ID);
                continue;
            }
            std::vector<std::size_t> pool;
            for (std::size_t p = 0; p < m_assign[j].size(); ++p)
            {
                if (m_assign[j][p] == l && !gone[j][p])
                {
                    pool.push_back(p);
                }
            }
            m_sendRng.at(j).Shuffle(pool);
            const std::size_t k = std::min<std::size_t>(sent, pool.size());
            for (std::size_t s = 0; s < k; ++s)
            {
                const std::size_t p = pool[s];
                gone[j][p] = true;
                if (s < arrived)
                {
                    addPoints[i].insert(addPoints[i].end(),
                                        m_points[j].begin() + p * m_d,
                                        m_points[j].begin() + (p + 1) * m_d);
                    addLabels[i].push_back(m_labels[j][p]);
                    addIds[i].push_back(m_ids[j][p]);
                }
            }
        }
    }
    for (std::size_t j = 0; j < n; ++j)
    {
        if (m_out[j])
        {
            continue; // it took part in nothing
        }
        std::vector<double> x;
        std::vector<int64_t> lab;
        std::vector<uint64_t> ids;
        for (std::size_t p = 0; p < gone[j].size(); ++p)
        {
            if (!gone[j][p])
            {
                x.insert(x.end(),
                         m_points[j].begin() + p * m_d,
                         m_points[j].begin() + (p + 1) * m_d);
                lab.push_back(m_labels[j][p]);
                ids.push_back(m_ids[j][p]);
            }
        }
        x.insert(x.end(), addPoints[j].begin(), addPoints[j].end());
        lab.insert(lab.end(), addLabels[j].begin(), addLabels[j].end());
        ids.insert(ids.end(), addIds[j].begin(), addIds[j].end());
        m_points[j] = std::move(x);
        m_labels[j] = std::move(lab);
        m_ids[j] = std::move(ids);
        Recluster(j);
    }
    m_post = m_stats;
    m_postChanged.clear();
    m_agreement.AfterReset();
    ++m_edgeRound;
    return true;
}

bool
D2dUnsupervisedParadigm::TakesPart(uint32_t device) const
{
    return !m_out.at(device);
}

double
D2dUnsupervisedParadigm::Shareable(uint32_t transmitter, uint32_t receiver) const
{
    double k = 0;
    for (double v : Offer(transmitter, receiver))
    {
        k += v;
    }
    return k;
}

uint32_t
D2dUnsupervisedParadigm::Satisfied(uint32_t device) const
{
    // Clusters holding at least two points (a covariance); no label thresholds here.
    uint32_t k = 0;
    for (double c : m_counts.at(device))
    {
        k += c >= 2;
    }
    return k;
}

uint32_t
D2dUnsupervisedParadigm::GetDims() const
{
    return m_d;
}

const std::vector<D2dGaussianCluster>&
D2dUnsupervisedParadigm::GetClusters(uint32_t device) const
{
    return m_stats.at(device);
}

const std::vector<double>&
D2dUnsupervisedParadigm::GetCentroids(uint32_t device) const
{
    return m_centroids.at(device);
}

const std::vector<double>&
D2dUnsupervisedParadigm::GetPoints(uint32_t device) const
{
    return m_points.at(device);
}

const std::vector<int64_t>&
D2dUnsupervisedParadigm::GetLabels(uint32_t device) const
{
    return m_labels.at(device);
}

const std::vector<uint64_t>&
D2dUnsupervisedParadigm::GetIds(uint32_t device) const
{
    return m_ids.at(device);
}

D2dFractionalCounts
D2dUnsupervisedParadigm::LabelCounts(uint32_t device, uint32_t numClasses) const
{
    D2dFractionalCounts c(numClasses, 0.0);
    for (int64_t l : m_labels.at(device))
    {
        if (l >= 0 && static_cast<uint64_t>(l) < numClasses)
        {
            c[l] += 1;
        }
    }
    return c;
}

uint32_t
D2dUnsupervisedParadigm::GetKMeansIterations(uint32_t device) const
{
    return m_iterations.at(device);
}

} // namespace ns3
