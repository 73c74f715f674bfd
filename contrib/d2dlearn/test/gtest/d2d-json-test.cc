/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dJson, the JSON text of run.json's strings and numbers:
 * escaping of quotes, backslashes and control characters, UTF-8 kept, bytes that are not
 * UTF-8 replaced, numbers in their shortest round-trip form and null when not finite.
 */

#include "ns3/d2d-json.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using ns3::D2dJson;

namespace
{

TEST(D2dJsonTest, PlainTextIsQuoted)
{
    EXPECT_EQ(D2dJson::String(""), "\"\"");
    EXPECT_EQ(D2dJson::String("radio_tx"), "\"radio_tx\"");
    EXPECT_EQ(D2dJson::String("--nDevices=10 --outDir=out/a b"),
              "\"--nDevices=10 --outDir=out/a b\"");
}

TEST(D2dJsonTest, QuotesAndBackslashesAreEscaped)
{
    EXPECT_EQ(D2dJson::String("say \"hi\""), "\"say \\\"hi\\\"\"");
    EXPECT_EQ(D2dJson::String("C:\\dir\\"), "\"C:\\\\dir\\\\\"");
    EXPECT_EQ(D2dJson::String("/"), "\"/\""); // JSON allows '/' bare
}

TEST(D2dJsonTest, ControlCharactersAreEscaped)
{
    EXPECT_EQ(D2dJson::String("a\nb"), "\"a\\nb\"");
    EXPECT_EQ(D2dJson::String("a\tb"), "\"a\\u0009b\"");
    EXPECT_EQ(D2dJson::String("\r"), "\"\\u000d\"");
    EXPECT_EQ(D2dJson::String(std::string("a\0b", 3)), "\"a\\u0000b\"");
    EXPECT_EQ(D2dJson::String("\x1f"), "\"\\u001f\"");
    EXPECT_EQ(D2dJson::String("\x7f"), "\"\x7f\""); // DEL is not a JSON control character
}

TEST(D2dJsonTest, Utf8IsKept)
{
    EXPECT_EQ(D2dJson::String("caf\xc3\xa9"), "\"caf\xc3\xa9\"");           // U+00E9
    EXPECT_EQ(D2dJson::String("\xe2\x82\xac"), "\"\xe2\x82\xac\"");         // U+20AC
    EXPECT_EQ(D2dJson::String("\xf0\x9f\x93\xa1"), "\"\xf0\x9f\x93\xa1\""); // U+1F4E1
    EXPECT_EQ(D2dJson::String("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\""); // U+10FFFF
    EXPECT_EQ(D2dJson::String("\xef\xbf\xbd"), "\"\xef\xbf\xbd\"");         // U+FFFD
}

TEST(D2dJsonTest, BytesThatAreNotUtf8BecomeReplacementCharacters)
{
    EXPECT_EQ(D2dJson::String("a\xff"
                              "b"),
              "\"a\\ufffdb\"");
    EXPECT_EQ(D2dJson::String("\x80"), "\"\\ufffd\"");                       // stray continuation
    EXPECT_EQ(D2dJson::String("\xc0\xaf"), "\"\\ufffd\\ufffd\"");            // overlong '/'
    EXPECT_EQ(D2dJson::String("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\""); // overlong
    EXPECT_EQ(D2dJson::String("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); // surrogate
    EXPECT_EQ(D2dJson::String("\xf4\x90\x80\x80"),
              "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");                // above U+10FFFF
    EXPECT_EQ(D2dJson::String("\xe2\x82"), "\"\\ufffd\\ufffd\""); // cut sequence
    // A cut sequence followed by ASCII: the ASCII byte is kept.
    EXPECT_EQ(D2dJson::String("\xc3"
                              "A"),
              "\"\\ufffdA\"");
}

TEST(D2dJsonTest, Utf8Length)
{
    EXPECT_EQ(D2dJson::Utf8Length("\xc3\xa9", 0), 2U);
    EXPECT_EQ(D2dJson::Utf8Length("x\xe2\x82\xac", 1), 3U);
    EXPECT_EQ(D2dJson::Utf8Length("\xf0\x9f\x93\xa1", 0), 4U);
    EXPECT_EQ(D2dJson::Utf8Length("\xf0\x9f\x93", 0), 0U);
    EXPECT_EQ(D2dJson::Utf8Length("\xc1\xbf", 0), 0U);
    EXPECT_EQ(D2dJson::Utf8Length("\xf5\x80\x80\x80", 0), 0U);
}

TEST(D2dJsonTest, Numbers)
{
    EXPECT_EQ(D2dJson::Number(0), "0");
    EXPECT_EQ(D2dJson::Number(1.5), "1.5");
    EXPECT_EQ(D2dJson::Number(-2), "-2");
    EXPECT_EQ(D2dJson::Number(0.1), "0.1");
    EXPECT_EQ(D2dJson::Number(1e21), "1e+21");
    EXPECT_EQ(D2dJson::Number(std::numeric_limits<double>::infinity()), "null");
    EXPECT_EQ(D2dJson::Number(-std::numeric_limits<double>::infinity()), "null");
    EXPECT_EQ(D2dJson::Number(std::numeric_limits<double>::quiet_NaN()), "null");
    // The shortest text that reads back as the same double.
    const double third = 1.0 / 3.0;
    EXPECT_EQ(std::stod(D2dJson::Number(third)), third);
}

TEST(D2dJsonTest, NumberArrays)
{
    EXPECT_EQ(D2dJson::NumberArray({}), "[]");
    EXPECT_EQ(D2dJson::NumberArray({1}), "[1]");
    EXPECT_EQ(D2dJson::NumberArray({0.25, std::numeric_limits<double>::quiet_NaN(), -3}),
              "[0.25, null, -3]");
}

} // namespace
