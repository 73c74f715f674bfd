/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_GRAPH_DISCOVERY_HELPER_H
#define D2D_GRAPH_DISCOVERY_HELPER_H

#include "d2d-learning-options.h"

#include "ns3/d2d-discovery-paradigm.h"
#include "ns3/d2d-discovery-recorder.h"
#include "ns3/d2d-discovery-trace-writer.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-graph-discovery.h"
#include "ns3/d2d-network-options.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Assembles and runs graph discovery (Wagle, Das, Love and Brinton, "Multi-Agent
 * Reinforcement Learning for Graph Discovery in D2D-Enabled Federated Learning", 2025) on a
 * D2dNetwork, and writes what it did: the discovery's flags (every one bound to the attribute
 * it sets), the paradigm by TypeId (--paradigm), the checks of the values against the data,
 * the paradigm's preparation then D2dGraphDiscovery over the network's transports, the
 * gd_*.csv traces, the shards as the exchange left them, and the results in run.json's
 * summary. The downstream learning is the scenario's (D2dLearningHelper); ConnectRounds()
 * adds its rounds to gd_energy.csv and the targets reached to the summary.
 *
 * Use, in a scenario's main():
 * \code
 *   D2dGraphDiscoveryHelper discovery;
 *   discovery.AddFlags(flags);
 *   flags.Parse(argc, argv);
 *   // flags only: before the data
 *   discovery.Validate(support, flags, learning, net.links.nDevices);
 *   learning.LoadData(support, net.links.nDevices, net.run.seed);
 *   // against the data: before any output
 *   discovery.Configure(support, learning, net.run.seed);
 *   auto traces = net.OpenTraces(support);
 *   D2dNetwork network = net.Build(*traces, discovery.UsesServer());
 *   discovery.Install(network, *traces, net);
 *   discovery.Run(support, learning, maxSimTime);
 *   discovery.ApplyExchange(support, learning);    // the shards the downstream trains on
 *   discovery.Record(*traces);
 * \endcode
 */
class D2dGraphDiscoveryHelper
{
  public:
    D2dGraphDiscoveryHelper();

    // The flags that are not attributes; their values after Validate().
    std::string paradigm{"supervised"}; //!< --paradigm: supervised | semi-supervised | unsupervised
    std::string downstream{"fedavg"};   //!< --downstream: the FL protocol after the exchange
    std::string targets{"0.6,0.7"};     //!< --targets: accuracies whose first round is recorded
    uint32_t traceEvery{50};            //!< --traceEvery: gd_iterations.csv thinning
    uint32_t partitions{0};             //!< --partitions: regression partitions (0: 3)

    /** \return whether --downstream names a protocol of the registry (not none) */
    bool HasDownstream() const;
    /** \return the class of --paradigm's choice, e.g. "ns3::D2dUnsupervisedParadigm" */
    std::string GetParadigmTypeName() const;
    /**
     * \brief After every flag is declared: the learning flags that train models
     * (D2dLearningOptions::GetTrainingFlags) and the compute model's
     * (D2dNetworkOptions::GetComputeFlags) act through the downstream protocol
     * (Flag::Configures): --downstream=none trains nothing, and the discovery's own
     * computations, the MLP labeller's included, take no simulated time.
     * \param flags the program's flags
     */
    static void ScopeTrainingFlags(D2dScenarioFlags& flags);
    /**
     * \brief What the run makes, for the flag scope: the paradigm's class, the GCN scorer
     * with --graph=gcn, and with a downstream protocol its classes and the attributes it
     * leaves unread (D2dProtocolTraits).
     * \param traffic where they go (D2dTraffic::chosenTypes, unreadAttributes)
     */
    void SetChosenTypes(D2dTraffic& traffic) const;
    /** \return whether the downstream protocol's devices send gradients (its
     * D2dProtocolTraits::sendsGradients; false without a downstream protocol) */
    bool DownstreamSendsGradients() const;

    /**
     * \brief Declare the discovery's flags: the paradigm's, the RL's, the baselines' and
     * the GCN's, each bound to the attribute it sets, and the few of its own.
     * \param flags the scenario's flags
     */
    void AddFlags(D2dScenarioFlags& flags);
    /**
     * \brief The checks between flags (one-line error and exit 2), before any data is loaded;
     * the unsupervised paradigm's default of two edges (Remark 2).
     * \param support errors
     * \param flags the parsed flags
     * \param learning the learning flags (data set, model)
     * \param nDevices N (after D2dNetworkOptions::Validate())
     */
    void Validate(const D2dScenarioSupport& support,
                  D2dScenarioFlags& flags,
                  const D2dLearningOptions& learning,
                  uint32_t nDevices);
    /**
     * \brief After LoadData(), before Configure() (which builds the trust matrices): refuse
     * N devices (one line with the estimate) when what the run holds does not fit
     * (D2dMemoryBudget): every device's objects; the data; each device's E link policies,
     * whose Q-tables and experience buffers grow by at most one entry (about 160 bytes) and
     * one reward (8 bytes, 16 with the vector's growth) per iteration; the N x N matrices of
     * doubles that the discovery builds at its start (P_D, the shareable data, the
     * selection's P_D: 24 bytes a pair; with --graph=gcn the link scores: 8 more); the
     * supervised paradigms' trust matrices T_j[i][l] (one byte per pair and label); the
     * downstream models.
     * \param support errors
     * \param flags the parsed flags (--iterations, --edges, --graph)
     * \param learning the data and models (after LoadData())
     * \param nDevices N
     */
    void CheckMemory(const D2dScenarioSupport& support,
                     const D2dScenarioFlags& flags,
                     const D2dLearningOptions& learning,
                     uint32_t nDevices) const;
    /**
     * \brief After LoadData(), before any output: the partitions (regression: each device's
     * gap partitions), the paradigm (ObjectFactory of --paradigm's TypeId) and the checks of
     * the values against the data (--edges, --minLabels, --pcaDims, --clusters, the trust
     * file).
     * \param support errors
     * \param learning the data
     * \param seed the run's seed
     */
    void Configure(const D2dScenarioSupport& support,
                   const D2dLearningOptions& learning,
                   uint64_t seed);
    /** \return whether the network needs its server: the paradigm's preparation or the
     * downstream protocol uses the device-to-server link (after Configure()) */
    bool UsesServer() const;
    /** \return the graph mode's name (--graph) */
    std::string GetGraphName() const;

    /**
     * \brief Make D2dGraphDiscovery (its attributes' defaults are the bound flags') with the
     * paradigm, over the network's D2D transports and link quality, and connect the trace
     * writers (gd_*.csv) and the energy tally.
     * \param network the network (with its server if UsesServer())
     * \param traces the run's traces; must outlive the helper's use
     * \param net the network flags (dynamic RSS period, quiet)
     */
    void Install(const D2dNetwork& network, D2dTraceHelper& traces, const D2dNetworkOptions& net);
    /** \return streams used \param stream first stream index */
    int64_t AssignStreams(int64_t stream);
    /**
     * \brief Prepare the paradigm, run the discovery to its end (one-line error if it has not
     * ended by maxSimTime), write the final traces and compute the results.
     * \param support errors, progress
     * \param learning the data (the semi-supervised paradigm rewrites train's labels)
     * \param maxSimTime the simulation's bound
     * \return false if a trace file could not be written (the traces stopped the run,
     *         D2dTraceHelper::GetWriteError()): the caller finishes the traces, which
     *         reports it, and goes no further
     */
    bool Run(const D2dScenarioSupport& support, D2dLearningOptions& learning, Time maxSimTime);
    /**
     * \brief Move the datapoints the exchange moved between the shards (the downstream
     * learning trains on them).
     * \param support errors
     * \param learning its shards are rewritten
     */
    void ApplyExchange(const D2dScenarioSupport& support, D2dLearningOptions& learning);
    /**
     * \brief Add gd_energy.csv rows at every round of the downstream protocol and note the
     * first round each --targets accuracy is reached.
     * \param protocol the downstream protocol
     */
    void ConnectRounds(Ptr<D2dFlProtocol> protocol);
    /**
     * \brief run.json: the discovery's and its paradigm's attributes, the derived parameters
     * and every result (summary.results); with a downstream protocol, targetsReached.
     * \param traces the run's traces
     */
    void Record(D2dTraceHelper& traces) const;

    /** \return the discovery (after Install()) */
    Ptr<D2dGraphDiscovery> GetDiscovery() const;

  private:
    /**
     * \brief AddFlags() of the paradigm: its preparation (PCA, labels, clusters, the data requests
     * and agreements), in the order --PrintHelp and run.json list them. \param flags where to
     * declare them
     */
    void AddParadigmFlags(D2dScenarioFlags& flags);
    /**
     * \brief AddFlags() of how the graph is found: RL, the baselines (closest, most-trusted,
     * uniform, gcn, none) and the partitions, in the order --PrintHelp and run.json list them.
     * \param flags where to declare them
     */
    void AddGraphFlags(D2dScenarioFlags& flags);
    /**
     * \brief AddFlags() of the RL policies, their rewards and the trust (eqs. (1)-(17) of Wagle et
     * al. 2025), in the order --PrintHelp and run.json list them. \param flags where to declare
     * them
     */
    void AddPolicyFlags(D2dScenarioFlags& flags);
    /**
     * \brief AddFlags() of the downstream protocol, the recorded targets, the traces and the
     * control messages, in the order --PrintHelp and run.json list them. \param flags where to
     * declare them
     */
    void AddRunFlags(D2dScenarioFlags& flags);
    /** The paradigm's preparation ended: record it, then start the discovery. */
    void Prepared();
    /** A discovery stage ended: its D2D energy. \param edge edge round \param stage name */
    void Stage(uint32_t edge, const std::string& stage);
    /** \return the mean W1 to uniform of the true labels over the devices counted */
    double MeanLabelW1() const;
    /** \return whether device i counts in the means (took part, or none did) \param i device */
    bool Counted(uint32_t i) const;
    /** \param round downstream round \param accuracy test accuracy */
    void RoundEnd(uint32_t round, double accuracy, double);

    ObjectFactory m_paradigmFactory;        //!< --paradigm's TypeId
    Ptr<D2dDiscoveryParadigm> m_paradigm;   //!< Configure()
    Ptr<D2dGraphDiscovery> m_gd;            //!< Install()
    D2dDiscoveryParadigm::Data m_data;      //!< what the paradigm prepares from
    std::shared_ptr<D2dDataset> m_partData; //!< the partitions' labels (regression: gaps)
    std::vector<double> m_targets;          //!< --targets
    D2dTraceHelper* m_traces{nullptr};      //!< Install()
    std::unique_ptr<D2dDiscoveryTraceWriter> m_writer; //!< gd_iterations, gd_links, ...
    std::ostream* m_energyCsv{nullptr};                //!< gd_energy.csv
    std::ostream* m_stagesCsv{nullptr};                //!< gd_stages.csv
    std::ostream* m_labellingCsv{nullptr};             //!< gd_labelling.csv (semi-supervised)
    const D2dScenarioSupport* m_support{nullptr};      //!< Run(): progress
    NodeContainer m_devices;                           //!< Install()
    Ptr<D2dLinkQuality> m_links;                       //!< Install(): network.links
    bool m_quiet{false};                               //!< no progress on stderr
    uint64_t m_seed{1};                                //!< Configure()
    /** a datapoint's bytes on the air for the data set (Configure(); 0: the attribute's
     * default, for regression) */
    uint32_t m_bytesPerPoint{0};
    bool m_bytesPerPointGiven{false}; //!< --ns3::D2dGraphDiscovery::BytesPerPoint given

    D2dDiscoveryRecorder m_record; //!< energy by family and stage, the results

    /** A --targets accuracy: the first round that reached it, the energy spent by then. */
    struct Reached
    {
        int64_t round{-1}; //!< the first downstream round that reached it (-1: none yet)
        double d2d{0};     //!< D2D radios' energy spent by the end of that round, J
        double d2s{0};     //!< D2S radios' energy spent by the end of that round, J
        double compute{0}; //!< computation's energy spent by the end of that round, J
    };

    std::vector<Reached> m_reached; //!< per target
    bool m_downstreamRan{false};    //!< ConnectRounds() was called
};

} // namespace ns3

#endif /* D2D_GRAPH_DISCOVERY_HELPER_H */
