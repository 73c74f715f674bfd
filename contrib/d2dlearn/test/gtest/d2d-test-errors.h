/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest helper: the message of the exception a call throws, for the tests that check
 * the one-line errors of the data layer (idx files, partitioners, synthetic generators).
 */
#ifndef D2D_TEST_ERRORS_H
#define D2D_TEST_ERRORS_H

#include <exception>
#include <functional>
#include <string>

namespace d2dtest
{

/**
 * \return the message of the exception f throws ("" if none), prefixed "wrong exception
 * type: " if it throws another std::exception than E
 * \param f the call
 */
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

/** \return whether s contains part \param s the text \param part the text looked for */
inline bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace d2dtest

#endif /* D2D_TEST_ERRORS_H */
