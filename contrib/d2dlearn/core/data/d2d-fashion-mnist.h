/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_FASHION_MNIST_H
#define D2D_FASHION_MNIST_H

#include "d2d-dataset.h"
#include "d2d-idx-cache.h"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Fashion-MNIST (Xiao et al. 2017; a data set of the unsupervised FL experiments of
 * Wagle et al. 2025) from its idx files.
 *
 * Reads the gzip-compressed idx files of Debian's dataset-fashion-mnist
 * (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-...), 60,000 training
 * and 10,000 test images of 28 x 28 pixels, 10 classes. Samples have featureShape
 * {1, 28, 28}, pixels scaled from 0..255 to [0, 1] (value / 255), labels 0..9.
 *
 * Errors are std::runtime_error with one line "dataDir: <file>: <what is wrong> ..." (file
 * missing or unreadable, not gzip, bad idx magic, truncated or corrupt, images/labels
 * count or size mismatch, label > 9), so a scenario can print it as its error line.
 */
class D2dFashionMnist
{
  public:
    /** \return Debian's install directory, /usr/share/datasets/fashion-mnist */
    static std::string DefaultDir();

    /**
     * \brief Load a split, possibly a stratified random fraction of it, through the cache
     * of decoded files (D2dIdxCache::DefaultDir()).
     * \param dir directory of the four idx .gz files (parameter "dataDir"); "" = DefaultDir()
     * \param split "train" or "test"
     * \param fraction in (0, 1]: keep round(fraction x N) samples, chosen per class
     *        (each class keeps its share, apportioned by largest remainder) by a
     *        permutation seeded with (seed, FASHION_FRACTION); kept samples stay in file
     *        order. 1 keeps all, in file order, and ignores the seed.
     * \param seed seed of that permutation
     * \return the data set, named "fashion-mnist-<split>"
     * \throws std::invalid_argument for a bad split ("split") or fraction ("fraction")
     * \throws std::runtime_error for a missing or corrupt file ("dataDir")
     */
    static std::shared_ptr<D2dDataset> Load(const std::string& dir,
                                            const std::string& split,
                                            double fraction,
                                            uint64_t seed);

    /**
     * \brief Load with an explicit cache directory. The result is the same whatever the
     * cache holds: the first run decodes the gzip files and writes the entry, later runs
     * map it and read and scale only the samples the fraction keeps; a stale entry (the
     * sources changed) or a corrupt one is rebuilt (D2dIdxCache).
     * \param dir as above \param split as above \param fraction as above \param seed as
     * above
     * \param cacheDir the cache directory; "" decodes the sources without a cache
     * \return the data set
     */
    static std::shared_ptr<D2dDataset> Load(const std::string& dir,
                                            const std::string& split,
                                            double fraction,
                                            uint64_t seed,
                                            const std::string& cacheDir);

    /**
     * \brief The idx reader: a gzip idx3 image file (magic 0x00000803, unsigned bytes)
     * and a gzip idx1 label file (magic 0x00000801) of the same count.
     * \param imagesGz path of the images file
     * \param labelsGz path of the labels file
     * \return features {1, rows, cols} scaled to [0, 1], numClasses 10
     * \throws std::runtime_error (see class description)
     */
    static std::shared_ptr<D2dDataset> ReadIdx(const std::string& imagesGz,
                                               const std::string& labelsGz);

    /**
     * \brief Decode a gzip idx image file and its label file (no cache), with every check
     * of ReadIdx().
     * \param imagesGz path of the images file
     * \param labelsGz path of the labels file
     * \param maxLabel the largest label accepted (Fashion-MNIST: 9)
     * \return the labels and unscaled pixels
     * \throws std::runtime_error (see class description)
     */
    static D2dIdxCache::Decoded DecodeIdx(const std::string& imagesGz,
                                          const std::string& labelsGz,
                                          uint32_t maxLabel = 9);

    /**
     * \brief The loader of any gzip idx image set (Fashion-MNIST, MNIST, EMNIST: D2dIdxFolder
     * finds their files), through the cache of decoded files, with a stratified fraction.
     * \param images path of the gzip idx3 images file
     * \param labels path of the gzip idx1 labels file
     * \param numClasses classes: labels above numClasses - 1 are refused; 0 = the labels' range
     *        (the largest label of this file + 1)
     * \param fraction in (0, 1], as in Load() (stratified per class)
     * \param seed seed of the fraction's permutation
     * \param purpose its D2dDataRng purpose (FASHION_FRACTION for Fashion-MNIST)
     * \param cacheDir the cache directory ("" : none)
     * \param fileSamples if not null, receives the samples in the file (before the fraction)
     * \return the data set: features {1, rows, cols} scaled to [0, 1]
     * \throws std::invalid_argument for a bad fraction, std::runtime_error for a bad file
     */
    static std::shared_ptr<D2dDataset> LoadFiles(const std::string& images,
                                                 const std::string& labels,
                                                 uint32_t numClasses,
                                                 double fraction,
                                                 uint64_t seed,
                                                 uint32_t purpose,
                                                 const std::string& cacheDir,
                                                 std::size_t* fileSamples = nullptr);

    /** Largest idx payload accepted, bytes: 256 MiB, 5.7 times Fashion-MNIST's training
     * images (47 MB), so that a small gzip announcing (and holding) a gigabyte of zeros is
     * refused from its header before any memory is taken. */
    static constexpr uint64_t MAX_IDX_BYTES = uint64_t(1) << 28;

    /**
     * \brief Decompress a gzip idx file of unsigned bytes, header first: the magic and the
     * dimensions are checked, and the payload size they announce (computed without
     * overflow) is bounded by MAX_IDX_BYTES and by what the compressed size can hold
     * (gzip expands at most 1032:1), before anything is allocated; then exactly that many
     * bytes are read, and trailing bytes, in the data or after the gzip stream, are refused.
     * \param in the compressed bytes
     * \param name the file, for messages
     * \param compressedSize bytes in (for the expansion bound)
     * \param wantMagic 0x00000801 (labels) or 0x00000803 (images)
     * \param dims receives the dimensions
     * \return the payload
     * \throws std::runtime_error with one line "dataDir: name: what" on any defect
     */
    static std::vector<uint8_t> ReadIdxGzip(std::istream& in,
                                            const std::string& name,
                                            uint64_t compressedSize,
                                            uint32_t wantMagic,
                                            std::vector<uint32_t>& dims);
};

} // namespace ns3

#endif // D2D_FASHION_MNIST_H
