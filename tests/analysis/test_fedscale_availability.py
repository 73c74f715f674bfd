#!/usr/bin/python3
"""analysis/fedscale_availability.py: FedScale's availability trace to an availability file.

    test_fedscale_availability.py [BIN_DIR]

On a trace of FedScale's format built here (a pickled dictionary client id -> {'active',
'inactive', 'finish_time', ...}): the intervals written are worked by hand (the period
repeated every finish_time, clipped at --duration, merged at the period's seam, a part
beyond finish_time never reached, an empty interval dropped, a client active all the time
given no row, clients never active not drawn), integers written as integers, --time-scale
multiplying every time exactly; the draw is the seeded sample of random.Random among the
clients active in [0, duration), the same for the same seed; a hostile pickle (one that
would call os.system), a file that is no pickle, each malformed trace and argument, and
--devices above the eligible clients are refused in one line, exit 2, nothing written.
With BIN_DIR (or build/bin/fedavg), fedavg runs with the file written and its
availability.csv holds the leaves and returns of the file's intervals up to the run's end;
without the program that part is skipped, saying so.
"""

import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "analysis", "fedscale_availability.py")
BIN = None
PWNED = "/tmp/fedscale-availability-pwned"

# Ids out of order; duration 260 s throughout.
TRACE = {
    # period [0, 30) and [50, 100) every 100 s: [50, 100) meets the next period's [0, 30).
    7: {"duration": 260, "active": [0, 50], "inactive": [30, 100], "finish_time": 100,
        "model": "Pixel"},
    # [40, 2000) reaches past finish_time 1000 (never reached), clipped at 260.
    3: {"duration": 0, "active": [40], "inactive": [2000], "finish_time": 1000, "model": "x"},
    # active over the whole period: always available, no row.
    12: {"duration": 0, "active": [0], "inactive": [60], "finish_time": 60, "model": "x"},
    # active only from 500 s: never in [0, 260), not drawn.
    5: {"duration": 0, "active": [500], "inactive": [600], "finish_time": 1000, "model": "x"},
    # an empty interval [5, 5) and [7, 20) every 100 s.
    9: {"duration": 0, "active": [5, 7], "inactive": [5, 20], "finish_time": 100, "model": "x"},
    # no interval at all: never active, not drawn.
    11: {"duration": 0, "active": [], "inactive": [], "finish_time": 10, "model": "x"},
}
ELIGIBLE = [3, 7, 9, 12]  # ascending ids
# By hand, trace seconds over [0, 260); None: no row (always available).
EXPECTED = {
    7: [(0, 30), (50, 130), (150, 230), (250, 260)],
    3: [(40, 260)],
    12: None,
    9: [(7, 20), (107, 120), (207, 220)],
}


class Hostile:
    """Unpickling this would run os.system."""

    def __reduce__(self):
        return (os.system, ("touch " + PWNED,))


class FedScaleAvailabilityTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="fedscale-availability.")
        self.tmp = self.dir.name
        self.trace = self.pickle("client_behave_trace", TRACE)

    def tearDown(self):
        self.dir.cleanup()

    def pickle(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as fh:
            pickle.dump(data, fh)
        return path

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True,
                              text=True, timeout=60)

    def convert(self, *args):
        out = os.path.join(self.tmp, "availability-in.csv")
        p = self.run_script(self.trace, "--out=" + out, "--duration=260", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as fh:
            return out, fh.read()

    def rows(self, text):
        """{device: [(start, end)]} of the file's text, in its order."""
        lines = text.splitlines()
        self.assertEqual(lines[0], "device,start_s,end_s")
        out = {}
        for line in lines[1:]:
            d, s, e = line.split(",")
            out.setdefault(int(d), []).append((float(s), float(e)))
        return out

    def expected_text(self, chosen, scale):
        lines = ["device,start_s,end_s"]
        for device, client in enumerate(chosen):
            for s, e in EXPECTED[client] or []:
                lines.append("%d,%s,%s" % (device, scale(s), scale(e)))
        return "\n".join(lines) + "\n"

    def test_every_client_by_hand(self):
        chosen = random.Random(1).sample(ELIGIBLE, 4)
        _, text = self.convert("--devices=4")
        # Integers stay integers: the file's text exactly.
        self.assertEqual(text, self.expected_text(chosen, str))
        _, text = self.convert("--devices=4", "--time-scale=2")
        self.assertEqual(text, self.expected_text(chosen, lambda t: str(2 * t)))
        # 0.01: each time t x 0.01, the same double (repr reads back exactly).
        _, text = self.convert("--devices=4", "--time-scale=0.01")
        got = self.rows(text)
        want = {d: [(s * 0.01, e * 0.01) for s, e in EXPECTED[c]]
                for d, c in enumerate(chosen) if EXPECTED[c]}
        self.assertEqual(got, want)
        self.assertIn("2.3000000000000003", text)  # 230 x 0.01, not rounded to 2.3

    def test_seeded_sample(self):
        texts = {}
        for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
            _, texts[name] = self.convert("--devices=2", "--seed=" + seed)
        self.assertEqual(texts["a"], texts["b"])
        for name, seed in (("a", 5), ("c", 6)):
            chosen = random.Random(seed).sample(ELIGIBLE, 2)
            self.assertEqual(texts[name], self.expected_text(chosen, str))
        # The default seed is 1.
        self.assertEqual(self.convert("--devices=3")[1],
                         self.convert("--devices=3", "--seed=1")[1])

    def test_refusals(self):
        hostile = self.pickle("hostile", {1: Hostile()})
        hostile_inside = self.pickle("hostile-inside", {1: {"active": [0], "inactive": [5],
                                                            "finish_time": Hostile()}})
        junk = os.path.join(self.tmp, "junk")
        with open(junk, "wb") as fh:
            fh.write(b"device,start_s,end_s\n0,1,2\n")
        ok = {"active": [0, 50], "inactive": [30, 100], "finish_time": 100}

        def client(**change):
            entry = dict(ok, **change)
            return self.pickle("bad", {1: entry, 2: ok})

        def without(key):
            return self.pickle("bad", {1: {k: v for k, v in ok.items() if k != key}})

        cases = (
            (lambda: [hostile, "--devices=1"], "posix.system"),
            (lambda: [hostile_inside, "--devices=1"], "posix.system"),
            (lambda: [junk, "--devices=1"], "not a pickle"),
            (lambda: [os.path.join(self.tmp, "none"), "--devices=1"], "cannot be read"),
            (lambda: [self.pickle("bad", [ok]), "--devices=1"], "not a dictionary of clients"),
            (lambda: [self.pickle("bad", {}), "--devices=1"], "not a dictionary of clients"),
            (lambda: [self.pickle("bad", {1: [0, 30]}), "--devices=1"],
             "client 1: not a dictionary"),
            (lambda: [without("finish_time"), "--devices=1"], "client 1: no 'finish_time'"),
            (lambda: [without("active"), "--devices=1"], "client 1: no 'active'"),
            (lambda: [without("inactive"), "--devices=1"], "client 1: no 'inactive'"),
            (lambda: [client(finish_time=0), "--devices=1"], "'finish_time' must be a positive"),
            (lambda: [client(finish_time=True), "--devices=1"], "'finish_time' must be"),
            (lambda: [client(finish_time=float("inf")), "--devices=1"], "'finish_time' must"),
            (lambda: [client(finish_time="100"), "--devices=1"], "'finish_time' must"),
            (lambda: [client(active=5), "--devices=1"], "'active' must be a list"),
            (lambda: [client(active=[0, "50"]), "--devices=1"], "'active' holds '50'"),
            (lambda: [client(inactive=[-1, 100]), "--devices=1"], "'inactive' holds -1"),
            (lambda: [client(active=[0, float("nan")]), "--devices=1"], "'active' holds nan"),
            (lambda: [client(inactive=[30]), "--devices=1"], "differ in length (2 and 1)"),
            (lambda: [client(active=[0, 20]), "--devices=1"],
             "not ascending (active[0] <= inactive[0] <= active[1] <= ...): "
             "active[1] = 20 after inactive[0] = 30"),
            (lambda: [client(active=[40, 50]), "--devices=1"],
             "inactive[0] = 30 after active[0] = 40"),
            (lambda: [self.trace, "--devices=5", "--duration=260"],
             "--devices=5: the trace has 4 clients active in [0, 260 s) (of 6"),
            (lambda: [self.trace, "--devices=0"], "--devices=0"),
            (lambda: [self.trace, "--devices=1", "--duration=0"], "--duration=0.0"),
            (lambda: [self.trace, "--devices=1", "--duration=nan"], "--duration=nan"),
            (lambda: [self.trace, "--devices=1", "--time-scale=-1"], "--time-scale=-1.0"),
            (lambda: [self.trace, "--devices=1", "--duration=2e9"], "beyond fedavg's"),
            (lambda: [self.trace, "--devices=1", "--duration=1e6", "--time-scale=1e4"],
             "beyond fedavg's"),
            (lambda: [self.trace, "--devices=x"], "invalid int value"),
        )
        out = os.path.join(self.tmp, "never.csv")
        for args, words in cases:
            args = args()
            with self.subTest(args=args):
                p = self.run_script(*(args + ["--out=" + out]))
                lines = p.stderr.strip().splitlines()
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(len(lines), 1, p.stderr)
                self.assertTrue(lines[0].startswith("fedscale_availability.py: error: "),
                                lines[0])
                self.assertIn(words, lines[0])
                self.assertEqual(p.stdout, "")
                self.assertFalse(os.path.exists(out))
                self.assertEqual([n for n in os.listdir(self.tmp) if n.endswith(".tmp")], [])
        self.assertFalse(os.path.exists(PWNED))

    def test_fedavg_follows_the_file(self):
        fedavg = os.path.join(BIN or os.path.join(TOP, "build", "bin"), "fedavg")
        if not os.access(fedavg, os.X_OK):
            reason = "no fedavg program at %s (build it, or give BIN_DIR)" % fedavg
            print("test_fedscale_availability.py: end-to-end check skipped: " + reason,
                  file=sys.stderr)
            self.skipTest(reason)
        # 0.02: the trace's 260 s in 5.2 s of simulated time, about three rounds.
        path, text = self.convert("--devices=4", "--time-scale=0.02")
        intervals = self.rows(text)
        run = os.path.join(self.tmp, "run")
        p = subprocess.run([fedavg, "--availabilityFile=" + path, "--nDevices=4", "--rounds=3",
                            "--quiet", "--outDir=" + run],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(run, "run.json")) as fh:
            end = json.load(fh)["simulated_time_s"]
        # A listed device is there exactly within its intervals: away at 0 unless its first
        # interval starts there, back at each start, away at each end.
        want = []
        for device, listed in intervals.items():
            if listed[0][0] > 0:
                want.append((0.0, device, 0))
            for s, e in listed:
                if s > 0:
                    want.append((s, device, 1))
                want.append((e, device, 0))
        with open(os.path.join(run, "availability.csv")) as fh:
            lines = fh.read().splitlines()
        self.assertEqual(lines[0], "sim_time_s,device,available")
        got = [(float(t), int(d), int(a)) for t, d, a in (l.split(",") for l in lines[1:])]
        self.assertTrue(all(t <= end + 1e-6 for t, _, _ in got), (got, end))

        def before_end(rows):  # an event at the run's very end may or may not be written
            return sorted((round(t, 6), d, a) for t, d, a in rows if t < end - 1e-6)

        self.assertEqual(before_end(got), before_end(want))
        self.assertGreater(len(before_end(want)), 4, (want, end))  # changes during the run
        # The device of the client active all the time: no row, there all run.
        always = [d for d, c in enumerate(random.Random(1).sample(ELIGIBLE, 4))
                  if EXPECTED[c] is None]
        self.assertEqual(len(always), 1)
        self.assertNotIn(always[0], {d for _, d, _ in got})


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BIN = sys.argv.pop(1)
    unittest.main()
