/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-npy.h"

#include "d2d-data-rng.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("D2dNpy");

namespace
{
/** What a tensors folder holds, for messages. */
const char* const ACCEPTED_FILE =
    "(accepted: a NumPy .npy file, version 1.0, 2.0 or 3.0, C order, little-endian; features "
    "float32, float64 or uint8, labels int64, int32 or uint8)";

/** \brief Throws the one-line data error naming the parameter "dataDir". */
[[noreturn]] void
FailNpy(const std::string& file,
        const std::string& what,
        const std::string& accepted = ACCEPTED_FILE)
{
    // what may quote the header: its control and non-ASCII bytes become '?' (one line).
    std::string text = what;
    for (auto& ch : text)
    {
        const auto u = static_cast<unsigned char>(ch);
        ch = u < 0x20 || u >= 0x7f ? '?' : ch;
    }
    throw std::runtime_error("dataDir: " + file + ": " + text + " " + accepted);
}

/** A cursor over the header's dict literal. */
class HeaderParser
{
  public:
    /** \param text the header \param name the file, for messages */
    HeaderParser(const std::string& text, const std::string& name)
        : m_text(text),
          m_name(name)
    {
    }

    /** \brief Parse the dict into descr, fortranOrder and shape (each required once). */
    void Parse(std::string& descr, bool& fortranOrder, std::vector<uint64_t>& shape)
    {
        bool haveDescr = false;
        bool haveOrder = false;
        bool haveShape = false;
        Expect('{');
        while (true)
        {
            Skip();
            if (Peek() == '}')
            {
                ++m_at;
                break;
            }
            const std::string key = QuotedString();
            Expect(':');
            if (key == "descr" && !haveDescr)
            {
                descr = QuotedString();
                haveDescr = true;
            }
            else if (key == "fortran_order" && !haveOrder)
            {
                fortranOrder = Boolean();
                haveOrder = true;
            }
            else if (key == "shape" && !haveShape)
            {
                shape = Tuple();
                haveShape = true;
            }
            else
            {
                Bad("key '" + key + "' unknown or repeated");
            }
            Skip();
            if (Peek() == ',')
            {
                ++m_at;
            }
            else if (Peek() != '}')
            {
                Bad("expected , or } after the value of '" + key + "'");
            }
        }
        Skip();
        if (m_at != m_text.size())
        {
            Bad("text after the dict");
        }
        if (!haveDescr || !haveOrder || !haveShape)
        {
            Bad("the dict lacks 'descr', 'fortran_order' or 'shape'");
        }
    }

  private:
    [[noreturn]] void Bad(const std::string& what) const
    {
        FailNpy(m_name, "bad header at byte " + std::to_string(m_at) + ": " + what);
    }

    void Skip()
    {
        while (m_at < m_text.size() &&
               (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\t'))
        {
            ++m_at;
        }
    }

    char Peek() const
    {
        return m_at < m_text.size() ? m_text[m_at] : '\0';
    }

    void Expect(char c)
    {
        Skip();
        if (Peek() != c)
        {
            Bad(std::string("expected '") + c + "'");
        }
        ++m_at;
    }

    std::string QuotedString()
    {
        Skip();
        const char quote = Peek();
        if (quote != '\'' && quote != '"')
        {
            Bad("expected a quoted string");
        }
        const std::size_t end = m_text.find(quote, m_at + 1);
        if (end == std::string::npos || end - m_at > 64)
        {
            Bad("unterminated or overlong string");
        }
        std::string s = m_text.substr(m_at + 1, end - m_at - 1);
        m_at = end + 1;
        return s;
    }

    bool Boolean()
    {
        Skip();
        if (m_text.compare(m_at, 4, "True") == 0)
        {
            m_at += 4;
            return true;
        }
        if (m_text.compare(m_at, 5, "False") == 0)
        {
            m_at += 5;
            return false;
        }
        Bad("expected True or False");
    }

    std::vector<uint64_t> Tuple()
    {
        Expect('(');
        std::vector<uint64_t> dims;
        while (true)
        {
            Skip();
            if (Peek() == ')')
            {
                ++m_at;
                return dims;
            }
            if (Peek() < '0' || Peek() > '9')
            {
                Bad("expected a dimension (a non-negative integer)");
            }
            uint64_t v = 0;
            while (Peek() >= '0' && Peek() <= '9')
            {
                if (v > (uint64_t(1) << 56))
                {
                    Bad("a dimension too large");
                }
                v = v * 10 + uint64_t(Peek() - '0');
                ++m_at;
            }
            if (Peek() == 'L') // Python 2's long suffix
            {
                ++m_at;
            }
            dims.push_back(v);
            if (dims.size() > 32)
            {
                Bad("more than 32 dimensions");
            }
            Skip();
            if (Peek() == ',')
            {
                ++m_at;
            }
            else if (Peek() != ')')
            {
                Bad("expected , or ) in the shape");
            }
        }
    }

    const std::string& m_text;
    const std::string& m_name;
    std::size_t m_at{0};
};

/** \return the shape as "(100, 3, 32, 32)" \param shape it */
std::string
ShapeText(const std::vector<uint64_t>& shape)
{
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
    {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + (shape.size() == 1 ? ",)" : ")");
}

/** \return the little-endian value at p of the array's dtype as an int64 \param a array
 * \param i index */
int64_t
IntAt(const D2dNpy::Array& a, std::size_t i)
{
    const uint8_t* p = a.data.data() + i * a.itemBytes;
    if (a.itemBytes == 1)
    {
        return p[0];
    }
    uint64_t v = 0;
    for (uint32_t b = 0; b < a.itemBytes; ++b)
    {
        v |= uint64_t(p[b]) << (8 * b);
    }
    if (a.itemBytes == 4)
    {
        return int64_t(int32_t(uint32_t(v)));
    }
    return int64_t(v);
}
} // namespace

D2dNpy::Array
D2dNpy::Read(std::istream& in, const std::string& name, uint64_t size)
{
    char pre[10] = {};
    in.read(pre, 8);
    if (in.gcount() != 8 || std::memcmp(pre, "\x93NUMPY", 6) != 0)
    {
        FailNpy(name, "not a .npy file (no \\x93NUMPY magic)");
    }
    const int major = static_cast<uint8_t>(pre[6]);
    const int minor = static_cast<uint8_t>(pre[7]);
    if (major < 1 || major > 3 || minor != 0)
    {
        FailNpy(name,
                "format version " + std::to_string(major) + "." + std::to_string(minor) +
                    " unknown");
    }
    const int lenBytes = major == 1 ? 2 : 4;
    uint8_t len[4] = {};
    in.read(reinterpret_cast<char*>(len), lenBytes);
    if (in.gcount() != lenBytes)
    {
        FailNpy(name, "truncated inside the header");
    }
    const uint64_t headerLen = uint64_t(len[0]) | (uint64_t(len[1]) << 8) |
                               (uint64_t(len[2]) << 16) | (uint64_t(len[3]) << 24);
    const uint64_t offset = 8 + lenBytes + headerLen;
    if (headerLen > MAX_HEADER_BYTES)
    {
        FailNpy(name,
                "header of " + std::to_string(headerLen) + " bytes, more than the " +
                    std::to_string(MAX_HEADER_BYTES) + " accepted");
    }
    if (offset > size)
    {
        FailNpy(name,
                "truncated: the header needs " + std::to_string(offset) + " bytes, the file has " +
                    std::to_string(size));
    }
    std::string header(headerLen, '\0');
    in.read(header.data(), static_cast<std::streamsize>(headerLen));
    if (static_cast<uint64_t>(in.gcount()) != headerLen)
    {
        FailNpy(name, "truncated inside the header");
    }
    Array a;
    bool fortran = false;
    HeaderParser(header, name).Parse(a.descr, fortran, a.shape);
    if (fortran)
    {
        FailNpy(name, "fortran_order is True (Fortran order)");
    }
    if (a.descr == "<f4" || a.descr == "<i4")
    {
        a.itemBytes = 4;
    }
    else if (a.descr == "<f8" || a.descr == "<i8")
    {
        a.itemBytes = 8;
    }
    else if (a.descr == "|u1" || a.descr == "<u1" || a.descr == "u1")
    {
        a.itemBytes = 1;
    }
    else
    {
        FailNpy(name, "dtype '" + a.descr + "' not supported");
    }
    uint64_t bytes = a.itemBytes;
    for (uint64_t d : a.shape)
    {
        if (d != 0 && bytes > MAX_NPY_BYTES / d)
        {
            FailNpy(name,
                    "shape " + ShapeText(a.shape) + " of '" + a.descr + "' is more than the " +
                        std::to_string(MAX_NPY_BYTES) + " data bytes accepted");
        }
        bytes *= d;
    }
    if (bytes > MAX_NPY_BYTES)
    {
        FailNpy(name,
                "shape " + ShapeText(a.shape) + " of '" + a.descr + "' is more than the " +
                    std::to_string(MAX_NPY_BYTES) + " data bytes accepted");
    }
    if (size - offset != bytes)
    {
        FailNpy(name,
                std::string(size - offset < bytes ? "truncated" : "trailing bytes") + ": shape " +
                    ShapeText(a.shape) + " of '" + a.descr + "' needs " + std::to_string(bytes) +
                    " data bytes, the file has " + std::to_string(size - offset));
    }
    a.data.resize(bytes);
    in.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(bytes));
    if (static_cast<uint64_t>(in.gcount()) != bytes)
    {
        FailNpy(name,
                "truncated: " + std::to_string(in.gcount()) + " of " + std::to_string(bytes) +
                    " data bytes");
    }
    return a;
}

D2dNpy::Array
D2dNpy::ReadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    struct stat st = {};
    if (stat(path.c_str(), &st) != 0)
    {
        FailNpy(path,
                "missing or unreadable",
                "(accepted: a folder holding train_x.npy, train_y.npy, test_x.npy, test_y.npy)");
    }
    if (!S_ISREG(st.st_mode))
    {
        FailNpy(path, "not a regular file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        FailNpy(path, "unreadable");
    }
    return Read(in, path, static_cast<uint64_t>(st.st_size));
}

std::shared_ptr<D2dDataset>
D2dNpy::ToDataset(const Array& x,
                  const Array& y,
                  const std::string& xName,
                  const std::string& yName)
{
    if (x.descr != "<f4" && x.descr != "<f8" && x.itemBytes != 1)
    {
        FailNpy(xName,
                "features of dtype '" + x.descr + "'",
                "(accepted: features float32 '<f4', float64 '<f8' or uint8 '|u1')");
    }
    if (x.shape.size() < 2)
    {
        FailNpy(xName,
                "features of shape " + ShapeText(x.shape),
                "(accepted: samples x a sample's shape, at least 2 dimensions)");
    }
    for (std::size_t d = 1; d < x.shape.size(); ++d)
    {
        if (x.shape[d] == 0)
        {
            FailNpy(xName,
                    "features of shape " + ShapeText(x.shape) + " have empty samples",
                    "(accepted: samples of at least one value)");
        }
    }
    if (y.descr != "<i8" && y.descr != "<i4" && y.itemBytes != 1)
    {
        FailNpy(yName,
                "labels of dtype '" + y.descr + "'",
                "(accepted: integer labels int64 '<i8', int32 '<i4' or uint8 '|u1')");
    }
    if (y.shape.size() != 1 || y.shape[0] != x.shape[0])
    {
        FailNpy(yName,
                "labels of shape " + ShapeText(y.shape) + " for features of shape " +
                    ShapeText(x.shape),
                "(accepted: one dimension, as many labels as samples: (" +
                    std::to_string(x.shape[0]) + ",))");
    }
    const std::size_t n = x.shape[0];
    auto ds = std::make_shared<D2dDataset>();
    for (std::size_t d = 1; d < x.shape.size(); ++d)
    {
        ds->featureShape.push_back(static_cast<int64_t>(x.shape[d]));
    }
    ds->labels.resize(n);
    int64_t most = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const int64_t l = IntAt(y, i);
        if (l < 0 || l > 1000000)
        {
            FailNpy(yName,
                    "label " + std::to_string(l) + " of sample " + std::to_string(i),
                    "(accepted: class ids 0 to 1000000)");
        }
        ds->labels[i] = l;
        most = std::max(most, l);
    }
    ds->numClasses = static_cast<uint32_t>(most + 1);
    const std::size_t values = x.data.size() / x.itemBytes;
    ds->features.resize(values);
    for (std::size_t j = 0; j < values; ++j)
    {
        if (x.descr == "<f4")
        {
            std::memcpy(&ds->features[j], x.data.data() + 4 * j, 4);
        }
        else if (x.descr == "<f8")
        {
            double v = 0;
            std::memcpy(&v, x.data.data() + 8 * j, 8);
            ds->features[j] = static_cast<float>(v);
        }
        else
        {
            ds->features[j] = static_cast<float>(x.data[j]) / 255.0f;
        }
        if (!std::isfinite(ds->features[j]))
        {
            // Else the first training step gives NaN, and the run blames the learning rate.
            const std::size_t per = values / std::max<std::size_t>(n, 1);
            FailNpy(xName,
                    fmt::format("sample {} holds {} (value {} of the sample; float64 values "
                                "beyond float32's range become inf)",
                                j / per,
                                ds->features[j],
                                j % per),
                    "(accepted: finite features)");
        }
    }
    return ds;
}

std::shared_ptr<D2dDataset>
D2dNpy::Load(const std::string& dir,
             const std::string& split,
             double fraction,
             uint64_t seed,
             std::size_t* fileSamples)
{
    NS_LOG_FUNCTION(dir << split << fraction << seed);
    if (split != "train" && split != "test")
    {
        throw std::invalid_argument("split: '" + split + "' is not one of train, test");
    }
    if (!(fraction > 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("fraction: " + std::to_string(fraction) +
                                    " is outside the accepted range (0, 1]");
    }
    const std::string xName = dir + "/" + split + "_x.npy";
    const std::string yName = dir + "/" + split + "_y.npy";
    // x first (argument evaluation order is unspecified): a missing folder names train_x.npy.
    const Array x = ReadFile(xName);
    const Array y = ReadFile(yName);
    auto all = ToDataset(x, y, xName, yName);
    all->name = "tensors-" + split;
    if (fileSamples)
    {
        *fileSamples = all->Size();
    }
    if (fraction >= 1.0)
    {
        return all;
    }
    const auto kept = D2dStratifiedKeep(
        all->Size(),
        all->numClasses,
        [&all](std::size_t i) { return uint32_t(all->labels[i]); },
        fraction,
        seed,
        D2dDataRng::DATA_FRACTION);
    auto ds = all->Subset(kept);
    ds->name = all->name;
    return ds;
}

} // namespace ns3
