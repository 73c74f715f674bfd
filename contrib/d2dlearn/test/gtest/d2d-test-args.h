/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_TEST_ARGS_H
#define D2D_TEST_ARGS_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** argv for a program's Parse() in a test: the program name, then args (kept alive by the
 * object). */
class D2dTestArgs
{
  public:
    /**
     * \param program argv[0]
     * \param args the arguments after it
     */
    D2dTestArgs(const std::string& program, std::vector<std::string> args)
        : m_args(std::move(args))
    {
        m_args.insert(m_args.begin(), program);
        for (auto& a : m_args)
        {
            m_argv.push_back(a.data());
        }
    }

    /** \return argc */
    int Argc()
    {
        return static_cast<int>(m_argv.size());
    }

    /** \return argv */
    char** Argv()
    {
        return m_argv.data();
    }

  private:
    std::vector<std::string> m_args;
    std::vector<char*> m_argv;
};

} // namespace ns3

#endif /* D2D_TEST_ARGS_H */
