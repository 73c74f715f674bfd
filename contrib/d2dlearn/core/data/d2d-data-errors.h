/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_DATA_ERRORS_H
#define D2D_DATA_ERRORS_H

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief The one-line errors of the data makers (D2dSyntheticData, D2dPartitioner): the
 * parameter's name, then what is wrong with its value. (Internal: not a published header.)
 */
class D2dDataErrors
{
  public:
    /**
     * \param param the parameter's name, e.g. "nDevices"
     * \param what what is wrong, with the accepted range
     * \throws std::invalid_argument "param: what", always
     */
    [[noreturn]] static void Refuse(const std::string& param, const std::string& what)
    {
        throw std::invalid_argument(param + ": " + what);
    }

    /**
     * \param x a value
     * \return x as a stream writes it by default (6 significant digits), e.g. "0.1"
     */
    static std::string Number(double x)
    {
        std::ostringstream os;
        os << x;
        return os.str();
    }
};

} // namespace ns3

#endif /* D2D_DATA_ERRORS_H */
