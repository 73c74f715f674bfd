/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest helper: gzip-compress bytes in memory (zlib), for the tests that write the
 * gzip files the readers parse (idx sets).
 */
#ifndef D2D_TEST_GZIP_H
#define D2D_TEST_GZIP_H

#include <gtest/gtest.h>
#include <string>
#include <zlib.h>

namespace d2dtest
{

/** \return data gzip-compressed (one member) \param data the bytes */
inline std::string
Gzip(const std::string& data)
{
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, data.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace d2dtest

#endif /* D2D_TEST_GZIP_H */
