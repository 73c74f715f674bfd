#!/usr/bin/env python3
"""graph-discovery: the RL phase's D2D energy grows linearly in N (Wagle, Das, Love and
Brinton, "Multi-Agent Reinforcement Learning for Graph Discovery in D2D-Enabled Federated
Learning", 2025, sec. VI-J: O(N E t)).

Every link has the same P_D (--dropProbability=0.05, below the reliable-cluster bound
alpha_D = 0.1), so all N devices form one reliable cluster and a message costs the same on
every link: the energy follows the message count.
- --rewardSharing=cluster-head (default): per iteration 4N control messages, N - 1 rewards
  to the head and one r^G multicast to N - 1 members. The RL energy at N = 20 and 40 must be
  within 5 % of 2x and 4x that at N = 10 (the count alone gives 2.03x and 4.10x).
- --rewardSharing=multicast (the literal reading): N reward multicasts of N - 1 receptions
  each; at N = 40 the energy must exceed 6x that at N = 10 (the count gives about 10x), which
  is what the cluster head removes.
The energy is run.json's gdRlEnergyJ (the D2D energy until the policies are learned). The
radios' idle listening (D2dRadioEnergyModel's IdlePowerW, 0.819 W per radio by default) is
set to 0: it grows with N x the phase's duration whatever the messages, and the claim is
about the messages' energy (the paper's energy model has no idle term).

Usage: graph-discovery-energy-scaling.py PATH/TO/graph-discovery
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
COMMON = ["--dataFraction=0.02", "--iterations=30", "--bufferSize=16", "--traceEvery=30",
          "--downstream=none", "--dropProbability=0.05", "--threads=0", "--quiet",
          "--radioProfile=custom", "--ns3::D2dRadioEnergyModel::IdlePowerW=0"]


def rl_energy(tmp, n, sharing):
    out = os.path.join(tmp, f"{sharing}-{n}")
    cmd = [BIN, f"--nDevices={n}", f"--rewardSharing={sharing}", f"--outDir={out}"] + COMMON
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: {res.stderr.strip()[-300:]}")
    with open(os.path.join(out, "run.json")) as f:
        run = json.load(f)
    energy = float(run["summary"]["results"]["gdRlEnergyJ"])
    if energy <= 0:
        sys.exit(f"FAIL: N={n} {sharing}: RL energy {energy}")
    return energy


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for sharing in ("cluster-head", "multicast"):
            e = {n: rl_energy(tmp, n, sharing) for n in (10, 20, 40)}
            r20, r40 = e[20] / e[10], e[40] / e[10]
            print(f"{sharing}: RL energy N=10,20,40: {e[10]:.6g} {e[20]:.6g} {e[40]:.6g} J; "
                  f"ratios {r20:.3f}x {r40:.3f}x")
            if sharing == "cluster-head":
                if abs(r20 / 2 - 1) > 0.05 or abs(r40 / 4 - 1) > 0.05:
                    failures.append(f"cluster-head ratios {r20:.3f}, {r40:.3f} not within 5 % "
                                    "of 2 and 4")
            elif r40 <= 6:
                failures.append(f"multicast N=40 ratio {r40:.3f}: expected above 6 (quadratic)")
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
