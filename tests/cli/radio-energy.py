#!/usr/bin/python3
"""Radio and compute energy as real devices draw it: states in order, unused radios off, CPUs.

1. Message-size sweep (d2d-exchange, 10 devices, 10 s, its default traffic): with the default
   radio profile (ns3-wifi: transmit 1.14 W >= receive 0.939 W >= idle 0.819 W) the radios'
   total energy never falls as the messages grow (1, 5, 20, 60 kB). With d2dlearn's former
   powers (transmit 0.3 W, receive 0.1 W below idle 0.819 W, as custom powers with
   --allowUnorderedRadioPowers) the same sweep falls: the check can fail, and did on the
   former defaults. The nr-ue profile (3GPP TR 38.840: transmit 1.43 W >= receive 0.9 W >=
   idle 0.3 W at 20 dBm) never falls either.
2. Server FedAvg (fedavg, the main job's protocol, 2 rounds) sends nothing over D2D: its D2D
   radios are off from the start and draw 0 J on both backends (no radio_* rows in
   energy.csv, run.json's d2dRadioOff true); so does d2d-exchange with --d2sFraction=1,
   whose devices still send every message to the server (before, they stopped with their
   D2D radio and sent nothing); --d2dRadio=on keeps them listening: each device's radio_idle is then
   IdlePowerW x the run, 0.819 W x simulated time within 1e-6 relative.
3. Unordered custom powers without --allowUnorderedRadioPowers are refused in one line naming
   the broken order; with it, run.json's radioStateOrder says which order they break.
4. The CPU model (--computeModel=cpu: c F / f seconds, (alpha/2) c F f^2 joules): the same
   FedAvg run at 1 GHz and at 2 GHz spends exactly a quarter of the compute energy at 1 GHz
   (1e-9 relative) and takes longer; --cpuFrequencyHz=MIN:MAX gives each device its own f
   in [MIN, MAX] (run.json's cpuFrequencyHzPerDevice), the same for the same seed, another
   for another seed.

Usage: radio-energy.py BIN_DIR
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: radio-energy.py BIN_DIR")
SIZES = [1000, 5000, 20000, 60000]
FORMER = ["--radioProfile=custom", "--ns3::D2dRadioEnergyModel::Model=Power",
          "--ns3::D2dRadioEnergyModel::PaEfficiency=0.5",
          "--ns3::D2dRadioEnergyModel::TxCircuitPowerW=0.1",
          "--ns3::D2dRadioEnergyModel::RxPowerW=0.1"]
IDLE_W = 0.273 * 3.0  # ns-3's WifiRadioEnergyModel IdleCurrentA x BasicEnergySource's 3 V
failures = 0


def check(ok, what):
    global failures
    print(("ok: " if ok else "FAIL: ") + what)
    failures += not ok


def run(program, args, out):
    r = subprocess.run([os.path.join(BIN, program), "--quiet", "--outDir=" + out] + args,
                       capture_output=True, text=True, timeout=600)
    return r


def energy(out):
    """Energy per (node, component), J, from energy.csv."""
    table = {}
    with open(os.path.join(out, "energy.csv"), newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["node"]), row["component"])
            table[key] = table.get(key, 0.0) + float(row["energy_j"])
    return table


def radio_total(out):
    return sum(j for (_, c), j in energy(out).items() if c.startswith("radio_"))


def sweep(tmp, extra, label):
    totals = []
    for size in SIZES:
        out = os.path.join(tmp, f"{label}-{size}")
        r = run("d2d-exchange", ["--duration=10s", f"--messageBytes={size}"] + extra, out)
        if r.returncode != 0:
            check(False, f"{label} {size} B: exit {r.returncode}: {r.stderr.strip()[:300]}")
            return []
        totals.append(radio_total(out))
    print(f"{label}: radio energy by message size " +
          ", ".join(f"{s} B: {t:.3f} J" for s, t in zip(SIZES, totals)))
    return totals


def main():
    with tempfile.TemporaryDirectory(prefix="radio-energy.") as tmp:
        # 1. The sweep.
        now = sweep(tmp, [], "default profile")
        check(len(now) == len(SIZES) and all(b >= a for a, b in zip(now, now[1:])),
              "default profile: more bytes never lower the radios' energy")
        nr = sweep(tmp, ["--radioProfile=nr-ue"], "nr-ue profile")
        check(len(nr) == len(SIZES) and all(b >= a for a, b in zip(nr, nr[1:])),
              "nr-ue profile (TR 38.840): more bytes never lower the radios' energy")
        former = sweep(tmp, FORMER + ["--allowUnorderedRadioPowers=true"], "former powers")
        check(len(former) == len(SIZES) and former[-1] < former[0],
              "former powers (receive below idle): the same sweep falls, so the check above "
              "can fail")

        # 2. Unused D2D radios.
        base = ["--rounds=2", "--dataFraction=0.05", "--nDevices=4"]
        for backend in ("channel", "wifi"):
            off = os.path.join(tmp, f"fedavg-auto-{backend}")
            r = run("fedavg", base + [f"--backend={backend}"], off)
            check(r.returncode == 0, f"fedavg --backend={backend} runs: {r.stderr.strip()[:300]}")
            if r.returncode != 0:
                continue
            table = energy(off)
            d2d = sum(j for (_, c), j in table.items() if c.startswith("radio_"))
            d2s = sum(j for (_, c), j in table.items() if c.startswith("d2s_"))
            check(d2d == 0.0, f"server FedAvg, {backend}: D2D radio energy {d2d} J (expected 0)")
            check(d2s > 0.0, f"server FedAvg, {backend}: D2S radio energy {d2s:.3f} J > 0")
            with open(os.path.join(off, "run.json")) as f:
                params = json.load(f)["parameters"]
            check(params.get("d2dRadioOff") is True, f"{backend}: run.json: d2dRadioOff true")
        # d2d-exchange with every message to the server: its D2D radios are off as well, and
        # its devices still send (they stopped with the D2D radio before: no message at all).
        for backend in ("channel", "wifi"):
            out = os.path.join(tmp, f"exchange-d2s-{backend}")
            r = run("d2d-exchange", ["--d2sFraction=1", "--nDevices=4", "--duration=20s",
                                     f"--backend={backend}"], out)
            check(r.returncode == 0, f"d2d-exchange --d2sFraction=1 --backend={backend} runs: "
                  f"{r.stderr.strip()[:300]}")
            if r.returncode != 0:
                continue
            with open(os.path.join(out, "messages.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
            table = energy(out)
            d2d = sum(j for (_, c), j in table.items() if c.startswith("radio_"))
            check(len(rows) >= 40 and all(r["dst"] == "4" for r in rows),
                  f"d2d-exchange --d2sFraction=1, {backend}: {len(rows)} messages, all to the "
                  f"server (device 4): at least 40 expected (4 devices, 1 s apart, 20 s)")
            check(d2d == 0.0, f"d2d-exchange --d2sFraction=1, {backend}: D2D radio energy {d2d} J "
                  f"(expected 0: off from the start)")
        on = os.path.join(tmp, "fedavg-on")
        r = run("fedavg", base + ["--d2dRadio=on"], on)
        check(r.returncode == 0, f"fedavg --d2dRadio=on runs: {r.stderr.strip()[:300]}")
        if r.returncode == 0:
            with open(os.path.join(on, "run.json")) as f:
                summary = json.load(f)["summary"]
            t = summary["simulated_time_s"]
            table = energy(on)
            for node in range(4):
                got = table.get((node, "radio_idle"), 0.0)
                want = IDLE_W * t
                check(abs(got - want) <= 1e-6 * want,
                      f"--d2dRadio=on: device {node} radio_idle {got:.6f} J = 0.819 W x "
                      f"{t} s = {want:.6f} J")

        # 3. Unordered custom powers.
        r = run("d2d-exchange", ["--duration=1s"] + FORMER, os.path.join(tmp, "refused"))
        lines = r.stderr.strip().splitlines()
        check(r.returncode != 0 and len(lines) == 1 and "receive 0.1 W < idle 0.819 W" in lines[0]
              and not os.path.exists(os.path.join(tmp, "refused", "run.json")),
              f"unordered custom powers refused in one line: {lines}")
        allowed = os.path.join(tmp, "allowed")
        r = run("d2d-exchange", ["--duration=1s", "--allowUnorderedRadioPowers=true"] + FORMER,
                allowed)
        if r.returncode == 0:
            with open(os.path.join(allowed, "run.json")) as f:
                order = json.load(f)["parameters"].get("radioStateOrder")
            check(order == "unordered (allowed): receive 0.1 W < idle 0.819 W",
                  f"run.json says the powers are unordered: {order!r}")
        else:
            check(False, f"--allowUnorderedRadioPowers=true runs: {r.stderr.strip()[:300]}")
        # 4. The CPU model.
        cpu = ["--rounds=2", "--dataFraction=0.05", "--nDevices=4", "--computeModel=cpu"]
        got = {}
        for hz in ("1e9", "2e9"):
            out = os.path.join(tmp, f"cpu-{hz}")
            r = run("fedavg", cpu + [f"--cpuFrequencyHz={hz}"], out)
            check(r.returncode == 0, f"fedavg --cpuFrequencyHz={hz} runs: {r.stderr.strip()[:300]}")
            if r.returncode == 0:
                with open(os.path.join(out, "run.json")) as f:
                    t = json.load(f)["summary"]["simulated_time_s"]
                compute = sum(j for (_, c), j in energy(out).items() if c == "compute")
                got[hz] = (compute, t)
        if len(got) == 2:
            ratio = got["1e9"][0] / got["2e9"][0]
            check(abs(ratio - 0.25) <= 1e-9 * 0.25,
                  f"compute energy at 1 GHz / at 2 GHz = {ratio!r} (expected (1/2)^2 = 0.25)")
            check(got["1e9"][1] > got["2e9"][1],
                  f"the run takes longer at 1 GHz: {got['1e9'][1]} s > {got['2e9'][1]} s")
        spreads = {}
        for seed in ("1", "1", "2"):
            out = os.path.join(tmp, f"cpu-range-{len(spreads)}-{seed}")
            r = run("fedavg", cpu + ["--cpuFrequencyHz=1e9:2e9", f"--seed={seed}"], out)
            if r.returncode != 0:
                check(False, f"--cpuFrequencyHz=1e9:2e9 runs: {r.stderr.strip()[:300]}")
                continue
            with open(os.path.join(out, "run.json")) as f:
                hz = json.load(f)["parameters"].get("cpuFrequencyHzPerDevice")
            check(isinstance(hz, list) and len(hz) == 4 and all(1e9 <= x <= 2e9 for x in hz)
                  and len(set(hz)) == 4, f"seed {seed}: each device's f in [1e9, 2e9]: {hz}")
            spreads.setdefault(seed, []).append(hz)
        if len(spreads.get("1", [])) == 2 and spreads.get("2"):
            check(spreads["1"][0] == spreads["1"][1], "the same seed, the same frequencies")
            check(spreads["1"][0] != spreads["2"][0], "another seed, other frequencies")
    if failures:
        sys.exit(f"radio-energy: {failures} failure(s)")
    print("radio-energy: PASS")


if __name__ == "__main__":
    main()
