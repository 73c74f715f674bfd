#!/usr/bin/env python3
"""A committed file is a program's output, byte for byte (a generated table of the manual).

  tests/tools/check-printed-file.py PROGRAM COMMITTED

Exit 0 when they are the same; 1 with the difference and the command that regenerates the
file (its source changed without it).
"""

import difflib
import os
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
BIN, COMMITTED = sys.argv[1], sys.argv[2]
printed = subprocess.run([BIN], check=True, stdout=subprocess.PIPE, text=True,
                         timeout=120).stdout
with open(COMMITTED, encoding="utf-8") as f:
    committed = f.read()
if printed != committed:
    name = os.path.basename(BIN)
    sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True),
                                               printed.splitlines(True), COMMITTED, name))
    print("FAIL: %s is not %s's output; regenerate it: %s > %s" % (COMMITTED, name, BIN,
                                                                    COMMITTED))
    sys.exit(1)
print("ok: %s is %s's output (%d lines)" % (COMMITTED, os.path.basename(BIN),
                                            len(printed.splitlines())))
