/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_IDX_CACHE_H
#define D2D_IDX_CACHE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A decoded image set (idx images and labels of unsigned bytes, e.g. Fashion-MNIST)
 * kept on disk uncompressed, so that later runs map it instead of inflating the gzip files.
 *
 * Decoding the 26 MB gzip training set of Fashion-MNIST costs about a second of CPU per run,
 * even when a run uses 1 % of it. The cache entry holds the decoded labels and pixels, one
 * CRC-32 per sample and the identity of the two source files; a later run maps it (mmap),
 * checks the header, and reads only the pages of the samples it uses.
 *
 * Where: one file per source pair in the cache directory (DefaultDir()), named after the
 * images file and a hash of its absolute path. An entry is used only if
 *  - its header is intact (magic, version, sizes, byte order, header CRC-32) and the file
 *    has exactly the size the header announces,
 *  - both source files are still the ones it was built from: same device, inode, size,
 *    modification time (ns), and the same gzip trailer (the CRC-32 and length of the
 *    decompressed data, the last 8 bytes of a gzip file), so that a changed source is
 *    noticed even when its size and time are kept,
 *  - the labels' CRC-32 matches, and each sample used matches its own CRC-32 (checked on
 *    access: SampleIntact()).
 * Otherwise the entry is rebuilt from the sources (decoded afresh), written to a temporary
 * file and renamed into place, so that concurrent runs see either the old entry or the
 * complete new one. An unwritable cache directory is not an error: the run decodes the
 * sources as if there were no cache. The directory's entries stay within MaxBytes()
 * (1 GiB, or $D2DLEARN_CACHE_MAX_MB): before an entry is written the least recently
 * written others are removed until it fits; an entry larger than the bound is not written.
 */
class D2dIdxCache
{
  public:
    /** What Open() did. */
    enum Origin
    {
        MAPPED,   //!< an intact, current entry was mapped
        BUILT,    //!< no entry (or the sources changed): decoded and written
        REBUILT,  //!< the entry was corrupt: decoded afresh and rewritten
        UNCACHED, //!< decoded, not written (caching off, or the directory unwritable)
    };

    /** The decoded contents of an idx image file and its label file. */
    struct Decoded
    {
        uint32_t count{0};           //!< samples
        uint32_t rows{0};            //!< pixel rows per image
        uint32_t cols{0};            //!< pixel columns per image
        std::vector<uint8_t> labels; //!< count labels
        std::vector<uint8_t> pixels; //!< count x rows x cols pixels, row-major
    };

    /** Decodes the sources (and throws their errors). */
    using Decoder = std::function<Decoded()>;

    /**
     * \return the cache directory: $D2DLEARN_CACHE_DIR if set ("off": no cache, returned
     * as ""), else $XDG_CACHE_HOME/d2dlearn, else $HOME/.cache/d2dlearn, else "" (no cache)
     */
    static std::string DefaultDir();

    /** The cache's size bound unless $D2DLEARN_CACHE_MAX_MB says otherwise: 1 GiB (the
     * Fashion-MNIST training and test entries take 55 MB). */
    static constexpr uint64_t DEFAULT_MAX_BYTES = uint64_t(1) << 30;

    /** \return the cache's size bound, bytes: $D2DLEARN_CACHE_MAX_MB (MiB) if set and valid,
     * else DEFAULT_MAX_BYTES */
    static uint64_t MaxBytes();

    /** \return the size of the entry of d on disk, bytes \param d decoded contents */
    static uint64_t EntryBytes(const Decoded& d);

    /**
     * \brief Keep the cache directory's entries (*.d2didx) within maxBytes with a new entry
     * of bytes: remove the other entries, least recently written first, until it fits.
     * \param cacheDir the directory
     * \param entry the new entry's path (not counted nor removed: it is replaced)
     * \param bytes the new entry's size
     * \param maxBytes the bound
     * \return whether the new entry fits (false: larger than the bound alone, or entries
     *         that could not be removed)
     */
    static bool MakeRoom(const std::string& cacheDir,
                         const std::string& entry,
                         uint64_t bytes,
                         uint64_t maxBytes);

    /**
     * \brief Open the entry of a pair of source files, building it when missing, stale or
     * corrupt.
     * \param imagesPath the (gzip idx) images file
     * \param labelsPath the (gzip idx) labels file
     * \param cacheDir the cache directory ("" = no cache: decode only); created if missing
     * \param decode decodes the sources (called when the entry cannot be used; its
     *        exceptions, e.g. a missing or corrupt source, propagate)
     * \param rebuild true: do not trust the existing entry (a sample failed its CRC-32)
     * \return the data, mapped or in memory
     */
    static std::shared_ptr<const D2dIdxCache> Open(const std::string& imagesPath,
                                                   const std::string& labelsPath,
                                                   const std::string& cacheDir,
                                                   const Decoder& decode,
                                                   bool rebuild = false);

    /**
     * \param imagesPath the images file
     * \param cacheDir the cache directory
     * \return the path of the entry of imagesPath in cacheDir (whether or not it exists)
     */
    static std::string EntryPath(const std::string& imagesPath, const std::string& cacheDir);

    ~D2dIdxCache();
    D2dIdxCache(const D2dIdxCache&) = delete;
    D2dIdxCache& operator=(const D2dIdxCache&) = delete;

    /** \return what Open() did */
    Origin GetOrigin() const;
    /** \return the number of samples */
    uint32_t Count() const;
    /** \return pixel rows per image */
    uint32_t Rows() const;
    /** \return pixel columns per image */
    uint32_t Cols() const;
    /** \return the Count() labels */
    const uint8_t* Labels() const;
    /** \param i sample (< Count()) \return its Rows() x Cols() pixels */
    const uint8_t* Pixels(uint32_t i) const;
    /**
     * \param i sample (< Count())
     * \return false if the mapped entry's pixels of sample i do not match their CRC-32
     * (always true for data decoded in this run)
     */
    bool SampleIntact(uint32_t i) const;

  private:
    D2dIdxCache() = default;

    Origin m_origin{UNCACHED};        //!< what Open() did (GetOrigin)
    Decoded m_owned;                  //!< the data when decoded in this run
    const uint8_t* m_map{nullptr};    //!< the mapped entry, or null
    std::size_t m_mapBytes{0};        //!< its length, bytes
    uint32_t m_count{0};              //!< number of samples
    uint32_t m_rows{0};               //!< pixel rows per image
    uint32_t m_cols{0};               //!< pixel columns per image
    const uint8_t* m_labels{nullptr}; //!< m_count labels, in the map or in m_owned
    const uint32_t* m_crcs{nullptr};  //!< per-sample CRC-32 (mapped entries only)
    /** m_count x m_rows x m_cols pixels, sample-major then row-major, in the map or m_owned */
    const uint8_t* m_pixels{nullptr};
};

} // namespace ns3

#endif // D2D_IDX_CACHE_H
