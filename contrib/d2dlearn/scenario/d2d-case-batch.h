/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CASE_BATCH_H
#define D2D_CASE_BATCH_H

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief Many command lines of one program in one process start: the bad-input tests'
 * batch mode (tests/cli/lib-bad-input.sh).
 *
 * With the environment variable D2DLEARN_CASES=FILE, D2dScenarioFlags::Parse() reads FILE,
 * one case per line (the arguments, separated by tabs), and for each case forks: the child
 * goes on as the program would with those arguments (its stdout and stderr in FILE.N.out
 * and FILE.N.err, N = 1, 2, ... the case's line), the parent waits for it (at most
 * D2DLEARN_CASE_TIMEOUT seconds, default 60: then SIGKILL) and writes its exit status to
 * FILE.N.rc (128 + the signal if it was killed by one, 124 after the timeout); after the
 * last case the parent exits 0 without running anything. Everything before Parse() (the
 * libraries loaded, LibTorch's among them, and the defaults the program sets) is done once
 * and inherited: a case costs a fork instead of a program start, and runs every check a
 * fresh process would, since nothing before Parse() depends on the arguments. A child's
 * exit runs the handlers and destructors the case registered, then skips the teardown of
 * what was there before the fork (the libraries' static objects).
 */
class D2dCaseBatch
{
  public:
    /**
     * \brief Run the cases of D2DLEARN_CASES, if set. Returns at once without it; in a
     * child, returns with argc and argv replaced by the case's (program name kept); never
     * returns in the parent.
     * \param argc main()'s argument count
     * \param argv main()'s arguments
     */
    static void RunIfRequested(int& argc, char**& argv);
};

} // namespace ns3

#endif /* D2D_CASE_BATCH_H */
