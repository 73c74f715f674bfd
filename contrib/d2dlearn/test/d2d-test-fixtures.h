/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fixtures the module's test suites share (not part of the module's API): the data sets,
 * loaded once per argument set; eq. 18 solved for the noise or the RSS of a drop
 * probability; the network and learner set-up of the protocol suites; temporary folders and
 * files.
 */

#ifndef D2D_TEST_FIXTURES_H
#define D2D_TEST_FIXTURES_H

#include "d2d-test-eq18.h"
#include "d2d-test-simulation.h"

#include "ns3/d2d-channel.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/node-container.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/** A training set and a test set. */
struct D2dTestData
{
    std::shared_ptr<const D2dDataset> train; //!< training set
    std::shared_ptr<const D2dDataset> test;  //!< test set
};

/**
 * \brief The 4-class Gaussian mixture of Fan et al. 2023, sec. 5.1 (PaperGaussianMeans, sd 1,
 * equal class weights), generated once per argument set.
 * \param trainSeed seed of the training set
 * \param testSeed seed of the test set
 * \param nTrain training samples
 * \param nTest test samples
 * \return the two sets (valid until the program ends)
 */
const D2dTestData& GaussianTestData(uint64_t trainSeed,
                                    uint64_t testSeed,
                                    std::size_t nTrain,
                                    std::size_t nTest);

/**
 * \brief One split of Fashion-MNIST from D2dFashionMnist::DefaultDir(), loaded once per
 * argument set.
 * \param split "train" or "test"
 * \param fraction stratified fraction of the split, in (0, 1]
 * \param seed seed of the fraction's draw
 * \return the set (valid until the program ends)
 */
std::shared_ptr<const D2dDataset> FashionTestSplit(const std::string& split,
                                                   double fraction,
                                                   uint64_t seed);

/**
 * \brief Fashion-MNIST's training and test splits, the same fraction of each, loaded once
 * per argument set.
 * \param fraction stratified fraction of each split, in (0, 1]
 * \param trainSeed seed of the training fraction's draw
 * \param testSeed seed of the test fraction's draw
 * \return the two sets (valid until the program ends)
 */
const D2dTestData& FashionTestData(double fraction, uint64_t trainSeed = 1, uint64_t testSeed = 2);

/**
 * \brief Give every link of a channel whose links all have the same RSS the drop
 * probability pd (eq. 18) by choosing NoisePowerW: W is measured on the link tx -> rx with a
 * probe noise of 1e-13 W (its P_D must be in (1e-12, 0.5)), then sigma^2 = -ln(1 - pd) W /
 * (2^r - 1) with the channel's SpectralEfficiency r. Aborts when the probe or the result
 * (|P_D - pd| > 1e-9) is off.
 * \param channel the channel (its links' RSS must all be equal, e.g. FixedDistanceM or
 *        devices equally far from a server)
 * \param pd drop probability, in (0, 1)
 * \param rx receiving device index of the probed link
 * \param tx sending device index of the probed link
 */
void SetUniformDropProbability(Ptr<D2dChannel> channel, double pd, uint32_t rx, uint32_t tx);

/**
 * \brief Devices on a line: node i at (i x spacingM, 0, 0) (ConstantPositionMobilityModel).
 * \param n number of nodes
 * \param spacingM distance between neighbours, m
 * \return the nodes
 */
NodeContainer MakeTestNodesOnLine(uint32_t n, double spacingM);

/**
 * \brief A learner as the protocol suites set one up: LearningRate, Setup on the device's
 * shard, then the node's compute model, with SlowdownFactor set where the device has one in
 * `slowdown`.
 * \param nodes the devices' nodes (each holds its D2dComputeModel)
 * \param id device index, in nodes and shards
 * \param spec the model
 * \param train the training set
 * \param shards every device's samples
 * \param seed seed of the learner (initial model, batches)
 * \param learningRate LearningRate
 * \param slowdown device index -> SlowdownFactor (devices not in it keep the default)
 * \return the learner
 */
Ptr<D2dLearner> MakeTestLearner(const NodeContainer& nodes,
                                uint32_t id,
                                const D2dModelSpec& spec,
                                std::shared_ptr<const D2dDataset> train,
                                const std::vector<D2dShard>& shards,
                                uint64_t seed,
                                double learningRate,
                                const std::map<uint32_t, double>& slowdown = {});

/**
 * \brief Configure a helper as the protocol suites do: the channel's NoisePowerW, the
 * SCHEDULED access policy (the protocols hand every message to the radios at once: the
 * channel's ideal MAC keeps half-duplex radios from losing them), 1e9 J batteries and the
 * compute models' FlopsPerSecond.
 * \param d2d the helper, before its Install
 * \param noiseW NoisePowerW, W
 * \param flopsPerSecond FlopsPerSecond of every device's compute model, FLOP/s
 */
void ConfigureTestProtocolHelper(D2dHelper& d2d, double noiseW, double flopsPerSecond);

/**
 * \brief Give devices batteries of their own: InitialEnergyJ of each listed device's first
 * energy source.
 * \param nodes the devices' nodes (each holds its EnergySourceContainer)
 * \param energyJ device index -> initial battery energy, J
 */
void SetTestBatteries(const NodeContainer& nodes, const std::map<uint32_t, double>& energyJ);

/** The learners of a protocol suite's run, with what they held before it. */
struct D2dTestLearners
{
    std::vector<Ptr<D2dLearner>> learners;   //!< device i's learner at i
    std::vector<double> samples;             //!< each learner's samples, n_k
    std::vector<std::vector<float>> initial; //!< each learner's parameters, before the run
};

/**
 * \brief The learners of all devices, device by device (MakeTestLearner), with their samples
 * and initial parameters.
 * \param nodes the devices' nodes, one learner each
 * \param spec the model
 * \param train the training set
 * \param shards every device's samples
 * \param seed seed of every learner
 * \param learningRate LearningRate
 * \param slowdown device index -> SlowdownFactor (devices not in it keep the default)
 * \return the learners
 */
D2dTestLearners MakeTestLearners(const NodeContainer& nodes,
                                 const D2dModelSpec& spec,
                                 std::shared_ptr<const D2dDataset> train,
                                 const std::vector<D2dShard>& shards,
                                 uint64_t seed,
                                 double learningRate,
                                 const std::map<uint32_t, double>& slowdown = {});

/**
 * \param learners the learners
 * \return each learner's parameters now, empty for a learner still training
 */
std::vector<std::vector<float>> TestModelsNow(const std::vector<Ptr<D2dLearner>>& learners);

/**
 * \param path a file
 * \return its whole text ("" if it cannot be read)
 */
std::string ReadTextFile(const std::string& path);

/**
 * \param path a text file
 * \return its lines, without the newlines
 */
std::vector<std::string> ReadTextLines(const std::string& path);

/**
 * \param line a CSV row (no quoting)
 * \return its comma-separated fields (a trailing empty field is dropped)
 */
std::vector<std::string> SplitCsvLine(const std::string& line);

} // namespace ns3

#endif /* D2D_TEST_FIXTURES_H */
