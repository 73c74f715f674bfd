/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the idx data of the torch-free data layer (data/): the idx reader on
 * tiny gzip files written here and each of its errors; the cache of decoded idx files
 * (D2dIdxCache: built, mapped, invalidated, corruption refused and rebuilt); and
 * Fashion-MNIST as installed by Debian (dataset-fashion-mnist). Torch-free. (The reader's
 * fuzzing is in d2d-parser-fuzz-test.cc.)
 *
 * Expected numbers are formulas written here (the pixel and label formulas the test files
 * are written from) or literals read independently with Python's gzip module (the
 * Fashion-MNIST labels and pixel sums).
 */

#include "d2d-test-errors.h"

#include "ns3/d2d-dataset.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-idx-cache.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>
#include <zlib.h>

using namespace ns3;
using d2dtest::Contains;
using d2dtest::ErrorOf;

namespace
{

/** A temporary folder (mkdtemp of a template), removed with its contents at the end. */
class IdxDataTempDir
{
  public:
    /** \param tmpl the mkdtemp template, e.g. "/tmp/d2d-data-test-XXXXXX" */
    explicit IdxDataTempDir(std::string tmpl)
    {
        m_path = mkdtemp(tmpl.data());
    }

    ~IdxDataTempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }

    IdxDataTempDir(const IdxDataTempDir&) = delete;
    IdxDataTempDir& operator=(const IdxDataTempDir&) = delete;

    /** \return the folder */
    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path; //!< the folder
};

/** Writes bytes as a gzip file (mode "wb0": stored, the size depends on the length only). */
void
IdxDataWriteGz(const std::string& path, const std::vector<uint8_t>& bytes, const char* mode = "wb")
{
    gzFile gz = gzopen(path.c_str(), mode);
    gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(gz);
}

/** Appends v big-endian. */
void
IdxDataPut32(std::vector<uint8_t>& b, uint32_t v)
{
    b.push_back(uint8_t(v >> 24));
    b.push_back(uint8_t(v >> 16));
    b.push_back(uint8_t(v >> 8));
    b.push_back(uint8_t(v));
}

/** idx3 of n images rows x cols, pixel (i, k) = (7 i + k) mod 256 (or given magic). */
std::vector<uint8_t>
IdxDataImages(uint32_t n, uint32_t rows, uint32_t cols, uint32_t magic = 0x00000803)
{
    std::vector<uint8_t> b;
    IdxDataPut32(b, magic);
    IdxDataPut32(b, n);
    IdxDataPut32(b, rows);
    IdxDataPut32(b, cols);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 0; k < rows * cols; ++k)
        {
            b.push_back(uint8_t((7 * i + k) % 256));
        }
    }
    return b;
}

/** idx1 of the labels (or given magic). */
std::vector<uint8_t>
IdxDataLabels(const std::vector<uint8_t>& labels, uint32_t magic = 0x00000801)
{
    std::vector<uint8_t> b;
    IdxDataPut32(b, magic);
    IdxDataPut32(b, static_cast<uint32_t>(labels.size()));
    b.insert(b.end(), labels.begin(), labels.end());
    return b;
}

/** \return the bytes of a file */
std::vector<uint8_t>
IdxDataFileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
}

/** \brief Writes bytes over a file. */
void
IdxDataSetFileBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

/** \return whether two data sets hold the same samples, bit for bit */
bool
IdxDataSameData(const D2dDataset& a, const D2dDataset& b)
{
    return a.name == b.name && a.featureShape == b.featureShape && a.numClasses == b.numClasses &&
           a.labels == b.labels && a.features.size() == b.features.size() &&
           std::memcmp(a.features.data(), b.features.data(), a.features.size() * 4) == 0;
}

/**
 * \brief The training files of the cache tests in a temporary folder, the cache folder in
 * it, and a decoder that counts its calls.
 */
class IdxCacheSources
{
  public:
    static constexpr uint32_t N = 200;  //!< samples (7 i mod 256 identifies sample i < 256)
    static constexpr uint32_t ROWS = 4; //!< pixel rows per image
    static constexpr uint32_t COLS = 5; //!< pixel columns per image

    /** Writes the sources (see Write) \param shift pixel shift \param lshift label shift */
    explicit IdxCacheSources(uint32_t shift = 0, uint32_t lshift = 0)
        : m_tmp("/tmp/d2d-cache-test-XXXXXX"),
          dir(m_tmp.Path()),
          cache(dir + "/cache"),
          img(dir + "/train-images-idx3-ubyte.gz"),
          lab(dir + "/train-labels-idx1-ubyte.gz")
    {
        Write(shift, lshift);
    }

    /** Writes the training files: pixel (i, k) = (7 i + k + shift) mod 256, label (i + lshift)
     * mod 10. */
    void Write(uint32_t shift, uint32_t lshift)
    {
        std::vector<uint8_t> images;
        IdxDataPut32(images, 0x00000803);
        IdxDataPut32(images, N);
        IdxDataPut32(images, ROWS);
        IdxDataPut32(images, COLS);
        for (uint32_t i = 0; i < N; ++i)
        {
            for (uint32_t k = 0; k < ROWS * COLS; ++k)
            {
                images.push_back(uint8_t((7 * i + k + shift) % 256));
            }
        }
        std::vector<uint8_t> labels;
        for (uint32_t i = 0; i < N; ++i)
        {
            labels.push_back(uint8_t((i + lshift) % 10));
        }
        IdxDataWriteGz(img, images, "wb0");
        IdxDataWriteGz(lab, IdxDataLabels(labels), "wb0");
    }

    /**
     * \brief Checks every sample of ds against the formula (sample i found from pixel 0).
     * \return the number of samples that do not match
     */
    static uint32_t Mismatches(const D2dDataset& ds, uint32_t shift, uint32_t lshift)
    {
        uint32_t bad = 0;
        for (std::size_t s = 0; s < ds.Size(); ++s)
        {
            const auto p0 = static_cast<uint32_t>(std::lround(ds.Sample(s)[0] * 255.0f));
            // 7 i + shift = p0 (mod 256); 7 x 183 = 1281 = 1 (mod 256).
            const uint32_t i = ((p0 + 256 - shift % 256) * 183) % 256;
            bool ok = i < N && ds.labels[s] == int64_t((i + lshift) % 10);
            for (uint32_t k = 0; ok && k < ROWS * COLS; ++k)
            {
                ok = ds.Sample(s)[k] == float((7 * i + k + shift) % 256) / 255.0f;
            }
            bad += ok ? 0 : 1;
        }
        return bad;
    }

    /** \return D2dIdxCache::Open of the sources with the counting decoder \param cacheDir */
    std::shared_ptr<const D2dIdxCache> Open(const std::string& cacheDir)
    {
        return D2dIdxCache::Open(img, lab, cacheDir, [this] {
            ++decodes;
            return D2dFashionMnist::DecodeIdx(img, lab);
        });
    }

  private:
    IdxDataTempDir m_tmp; //!< the folder, removed at the end

  public:
    const std::string dir;   //!< the folder of the sources
    const std::string cache; //!< the cache folder in it
    const std::string img;   //!< the images file
    const std::string lab;   //!< the labels file
    uint32_t decodes{0};     //!< calls of the decoder given to Open
};

/**
 * The idx reader on tiny gzip files written here: values, shape and pixel scaling.
 */
TEST(D2dIdxReader, ValuesShapeAndPixelScaling)
{
    IdxDataTempDir tmp("/tmp/d2d-data-test-XXXXXX");
    const std::string img = tmp.Path() + "/img.gz";
    const std::string lab = tmp.Path() + "/lab.gz";
    IdxDataWriteGz(img, IdxDataImages(3, 2, 5));
    IdxDataWriteGz(lab, IdxDataLabels({9, 0, 4}));
    auto ds = D2dFashionMnist::ReadIdx(img, lab);
    ASSERT_EQ(ds->Size(), 3u) << "3 samples";
    ASSERT_EQ(ds->FeatureSize(), 10u) << "2 x 5 pixels";
    EXPECT_TRUE((ds->featureShape == std::vector<int64_t>{1, 2, 5})) << "shape {1, rows, cols}";
    EXPECT_EQ(ds->labels[0], 9) << "label 0";
    EXPECT_EQ(ds->labels[2], 4) << "label 2";
    // pixel (2, 3) = (14 + 3) = 17 -> 17/255
    EXPECT_NEAR(ds->Sample(2)[3], 17.0f / 255.0f, 1e-7f) << "pixel scaling";
    EXPECT_NEAR(ds->Sample(0)[0], 0.0f, 1e-9f) << "pixel 0";
}

/**
 * Each corruption of the idx files refused with one line naming the file. The cases run in
 * order on the same two files: each prepares its damage from the files the previous left.
 */
TEST(D2dIdxReader, EachCorruptionRefusedInOneLine)
{
    IdxDataTempDir tmp("/tmp/d2d-data-test-XXXXXX");
    const std::string img = tmp.Path() + "/img.gz";
    const std::string lab = tmp.Path() + "/lab.gz";
    IdxDataWriteGz(img, IdxDataImages(3, 2, 5));
    IdxDataWriteGz(lab, IdxDataLabels({9, 0, 4}));

    struct Case
    {
        std::string what;
        std::function<void()> prepare;
        std::string fileInMessage;
        std::string expect;
    };

    std::vector<Case> cases = {
        {"missing images", [&] { std::remove(img.c_str()); }, img, "missing"},
        {"not gzip", [&] { std::ofstream(img) << "plain text, not gzip"; }, img, "not a gzip file"},
        {"bad magic",
         [&] { IdxDataWriteGz(img, IdxDataImages(3, 2, 5, 0x00000804)); },
         img,
         "bad idx magic"},
        {"bad label magic",
         [&] {
             IdxDataWriteGz(img, IdxDataImages(3, 2, 5));
             IdxDataWriteGz(lab, IdxDataLabels({1, 2, 3}, 0x00000803));
         },
         lab,
         "bad idx magic"},
        {"truncated payload",
         [&] {
             auto b = IdxDataImages(3, 2, 5);
             b.resize(b.size() - 4);
             IdxDataWriteGz(img, b);
             IdxDataWriteGz(lab, IdxDataLabels({1, 2, 3}));
         },
         img,
         "truncated"},
        {"truncated header",
         [&] {
             auto b = IdxDataImages(3, 2, 5);
             b.resize(9);
             IdxDataWriteGz(img, b);
         },
         img,
         "truncated"},
        {"truncated gzip stream",
         [&] {
             // A gzip file cut in the middle of its compressed data.
             std::vector<uint8_t> big = IdxDataImages(200, 28, 28);
             IdxDataWriteGz(img, big);
             std::ifstream in(img, std::ios::binary);
             std::string all((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
             std::ofstream(img, std::ios::binary) << all.substr(0, all.size() / 2);
         },
         img,
         "truncated or corrupt gzip"},
        {"count mismatch",
         [&] {
             IdxDataWriteGz(img, IdxDataImages(3, 2, 5));
             IdxDataWriteGz(lab, IdxDataLabels({1, 2}));
         },
         lab,
         "3 images but 2 labels"},
        {"label > 9",
         [&] {
             IdxDataWriteGz(lab, IdxDataLabels({1, 10, 3}));
         },
         lab,
         "label 10 of sample 1 outside 0..9"},
    };
    for (const auto& c : cases)
    {
        c.prepare();
        std::string msg = ErrorOf<std::runtime_error>([&] { D2dFashionMnist::ReadIdx(img, lab); });
        EXPECT_TRUE(Contains(msg, "dataDir: ")) << c.what << ": " << msg;
        EXPECT_TRUE(Contains(msg, c.fileInMessage)) << c.what << ": " << msg;
        EXPECT_TRUE(Contains(msg, c.expect)) << c.what << ": " << msg;
        EXPECT_FALSE(Contains(msg, "\n")) << c.what << ": one line";
    }
}

/** Load on a directory without the files names the split's file. */
TEST(D2dIdxReader, LoadNamesTheSplitsMissingFile)
{
    IdxDataTempDir tmp("/tmp/d2d-data-test-XXXXXX");
    const std::string dir = tmp.Path();
    std::string msg =
        ErrorOf<std::runtime_error>([&] { D2dFashionMnist::Load(dir, "test", 1, 1); });
    EXPECT_TRUE(Contains(msg, "dataDir: " + dir + "/t10k-labels-idx1-ubyte.gz: missing")) << msg;
}

/** The cache: built once, then mapped; the mapped bytes are the decoded ones. */
TEST(D2dIdxCache, BuiltOnceThenMappedAsDecoded)
{
    IdxCacheSources files;
    const uint32_t N = IdxCacheSources::N;
    auto fresh = D2dFashionMnist::DecodeIdx(files.img, files.lab);
    auto a = files.Open(files.cache);
    EXPECT_EQ(a->GetOrigin(), D2dIdxCache::BUILT) << "first open builds";
    EXPECT_EQ(files.decodes, 1u) << "one decode";
    const std::string entry = D2dIdxCache::EntryPath(files.img, files.cache);
    ASSERT_FALSE(IdxDataFileBytes(entry).empty()) << "entry written at " << entry;
    auto b = files.Open(files.cache);
    EXPECT_EQ(b->GetOrigin(), D2dIdxCache::MAPPED) << "second open maps";
    EXPECT_EQ(files.decodes, 1u) << "no second decode";
    ASSERT_EQ(b->Count(), N) << "count";
    EXPECT_EQ(b->Rows() * 10 + b->Cols(), IdxCacheSources::ROWS * 10 + IdxCacheSources::COLS)
        << "shape";
    EXPECT_EQ(std::memcmp(b->Labels(), fresh.labels.data(), N), 0) << "labels";
    EXPECT_EQ(std::memcmp(b->Pixels(0), fresh.pixels.data(), fresh.pixels.size()), 0) << "pixels";
    bool intact = true;
    for (uint32_t i = 0; i < N; ++i)
    {
        intact = intact && b->SampleIntact(i);
    }
    EXPECT_TRUE(intact) << "every sample matches its CRC-32";
}

/** Load through the cache = Load without it = the formula, for fractions and seeds. */
TEST(D2dIdxCache, LoadThroughItEqualsLoadWithoutItAndTheFormula)
{
    IdxCacheSources files;
    auto built = files.Open(files.cache); // the entry, kept mapped while Load uses it
    for (double fraction : {1.0, 0.25, 0.05})
    {
        for (uint64_t seed : {3, 4})
        {
            auto cached = D2dFashionMnist::Load(files.dir, "train", fraction, seed, files.cache);
            auto uncached = D2dFashionMnist::Load(files.dir, "train", fraction, seed, "");
            EXPECT_TRUE(IdxDataSameData(*cached, *uncached))
                << "fraction " << fraction << " seed " << seed;
            EXPECT_EQ(cached->Size(),
                      static_cast<std::size_t>(std::llround(fraction * IdxCacheSources::N)))
                << "size, fraction " << fraction;
            EXPECT_EQ(IdxCacheSources::Mismatches(*cached, 0, 0), 0u) << "formula " << fraction;
        }
    }
    EXPECT_EQ(files.decodes, 1u) << "Load used the entry (no decode)";
}

/**
 * A changed source invalidates the entry, even with its inode, size and time kept (the
 * files are stored gzip, rewritten in place, their times put back): the gzip trailer
 * (CRC-32 of the data) differs.
 */
TEST(D2dIdxCache, ChangedImagesRebuiltWithInodeSizeAndTimeKept)
{
    IdxCacheSources files;
    auto old = files.Open(files.cache); // the entry of the first sources, kept mapped
    const std::string& img = files.img;
    const std::string& lab = files.lab;
    struct stat imgBefore = {};
    struct stat labBefore = {};
    stat(img.c_str(), &imgBefore);
    stat(lab.c_str(), &labBefore);
    files.Write(1, 0);
    struct timespec imgTimes[2] = {imgBefore.st_atim, imgBefore.st_mtim};
    struct timespec labTimes[2] = {labBefore.st_atim, labBefore.st_mtim};
    utimensat(AT_FDCWD, img.c_str(), imgTimes, 0);
    utimensat(AT_FDCWD, lab.c_str(), labTimes, 0);
    for (const auto& [path, before] :
         {std::make_pair(img, imgBefore), std::make_pair(lab, labBefore)})
    {
        struct stat now = {};
        stat(path.c_str(), &now);
        const bool kept = now.st_ino == before.st_ino && now.st_size == before.st_size &&
                          now.st_mtim.tv_sec == before.st_mtim.tv_sec &&
                          now.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
        EXPECT_TRUE(kept) << path << ": same inode, size and time";
    }
    auto c = files.Open(files.cache);
    EXPECT_EQ(c->GetOrigin(), D2dIdxCache::BUILT) << "changed images: rebuilt";
    EXPECT_EQ(files.decodes, 2u) << "decoded again";
    auto shifted = D2dFashionMnist::Load(files.dir, "train", 0.25, 3, files.cache);
    EXPECT_EQ(IdxCacheSources::Mismatches(*shifted, 1, 0), 0u) << "the new pixels";
    EXPECT_TRUE(IdxDataSameData(*shifted, *D2dFashionMnist::Load(files.dir, "train", 0.25, 3, "")))
        << "= a fresh decode";
}

/** Labels alone changed: the entry records both sources. */
TEST(D2dIdxCache, ChangedLabelsAloneRebuilt)
{
    IdxCacheSources files(1, 0);
    auto old = files.Open(files.cache); // the entry of the shifted pixels, kept mapped
    files.Write(1, 3);
    auto d = files.Open(files.cache);
    EXPECT_EQ(d->GetOrigin(), D2dIdxCache::BUILT) << "changed labels: rebuilt";
    EXPECT_EQ(
        IdxCacheSources::Mismatches(*D2dFashionMnist::Load(files.dir, "train", 1, 1, files.cache),
                                    1,
                                    3),
        0u)
        << "the new labels";
}

/**
 * Corrupt entries: refused (the header, size, labels) or caught on access (a sample's
 * pixels), and rebuilt; the data stay right.
 */
TEST(D2dIdxCache, DamagedEntryRefusedOrCaughtAndRebuilt)
{
    const uint32_t N = IdxCacheSources::N;
    IdxCacheSources files(1, 3);
    files.Open(files.cache); // the entry, built (and unmapped: the handle is not kept)
    const std::string entry = D2dIdxCache::EntryPath(files.img, files.cache);
    const auto good = IdxDataFileBytes(entry);
    std::vector<uint8_t> want(N);
    for (uint32_t i = 0; i < N; ++i)
    {
        want[i] = uint8_t((i + 3) % 10);
    }
    const auto labelsAt3 =
        std::search(good.begin(), good.end(), want.begin(), want.end()) - good.begin();
    ASSERT_LT(std::size_t(labelsAt3), good.size()) << "labels found in the entry";

    struct Damage
    {
        std::string what;
        std::function<void(std::vector<uint8_t>&)> apply;
        D2dIdxCache::Origin open; //!< what Open does with it
    };

    const std::vector<Damage> damages = {
        {"header byte", [](auto& f) { f[9] ^= 0x40; }, D2dIdxCache::REBUILT},
        {"truncated", [](auto& f) { f.resize(f.size() - 7); }, D2dIdxCache::REBUILT},
        {"extended", [](auto& f) { f.push_back(0); }, D2dIdxCache::REBUILT},
        {"empty", [](auto& f) { f.clear(); }, D2dIdxCache::REBUILT},
        {"label byte", [&](auto& f) { f[labelsAt3 + 17] ^= 0x01; }, D2dIdxCache::REBUILT},
        {"pixel byte", [](auto& f) { f[f.size() - 3] ^= 0x10; }, D2dIdxCache::MAPPED},
    };
    for (const auto& dmg : damages)
    {
        auto bytes = good;
        dmg.apply(bytes);
        IdxDataSetFileBytes(entry, bytes);
        auto e = files.Open(files.cache);
        EXPECT_EQ(e->GetOrigin(), dmg.open) << dmg.what;
        if (dmg.open == D2dIdxCache::MAPPED)
        {
            EXPECT_FALSE(e->SampleIntact(N - 1)) << dmg.what << ": CRC-32 catches it";
            EXPECT_TRUE(e->SampleIntact(0)) << dmg.what << ": others intact";
            IdxDataSetFileBytes(entry, bytes); // Open may not rewrite it: Load must
        }
        e.reset();
        auto loaded = D2dFashionMnist::Load(files.dir, "train", 1, 1, files.cache);
        EXPECT_EQ(IdxCacheSources::Mismatches(*loaded, 1, 3), 0u) << dmg.what << ": data right";
        EXPECT_TRUE((IdxDataFileBytes(entry) == good)) << dmg.what << ": entry rebuilt";
        EXPECT_EQ(files.Open(files.cache)->GetOrigin(), D2dIdxCache::MAPPED)
            << dmg.what << ": then mapped";
    }
}

/** No cache, or an unusable cache directory: decoded, nothing written, data right. */
TEST(D2dIdxCache, OffOrUnwritableFolderDecodesWithoutWriting)
{
    IdxCacheSources files;
    auto off = files.Open("");
    EXPECT_EQ(off->GetOrigin(), D2dIdxCache::UNCACHED) << "cache off";
    IdxDataSetFileBytes(files.dir + "/plain-file", {1, 2, 3});
    auto blocked = files.Open(files.dir + "/plain-file/cache");
    EXPECT_EQ(blocked->GetOrigin(), D2dIdxCache::UNCACHED) << "unwritable dir";
    EXPECT_EQ(std::memcmp(blocked->Pixels(0),
                          D2dFashionMnist::DecodeIdx(files.img, files.lab).pixels.data(),
                          IdxCacheSources::N * IdxCacheSources::ROWS * IdxCacheSources::COLS),
              0)
        << "unwritable dir: data decoded";
}

/** A missing source is the decoder's error, cache (and its entry) or not. */
TEST(D2dIdxCache, MissingSourceIsTheReadersError)
{
    IdxCacheSources files;
    files.Open(files.cache); // the entry, built
    std::remove(files.img.c_str());
    std::string msg = ErrorOf<std::runtime_error>(
        [&] { D2dFashionMnist::Load(files.dir, "train", 1, 1, files.cache); });
    EXPECT_TRUE(Contains(msg, "dataDir: " + files.img + ": missing")) << msg;
}

/** Where the cache lives: $D2DLEARN_CACHE_DIR ("off": none), else $XDG_CACHE_HOME/d2dlearn. */
TEST(D2dIdxCache, DefaultDirFromTheEnvironment)
{
    const char* saved = std::getenv("D2DLEARN_CACHE_DIR");
    const std::string savedValue = saved ? saved : "";
    setenv("D2DLEARN_CACHE_DIR", "/some/dir", 1);
    EXPECT_EQ(D2dIdxCache::DefaultDir(), "/some/dir") << "D2DLEARN_CACHE_DIR";
    setenv("D2DLEARN_CACHE_DIR", "off", 1);
    EXPECT_EQ(D2dIdxCache::DefaultDir(), "") << "off";
    unsetenv("D2DLEARN_CACHE_DIR");
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const std::string xdgValue = xdg ? xdg : "";
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    EXPECT_EQ(D2dIdxCache::DefaultDir(), "/xdg/d2dlearn") << "XDG_CACHE_HOME";
    xdg ? setenv("XDG_CACHE_HOME", xdgValue.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
    if (saved)
    {
        setenv("D2DLEARN_CACHE_DIR", savedValue.c_str(), 1);
    }
}

/** The real Fashion-MNIST training set: sizes, classes, pixel range, first labels. */
TEST(D2dFashionMnist, TrainingSetSizesClassesAndPixels)
{
    const std::string dir = D2dFashionMnist::DefaultDir();
    auto train = D2dFashionMnist::Load(dir, "train", 1.0, 1);
    ASSERT_EQ(train->Size(), 60000u) << "60,000 training images";
    EXPECT_EQ(train->name, "fashion-mnist-train") << "name";
    EXPECT_EQ(train->FeatureSize(), 784u) << "28 x 28";
    auto counts = train->ClassCounts();
    for (uint32_t c = 0; c < 10; ++c)
    {
        EXPECT_EQ(counts[c], 6000u) << "6000 per class, class " << c;
    }
    auto [lo, hi] = std::minmax_element(train->features.begin(), train->features.end());
    EXPECT_EQ(*lo, 0.0f) << "min pixel";
    EXPECT_EQ(*hi, 1.0f) << "max pixel 255/255";
    // Literals from Python's gzip: first labels and image 0's pixel sum 76247 / 255.
    const std::vector<int64_t> first = {9, 0, 0, 3, 0, 2, 7, 2, 5, 5};
    EXPECT_TRUE(std::equal(first.begin(), first.end(), train->labels.begin()))
        << "first training labels";
    double sum0 = std::accumulate(train->Sample(0), train->Sample(0) + 784, 0.0);
    EXPECT_NEAR(sum0, 76247.0 / 255.0, 1e-3) << "image 0 pixel sum";
}

/** The real Fashion-MNIST test set: size, first labels, a pixel sum. */
TEST(D2dFashionMnist, TestSetSizeLabelsAndPixelSum)
{
    const std::string dir = D2dFashionMnist::DefaultDir();
    auto test = D2dFashionMnist::Load(dir, "test", 1.0, 1);
    ASSERT_EQ(test->Size(), 10000u) << "10,000 test images";
    // Literals from Python's gzip: first labels and image 0's pixel sum 33456 / 255.
    const std::vector<int64_t> firstTest = {9, 2, 1, 1, 6, 1, 4, 6, 5, 7};
    EXPECT_TRUE(std::equal(firstTest.begin(), firstTest.end(), test->labels.begin()))
        << "first test labels";
    double sumT = std::accumulate(test->Sample(0), test->Sample(0) + 784, 0.0);
    EXPECT_NEAR(sumT, 33456.0 / 255.0, 1e-3) << "test image 0 pixel sum";
}

/** A fraction of Fashion-MNIST: stratified, the same subset for a seed, another for another. */
TEST(D2dFashionMnist, FractionStratifiedAndSeeded)
{
    const std::string dir = D2dFashionMnist::DefaultDir();
    auto tenth = D2dFashionMnist::Load(dir, "train", 0.1, 7);
    ASSERT_EQ(tenth->Size(), 6000u) << "fraction 0.1 of train keeps 6000";
    for (auto n : tenth->ClassCounts())
    {
        EXPECT_EQ(n, 600u) << "stratified: 600 per class";
    }
    auto a = D2dFashionMnist::Load(dir, "test", 0.25, 3);
    auto b = D2dFashionMnist::Load(dir, "test", 0.25, 3);
    auto c = D2dFashionMnist::Load(dir, "test", 0.25, 4);
    EXPECT_EQ(a->Size(), 2500u) << "round(0.25 x 10000)";
    EXPECT_TRUE((a->features == b->features && a->labels == b->labels)) << "same seed, same subset";
    EXPECT_FALSE((a->features == c->features)) << "other seed, other subset";
}

/** An unknown split, a fraction outside (0, 1] or one that keeps no sample: refused. */
TEST(D2dFashionMnist, BadSplitOrFractionRefused)
{
    const std::string dir = D2dFashionMnist::DefaultDir();
    std::string msg =
        ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "valid", 1, 1); });
    EXPECT_TRUE(Contains(msg, "split: 'valid'")) << msg;
    for (double f : {0.0, -0.5, 1.5, std::nan("")})
    {
        msg = ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "test", f, 1); });
        EXPECT_TRUE(Contains(msg, "fraction: ") && Contains(msg, "(0, 1]")) << msg;
    }
    msg = ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "test", 1e-6, 1); });
    EXPECT_TRUE(Contains(msg, "fraction: ")) << "keeps no sample: " << msg;
}

} // namespace
