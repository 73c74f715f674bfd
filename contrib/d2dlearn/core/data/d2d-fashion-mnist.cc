/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fashion-mnist.h"

#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <zlib.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dFashionMnist");

namespace
{

/** \brief Throws the one-line data error naming the parameter "dataDir". */
[[noreturn]] void
FailFashion(const std::string& file, const std::string& what)
{
    throw std::runtime_error("dataDir: " + file + ": " + what);
}

/**
 * \brief Inflates the gzip members of a stream in chunks: bytes after the last member that
 * do not begin another member are an error, as are corrupt or truncated data.
 */
class Inflater
{
  public:
    /** \param in the compressed bytes \param name the file, for messages */
    Inflater(std::istream& in, const std::string& name)
        : m_in(in),
          m_name(name),
          m_buffer(1 << 16)
    {
        if (inflateInit2(&m_stream, 16 + MAX_WBITS) != Z_OK) // 16: gzip wrapper
        {
            FailFashion(name, "zlib cannot start");
        }
    }

    ~Inflater()
    {
        inflateEnd(&m_stream);
    }

    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;

    /**
     * \param out where to put the bytes \param n how many
     * \return bytes put (fewer than n only where the data end)
     */
    std::size_t Read(uint8_t* out, std::size_t n)
    {
        std::size_t got = 0;
        while (got < n)
        {
            if (m_ended && !NextMember())
            {
                break;
            }
            if (m_stream.avail_in == 0 && !Refill())
            {
                FailFashion(m_name,
                            "truncated or corrupt gzip data (the file ends inside the compressed "
                            "stream)");
            }
            const std::size_t want = std::min<std::size_t>(n - got, 1u << 30);
            m_stream.next_out = out + got;
            m_stream.avail_out = static_cast<uInt>(want);
            const int rc = inflate(&m_stream, Z_NO_FLUSH);
            got += want - m_stream.avail_out;
            if (rc == Z_STREAM_END)
            {
                m_ended = true;
            }
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
            {
                FailFashion(m_name,
                            std::string("truncated or corrupt gzip data (zlib: ") +
                                (m_stream.msg ? m_stream.msg : "error " + std::to_string(rc)) +
                                ")");
            }
        }
        return got;
    }

  private:
    /** \return whether bytes were read into the buffer */
    bool Refill()
    {
        m_in.read(reinterpret_cast<char*>(m_buffer.data()),
                  static_cast<std::streamsize>(m_buffer.size()));
        m_stream.next_in = m_buffer.data();
        m_stream.avail_in = static_cast<uInt>(m_in.gcount());
        return m_stream.avail_in > 0;
    }

    /** \return false at the clean end of the file; true if another member begins */
    bool NextMember()
    {
        if (m_stream.avail_in == 0 && !Refill())
        {
            return false;
        }
        if (m_stream.next_in[0] != 0x1f)
        {
            FailFashion(m_name, "corrupt: bytes after the end of the gzip data");
        }
        inflateReset(&m_stream);
        m_ended = false;
        return true;
    }

    std::istream& m_in;
    std::string m_name;
    std::vector<uint8_t> m_buffer;
    z_stream m_stream{};
    bool m_ended{false};
};

/** \return the big-endian 32-bit value at b \param b 4 bytes */
uint32_t
BigEndian32(const uint8_t* b)
{
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | uint32_t(b[3]);
}

/**
 * \return the payload of the gzip idx file path (a regular file only: a FIFO would block
 * and a device could be endless)
 * \param path the file \param wantMagic its idx magic \param dims receives its dimensions
 */
std::vector<uint8_t>
ReadIdxFile(const std::string& path, uint32_t wantMagic, std::vector<uint32_t>& dims)
{
    struct stat st = {};
    if (stat(path.c_str(), &st) != 0)
    {
        FailFashion(
            path,
            "missing or unreadable (expected a gzip idx file of Fashion-MNIST or MNIST, e.g. "
            "from Debian's dataset-fashion-mnist)");
    }
    if (!S_ISREG(st.st_mode))
    {
        FailFashion(path, "not a regular file (expected a gzip idx file)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        FailFashion(path, "missing or unreadable (expected a gzip idx file)");
    }
    return D2dFashionMnist::ReadIdxGzip(in,
                                        path,
                                        static_cast<uint64_t>(st.st_size),
                                        wantMagic,
                                        dims);
}

} // namespace

std::string
D2dFashionMnist::DefaultDir()
{
    return "/usr/share/datasets/fashion-mnist";
}

std::vector<uint8_t>
D2dFashionMnist::ReadIdxGzip(std::istream& in,
                             const std::string& name,
                             uint64_t compressedSize,
                             uint32_t wantMagic,
                             std::vector<uint32_t>& dims)
{
    const uint32_t nDims = wantMagic & 0xff;
    const std::string kind = nDims == 1 ? "idx1 label" : "idx3 image";
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%08x", wantMagic);
    char gzMagic[2] = {0, 0};
    in.read(gzMagic, 2);
    if (in.gcount() != 2 || static_cast<uint8_t>(gzMagic[0]) != 0x1f ||
        static_cast<uint8_t>(gzMagic[1]) != 0x8b)
    {
        FailFashion(
            name,
            "not a gzip file (expected the .gz idx files of Fashion-MNIST, MNIST or EMNIST)");
    }
    in.clear();
    in.seekg(0);
    Inflater z(in, name);
    uint8_t head[16] = {};
    const std::size_t header = 4 + 4 * std::size_t(nDims);
    std::size_t got = z.Read(head, 4);
    if (got < 4)
    {
        FailFashion(name, "truncated: " + std::to_string(got) + " bytes, no idx header");
    }
    const uint32_t magic = BigEndian32(head);
    if (magic != wantMagic)
    {
        char text[16];
        std::snprintf(text, sizeof(text), "0x%08x", magic);
        FailFashion(name,
                    std::string("bad idx magic ") + text + " (expected " + hex + ", an " + kind +
                        " file of unsigned bytes)");
    }
    got = z.Read(head + 4, header - 4);
    if (got < header - 4)
    {
        FailFashion(name,
                    "truncated: " + std::to_string(4 + got) + " bytes, idx header needs " +
                        std::to_string(header));
    }
    dims.clear();
    uint64_t payload = 1;
    bool tooLarge = false;
    std::string shape;
    for (uint32_t d = 0; d < nDims; ++d)
    {
        dims.push_back(BigEndian32(head + 4 + 4 * d));
        shape += (d ? " x " : "") + std::to_string(dims.back());
        // Checked before multiplying: 2^22 x 2^21 x 2^21 must not wrap around to 0.
        if (dims.back() != 0 && payload > MAX_IDX_BYTES / dims.back())
        {
            tooLarge = true;
        }
        payload = tooLarge ? payload : payload * dims.back();
    }
    if (tooLarge || payload > MAX_IDX_BYTES)
    {
        FailFashion(name,
                    "the idx header announces " + shape + " bytes (accepted: at most " +
                        std::to_string(MAX_IDX_BYTES) + " data bytes)");
    }
    // gzip expands at most about 1032:1: a larger announcement cannot be in the file.
    if (payload > compressedSize * 1032 + 1024)
    {
        FailFashion(name,
                    "truncated: the header announces " + std::to_string(payload) +
                        " data bytes, more than a gzip file of " + std::to_string(compressedSize) +
                        " bytes can hold");
    }
    // Inflated in chunks: the memory follows the bytes the stream actually produces, not what
    // its header announces (a short or lying stream fails before the announced size is held).
    std::vector<uint8_t> data;
    constexpr uint64_t CHUNK = uint64_t(1) << 20;
    while (data.size() < payload)
    {
        const uint64_t old = data.size();
        const uint64_t want = std::min(CHUNK, payload - old);
        data.resize(old + want);
        const std::size_t n = z.Read(data.data() + old, want);
        data.resize(old + n);
        if (n < want)
        {
            break;
        }
    }
    got = data.size();
    if (got < payload)
    {
        FailFashion(name,
                    "truncated: header announces " + std::to_string(payload) +
                        " data bytes, file holds " + std::to_string(got));
    }
    uint8_t extra = 0;
    if (z.Read(&extra, 1) != 0)
    {
        FailFashion(name,
                    "corrupt: bytes after the " + std::to_string(payload) +
                        " data bytes the header announces");
    }
    return data;
}

D2dIdxCache::Decoded
D2dFashionMnist::DecodeIdx(const std::string& imagesGz,
                           const std::string& labelsGz,
                           uint32_t maxLabel)
{
    NS_LOG_FUNCTION(imagesGz << labelsGz);
    std::vector<uint32_t> ldims;
    std::vector<uint8_t> lb = ReadIdxFile(labelsGz, 0x00000801, ldims);
    std::vector<uint32_t> idims;
    std::vector<uint8_t> ib = ReadIdxFile(imagesGz, 0x00000803, idims);
    if (idims[1] == 0 || idims[2] == 0)
    {
        FailFashion(imagesGz,
                    "image size " + std::to_string(idims[1]) + " x " + std::to_string(idims[2]) +
                        " is empty");
    }
    if (idims[0] != ldims[0])
    {
        throw std::runtime_error("dataDir: " + imagesGz + " and " + labelsGz + ": " +
                                 std::to_string(idims[0]) + " images but " +
                                 std::to_string(ldims[0]) + " labels (must be equal)");
    }
    for (std::size_t i = 0; i < lb.size(); ++i)
    {
        if (lb[i] > maxLabel)
        {
            FailFashion(labelsGz,
                        "label " + std::to_string(lb[i]) + " of sample " + std::to_string(i) +
                            " outside 0.." + std::to_string(maxLabel));
        }
    }
    D2dIdxCache::Decoded d;
    d.count = idims[0];
    d.rows = idims[1];
    d.cols = idims[2];
    d.labels = std::move(lb);
    d.pixels = std::move(ib);
    return d;
}

namespace
{
/** \brief Thrown when a mapped sample fails its CRC-32: the cache entry is rebuilt. */
struct CorruptEntry
{
};

/**
 * Asks the kernel to back the whole 2 MiB pages of [p, p + bytes) with transparent huge
 * pages where it does so only on request (Debian's "madvise" mode): the first write of the
 * training set's 188 MB of features then takes about 90 page faults instead of 46,000.
 * Nothing changes where the kernel refuses (the pages stay 4 KiB).
 */
void
AdviseHugePages(void* p, std::size_t bytes)
{
    constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge - 1);
    if (end > begin)
    {
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
}

/**
 * \return the samples `kept` (ascending) of raw as a data set, pixels scaled to [0, 1]
 * \param raw the decoded set \param kept the samples (null: all) \param numClasses classes
 * \throws CorruptEntry if a sample or label of a mapped entry is damaged
 */
std::shared_ptr<D2dDataset>
Extract(const D2dIdxCache& raw, const std::vector<std::size_t>* kept, uint32_t numClasses)
{
    const std::size_t n = kept ? kept->size() : raw.Count();
    const std::size_t sample = std::size_t(raw.Rows()) * raw.Cols();
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "fashion-mnist";
    ds->featureShape = {1, int64_t(raw.Rows()), int64_t(raw.Cols())};
    ds->numClasses = numClasses;
    ds->labels.resize(n);
    // Appended sample by sample into reserved room, not resized (zeroed) first: for the
    // whole training set that pass wrote 188 MB only to overwrite them.
    ds->features.reserve(n * sample);
    AdviseHugePages(ds->features.data(), ds->features.capacity() * sizeof(float));
    std::vector<float> scaled(sample);
    float table[256];
    for (int v = 0; v < 256; ++v)
    {
        table[v] = static_cast<float>(v) / 255.0f;
    }
    for (std::size_t k = 0; k < n; ++k)
    {
        const auto i = static_cast<uint32_t>(kept ? (*kept)[k] : k);
        const uint8_t label = raw.Labels()[i];
        if (label >= numClasses || !raw.SampleIntact(i))
        {
            throw CorruptEntry();
        }
        ds->labels[k] = label;
        const uint8_t* px = raw.Pixels(i);
        for (std::size_t j = 0; j < sample; ++j)
        {
            scaled[j] = table[px[j]];
        }
        ds->features.insert(ds->features.end(), scaled.begin(), scaled.end());
    }
    return ds;
}

/**
 * \return the samples a stratified fraction keeps (ascending), null for all
 * \param labels the labels of all samples \param n their number \param numClasses classes
 * \param fraction the fraction \param seed its seed \param purpose its D2dDataRng purpose
 * \throws CorruptEntry if a label is out of range (a damaged entry)
 */
std::unique_ptr<std::vector<std::size_t>>
KeptSamples(const uint8_t* labels,
            std::size_t n,
            uint32_t numClasses,
            double fraction,
            uint64_t seed,
            uint32_t purpose)
{
    if (fraction >= 1.0)
    {
        return nullptr;
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (labels[i] >= numClasses)
        {
            throw CorruptEntry();
        }
    }
    // Stratified: each class keeps its share (largest remainder), chosen at random.
    return std::make_unique<std::vector<std::size_t>>(D2dStratifiedKeep(
        n,
        numClasses,
        [labels](std::size_t i) { return uint32_t(labels[i]); },
        fraction,
        seed,
        purpose));
}
} // namespace

std::shared_ptr<D2dDataset>
D2dFashionMnist::ReadIdx(const std::string& imagesGz, const std::string& labelsGz)
{
    NS_LOG_FUNCTION(imagesGz << labelsGz);
    auto raw =
        D2dIdxCache::Open(imagesGz, labelsGz, "", [&] { return DecodeIdx(imagesGz, labelsGz); });
    auto ds = Extract(*raw, nullptr, 10);
    NS_LOG_INFO("read " << raw->Count() << " samples of " << raw->Rows() << "x" << raw->Cols()
                        << " from " << imagesGz);
    return ds;
}

std::shared_ptr<D2dDataset>
D2dFashionMnist::Load(const std::string& dir,
                      const std::string& split,
                      double fraction,
                      uint64_t seed)
{
    return Load(dir, split, fraction, seed, D2dIdxCache::DefaultDir());
}

std::shared_ptr<D2dDataset>
D2dFashionMnist::Load(const std::string& dir,
                      const std::string& split,
                      double fraction,
                      uint64_t seed,
                      const std::string& cacheDir)
{
    NS_LOG_FUNCTION(dir << split << fraction << seed << cacheDir);
    std::string prefix;
    if (split == "train")
    {
        prefix = "train";
    }
    else if (split == "test")
    {
        prefix = "t10k";
    }
    else
    {
        throw std::invalid_argument("split: '" + split + "' is not one of train, test");
    }
    if (!(fraction > 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " is outside the accepted range (0, 1]");
    }
    const std::string base = dir.empty() ? DefaultDir() : dir;
    auto ds = LoadFiles(base + "/" + prefix + "-images-idx3-ubyte.gz",
                        base + "/" + prefix + "-labels-idx1-ubyte.gz",
                        10,
                        fraction,
                        seed,
                        D2dDataRng::FASHION_FRACTION,
                        cacheDir);
    ds->name = "fashion-mnist-" + split;
    return ds;
}

std::shared_ptr<D2dDataset>
D2dFashionMnist::LoadFiles(const std::string& images,
                           const std::string& labels,
                           uint32_t numClasses,
                           double fraction,
                           uint64_t seed,
                           uint32_t purpose,
                           const std::string& cacheDir,
                           std::size_t* fileSamples)
{
    NS_LOG_FUNCTION(images << labels << numClasses << fraction << seed << cacheDir);
    if (!(fraction > 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " is outside the accepted range (0, 1]");
    }
    auto decode = [&] {
        return DecodeIdx(images, labels, numClasses == 0 ? 255 : numClasses - 1);
    };
    // Only the kept samples are read from the (mapped) cache and scaled to floats; a sample
    // that fails its CRC-32 has the entry rebuilt from the sources, once.
    for (bool rebuild : {false, true})
    {
        auto raw = D2dIdxCache::Open(images, labels, cacheDir, decode, rebuild);
        try
        {
            uint32_t classes = numClasses;
            if (classes == 0)
            {
                // The labels' range: the largest label + 1 (EMNIST balanced 47, byclass 62).
                const uint8_t* l = raw->Labels();
                classes =
                    raw->Count() == 0 ? 1 : uint32_t(*std::max_element(l, l + raw->Count())) + 1;
            }
            auto kept = KeptSamples(raw->Labels(), raw->Count(), classes, fraction, seed, purpose);
            auto ds = Extract(*raw, kept.get(), classes);
            if (fileSamples)
            {
                *fileSamples = raw->Count();
            }
            NS_LOG_INFO("kept " << ds->Size() << " of " << raw->Count() << " samples of " << images
                                << " (cache: " << int(raw->GetOrigin()) << ")");
            return ds;
        }
        catch (const CorruptEntry&)
        {
            NS_LOG_WARN("cache entry of " << images << " is corrupt: rebuilding it");
        }
    }
    throw std::runtime_error("dataDir: " + images + ": its cache entry in " + cacheDir +
                             " stays corrupt after a rebuild");
}

} // namespace ns3
