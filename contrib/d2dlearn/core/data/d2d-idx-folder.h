/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_IDX_FOLDER_H
#define D2D_IDX_FOLDER_H

#include "d2d-dataset.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief An idx image set in a folder (--dataset=mnist: MNIST, LeCun et al. 1998; EMNIST,
 * Cohen et al. 2017; any set in the same four gzip idx files), read by the idx reader of
 * D2dFashionMnist (same checks, same cache of decoded files, same stratified fraction).
 *
 * The folder holds exactly one file whose name ends in each of the four suffixes
 * train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and
 * t10k-labels-idx1-ubyte.gz, so that MNIST's names and EMNIST's prefixed ones
 * (emnist-balanced-train-images-idx3-ubyte.gz, ...) are both found; a folder with two sets
 * (EMNIST's gzip folder holds six) is refused as ambiguous. Samples have featureShape
 * {1, rows, cols}, value / 255; numClasses is the labels' range (the largest label + 1:
 * MNIST 10, EMNIST balanced 47, byclass 62). EMNIST's images are stored transposed
 * relative to MNIST's; they are used as stored.
 */
class D2dIdxFolder
{
  public:
    /** The four files of a folder. */
    struct Files
    {
        std::string trainImages; //!< ...train-images-idx3-ubyte.gz
        std::string trainLabels; //!< ...train-labels-idx1-ubyte.gz
        std::string testImages;  //!< ...t10k-images-idx3-ubyte.gz
        std::string testLabels;  //!< ...t10k-labels-idx1-ubyte.gz
    };

    /**
     * \param dir the folder (--dataDir)
     * \return its four files
     * \throws std::runtime_error "dataDir: DIR: ..." if the folder is missing, or has no file
     *         or several files ending in one of the suffixes
     */
    static Files Find(const std::string& dir);

    /**
     * \brief Load a split of the folder.
     * \param dir the folder
     * \param split "train" or "test"
     * \param fraction in (0, 1]: the stratified fraction kept (D2dStratifiedKeep)
     * \param seed its seed
     * \param cacheDir the cache of decoded files ("" : none)
     * \param fileSamples if not null, receives the samples in the file (before the fraction)
     * \return the set, named "mnist-<split>"
     * \throws std::invalid_argument for a bad split or fraction, std::runtime_error for a bad
     *         folder or file
     */
    static std::shared_ptr<D2dDataset> Load(const std::string& dir,
                                            const std::string& split,
                                            double fraction,
                                            uint64_t seed,
                                            const std::string& cacheDir,
                                            std::size_t* fileSamples = nullptr);

    /**
     * \param train training samples in the files
     * \param test test samples in the files
     * \return whether they are MNIST's published counts (60,000 and 10,000)
     */
    static bool MatchesPublished(std::size_t train, std::size_t test);

    /** The classes a set's publishers give. */
    struct Published
    {
        std::string set;     //!< the set, e.g. "EMNIST balanced" ("" : not a published set)
        uint32_t labels{0};  //!< the labels' bound: labels are 0 .. labels - 1 (0: unknown)
        uint32_t classes{0}; //!< its class count (EMNIST letters: 26, labels 1 to 26)
    };

    /**
     * \brief The published classes of the set a folder holds, told by its files' names:
     * MNIST's and Fashion-MNIST's own names (train-images-idx3-ubyte.gz, ...) 10 classes;
     * EMNIST's (Cohen, Afshar, Tapson, van Schaik, "EMNIST: an extension of MNIST to
     * handwritten letters", 2017, Table II) emnist-byclass-* 62, emnist-bymerge-* and
     * emnist-balanced-* 47, emnist-letters-* 26 (labels 1 to 26), emnist-digits-* and
     * emnist-mnist-* 10. Any other name: unknown (the classes come from the labels).
     * \param files a folder's files
     * \return the set and its classes, or an empty set
     */
    static Published PublishedClasses(const Files& files);
};

} // namespace ns3

#endif // D2D_IDX_FOLDER_H
