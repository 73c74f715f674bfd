/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-cifar.h"

#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <fstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dCifar");

namespace
{
/** \return what a file of the variant must be, for messages \param cifar100 which */
std::string
Accepted(bool cifar100)
{
    return cifar100 ? "(accepted: CIFAR-100's binary version: records of 1 coarse label byte "
                      "0..19, 1 fine label byte 0..99 and 3072 pixel bytes)"
                    : "(accepted: CIFAR-10's binary version: records of 1 label byte 0..9 and "
                      "3072 pixel bytes)";
}

/** \brief Throws the one-line data error naming the parameter "dataDir". */
[[noreturn]] void
FailCifar(const std::string& file, const std::string& what, bool cifar100)
{
    throw std::runtime_error("dataDir: " + file + ": " + what + " " + Accepted(cifar100));
}

/** \return whether path is a regular file \param path it */
bool
IsFile(const std::string& path)
{
    struct stat st = {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
} // namespace

uint64_t
D2dCifar::RecordBytes(bool cifar100)
{
    return PIXEL_BYTES + (cifar100 ? 2 : 1);
}

void
D2dCifar::ReadBinary(std::istream& in,
                     const std::string& name,
                     uint64_t size,
                     bool cifar100,
                     bool coarse,
                     Records& out)
{
    const uint64_t record = RecordBytes(cifar100);
    if (size == 0)
    {
        FailCifar(name, "empty file", cifar100);
    }
    if (size > MAX_FILE_BYTES)
    {
        FailCifar(name,
                  std::to_string(size) + " bytes, more than the " + std::to_string(MAX_FILE_BYTES) +
                      " accepted per file",
                  cifar100);
    }
    if (size % record != 0)
    {
        FailCifar(name,
                  std::to_string(size) + " bytes is not a whole number of " +
                      std::to_string(record) +
                      "-byte records (truncated, or another data set's file)",
                  cifar100);
    }
    const uint64_t n = size / record;
    // Bounded by MAX_FILE_BYTES (checked above): read record by record into reserved room.
    std::vector<uint8_t> buffer(record);
    const std::size_t first = out.count;
    out.labels.reserve(first + n);
    out.pixels.reserve((first + n) * PIXEL_BYTES);
    for (uint64_t r = 0; r < n; ++r)
    {
        in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(record));
        if (static_cast<uint64_t>(in.gcount()) != record)
        {
            FailCifar(name,
                      "truncated: record " + std::to_string(r) + " of " + std::to_string(n) +
                          " ends early",
                      cifar100);
        }
        uint8_t label = buffer[0];
        if (cifar100)
        {
            if (buffer[0] > 19 || buffer[1] > 99)
            {
                FailCifar(name,
                          "record " + std::to_string(r) + " has coarse label " +
                              std::to_string(buffer[0]) + " and fine label " +
                              std::to_string(buffer[1]) + " (a label out of range)",
                          cifar100);
            }
            label = coarse ? buffer[0] : buffer[1];
        }
        else if (label > 9)
        {
            FailCifar(name,
                      "record " + std::to_string(r) + " has label " + std::to_string(label) +
                          ", outside 0..9",
                      cifar100);
        }
        out.labels.push_back(label);
        out.pixels.insert(out.pixels.end(), buffer.begin() + (record - PIXEL_BYTES), buffer.end());
        ++out.count;
    }
    char extra = 0;
    if (in.read(&extra, 1).gcount() != 0)
    {
        FailCifar(name, "more bytes than its size of " + std::to_string(size), cifar100);
    }
}

std::vector<std::string>
D2dCifar::FileNames(const std::string& variant, const std::string& split)
{
    if (variant == "cifar10")
    {
        if (split == "train")
        {
            return {"data_batch_1.bin",
                    "data_batch_2.bin",
                    "data_batch_3.bin",
                    "data_batch_4.bin",
                    "data_batch_5.bin"};
        }
        return {"test_batch.bin"};
    }
    return {split == "train" ? "train.bin" : "test.bin"};
}

std::string
D2dCifar::ResolveDir(const std::string& dir, const std::string& variant)
{
    const std::string first = FileNames(variant, "train")[0];
    if (IsFile(dir + "/" + first))
    {
        return dir;
    }
    const std::string sub =
        dir + "/" + (variant == "cifar10" ? "cifar-10-batches-bin" : "cifar-100-binary");
    return IsFile(sub + "/" + first) ? sub : dir;
}

std::shared_ptr<D2dDataset>
D2dCifar::Load(const std::string& dir,
               const std::string& variant,
               const std::string& split,
               bool coarse,
               double fraction,
               uint64_t seed,
               std::size_t* fileSamples)
{
    NS_LOG_FUNCTION(dir << variant << split << coarse << fraction << seed);
    if (variant != "cifar10" && variant != "cifar100")
    {
        throw std::invalid_argument("dataset: '" + variant + "' is not one of cifar10, cifar100");
    }
    if (split != "train" && split != "test")
    {
        throw std::invalid_argument("split: '" + split + "' is not one of train, test");
    }
    if (!(fraction > 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " is outside the accepted range (0, 1]");
    }
    const bool cifar100 = variant == "cifar100";
    const std::string base = ResolveDir(dir, variant);
    Records records;
    for (const auto& file : FileNames(variant, split))
    {
        const std::string path = base + "/" + file;
        struct stat st = {};
        if (stat(path.c_str(), &st) != 0)
        {
            FailCifar(path,
                      std::string("missing or unreadable (expected ") +
                          (cifar100 ? "train.bin and test.bin in --dataDir or its cifar-100-binary/"
                                    : "data_batch_1.bin ... data_batch_5.bin and test_batch.bin in "
                                      "--dataDir or its cifar-10-batches-bin/") +
                          ")",
                      cifar100);
        }
        if (!S_ISREG(st.st_mode))
        {
            FailCifar(path, "not a regular file", cifar100);
        }
        std::ifstream in(path, std::ios::binary);
        if (!in)
        {
            FailCifar(path, "unreadable", cifar100);
        }
        ReadBinary(in, path, static_cast<uint64_t>(st.st_size), cifar100, coarse, records);
    }
    if (fileSamples)
    {
        *fileSamples = records.count;
    }
    const uint32_t classes = cifar100 ? (coarse ? 20 : 100) : 10;
    std::vector<std::size_t> kept;
    const bool all = fraction >= 1.0;
    if (!all)
    {
        kept = D2dStratifiedKeep(
            records.count,
            classes,
            [&records](std::size_t i) { return uint32_t(records.labels[i]); },
            fraction,
            seed,
            D2dDataRng::DATA_FRACTION);
    }
    const std::size_t n = all ? records.count : kept.size();
    auto ds = std::make_shared<D2dDataset>();
    ds->name = variant + "-" + split;
    ds->featureShape = {3, 32, 32};
    ds->numClasses = classes;
    ds->labels.resize(n);
    ds->features.resize(n * PIXEL_BYTES);
    for (std::size_t k = 0; k < n; ++k)
    {
        const std::size_t i = all ? k : kept[k];
        ds->labels[k] = records.labels[i];
        const uint8_t* px = records.pixels.data() + i * PIXEL_BYTES;
        float* out = ds->features.data() + k * PIXEL_BYTES;
        for (std::size_t j = 0; j < PIXEL_BYTES; ++j)
        {
            out[j] = static_cast<float>(px[j]) / 255.0f;
        }
    }
    NS_LOG_INFO("kept " << n << " of " << records.count << " records of " << base);
    return ds;
}

bool
D2dCifar::MatchesPublished(std::size_t train, std::size_t test)
{
    return train == 50000 && test == 10000;
}

} // namespace ns3
