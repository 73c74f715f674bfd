/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LEARNING_OPTIONS_H
#define D2D_LEARNING_OPTIONS_H

#include "ns3/command-line.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-fl-protocol.h"
#include "ns3/d2d-leaf.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-learning-helper.h"
#include "ns3/d2d-learning-option-groups.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-scenario-flags.h"
#include "ns3/d2d-scenario-support.h"
#include "ns3/d2d-trace-helper.h"
#include "ns3/node-container.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The learning flags every learning scenario shares (model, optimizer, data set and
 * its partition, rounds, local work, compression, torch threads): command-line
 * registration, validation with one-line errors, data loading, learner creation, run.json
 * records. Like D2dNetworkOptions for the network flags.
 *
 * Use, in a scenario's main():
 * The flags' values are public members of its two option groups, each declaring and
 * checking its own flags: learning.training (D2dTrainingOptions: learning.training.rounds,
 * ...) and learning.data (D2dDataOptions: learning.data.dataset, ...).
 *
 * \code
 *   D2dScenarioFlags flags(support);
 *   D2dLearningOptions learning;
 *   learning.training.model = "mlp:64"; // a scenario's default: before AddFlags()
 *   learning.AddFlags(flags);
 *   net.AddFlags(flags); // + the scenario's own
 *   flags.Parse(argc, argv);
 *   learning.Validate(support, false);
 *   net.Validate(support, 10);
 *   learning.LoadData(support, net.links.nDevices, net.run.seed); // before any output exists
 *   D2dLearningHelper helper;
 *   helper.SetProtocolType("ns3::D2dDecentralizedFl");
 *   // data, architectures, learner and protocol attributes:
 *   learning.Configure(helper, net.run.seed);
 *   auto traces = net.OpenTraces(support);
 *   D2dNetwork network = net.Build(*traces, helper.ProtocolUsesD2s());
 *   Ptr<D2dFlProtocol> protocol = helper.Install(network);
 *   flags.Record(*traces);
 *   learning.Record(*traces, protocol->GetLearners()[0]);
 * \endcode
 */
class D2dLearningOptions
{
  public:
    /** --rounds, the local work, the model, --compression, --threads */
    D2dTrainingOptions training;
    /** --dataset, --dataDir, --dataFraction and the partition */
    D2dDataOptions data;

    /** Defaults of the fedavg scenario; dataDir = D2dFashionMnist::DefaultDir(). */
    D2dLearningOptions();

    /**
     * Share of the devices that hold a model at the same time, for the memory check of
     * LoadData (not a flag): 1 (every device: decentralized protocols); a FedAvg-family
     * scenario sets its client fraction (its clients hold no model between rounds).
     */
    double holdingFraction{1.0};
    /**
     * Whether LoadData refuses models that do not fit (not a flag): a scenario that counts
     * the models in its own D2dMemoryBudget, beside what else it holds, sets false (the
     * architectures are checked against the data either way).
     */
    bool checkModelMemory{true};
    /**
     * Whether the run trains models (not a flag): false for one that trains none
     * (graph-discovery's --downstream=none reads the data alone), whose --model is then
     * neither checked against the data nor counted (its flag cannot act: GetTrainingFlags).
     */
    bool trainsModels{true};

    /**
     * \brief Declare the learning flags, each with its range and the attributes it sets
     * (D2dFlProtocol's Rounds, LocalEpochs, LocalSteps, Compression; D2dLearner's
     * BatchSize, LearningRate, Optimizer). A scenario changes a default by assigning the
     * member before this call.
     * \param flags the scenario's flags
     * \param protocolFlags also the flags that only a D2dFlProtocol with D2dLearners uses
     * (rounds, localEpochs, optimizer, dataset, compression); false for a scenario that
     * trains its own learners on Fashion-MNIST (bayes-consensus' variational mode)
     */
    void AddFlags(D2dScenarioFlags& flags, bool protocolFlags = true);
    /**
     * \return the learning flags that reach a run only through the models it trains (the
     *         rounds and local work, the learners' settings, the model and its cost), not
     *         the data's: a program whose runs may train nothing (graph-discovery's
     *         --downstream=none) says through which objects they act
     *         (D2dScenarioFlags::Flag::Configures)
     */
    static const std::vector<std::string>& GetTrainingFlags();

    /**
     * \brief After D2dScenarioFlags::Parse() (which checks each flag's range): --model parsed into
     * specs (empty, linear (a regression model), cnn without fashion-mnist, poly (the
     * polynomial regression learner) without polynomial, and a classifier on polynomial
     * rejected), the accepted
     * data sets, partitions and compressions, --labelProportions parsed and checked against
     * --labelsPerDevice (the default "0.7,0.2,0.1" with another
     * --labelsPerDevice means equal shares). Bad input ends the program via
     * support.Fail().
     * \param support the scenario's support (error messages)
     * \param multipleArchitectures whether --model may list several architectures
     * (assigned to the devices round-robin); if false, a list is rejected as the models
     * are averaged. A scenario with its own message for this passes true and checks
     * GetSpecs().size().
     */
    void Validate(const D2dScenarioSupport& support, bool multipleArchitectures);

    /** \return the architectures of --model, in order (after Validate()) */
    const std::vector<D2dModelSpec>& GetSpecs() const;

    /**
     * \brief Load the train and test sets (Fashion-MNIST or another file data set of
     * --dataDir: mnist, cifar10, cifar100, tensors, each with seeds seed and seed + 1 for
     * --dataFraction, leaf with --partition=natural, see the manual's "How to use data sets in
     * their published formats"; or
     * the Gaussian mixture of Fan et al. 2023, sec. 5.1 with 20000 x dataFraction training
     * samples) and partition the training set into nDevices shards. polynomial (Fan et al.
     * 2023, App. A.1): f(x) = 0.5x^3 + 0.3x^2 - 5x + 4; agent i has PolynomialPoints points
     * x ~ N(m_i, 1), y = f(x) + N(0, 1), m_i = -2 + 4i/(N - 1) (N = 3: -2, 0, 2; N = 1: 0);
     * X* (heldOut) is PolynomialXstar points evenly in [-4, 4] with the noise-free f (its
     * targets only measure xstar_loss); the test set is 201 points evenly in [-4, 4] with
     * the noise-free f, so `loss` is the mean squared error against f; dataFraction,
     * partition and holdOutFraction play no part. Call after Validate()
     * and before any output exists (a missing or corrupt file is bad input): failures,
     * and fewer training samples than devices, end the program via support.Fail().
     * \param support the scenario's support (error messages)
     * \param nDevices the number of shards
     * \param seed the run's seed
     */
    void LoadData(const D2dScenarioSupport& support, uint32_t nDevices, uint64_t seed);

    /**
     * If > 0, LoadData() first holds out this fraction of the training set as the shared
     * unlabeled set X* (D2dPartitioner::HoldOut: class-balanced; Fan et al. 2023, App. G.1)
     * and partitions the rest; X* is then in heldOut. A scenario sets it before LoadData().
     */
    double holdOutFraction{0};
    /**
     * The flag that makes the protocol send gradients instead of models (e.g.
     * "--algorithm=fedsgd"), or empty: a scenario sets it before LoadData(), which then
     * refuses a model with buffers (BatchNorm statistics have no gradient: the global model
     * would keep its initial statistics).
     */
    std::string gradientsBy;
    static constexpr uint32_t PolynomialPoints = 50; //!< polynomial: points per agent
    static constexpr uint32_t PolynomialXstar = 50;  //!< polynomial: points of X*
    std::shared_ptr<D2dDataset> heldOut; //!< X* (after LoadData() with holdOutFraction > 0)
    std::shared_ptr<D2dDataset> train;   //!< the training set (after LoadData())
    std::shared_ptr<D2dDataset> test;    //!< the test set (after LoadData())
    std::vector<D2dShard> shards;        //!< device i's part of train (after LoadData())

    /**
     * \brief Hand a learning helper what these flags say: the data (train, shards, test:
     * call after LoadData() and after any change to the shards, e.g. label flips), the
     * architectures, the learners' LearningRate, BatchSize and Optimizer, the protocol's
     * Rounds, LocalEpochs, LocalSteps and Compression, the seed, and LibTorch's worker
     * threads (--threads).
     * \param helper the helper
     * \param seed the run seed
     */
    void Configure(D2dLearningHelper& helper, uint64_t seed) const;

    /**
     * \brief The model messages of this configuration, for D2dNetworkOptions::PrintLinks():
     * one per architecture of --model, ("model ARCH", its bytes on the air with
     * --compression). Call after LoadData() (the data set gives the models' input shape).
     * \return (kind, bytes) per architecture
     */
    std::vector<std::pair<std::string, uint64_t>> ModelMessages() const;

    /**
     * \brief run.json (besides the flags, which D2dScenarioFlags::Record() writes):
     * trainSamples and testSamples, and, if first is given, its modelParameters and
     * trainingFlopsPerSample; the BLAS library that LibTorch calls (blasLibrary, blasConfig)
     * and the CPU (cpu), on which bit-identical results depend.
     * \param traces the run's trace helper
     * \param first a learner (e.g. device 0's), or null
     */
    void Record(D2dTraceHelper& traces, Ptr<D2dLearner> first) const;

    /**
     * \brief Run a learning protocol to its end: Record() with its first learner, that
     * learner's and the protocol's attributes in run.json, a progress line per round,
     * the protocol started at time 0 and the simulation stopped when it finishes or at
     * maxSimTime, then the traces completed (D2dScenarioSupport::FinishTraces) with
     * writeLast's records and run.json's roundsCompleted, finalAccuracy and bytesSent, and a
     * summary line on stderr (unless quiet). Calls Simulator::Destroy().
     * \param support the scenario's support (progress, errors)
     * \param traces the run's traces
     * \param protocol the protocol, installed
     * \param label what the summary line calls the protocol (e.g. the --algorithm)
     * \param seed the run's seed
     * \param maxSimTime the latest end of the simulation
     * \param quiet no progress and summary lines
     * \param writeLast the scenario's last records (may be empty); may throw
     *        std::runtime_error
     */
    void Run(const D2dScenarioSupport& support,
             std::unique_ptr<D2dTraceHelper>& traces,
             Ptr<D2dFlProtocol> protocol,
             const std::string& label,
             uint64_t seed,
             Time maxSimTime,
             bool quiet,
             const std::function<void()>& writeLast = {}) const;

    /** \return the memory available to the program, bytes (D2dMemoryBudget::AvailableBytes;
     *          MemAvailable when D2DLEARN_MEMORY_MB is malformed, which the budget refuses) */
    static double AvailableMemoryBytes();

    /**
     * \return the bytes a device holding a model keeps for it (the largest architecture of
     *         --model): two flat float copies, plus the kept optimizer state; after LoadData()
     */
    double ModelBytesPerHolder() const;

    /** \return the bytes the loaded data takes: the training, test and held-out sets'
     *          features, labels and targets, and the shards' sample indices; after LoadData() */
    double DataBytes() const;

    /** \return the help of --dataDir: what each data set of datasets expects there */
    std::string DataDirHelp() const;

  private:
    /**
     * \brief Load one set of a file data set (fashion-mnist, mnist, cifar10, cifar100,
     * tensors) of --dataDir at --dataFraction; a fraction that keeps no sample, or a set that
     * holds none, fails naming that set.
     * \param support the scenario's support (errors)
     * \param split "train" or "test"
     * \param seed the draw of the fraction
     * \param fileSamples receives the samples in the files (before the fraction)
     * \return the set
     */
    std::shared_ptr<D2dDataset> LoadFileSet(const D2dScenarioSupport& support,
                                            const std::string& split,
                                            uint64_t seed,
                                            std::size_t& fileSamples) const;

    /**
     * \brief LoadData() of --dataset=polynomial (see there).
     * \param nDevices agents
     * \param seed the run's seed
     */
    void LoadPolynomial(uint32_t nDevices, uint64_t seed);

    /**
     * \brief LoadData() of --dataset=leaf: both splits of --dataDir, --dataFraction of the
     * users kept with all their samples.
     * \param support for the one-line error
     * \param seed the run's seed
     * \return the training split, with its users (for --partition=natural)
     */
    D2dLeaf::Split LoadLeaf(const D2dScenarioSupport& support, uint64_t seed);

    /**
     * \brief LoadData() of a data set read from files (Fashion-MNIST, MNIST, CIFAR, tensors):
     * both splits, and whether their sizes are the published ones.
     * \param support for the one-line error
     * \param seed the run's seed
     */
    void LoadFiles(const D2dScenarioSupport& support, uint64_t seed);

    /**
     * \brief Fail unless both sets hold samples of one shape, the models fit
     * (CheckModelMemory) and every device can have a training sample.
     * \param support for the one-line error
     * \param nDevices devices
     */
    void CheckSets(const D2dScenarioSupport& support, uint32_t nDevices) const;

    /**
     * \brief The devices' shards by --partition, of pool (the samples not held out) if
     * not null, else of the whole training set.
     * \param leaf the LEAF training split (its users: --partition=natural)
     * \param nDevices devices
     * \param seed the run's seed
     * \param pool the training samples to partition, or null for all
     */
    void Partition(const D2dLeaf::Split& leaf,
                   uint32_t nDevices,
                   uint64_t seed,
                   const std::vector<std::size_t>* pool);

    /**
     * \brief Fail unless every architecture of --model fits the samples (a cnn needs images
     * of at least 4 x 4) and (checkModelMemory) the models the devices hold fit in the memory
     * available: two flat copies per holding device (its own and one in flight or waiting to be
     * averaged), plus kept optimizer state (KeepOptimizerState: Adam 2, SGD 1 more), plus the
     * global model. \param support for the one-line error \param nDevices devices, each with its
     * own model
     */
    void CheckModelMemory(const D2dScenarioSupport& support, uint32_t nDevices) const;

    std::vector<D2dModelSpec> m_specs; //!< the architectures of --model
    std::size_t m_trainRead{0};        //!< training samples in the files (before the fraction)
    std::size_t m_testRead{0};         //!< test samples in the files (before the fraction)
    std::size_t m_leafUsers{0};        //!< leaf: training users in the files
    std::size_t m_leafUsersKept{0};    //!< leaf: training users kept by --dataFraction
    /** whether the files hold the published counts: 1 yes, 0 no, -1 not known (no file set,
     * or one without published counts, e.g. tensors) */
    int m_published{-1};
    /** A file data set's classes: "published" (checked against the set's published count),
     *  "labels" (the labels' range: no published count), "" (not a file data set) */
    std::string m_classesFrom;
    /** \brief Set m_classesFrom, and say it when the classes come from the labels
     *  \param support the scenario's support \param published whether the set has a
     *  published count, checked \param set its name */
    void NoteClasses(const D2dScenarioSupport& support, bool published, const std::string& set);
};

} // namespace ns3

#endif /* D2D_LEARNING_OPTIONS_H */
