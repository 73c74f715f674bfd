/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-learning-option-groups.h"

#include "d2d-list-flag.h"
#include "d2d-scenario-flags.h"
#include "d2d-scenario-support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ns3
{

void
D2dTrainingOptions::AddFlags(D2dScenarioFlags& flags, bool protocolFlags, bool polynomial)
{
    if (protocolFlags)
    {
        // (ThroughAttributes: they act where a protocol or learner that reads them is made,
        // e.g. not FedSGD's local epochs: D2dFlProtocol::GetUnreadAttributes.)
        flags.Add("rounds", "Communication rounds", rounds)
            .Sets("ns3::D2dFlProtocol::Rounds")
            .ThroughAttributes()
            .Range(1, 1e6);
        flags.Add("localEpochs", "Local epochs per round", localEpochs)
            .Sets("ns3::D2dFlProtocol::LocalEpochs")
            .ThroughAttributes()
            .Range(1, 1e4);
    }
    flags.Add("localSteps", "Local mini-batch steps per round (0: localEpochs)", localSteps)
        .Sets("ns3::D2dFlProtocol::LocalSteps")
        .ThroughAttributes()
        .Range(0, 1e9);
    flags.Add("batchSize", "Mini-batch size, samples", batchSize)
        .Sets("ns3::D2dLearner::BatchSize")
        .ThroughAttributes()
        .Range(1, 1e6);
    flags.Add("learningRate", "Local learning rate", learningRate)
        .Sets("ns3::D2dLearner::LearningRate")
        .ThroughAttributes();
    if (protocolFlags)
    {
        flags.Add("optimizer", "Local optimizer: sgd or adam", optimizer)
            .Sets("ns3::D2dLearner::Optimizer")
            .ThroughAttributes();
        flags
            .Add("sleepWhileTraining",
                 "A device's radios sleep from the start of each local training job to its "
                 "planned end; messages for it wait until it wakes (messages.csv "
                 "sleep_wait_s; over --backend=wifi they are missed and retried)",
                 sleepWhileTraining)
            .Sets("ns3::D2dFlProtocol::SleepWhileTraining");
    }
    flags.Add("model",
              polynomial
                  ? "linear, logistic, mlp[:WxW..], cnn[:C1xC2], poly[:D], triplet[:MARGIN], "
                    "torchscript:PATH (a module saved by torch.jit.script(model).save(PATH))"
                  : "linear, logistic, mlp[:WxW..], cnn[:C1xC2], triplet[:MARGIN] (a "
                    "self-supervised encoder scored by linear evaluation), torchscript:PATH (a "
                    "module saved by torch.jit.script(model).save(PATH))",
              model);
    if (protocolFlags)
    {
        // D2dLearner's own models (not the variational learner of bayes-consensus).
        flags
            .Add("modelFlops",
                 "FLOPs of one sample's forward pass charged to the compute model (training "
                 "3 x, prediction 1 x); 0: the model's own (a torchscript model's counted "
                 "multiply-adds x 2, printed at the start and in run.json "
                 "forwardFlopsPerSample)",
                 modelFlops)
            .Sets("ns3::D2dLearner::ForwardFlopsPerSample")
            .Range(0, 1e18);
        flags
            .Add("jobWallLimit",
                 "torchscript: wall-clock time one job of the model (its load-time check, a "
                 "training job, an evaluation) may take before the run stops in one line (a "
                 "forward that never returns); 0: 5 s + the job's FLOPs / 1e8 FLOP/s",
                 jobWallLimit)
            .Range(0, 1e9);
    }
}

void
D2dTrainingOptions::AddExecutionFlags(D2dScenarioFlags& flags, bool protocolFlags)
{
    if (protocolFlags)
    {
        flags.Add("compression", "Model values on the air: float32 or float16", compression)
            .Sets("ns3::D2dFlProtocol::Compression")
            .ThroughAttributes();
    }
    // The learners' LibTorch jobs, and graph discovery's unsupervised draws and eq. (17)
    // (D2dTorchRuntime::ParallelFor).
    flags.Add("threads", "Worker threads for the devices' computations (0: inline)", threads)
        .Range(0, 256);
}

void
D2dDataOptions::AddFlags(D2dScenarioFlags& flags,
                         bool protocolFlags,
                         const std::string& dataDirHelp)
{
    if (protocolFlags)
    {
        flags.Add("dataset", "Data set", dataset).Choices(datasets);
        flags
            .Add("syntheticSamples",
                 "gaussian-mixture: training samples before --dataFraction (the test set has "
                 "a quarter as many); more devices than Fashion-MNIST's 60,000 samples need more",
                 syntheticSamples)
            .Range(1, 1e8);
    }
    if (protocolFlags && std::find(datasets.begin(), datasets.end(), "cifar100") != datasets.end())
    {
        flags
            .Add("cifarLabels",
                 "cifar100: the fine labels (100 classes) or the coarse ones (20 superclasses)",
                 cifarLabels)
            .Choices({"fine", "coarse"});
    }
    flags.Add("dataDir", dataDirHelp, dataDir);
    flags
        .Add("dataFraction",
             "Fraction of the train and test sets used (stratified per class; leaf: the "
             "fraction of users kept, with all their samples)",
             dataFraction)
        .Range(1e-6, 1);
    flags
        .Add("partition",
             "How the training set is split among the devices; natural (--dataset=leaf only): "
             "device i gets the samples of LEAF users i, i+N, i+2N, ... of N devices, in the "
             "files' order",
             partition)
        .Choices({"iid", "dirichlet", "labels", "quantity", "natural"});
    flags.Add("alpha", "Dirichlet concentration", alpha).Range(1e-6, 1e6);
    flags.Add("labelsPerDevice", "labels partition: classes per device", labelsPerDevice)
        .Range(1, 10);
    flags.Add("labelProportions",
              "labels partition: shares of a device's classes, separated by commas or spaces "
              "(empty: equal)",
              labelProportions);
    flags.Add("quantitySkew", "quantity partition: skew of the shard sizes", quantitySkew)
        .Range(0, 100);
}

void
D2dDataOptions::Validate(const D2dScenarioSupport& support)
{
    if (partition == "natural" && dataset != "leaf")
    {
        support.Fail("--partition=natural splits LEAF's data by its users; --dataset=" + dataset +
                     " has none (accepted: --dataset=leaf, or --partition=iid, dirichlet, labels "
                     "or quantity)");
    }
    m_proportions.clear();
    try
    {
        m_proportions = D2dListFlag::Reals(labelProportions);
    }
    catch (const std::exception& e)
    {
        support.Fail("--labelProportions=" + labelProportions + ": '" + e.what() +
                     "' is not a number (accepted: shares separated by commas or spaces)");
    }
    if (partition == "labels" && !m_proportions.empty() && m_proportions.size() != labelsPerDevice)
    {
        if (labelProportions == "0.7,0.2,0.1")
        {
            m_proportions.clear(); // the default belongs to 3 labels: other counts share equally
        }
        else
        {
            support.Fail(fmt::format("--labelProportions has {} values for "
                                     "--labelsPerDevice={} (accepted: {} values summing to 1, "
                                     "or empty for equal shares)",
                                     m_proportions.size(),
                                     labelsPerDevice,
                                     labelsPerDevice));
        }
    }
    if (!m_proportions.empty())
    {
        double sum = 0;
        for (auto x : m_proportions)
        {
            sum += x;
            if (!(x >= 0))
            {
                support.Fail("--labelProportions=" + labelProportions + " has " +
                             (std::isnan(x) ? std::string("a share that is not a number")
                                            : std::string("a negative share")) +
                             " (accepted: shares >= 0 summing to 1)");
            }
        }
        if (std::fabs(sum - 1) > 1e-6)
        {
            support.Fail(fmt::format("--labelProportions={} sums to {} (accepted: shares >= 0 "
                                     "summing to 1)",
                                     labelProportions,
                                     sum));
        }
    }
}

const std::vector<double>&
D2dDataOptions::GetProportions() const
{
    return m_proportions;
}

} // namespace ns3
