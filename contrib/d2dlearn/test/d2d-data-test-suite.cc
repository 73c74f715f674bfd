/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-data": the torch-free data layer (data/): the idx reader and its
 * errors, Fashion-MNIST as installed by Debian, the partitioners (IID, Dirichlet of
 * Fan et al. 2023, sec. 5.2, labels per device of Wagle et al. 2025, App. C, quantity skew,
 * label flips, the hold-out X* of Fan et al. 2023) and the synthetic generators
 * (Fan et al. 2023, sec. 5.1 and App. A.1; Lalitha et al. 2018, Example 1).
 *
 * Expected numbers are formulas written here (Dirichlet/Beta moments, uniform and normal
 * moments, the Zipf law) or literals read independently with Python's gzip module (the
 * Fashion-MNIST labels and pixel sums). Statistical tolerances are stated where used;
 * all data are seeded, so a test that passes once passes always.
 */

#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-dataset.h"
#include "ns3/d2d-fashion-mnist.h"
#include "ns3/d2d-idx-cache.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

using namespace ns3;

namespace
{

/** \return the message of the exception f throws ("" if none), "TYPE?" if another type */
template <typename E>
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    catch (const std::exception& e)
    {
        return std::string("wrong exception type: ") + e.what();
    }
    return "";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

/** A classification set of `perClass[c]` samples of class c (feature = the index). */
std::shared_ptr<D2dDataset>
LabelSet(const std::vector<std::size_t>& perClass)
{
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "labels";
    ds->featureShape = {1};
    ds->numClasses = static_cast<uint32_t>(perClass.size());
    for (std::size_t c = 0; c < perClass.size(); ++c)
    {
        for (std::size_t i = 0; i < perClass[c]; ++i)
        {
            ds->features.push_back(static_cast<float>(ds->labels.size()));
            ds->labels.push_back(static_cast<int64_t>(c));
        }
    }
    return ds;
}

/** \return true if the shards are pairwise disjoint; fills `all` with their union */
bool
Disjoint(const std::vector<D2dShard>& shards, std::set<std::size_t>& all)
{
    std::size_t total = 0;
    for (const auto& s : shards)
    {
        all.insert(s.indices.begin(), s.indices.end());
        total += s.indices.size();
    }
    return all.size() == total;
}

/** Writes bytes as a gzip file (mode "wb0": stored, the size depends on the length only). */
void
WriteGz(const std::string& path, const std::vector<uint8_t>& bytes, const char* mode = "wb")
{
    gzFile gz = gzopen(path.c_str(), mode);
    gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(gz);
}

void
Put32(std::vector<uint8_t>& b, uint32_t v)
{
    b.push_back(uint8_t(v >> 24));
    b.push_back(uint8_t(v >> 16));
    b.push_back(uint8_t(v >> 8));
    b.push_back(uint8_t(v));
}

/** idx3 of n images rows x cols, pixel (i, k) = (7 i + k) mod 256 (or given magic). */
std::vector<uint8_t>
Images(uint32_t n, uint32_t rows, uint32_t cols, uint32_t magic = 0x00000803)
{
    std::vector<uint8_t> b;
    Put32(b, magic);
    Put32(b, n);
    Put32(b, rows);
    Put32(b, cols);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 0; k < rows * cols; ++k)
        {
            b.push_back(uint8_t((7 * i + k) % 256));
        }
    }
    return b;
}

std::vector<uint8_t>
Labels(const std::vector<uint8_t>& labels, uint32_t magic = 0x00000801)
{
    std::vector<uint8_t> b;
    Put32(b, magic);
    Put32(b, static_cast<uint32_t>(labels.size()));
    b.insert(b.end(), labels.begin(), labels.end());
    return b;
}

} // namespace

/**
 * \brief The idx reader on tiny gzip files written here, and each of its errors.
 */
class D2dIdxReaderTestCase : public TestCase
{
  public:
    D2dIdxReaderTestCase()
        : TestCase("idx reader: values, scaling and each corruption error")
    {
    }

  private:
    void DoRun() override
    {
        char tmpl[] = "/tmp/d2d-data-test-XXXXXX";
        const std::string dir = mkdtemp(tmpl);
        const std::string img = dir + "/img.gz";
        const std::string lab = dir + "/lab.gz";
        WriteGz(img, Images(3, 2, 5));
        WriteGz(lab, Labels({9, 0, 4}));
        auto ds = D2dFashionMnist::ReadIdx(img, lab);
        NS_TEST_ASSERT_MSG_EQ(ds->Size(), 3u, "3 samples");
        NS_TEST_ASSERT_MSG_EQ(ds->FeatureSize(), 10u, "2 x 5 pixels");
        NS_TEST_EXPECT_MSG_EQ((ds->featureShape == std::vector<int64_t>{1, 2, 5}),
                              true,
                              "shape {1, rows, cols}");
        NS_TEST_EXPECT_MSG_EQ(ds->labels[0], 9, "label 0");
        NS_TEST_EXPECT_MSG_EQ(ds->labels[2], 4, "label 2");
        // pixel (2, 3) = (14 + 3) = 17 -> 17/255
        NS_TEST_EXPECT_MSG_EQ_TOL(ds->Sample(2)[3], 17.0f / 255.0f, 1e-7f, "pixel scaling");
        NS_TEST_EXPECT_MSG_EQ_TOL(ds->Sample(0)[0], 0.0f, 1e-9f, "pixel 0");

        struct Case
        {
            std::string what;
            std::function<void()> prepare;
            std::string fileInMessage;
            std::string expect;
        };

        const std::string txt = dir + "/plain";
        std::vector<Case> cases = {
            {"missing images", [&] { std::remove(img.c_str()); }, img, "missing"},
            {"not gzip",
             [&] { std::ofstream(img) << "plain text, not gzip"; },
             img,
             "not a gzip file"},
            {"bad magic", [&] { WriteGz(img, Images(3, 2, 5, 0x00000804)); }, img, "bad idx magic"},
            {"bad label magic",
             [&] {
                 WriteGz(img, Images(3, 2, 5));
                 WriteGz(lab, Labels({1, 2, 3}, 0x00000803));
             },
             lab,
             "bad idx magic"},
            {"truncated payload",
             [&] {
                 auto b = Images(3, 2, 5);
                 b.resize(b.size() - 4);
                 WriteGz(img, b);
                 WriteGz(lab, Labels({1, 2, 3}));
             },
             img,
             "truncated"},
            {"truncated header",
             [&] {
                 auto b = Images(3, 2, 5);
                 b.resize(9);
                 WriteGz(img, b);
             },
             img,
             "truncated"},
            {"truncated gzip stream",
             [&] {
                 // A gzip file cut in the middle of its compressed data.
                 std::vector<uint8_t> big = Images(200, 28, 28);
                 WriteGz(img, big);
                 std::ifstream in(img, std::ios::binary);
                 std::string all((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
                 std::ofstream(img, std::ios::binary) << all.substr(0, all.size() / 2);
             },
             img,
             "truncated or corrupt gzip"},
            {"count mismatch",
             [&] {
                 WriteGz(img, Images(3, 2, 5));
                 WriteGz(lab, Labels({1, 2}));
             },
             lab,
             "3 images but 2 labels"},
            {"label > 9",
             [&] {
                 WriteGz(lab, Labels({1, 10, 3}));
             },
             lab,
             "label 10 of sample 1 outside 0..9"},
        };
        for (const auto& c : cases)
        {
            c.prepare();
            std::string msg =
                ErrorOf<std::runtime_error>([&] { D2dFashionMnist::ReadIdx(img, lab); });
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, "dataDir: "), true, c.what << ": " << msg);
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, c.fileInMessage), true, c.what << ": " << msg);
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, c.expect), true, c.what << ": " << msg);
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, "\n"), false, c.what << ": one line");
        }
        // Load on a directory without the files names the split's file.
        std::string msg =
            ErrorOf<std::runtime_error>([&] { D2dFashionMnist::Load(dir, "test", 1, 1); });
        NS_TEST_EXPECT_MSG_EQ(
            Contains(msg, "dataDir: " + dir + "/t10k-labels-idx1-ubyte.gz: missing"),
            true,
            msg);
        for (const char* f : {"img.gz", "lab.gz", "plain"})
        {
            std::remove((dir + "/" + f).c_str());
        }
        rmdir(dir.c_str());
        (void)txt;
    }
};

/** \return the bytes of a file */
std::vector<uint8_t>
FileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
}

/** \brief Writes bytes over a file. */
void
SetFileBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

/** \return whether two data sets hold the same samples, bit for bit */
bool
SameData(const D2dDataset& a, const D2dDataset& b)
{
    return a.name == b.name && a.featureShape == b.featureShape && a.numClasses == b.numClasses &&
           a.labels == b.labels && a.features.size() == b.features.size() &&
           std::memcmp(a.features.data(), b.features.data(), a.features.size() * 4) == 0;
}

/**
 * \brief The cache of decoded idx files: built once, mapped later, invalidated when a
 * source changes (even with its size and time kept), corrupt entries refused and rebuilt,
 * and the data always equal to a fresh decode and to the formula the files were written
 * from.
 */
class D2dIdxCacheTestCase : public TestCase
{
  public:
    D2dIdxCacheTestCase()
        : TestCase("idx cache: built, mapped, invalidated, corruption refused and rebuilt")
    {
    }

  private:
    static constexpr uint32_t N = 200; //!< samples (7 i mod 256 identifies sample i < 256)
    static constexpr uint32_t ROWS = 4;
    static constexpr uint32_t COLS = 5;

    /** Writes the training files: pixel (i, k) = (7 i + k + shift) mod 256, label (i + lshift)
     * mod 10. */
    void WriteSources(const std::string& dir, uint32_t shift, uint32_t lshift)
    {
        std::vector<uint8_t> img;
        Put32(img, 0x00000803);
        Put32(img, N);
        Put32(img, ROWS);
        Put32(img, COLS);
        for (uint32_t i = 0; i < N; ++i)
        {
            for (uint32_t k = 0; k < ROWS * COLS; ++k)
            {
                img.push_back(uint8_t((7 * i + k + shift) % 256));
            }
        }
        std::vector<uint8_t> labels;
        for (uint32_t i = 0; i < N; ++i)
        {
            labels.push_back(uint8_t((i + lshift) % 10));
        }
        WriteGz(dir + "/train-images-idx3-ubyte.gz", img, "wb0");
        WriteGz(dir + "/train-labels-idx1-ubyte.gz", Labels(labels), "wb0");
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

    void DoRun() override
    {
        char tmpl[] = "/tmp/d2d-cache-test-XXXXXX";
        const std::string dir = mkdtemp(tmpl);
        const std::string cache = dir + "/cache";
        const std::string img = dir + "/train-images-idx3-ubyte.gz";
        const std::string lab = dir + "/train-labels-idx1-ubyte.gz";
        WriteSources(dir, 0, 0);
        uint32_t decodes = 0;
        auto decode = [&] {
            ++decodes;
            return D2dFashionMnist::DecodeIdx(img, lab);
        };
        auto fresh = D2dFashionMnist::DecodeIdx(img, lab);

        // Built once, then mapped; the mapped bytes are the decoded ones.
        auto a = D2dIdxCache::Open(img, lab, cache, decode);
        NS_TEST_EXPECT_MSG_EQ(a->GetOrigin(), D2dIdxCache::BUILT, "first open builds");
        NS_TEST_EXPECT_MSG_EQ(decodes, 1u, "one decode");
        const std::string entry = D2dIdxCache::EntryPath(img, cache);
        NS_TEST_ASSERT_MSG_EQ(FileBytes(entry).empty(), false, "entry written at " << entry);
        auto b = D2dIdxCache::Open(img, lab, cache, decode);
        NS_TEST_EXPECT_MSG_EQ(b->GetOrigin(), D2dIdxCache::MAPPED, "second open maps");
        NS_TEST_EXPECT_MSG_EQ(decodes, 1u, "no second decode");
        NS_TEST_ASSERT_MSG_EQ(b->Count(), N, "count");
        NS_TEST_EXPECT_MSG_EQ(b->Rows() * 10 + b->Cols(), ROWS * 10 + COLS, "shape");
        NS_TEST_EXPECT_MSG_EQ(std::memcmp(b->Labels(), fresh.labels.data(), N), 0, "labels");
        NS_TEST_EXPECT_MSG_EQ(std::memcmp(b->Pixels(0), fresh.pixels.data(), fresh.pixels.size()),
                              0,
                              "pixels");
        bool intact = true;
        for (uint32_t i = 0; i < N; ++i)
        {
            intact = intact && b->SampleIntact(i);
        }
        NS_TEST_EXPECT_MSG_EQ(intact, true, "every sample matches its CRC-32");

        // Load through the cache = Load without it = the formula, for fractions and seeds.
        for (double fraction : {1.0, 0.25, 0.05})
        {
            for (uint64_t seed : {3, 4})
            {
                auto cached = D2dFashionMnist::Load(dir, "train", fraction, seed, cache);
                auto uncached = D2dFashionMnist::Load(dir, "train", fraction, seed, "");
                NS_TEST_EXPECT_MSG_EQ(SameData(*cached, *uncached),
                                      true,
                                      "fraction " << fraction << " seed " << seed);
                NS_TEST_EXPECT_MSG_EQ(cached->Size(),
                                      static_cast<std::size_t>(std::llround(fraction * N)),
                                      "size, fraction " << fraction);
                NS_TEST_EXPECT_MSG_EQ(Mismatches(*cached, 0, 0), 0u, "formula " << fraction);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(decodes, 1u, "Load used the entry (no decode)");

        // A changed source invalidates the entry, even with its inode, size and time kept (the
        // files are stored gzip, rewritten in place, their times put back): the gzip trailer
        // (CRC-32 of the data) differs.
        struct stat imgBefore = {};
        struct stat labBefore = {};
        stat(img.c_str(), &imgBefore);
        stat(lab.c_str(), &labBefore);
        WriteSources(dir, 1, 0);
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
            NS_TEST_EXPECT_MSG_EQ(kept, true, path << ": same inode, size and time");
        }
        auto c = D2dIdxCache::Open(img, lab, cache, decode);
        NS_TEST_EXPECT_MSG_EQ(c->GetOrigin(), D2dIdxCache::BUILT, "changed images: rebuilt");
        NS_TEST_EXPECT_MSG_EQ(decodes, 2u, "decoded again");
        auto shifted = D2dFashionMnist::Load(dir, "train", 0.25, 3, cache);
        NS_TEST_EXPECT_MSG_EQ(Mismatches(*shifted, 1, 0), 0u, "the new pixels");
        NS_TEST_EXPECT_MSG_EQ(SameData(*shifted, *D2dFashionMnist::Load(dir, "train", 0.25, 3, "")),
                              true,
                              "= a fresh decode");
        // Labels alone changed: the entry records both sources.
        WriteSources(dir, 1, 3);
        auto d = D2dIdxCache::Open(img, lab, cache, decode);
        NS_TEST_EXPECT_MSG_EQ(d->GetOrigin(), D2dIdxCache::BUILT, "changed labels: rebuilt");
        NS_TEST_EXPECT_MSG_EQ(Mismatches(*D2dFashionMnist::Load(dir, "train", 1, 1, cache), 1, 3),
                              0u,
                              "the new labels");
        a.reset();
        b.reset();
        c.reset();
        d.reset();

        // Corrupt entries: refused (the header, size, labels) or caught on access (a sample's
        // pixels), and rebuilt; the data stay right.
        const auto good = FileBytes(entry);
        std::vector<uint8_t> want(N);
        for (uint32_t i = 0; i < N; ++i)
        {
            want[i] = uint8_t((i + 3) % 10);
        }
        const auto labelsAt3 =
            std::search(good.begin(), good.end(), want.begin(), want.end()) - good.begin();
        NS_TEST_ASSERT_MSG_LT(std::size_t(labelsAt3), good.size(), "labels found in the entry");

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
            SetFileBytes(entry, bytes);
            auto e = D2dIdxCache::Open(img, lab, cache, decode);
            NS_TEST_EXPECT_MSG_EQ(e->GetOrigin(), dmg.open, dmg.what);
            if (dmg.open == D2dIdxCache::MAPPED)
            {
                NS_TEST_EXPECT_MSG_EQ(e->SampleIntact(N - 1),
                                      false,
                                      dmg.what << ": CRC-32 catches it");
                NS_TEST_EXPECT_MSG_EQ(e->SampleIntact(0), true, dmg.what << ": others intact");
                SetFileBytes(entry, bytes); // Open may not rewrite it: Load must
            }
            e.reset();
            auto loaded = D2dFashionMnist::Load(dir, "train", 1, 1, cache);
            NS_TEST_EXPECT_MSG_EQ(Mismatches(*loaded, 1, 3), 0u, dmg.what << ": data right");
            NS_TEST_EXPECT_MSG_EQ((FileBytes(entry) == good), true, dmg.what << ": entry rebuilt");
            NS_TEST_EXPECT_MSG_EQ(D2dIdxCache::Open(img, lab, cache, decode)->GetOrigin(),
                                  D2dIdxCache::MAPPED,
                                  dmg.what << ": then mapped");
        }

        // No cache, or an unusable cache directory: decoded, nothing written, data right.
        auto off = D2dIdxCache::Open(img, lab, "", decode);
        NS_TEST_EXPECT_MSG_EQ(off->GetOrigin(), D2dIdxCache::UNCACHED, "cache off");
        SetFileBytes(dir + "/plain-file", {1, 2, 3});
        auto blocked = D2dIdxCache::Open(img, lab, dir + "/plain-file/cache", decode);
        NS_TEST_EXPECT_MSG_EQ(blocked->GetOrigin(), D2dIdxCache::UNCACHED, "unwritable dir");
        NS_TEST_EXPECT_MSG_EQ(std::memcmp(blocked->Pixels(0),
                                          D2dFashionMnist::DecodeIdx(img, lab).pixels.data(),
                                          N * ROWS * COLS),
                              0,
                              "unwritable dir: data decoded");
        // A missing source is the decoder's error, cache or not.
        std::remove(img.c_str());
        std::string msg =
            ErrorOf<std::runtime_error>([&] { D2dFashionMnist::Load(dir, "train", 1, 1, cache); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "dataDir: " + img + ": missing"), true, msg);

        // Where the cache lives.
        const char* saved = std::getenv("D2DLEARN_CACHE_DIR");
        const std::string savedValue = saved ? saved : "";
        setenv("D2DLEARN_CACHE_DIR", "/some/dir", 1);
        NS_TEST_EXPECT_MSG_EQ(D2dIdxCache::DefaultDir(), "/some/dir", "D2DLEARN_CACHE_DIR");
        setenv("D2DLEARN_CACHE_DIR", "off", 1);
        NS_TEST_EXPECT_MSG_EQ(D2dIdxCache::DefaultDir(), "", "off");
        unsetenv("D2DLEARN_CACHE_DIR");
        const char* xdg = std::getenv("XDG_CACHE_HOME");
        const std::string xdgValue = xdg ? xdg : "";
        setenv("XDG_CACHE_HOME", "/xdg", 1);
        NS_TEST_EXPECT_MSG_EQ(D2dIdxCache::DefaultDir(), "/xdg/d2dlearn", "XDG_CACHE_HOME");
        xdg ? setenv("XDG_CACHE_HOME", xdgValue.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
        if (saved)
        {
            setenv("D2DLEARN_CACHE_DIR", savedValue.c_str(), 1);
        }
        std::filesystem::remove_all(dir);
    }
};

/**
 * \brief The real Fashion-MNIST files (Debian's dataset-fashion-mnist).
 */
class D2dFashionMnistTestCase : public TestCase
{
  public:
    D2dFashionMnistTestCase()
        : TestCase("Fashion-MNIST: sizes, classes, pixel range, fractions, errors")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = D2dFashionMnist::DefaultDir();
        auto train = D2dFashionMnist::Load(dir, "train", 1.0, 1);
        NS_TEST_ASSERT_MSG_EQ(train->Size(), 60000u, "60,000 training images");
        NS_TEST_EXPECT_MSG_EQ(train->name, "fashion-mnist-train", "name");
        NS_TEST_EXPECT_MSG_EQ(train->FeatureSize(), 784u, "28 x 28");
        auto counts = train->ClassCounts();
        for (uint32_t c = 0; c < 10; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(counts[c], 6000u, "6000 per class, class " << c);
        }
        auto [lo, hi] = std::minmax_element(train->features.begin(), train->features.end());
        NS_TEST_EXPECT_MSG_EQ(*lo, 0.0f, "min pixel");
        NS_TEST_EXPECT_MSG_EQ(*hi, 1.0f, "max pixel 255/255");
        // Literals from Python's gzip: first labels and image 0's pixel sum 76247 / 255.
        const std::vector<int64_t> first = {9, 0, 0, 3, 0, 2, 7, 2, 5, 5};
        NS_TEST_EXPECT_MSG_EQ(std::equal(first.begin(), first.end(), train->labels.begin()),
                              true,
                              "first training labels");
        double sum0 = std::accumulate(train->Sample(0), train->Sample(0) + 784, 0.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(sum0, 76247.0 / 255.0, 1e-3, "image 0 pixel sum");
        train.reset();

        auto test = D2dFashionMnist::Load(dir, "test", 1.0, 1);
        NS_TEST_ASSERT_MSG_EQ(test->Size(), 10000u, "10,000 test images");
        const std::vector<int64_t> firstTest = {9, 2, 1, 1, 6, 1, 4, 6, 5, 7};
        NS_TEST_EXPECT_MSG_EQ(std::equal(firstTest.begin(), firstTest.end(), test->labels.begin()),
                              true,
                              "first test labels");
        double sumT = std::accumulate(test->Sample(0), test->Sample(0) + 784, 0.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(sumT, 33456.0 / 255.0, 1e-3, "test image 0 pixel sum");

        auto tenth = D2dFashionMnist::Load(dir, "train", 0.1, 7);
        NS_TEST_ASSERT_MSG_EQ(tenth->Size(), 6000u, "fraction 0.1 of train keeps 6000");
        for (auto n : tenth->ClassCounts())
        {
            NS_TEST_EXPECT_MSG_EQ(n, 600u, "stratified: 600 per class");
        }
        auto a = D2dFashionMnist::Load(dir, "test", 0.25, 3);
        auto b = D2dFashionMnist::Load(dir, "test", 0.25, 3);
        auto c = D2dFashionMnist::Load(dir, "test", 0.25, 4);
        NS_TEST_EXPECT_MSG_EQ(a->Size(), 2500u, "round(0.25 x 10000)");
        NS_TEST_EXPECT_MSG_EQ((a->features == b->features && a->labels == b->labels),
                              true,
                              "same seed, same subset");
        NS_TEST_EXPECT_MSG_EQ((a->features == c->features), false, "other seed, other subset");

        std::string msg =
            ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "valid", 1, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "split: 'valid'"), true, msg);
        for (double f : {0.0, -0.5, 1.5, std::nan("")})
        {
            msg = ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "test", f, 1); });
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, "fraction: ") && Contains(msg, "(0, 1]"),
                                  true,
                                  msg);
        }
        msg = ErrorOf<std::invalid_argument>([&] { D2dFashionMnist::Load(dir, "test", 1e-6, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "fraction: "), true, "keeps no sample: " << msg);
    }
};

/**
 * \brief IID shards: disjoint, covering, sizes within one; deterministic; pool respected.
 */
class D2dIidTestCase : public TestCase
{
  public:
    D2dIidTestCase()
        : TestCase("IID partition and hold-out")
    {
    }

  private:
    void DoRun() override
    {
        auto ds = LabelSet(std::vector<std::size_t>(10, 100)); // 1000 samples
        ds->features.resize(1003, 0.0f);
        ds->labels.insert(ds->labels.end(), {0, 1, 2});
        auto shards = D2dPartitioner::Iid(*ds, 10, 5);
        std::set<std::size_t> all;
        NS_TEST_EXPECT_MSG_EQ(Disjoint(shards, all), true, "disjoint");
        NS_TEST_EXPECT_MSG_EQ(all.size(), 1003u, "covering");
        std::size_t mn = SIZE_MAX;
        std::size_t mx = 0;
        for (const auto& s : shards)
        {
            mn = std::min(mn, s.indices.size());
            mx = std::max(mx, s.indices.size());
            NS_TEST_EXPECT_MSG_EQ(std::is_sorted(s.indices.begin(), s.indices.end()),
                                  true,
                                  "ascending");
            NS_TEST_EXPECT_MSG_EQ(s.labelMap.empty(), true, "identity map");
        }
        NS_TEST_EXPECT_MSG_EQ(mn, 100u, "sizes 100..101");
        NS_TEST_EXPECT_MSG_EQ(mx, 101u, "sizes 100..101");
        auto again = D2dPartitioner::Iid(*ds, 10, 5);
        auto other = D2dPartitioner::Iid(*ds, 10, 6);
        NS_TEST_EXPECT_MSG_EQ((again[3].indices == shards[3].indices), true, "deterministic");
        NS_TEST_EXPECT_MSG_EQ((other[3].indices == shards[3].indices), false, "seed matters");

        // Hold-out X* (Fan et al. 2023: 5 %, classes equal), then shards of what remains.
        auto unequal = LabelSet({1000, 20, 500, 500, 500, 500, 500, 500, 500, 500}); // 5020
        std::vector<std::size_t> remaining;
        auto xstar = D2dPartitioner::HoldOut(*unequal, 500, 9, &remaining);
        NS_TEST_EXPECT_MSG_EQ(xstar.size(), 500u, "m samples held out");
        NS_TEST_EXPECT_MSG_EQ(remaining.size(), 4520u, "the rest remains");
        auto hc = unequal->ClassCounts(&xstar);
        // Water-filling: class 1 gives its 20, the other 480 spread over 9 classes: 53 or 54.
        NS_TEST_EXPECT_MSG_EQ(hc[1], 20u, "small class gives all it has");
        for (uint32_t c : {0u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u})
        {
            NS_TEST_EXPECT_MSG_EQ((hc[c] == 53 || hc[c] == 54),
                                  true,
                                  "class " << c << ": " << hc[c]);
        }
        std::set<std::size_t> held(xstar.begin(), xstar.end());
        auto parts = D2dPartitioner::Dirichlet(*unequal, 7, 0.5, 9, &remaining);
        std::set<std::size_t> used;
        NS_TEST_EXPECT_MSG_EQ(Disjoint(parts, used), true, "disjoint");
        NS_TEST_EXPECT_MSG_EQ(used.size(), remaining.size(), "partition covers the remaining pool");
        std::size_t overlap = 0;
        for (auto i : used)
        {
            overlap += held.count(i);
        }
        NS_TEST_EXPECT_MSG_EQ(overlap, 0u, "no device holds a sample of X*");
        auto iidRest = D2dPartitioner::Iid(*unequal, 7, 9, &remaining);
        used.clear();
        Disjoint(iidRest, used);
        NS_TEST_EXPECT_MSG_EQ((std::vector<std::size_t>(used.begin(), used.end()) == remaining),
                              true,
                              "IID over the pool covers exactly the pool");

        // Regression hold-out: m random samples.
        auto reg = D2dSyntheticData::PolynomialRegression({0, 1}, 0, 1, 1, 100, 1);
        auto rx = D2dPartitioner::HoldOut(*reg, 30, 2, &remaining);
        NS_TEST_EXPECT_MSG_EQ(rx.size() + remaining.size(), 100u, "regression hold-out");

        std::string msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 0, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "nDevices: 0") && Contains(msg, "[1, 1003]"),
                              true,
                              msg);
        msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 1004, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "nDevices: 1004"), true, msg);
        msg =
            ErrorOf<std::invalid_argument>([&] { D2dPartitioner::HoldOut(*ds, 2000, 1, nullptr); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "m: 2000"), true, msg);
        std::vector<std::size_t> badPool = {1, 5000};
        msg = ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Iid(*ds, 1, 1, &badPool); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "pool: "), true, msg);
    }
};

/**
 * \brief Dirichlet label skew: each class's shares over N devices follow Dir(alpha 1_N),
 * so a share's mean is 1/N and its variance (1/N)(1 - 1/N)/(N alpha + 1) (Beta marginal).
 *
 * Over S seeds x K classes = 1000 Dirichlet vectors, the mean of device 0's share is
 * checked within 4 sd of the mean of 1000 draws (sqrt(var/1000)); the mean of
 * (share - 1/N)^2 over all 10,000 shares within 4 sd computed as if only the 1000 vectors
 * were independent draws (conservative): sd = sqrt((mu4 - var^2)/1000), mu4 the Beta's
 * fourth central moment, written below.
 */
class D2dDirichletTestCase : public TestCase
{
  public:
    D2dDirichletTestCase()
        : TestCase("Dirichlet partition: share mean and variance against Dir(alpha)")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 10;
        const uint32_t k = 10;
        auto ds = LabelSet(std::vector<std::size_t>(k, 1000));
        double meanTopShare[3];
        const double alphas[3] = {0.1, 1.0, 100.0};
        for (int ai = 0; ai < 3; ++ai)
        {
            const double alpha = alphas[ai];
            const double a = alpha;
            const double b = (n - 1) * alpha;
            const double m = 1.0 / n;
            const double var = a * b / ((a + b) * (a + b) * (a + b + 1));
            auto raw = [a, b](int r) {
                double x = 1;
                for (int i = 0; i < r; ++i)
                {
                    x *= (a + i) / (a + b + i);
                }
                return x;
            };
            const double mu4 = raw(4) - 4 * m * raw(3) + 6 * m * m * raw(2) - 3 * m * m * m * m;
            const int seeds = 100;
            double sumDev0 = 0;
            double sumSq = 0;
            double topShare = 0;
            for (int s = 0; s < seeds; ++s)
            {
                auto shards = D2dPartitioner::Dirichlet(*ds, n, alpha, 1000 + s);
                std::set<std::size_t> all;
                NS_TEST_ASSERT_MSG_EQ(Disjoint(shards, all), true, "disjoint");
                NS_TEST_ASSERT_MSG_EQ(all.size(), ds->Size(), "covering");
                for (uint32_t j = 0; j < n; ++j)
                {
                    auto cnt = ds->ClassCounts(&shards[j].indices);
                    std::size_t tot = shards[j].indices.size();
                    topShare += double(*std::max_element(cnt.begin(), cnt.end())) / double(tot) /
                                (seeds * n);
                    for (uint32_t c = 0; c < k; ++c)
                    {
                        const double share = cnt[c] / 1000.0;
                        if (j == 0)
                        {
                            sumDev0 += share;
                        }
                        sumSq += (share - m) * (share - m);
                    }
                }
            }
            const double vectors = seeds * k;
            const double dev0Mean = sumDev0 / vectors;
            const double varHat = sumSq / (vectors * n);
            NS_TEST_EXPECT_MSG_EQ_TOL(dev0Mean,
                                      m,
                                      4 * std::sqrt(var / vectors),
                                      "alpha " << alpha << ": mean share of device 0");
            NS_TEST_EXPECT_MSG_EQ_TOL(varHat,
                                      var,
                                      4 * std::sqrt((mu4 - var * var) / vectors),
                                      "alpha " << alpha << ": share variance");
            meanTopShare[ai] = topShare;
        }
        // Per device: the share of its largest class falls as alpha grows (0.1 very skewed,
        // 100 near the IID 1/K plus noise).
        NS_TEST_EXPECT_MSG_GT(meanTopShare[0], 0.5, "alpha 0.1: one class dominates a device");
        NS_TEST_EXPECT_MSG_GT(meanTopShare[0], meanTopShare[1] + 0.1, "0.1 more skewed than 1");
        NS_TEST_EXPECT_MSG_GT(meanTopShare[1], meanTopShare[2] + 0.1, "1 more skewed than 100");
        NS_TEST_EXPECT_MSG_LT(meanTopShare[2], 0.15, "alpha 100: close to 1/K");

        // Tiny alpha, many devices: every device still gets data.
        auto sparse = D2dPartitioner::Dirichlet(*ds, 50, 0.01, 3);
        std::set<std::size_t> all;
        NS_TEST_EXPECT_MSG_EQ(Disjoint(sparse, all), true, "disjoint");
        NS_TEST_EXPECT_MSG_EQ(all.size(), ds->Size(), "covering");
        for (const auto& s : sparse)
        {
            NS_TEST_EXPECT_MSG_GT(s.indices.size(), 0u, "no empty device");
        }
        for (double bad : {0.0, -1.0, std::nan("")})
        {
            std::string msg =
                ErrorOf<std::invalid_argument>([&] { D2dPartitioner::Dirichlet(*ds, 5, bad, 1); });
            NS_TEST_EXPECT_MSG_EQ(Contains(msg, "alpha: ") && Contains(msg, "(0, inf)"), true, msg);
        }
    }
};

/**
 * \brief Labels per device (Wagle et al. 2025, App. C): 3 labels at 70/20/10 %, equal sizes.
 */
class D2dLabelsPerDeviceTestCase : public TestCase
{
  public:
    D2dLabelsPerDeviceTestCase()
        : TestCase("labels per device: 70, 20, 10 % of 3 labels, equal device sizes")
    {
    }

  private:
    void DoRun() override
    {
        auto ds = LabelSet(std::vector<std::size_t>(10, 1000));
        const uint32_t n = 25;
        auto shards = D2dPartitioner::LabelsPerDevice(*ds, n, 3, {0.7, 0.2, 0.1}, 11);
        std::set<std::size_t> all;
        NS_TEST_EXPECT_MSG_EQ(Disjoint(shards, all), true, "disjoint");
        const std::size_t s = shards[0].indices.size();
        // 10,000 / 25 = 400 at most; balanced label loads keep it close.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s, 380u, "devices get nearly all the data: s = " << s);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(s, 400u, "s <= pool / devices");
        std::set<std::vector<std::size_t>> labelSets;
        for (const auto& sh : shards)
        {
            NS_TEST_EXPECT_MSG_EQ(sh.indices.size(), s, "equal sizes");
            auto cnt = ds->ClassCounts(&sh.indices);
            std::vector<std::size_t> present;
            for (uint32_t c = 0; c < 10; ++c)
            {
                if (cnt[c] > 0)
                {
                    present.push_back(c);
                }
            }
            NS_TEST_EXPECT_MSG_EQ(present.size(), 3u, "3 labels per device");
            labelSets.insert(present);
            std::sort(cnt.rbegin(), cnt.rend());
            NS_TEST_EXPECT_MSG_EQ_TOL(double(cnt[0]), 0.7 * s, 1.0, "top label 70 %");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(cnt[1]), 0.2 * s, 1.0, "next 20 %");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(cnt[2]), 0.1 * s, 1.0, "next 10 %");
        }
        NS_TEST_EXPECT_MSG_GT(labelSets.size(), 10u, "labels are chosen per device, not fixed");

        auto two = D2dPartitioner::LabelsPerDevice(*ds, 10, 2, {}, 4);
        for (const auto& sh : two)
        {
            auto cnt = ds->ClassCounts(&sh.indices);
            std::sort(cnt.rbegin(), cnt.rend());
            NS_TEST_EXPECT_MSG_EQ(cnt[2], 0u, "2 labels");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(cnt[0] - cnt[1], 1u, "equal shares when empty");
            NS_TEST_EXPECT_MSG_EQ(cnt[0] + cnt[1], 1000u, "10,000 / 10 each");
        }
        auto again = D2dPartitioner::LabelsPerDevice(*ds, n, 3, {0.7, 0.2, 0.1}, 11);
        NS_TEST_EXPECT_MSG_EQ((again[7].indices == shards[7].indices), true, "deterministic");

        std::string msg = ErrorOf<std::invalid_argument>(
            [&] { D2dPartitioner::LabelsPerDevice(*ds, 5, 11, {}, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "k: 11") && Contains(msg, "[1, 10]"), true, msg);
        msg = ErrorOf<std::invalid_argument>(
            [&] { D2dPartitioner::LabelsPerDevice(*ds, 5, 0, {}, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "k: 0"), true, msg);
        msg = ErrorOf<std::invalid_argument>([&] {
            D2dPartitioner::LabelsPerDevice(*ds, 5, 3, {0.7, 0.2, 0.05}, 1);
        });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "proportions: sum to 0.95"), true, msg);
        msg = ErrorOf<std::invalid_argument>([&] {
            D2dPartitioner::LabelsPerDevice(*ds, 5, 3, {0.5, 0.5}, 1);
        });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "proportions: has 2 values"), true, msg);
    }
};

/**
 * \brief Quantity skew sizes follow the Zipf law n_r = P (r+1)^-skew / sum_q (q+1)^-skew.
 */
class D2dQuantitySkewTestCase : public TestCase
{
  public:
    D2dQuantitySkewTestCase()
        : TestCase("quantity skew: sizes follow the power law")
    {
    }

  private:
    void DoRun() override
    {
        auto ds = LabelSet(std::vector<std::size_t>(10, 1000));
        for (double skew : {0.0, 1.0, 2.0})
        {
            auto shards = D2dPartitioner::QuantitySkew(*ds, 10, skew, 3);
            std::set<std::size_t> all;
            NS_TEST_EXPECT_MSG_EQ(Disjoint(shards, all), true, "disjoint");
            NS_TEST_EXPECT_MSG_EQ(all.size(), 10000u, "covering");
            std::vector<std::size_t> sizes;
            for (const auto& s : shards)
            {
                sizes.push_back(s.indices.size());
            }
            std::sort(sizes.rbegin(), sizes.rend());
            double h = 0;
            for (int r = 1; r <= 10; ++r)
            {
                h += std::pow(r, -skew);
            }
            for (int r = 0; r < 10; ++r)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(double(sizes[r]),
                                          10000.0 * std::pow(r + 1, -skew) / h,
                                          1.0,
                                          "skew " << skew << " rank " << r);
            }
        }
        auto steep = D2dPartitioner::QuantitySkew(*ds, 200, 3.0, 3);
        std::set<std::size_t> all;
        Disjoint(steep, all);
        NS_TEST_EXPECT_MSG_EQ(all.size(), 10000u, "covering");
        for (const auto& s : steep)
        {
            NS_TEST_EXPECT_MSG_GT(s.indices.size(), 0u, "at least one sample each");
        }
        std::string msg =
            ErrorOf<std::invalid_argument>([&] { D2dPartitioner::QuantitySkew(*ds, 10, -1, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "skew: -1") && Contains(msg, "[0, inf)"), true, msg);
    }
};

/**
 * \brief Label flips of low-quality devices (Fan et al. 2023): every label wrong.
 */
class D2dFlipTestCase : public TestCase
{
  public:
    D2dFlipTestCase()
        : TestCase("label flips: derangement and shift, composition, LabelOf")
    {
    }

  private:
    void DoRun() override
    {
        auto ds = LabelSet(std::vector<std::size_t>(10, 50));
        auto shards = D2dPartitioner::Iid(*ds, 10, 1);
        D2dPartitioner::FlipLabels(shards, {2, 9}, 10, 8);
        for (uint32_t j = 0; j < 10; ++j)
        {
            if (j != 2 && j != 9)
            {
                NS_TEST_EXPECT_MSG_EQ(shards[j].labelMap.empty(), true, "others untouched");
                continue;
            }
            auto map = shards[j].labelMap;
            NS_TEST_ASSERT_MSG_EQ(map.size(), 10u, "one entry per class");
            auto sorted = map;
            std::sort(sorted.begin(), sorted.end());
            for (int64_t c = 0; c < 10; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(sorted[c], c, "a permutation");
                NS_TEST_EXPECT_MSG_NE(map[c], c, "no label stays right");
            }
            for (std::size_t i = 0; i < shards[j].indices.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_NE(shards[j].LabelOf(*ds, i),
                                      ds->labels[shards[j].indices[i]],
                                      "every label the device sees is wrong");
            }
        }
        NS_TEST_EXPECT_MSG_EQ((shards[2].labelMap != shards[9].labelMap), true, "per-device maps");
        auto again = D2dPartitioner::Iid(*ds, 10, 1);
        D2dPartitioner::FlipLabels(again, {2, 9}, 10, 8);
        NS_TEST_EXPECT_MSG_EQ((again[9].labelMap == shards[9].labelMap), true, "deterministic");

        D2dPartitioner::FlipLabels(again, {0, 0}, 10, 8, D2dFlipMode::SHIFT);
        for (int64_t c = 0; c < 10; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(again[0].labelMap[c], (c + 2) % 10, "shift twice = c + 2");
        }
        NS_TEST_EXPECT_MSG_EQ(again[0].LabelOf(*ds, 0),
                              (ds->labels[again[0].indices[0]] + 2) % 10,
                              "LabelOf");
        std::string msg =
            ErrorOf<std::invalid_argument>([&] { D2dPartitioner::FlipLabels(again, {10}, 10, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "devices: device 10"), true, msg);
    }
};

/**
 * \brief Synthetic data: sample moments against the generators' parameters.
 *
 * Tolerances are 4 standard errors: a mean of n N(mu, s^2) draws within 4 s / sqrt(n), a
 * variance within 4 s^2 sqrt(2 / n) (normal) and of a Unif[a, b] within 4 sqrt(var(X^2)/n).
 */
class D2dSyntheticTestCase : public TestCase
{
  public:
    D2dSyntheticTestCase()
        : TestCase("synthetic data: Gaussian mixture, polynomial and linear regression")
    {
    }

  private:
    void DoRun() override
    {
        // Fan et al. 2023, sec. 5.1: 4 classes N(mu_c, I), equal shares.
        const std::size_t n = 40000;
        auto means = D2dSyntheticData::PaperGaussianMeans();
        auto g = D2dSyntheticData::GaussianMixture(means, 1.0, {}, n, 1);
        NS_TEST_ASSERT_MSG_EQ(g->Size(), n, "size");
        NS_TEST_EXPECT_MSG_EQ(g->numClasses, 4u, "classes");
        NS_TEST_EXPECT_MSG_EQ(g->FeatureSize(), 2u, "2-D");
        auto counts = g->ClassCounts();
        for (uint32_t c = 0; c < 4; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(counts[c], 10000u, "X* sampled equally from the P^c");
            for (int k = 0; k < 2; ++k)
            {
                double s = 0;
                double s2 = 0;
                for (std::size_t i = 0; i < n; ++i)
                {
                    if (g->labels[i] == c)
                    {
                        s += g->Sample(i)[k];
                        s2 += g->Sample(i)[k] * g->Sample(i)[k];
                    }
                }
                const double mean = s / 10000;
                const double var = s2 / 10000 - mean * mean;
                NS_TEST_EXPECT_MSG_EQ_TOL(mean, means[c][k], 4 / 100.0, "class mean " << c);
                NS_TEST_EXPECT_MSG_EQ_TOL(var, 1.0, 4 * std::sqrt(2.0 / 10000), "Sigma = I");
            }
        }
        auto w = D2dSyntheticData::GaussianMixture(means, 0.5, {1, 1, 2, 0}, 1000, 2);
        auto wc = w->ClassCounts();
        NS_TEST_EXPECT_MSG_EQ((wc == std::vector<std::size_t>{250, 250, 500, 0}), true, "weights");
        auto noisy = D2dSyntheticData::FlipLabelFraction(*w, 0.1, 3);
        std::size_t changed = 0;
        for (std::size_t i = 0; i < w->Size(); ++i)
        {
            changed += noisy->labels[i] != w->labels[i];
        }
        NS_TEST_EXPECT_MSG_EQ(changed,
                              100u,
                              "10 % of the labels flipped (Fan et al. 2023, sec. 5.1)");
        NS_TEST_EXPECT_MSG_EQ((noisy->features == w->features), true, "features kept");

        // Fan et al. 2023, App. A.1: x ~ N(2, 1), y = f(x) + N(0, 1).
        auto f = D2dSyntheticData::PaperPolynomial();
        auto fx = [](double x) {
            return 0.5 * x * x * x + 0.3 * x * x - 5 * x + 4;
        };
        const std::size_t m = 20000;
        auto p = D2dSyntheticData::PolynomialRegression(f, 2.0, 1.0, 1.0, m, 4);
        double sx = 0;
        double sx2 = 0;
        double se = 0;
        double se2 = 0;
        for (std::size_t i = 0; i < m; ++i)
        {
            const double x = p->features[i];
            const double e = p->targets[i] - fx(x);
            sx += x;
            sx2 += x * x;
            se += e;
            se2 += e * e;
        }
        const double xm = sx / m;
        NS_TEST_EXPECT_MSG_EQ_TOL(xm, 2.0, 4 / std::sqrt(double(m)), "x mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(sx2 / m - xm * xm, 1.0, 4 * std::sqrt(2.0 / m), "x variance");
        NS_TEST_EXPECT_MSG_EQ_TOL(se / m, 0.0, 4 / std::sqrt(double(m)), "noise mean");
        // float targets add rounding of ~1e-6 relative; negligible against the tolerance.
        NS_TEST_EXPECT_MSG_EQ_TOL(se2 / m, 1.0, 4 * std::sqrt(2.0 / m), "noise variance");
        auto grid = D2dSyntheticData::PolynomialGrid(f, -4, 4, 50);
        NS_TEST_ASSERT_MSG_EQ(grid->Size(), 50u, "50 points");
        NS_TEST_EXPECT_MSG_EQ_TOL(grid->features[0], -4.0f, 1e-6f, "first");
        NS_TEST_EXPECT_MSG_EQ_TOL(grid->features[49], 4.0f, 1e-6f, "last");
        NS_TEST_EXPECT_MSG_EQ_TOL(grid->features[1], -4.0f + 8.0f / 49.0f, 1e-6f, "spacing");
        NS_TEST_EXPECT_MSG_EQ_TOL(grid->targets[49], fx(4.0), 1e-4, "f(4) = 25.6");

        // Lalitha et al. 2018, Example 1: theta* = (-0.3, 0.5, 0.8), noise sd 0.8.
        const std::size_t q = 20000;
        auto userA = D2dSyntheticData::Example1(0, q, 5);
        auto userB = D2dSyntheticData::Example1(1, q, 5);
        auto testSet = D2dSyntheticData::Example1(-1, q, 5);
        const double th[3] = {-0.3, 0.5, 0.8};

        struct U
        {
            std::shared_ptr<D2dDataset> d;
            double half[2]; // half-widths of the uniform ranges
        };

        for (const U& u : {U{userA, {1.0, 0.0}}, U{userB, {0.0, 1.5}}, U{testSet, {1.0, 1.5}}})
        {
            double s[2] = {0, 0};
            double s2[2] = {0, 0};
            double r2 = 0;
            double r = 0;
            bool inRange = true;
            for (std::size_t i = 0; i < q; ++i)
            {
                const float* x = u.d->Sample(i);
                double y = th[0];
                for (int k = 0; k < 2; ++k)
                {
                    s[k] += x[k];
                    s2[k] += x[k] * x[k];
                    inRange = inRange && std::fabs(x[k]) <= u.half[k];
                    y += th[k + 1] * x[k];
                }
                r += u.d->targets[i] - y;
                r2 += (u.d->targets[i] - y) * (u.d->targets[i] - y);
            }
            NS_TEST_EXPECT_MSG_EQ(inRange, true, u.d->name << ": x in its range (0 if unseen)");
            for (int k = 0; k < 2; ++k)
            {
                const double v = u.half[k] * u.half[k] / 3; // Unif[-h, h]
                // var(X^2) = h^4/5 - h^4/9 = 4 h^4 / 45
                const double sdv = std::sqrt(4 * std::pow(u.half[k], 4) / 45 / q);
                NS_TEST_EXPECT_MSG_EQ_TOL(s[k] / q, 0.0, 4 * std::sqrt(v / q) + 1e-12, u.d->name);
                NS_TEST_EXPECT_MSG_EQ_TOL(s2[k] / q,
                                          v,
                                          4 * sdv + 1e-12,
                                          u.d->name << " var x" << k);
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(r / q, 0.0, 4 * 0.8 / std::sqrt(double(q)), "noise mean");
            NS_TEST_EXPECT_MSG_EQ_TOL(r2 / q,
                                      0.64,
                                      4 * 0.64 * std::sqrt(2.0 / q),
                                      "alpha^2 = 0.64");
        }
        NS_TEST_EXPECT_MSG_EQ((userA->targets != userB->targets), true, "users' streams differ");

        std::string msg = ErrorOf<std::invalid_argument>(
            [&] { D2dSyntheticData::GaussianMixture(means, 0, {}, 10, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "sd: 0"), true, msg);
        msg = ErrorOf<std::invalid_argument>([&] { D2dSyntheticData::Example1(2, 10, 1); });
        NS_TEST_EXPECT_MSG_EQ(Contains(msg, "user: 2"), true, msg);
    }
};

/**
 * \brief The data layer's random source: uniform integers and Gamma moments, and the
 * apportionment.
 */
class D2dDataRngTestCase : public TestCase
{
  public:
    D2dDataRngTestCase()
        : TestCase("data RNG: Gamma moments, apportionment, stream independence")
    {
    }

  private:
    void DoRun() override
    {
        // Gamma(shape, 1): mean shape, variance shape. 4 standard errors.
        for (double shape : {0.1, 0.5, 1.0, 3.0})
        {
            D2dDataRng rng(1, 77);
            const int n = 50000;
            double s = 0;
            double s2 = 0;
            for (int i = 0; i < n; ++i)
            {
                const double g = rng.Gamma(shape);
                s += g;
                s2 += g * g;
            }
            const double mean = s / n;
            const double var = s2 / n - mean * mean;
            // var of the sample mean shape/n; of the sample variance ~ (mu4 - var^2)/n with
            // mu4 = 3 shape^2 + 6 shape for the Gamma.
            NS_TEST_EXPECT_MSG_EQ_TOL(mean,
                                      shape,
                                      4 * std::sqrt(shape / n),
                                      "Gamma mean " << shape);
            NS_TEST_EXPECT_MSG_EQ_TOL(
                var,
                shape,
                4 * std::sqrt((3 * shape * shape + 6 * shape - shape * shape) / n),
                "Gamma variance " << shape);
        }
        auto c = D2dApportion({0.7, 0.2, 0.1}, 333);
        NS_TEST_EXPECT_MSG_EQ((c == std::vector<std::size_t>{233, 67, 33}),
                              true,
                              "233.1, 66.6, 33.3");
        D2dDataRng a(5, 1);
        D2dDataRng b(5, 2);
        D2dDataRng a2(5, 1);
        NS_TEST_EXPECT_MSG_NE(a.Bits(), b.Bits(), "purposes give different streams");
        D2dDataRng a3(5, 1);
        NS_TEST_EXPECT_MSG_EQ(a2.Bits(), a3.Bits(), "same seed and purpose, same stream");
    }
};

/**
 * \brief The "d2d-data" test suite.
 */
class D2dDataTestSuite : public TestSuite
{
  public:
    D2dDataTestSuite()
        : TestSuite("d2d-data")
    {
        AddTestCase(new D2dDataRngTestCase);
        AddTestCase(new D2dIdxReaderTestCase);
        AddTestCase(new D2dIdxCacheTestCase);
        AddTestCase(new D2dFashionMnistTestCase);
        AddTestCase(new D2dIidTestCase);
        AddTestCase(new D2dDirichletTestCase);
        AddTestCase(new D2dLabelsPerDeviceTestCase);
        AddTestCase(new D2dQuantitySkewTestCase);
        AddTestCase(new D2dFlipTestCase);
        AddTestCase(new D2dSyntheticTestCase);
    }
};

/** Static instance. */
static D2dDataTestSuite g_d2dDataTestSuite;
