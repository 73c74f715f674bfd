#!/usr/bin/python3
"""Every CTest test carries exactly one cost label, quick or full (cmake/d2dlearnTestLabels.cmake),
and the rule that gives them holds: a test whose COST (its seconds in a clean-clone run) is at
least the limit, or that builds the manual (doc) or an ns-3 source tree (ns3-release), or runs
against the newest ns-3 release (release), is full;
`ctest -L quick` runs only the rest.

    check-test-labels.py BUILD_DIR LIMIT_SECONDS

Reads the tests from `ctest --show-only=json-v1` (the GoogleTest cases included, as CTest
discovered them), run on a temporary test folder whose CTestTestfile.cmake names the build
folder: even -N writes Testing/Temporary/LastTest.log in its test folder, and in the build
folder that would clobber the log of the CTest run this test is part of. Exit 0 when every test is labelled as the rule says, 1 with one line per test
that is not.
"""
import json
import os
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: check-test-labels.py BUILD_DIR LIMIT_SECONDS")
    build, limit = argv[1], float(argv[2])
    with tempfile.TemporaryDirectory(prefix="check-test-labels.") as tmp:
        with open(os.path.join(tmp, "CTestTestfile.cmake"), "w") as f:
            f.write('subdirs("%s")\n' % os.path.abspath(build))
        out = subprocess.run(["ctest", "--test-dir", tmp, "--show-only=json-v1"],
                             stdout=subprocess.PIPE, check=True, text=True).stdout
    tests = json.loads(out)["tests"]
    bad = []
    for t in tests:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels = props.get("LABELS", [])
        kinds = [k for k in ("quick", "full") if k in labels]
        if len(kinds) != 1:
            bad.append("%s: labels %s, not exactly one of quick and full" % (t["name"], labels))
            continue
        cost = float(props.get("COST", 0))
        want = "full" if (cost >= limit or "doc" in labels or "ns3-release" in labels
                               or "release" in labels) else "quick"
        if kinds[0] != want:
            bad.append("%s: labelled %s, but COST %g and labels %s make it %s"
                       % (t["name"], kinds[0], cost, labels, want))
    for line in bad:
        print(line)
    count = {k: sum(1 for t in tests if k in {p["name"]: p["value"] for p in
                                              t.get("properties", [])}.get("LABELS", []))
             for k in ("quick", "full")}
    print("check-test-labels: %d tests, %d quick, %d full, %d wrongly labelled"
          % (len(tests), count["quick"], count["full"], len(bad)))
    return 1 if bad or not tests else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
