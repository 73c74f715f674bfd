/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CIFAR_H
#define D2D_CIFAR_H

#include "d2d-dataset.h"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief CIFAR-10 and CIFAR-100 (Krizhevsky 2009, "Learning Multiple Layers of Features from
 * Tiny Images") from their "binary version" files, as distributed.
 *
 * CIFAR-10: a folder with data_batch_1.bin ... data_batch_5.bin (training) and
 * test_batch.bin, each record 1 label byte (0..9) then 3072 pixel bytes (1024 red, 1024
 * green, 1024 blue, each 32 x 32 row-major); 10,000 records per file in the published data.
 * CIFAR-100: train.bin and test.bin, each record 1 coarse label byte (0..19), 1 fine label
 * byte (0..99), then the 3072 pixel bytes; 50,000 and 10,000 records. The folder may also be
 * the parent of the archive's sub-folder (cifar-10-batches-bin/, cifar-100-binary/).
 *
 * Samples have featureShape {3, 32, 32} (channels first), value / 255; labels 0..9 (CIFAR-10)
 * or the fine (0..99, the default) or coarse (0..19) labels of CIFAR-100. Any whole number
 * of records is accepted (stand-in files of tests hold a few hundred); MatchesPublished()
 * says whether a run read the published counts.
 *
 * Errors are std::runtime_error with one line "dataDir: <file>: <what is wrong> (accepted:
 * ...)": a missing or unreadable file, a size that is not a whole number of records (a
 * truncated file, or a CIFAR-100 file given as CIFAR-10), an empty file, a file larger than
 * MAX_FILE_BYTES, or a label out of range (naming the record).
 */
class D2dCifar
{
  public:
    /** Pixel bytes per record: 3 channels x 32 x 32. */
    static constexpr uint64_t PIXEL_BYTES = 3072;

    /** Largest file accepted, bytes: 256 MiB, 1.7 times CIFAR-100's train.bin (153.7 MB), so
     * that a wrong path (a disk image, a device) is refused from its size before any memory is
     * taken. */
    static constexpr uint64_t MAX_FILE_BYTES = uint64_t(1) << 28;

    /** The records of one or more files, undecoded. */
    struct Records
    {
        std::size_t count{0};        //!< records
        std::vector<uint8_t> labels; //!< the chosen label of each record
        std::vector<uint8_t> pixels; //!< count x 3072 pixel bytes
    };

    /**
     * \param cifar100 false: CIFAR-10 records (1 label byte), true: CIFAR-100 (coarse, fine)
     * \return bytes per record: 3073 or 3074
     */
    static uint64_t RecordBytes(bool cifar100);

    /**
     * \brief The parser: the records of one binary file, appended to out. The size is checked
     * (not empty, at most MAX_FILE_BYTES, a whole number of records) before anything is
     * allocated, then exactly size bytes are read and each label checked.
     * \param in the file's bytes
     * \param name the file, for messages
     * \param size the file's size, bytes (a stream holding fewer is truncated)
     * \param cifar100 whether the records are CIFAR-100's
     * \param coarse CIFAR-100: keep the coarse label instead of the fine one
     * \param out receives the records
     * \throws std::runtime_error (see class description)
     */
    static void ReadBinary(std::istream& in,
                           const std::string& name,
                           uint64_t size,
                           bool cifar100,
                           bool coarse,
                           Records& out);

    /**
     * \param variant "cifar10" or "cifar100"
     * \param split "train" or "test"
     * \return the file names of a split (no folder)
     */
    static std::vector<std::string> FileNames(const std::string& variant, const std::string& split);

    /**
     * \param dir --dataDir
     * \param variant "cifar10" or "cifar100"
     * \return dir, or its sub-folder cifar-10-batches-bin / cifar-100-binary if dir lacks the
     *         files and the sub-folder has the first of them
     */
    static std::string ResolveDir(const std::string& dir, const std::string& variant);

    /**
     * \brief Load a split, possibly a stratified random fraction of it.
     * \param dir --dataDir (the folder or its parent)
     * \param variant "cifar10" or "cifar100"
     * \param split "train" or "test"
     * \param coarse CIFAR-100: the coarse labels (20 classes) instead of the fine ones (100)
     * \param fraction in (0, 1]: stratified per class (D2dStratifiedKeep, purpose
     *        DATA_FRACTION); 1 keeps all in file order
     * \param seed its seed
     * \param fileSamples if not null, receives the records in the files (before the fraction)
     * \return the set, named "<variant>-<split>"
     * \throws std::invalid_argument for a bad variant, split or fraction; std::runtime_error
     *         for a bad file
     */
    static std::shared_ptr<D2dDataset> Load(const std::string& dir,
                                            const std::string& variant,
                                            const std::string& split,
                                            bool coarse,
                                            double fraction,
                                            uint64_t seed,
                                            std::size_t* fileSamples = nullptr);

    /**
     * \param train training records read
     * \param test test records read
     * \return whether they are the published counts (50,000 and 10,000, both variants)
     */
    static bool MatchesPublished(std::size_t train, std::size_t test);
};

} // namespace ns3

#endif // D2D_CIFAR_H
