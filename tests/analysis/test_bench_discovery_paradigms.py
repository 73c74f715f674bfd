#!/usr/bin/python3
"""Test of bench/bench-discovery-paradigms.py's parsing and arithmetic, worked by hand:

fit: (2 iterations, 1.5 s) and (6, 3.5 s): slope (3.5 - 1.5) / 4 = 0.5 s per iteration,
  preparation 1.5 - 0.5 x 2 = 0.5 s.
figures: supervised at 10 devices (2, 1.2 s), (6, 1.6 s): 0.1 s/iter, prep 1.0 s, default
  5000 x 1 edge: 1.0 + 500 = 501 s; unsupervised (2 edges: 4, 3.0 s), (12, 7.0 s): 0.5 s/iter,
  prep 1.0 s, ratio 5.0, default 1.0 + 0.5 x 10000 = 5001 s, ratio 5001 / 501 = 9.98;
  unsupervised at 25 devices (4, 10 s), (12, 26 s): 2.0 s/iter, no supervised there: no ratio;
  growth 10 -> 25: 2.0 / 0.5 = 4.
reward_pairs: gd_nodes.csv with clusters of 3, 1 and 2 devices: 3 clusters, the largest 3,
  ordered pairs 3 x 2 + 0 + 2 x 1 = 8.
iterations_done: gd_iterations.csv keeping iterations 0 and 5 of edges 0 and 1 (traceEvery
  skipping the middle): 6 + 6 = 12, two edges; a run.json saying 7 x 2 is refused.
default_iterations: read off a --PrintHelp line `[5000]`.
parse_kernel: bench-kl-blocks' three rates read off its lines; a missing one is refused.
Bad input: each of --devices, --iterations, --paradigms, --whole, --bin exits 2 with one line naming
  the parameter.
End to end on a fake graph-discovery (writes run.json and gd_iterations.csv after sleeping
  0.05 s per RL iteration, and gd_nodes.csv with devices 2k and 2k + 1 in cluster k): every
  (paradigm, devices) row, with its reward pairs (3 devices: 2; 4 devices: 4), with the iterations done per edge
  x edges counted and a slope near 0.05 s (0.03 to 0.5 on a loaded machine).

Run it directly: /usr/bin/python3 tests/analysis/test_bench_discovery_paradigms.py"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(TOP, "bench", "bench-discovery-paradigms.py")
spec = importlib.util.spec_from_file_location("bench_discovery_paradigms", SCRIPT)
bd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bd)

FAKE = r'''#!/usr/bin/python3
import json, os, sys, time
a = dict(x[2:].split("=", 1) for x in sys.argv[1:] if "=" in x)
if "--PrintHelp" in sys.argv:
    print("    --iterations:   RL iterations per edge (ns3::D2dGraphDiscovery::Iterations) [5000]")
    sys.exit(0)
edges = 2 if a.get("paradigm") == "unsupervised" else 1
it = int(a["iterations"])
time.sleep(0.05 * it * edges)
os.makedirs(a["outDir"], exist_ok=True)
with open(os.path.join(a["outDir"], "gd_iterations.csv"), "w") as f:
    f.write("edge,iteration,node\n")
    for e in range(edges):
        for i in sorted({0, it - 1}):
            f.write("%d,%d,0\n" % (e, i))
with open(os.path.join(a["outDir"], "run.json"), "w") as f:
    json.dump(dict(parameters=dict(iterations=it, edges=edges)), f)
with open(os.path.join(a["outDir"], "gd_nodes.csv"), "w") as f:
    f.write("node,x_m,y_m,cluster\n")
    for i in range(int(a["nDevices"])):
        f.write("%d,0,0,%d\n" % (i, i // 2))
'''


class Arithmetic(unittest.TestCase):
    def test_fit(self):
        slope, prep = bd.fit(2, 1.5, 6, 3.5)
        self.assertAlmostEqual(slope, 0.5)
        self.assertAlmostEqual(prep, 0.5)

    def test_figures(self):
        runs = {("supervised", 10): [(2, 1, 1.2), (6, 1, 1.6)],
                ("unsupervised", 10): [(4, 2, 3.0), (12, 2, 7.0)],
                ("unsupervised", 25): [(4, 2, 10.0), (12, 2, 26.0)]}
        rows = {(r["paradigm"], r["devices"]): r for r in bd.figures(runs, 5000)}
        s = rows[("supervised", 10)]
        u, u25 = rows[("unsupervised", 10)], rows[("unsupervised", 25)]
        self.assertAlmostEqual(s["s_per_iteration"], 0.1)
        self.assertAlmostEqual(s["preparation_s"], 1.0)
        self.assertAlmostEqual(s["projected_default_s"], 501.0)
        self.assertAlmostEqual(s["ratio_per_iteration"], 1.0)
        self.assertAlmostEqual(u["s_per_iteration"], 0.5)
        self.assertAlmostEqual(u["preparation_s"], 1.0)
        self.assertEqual(u["default_iterations"], 10000)
        self.assertAlmostEqual(u["projected_default_s"], 5001.0)
        self.assertAlmostEqual(u["ratio_per_iteration"], 5.0)
        self.assertAlmostEqual(u["ratio_default"], 5001.0 / 501.0)
        self.assertIsNone(u25["ratio_per_iteration"])
        self.assertAlmostEqual(bd.growth(list(rows.values()), "unsupervised", 10, 25), 4.0)
        self.assertIsNone(bd.growth(list(rows.values()), "supervised", 10, 25))
        noisy = [dict(paradigm="x", devices=10, s_per_iteration=0.1),
                 dict(paradigm="x", devices=25, s_per_iteration=-0.1)]
        self.assertIsNone(bd.growth(noisy, "x", 10, 25))

    def test_default_iterations(self):
        self.assertEqual(bd.default_iterations(
            "    --iterations:    RL iterations per edge"
            " (ns3::D2dGraphDiscovery::Iterations) [5000]\n"
            "    --bufferSize:    H [256]\n"), 5000)
        with self.assertRaises(ValueError):
            bd.default_iterations("--bufferSize: H [256]")

    def test_reward_pairs(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "gd_nodes.csv"), "w") as f:
                f.write("node,x_m,y_m,cluster\n0,0,0,0\n1,0,0,1\n2,0,0,0\n3,0,0,2\n"
                        "4,0,0,0\n5,0,0,2\n")
            self.assertEqual(bd.reward_pairs(d), (3, 3, 8))

    def test_iterations_done(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "gd_iterations.csv"), "w") as f:
                f.write("edge,iteration,node\n0,0,0\n0,0,1\n0,5,0\n1,0,0\n1,5,1\n")
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(dict(parameters=dict(iterations=6, edges=2)), f)
            self.assertEqual(bd.iterations_done(d), (12, 2))
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(dict(parameters=dict(iterations=7, edges=2)), f)
            with self.assertRaises(ValueError):
                bd.iterations_done(d)


class Command(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        prog = os.path.join(self.tmp.name, "graph-discovery")
        with open(prog, "w") as f:
            f.write(FAKE)
        os.chmod(prog, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, "--bin", self.tmp.name] + list(args),
                              capture_output=True, text=True)

    def test_parse_kernel(self):
        text = ("bench-kl-blocks: d 50, blocks of 21 x 7 Gaussians, 2 threads at once\n"
                "gemm_gflops 77.53 (dgemm 1024 x 1024 x 1024 on each thread)\n"
                "kernel_gflops 32.68 (41.3 % of gemm; ...)\n"
                "prepare_gflops 9.16 (27.3 us a Gaussian)\n")
        self.assertEqual(bd.parse_kernel(text), dict(gemm_gflops=77.53, kernel_gflops=32.68,
                                                     prepare_gflops=9.16))
        with self.assertRaises(ValueError):
            bd.parse_kernel("gemm_gflops 1\n")

    def test_bad_input(self):
        for args, name in ((["--devices", "1"], "--devices"),
                           (["--devices", "ten"], "--devices"),
                           (["--iterations", "6,2"], "--iterations"),
                           (["--iterations", "0,2"], "--iterations"),
                           (["--iterations", "2"], "--iterations"),
                           (["--paradigms", "supervised,bogus"], "--paradigms"),
                           (["--whole", "1"], "--whole")):
            r = self.run_script(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(name, r.stderr)
        r = subprocess.run([sys.executable, SCRIPT, "--bin", "/nonexistent"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--bin", r.stderr)

    def test_end_to_end(self):
        out = os.path.join(self.tmp.name, "f.json")
        r = self.run_script("--devices", "3,4", "--iterations", "1,5", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("method: two-point fit", r.stdout)
        with open(out) as f:
            rows = json.load(f)["rows"]
        self.assertEqual(len(rows), 8)
        u = next(x for x in rows if x["paradigm"] == "unsupervised" and x["devices"] == 4)
        self.assertEqual(u["iterations"], [2, 10])
        self.assertEqual(u["default_iterations"], 10000)
        s = next(x for x in rows if x["paradigm"] == "supervised" and x["devices"] == 4)
        self.assertEqual(s["iterations"], [1, 5])
        # 0.05 s a iteration, the fixed start-up cost cancelled by the slope
        for x in rows:
            self.assertTrue(0.03 < x["s_per_iteration"] < 0.5, x)
        self.assertIn("growth unsupervised 3 -> 4 devices", r.stdout)
        self.assertIn("ordered pairs in reward clusters 2 -> 4", r.stdout)
        self.assertEqual((u["reward_clusters"], u["largest_cluster"], u["pairs"]), (2, 2, 4))


if __name__ == "__main__":
    unittest.main()
