#!/usr/bin/python3
"""analysis/fedscale_profiles.py: FedScale's device-capacity trace to a device-profile file.

    test_fedscale_profiles.py [BIN_DIR]

On a trace of FedScale's format built here (a pickled dictionary client id ->
{'computation', 'communication'}): the speeds are median x median(ms) / ms, worked by hand
for a draw of every client (1e-12 relative); a draw of fewer clients is the seeded sample
of random.Random, the same for the same seed; a hostile pickle (one that would call
os.system), a file that is no pickle, a client without computation and --devices above the
clients are refused in one line, exit 2, nothing written. With BIN_DIR, fedavg accepts the
file written (--validate).
"""

import os
import pickle
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "analysis", "fedscale_profiles.py")
BIN = None


class Hostile:
    """Unpickling this would run os.system."""

    def __reduce__(self):
        return (os.system, ("touch /tmp/fedscale-profiles-pwned",))


class FedScaleProfilesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fedscale-profiles.")
        self.trace = os.path.join(self.tmp, "client_device_capacity")
        # ms per sample 10, 20, 40, 80 (ids out of order): median 30.
        with open(self.trace, "wb") as fh:
            pickle.dump({4: {"computation": 80.0, "communication": 1e3},
                         1: {"computation": 10.0, "communication": 5e3},
                         3: {"computation": 40.0, "communication": 2e3},
                         2: {"computation": 20, "communication": 3e3}}, fh)

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True,
                              text=True, timeout=60)

    def rows(self, path):
        with open(path) as fh:
            lines = fh.read().splitlines()
        self.assertEqual(lines[0], "device,flops_per_second")
        return [float(line.split(",")[1]) for line in lines[1:]]

    def test_every_client_by_hand(self):
        out = os.path.join(self.tmp, "p.csv")
        p = self.run_script(self.trace, "--devices=4", "--out=" + out, "--median-flops=3e9")
        self.assertEqual(p.returncode, 0, p.stderr)
        speeds = sorted(self.rows(out))
        # 3e9 x 30 / ms for ms = 80, 40, 20, 10.
        for got, want in zip(speeds, [3e9 * 30 / 80, 3e9 * 30 / 40, 3e9 * 30 / 20, 3e9 * 3]):
            self.assertAlmostEqual(got / want, 1.0, delta=1e-12)
        if BIN:
            v = subprocess.run([os.path.join(BIN, "fedavg"), "--nDevices=4",
                                "--deviceProfiles=" + out, "--validate"],
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(v.returncode, 0, v.stderr)

    def test_seeded_sample(self):
        a, b, c = (os.path.join(self.tmp, n) for n in ("a.csv", "b.csv", "c.csv"))
        for path, seed in ((a, "5"), (b, "5"), (c, "6")):
            self.assertEqual(self.run_script(self.trace, "--devices=2", "--out=" + path,
                                             "--seed=" + seed).returncode, 0)
        self.assertEqual(self.rows(a), self.rows(b))
        import random
        for path, seed in ((a, 5), (c, 6)):
            chosen = random.Random(seed).sample([1, 2, 3, 4], 2)
            ms = [{1: 10, 2: 20, 3: 40, 4: 80}[k] for k in chosen]
            median = sum(ms) / 2
            want = [1e10 * median / x for x in ms]
            for got, w in zip(self.rows(path), want):
                self.assertAlmostEqual(got / w, 1.0, delta=1e-12)

    def test_refusals(self):
        hostile = os.path.join(self.tmp, "hostile")
        with open(hostile, "wb") as fh:
            pickle.dump({1: Hostile()}, fh)
        junk = os.path.join(self.tmp, "junk")
        with open(junk, "wb") as fh:
            fh.write(b"device,flops\n1,2\n")
        missing = os.path.join(self.tmp, "missing")
        with open(missing, "wb") as fh:
            pickle.dump({1: {"communication": 5.0}}, fh)
        out = os.path.join(self.tmp, "never.csv")
        for args, words in (([hostile, "--devices=1"], "posix.system"),
                            ([junk, "--devices=1"], "not a pickle"),
                            ([missing, "--devices=1"], "no positive 'computation'"),
                            ([self.trace, "--devices=5"], "the trace has 4 clients"),
                            ([self.trace, "--devices=0"], "--devices=0")):
            p = self.run_script(*(args + ["--out=" + out]))
            lines = p.stderr.strip().splitlines()
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertEqual(len(lines), 1, p.stderr)
            self.assertIn(words, lines[0])
            self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists("/tmp/fedscale-profiles-pwned"))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        BIN = sys.argv.pop(1)
    unittest.main()
