#!/usr/bin/python3
"""An unlimited spectrum is the channel of before, byte for byte.

--subChannels=0 with --d2sSubChannels=0 (the literal reading: every link the whole band at
once, no interference) must give exactly the traces that d2dlearn wrote before the finite
spectrum existed, but for messages.csv's spectrum columns, which every channel run writes
since the radio profiles, and its rss_w and sinr, written since the propagation presets: they
are left out before the comparison, and must say no sub-channel and no interference on every
row. The default radio environment (--propagation=log-distance, --noise=constant, the
literal reading of eq. (18)) is also given explicitly in one case: the same bytes. Likewise energy.csv's three columns of each
row's period, start_s, duration_s and power_w, which every energy.csv has since (commit
2a72263), are left out before its comparison; these runs trace at the default level,
standard, whose file already had `periods` in 768271a (at --traces=full, whose file had
not, `periods` would be left out too). The MD5 sums below were written by the programs of
commit 768271a (the last one without D2dSpectrum), built from that commit, for the same
command lines; this test runs today's programs and compares. Runs whose traces do not
depend on training arithmetic (BLAS, CPU): the network scenario in both access policies,
and FedAvg's messages and energy with a logistic model (their times come from the compute
model's FLOP counts).

On ns-3 3.45 and later (D2DLEARN_NS3_VERSION in the environment, which CTest sets from the
build), ns-3's Vector3D::GetLength is std::hypot, which rounds distances differently in the
last bits (the validation page, "Same numbers across releases"): the RSS of ns-3's
log-distance loss, hence eq. (18)'s p_drop, differs by a few units in the last place. There
the RSS-dependent messages.csv (ROUNDED below) is compared with commit 768271a's file itself
(data/, whose MD5 is the sum below): every column byte for byte but p_drop, and p_drop within
RSS_ROUNDING relative.

Usage: spectrum-unlimited.py BIN_DIR
"""

import csv
import hashlib
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: spectrum-unlimited.py BIN_DIR")
UNLIMITED = ["--subChannels=0", "--d2sSubChannels=0"]
# The radio powers of commit 768271a (the Power model, 0.1 W / 0.5 + 0.1 W transmitting,
# 0.1 W receiving, 0.819 W idle, every radio on all the run), which the default ns3-wifi
# profile and the D2D radios off where unused have replaced since: set as custom powers, which
# break transmit >= receive >= idle, hence --allowUnorderedRadioPowers.
FORMER_RADIOS = ["--radioProfile=custom", "--ns3::D2dRadioEnergyModel::Model=Power",
                 "--ns3::D2dRadioEnergyModel::PaEfficiency=0.5",
                 "--ns3::D2dRadioEnergyModel::TxCircuitPowerW=0.1",
                 "--ns3::D2dRadioEnergyModel::RxPowerW=0.1", "--allowUnorderedRadioPowers=true"]

# (program, arguments, {trace: MD5 of commit 768271a's})
CASES = [
    ("d2d-exchange", ["--nDevices=12", "--duration=5s", "--d2sFraction=0.3"], {
        "messages.csv": "f9bcd3f65d528622a02407cba3d67545", "energy.csv": "ba277b4281bb4175d33bf483d60ed177"}),
    # the default radio environment given explicitly: the same bytes
    ("d2d-exchange", ["--nDevices=12", "--duration=5s", "--d2sFraction=0.3",
                      "--propagation=log-distance", "--noise=constant"], {
        "messages.csv": "f9bcd3f65d528622a02407cba3d67545", "energy.csv": "ba277b4281bb4175d33bf483d60ed177"}),
    ("d2d-exchange", ["--nDevices=12", "--duration=5s", "--access=scheduled", "--reliable=true",
                      "--rangeM=40"], {
        "messages.csv": "d56ee5fd792cdb9f160c53945d83ce16", "energy.csv": "944580e940fc0cd5f0d5b50bb3609e64"}),
    ("fedavg", ["--nDevices=8", "--rounds=2", "--dataFraction=0.05", "--model=logistic"], {
        "messages.csv": "a218609b1614a50e3356c5ef2caa0050", "energy.csv": "6bebd4e95427b6d4b1dc2a13deebdf3b"}),
    ("fedavg", ["--algorithm=decentralized", "--nDevices=8", "--rounds=2", "--dataFraction=0.05",
                "--model=logistic"], {
        "messages.csv": "0252eb32007bc2c6769566b53039ea77", "energy.csv": "dfab6fdb55e93ae5a822294346bc04cd"}),
]


# The traces whose p_drop comes from ns-3's distance (case index, trace): 768271a's own file.
HERE = os.path.dirname(os.path.abspath(__file__))
ROUNDED = {(k, "messages.csv"): os.path.join(HERE, "data",
                                             "spectrum-unlimited-d2d-exchange-d2s-messages.csv")
           for k in (0, 1)}
# As tests/ns3-releases/in-tree.py accepts the same cause (measured on 3.48: 3.1e-15).
RSS_ROUNDING = 1e-12
NS3_VERSION = int(os.environ.get("D2DLEARN_NS3_VERSION", "0") or 0)


def within_rounding(path, reference):
    """'' if path equals reference but for p_drop within RSS_ROUNDING relative, else why not."""
    got = list(csv.reader(without_spectrum(path).decode().splitlines()))
    with open(reference, newline="") as f:
        want = list(csv.reader(f))
    if len(got) != len(want) or got[0] != want[0]:
        return "rows or header differ (%d rows, %d in 768271a's)" % (len(got), len(want))
    col = want[0].index("p_drop")
    for n, (a, b) in enumerate(zip(got[1:], want[1:]), 2):
        if a[:col] + a[col + 1:] != b[:col] + b[col + 1:]:
            return "line %d differs outside p_drop" % n
        x, y = float(a[col]), float(b[col])
        if abs(x - y) > RSS_ROUNDING * abs(y):
            return "line %d: p_drop %r, 768271a's %r" % (n, a[col], b[col])
    return ""


SPECTRUM = ["t_start_s", "airtime_s", "sub_channel", "interference_w", "sleep_wait_s", "rss_w",
            "sinr"]


def without_spectrum(path):
    """messages.csv as 768271a wrote it: the channel columns that every channel run writes
    since the radio profiles (and rss_w, sinr since the propagation presets) left out (a file
    without them unchanged); '' if a row of the unlimited band has a sub-channel, interference
    or a wait for a sleeping radio (sleep_wait_s, written since DRX; there is no DRX here): it
    must have none."""
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    head = lines[0].split(",")
    if head[-len(SPECTRUM):] != SPECTRUM:
        return "\n".join(lines).encode()
    out = [",".join(head[:-len(SPECTRUM)])]
    for line in lines[1:]:
        if not line:
            out.append(line)
            continue
        fields = line.split(",")
        # no sub-channel, no interference, no wait for a sleeping radio (no DRX)
        if fields[-5] != "" or fields[-4] != "0" or fields[-3] != "0.000000000":
            return b""
        out.append(",".join(fields[:-len(SPECTRUM)]))
    return "\n".join(out).encode()


# energy.csv's columns of each row's period since commit 2a72263; and `periods`, which the
# full level's file of 768271a did not have (the standard level's had it).
PERIOD = ["start_s", "duration_s", "power_w"]
FULL_ONLY_NEW = ["periods"]


def without_periods(path):
    """energy.csv as 768271a wrote it: PERIOD left out (and at --traces=full, per run.json
    beside it, `periods` too); a file without those columns unchanged."""
    with open(os.path.join(os.path.dirname(path), "run.json")) as f:
        level = json.load(f).get("traces")
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    head = lines[0].split(",")
    drop = PERIOD + (FULL_ONLY_NEW if level == "full" else [])
    keep = [i for i, c in enumerate(head) if c not in drop]
    if len(keep) == len(head):
        return "\n".join(lines).encode()
    # No field of energy.csv is quoted or holds a comma: a line splits on its commas.
    return "\n".join(",".join(line.split(",")[i] for i in keep) if line else line
                     for line in lines).encode()


def md5(path):
    if os.path.basename(path) == "messages.csv":
        return hashlib.md5(without_spectrum(path)).hexdigest()
    if os.path.basename(path) == "energy.csv":
        return hashlib.md5(without_periods(path)).hexdigest()
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def main():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="spectrum-unlimited.") as tmp:
        for k, (program, args, want) in enumerate(CASES):
            out = os.path.join(tmp, str(k))
            argv = ([os.path.join(BIN, program)] + args + UNLIMITED + FORMER_RADIOS
                    + ["--quiet", "--outDir=" + out])
            # A flag for links the run does not use is refused (the decentralized FedAvg has no
            # server, server FedAvg no D2D messages, d2d-exchange without --d2sFraction no
            # server): leave out what the program refuses.
            if program == "fedavg" and "--algorithm=decentralized" in args:
                argv.remove("--d2sSubChannels=0")
            elif program == "fedavg":  # server FedAvg sends no D2D messages
                argv.remove("--subChannels=0")
                argv.append("--d2dRadio=on")  # its D2D radios idled all the run in 768271a
            if program == "d2d-exchange" and "--d2sFraction=0.3" not in args:
                argv.remove("--d2sSubChannels=0")
            r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
            if r.returncode != 0:
                print("FAIL: %s exit %d: %s" % (" ".join(argv[1:]), r.returncode,
                                               r.stderr.strip()[:300]))
                failures += 1
                continue
            for trace, digest in want.items():
                got = md5(os.path.join(out, trace))
                ok = got == digest
                if not ok and NS3_VERSION >= 345 and (k, trace) in ROUNDED:
                    reference = ROUNDED[(k, trace)]
                    assert md5(reference) == digest, reference
                    why = within_rounding(os.path.join(out, trace), reference)
                    ok = not why
                    print("%s: %s %s %s: ns-3 %d.%d's distance rounding: %s"
                          % ("ok" if ok else "FAIL", program, " ".join(args), trace,
                             NS3_VERSION // 100, NS3_VERSION % 100,
                             why or "every column as in 768271a's file but p_drop, within "
                             "%g relative" % RSS_ROUNDING))
                    failures += not ok
                    continue
                failures += not ok
                print("%s: %s %s %s: %s (commit 768271a: %s)"
                      % ("ok" if ok else "FAIL", program, " ".join(args), trace, got, digest))
    if failures:
        sys.exit("spectrum-unlimited: %d failure(s)" % failures)
    print("spectrum-unlimited: every trace equals the unlimited channel of before")


if __name__ == "__main__":
    main()
