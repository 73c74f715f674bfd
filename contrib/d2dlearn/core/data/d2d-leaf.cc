/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-leaf.h"

#include "d2d-data-rng.h"

#include "ns3/d2d-input-file.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dLeaf");

namespace
{
using Json = nlohmann::json;

/** What a LEAF file must hold, for messages. */
const char* const LEAF_ACCEPTED =
    "(accepted: LEAF's JSON, {\"users\": [...], \"num_samples\": [...], \"user_data\": {user: "
    "{\"x\": [...], \"y\": [...]}}}, x 784 numbers per sample (FEMNIST) or an 80-character "
    "string (Shakespeare))";

/** \brief Throws the one-line data error naming the parameter "dataDir". */
[[noreturn]] void
FailLeaf(const std::string& file, const std::string& what)
{
    // what may quote the file (nlohmann's "last read"): control bytes become '?' (one line).
    std::string text = what.size() > 300 ? what.substr(0, 297) + "..." : what;
    for (auto& ch : text)
    {
        ch = static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
    }
    throw std::runtime_error("dataDir: " + file + ": " + text + " " + LEAF_ACCEPTED);
}

/** \return the text of a JSON value, cut to 40 characters, for messages \param v it */
std::string
Excerpt(const Json& v)
{
    std::string s = v.dump();
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}
} // namespace

const std::string&
D2dLeaf::AllLetters()
{
    // LEAF, models/utils/language_utils.py: ALL_LETTERS.
    static const std::string letters =
        "\n !\"&'(),-.0123456789:;>?ABCDEFGHIJKLMNOPQRSTUVWXYZ[]abcdefghijklmnopqrstuvwxyz}";
    return letters;
}

namespace
{
/**
 * \brief Checks a LEAF file's user list: strings, none listed twice (in the file or before
 * it, in out), and no user in user_data that the list lacks.
 * \param users the file's "users"
 * \param data the file's "user_data"
 * \param name the file, for messages
 * \param out the split so far (its users)
 */
void
CheckUsers(const Json& users, const Json& data, const std::string& name, const D2dLeaf::Split& out)
{
    std::set<std::string> seen(out.users.begin(), out.users.end());
    std::set<std::string> listed;
    for (const auto& u : users)
    {
        if (!u.is_string())
        {
            FailLeaf(name, "user " + Excerpt(u) + " is not a string");
        }
        if (!listed.insert(u.get<std::string>()).second || seen.count(u.get<std::string>()))
        {
            FailLeaf(name, "user \"" + u.get<std::string>() + "\" listed twice");
        }
    }
    for (const auto& [key, value] : data.items())
    {
        if (!listed.count(key))
        {
            FailLeaf(name,
                     "user_data has user \"" + key + "\", not in \"users\" (an unknown user)");
        }
    }
}

/**
 * \brief The first sample of a split fixes its kind, the feature shape and the classes.
 * \param x the sample's x
 * \param kind "text" (x a string) or "numbers" (x a list)
 * \param sample the sample, for messages
 * \param name the file, for messages
 * \param out the split, whose kind is set
 * \param ds its data set, whose featureShape and numClasses are set
 */
void
FixKind(const Json& x,
        const std::string& kind,
        const std::string& sample,
        const std::string& name,
        D2dLeaf::Split& out,
        D2dDataset& ds)
{
    if (kind == "text")
    {
        out.kind = "text";
        ds.featureShape = {int64_t(x.get_ref<const std::string&>().size())};
        ds.numClasses = uint32_t(D2dLeaf::AllLetters().size());
    }
    else if (x.size() == 784)
    {
        out.kind = "images";
        ds.featureShape = {1, 28, 28};
        ds.numClasses = 62;
    }
    else
    {
        out.kind = "vectors";
        ds.featureShape = {int64_t(x.size())};
        ds.numClasses = 0;
    }
    if (ds.FeatureSize() == 0)
    {
        FailLeaf(name, sample + ": x is empty");
    }
}

/**
 * \brief Appends a text sample (Shakespeare): each character of x as its index in
 * ALL_LETTERS, y's index as the label.
 * \param x the sample's x, a string
 * \param y its y
 * \param size the characters every sample has
 * \param sample the sample, for messages
 * \param name the file, for messages
 * \param ds the data set to extend
 */
void
AppendText(const Json& x,
           const Json& y,
           std::size_t size,
           const std::string& sample,
           const std::string& name,
           D2dDataset& ds)
{
    const auto& letters = D2dLeaf::AllLetters();
    const auto& s = x.get_ref<const std::string&>();
    if (s.size() != size)
    {
        FailLeaf(name,
                 sample + ": x has " + std::to_string(s.size()) + " characters, " +
                     "earlier samples " + std::to_string(size) + " (non-uniform sample sizes)");
    }
    for (char c : s)
    {
        const auto at = letters.find(c);
        if (at == std::string::npos)
        {
            FailLeaf(name,
                     sample + ": character " + Excerpt(Json(std::string(1, c))) +
                         " is not in LEAF's ALL_LETTERS");
        }
        ds.features.push_back(static_cast<float>(at));
    }
    if (!y.is_string() || y.get_ref<const std::string&>().size() != 1 ||
        letters.find(y.get_ref<const std::string&>()[0]) == std::string::npos)
    {
        FailLeaf(name, sample + ": y " + Excerpt(y) + " is not one letter of ALL_LETTERS");
    }
    ds.labels.push_back(int64_t(letters.find(y.get_ref<const std::string&>()[0])));
}

/**
 * \brief Appends a sample of numbers (FEMNIST's images, other vectors): x's values as
 * float32 features, y as the class (vectors: the classes grow to cover it).
 * \param x the sample's x, a list
 * \param y its y
 * \param size the values every sample has
 * \param sample the sample, for messages
 * \param name the file, for messages
 * \param kind the split's kind, "images" or "vectors"
 * \param ds the data set to extend
 */
void
AppendNumbers(const Json& x,
              const Json& y,
              std::size_t size,
              const std::string& sample,
              const std::string& name,
              const std::string& kind,
              D2dDataset& ds)
{
    if (x.size() != size)
    {
        FailLeaf(name,
                 sample + ": x has " + std::to_string(x.size()) + " values, earlier samples " +
                     std::to_string(size) + " (non-uniform sample sizes)");
    }
    for (const auto& v : x)
    {
        // Finite as a float too: 1e300 is a finite double but an infinite feature.
        if (!v.is_number() || !std::isfinite(static_cast<float>(v.get<double>())))
        {
            FailLeaf(name, sample + ": x holds " + Excerpt(v) + ", not a finite float32 number");
        }
        ds.features.push_back(static_cast<float>(v.get<double>()));
    }
    const bool integral = y.is_number_integer() ||
                          (y.is_number_float() && std::floor(y.get<double>()) == y.get<double>() &&
                           std::fabs(y.get<double>()) < 1e9);
    const int64_t label = integral ? y.get<int64_t>() : -1;
    const int64_t most = kind == "images" ? 61 : 1000000;
    if (!integral || label < 0 || label > most)
    {
        FailLeaf(name, sample + ": y " + Excerpt(y) + " is not a class 0.." + std::to_string(most));
    }
    ds.labels.push_back(label);
    if (kind == "vectors")
    {
        ds.numClasses = std::max(ds.numClasses, uint32_t(label + 1));
    }
}

/**
 * \brief Parses one sample of a user into the split (the split's first sample fixes the
 * kind and the size of all).
 * \param x the sample's x: a list of numbers or a string
 * \param y its y
 * \param sample the sample ("user \"u\", sample k"), for messages
 * \param name the file, for messages
 * \param out the split to extend
 */
void
ParseSample(const Json& x,
            const Json& y,
            const std::string& sample,
            const std::string& name,
            D2dLeaf::Split& out)
{
    D2dDataset& ds = *out.data;
    const std::string kind = x.is_string() ? "text" : x.is_array() ? "numbers" : "";
    if (kind.empty())
    {
        FailLeaf(name, sample + ": x " + Excerpt(x) + " is neither a list nor a string");
    }
    if (out.kind.empty())
    {
        FixKind(x, kind, sample, name, out, ds);
    }
    const std::size_t size = ds.FeatureSize();
    if ((kind == "text") != (out.kind == "text"))
    {
        FailLeaf(name,
                 sample + ": x is " + (kind == "text" ? "a string" : "a list") +
                     ", earlier samples' " + (kind == "text" ? "lists" : "strings") +
                     " (accepted: samples of one kind)");
    }
    if (kind == "text")
    {
        AppendText(x, y, size, sample, name, ds);
    }
    else
    {
        AppendNumbers(x, y, size, sample, name, out.kind, ds);
    }
}

/**
 * \brief Parses one user's record: its x and y against its num_samples, then its samples.
 * \param user the user
 * \param count its num_samples
 * \param data the file's "user_data"
 * \param name the file, for messages
 * \param out the split to extend (the user, its first sample and count, its samples)
 */
void
ParseUser(const std::string& user,
          const Json& count,
          const Json& data,
          const std::string& name,
          D2dLeaf::Split& out)
{
    const std::string where = "user \"" + user + "\"";
    if (!data.contains(user))
    {
        FailLeaf(name, where + " has no user_data");
    }
    const Json& ud = data[user];
    if (!ud.is_object() || !ud.contains("x") || !ud.contains("y") || !ud["x"].is_array() ||
        !ud["y"].is_array())
    {
        FailLeaf(name, where + ": user_data is not {\"x\": [...], \"y\": [...]}");
    }
    const Json& xs = ud["x"];
    const Json& ys = ud["y"];
    if (!count.is_number_integer() || count.get<int64_t>() < 0 ||
        static_cast<std::size_t>(count.get<int64_t>()) != xs.size() || xs.size() != ys.size())
    {
        FailLeaf(name,
                 where + ": num_samples " + Excerpt(count) + " but " + std::to_string(xs.size()) +
                     " x and " + std::to_string(ys.size()) + " y");
    }
    out.users.push_back(user);
    out.first.push_back(out.data->Size());
    out.count.push_back(xs.size());
    for (std::size_t k = 0; k < xs.size(); ++k)
    {
        ParseSample(xs[k], ys[k], where + ", sample " + std::to_string(k), name, out);
    }
}
} // namespace

void
D2dLeaf::Parse(const std::string& text, const std::string& name, Split& out)
{
    // nlohmann's dump() and the checks below recurse on the document's depth: bound it
    // before parsing (a 200 kB file of '[' overflowed the stack).
    if (D2dInputFile::JsonDepth(text) > MAX_JSON_DEPTH)
    {
        FailLeaf(name, "nested more than " + std::to_string(MAX_JSON_DEPTH) + " levels deep");
    }
    Json doc;
    try
    {
        doc = Json::parse(text);
    }
    catch (const Json::exception& e)
    {
        FailLeaf(name, std::string("not JSON (") + e.what() + ")");
    }
    if (!doc.is_object())
    {
        FailLeaf(name, "not a JSON object");
    }
    for (const char* key : {"users", "num_samples", "user_data"})
    {
        if (!doc.contains(key))
        {
            FailLeaf(name, std::string("no \"") + key + "\"");
        }
    }
    const Json& users = doc["users"];
    const Json& counts = doc["num_samples"];
    const Json& data = doc["user_data"];
    if (!users.is_array() || !counts.is_array() || !data.is_object())
    {
        FailLeaf(name, "\"users\" and \"num_samples\" must be lists, \"user_data\" an object");
    }
    if (users.size() != counts.size())
    {
        FailLeaf(name,
                 std::to_string(users.size()) + " users but " + std::to_string(counts.size()) +
                     " num_samples");
    }
    CheckUsers(users, data, name, out);
    if (!out.data)
    {
        out.data = std::make_shared<D2dDataset>();
    }
    for (std::size_t u = 0; u < users.size(); ++u)
    {
        ParseUser(users[u].get<std::string>(), counts[u], data, name, out);
    }
}

D2dLeaf::Split
D2dLeaf::LoadSplit(const std::string& dir, const std::string& split)
{
    NS_LOG_FUNCTION(dir << split);
    namespace fs = std::filesystem;
    const std::string folder = dir + "/" + split;
    std::error_code ec;
    std::vector<std::string> files;
    if (fs::is_directory(folder, ec))
    {
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        {
            if (it->path().extension() == ".json")
            {
                files.push_back(it->path().string());
            }
        }
    }
    if (files.empty())
    {
        FailLeaf(folder,
                 "missing, or holds no .json file (expected LEAF's train/ and test/ folders)");
    }
    std::sort(files.begin(), files.end());
    Split out;
    for (const auto& path : files)
    {
        struct stat st = {};
        if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        {
            FailLeaf(path, "not a readable regular file");
        }
        if (static_cast<uint64_t>(st.st_size) > MAX_JSON_BYTES)
        {
            FailLeaf(path,
                     std::to_string(st.st_size) + " bytes, more than the " +
                         std::to_string(MAX_JSON_BYTES) + " accepted per file");
        }
        std::ifstream in(path, std::ios::binary);
        std::string text(static_cast<std::size_t>(st.st_size), '\0');
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        if (!in || static_cast<uint64_t>(in.gcount()) != static_cast<uint64_t>(st.st_size))
        {
            FailLeaf(path, "unreadable");
        }
        Parse(text, path, out);
        NS_LOG_INFO("read " << path << ": " << out.users.size() << " users so far");
    }
    if (!out.data || out.data->Size() == 0)
    {
        FailLeaf(folder, "its files hold no sample");
    }
    out.data->name = "leaf-" + split;
    return out;
}

D2dLeaf::Split
D2dLeaf::KeepUsers(const Split& in, double fraction, uint64_t seed)
{
    if (fraction >= 1.0)
    {
        return in;
    }
    const std::size_t n = in.users.size();
    const auto keep = std::max<std::size_t>(1, std::llround(fraction * double(n)));
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    D2dDataRng rng(seed, D2dDataRng::DATA_FRACTION);
    rng.Shuffle(order);
    order.resize(std::min(keep, n));
    std::sort(order.begin(), order.end());
    Split out;
    out.kind = in.kind;
    std::vector<std::size_t> samples;
    for (auto u : order)
    {
        out.users.push_back(in.users[u]);
        out.first.push_back(samples.size());
        out.count.push_back(in.count[u]);
        for (std::size_t k = 0; k < in.count[u]; ++k)
        {
            samples.push_back(in.first[u] + k);
        }
    }
    out.data = in.data->Subset(samples);
    out.data->name = in.data->name;
    return out;
}

std::vector<D2dShard>
D2dLeaf::NaturalShards(const Split& train, uint32_t nDevices)
{
    if (train.users.size() < nDevices)
    {
        throw std::invalid_argument(
            "partition: natural gives each device the data of LEAF users, and --dataDir's "
            "training files (after --dataFraction) hold " +
            std::to_string(train.users.size()) + " users for " + std::to_string(nDevices) +
            " devices (accepted: at least one user per device)");
    }
    std::vector<D2dShard> shards(nDevices);
    for (std::size_t u = 0; u < train.users.size(); ++u)
    {
        auto& idx = shards[u % nDevices].indices;
        for (std::size_t k = 0; k < train.count[u]; ++k)
        {
            idx.push_back(train.first[u] + k);
        }
    }
    for (uint32_t i = 0; i < nDevices; ++i)
    {
        if (shards[i].indices.empty())
        {
            throw std::invalid_argument("partition: natural gives device " + std::to_string(i) +
                                        " LEAF users without samples (accepted: users with "
                                        "samples, at least one per device)");
        }
    }
    return shards;
}

} // namespace ns3
