#!/usr/bin/python3
"""Every scenario over 802.11 (--backend=wifi): a small setting of fedavg (server and
decentralized), cmfl, consensus, bayes-consensus, d2d-exchange (with D2S traffic) and
graph-discovery (alone, and with its downstream learning over a server), each run twice with the same seed (and fedavg with other
--threads): the same bytes in every trace file; the run auditor (analysis/audit.py) finds
no violation; and the energy, which ns-3's WifiRadioEnergyModel draws, checked
independently:
- per device, the sum of its energy.csv rows equals the initial energy minus the remaining
  energy of its last row (to 1e-5 J, 1e-9 of the battery: the source integrates the draw in
  its own steps, the rows add the states' energies);
- per device, the Wi-Fi radios' energy (radio_tx + radio_rx + radio_idle + d2s_tx + d2s_rx
  + d2s_idle)
  lies between what its radios that are on draw idle and what they draw transmitting for
  the whole run: the radios on are the D2S radio with a server and the D2D radio unless
  run.json's d2dRadioOff says the protocol never uses it; their currents at the source's
  3 V are 0.273 A idle, 0.313 A receiving (WifiRadioEnergyModel's defaults) and, at a
  transmit power of P W, P / (3 V x 0.10) + 0.273333 A (its LinearWifiTxCurrentModel's
  defaults; P from run.json's txPowerDbm and d2sTxPowerDbm), so for a run of T s:
  sum over the radios on of 0.819 T <= E <= sum of 3 max(I_tx(P), 0.313) T;
- the scenarios with a server spend D2S energy (d2s_tx and d2s_rx > 0).

Usage: wifi-backend.py BINDIR
"""
import collections
import csv
import filecmp
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUDIT = os.path.join(TOP, "analysis", "audit.py")
SMALL = ["--backend=wifi", "--areaSideM=30", "--quiet"]
GD = ["--nDevices=6", "--dataFraction=0.02", "--iterations=30", "--bufferSize=16",
      "--traceEvery=30"]
# Small models: each model crosses 802.11 as frames of at most 1,400 bytes, and the programs'
# default models (fedavg's mlp, cmfl's mlp:64) made this the suite's longest test (cmfl
# 14 s a run, 2.5 s with logistic regression); what is checked does not depend on the size.
RUNS = {
    # name: (program, flags, radios per device)
    "fedavg": ("fedavg", ["--nDevices=5", "--rounds=2", "--dataFraction=0.05",
                          "--model=mlp:16"], 2),
    "decentralized": ("fedavg", ["--algorithm=decentralized", "--nDevices=5", "--rounds=2",
                                 "--dataFraction=0.05", "--model=mlp:16"], 1),
    "cmfl": ("cmfl", ["--nDevices=20", "--activationFraction=0.5", "--rounds=2",
                      "--dataFraction=0.05", "--model=logistic"], 1),
    "cmfl-fedavg": ("cmfl", ["--algorithm=fedavg", "--nDevices=20", "--activationFraction=0.5",
                             "--rounds=2", "--dataFraction=0.05", "--model=logistic"], 2),
    "consensus": ("consensus", ["--nDevices=4", "--rounds=3", "--warmupRounds=1",
                                "--dataFraction=0.02"], 1),
    "bayes-consensus": ("bayes-consensus", ["--nDevices=4"], 1),
    "d2d-exchange": ("d2d-exchange", ["--nDevices=6", "--duration=3s", "--d2sFraction=0.3"], 2),
    # P_D from eq. (18) at the Wi-Fi RSS (D2dNetwork::links), frames lost by 802.11.
    "graph-discovery": ("graph-discovery", GD + ["--downstream=none"], 1),
    "graph-discovery-fl": ("graph-discovery", GD + ["--downstream=fedavg", "--rounds=1"], 2),
}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(program, flags, out):
    cmd = [os.path.join(BIN, program)] + SMALL + flags + ["--outDir=" + out]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(cmd), res.returncode, res.stderr.strip()[-300:]))
        return False
    return True


def same_bytes(a, b, label):
    files = sorted(f for f in os.listdir(a) if f.endswith(".csv"))
    for f in files:
        if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False):
            fail("%s: %s differs between two runs with the same seed" % (label, f))
    return files


def transmit_current_a(dbm):
    """ns-3's LinearWifiTxCurrentModel at its defaults: P / (V eta) + I_idle, A."""
    return 10 ** (dbm / 10) / 1000 / (3.0 * 0.10) + 0.273333


def check_energy(out, radios, label, server):
    with open(os.path.join(out, "run.json")) as fh:
        params = json.load(fh)["parameters"]
    initial = float(params.get("initialEnergyJ", 10000))
    # The radios that are on, each with its transmit power (dBm).
    powers = [] if params.get("d2dRadioOff") else [float(params.get("txPowerDbm", 20))]
    if radios == 2:
        powers.append(float(params.get("d2sTxPowerDbm", params.get("txPowerDbm", 20))))
    rows = list(csv.DictReader(open(os.path.join(out, "energy.csv"))))
    total = collections.defaultdict(float)
    radio = collections.defaultdict(float)
    last = {}
    comp = collections.defaultdict(float)
    end = 0.0
    for r in rows:
        n, e, t = r["node"], float(r["energy_j"]), float(r["sim_time_s"])
        total[n] += e
        comp[r["component"]] += e
        if r["component"] != "compute":
            radio[n] += e
        last[n] = float(r["remaining_j"])
        end = max(end, t)
    for n in sorted(total, key=int):
        if abs(initial - last[n] - total[n]) > 1e-9 * initial:
            fail("%s: device %s: rows sum to %.9f J, initial - remaining is %.9f J"
                 % (label, n, total[n], initial - last[n]))
        lo = len(powers) * 0.273 * 3 * end
        hi = sum(max(transmit_current_a(p), 0.313) * 3 for p in powers) * end
        if not lo - 1e-6 <= radio[n] <= hi + 1e-6:
            fail("%s: device %s: Wi-Fi radio energy %.6f J outside [%.6f, %.6f] J for %d "
                 "radio(s) on over %.6f s" % (label, n, radio[n], lo, hi, len(powers), end))
    if server and not (comp["d2s_tx"] > 0 and comp["d2s_rx"] > 0):
        fail("%s: no D2S energy (d2s_tx %.6g J, d2s_rx %.6g J)" % (label, comp["d2s_tx"],
                                                                   comp["d2s_rx"]))
    print("  %s: %d devices, %.3f s, energy per component %s" % (
        label, len(total), end, {k: round(v, 4) for k, v in sorted(comp.items())}))


with tempfile.TemporaryDirectory(prefix="d2dlearn-wifi.") as tmp:
    outs = []
    for name, (program, flags, radios) in RUNS.items():
        a, b = os.path.join(tmp, name + "-a"), os.path.join(tmp, name + "-b")
        if not (run(program, flags, a) and run(program, flags, b)):
            continue
        files = same_bytes(a, b, name)
        print("%s: %d trace files identical with --seed=1 twice" % (name, len(files)))
        check_energy(a, radios, name, radios == 2)
        outs.append(a)
    # --threads: the same bytes with 1 and 2 training threads.
    program, flags, _ = RUNS["fedavg"]
    t1, t2 = os.path.join(tmp, "threads-1"), os.path.join(tmp, "threads-2")
    if run(program, flags + ["--threads=1"], t1) and run(program, flags + ["--threads=2"], t2):
        same_bytes(t1, t2, "fedavg --threads=1 and --threads=2")
    res = subprocess.run(["/usr/bin/python3", AUDIT] + outs, capture_output=True, text=True)
    print(res.stdout.strip().splitlines()[-1] if res.stdout.strip() else res.stderr.strip())
    if res.returncode != 0:
        fail("audit.py: %s" % (res.stdout + res.stderr).strip()[-600:])
sys.exit(1 if failures else 0)
