/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest tests of the readers of the published data formats (--dataset=cifar10,
 * cifar100, mnist, tensors, leaf): small files written here in the exact format (a few hundred
 * samples) read back exactly, with their shapes and labels; truncated, mis-sized,
 * mislabelled, wrong-magic and oversized-header files each refused with one line naming the
 * file. Torch-free. (Their fuzzing is in d2d-parser-fuzz-test.cc.)
 */

#include "d2d-test-gzip.h"

#include "ns3/d2d-cifar.h"
#include "ns3/d2d-data-rng.h"
#include "ns3/d2d-idx-folder.h"
#include "ns3/d2d-leaf.h"
#include "ns3/d2d-npy.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <zlib.h>

using namespace ns3;
namespace fs = std::filesystem;

namespace
{

/** A temporary folder, removed at the end of the test. */
class TempDir
{
  public:
    TempDir()
    {
        char tmpl[] = "/tmp/d2d-readers.XXXXXX";
        m_path = mkdtemp(tmpl);
    }

    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }

    /** \return the folder */
    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

/** \brief Write bytes to path (creating its folder). */
void
WriteFile(const std::string& path, const std::string& bytes)
{
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/** \return the pixel byte j of record r of a file (its "seed" s) */
uint8_t
Pixel(uint32_t s, uint32_t r, uint32_t j)
{
    return static_cast<uint8_t>((s * 131 + r * 7 + j * 13) % 256);
}

/** \return a CIFAR binary file of n records: labels r % classes (CIFAR-100: coarse r % 20,
 * fine r % 100), pixels Pixel(s, r, j) */
std::string
CifarFile(uint32_t n, bool cifar100, uint32_t s)
{
    std::string data;
    for (uint32_t r = 0; r < n; ++r)
    {
        if (cifar100)
        {
            data += static_cast<char>((r + s) % 20);
            data += static_cast<char>((r + s) % 100);
        }
        else
        {
            data += static_cast<char>((r + s) % 10);
        }
        for (uint32_t j = 0; j < 3072; ++j)
        {
            data += static_cast<char>(Pixel(s, r, j));
        }
    }
    return data;
}

/** \brief Expect f to throw a one-line std::runtime_error starting "dataDir: FILE: " and
 * holding want and "(accepted: ". */
template <typename F>
void
ExpectRefused(F f, const std::string& file, const std::string& want)
{
    try
    {
        f();
        ADD_FAILURE() << "accepted, expected: " << want;
    }
    catch (const std::runtime_error& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_EQ(what.rfind("dataDir: " + file + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(want), std::string::npos) << what;
        EXPECT_NE(what.find("(accepted: "), std::string::npos) << what;
    }
}

// CIFAR-10: 5 training batches of 60 records and a test batch of 40 read back exactly.
TEST(D2dCifarTest, Cifar10ReadsBackExactly)
{
    TempDir dir;
    for (uint32_t b = 1; b <= 5; ++b)
    {
        WriteFile(dir.Path() + "/data_batch_" + std::to_string(b) + ".bin",
                  CifarFile(60, false, b));
    }
    WriteFile(dir.Path() + "/test_batch.bin", CifarFile(40, false, 9));
    std::size_t read = 0;
    auto train = D2dCifar::Load(dir.Path(), "cifar10", "train", false, 1.0, 1, &read);
    EXPECT_EQ(read, 300u);
    ASSERT_EQ(train->Size(), 300u);
    EXPECT_EQ(train->featureShape, (std::vector<int64_t>{3, 32, 32}));
    EXPECT_EQ(train->numClasses, 10u);
    EXPECT_NO_THROW(train->Validate());
    for (uint32_t b = 1; b <= 5; ++b)
    {
        for (uint32_t r = 0; r < 60; ++r)
        {
            const std::size_t i = (b - 1) * 60 + r;
            ASSERT_EQ(train->labels[i], (r + b) % 10);
            for (uint32_t j = 0; j < 3072; j += 101)
            {
                ASSERT_EQ(train->Sample(i)[j], static_cast<float>(Pixel(b, r, j)) / 255.0f);
            }
        }
    }
    auto test = D2dCifar::Load(dir.Path(), "cifar10", "test", false, 1.0, 1, &read);
    EXPECT_EQ(read, 40u);
    EXPECT_EQ(test->Size(), 40u);
    // Red first: pixel 0 is channel 0, row 0, column 0; byte 1024 is green's first.
    EXPECT_EQ(test->Sample(3)[1024], static_cast<float>(Pixel(9, 3, 1024)) / 255.0f);
    EXPECT_FALSE(D2dCifar::MatchesPublished(300, 40));
}

// CIFAR-100: fine labels by default, coarse on request; the archive's sub-folder is found.
TEST(D2dCifarTest, Cifar100FineCoarseAndSubFolder)
{
    TempDir dir;
    WriteFile(dir.Path() + "/cifar-100-binary/train.bin", CifarFile(250, true, 0));
    WriteFile(dir.Path() + "/cifar-100-binary/test.bin", CifarFile(50, true, 3));
    auto fine = D2dCifar::Load(dir.Path(), "cifar100", "train", false, 1.0, 1);
    auto coarse = D2dCifar::Load(dir.Path(), "cifar100", "train", true, 1.0, 1);
    ASSERT_EQ(fine->Size(), 250u);
    ASSERT_EQ(coarse->Size(), 250u);
    EXPECT_EQ(fine->numClasses, 100u);
    EXPECT_EQ(coarse->numClasses, 20u);
    for (uint32_t r = 0; r < 250; ++r)
    {
        ASSERT_EQ(fine->labels[r], r % 100);
        ASSERT_EQ(coarse->labels[r], r % 20);
        ASSERT_EQ(fine->Sample(r)[3071], static_cast<float>(Pixel(0, r, 3071)) / 255.0f);
    }
    auto test = D2dCifar::Load(dir.Path() + "/cifar-100-binary", "cifar100", "test", false, 1, 1);
    EXPECT_EQ(test->labels[0], 3);
}

// --dataFraction: stratified per class, reproducible, in file order.
TEST(D2dCifarTest, FractionIsStratified)
{
    TempDir dir;
    WriteFile(dir.Path() + "/train.bin", CifarFile(300, true, 0));
    WriteFile(dir.Path() + "/test.bin", CifarFile(20, true, 0));
    auto a = D2dCifar::Load(dir.Path(), "cifar100", "train", true, 0.5, 7);
    auto b = D2dCifar::Load(dir.Path(), "cifar100", "train", true, 0.5, 7);
    ASSERT_EQ(a->Size(), 150u);
    EXPECT_EQ(a->labels, b->labels);
    EXPECT_EQ(a->features, b->features);
    std::size_t sum = 0;
    for (auto count : a->ClassCounts())
    {
        EXPECT_TRUE(count == 7 || count == 8) << count; // 15 per class: 7.5 kept
        sum += count;
    }
    EXPECT_EQ(sum, 150u);
    EXPECT_TRUE(std::is_sorted(a->labels.begin(), a->labels.begin() + 1)); // file order kept
}

// Bad files: each refused in one line naming the file, the record or what is wrong.
TEST(D2dCifarTest, BadFilesRefusedInOneLine)
{
    TempDir dir;
    const std::string d = dir.Path();
    for (uint32_t b = 1; b <= 5; ++b)
    {
        WriteFile(d + "/data_batch_" + std::to_string(b) + ".bin", CifarFile(20, false, b));
    }
    auto load = [&] {
        D2dCifar::Load(d, "cifar10", "train", false, 1.0, 1);
    };
    // Missing test batch.
    ExpectRefused([&] { D2dCifar::Load(d, "cifar10", "test", false, 1.0, 1); },
                  d + "/test_batch.bin",
                  "missing or unreadable");
    // Truncated: a byte short.
    std::string bytes = CifarFile(20, false, 3);
    WriteFile(d + "/data_batch_3.bin", bytes.substr(0, bytes.size() - 1));
    ExpectRefused(load, d + "/data_batch_3.bin", "not a whole number of 3073-byte records");
    // A CIFAR-100 file given as CIFAR-10 (3074-byte records).
    WriteFile(d + "/data_batch_3.bin", CifarFile(20, true, 3));
    ExpectRefused(load, d + "/data_batch_3.bin", "not a whole number of 3073-byte records");
    // Mislabelled: record 17 says 10.
    bytes = CifarFile(20, false, 3);
    bytes[17 * 3073] = 10;
    WriteFile(d + "/data_batch_3.bin", bytes);
    ExpectRefused(load, d + "/data_batch_3.bin", "record 17 has label 10, outside 0..9");
    // CIFAR-100: a fine label of 100.
    bytes = CifarFile(4, true, 0);
    bytes[2 * 3074 + 1] = 100;
    WriteFile(d + "/train.bin", bytes);
    ExpectRefused([&] { D2dCifar::Load(d, "cifar100", "train", false, 1.0, 1); },
                  d + "/train.bin",
                  "record 2 has coarse label 2 and fine label 100");
    // Empty.
    WriteFile(d + "/train.bin", "");
    ExpectRefused([&] { D2dCifar::Load(d, "cifar100", "train", false, 1.0, 1); },
                  d + "/train.bin",
                  "empty file");
    // A stream shorter than the size it claims.
    std::istringstream in(CifarFile(2, false, 0));
    D2dCifar::Records records;
    ExpectRefused([&] { D2dCifar::ReadBinary(in, "x.bin", 3 * 3073, false, false, records); },
                  "x.bin",
                  "truncated: record 2 of 3");
    // Larger than the bound: refused from the size alone.
    std::istringstream none("");
    ExpectRefused(
        [&] { D2dCifar::ReadBinary(none, "big.bin", 3073 * 100000, false, false, records); },
        "big.bin",
        "more than the 268435456 accepted");
}

// The published counts: 50,000 training and 10,000 test records for both variants, and a
// file of the published size (one CIFAR-10 batch, 30.7 MB) reads its 10,000 records.
TEST(D2dCifarTest, PublishedCounts)
{
    EXPECT_TRUE(D2dCifar::MatchesPublished(50000, 10000));
    EXPECT_FALSE(D2dCifar::MatchesPublished(49999, 10000));
    EXPECT_FALSE(D2dCifar::MatchesPublished(50000, 10001));
    EXPECT_FALSE(D2dCifar::MatchesPublished(300, 40));
    TempDir dir;
    std::string one(3073 * 10000, '\0');
    for (std::size_t r = 0; r < 10000; ++r)
    {
        one[r * 3073] = static_cast<char>(r % 10);
    }
    WriteFile(dir.Path() + "/test_batch.bin", one);
    std::size_t read = 0;
    auto test = D2dCifar::Load(dir.Path(), "cifar10", "test", false, 0.01, 1, &read);
    EXPECT_EQ(read, 10000u);
    EXPECT_EQ(test->Size(), 100u);
    EXPECT_EQ(test->ClassCounts(), std::vector<std::size_t>(10, 10));
}

/** \return an .npy file: version major.0, the dict, padded with spaces to a multiple of 64
 * bytes and a newline, then data */
std::string
Npy(const std::string& dict, const std::string& data, int major = 1)
{
    const std::size_t pre = major == 1 ? 10 : 12;
    std::string header = dict;
    while ((pre + header.size() + 1) % 64 != 0)
    {
        header += ' ';
    }
    header += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    const auto len = static_cast<uint32_t>(header.size());
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>((len >> 8) & 0xff);
    if (major > 1)
    {
        out += static_cast<char>((len >> 16) & 0xff);
        out += static_cast<char>((len >> 24) & 0xff);
    }
    return out + header + data;
}

/** \return the bytes of values (little-endian on this machine) \param v them */
template <typename T>
std::string
Bytes(const std::vector<T>& v)
{
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

/** \return the dict of an array \param descr its dtype \param shape its shape text */
std::string
Dict(const std::string& descr, const std::string& shape, const std::string& order = "False")
{
    return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }";
}

// float32 features {n, 2, 3, 4} and int64 labels read back exactly; float64, uint8 and int32
// converted; version 2.0 headers.
TEST(D2dNpyTest, ReadsBackExactly)
{
    TempDir dir;
    const std::string d = dir.Path();
    const std::size_t n = 200;
    std::vector<float> x(n * 24);
    std::vector<int64_t> y(n);
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        x[i] = static_cast<float>(i) * 0.37f - 100.0f;
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        y[i] = static_cast<int64_t>((i * 7) % 12);
    }
    WriteFile(d + "/train_x.npy", Npy(Dict("<f4", "(200, 2, 3, 4)"), Bytes(x)));
    WriteFile(d + "/train_y.npy", Npy(Dict("<i8", "(200,)"), Bytes(y), 2));
    std::vector<double> tx = {0.5, -1.25, 3.0, 1e-3, 2, 4};
    std::vector<int32_t> ty = {11, 0};
    WriteFile(d + "/test_x.npy", Npy(Dict("<f8", "(2, 3)"), Bytes(tx)));
    WriteFile(d + "/test_y.npy", Npy(Dict("<i4", "(2,)"), Bytes(ty)));
    std::size_t read = 0;
    auto train = D2dNpy::Load(d, "train", 1.0, 1, &read);
    EXPECT_EQ(read, n);
    EXPECT_EQ(train->featureShape, (std::vector<int64_t>{2, 3, 4}));
    EXPECT_EQ(train->numClasses, 12u);
    EXPECT_EQ(train->features, x);
    EXPECT_EQ(train->labels, y);
    auto test = D2dNpy::Load(d, "test", 1.0, 1);
    EXPECT_EQ(test->featureShape, (std::vector<int64_t>{3}));
    EXPECT_EQ(test->features[1], -1.25f);
    EXPECT_EQ(test->features[3], 1e-3f);
    EXPECT_EQ(test->labels, (std::vector<int64_t>{11, 0}));
    // uint8 images are scaled like the image readers'.
    std::vector<uint8_t> px = {0, 51, 255, 7};
    std::vector<uint8_t> py = {1, 0};
    WriteFile(d + "/u/train_x.npy", Npy(Dict("|u1", "(2, 1, 1, 2)"), Bytes(px)));
    WriteFile(d + "/u/train_y.npy", Npy(Dict("|u1", "(2,)"), Bytes(py), 3));
    auto u = D2dNpy::Load(d + "/u", "train", 1.0, 1);
    EXPECT_EQ(u->features, (std::vector<float>{0.0f, 0.2f, 1.0f, 7.0f / 255.0f}));
    EXPECT_EQ(u->numClasses, 2u);
    // A stratified fraction keeps each class's share.
    auto half = D2dNpy::Load(d, "train", 0.5, 3);
    EXPECT_EQ(half->Size(), 100u);
    EXPECT_EQ(half->featureShape, train->featureShape);
}

// Bad files: each refused in one line naming the file.
TEST(D2dNpyTest, BadFilesRefusedInOneLine)
{
    TempDir dir;
    const std::string d = dir.Path();
    const std::string x = d + "/train_x.npy";
    const std::string y = d + "/train_y.npy";
    std::vector<float> xs(12, 0.5f);
    std::vector<int64_t> ys = {0, 1, 2};
    auto load = [&] {
        D2dNpy::Load(d, "train", 1.0, 1);
    };
    WriteFile(y, Npy(Dict("<i8", "(3,)"), Bytes(ys)));
    ExpectRefused(load, x, "missing or unreadable");
    WriteFile(x, "PK\3\4 a zip file");
    ExpectRefused(load, x, "not a .npy file");
    WriteFile(x, Npy(Dict(">f4", "(3, 4)"), Bytes(xs)));
    ExpectRefused(load, x, "dtype '>f4' not supported");
    WriteFile(x, Npy(Dict("<f4", "(3, 4)", "True"), Bytes(xs)));
    ExpectRefused(load, x, "fortran_order is True");
    WriteFile(x, Npy(Dict("<f4", "(3, 4)"), Bytes(xs).substr(0, 47)));
    ExpectRefused(load, x, "truncated: shape (3, 4) of '<f4' needs 48 data bytes, the file has 47");
    WriteFile(x, Npy(Dict("<f4", "(3, 4)"), Bytes(xs) + "x"));
    ExpectRefused(load, x, "trailing bytes");
    WriteFile(x, Npy(Dict("<f4", "(4000000000, 4000000000)"), Bytes(xs)));
    ExpectRefused(load, x, "more than the 2147483648 data bytes accepted");
    WriteFile(x, Npy(Dict("<f4", "(3, 4)") + std::string(70000, ' '), Bytes(xs), 2));
    ExpectRefused(load, x, "more than the 65536 accepted");
    WriteFile(x, Npy("{'descr': '<f4', 'shape': (3, 4)}", Bytes(xs)));
    ExpectRefused(load, x, "lacks");
    WriteFile(x, Npy(Dict("<f4", "(12,)"), Bytes(xs)));
    ExpectRefused(load, x, "features of shape (12,)");
    WriteFile(x, Npy(Dict("<f4", "(3, 4)"), Bytes(xs)));
    WriteFile(y, Npy(Dict("<i8", "(2,)"), Bytes(std::vector<int64_t>{0, 1})));
    ExpectRefused(load, y, "labels of shape (2,) for features of shape (3, 4)");
    WriteFile(y, Npy(Dict("<i8", "(3,)"), Bytes(std::vector<int64_t>{0, -1, 2})));
    ExpectRefused(load, y, "label -1 of sample 1");
    WriteFile(y, Npy(Dict("<f4", "(3,)"), Bytes(std::vector<float>{0, 1, 2})));
    ExpectRefused(load, y, "labels of dtype '<f4'");
}

using d2dtest::Gzip;

/** \return the big-endian bytes of v */
std::string
Be32(uint32_t v)
{
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

/** \brief Write a gzip idx set of n images of 28 x 28 with labels i % classes under prefix. */
void
WriteIdxSet(const std::string& prefix, uint32_t nTrain, uint32_t nTest, uint32_t classes)
{
    for (const auto& [split, n] : {std::make_pair("train", nTrain), std::make_pair("t10k", nTest)})
    {
        std::string images = Be32(0x803) + Be32(n) + Be32(28) + Be32(28);
        std::string labels = Be32(0x801) + Be32(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            labels += static_cast<char>(i % classes);
            for (uint32_t j = 0; j < 784; ++j)
            {
                images += static_cast<char>(Pixel(n, i, j));
            }
        }
        WriteFile(prefix + split + "-images-idx3-ubyte.gz", Gzip(images));
        WriteFile(prefix + split + "-labels-idx1-ubyte.gz", Gzip(labels));
    }
}

// --dataset=mnist: MNIST's names and EMNIST's prefixed ones; numClasses is the labels'
// range; a folder of two sets is ambiguous.
TEST(D2dIdxFolderTest, FindsOneSetOfFourFiles)
{
    TempDir dir;
    const std::string d = dir.Path();
    WriteIdxSet(d + "/emnist-balanced-", 235, 47, 47);
    std::size_t read = 0;
    auto train = D2dIdxFolder::Load(d, "train", 1.0, 1, "", &read);
    EXPECT_EQ(read, 235u);
    EXPECT_EQ(train->numClasses, 47u);
    EXPECT_EQ(train->featureShape, (std::vector<int64_t>{1, 28, 28}));
    for (uint32_t i = 0; i < 235; i += 17)
    {
        ASSERT_EQ(train->labels[i], i % 47);
        ASSERT_EQ(train->Sample(i)[500], static_cast<float>(Pixel(235, i, 500)) / 255.0f);
    }
    auto half = D2dIdxFolder::Load(d, "train", 0.4, 1, "");
    EXPECT_EQ(half->Size(), 94u);
    EXPECT_FALSE(D2dIdxFolder::MatchesPublished(235, 47));
    EXPECT_TRUE(D2dIdxFolder::MatchesPublished(60000, 10000));

    WriteIdxSet(d + "/emnist-digits-", 20, 10, 10);
    try
    {
        D2dIdxFolder::Load(d, "train", 1.0, 1, "");
        ADD_FAILURE() << "two sets accepted";
    }
    catch (const std::runtime_error& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("dataDir: " + d + ": 2 files end in train-images-idx3-ubyte.gz", 0),
                  0u)
            << what;
        EXPECT_EQ(what.find('\n'), std::string::npos);
    }
    TempDir empty;
    ExpectRefused([&] { D2dIdxFolder::Load(empty.Path(), "test", 1.0, 1, ""); },
                  empty.Path(),
                  "no file ending in train-images-idx3-ubyte.gz");
}

// The stratified fraction shared by the readers: each class its share, in file order.
TEST(D2dStratifiedKeepTest, SharesAndOrder)
{
    std::vector<uint32_t> labels;
    for (uint32_t i = 0; i < 100; ++i)
    {
        labels.push_back(i < 80 ? 0 : 1);
    }
    auto kept = D2dStratifiedKeep(
        100,
        2,
        [&](std::size_t i) { return labels[i]; },
        0.1,
        5,
        D2dDataRng::DATA_FRACTION);
    ASSERT_EQ(kept.size(), 10u);
    EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
    std::size_t ones = 0;
    for (auto i : kept)
    {
        ones += labels[i];
    }
    EXPECT_EQ(ones, 2u);
    EXPECT_THROW(D2dStratifiedKeep(
                     10,
                     2,
                     [&](std::size_t i) { return labels[i]; },
                     0.01,
                     5,
                     D2dDataRng::DATA_FRACTION),
                 std::invalid_argument);
}

} // namespace

namespace
{

/** \return v as text that reads back exactly \param v a double */
std::string
Exact(double v)
{
    char text[40];
    std::snprintf(text, sizeof(text), "%.17g", v);
    return text;
}

/** \return a LEAF JSON text: users u0.. with the given sample counts; image samples (784
 * numbers k / 256) or text samples (80 characters of ALL_LETTERS) \param prefix user names
 * \param counts samples per user \param text Shakespeare-like samples */
std::string
LeafJson(const std::string& prefix, const std::vector<std::size_t>& counts, bool text)
{
    const std::string& letters = D2dLeaf::AllLetters();
    std::string users;
    std::string nums;
    std::string data;
    for (std::size_t u = 0; u < counts.size(); ++u)
    {
        const std::string name = prefix + std::to_string(u);
        users += (u ? ", \"" : "\"") + name + "\"";
        nums += (u ? ", " : "") + std::to_string(counts[u]);
        std::string xs;
        std::string ys;
        for (std::size_t k = 0; k < counts[u]; ++k)
        {
            if (text)
            {
                std::string s;
                for (std::size_t j = 0; j < 80; ++j)
                {
                    s += letters[(u * 7 + k * 3 + j) % letters.size()];
                }
                std::string escaped;
                for (char ch : s)
                {
                    escaped += ch == '\n'  ? std::string("\\n")
                               : ch == '"' ? std::string("\\\"")
                                           : std::string(1, ch);
                }
                xs += (k ? ", \"" : "\"") + escaped + "\"";
                const char y = letters[(u + k) % letters.size()];
                ys += std::string(k ? ", " : "") + "\"" +
                      (y == '\n'  ? std::string("\\n")
                       : y == '"' ? std::string("\\\"")
                                  : std::string(1, y)) +
                      "\"";
            }
            else
            {
                xs += k ? ", [" : "[";
                for (std::size_t j = 0; j < 784; ++j)
                {
                    xs += (j ? "," : "") + Exact(double((u + k + j) % 256) / 256.0);
                }
                xs += "]";
                ys += (k ? ", " : "") + std::to_string((u * 5 + k) % 62);
            }
        }
        data += std::string(u ? ", " : "") + "\"" + name + "\": {\"x\": [" + xs + "], \"y\": [" +
                ys + "]}";
    }
    return "{\"users\": [" + users + "], \"num_samples\": [" + nums +
           "], \"hierarchies\": [], \"user_data\": {" + data + "}}";
}

// FEMNIST-like images in two training files and one test file: users in file order, values
// and labels read back exactly; the natural split gives device i users i, i+N, ...
TEST(D2dLeafTest, ImagesReadBackAndNaturalSplit)
{
    TempDir dir;
    const std::string d = dir.Path();
    const std::vector<std::size_t> a = {3, 1, 4, 2};
    const std::vector<std::size_t> b = {5, 2, 1};
    WriteFile(d + "/train/part_0.json", LeafJson("f0_", a, false));
    WriteFile(d + "/train/part_1.json", LeafJson("f1_", b, false));
    WriteFile(d + "/test/part_0.json", LeafJson("f0_", {1, 1, 2, 1}, false));
    auto train = D2dLeaf::LoadSplit(d, "train");
    EXPECT_EQ(train.kind, "images");
    ASSERT_EQ(train.users.size(), 7u);
    EXPECT_EQ(train.users[4], "f1_0");
    EXPECT_EQ(train.data->featureShape, (std::vector<int64_t>{1, 28, 28}));
    EXPECT_EQ(train.data->numClasses, 62u);
    ASSERT_EQ(train.data->Size(), 18u);
    EXPECT_NO_THROW(train.data->Validate());
    // user f1_0's (u = 0 of file 1) sample 2: x_j = ((0 + 2 + j) % 256) / 256, y = 2.
    const std::size_t at = train.first[4] + 2;
    EXPECT_EQ(train.data->labels[at], 2);
    EXPECT_EQ(train.data->Sample(at)[300], float((2 + 300) % 256) / 256.0f);
    auto test = D2dLeaf::LoadSplit(d, "test");
    EXPECT_EQ(test.data->Size(), 5u);

    // The natural split, 3 devices: device i gets users i, i + 3, i + 6.
    const std::vector<std::size_t> all = {3, 1, 4, 2, 5, 2, 1};
    auto shards = D2dLeaf::NaturalShards(train, 3);
    ASSERT_EQ(shards.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        std::size_t want = 0;
        for (std::size_t u = i; u < all.size(); u += 3)
        {
            want += all[u];
        }
        EXPECT_EQ(shards[i].indices.size(), want) << "device " << i;
        EXPECT_TRUE(std::is_sorted(shards[i].indices.begin(), shards[i].indices.end()));
    }
    EXPECT_EQ(shards[1].indices.front(), 3u); // user 1's one sample follows user 0's three
    // One user per device.
    auto seven = D2dLeaf::NaturalShards(train, 7);
    for (std::size_t u = 0; u < 7; ++u)
    {
        EXPECT_EQ(seven[u].indices.size(), all[u]);
    }
    EXPECT_THROW(D2dLeaf::NaturalShards(train, 8), std::invalid_argument);
    // --dataFraction keeps users with all their samples.
    auto kept = D2dLeaf::KeepUsers(train, 0.5, 3);
    ASSERT_EQ(kept.users.size(), 4u);
    std::size_t samples = 0;
    for (std::size_t u = 0; u < kept.users.size(); ++u)
    {
        const auto pos = std::find(train.users.begin(), train.users.end(), kept.users[u]);
        ASSERT_NE(pos, train.users.end());
        EXPECT_EQ(kept.count[u], all[pos - train.users.begin()]);
        samples += kept.count[u];
    }
    EXPECT_EQ(kept.data->Size(), samples);
}

// Shakespeare-like next characters: each character its index in ALL_LETTERS.
TEST(D2dLeafTest, TextMapsAllLetters)
{
    EXPECT_EQ(D2dLeaf::AllLetters().size(), 80u);
    TempDir dir;
    WriteFile(dir.Path() + "/train/s.json", LeafJson("THE_TEMPEST_", {4, 6}, true));
    WriteFile(dir.Path() + "/test/s.json", LeafJson("THE_TEMPEST_", {2, 2}, true));
    auto train = D2dLeaf::LoadSplit(dir.Path(), "train");
    EXPECT_EQ(train.kind, "text");
    EXPECT_EQ(train.data->featureShape, (std::vector<int64_t>{80}));
    EXPECT_EQ(train.data->numClasses, 80u);
    ASSERT_EQ(train.data->Size(), 10u);
    // user 1, sample 2: x_j = letters[(7 + 6 + j) % 80], y = letters[3].
    const std::size_t at = train.first[1] + 2;
    for (std::size_t j = 0; j < 80; ++j)
    {
        ASSERT_EQ(train.data->Sample(at)[j], float((13 + j) % 80));
    }
    EXPECT_EQ(train.data->labels[at], 3);
}

// Bad files: each refused in one line naming the file.
TEST(D2dLeafTest, BadFilesRefusedInOneLine)
{
    TempDir dir;
    const std::string d = dir.Path();
    const std::string f = d + "/train/a.json";
    auto load = [&] {
        D2dLeaf::LoadSplit(d, "train");
    };
    ExpectRefused(load, d + "/train", "missing, or holds no .json file");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [2], \"user_data\": {\"a\": {\"x\": [[1]], "
              "\"y\": [0]}}}");
    ExpectRefused(load, f, "user \"a\": num_samples 2 but 1 x and 1 y");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [1], \"user_data\": {\"a\": {\"x\": [[1]], "
              "\"y\": [0]}, \"b\": {\"x\": [], \"y\": []}}}");
    ExpectRefused(load, f, "user_data has user \"b\", not in \"users\"");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [2], \"user_data\": {\"a\": {\"x\": [[1, 2], "
              "[3]], \"y\": [0, 1]}}}");
    ExpectRefused(load, f, "sample 1: x has 1 values, earlier samples 2 (non-uniform");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [1], \"user_data\": {\"a\": {\"x\": [\"ab\"], "
              "\"y\": [\"\\u00e9\"]}}}");
    ExpectRefused(load, f, "is not one letter of ALL_LETTERS");
    WriteFile(f,
              LeafJson("u", {1}, false).replace(LeafJson("u", {1}, false).rfind("[0]"), 3, "[62]"));
    ExpectRefused(load, f, "y 62 is not a class 0..61");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [1], \"user_data\": {\"a\": {\"x\": [[1]], "
              "\"y\": [0]}}");
    ExpectRefused(load, f, "not JSON");
    WriteFile(f, "{\"users\": [\"a\"], \"user_data\": {}}");
    ExpectRefused(load, f, "no \"num_samples\"");
    WriteFile(f,
              "{\"users\": [\"a\"], \"num_samples\": [1], \"user_data\": {\"a\": {\"x\": "
              "[[1e300]], \"y\": [0]}}}");
    ExpectRefused(load, f, "x holds 1e+300, not a finite float32 number");
    // Larger than the bound: refused from its size (a sparse file), before reading.
    WriteFile(f, "");
    fs::resize_file(f, D2dLeaf::MAX_JSON_BYTES + 1);
    ExpectRefused(load, f, "more than the 536870912 accepted per file");
}

} // namespace
