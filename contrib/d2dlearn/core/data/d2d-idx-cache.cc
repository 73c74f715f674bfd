/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-idx-cache.h"

#include "ns3/log.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dIdxCache");

namespace
{

/** Identity of a source file: where it is, its size and time, and its gzip trailer. */
struct SourceId
{
    uint64_t dev;
    uint64_t ino;
    uint64_t size;
    int64_t mtimeSec;
    int64_t mtimeNsec;
    uint8_t trailer[8]; //!< the last 8 bytes: a gzip file's CRC-32 and length of its data
};

/** The entry's header, at offset 0 (machine-local: native byte order, checked). */
struct IdxHeader
{
    char magic[8];        //!< "D2DIDXC\0"
    uint32_t version;     //!< VERSION
    uint32_t headerBytes; //!< sizeof(IdxHeader)
    uint64_t byteOrder;   //!< BYTE_ORDER_TAG as written by this machine
    SourceId images;
    SourceId labels;
    uint32_t count;
    uint32_t rows;
    uint32_t cols;
    uint32_t labelsCrc; //!< CRC-32 of the labels
    uint64_t labelsOffset;
    uint64_t crcOffset; //!< the per-sample CRC-32 table (count x uint32)
    uint64_t pixelsOffset;
    uint64_t fileBytes;
    uint32_t tableCrc;  //!< CRC-32 of the per-sample table
    uint32_t headerCrc; //!< CRC-32 of the header bytes before this field
};

constexpr char MAGIC[8] = {'D', '2', 'D', 'I', 'D', 'X', 'C', '\0'};
constexpr uint32_t VERSION = 1;
constexpr uint64_t BYTE_ORDER_TAG = 0x0102030405060708ULL;
/** Largest pixel payload an entry may announce, bytes (as the idx reader accepts). */
constexpr uint64_t MAX_PIXEL_BYTES = uint64_t(1) << 30;

/** \return the CRC-32 of n bytes at p */
uint32_t
Crc(const void* p, std::size_t n)
{
    return static_cast<uint32_t>(crc32_z(0L, static_cast<const Bytef*>(p), n));
}

/** \return whether the identity of path could be read into id */
bool
ReadSourceId(const std::string& path, SourceId& id)
{
    std::memset(&id, 0, sizeof(id));

    struct stat st = {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 8)
    {
        return false;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return false;
    }
    const ssize_t got = pread(fd, id.trailer, 8, st.st_size - 8);
    close(fd);
    if (got != 8)
    {
        return false;
    }
    id.dev = static_cast<uint64_t>(st.st_dev);
    id.ino = static_cast<uint64_t>(st.st_ino);
    id.size = static_cast<uint64_t>(st.st_size);
    id.mtimeSec = static_cast<int64_t>(st.st_mtim.tv_sec);
    id.mtimeNsec = static_cast<int64_t>(st.st_mtim.tv_nsec);
    return true;
}

bool
SameSource(const SourceId& a, const SourceId& b)
{
    return std::memcmp(&a, &b, sizeof(SourceId)) == 0;
}

/** \brief The offsets of an entry of count samples of rows x cols pixels. */
bool
Layout(uint64_t count, uint64_t rows, uint64_t cols, IdxHeader& h)
{
    if (rows == 0 || cols == 0 || count > MAX_PIXEL_BYTES || rows * cols > MAX_PIXEL_BYTES ||
        count * rows * cols > MAX_PIXEL_BYTES)
    {
        return false;
    }
    h.labelsOffset = sizeof(IdxHeader);
    h.crcOffset = (h.labelsOffset + count + 3) / 4 * 4;
    h.pixelsOffset = (h.crcOffset + 4 * count + 4095) / 4096 * 4096; // page-aligned pixels
    h.fileBytes = h.pixelsOffset + count * rows * cols;
    return true;
}

/** \return the CRC-32 of the header's bytes before headerCrc */
uint32_t
HeaderCrc(const IdxHeader& h)
{
    return Crc(&h, offsetof(IdxHeader, headerCrc));
}

/** What reading an existing entry found. */
enum class Found
{
    MISSING,
    STALE,   //!< intact, but built from other sources
    CORRUPT, //!< not an intact entry
    OK,
};

/** \brief A read-only mapping of a whole file. */
struct Mapping
{
    const uint8_t* data{nullptr};
    std::size_t bytes{0};
};

/** \return the mapping of path (data null if it cannot be mapped) \param exists set */
Mapping
MapFile(const std::string& path, bool& exists)
{
    Mapping m;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    exists = fd >= 0 || errno != ENOENT;
    if (fd < 0)
    {
        return m;
    }

    struct stat st = {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    {
        void* p =
            mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED)
        {
            m.data = static_cast<const uint8_t*>(p);
            m.bytes = static_cast<std::size_t>(st.st_size);
        }
    }
    close(fd);
    return m;
}

/** \return what the mapped bytes are, for sources images and labels */
Found
Check(const Mapping& m, const SourceId& images, const SourceId& labels)
{
    if (m.bytes < sizeof(IdxHeader))
    {
        return Found::CORRUPT;
    }
    IdxHeader h;
    std::memcpy(&h, m.data, sizeof(IdxHeader));
    if (std::memcmp(h.magic, MAGIC, sizeof(MAGIC)) != 0 || h.version != VERSION ||
        h.headerBytes != sizeof(IdxHeader) || h.byteOrder != BYTE_ORDER_TAG ||
        h.headerCrc != HeaderCrc(h))
    {
        return Found::CORRUPT;
    }
    IdxHeader want = h;
    if (!Layout(h.count, h.rows, h.cols, want) || want.labelsOffset != h.labelsOffset ||
        want.crcOffset != h.crcOffset || want.pixelsOffset != h.pixelsOffset ||
        want.fileBytes != h.fileBytes || h.fileBytes != m.bytes)
    {
        return Found::CORRUPT;
    }
    if (!SameSource(h.images, images) || !SameSource(h.labels, labels))
    {
        return Found::STALE;
    }
    if (Crc(m.data + h.labelsOffset, h.count) != h.labelsCrc ||
        Crc(m.data + h.crcOffset, 4 * std::size_t(h.count)) != h.tableCrc)
    {
        return Found::CORRUPT;
    }
    return Found::OK;
}

/** \return whether the entry for data was written to path (atomically: temporary, rename) */
bool
WriteEntry(const std::string& path,
           const SourceId& images,
           const SourceId& labels,
           const D2dIdxCache::Decoded& d)
{
    IdxHeader h;
    std::memset(&h, 0, sizeof(h));
    std::memcpy(h.magic, MAGIC, sizeof(MAGIC));
    h.version = VERSION;
    h.headerBytes = sizeof(IdxHeader);
    h.byteOrder = BYTE_ORDER_TAG;
    h.images = images;
    h.labels = labels;
    h.count = d.count;
    h.rows = d.rows;
    h.cols = d.cols;
    if (!Layout(d.count, d.rows, d.cols, h) || d.labels.size() != d.count ||
        d.pixels.size() != std::size_t(d.count) * d.rows * d.cols)
    {
        return false;
    }
    const std::size_t sample = std::size_t(d.rows) * d.cols;
    std::vector<uint32_t> crcs(d.count);
    for (uint32_t i = 0; i < d.count; ++i)
    {
        crcs[i] = Crc(d.pixels.data() + i * sample, sample);
    }
    h.labelsCrc = Crc(d.labels.data(), d.labels.size());
    h.tableCrc = Crc(crcs.data(), 4 * crcs.size());
    h.headerCrc = HeaderCrc(h);

    static std::atomic<uint32_t> serial{0};
    const std::string tmp =
        path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(serial.fetch_add(1));
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        return false;
    }
    bool ok = true;
    auto put = [&](uint64_t offset, const void* p, std::size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        while (ok && n > 0)
        {
            const ssize_t w = pwrite(fd, b, n, static_cast<off_t>(offset));
            if (w <= 0)
            {
                ok = false;
                break;
            }
            b += w;
            n -= static_cast<std::size_t>(w);
            offset += static_cast<uint64_t>(w);
        }
    };
    put(0, &h, sizeof(h));
    put(h.labelsOffset, d.labels.data(), d.labels.size());
    put(h.crcOffset, crcs.data(), 4 * crcs.size());
    put(h.pixelsOffset, d.pixels.data(), d.pixels.size());
    ok = ok && ftruncate(fd, static_cast<off_t>(h.fileBytes)) == 0; // the zero padding
    ok = close(fd) == 0 && ok;
    if (ok && std::rename(tmp.c_str(), path.c_str()) == 0)
    {
        return true;
    }
    std::remove(tmp.c_str());
    return false;
}

/** \return the FNV-1a 64-bit hash of s */
uint64_t
Fnv1a(const std::string& s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s)
    {
        h = (h ^ c) * 0x100000001b3ULL;
    }
    return h;
}

} // namespace

uint64_t
D2dIdxCache::EntryBytes(const Decoded& d)
{
    IdxHeader h{};
    return Layout(d.count, d.rows, d.cols, h) ? h.fileBytes : UINT64_MAX;
}

uint64_t
D2dIdxCache::MaxBytes()
{
    if (const char* mb = std::getenv("D2DLEARN_CACHE_MAX_MB"))
    {
        char* end = nullptr;
        const double v = std::strtod(mb, &end);
        if (end != mb && *end == '\0' && v >= 0 && v <= 1e9)
        {
            return static_cast<uint64_t>(v * 1024 * 1024);
        }
        NS_LOG_WARN("D2DLEARN_CACHE_MAX_MB=" << mb << " is not a size in MB: the default");
    }
    return DEFAULT_MAX_BYTES;
}

bool
D2dIdxCache::MakeRoom(const std::string& cacheDir,
                      const std::string& entry,
                      uint64_t bytes,
                      uint64_t maxBytes)
{
    if (bytes > maxBytes)
    {
        return false; // larger than the whole cache may be: decode without caching
    }
    // The other entries, oldest first; removed until the new one fits.
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> others;
    uint64_t used = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(cacheDir, ec))
    {
        std::error_code fe;
        if (e.path().extension() != ".d2didx" || !e.is_regular_file(fe) ||
            e.path() == std::filesystem::path(entry))
        {
            continue;
        }
        used += e.file_size(fe);
        others.emplace_back(e.last_write_time(fe), e.path());
    }
    std::sort(others.begin(), others.end());
    for (const auto& [time, path] : others)
    {
        if (used + bytes <= maxBytes)
        {
            break;
        }
        std::error_code fe;
        const uint64_t size = std::filesystem::file_size(path, fe);
        if (std::filesystem::remove(path, fe))
        {
            NS_LOG_INFO("evicted " << path << " (" << size << " bytes) to keep the cache under "
                                   << maxBytes << " bytes");
            used -= std::min(used, size);
        }
    }
    return used + bytes <= maxBytes;
}

std::string
D2dIdxCache::DefaultDir()
{
    if (const char* dir = std::getenv("D2DLEARN_CACHE_DIR"))
    {
        return std::string(dir) == "off" ? "" : std::string(dir);
    }
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    {
        return std::string(xdg) + "/d2dlearn";
    }
    if (const char* home = std::getenv("HOME"); home && *home == '/')
    {
        return std::string(home) + "/.cache/d2dlearn";
    }
    return "";
}

std::string
D2dIdxCache::EntryPath(const std::string& imagesPath, const std::string& cacheDir)
{
    std::error_code ec;
    auto abs = std::filesystem::weakly_canonical(imagesPath, ec);
    const std::string key = ec ? imagesPath : abs.string();
    std::string name = std::filesystem::path(imagesPath).filename().string();
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0)
    {
        name.resize(name.size() - 3);
    }
    char hash[17];
    std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(Fnv1a(key)));
    return cacheDir + "/" + name + "-" + hash + ".d2didx";
}

std::shared_ptr<const D2dIdxCache>
D2dIdxCache::Open(const std::string& imagesPath,
                  const std::string& labelsPath,
                  const std::string& cacheDir,
                  const Decoder& decode,
                  bool rebuild)
{
    NS_LOG_FUNCTION(imagesPath << labelsPath << cacheDir << rebuild);
    std::shared_ptr<D2dIdxCache> c(new D2dIdxCache);
    auto own = [&c](Decoded&& d, Origin origin) {
        c->m_owned = std::move(d);
        c->m_origin = origin;
        c->m_count = c->m_owned.count;
        c->m_rows = c->m_owned.rows;
        c->m_cols = c->m_owned.cols;
        c->m_labels = c->m_owned.labels.data();
        c->m_pixels = c->m_owned.pixels.data();
        return c;
    };
    SourceId images{};
    SourceId labels{};
    if (cacheDir.empty() || !ReadSourceId(imagesPath, images) || !ReadSourceId(labelsPath, labels))
    {
        // No cache, or a source that cannot be identified: the decoder says what is wrong.
        return own(decode(), UNCACHED);
    }
    const std::string entry = EntryPath(imagesPath, cacheDir);
    Found found = Found::MISSING;
    if (!rebuild)
    {
        bool exists = false;
        Mapping m = MapFile(entry, exists);
        found = m.data ? Check(m, images, labels) : (exists ? Found::CORRUPT : Found::MISSING);
        if (found == Found::OK)
        {
            IdxHeader h;
            std::memcpy(&h, m.data, sizeof(IdxHeader));
            c->m_origin = MAPPED;
            c->m_map = m.data;
            c->m_mapBytes = m.bytes;
            c->m_count = h.count;
            c->m_rows = h.rows;
            c->m_cols = h.cols;
            c->m_labels = m.data + h.labelsOffset;
            c->m_crcs = reinterpret_cast<const uint32_t*>(m.data + h.crcOffset);
            c->m_pixels = m.data + h.pixelsOffset;
            NS_LOG_INFO("mapped " << entry);
            return c;
        }
        if (m.data)
        {
            munmap(const_cast<uint8_t*>(m.data), m.bytes);
        }
    }
    Decoded d = decode();
    const Origin origin = rebuild || found == Found::CORRUPT ? REBUILT : BUILT;
    // A source that changed while it was decoded must not be recorded under its new identity.
    SourceId imagesAfter{};
    SourceId labelsAfter{};
    std::error_code ec;
    std::filesystem::create_directories(cacheDir, ec);
    if (!ReadSourceId(imagesPath, imagesAfter) || !ReadSourceId(labelsPath, labelsAfter) ||
        !SameSource(images, imagesAfter) || !SameSource(labels, labelsAfter) ||
        !MakeRoom(cacheDir, entry, EntryBytes(d), MaxBytes()) ||
        !WriteEntry(entry, images, labels, d))
    {
        NS_LOG_WARN("cannot write the cache entry " << entry << ": decoded without caching");
        return own(std::move(d), UNCACHED);
    }
    NS_LOG_INFO((origin == REBUILT ? "rebuilt " : "built ") << entry);
    return own(std::move(d), origin);
}

D2dIdxCache::~D2dIdxCache()
{
    if (m_map)
    {
        munmap(const_cast<uint8_t*>(m_map), m_mapBytes);
    }
}

D2dIdxCache::Origin
D2dIdxCache::GetOrigin() const
{
    return m_origin;
}

uint32_t
D2dIdxCache::Count() const
{
    return m_count;
}

uint32_t
D2dIdxCache::Rows() const
{
    return m_rows;
}

uint32_t
D2dIdxCache::Cols() const
{
    return m_cols;
}

const uint8_t*
D2dIdxCache::Labels() const
{
    return m_labels;
}

const uint8_t*
D2dIdxCache::Pixels(uint32_t i) const
{
    return m_pixels + std::size_t(i) * m_rows * m_cols;
}

bool
D2dIdxCache::SampleIntact(uint32_t i) const
{
    if (!m_crcs)
    {
        return true;
    }
    return Crc(Pixels(i), std::size_t(m_rows) * m_cols) == m_crcs[i];
}

} // namespace ns3
