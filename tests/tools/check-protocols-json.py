#!/usr/bin/env python3
"""The committed protocols.json is the registry's: d2dlearn-print-protocols' output, byte for byte.

  tests/tools/check-protocols-json.py PRINT_PROTOCOLS_BIN COMMITTED_JSON

Exit 0 when they are the same; 1 with the difference and the command that regenerates the
file (a protocol added to D2dProtocolRegistry, or a label changed, without it).
"""

import difflib
import json
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
BIN, COMMITTED = sys.argv[1], sys.argv[2]
printed = subprocess.run([BIN], check=True, stdout=subprocess.PIPE, text=True,
                         timeout=120).stdout
json.loads(printed)  # the program prints valid JSON
with open(COMMITTED, encoding="utf-8") as f:
    committed = f.read()
if printed != committed:
    sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True),
                                               printed.splitlines(True),
                                               COMMITTED, "d2dlearn-print-protocols"))
    print("FAIL: %s is not the registry's; regenerate it: %s > %s" % (COMMITTED, BIN, COMMITTED))
    sys.exit(1)
print("ok: %s is the registry's (%d protocols, %d aggregation rules)"
      % (COMMITTED, len(json.loads(printed)["protocols"]),
         len(json.loads(printed)["aggregations"])))
