/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_LEAF_H
#define D2D_LEAF_H

#include "d2d-dataset.h"
#include "d2d-partitioner.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief LEAF's JSON data sets (Caldas et al. 2018, "LEAF: A Benchmark for Federated
 * Settings") with their natural per-user split (--dataset=leaf, --partition=natural).
 *
 * A folder with train/ *.json and test/ *.json (read in file-name order), each
 * {"users": [...], "num_samples": [...], "user_data": {user: {"x": [...], "y": [...]}}}
 * ("hierarchies" and other keys are ignored). Two kinds, told from the data:
 *  - images (FEMNIST): x a list of 784 numbers per sample, y an integer class 0..61:
 *    featureShape {1, 28, 28}, 62 classes. Another length L of numbers (e.g. LEAF's
 *    synthetic set) gives featureShape {L} and classes 0..max label;
 *  - next character (Shakespeare): x an 80-character string, y a 1-character string; each
 *    character becomes its index in LEAF's ALL_LETTERS (models/utils/language_utils.py) as a
 *    float: featureShape {80}, y's index the class, 80 classes.
 * Checked, each refused in one line "dataDir: <file>: <what is wrong> (accepted: ...)": the
 * file's size (at most MAX_JSON_BYTES, before parsing), the JSON, the three keys, users and
 * num_samples of one length, every user in user_data and no other, num_samples against the
 * lengths of x and y per user, samples of one kind and one size in every file, labels and
 * characters in range.
 */
class D2dLeaf
{
  public:
    /** Largest JSON file accepted, bytes: 512 MiB (LEAF's FEMNIST files are about 200 MB;
     * the parsed document takes about 3 times the file). */
    static constexpr uint64_t MAX_JSON_BYTES = uint64_t(1) << 29;
    /** Deepest nesting accepted: LEAF's files nest 5 deep ({"user_data": {user: {"x": [[
     *  ...]]}}}); deeper is refused before parsing, as the parsed value's dump() recurses. */
    static constexpr std::size_t MAX_JSON_DEPTH = 8;

    /** \return LEAF's ALL_LETTERS, the 80 characters of the Shakespeare task */
    static const std::string& AllLetters();

    /** One split: the samples of its users, user by user in file order. */
    struct Split
    {
        std::shared_ptr<D2dDataset> data; //!< the samples
        /** what the samples are: "images" (784 numbers), "vectors" (another count of numbers)
         * or "text" (characters); "" before the first sample */
        std::string kind;
        std::vector<std::string> users; //!< the users, in file order
        std::vector<std::size_t> first; //!< index in data of each user's first sample
        std::vector<std::size_t> count; //!< each user's samples (its num_samples)
    };

    /**
     * \brief The parser: the users of one LEAF JSON text, appended to out (whose data, if it
     * holds samples, fixes the kind and size the text's samples must have).
     * \param text the JSON
     * \param name the file, for messages
     * \param out the split to extend (out.data created if null)
     * \throws std::runtime_error (see class description)
     */
    static void Parse(const std::string& text, const std::string& name, Split& out);

    /**
     * \brief Read every *.json file of dir/split, in file-name order.
     * \param dir --dataDir
     * \param split "train" or "test"
     * \return the split, named "leaf-<split>"
     * \throws std::runtime_error for a missing folder, no file, or a bad file
     */
    static Split LoadSplit(const std::string& dir, const std::string& split);

    /**
     * \brief --dataFraction for LEAF: keep round(fraction x users) users (at least one),
     * chosen by a permutation seeded with (seed, DATA_FRACTION), in file order, with all
     * their samples, so that the natural split stays exact (LEAF's own sampling is by users).
     * \param in the split
     * \param fraction in (0, 1]
     * \param seed its seed
     * \return the users kept
     */
    static Split KeepUsers(const Split& in, double fraction, uint64_t seed);

    /**
     * \brief --partition=natural: device i gets the samples of users i, i + N, i + 2N, ...
     * (N = nDevices), so that every device holds at least one user.
     * \param train the training split
     * \param nDevices N
     * \return the shards (indices ascending)
     * \throws std::invalid_argument "partition: ..." if there are fewer users than devices
     */
    static std::vector<D2dShard> NaturalShards(const Split& train, uint32_t nDevices);
};

} // namespace ns3

#endif // D2D_LEAF_H
