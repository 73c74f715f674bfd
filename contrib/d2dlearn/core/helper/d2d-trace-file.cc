/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "d2d-trace-file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace ns3
{

D2dTraceFile::D2dTraceFile()
    : std::ostream(nullptr)
{
    rdbuf(&m_buffer);
}

void
D2dTraceFile::OpenNew(const std::string& path, char* buffer, std::streamsize bufferBytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        const int error = errno;
        throw std::runtime_error("outDir: cannot create the temporary file '" + path +
                                 "': " + std::strerror(error) +
                                 (error == EEXIST ? " (something is in the way: remove it)" : ""));
    }
    if (buffer)
    {
        m_buffer.pubsetbuf(buffer, bufferBytes);
    }
    errno = 0;
    bool open =
        m_buffer.open("/proc/self/fd/" + std::to_string(fd), std::ios::out | std::ios::trunc);
    if (!open)
    {
        open = m_buffer.open(path, std::ios::out | std::ios::trunc); // no /proc: the name
    }
    const int error = errno;
    ::close(fd);
    if (!open)
    {
        throw std::runtime_error("outDir: cannot write the temporary file '" + path +
                                 "': " + std::strerror(error ? error : EIO));
    }
    clear();
}

bool
D2dTraceFile::OpenExisting(const std::string& path)
{
    const bool open = m_buffer.open(path, std::ios::out | std::ios::trunc);
    clear(open ? std::ios::goodbit : std::ios::failbit);
    return open;
}

void
D2dTraceFile::Close()
{
    if (!m_buffer.is_open())
    {
        return; // closed already (or never opened): nothing to write
    }
    errno = 0;
    if (!m_buffer.close())
    {
        m_buffer.Record(); // the flush (overflow) or close(2) failed
        setstate(std::ios::failbit);
    }
}

bool
D2dTraceFile::IsOpen() const
{
    return m_buffer.is_open();
}

int
D2dTraceFile::Error() const
{
    return m_buffer.m_error;
}

std::string
D2dTraceFile::ErrorText() const
{
    return std::strerror(m_buffer.m_error ? m_buffer.m_error : EIO);
}

void
D2dTraceFile::Buffer::Record()
{
    if (m_error == 0)
    {
        m_error = errno ? errno : EIO;
    }
}

D2dTraceFile::Buffer::int_type
D2dTraceFile::Buffer::overflow(int_type c)
{
    errno = 0;
    const int_type result = std::filebuf::overflow(c);
    if (traits_type::eq_int_type(result, traits_type::eof()))
    {
        Record(); // a full buffer, or what close() flushes, not written
    }
    return result;
}

std::streamsize
D2dTraceFile::Buffer::xsputn(const char_type* s, std::streamsize n)
{
    errno = 0;
    const std::streamsize written = std::filebuf::xsputn(s, n);
    if (written < n)
    {
        Record();
    }
    return written;
}

int
D2dTraceFile::Buffer::sync()
{
    errno = 0;
    const int result = std::filebuf::sync();
    if (result != 0)
    {
        Record();
    }
    return result;
}

} // namespace ns3
