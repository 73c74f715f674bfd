/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-fashion-mnist.h"

#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <zlib.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dFashionMnist");

namespace
{

/** \brief Throws the one-line data error naming the parameter "dataDir". */
[[noreturn]] void
Fail(const std::string& file, const std::string& what)
{
    throw std::runtime_error("dataDir: " + file + ": " + what);
}

/**
 * \brief The whole decompressed content of a gzip file.
 * \param path the file
 * \return its bytes
 */
std::vector<uint8_t>
ReadGzip(const std::string& path)
{
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
    {
        Fail(path,
             "missing or unreadable (expected a gzip idx file of Fashion-MNIST, e.g. "
             "from Debian's dataset-fashion-mnist)");
    }
    unsigned char magic[2] = {0, 0};
    std::size_t got = std::fread(magic, 1, 2, f);
    std::fclose(f);
    if (got != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
    {
        Fail(path, "not a gzip file (expected the .gz idx files of Fashion-MNIST)");
    }
    gzFile gz = gzopen(path.c_str(), "rb");
    if (gz == nullptr)
    {
        Fail(path, "cannot be opened by zlib");
    }
    gzbuffer(gz, 1 << 17);
    std::vector<uint8_t> out;
    std::vector<uint8_t> buf(1 << 20);
    while (true)
    {
        int n = gzread(gz, buf.data(), static_cast<unsigned>(buf.size()));
        if (n < 0)
        {
            int err = 0;
            std::string msg = gzerror(gz, &err);
            gzclose(gz);
            Fail(path, "truncated or corrupt gzip data (zlib: " + msg + ")");
        }
        if (n == 0)
        {
            break;
        }
        out.insert(out.end(), buf.begin(), buf.begin() + n);
    }
    int err = 0;
    std::string msg = gzerror(gz, &err);
    gzclose(gz);
    if (err != Z_OK && err != Z_STREAM_END)
    {
        Fail(path, "truncated or corrupt gzip data (zlib: " + msg + ")");
    }
    return out;
}

uint32_t
BigEndian32(const std::vector<uint8_t>& b, std::size_t at)
{
    return (uint32_t(b[at]) << 24) | (uint32_t(b[at + 1]) << 16) | (uint32_t(b[at + 2]) << 8) |
           uint32_t(b[at + 3]);
}

/**
 * \brief Parses an idx header of unsigned bytes and checks the payload length.
 * \param path for messages
 * \param b the decompressed file
 * \param wantMagic 0x00000801 (labels) or 0x00000803 (images)
 * \param dims receives the dimensions
 * \return the offset of the payload
 */
std::size_t
ParseIdx(const std::string& path,
         const std::vector<uint8_t>& b,
         uint32_t wantMagic,
         std::vector<uint32_t>& dims)
{
    const uint32_t nDims = wantMagic & 0xff;
    const std::string kind = nDims == 1 ? "idx1 label" : "idx3 image";
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%08x", wantMagic);
    if (b.size() < 4)
    {
        Fail(path, "truncated: " + std::to_string(b.size()) + " bytes, no idx header");
    }
    const uint32_t magic = BigEndian32(b, 0);
    if (magic != wantMagic)
    {
        char got[16];
        std::snprintf(got, sizeof(got), "0x%08x", magic);
        Fail(path,
             std::string("bad idx magic ") + got + " (expected " + hex + ", an " + kind +
                 " file of unsigned bytes)");
    }
    const std::size_t header = 4 + 4 * std::size_t(nDims);
    if (b.size() < header)
    {
        Fail(path,
             "truncated: " + std::to_string(b.size()) + " bytes, idx header needs " +
                 std::to_string(header));
    }
    dims.clear();
    std::size_t payload = 1;
    for (uint32_t d = 0; d < nDims; ++d)
    {
        dims.push_back(BigEndian32(b, 4 + 4 * d));
        payload *= dims.back();
    }
    if (payload > (std::size_t(1) << 36))
    {
        Fail(path, "idx header announces an implausible size");
    }
    if (b.size() - header < payload)
    {
        Fail(path,
             "truncated: header announces " + std::to_string(payload) + " data bytes, file holds " +
                 std::to_string(b.size() - header));
    }
    if (b.size() - header > payload)
    {
        Fail(path,
             "corrupt: " + std::to_string(b.size() - header - payload) + " bytes after the " +
                 std::to_string(payload) + " data bytes the header announces");
    }
    return header;
}

} // namespace

std::string
D2dFashionMnist::DefaultDir()
{
    return "/usr/share/datasets/fashion-mnist";
}

std::shared_ptr<D2dDataset>
D2dFashionMnist::ReadIdx(const std::string& imagesGz, const std::string& labelsGz)
{
    NS_LOG_FUNCTION(imagesGz << labelsGz);
    std::vector<uint8_t> lb = ReadGzip(labelsGz);
    std::vector<uint32_t> ldims;
    std::size_t lOff = ParseIdx(labelsGz, lb, 0x00000801, ldims);
    std::vector<uint8_t> ib = ReadGzip(imagesGz);
    std::vector<uint32_t> idims;
    std::size_t iOff = ParseIdx(imagesGz, ib, 0x00000803, idims);
    if (idims[1] == 0 || idims[2] == 0)
    {
        Fail(imagesGz,
             "image size " + std::to_string(idims[1]) + " x " + std::to_string(idims[2]) +
                 " is empty");
    }
    if (idims[0] != ldims[0])
    {
        throw std::runtime_error("dataDir: " + imagesGz + " and " + labelsGz + ": " +
                                 std::to_string(idims[0]) + " images but " +
                                 std::to_string(ldims[0]) + " labels (must be equal)");
    }
    const std::size_t n = idims[0];
    auto ds = std::make_shared<D2dDataset>();
    ds->name = "fashion-mnist";
    ds->featureShape = {1, int64_t(idims[1]), int64_t(idims[2])};
    ds->numClasses = 10;
    ds->labels.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        uint8_t l = lb[lOff + i];
        if (l > 9)
        {
            Fail(labelsGz,
                 "label " + std::to_string(l) + " of sample " + std::to_string(i) +
                     " outside 0..9");
        }
        ds->labels[i] = l;
    }
    lb.clear();
    lb.shrink_to_fit();
    const std::size_t values = n * idims[1] * idims[2];
    ds->features.resize(values);
    float table[256];
    for (int v = 0; v < 256; ++v)
    {
        table[v] = static_cast<float>(v) / 255.0f;
    }
    const uint8_t* px = ib.data() + iOff;
    for (std::size_t i = 0; i < values; ++i)
    {
        ds->features[i] = table[px[i]];
    }
    NS_LOG_INFO("read " << n << " samples of " << idims[1] << "x" << idims[2] << " from "
                        << imagesGz);
    return ds;
}

std::shared_ptr<D2dDataset>
D2dFashionMnist::Load(const std::string& dir,
                      const std::string& split,
                      double fraction,
                      uint64_t seed)
{
    NS_LOG_FUNCTION(dir << split << fraction << seed);
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
    auto all = ReadIdx(base + "/" + prefix + "-images-idx3-ubyte.gz",
                       base + "/" + prefix + "-labels-idx1-ubyte.gz");
    all->name = "fashion-mnist-" + split;
    if (fraction >= 1.0)
    {
        return all;
    }
    const std::size_t n = all->Size();
    const auto keep = static_cast<std::size_t>(std::llround(fraction * double(n)));
    if (keep == 0)
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " keeps no sample of " + std::to_string(n) +
                                    "; accepted range [1/" + std::to_string(2 * n) + ", 1]");
    }
    // Stratified: each class keeps its share (largest remainder), chosen at random.
    std::vector<std::vector<std::size_t>> byClass(all->numClasses);
    for (std::size_t i = 0; i < n; ++i)
    {
        byClass[all->labels[i]].push_back(i);
    }
    std::vector<double> w;
    for (const auto& c : byClass)
    {
        w.push_back(double(c.size()));
    }
    auto counts = D2dApportion(w, keep);
    D2dDataRng rng(seed, D2dDataRng::FASHION_FRACTION);
    std::vector<std::size_t> kept;
    for (std::size_t c = 0; c < byClass.size(); ++c)
    {
        rng.Shuffle(byClass[c]);
        kept.insert(kept.end(), byClass[c].begin(), byClass[c].begin() + counts[c]);
    }
    std::sort(kept.begin(), kept.end());
    auto ds = all->Subset(kept);
    ds->name = all->name;
    return ds;
}

} // namespace ns3
