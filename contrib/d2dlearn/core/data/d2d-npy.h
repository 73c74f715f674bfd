/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_NPY_H
#define D2D_NPY_H

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
 * \brief Any classification data set as NumPy .npy files (--dataset=tensors): train_x.npy,
 * train_y.npy, test_x.npy, test_y.npy in one folder.
 *
 * The .npy format (NumPy's NEP 1): the magic "\x93NUMPY", a version byte pair (1.0, 2.0 or
 * 3.0), the header's length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), a header
 * holding a Python dict literal with 'descr', 'fortran_order' and 'shape', then the data.
 * Accepted: C order (fortran_order False), little-endian; features float32 ('<f4'), float64
 * ('<f8', converted to float) or uint8 ('|u1', scaled by 1/255 like the image readers); labels
 * int64, int32 or uint8, none negative. x's first dimension counts the samples, the others
 * (at least one) are a sample's shape; y is 1-D with as many labels; numClasses is the
 * largest label + 1. The header (at most MAX_HEADER_BYTES) and the data's byte count
 * (shape x item size, computed without overflow, at most MAX_NPY_BYTES, and exactly the
 * bytes after the header) are checked before anything is allocated.
 *
 * Errors are std::runtime_error with one line "dataDir: <file>: <what is wrong> (accepted:
 * ...)".
 */
class D2dNpy
{
  public:
    /** Largest data payload of one .npy file, bytes: 2 GiB (CIFAR-10's training images as
     * float32 take 614 MB; a set in memory is held once more as float). */
    static constexpr uint64_t MAX_NPY_BYTES = uint64_t(1) << 31;
    /** Largest header accepted, bytes (NumPy itself reads at most 10,000 by default). */
    static constexpr uint32_t MAX_HEADER_BYTES = 65536;

    /** One array. */
    struct Array
    {
        std::string descr;           //!< the dtype as written, e.g. "<f4"
        uint32_t itemBytes{0};       //!< bytes per value
        std::vector<uint64_t> shape; //!< the dimensions
        std::vector<uint8_t> data;   //!< the values' bytes, C order, little-endian
    };

    /**
     * \brief The parser: one .npy file.
     * \param in its bytes
     * \param name the file, for messages
     * \param size the file's size, bytes
     * \return the array (any of the dtypes <f4, <f8, |u1, <u1, <i8, <i4)
     * \throws std::runtime_error with one line "dataDir: name: ..." on any defect
     */
    static Array Read(std::istream& in, const std::string& name, uint64_t size);

    /**
     * \param path a .npy file (a regular file)
     * \return its array
     * \throws std::runtime_error as Read(), or for a missing file
     */
    static Array ReadFile(const std::string& path);

    /**
     * \brief A classification set from a features array and a labels array.
     * \param x the features (float32, float64 or uint8; at least 2-D)
     * \param y the labels (int64, int32 or uint8; 1-D, x's sample count, none negative)
     * \param xName x's file, for messages
     * \param yName y's file, for messages
     * \return the set (numClasses = largest label + 1)
     * \throws std::runtime_error with one line naming the file at fault
     */
    static std::shared_ptr<D2dDataset> ToDataset(const Array& x,
                                                 const Array& y,
                                                 const std::string& xName,
                                                 const std::string& yName);

    /**
     * \brief Load a split of --dataDir, possibly a stratified random fraction of it.
     * \param dir the folder
     * \param split "train" or "test"
     * \param fraction in (0, 1]: stratified per class (purpose DATA_FRACTION)
     * \param seed its seed
     * \param fileSamples if not null, receives the samples in the files (before the fraction)
     * \return the set, named "tensors-<split>"
     * \throws std::invalid_argument for a bad split or fraction; std::runtime_error for a bad
     *         file
     */
    static std::shared_ptr<D2dDataset> Load(const std::string& dir,
                                            const std::string& split,
                                            double fraction,
                                            uint64_t seed,
                                            std::size_t* fileSamples = nullptr);
};

} // namespace ns3

#endif // D2D_NPY_H
