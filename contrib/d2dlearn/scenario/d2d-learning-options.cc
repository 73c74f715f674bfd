/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-learning-options.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/d2d-cifar.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-idx-cache.h"
#include "ns3/d2d-idx-folder.h"
#include "ns3/d2d-job-watchdog.h"
#include "ns3/d2d-leaf.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-list-flag.h"
#include "ns3/d2d-matrix-csv.h"
#include "ns3/d2d-memory-budget.h"
#include "ns3/d2d-model-payload.h"
#include "ns3/d2d-npy.h"
#include "ns3/d2d-stop-signals.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/d2d-text.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dLearningOptions");

namespace
{
/** A data set read from --dataDir's files. */
struct FileDataset
{
    const char* name;  //!< its --dataset value
    const char* holds; //!< what --dataDir holds for it (the flag's help)
    bool fileSet;      //!< LoadFileSet reads it (leaf: LoadData, by users)
};

/**
 * The data sets read from --dataDir, one row each, in the order the messages list them.
 * Their samples are images (channels x rows x cols) for cnn and triplet (tensors' and leaf's
 * are checked once loaded).
 */
const std::vector<FileDataset> FILE_DATASETS = {
    {"fashion-mnist",
     "train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, "
     "t10k-labels-idx1-ubyte.gz (default: Debian's dataset-fashion-mnist)",
     true},
    {"mnist",
     "exactly one file ending in each of those four names (MNIST, or one EMNIST set such as "
     "emnist-balanced-*)",
     true},
    {"cifar10",
     "data_batch_1.bin ... data_batch_5.bin, test_batch.bin (the binary version; or its parent "
     "folder)",
     true},
    {"cifar100", "train.bin, test.bin (the binary version; or its parent folder)", true},
    {"tensors",
     "train_x.npy, train_y.npy, test_x.npy, test_y.npy (NumPy; x float32, float64 or uint8 "
     "with samples first, y integer labels)",
     true},
    {"leaf",
     "train/*.json and test/*.json of LEAF (FEMNIST images or Shakespeare next characters)",
     false},
};

/** \return the row of a data set, or null if it is not read from files \param name it */
const FileDataset*
FindFileDataset(const std::string& name)
{
    for (const auto& d : FILE_DATASETS)
    {
        if (name == d.name)
        {
            return &d;
        }
    }
    return nullptr;
}

/** \return the data sets whose samples are images: those read from files */
std::vector<std::string>
ImageDatasets()
{
    std::vector<std::string> names;
    for (const auto& d : FILE_DATASETS)
    {
        names.emplace_back(d.name);
    }
    return names;
}

} // namespace

D2dLearningOptions::D2dLearningOptions()
{
    data.dataDir = D2dFashionMnist::DefaultDir();
}

const std::vector<std::string>&
D2dLearningOptions::GetTrainingFlags()
{
    static const std::vector<std::string> names = {"rounds",
                                                   "localEpochs",
                                                   "localSteps",
                                                   "batchSize",
                                                   "learningRate",
                                                   "optimizer",
                                                   "sleepWhileTraining",
                                                   "model",
                                                   "modelFlops",
                                                   "jobWallLimit",
                                                   "compression"};
    return names;
}

void
D2dLearningOptions::AddFlags(D2dScenarioFlags& flags, bool protocolFlags)
{
    training.AddFlags(flags,
                      protocolFlags,
                      std::find(data.datasets.begin(), data.datasets.end(), "polynomial") !=
                          data.datasets.end());
    // Without the protocol flags (bayes-consensus' variational mode) only Fashion-MNIST.
    data.AddFlags(flags,
                  protocolFlags,
                  protocolFlags ? DataDirHelp() : "Folder of the Fashion-MNIST idx .gz files");
    training.AddExecutionFlags(flags, protocolFlags);
}

void
D2dLearningOptions::Validate(const D2dScenarioSupport& support, bool multipleArchitectures)
{
    // The flags' own ranges are checked by D2dScenarioFlags::Parse(); here the model, the
    // data set and the partition, which involve several flags.
    // Before the model is loaded; a late job ends the run as a Fail() would, its temporary
    // files and empty folders removed.
    D2dJobWatchdog::SetLimitSeconds(training.jobWallLimit.GetSeconds());
    D2dJobWatchdog::SetOnLate([](const std::string& what) { D2dStopSignals::Exit(what, 2); });
    m_specs.clear();
    std::stringstream in(training.model);
    std::string item;
    while (std::getline(in, item, ','))
    {
        try
        {
            m_specs.push_back(D2dModelSpec::Parse(item));
        }
        catch (const std::exception& e)
        {
            support.Fail(std::string("--") + e.what());
        }
    }
    if (m_specs.empty())
    {
        support.Fail("--model is empty (linear, logistic, mlp[:WxW..], cnn[:C1xC2])");
    }
    if (m_specs.size() > 1 && !multipleArchitectures)
    {
        support.Fail("--model=" + training.model +
                     " lists several architectures: this scenario averages models "
                     "(accepted: one architecture)");
    }
    for (const auto& s : trainsModels ? m_specs : std::vector<D2dModelSpec>{})
    {
        // Regression data takes the polynomial learner, and only regression data does.
        if (data.dataset == "polynomial" && s.arch != "poly")
        {
            support.Fail("--model=" + s.ToString() +
                         " is a classifier; --dataset=polynomial is regression data "
                         "(accepted: poly[:D], the closed-form polynomial learner, D in 0..20)");
        }
        if (data.dataset != "polynomial" && s.arch == "poly")
        {
            support.Fail("--model=" + s.ToString() + " is the polynomial regression learner; " +
                         "--dataset=" + data.dataset +
                         " is classification data (accepted: logistic, mlp, cnn)");
        }
        if (s.arch == "linear")
        {
            support.Fail("--model=linear is a regression model; the data sets here are "
                         "classification (logistic, mlp, cnn)");
        }
        if (s.arch == "torchscript" && data.dataset == "polynomial")
        {
            support.Fail("--model=" + s.ToString() +
                         ": --dataset=polynomial is trained by the closed-form polynomial "
                         "learner (accepted: poly[:D])");
        }
        const bool images = FindFileDataset(data.dataset) != nullptr;
        if (s.arch == "cnn" && !images)
        {
            support.Fail("--model=cnn needs images (accepted: --dataset=" +
                         D2dText::OrList(ImageDatasets()) + ")");
        }
        if (s.arch == "triplet" && !images)
        {
            support.Fail("--model=" + s.ToString() +
                         " needs images to rotate and blur (accepted: " + "--dataset=" +
                         D2dText::OrList(ImageDatasets()) + ")");
        }
        if (s.arch == "triplet" && m_specs.size() > 1)
        {
            support.Fail("--model=" + training.model +
                         ": triplet is scored by linear evaluation and mixes with no other "
                         "architecture (accepted: triplet[:MARGIN] alone)");
        }
    }
    data.Validate(support);
}

const std::vector<D2dModelSpec>&
D2dLearningOptions::GetSpecs() const
{
    return m_specs;
}

void
D2dLearningOptions::LoadData(const D2dScenarioSupport& support, uint32_t nDevices, uint64_t seed)
{
    NS_LOG_FUNCTION(this << nDevices << seed);
    NS_ABORT_MSG_IF(m_specs.empty(), "D2dLearningOptions::LoadData before Validate");
    try
    {
        if (data.dataset == "polynomial")
        {
            LoadPolynomial(nDevices, seed);
            return;
        }
        D2dLeaf::Split leaf;
        if (data.dataset == "leaf")
        {
            leaf = LoadLeaf(support, seed);
        }
        else if (const auto* files = FindFileDataset(data.dataset); files && files->fileSet)
        {
            LoadFiles(support, seed);
        }
        else
        {
            // Seed 000 sec. 5.1: four classes in 2-D, unit variance.
            const auto n = static_cast<std::size_t>(
                std::max(1.0, static_cast<double>(data.syntheticSamples) * data.dataFraction));
            const auto means = D2dSyntheticData::PaperGaussianMeans();
            train = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n, seed);
            test = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n / 4 + 1, seed + 1);
        }
        CheckSets(support, nDevices);
        // The shared set X* of prediction consensus, held out before partitioning.
        std::vector<std::size_t> rest;
        const std::vector<std::size_t>* pool = nullptr;
        if (holdOutFraction > 0)
        {
            const auto m = static_cast<std::size_t>(std::llround(holdOutFraction * train->Size()));
            if (m == 0 || m + nDevices > train->Size())
            {
                support.Fail(fmt::format("--xstarFraction={} holds out {} of {} training samples "
                                         "(accepted: at least 1, leaving one per device)",
                                         holdOutFraction,
                                         m,
                                         train->Size()));
            }
            heldOut = train->Subset(D2dPartitioner::HoldOut(*train, m, seed, &rest));
            pool = &rest;
        }
        Partition(leaf, nDevices, seed, pool);
    }
    catch (const std::exception& e)
    {
        support.Fail("--" + std::string(e.what()));
    }
}

D2dLeaf::Split
D2dLearningOptions::LoadLeaf(const D2dScenarioSupport& support, uint64_t seed)
{
    // --dataFraction keeps a share of the users, with all their samples.
    D2dLeaf::Split leaf = D2dLeaf::LoadSplit(data.dataDir, "train");
    auto leafTest = D2dLeaf::LoadSplit(data.dataDir, "test");
    m_trainRead = leaf.data->Size();
    m_testRead = leafTest.data->Size();
    m_leafUsers = leaf.users.size();
    leaf = D2dLeaf::KeepUsers(leaf, data.dataFraction, seed);
    leafTest = D2dLeaf::KeepUsers(leafTest, data.dataFraction, seed + 1);
    m_leafUsersKept = leaf.users.size();
    if (leaf.kind != leafTest.kind)
    {
        support.Fail(fmt::format("--dataDir={}: the training samples are {}, the test "
                                 "samples {} (accepted: one kind)",
                                 data.dataDir,
                                 leaf.kind,
                                 leafTest.kind));
    }
    train = leaf.data;
    test = leafTest.data;
    train->numClasses = test->numClasses = std::max(train->numClasses, test->numClasses);
    // FEMNIST's images (62 classes) and Shakespeare's characters (80) are checked against
    // their published classes; other vectors have their labels' range.
    NoteClasses(support, leaf.kind != "vectors", "leaf " + leaf.kind);
    return leaf;
}

void
D2dLearningOptions::LoadFiles(const D2dScenarioSupport& support, uint64_t seed)
{
    train = LoadFileSet(support, "train", seed, m_trainRead);
    test = LoadFileSet(support, "test", seed + 1, m_testRead);
    m_published = data.dataset == "cifar10" || data.dataset == "cifar100"
                      ? int(D2dCifar::MatchesPublished(m_trainRead, m_testRead))
                  : data.dataset == "mnist"
                      ? int(D2dIdxFolder::MatchesPublished(m_trainRead, m_testRead))
                      : -1;
    if (train->numClasses != test->numClasses &&
        (data.dataset == "mnist" || data.dataset == "tensors"))
    {
        // The classes are the labels' range: the larger of the two sets'.
        train->numClasses = test->numClasses = std::max(train->numClasses, test->numClasses);
    }
    const auto idx = data.dataset == "mnist"
                         ? D2dIdxFolder::PublishedClasses(D2dIdxFolder::Find(data.dataDir))
                         : D2dIdxFolder::Published{};
    // Fashion-MNIST (10), CIFAR-10 (10) and CIFAR-100 (100 or 20) are read with their
    // published classes, as is a --dataset=mnist folder its file names identify; tensors
    // (and an mnist folder of other names) have none.
    NoteClasses(support,
                data.dataset == "mnist" ? !idx.set.empty() : data.dataset != "tensors",
                data.dataset == "mnist" ? idx.set : data.dataset);
}

void
D2dLearningOptions::NoteClasses(const D2dScenarioSupport& support,
                                bool published,
                                const std::string& set)
{
    m_classesFrom = published ? "published" : "labels";
    if (!published && train)
    {
        // Nothing to check the labels against: a label byte gone wrong makes a class of its
        // own, and the model's outputs, FLOPs and messages follow. Say how many there are.
        support.Note(fmt::format("--dataDir={}: {} classes, the range of the labels (0 to {}): "
                                 "this set has no published class count to check them "
                                 "against (run.json: dataClasses)",
                                 data.dataDir,
                                 train->numClasses,
                                 train->numClasses == 0 ? 0 : train->numClasses - 1));
    }
    NS_LOG_INFO("classes of " << (set.empty() ? data.dataset : set) << ": " << m_classesFrom);
}

void
D2dLearningOptions::CheckSets(const D2dScenarioSupport& support, uint32_t nDevices) const
{
    // An empty set is named before any comparison of shapes (an empty training set
    // has none, and a shape mismatch would blame the test set).
    for (const auto& [set, which] :
         {std::make_pair(train, "training"), std::make_pair(test, "test")})
    {
        if (set->Size() == 0)
        {
            support.Fail(fmt::format("--dataFraction={} leaves no {} sample in --dataDir={} "
                                     "(accepted: a fraction that keeps at least one)",
                                     data.dataFraction,
                                     which,
                                     data.dataDir));
        }
    }
    if (test->featureShape != train->featureShape)
    {
        support.Fail(fmt::format("--dataDir={}: the test samples are {}, the training "
                                 "samples {} (accepted: samples of one shape)",
                                 data.dataDir,
                                 D2dDataset::ShapeText(test->featureShape),
                                 D2dDataset::ShapeText(train->featureShape)));
    }
    if (trainsModels)
    {
        CheckModelMemory(support, nDevices);
    }
    if (train->Size() < nDevices && data.dataset == "gaussian-mixture")
    {
        // The set is --syntheticSamples x --dataFraction: the flag that sizes it is
        // named first, with the least value that gives every device a sample.
        auto least = static_cast<uint64_t>(std::ceil(nDevices / data.dataFraction));
        while (static_cast<double>(least) * data.dataFraction < nDevices)
        {
            ++least;
        }
        support.Fail(fmt::format("--syntheticSamples={}{} leaves {} training samples for {} "
                                 "devices (accepted: at least one sample per device, "
                                 "--syntheticSamples={} or more)",
                                 data.syntheticSamples,
                                 data.dataFraction < 1
                                     ? fmt::format(" with --dataFraction={}", data.dataFraction)
                                     : std::string(),
                                 train->Size(),
                                 nDevices,
                                 least));
    }
    if (train->Size() < nDevices)
    {
        support.Fail(fmt::format("--dataFraction={} leaves {} training samples for {} "
                                 "devices (accepted: at least one sample per device)",
                                 data.dataFraction,
                                 train->Size(),
                                 nDevices));
    }
}

void
D2dLearningOptions::Partition(const D2dLeaf::Split& leaf,
                              uint32_t nDevices,
                              uint64_t seed,
                              const std::vector<std::size_t>* pool)
{
    if (data.partition == "natural")
    {
        shards = D2dLeaf::NaturalShards(leaf, nDevices);
        if (pool)
        {
            // X* held out first: a user's samples in X* are no longer its own.
            std::vector<bool> free(train->Size(), false);
            for (auto i : *pool)
            {
                free[i] = true;
            }
            for (auto& shard : shards)
            {
                shard.indices.erase(std::remove_if(shard.indices.begin(),
                                                   shard.indices.end(),
                                                   [&free](std::size_t i) { return !free[i]; }),
                                    shard.indices.end());
            }
        }
    }
    else if (data.partition == "iid")
    {
        shards = D2dPartitioner::Iid(*train, nDevices, seed, pool);
    }
    else if (data.partition == "dirichlet")
    {
        shards = D2dPartitioner::Dirichlet(*train, nDevices, data.alpha, seed, pool);
    }
    else if (data.partition == "labels")
    {
        shards = D2dPartitioner::LabelsPerDevice(*train,
                                                 nDevices,
                                                 data.labelsPerDevice,
                                                 data.GetProportions(),
                                                 seed,
                                                 pool);
    }
    else
    {
        shards = D2dPartitioner::QuantitySkew(*train, nDevices, data.quantitySkew, seed, pool);
    }
}

std::shared_ptr<D2dDataset>
D2dLearningOptions::LoadFileSet(const D2dScenarioSupport& support,
                                const std::string& split,
                                uint64_t seed,
                                std::size_t& fileSamples) const
{
    try
    {
        if (data.dataset == "mnist")
        {
            return D2dIdxFolder::Load(data.dataDir,
                                      split,
                                      data.dataFraction,
                                      seed,
                                      D2dIdxCache::DefaultDir(),
                                      &fileSamples);
        }
        if (data.dataset == "cifar10" || data.dataset == "cifar100")
        {
            return D2dCifar::Load(data.dataDir,
                                  data.dataset,
                                  split,
                                  data.cifarLabels == "coarse",
                                  data.dataFraction,
                                  seed,
                                  &fileSamples);
        }
        if (data.dataset == "tensors")
        {
            return D2dNpy::Load(data.dataDir, split, data.dataFraction, seed, &fileSamples);
        }
        auto set = D2dFashionMnist::Load(data.dataDir, split, data.dataFraction, seed);
        fileSamples = 0; // not known without decoding: Fashion-MNIST records no counts
        return set;
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        if (what.rfind("fraction: ", 0) != 0)
        {
            throw;
        }
        // The readers name their own argument ("fraction: F keeps no sample of N; ...");
        // the flag is --dataFraction, and the set is the one that came out empty.
        const auto of = what.find(" of ");
        const auto end = what.find(';', of);
        const std::string n =
            of == std::string::npos
                ? "?"
                : what.substr(of + 4, end == std::string::npos ? end : end - of - 4);
        const std::string which = split == "train" ? "training" : "test";
        support.Fail(n == "0" ? fmt::format("--dataDir={}: its {} set holds no sample (accepted: "
                                            "a folder whose two sets hold samples)",
                                            data.dataDir,
                                            which)
                              : fmt::format("--dataFraction={} keeps no sample of the {} {} "
                                            "samples (accepted: 1/(2 x {}) to 1)",
                                            D2dScenarioSupport::FormatNumber(data.dataFraction),
                                            n,
                                            which,
                                            n));
    }
}

std::string
D2dLearningOptions::DataDirHelp() const
{
    std::string help = "Folder of the data set's files:";
    for (const auto& d : data.datasets)
    {
        if (const auto* files = FindFileDataset(d))
        {
            help += " " + d + ": " + files->holds + ";";
        }
    }
    help.pop_back();
    return help;
}

void
D2dLearningOptions::LoadPolynomial(uint32_t nDevices, uint64_t seed)
{
    // Fan, Mendler-Dünner, Jaggi 2023, App. A.1: three agents with 50 points each around
    // -2, 0 and 2, X* 50 points evenly in [-4, 4].
    const auto f = D2dSyntheticData::PaperPolynomial();
    train = std::make_shared<D2dDataset>();
    train->name = "polynomial";
    train->featureShape = {1};
    shards.assign(nDevices, D2dShard{});
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        const double mean = nDevices == 1 ? 0.0 : -2.0 + 4.0 * i / (nDevices - 1.0);
        // Agent i's own stream: seed and i mixed (splitmix64), so agents draw independently.
        uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (static_cast<uint64_t>(i) + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        const auto part =
            D2dSyntheticData::PolynomialRegression(f, mean, 1.0, 1.0, PolynomialPoints, z);
        for (std::size_t k = 0; k < part->Size(); ++k)
        {
            shards[i].indices.push_back(train->Size());
            train->features.push_back(part->features[k]);
            train->targets.push_back(part->targets[k]);
        }
    }
    heldOut = D2dSyntheticData::PolynomialGrid(f, -4.0, 4.0, PolynomialXstar);
    test = D2dSyntheticData::PolynomialGrid(f, -4.0, 4.0, 201);
}

std::vector<std::pair<std::string, uint64_t>>
D2dLearningOptions::ModelMessages() const
{
    NS_ABORT_MSG_IF(!train, "D2dLearningOptions::ModelMessages before LoadData");
    const D2dModelCodec codec(training.compression);
    std::vector<std::pair<std::string, uint64_t>> messages;
    for (const auto& spec : m_specs)
    {
        const int64_t outputs = train->numClasses == 0 ? 1 : train->numClasses;
        messages.emplace_back("model " + spec.ToString(),
                              codec.BytesFor(static_cast<uint64_t>(
                                  spec.CountParameters(train->featureShape, outputs))));
    }
    return messages;
}

void
D2dLearningOptions::CheckModelMemory(const D2dScenarioSupport& support, uint32_t nDevices) const
{
    // A device that holds a model holds it as one flat float vector, and at most about one
    // more copy lives on its behalf (its upload in flight, or its trained model waiting for
    // its neighbours to average): 8 bytes per parameter; with KeepOptimizerState the
    // optimizer's state too (Adam's two moments: 8 more, SGD's momentum: 4). LibTorch
    // modules exist per worker thread only. A model that cannot fit is refused here rather
    // than by the allocator mid-run.
    BooleanValue keep;
    CreateObject<D2dLearner>()->GetAttribute("KeepOptimizerState", keep);
    const double bytesPerParameter = 8 + (keep.Get() ? (training.optimizer == "adam" ? 8 : 4) : 0);
    const double holding = std::max(0.0, std::min(1.0, holdingFraction));
    const double available = AvailableMemoryBytes();
    const int64_t outputs = train->numClasses > 0 ? train->numClasses : 1;
    for (const auto& spec : m_specs)
    {
        double parameters = 0;
        try
        {
            parameters = spec.CountParameters(train->featureShape, outputs);
        }
        catch (const std::exception& e)
        {
            std::string what = e.what();
            what = what.rfind("model: ", 0) == 0 ? what.substr(7) : what;
            // A torchscript model's errors name it ("torchscript:PATH: ..."), as --model does.
            const std::string named = spec.ToString() + ": ";
            what = what.rfind(named, 0) == 0 ? what.substr(named.size()) : what;
            support.Fail("--model=" + spec.ToString() + ": " + what);
        }
        if (!gradientsBy.empty())
        {
            const double buffers = spec.CountBufferValues(train->featureShape, outputs);
            if (buffers > 0)
            {
                support.Fail(fmt::format("--model={} has {} buffer values (BatchNorm running "
                                         "statistics), which {} cannot average: it sends "
                                         "gradients, and buffers have none (accepted: a model "
                                         "without buffers, or a protocol that sends models)",
                                         spec.ToString(),
                                         buffers,
                                         gradientsBy));
            }
        }
        const double need = parameters * bytesPerParameter * (std::ceil(holding * nDevices) + 1);
        if (checkModelMemory && need > available)
        {
            const std::string note = D2dMemoryBudget::AvailableNote(available);
            support.Fail(fmt::format("--model={}: {:.3g} parameters x {} devices need about "
                                     "{:.3g} GB of memory, more than the {:.3g} GB available{} "
                                     "(accepted: {}a smaller model or fewer devices)",
                                     spec.ToString(),
                                     parameters,
                                     nDevices,
                                     need / 1e9,
                                     available / 1e9,
                                     note,
                                     note.empty() ? "" : "a higher limit, "));
        }
    }
}

double
D2dLearningOptions::AvailableMemoryBytes()
{
    try
    {
        return D2dMemoryBudget::AvailableBytes();
    }
    catch (const std::invalid_argument&)
    {
        return D2dMatrixCsv::AvailableMemoryBytes();
    }
}

double
D2dLearningOptions::DataBytes() const
{
    double bytes = 0;
    for (const auto* set : {train.get(), test.get(), heldOut.get()})
    {
        if (set)
        {
            bytes += sizeof(float) * (set->features.size() + set->targets.size()) +
                     sizeof(int64_t) * set->labels.size();
        }
    }
    for (const auto& shard : shards)
    {
        bytes += sizeof(std::size_t) * shard.indices.size();
    }
    return bytes;
}

double
D2dLearningOptions::ModelBytesPerHolder() const
{
    NS_ABORT_MSG_IF(!train, "D2dLearningOptions::ModelBytesPerHolder before LoadData");
    BooleanValue keep;
    CreateObject<D2dLearner>()->GetAttribute("KeepOptimizerState", keep);
    const double bytesPerParameter = 8 + (keep.Get() ? (training.optimizer == "adam" ? 8 : 4) : 0);
    const int64_t outputs = train->numClasses > 0 ? train->numClasses : 1;
    double most = 0;
    for (const auto& spec : m_specs)
    {
        most =
            std::max(most,
                     bytesPerParameter *
                         static_cast<double>(spec.CountParameters(train->featureShape, outputs)));
    }
    return most;
}

void
D2dLearningOptions::Configure(D2dLearningHelper& helper, uint64_t seed) const
{
    NS_LOG_FUNCTION(this << seed);
    NS_ABORT_MSG_IF(!train || m_specs.empty(),
                    "D2dLearningOptions::Configure: call Validate() and LoadData() first");
    D2dTorchRuntime::SetWorkers(training.threads);
    helper.SetData(train, shards, test);
    helper.SetModels(m_specs);
    helper.SetSeed(seed);
    helper.SetLearnerAttribute("LearningRate", DoubleValue(training.learningRate));
    helper.SetLearnerAttribute("BatchSize", UintegerValue(training.batchSize));
    helper.SetLearnerAttribute("ForwardFlopsPerSample", DoubleValue(training.modelFlops));
    helper.SetLearnerAttribute("Optimizer", StringValue(training.optimizer));
    helper.SetProtocolAttribute("Rounds", UintegerValue(training.rounds));
    helper.SetProtocolAttribute("LocalEpochs", UintegerValue(training.localEpochs));
    helper.SetProtocolAttribute("LocalSteps", UintegerValue(training.localSteps));
    helper.SetProtocolAttribute("Compression", StringValue(training.compression));
    helper.SetProtocolAttribute("SleepWhileTraining", BooleanValue(training.sleepWhileTraining));
}

void
D2dLearningOptions::Record(D2dTraceHelper& traces, Ptr<D2dLearner> first) const
{
    // The flags' values: D2dScenarioFlags::Record().
    if (train)
    {
        traces.AddParameter("trainSamples", static_cast<uint64_t>(train->Size()));
    }
    if (test)
    {
        traces.AddParameter("testSamples", static_cast<uint64_t>(test->Size()));
    }
    if (m_trainRead > 0)
    {
        // The files' own counts, before --dataFraction, and whether they are the published
        // data (stand-in files of tests hold a few hundred records).
        traces.AddParameter("dataTrainSamplesRead", static_cast<uint64_t>(m_trainRead));
        traces.AddParameter("dataTestSamplesRead", static_cast<uint64_t>(m_testRead));
    }
    if (m_leafUsers > 0)
    {
        traces.AddParameter("dataUsers", static_cast<uint64_t>(m_leafUsers));
        traces.AddParameter("dataUsersKept", static_cast<uint64_t>(m_leafUsersKept));
    }
    if (m_published >= 0)
    {
        traces.AddParameter("dataMatchesPublished", m_published == 1);
    }
    if (!m_classesFrom.empty() && train)
    {
        // The model's outputs: checked against the set's published classes, or the labels'.
        traces.AddParameter("dataClasses", static_cast<uint64_t>(train->numClasses));
        traces.AddParameter("dataClassesFrom", m_classesFrom);
    }
    if (first)
    {
        // Trained parameters only (ResNet-20: 269,722); the floating-point buffers (its
        // BatchNorm statistics, 1,376 values) in their own key. Both travel in a model.
        traces.AddParameter("modelParameters", first->GetNParameters() - first->GetNBufferValues());
        traces.AddParameter("modelBufferValues", first->GetNBufferValues());
        traces.AddParameter("forwardFlopsPerSample", first->GetForwardFlopsPerSample());
        traces.AddParameter("trainingFlopsPerSample", first->GetTrainingFlopsPerSample());
    }
    // Same seed, same bytes holds for the same BLAS on the same CPU.
    traces.AddParameter("blasLibrary", D2dTorchRuntime::GetBlasLibrary());
    traces.AddParameter("blasConfig", D2dTorchRuntime::GetBlasConfig());
    traces.AddParameter("cpu", D2dTorchRuntime::GetCpu());
}

void
D2dLearningOptions::Run(const D2dScenarioSupport& support,
                        std::unique_ptr<D2dTraceHelper>& traces,
                        Ptr<D2dFlProtocol> protocol,
                        const std::string& label,
                        uint64_t seed,
                        Time maxSimTime,
                        bool quiet,
                        const std::function<void()>& writeLast) const
{
    NS_LOG_FUNCTION(this << seed << maxSimTime);
    Record(*traces, protocol->GetLearners()[0]);
    const auto first = protocol->GetLearners()[0];
    if (!quiet && first->GetSpec().arch == "torchscript")
    {
        // What the compute model charges for a model the program does not know.
        std::fprintf(
            stderr,
            "%s: --model=%s: %llu parameters and %llu buffer values, %.6g forward "
            "FLOPs per sample (%s), %.6g per training sample\n",
            support.GetProgram().c_str(),
            first->GetSpec().ToString().c_str(),
            static_cast<unsigned long long>(first->GetNParameters() - first->GetNBufferValues()),
            static_cast<unsigned long long>(first->GetNBufferValues()),
            first->GetForwardFlopsPerSample(),
            training.modelFlops > 0 ? "--modelFlops" : "counted",
            first->GetTrainingFlopsPerSample());
    }
    traces->AddAttributes(protocol->GetLearners()[0]);
    traces->AddAttributes(protocol);
    protocol->SetFinishedCallback(Callback<void>([] { Simulator::Stop(); }));
    const uint32_t planned = training.rounds;
    // Regression (no classes): the summary gives the test MSE, not an accuracy of 0.
    const bool regression = test && test->numClasses == 0;
    protocol->TraceConnectWithoutContext(
        "RoundEnd",
        Callback<void, uint32_t, double, double>(
            [&support, planned, regression](uint32_t round, double accuracy, double loss) {
                support.RoundProgress(round, planned, accuracy, loss, regression);
            }));
    Simulator::ScheduleNow(&D2dFlProtocol::Start, protocol);
    Simulator::Stop(maxSimTime);
    try
    {
        Simulator::Run();
    }
    catch (const std::exception& e)
    {
        // A LibTorch error (c10::Error: a message, then a backtrace; an error a torchscript
        // module raised: its own message) or another failure while simulating: one line,
        // naming the input, and no traces.
        D2dTorchRuntime::Shutdown(); // no worker may run while Fail() exits
        traces.reset();
        const bool script = training.model.rfind("torchscript:", 0) == 0;
        support.Fail(fmt::format(
            "--model={}, --dataDir={}: {}{}",
            training.model,
            data.dataDir,
            D2dMatrixCsv::Excerpt(D2dText::ErrorLine(e.what()), 300),
            script ? fmt::format(" (a job of the model failed: its forward must take a batch "
                                 "of any size up to --batchSize={} of the data's samples)",
                                 training.batchSize)
                   : ""));
    }
    // The simulation is over: jobs still queued on the workers did not happen in simulated
    // time (a time limit mid-round, stragglers that never finish). Drop them and join the
    // workers before anything reads results, writes traces or exits (D2dTorchRuntime's
    // lifetime rule); a deferred job read from here on runs inline.
    D2dTorchRuntime::Shutdown();
    if (!protocol->GetNumericError().empty())
    {
        traces.reset(); // no traces of a diverged run
        support.Fail(protocol->GetNumericError());
    }
    const uint32_t done = protocol->GetRoundsDone();
    const std::string outDir = traces->GetOutDir();
    support.FinishTraces(traces, seed, [&]() {
        if (writeLast)
        {
            writeLast();
        }
        traces->AddResult("roundsCompleted", done);
        if (regression)
        {
            // A regression run has no accuracy: its figure of merit is the test MSE.
            traces->AddResult("finalTestMse", protocol->GetLastLoss());
        }
        else
        {
            traces->AddResult("finalAccuracy", protocol->GetLastAccuracy());
        }
        traces->AddResult("bytesSent", protocol->GetBytesSent());
    });
    if (!quiet && regression)
    {
        std::fprintf(stderr,
                     "%s: %s, %u rounds, final test MSE %.4f, %.3f s simulated, %.1f s wall; "
                     "traces in %s\n",
                     support.GetProgram().c_str(),
                     label.c_str(),
                     done,
                     protocol->GetLastLoss(),
                     Simulator::Now().GetSeconds(),
                     support.WallSeconds(),
                     outDir.c_str());
    }
    else if (!quiet)
    {
        std::fprintf(stderr,
                     "%s: %s, %u rounds, final accuracy %.4f, %.3f s simulated, %.1f s wall; "
                     "traces in %s\n",
                     support.GetProgram().c_str(),
                     label.c_str(),
                     done,
                     protocol->GetLastAccuracy(),
                     Simulator::Now().GetSeconds(),
                     support.WallSeconds(),
                     outDir.c_str());
    }
    Simulator::Destroy();
}

} // namespace ns3
