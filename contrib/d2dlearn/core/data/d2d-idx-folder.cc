/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-idx-folder.h"

#include "d2d-data-rng.h"
#include "d2d-fashion-mnist.h"

#include "ns3/log.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dIdxFolder");

namespace
{
/** The four suffixes, in the order of D2dIdxFolder::Files. */
const char* const SUFFIXES[4] = {"train-images-idx3-ubyte.gz",
                                 "train-labels-idx1-ubyte.gz",
                                 "t10k-images-idx3-ubyte.gz",
                                 "t10k-labels-idx1-ubyte.gz"};

/** What a folder must hold, for the messages. */
const char* const ACCEPTED =
    "(accepted: a folder with exactly one file ending in each of train-images-idx3-ubyte.gz, "
    "train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz, e.g. "
    "MNIST's four files or one EMNIST set's)";
} // namespace

D2dIdxFolder::Files
D2dIdxFolder::Find(const std::string& dir)
{
    NS_LOG_FUNCTION(dir);
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
    {
        throw std::runtime_error("dataDir: " + dir + ": not a folder " + ACCEPTED);
    }
    std::vector<std::string> found[4];
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        for (int k = 0; k < 4; ++k)
        {
            const std::string suffix = SUFFIXES[k];
            if (name.size() >= suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            {
                found[k].push_back(it->path().string());
            }
        }
    }
    if (ec)
    {
        throw std::runtime_error("dataDir: " + dir + ": unreadable folder (" + ec.message() + ") " +
                                 ACCEPTED);
    }
    for (int k = 0; k < 4; ++k)
    {
        std::sort(found[k].begin(), found[k].end());
        if (found[k].empty())
        {
            throw std::runtime_error("dataDir: " + dir + ": no file ending in " + SUFFIXES[k] +
                                     " " + ACCEPTED);
        }
        if (found[k].size() > 1)
        {
            throw std::runtime_error(
                "dataDir: " + dir + ": " + std::to_string(found[k].size()) + " files end in " +
                SUFFIXES[k] + " (" + fs::path(found[k][0]).filename().string() + ", " +
                fs::path(found[k][1]).filename().string() + "): which set is meant? " + ACCEPTED);
        }
    }
    return {found[0][0], found[1][0], found[2][0], found[3][0]};
}

std::shared_ptr<D2dDataset>
D2dIdxFolder::Load(const std::string& dir,
                   const std::string& split,
                   double fraction,
                   uint64_t seed,
                   const std::string& cacheDir,
                   std::size_t* fileSamples)
{
    NS_LOG_FUNCTION(dir << split << fraction << seed);
    if (split != "train" && split != "test")
    {
        throw std::invalid_argument("split: '" + split + "' is not one of train, test");
    }
    const Files files = Find(dir);
    const bool train = split == "train";
    // A published set's labels are checked against its classes (a label above them refused
    // with its sample's number); another set's classes are its labels' range.
    auto ds = D2dFashionMnist::LoadFiles(train ? files.trainImages : files.testImages,
                                         train ? files.trainLabels : files.testLabels,
                                         PublishedClasses(files).labels,
                                         fraction,
                                         seed,
                                         D2dDataRng::DATA_FRACTION,
                                         cacheDir,
                                         fileSamples);
    ds->name = "mnist-" + split;
    return ds;
}

D2dIdxFolder::Published
D2dIdxFolder::PublishedClasses(const Files& files)
{
    namespace fs = std::filesystem;
    const std::string name = fs::path(files.trainImages).filename().string();
    if (name == SUFFIXES[0])
    {
        return {"MNIST or Fashion-MNIST", 10, 10};
    }

    static const struct
    {
        const char* prefix;
        const char* set;
        uint32_t labels;
        uint32_t classes;
    } emnist[] = {{"emnist-byclass-", "EMNIST byclass", 62, 62},
                  {"emnist-bymerge-", "EMNIST bymerge", 47, 47},
                  {"emnist-balanced-", "EMNIST balanced", 47, 47},
                  {"emnist-letters-", "EMNIST letters", 27, 26},
                  {"emnist-digits-", "EMNIST digits", 10, 10},
                  {"emnist-mnist-", "EMNIST mnist", 10, 10}};

    for (const auto& e : emnist)
    {
        if (name == std::string(e.prefix) + SUFFIXES[0])
        {
            return {e.set, e.labels, e.classes};
        }
    }
    return {};
}

bool
D2dIdxFolder::MatchesPublished(std::size_t train, std::size_t test)
{
    return train == 60000 && test == 10000;
}

} // namespace ns3
