#!/usr/bin/python3
"""d2dlearn benchmark: the same fedavg run with the reference BLAS and with the selected one.

    bench/bench-blas.py [--bin build/bin/fedavg] [--runs 2] [--args "--rounds=3 --threads=0"]
                        [--reference DIR]

LibTorch does its products through whatever libblas.so.3 the loader finds. This runs the
fedavg program --runs times (interleaved) as it is (the system's alternative: OpenBLAS after
setup.sh) and with the reference BLAS's folder (--reference, Debian's
/usr/lib/x86_64-linux-gnu/blas) first on LD_LIBRARY_PATH, which picks it without changing
the system's alternatives, and prints one line per run: the BLAS the run loaded (run.json's
blasLibrary, so a run that did not get the BLAS asked for shows it), its user CPU time and
wall time, and the final accuracy; then the medians and the ratio reference / selected of
user CPU. Run by hand or by bench/doc-numbers.py --perf blas.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def one(argv, env):
    with tempfile.TemporaryDirectory(prefix="d2d-bench-blas-") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        t0 = time.monotonic()
        subprocess.run(argv + ["--outDir=" + out, "--quiet"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        with open(os.path.join(out, "run.json")) as f:
            run = json.load(f)
    return dict(blas=run["parameters"].get("blasLibrary", "unknown"), user=user, wall=wall,
                accuracy=run["summary"]["final_accuracy"])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin", "fedavg"))
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--args", default="--rounds=3 --threads=0")
    p.add_argument("--reference", default="/usr/lib/x86_64-linux-gnu/blas")
    a = p.parse_args()
    argv = [a.bin] + a.args.split()
    ref_env = dict(os.environ)
    ref_env["LD_LIBRARY_PATH"] = ":".join(
        x for x in [a.reference, os.environ.get("LD_LIBRARY_PATH", "")] if x)
    print("fedavg %s, %d runs each, interleaved" % (a.args, a.runs))
    results = {"reference": [], "selected": []}
    for _ in range(a.runs):
        for case, env in (("reference", ref_env), ("selected", dict(os.environ))):
            r = one(argv, env)
            results[case].append(r)
            print("run %-9s blas=%s user_s=%.2f wall_s=%.2f accuracy=%.4f"
                  % (case, r["blas"], r["user"], r["wall"], r["accuracy"]), flush=True)
    med = {c: statistics.median(r["user"] for r in rs) for c, rs in results.items()}
    print("median user CPU: reference %.2f s, selected %.2f s, reference / selected %.2f"
          % (med["reference"], med["selected"], med["reference"] / med["selected"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
