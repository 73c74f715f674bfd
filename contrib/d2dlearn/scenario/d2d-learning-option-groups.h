/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LEARNING_OPTION_GROUPS_H
#define D2D_LEARNING_OPTION_GROUPS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

// The flag groups of D2dLearningOptions, which holds one of each: the values of the learning
// flags the scenario programs share, each group with the flags that set it.

namespace ns3
{

class D2dScenarioFlags;
class D2dScenarioSupport;

/**
 * \ingroup d2dlearn
 * \brief The local training and the protocol's rounds: rounds, epochs or steps, mini-batches,
 * optimizer, model, compression of the models on the air, LibTorch threads. A scenario may change
 * them before D2dLearningOptions::AddFlags() to set its own defaults; after Validate() they hold
 * the values in force.
 */
struct D2dTrainingOptions
{
    /**
     * \brief Declare --rounds to --jobWallLimit, in the order --PrintHelp and run.json list
     * them (each with its range and the attribute it sets).
     * \param flags where to declare them
     * \param protocolFlags declare the flags of the learning protocols and D2dLearner too
     *        (false: the variational learner of bayes-consensus, which reads none of them)
     * \param polynomial the scenario offers --dataset=polynomial (the --model help names poly)
     */
    void AddFlags(D2dScenarioFlags& flags, bool protocolFlags, bool polynomial);
    /**
     * \brief Declare --compression (with the protocol flags) and --threads, after the data
     * flags.
     * \param flags where to declare them
     * \param protocolFlags as AddFlags()
     */
    void AddExecutionFlags(D2dScenarioFlags& flags, bool protocolFlags);

    uint32_t rounds{20};          //!< --rounds: communication rounds
    uint32_t localEpochs{1};      //!< --localEpochs: epochs over the shard per job
    uint64_t localSteps{0};       //!< --localSteps: > 0: mini-batch steps per job
    uint32_t batchSize{32};       //!< --batchSize: samples per mini-batch
    double learningRate{0.05};    //!< --learningRate: local learning rate
    std::string optimizer{"sgd"}; //!< --optimizer: sgd | adam
    std::string model{"mlp"};     //!< --model: linear | logistic | mlp[:WxW] | cnn[:C1xC2] |
                                  //!< triplet[:M] | torchscript:PATH
    double modelFlops{0};         //!< --modelFlops: forward FLOPs per sample (0: the model's own)
    /** --jobWallLimit: wall-time budget of a torchscript model's job (0: D2dJobWatchdog's
     *  auto rule from the job's FLOPs) */
    Time jobWallLimit{Seconds(0)};
    std::string compression{"float32"}; //!< --compression: model values on the air
    uint32_t threads{2}; //!< --threads: worker threads for the devices' computations (0: inline)
    bool sleepWhileTraining{false}; //!< --sleepWhileTraining: radios asleep during jobs
};

/**
 * \ingroup d2dlearn
 * \brief The data set and its partition among the devices. A scenario may change them before
 * D2dLearningOptions::AddFlags() to set its own defaults; after Validate() they hold the
 * values in force.
 */
struct D2dDataOptions
{
    /**
     * \brief Declare --dataset to --quantitySkew, in the order --PrintHelp and run.json list
     * them.
     * \param flags where to declare them
     * \param protocolFlags declare --dataset, --syntheticSamples and --cifarLabels too (false:
     *        bayes-consensus' variational mode, on Fashion-MNIST alone)
     * \param dataDirHelp the help of --dataDir
     */
    void AddFlags(D2dScenarioFlags& flags, bool protocolFlags, const std::string& dataDirHelp);
    /**
     * \brief After D2dScenarioFlags::Parse(): --partition=natural only with --dataset=leaf, and
     * --labelProportions read (GetProportions()): numbers >= 0 summing to 1, one per label of
     * --labelsPerDevice (the default's three shares give way to equal shares for another
     * count). Bad input ends the program via support.Fail().
     * \param support the scenario's support (error messages)
     */
    void Validate(const D2dScenarioSupport& support);
    /** \return the shares of --labelProportions in force (empty: equal), after Validate() */
    const std::vector<double>& GetProportions() const;

    std::string dataset{"fashion-mnist"}; //!< --dataset: one of datasets
    /**
     * The --dataset choices a scenario offers: fashion-mnist, gaussian-mixture (Fan et al.
     * 2023, sec. 5.1), the published formats read from --dataDir (mnist: any gzip idx set,
     * D2dIdxFolder; cifar10, cifar100: D2dCifar; tensors: NumPy .npy, D2dNpy; leaf: LEAF's
     * JSON, D2dLeaf, with --partition=natural) and, where the scenario adds it, polynomial
     * (Fan et al. 2023, App. A.1: regression, one agent per shard, X* fixed; LoadData() fills
     * heldOut).
     */
    std::vector<std::string> datasets{"fashion-mnist",
                                      "gaussian-mixture",
                                      "mnist",
                                      "cifar10",
                                      "cifar100",
                                      "tensors",
                                      "leaf"};
    std::string dataDir;              //!< --dataDir: the data set's files (see DataDirHelp())
    std::string cifarLabels{"fine"};  //!< --cifarLabels: cifar100: fine (100) or coarse (20)
    double dataFraction{0.25};        //!< --dataFraction: fraction of train and test used
    uint64_t syntheticSamples{20000}; //!< --syntheticSamples: gaussian-mixture samples
    std::string partition{"iid"}; //!< --partition: iid | dirichlet | labels | quantity | natural
    double alpha{0.5};            //!< --alpha: Dirichlet concentration
    uint32_t labelsPerDevice{3};  //!< --labelsPerDevice: labels partition: classes
    /** --labelProportions: labels partition: shares of a device's classes (Wagle et al. 2025, App.
     * C) */
    std::string labelProportions{"0.7,0.2,0.1"};
    double quantitySkew{1.0}; //!< --quantitySkew: quantity partition: size-law skew

  private:
    std::vector<double> m_proportions; //!< the shares of --labelProportions in force
};

} // namespace ns3

#endif /* D2D_LEARNING_OPTION_GROUPS_H */
