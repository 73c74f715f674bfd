#!/usr/bin/env python3
"""The radio environment from the command line (--propagation and its flags), end to end.

- every preset (read from d2d-exchange's --propagation help) on both backends: the run
  writes what run.json says is in force (propagationLossModel, deviceHeightInForceM), the
  devices stand at that height in positions.csv (z_m), the channel backend's messages.csv
  has rss_w and sinr on every row whose link was evaluated, and audit.py passes;
- server FedAvg with a 3GPP preset: the server at the preset's base-station height above the
  centre (positions.csv's node N), its links' rows audited;
- determinism with every random part at once (3gpp-umi's LOS states and shadowing,
  Rayleigh fading held for 10 ms, thermal noise): the same seed gives the same bytes, another
  --RngRun another messages.csv;
- thermal noise: run.json's noisePowerInForceW is k T0 B m / K F of the flags (recomputed
  here), and with K sub-channels smaller by K than with the whole band;
- refusals, one line each, exit 2, nothing written: an unknown preset, a carrier for a model
  without one, a carrier outside TR 36.843's bands, --nakagamiM below 0.5, the UE-to-UE
  preset with a server, a preset with equal D2S links (server FedAvg: no positional link;
  graph-discovery: per-pair state between stand-in ends).

Usage: propagation.py BIN_DIR ANALYSIS_DIR
"""

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

if len(sys.argv) < 3:
    sys.exit("usage: propagation.py BIN_DIR ANALYSIS_DIR")
BIN, ANALYSIS = sys.argv[1], sys.argv[2]
EXCHANGE = os.path.join(BIN, "d2d-exchange")
FEDAVG = os.path.join(BIN, "fedavg")
DISCOVERY = os.path.join(BIN, "graph-discovery")
AUDIT = os.path.join(ANALYSIS, "audit.py")
TMP = tempfile.mkdtemp(prefix="propagation.")
SMALL = ["--nDevices=8", "--areaSideM=100", "--duration=5s", "--quiet"]
failures = 0


def check(cond, text):
    global failures
    print("%s: %s" % ("ok" if cond else "FAIL", text))
    failures += not cond


def run(program, args):
    return subprocess.run([program] + args, capture_output=True, text=True, timeout=300)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def presets():
    """The presets --propagation's help lists."""
    p = run(EXCHANGE, ["--PrintHelp"])
    m = re.search(r"--propagation:\s+.*?a preset \(([^)]*)\)", p.stdout)
    return [s.strip() for s in m.group(1).split(",")] if m else []


def audited(out):
    p = subprocess.run(["/usr/bin/python3", AUDIT, out], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip().splitlines()[-1:]


def every_preset():
    names = presets()
    check(len(names) >= 9 and names[0] == "log-distance" and "d2d-3gpp" in names,
          "the presets of --propagation's help: %s" % ", ".join(names))
    for name in names:
        for backend in ("channel", "wifi"):
            out = os.path.join(TMP, "%s-%s" % (name, backend))
            p = run(EXCHANGE, SMALL + ["--propagation=" + name, "--backend=" + backend,
                                       "--outDir=" + out])
            if p.returncode != 0:
                check(False, "%s over %s: exit %d: %s" % (name, backend, p.returncode,
                                                          p.stderr.strip()[:200]))
                continue
            with open(os.path.join(out, "run.json")) as f:
                params = json.load(f)["parameters"]
            height = params["deviceHeightInForceM"]
            zs = {float(r["z_m"]) for r in read_csv(os.path.join(out, "positions.csv"))}
            rows = read_csv(os.path.join(out, "messages.csv"))
            evaluated = [r for r in rows if r["reason"] != "out_of_range"]
            if backend == "channel":
                columns = (rows and all(r["rss_w"] and r["sinr"] for r in evaluated)
                           and all(float(r["rss_w"]) > 0 for r in evaluated))
            else:
                columns = bool(rows) and "rss_w" not in rows[0]
            ok, last = audited(out)
            check(zs == {height} and params["propagationLossModel"].startswith("ns3::")
                  and columns and ok,
                  "%s over %s: %s, devices at z = %s m (positions.csv: %s), %d rows%s; audit: %s"
                  % (name, backend, params["propagationLossModel"], height, sorted(zs),
                     len(rows), ", rss_w and sinr on every evaluated row"
                     if backend == "channel" else ", no channel columns", " ".join(last)))


def server_height():
    out = os.path.join(TMP, "fedavg-uma")
    p = run(FEDAVG, ["--propagation=3gpp-uma", "--rounds=2", "--nDevices=5",
                     "--dataFraction=0.05", "--quiet", "--outDir=" + out])
    if p.returncode != 0:
        check(False, "fedavg --propagation=3gpp-uma: exit %d: %s" % (p.returncode, p.stderr))
        return
    server = [r for r in read_csv(os.path.join(out, "positions.csv")) if r["node"] == "5"]
    ok, last = audited(out)
    check(server and float(server[0]["z_m"]) == 25.0 and float(server[0]["x_m"]) == 25.0 and ok,
          "fedavg --propagation=3gpp-uma: the server at (25, 25, 25) m, the UMa base station's "
          "height above the centre of the 50 m square (%s); audit: %s"
          % (server[0] if server else "no row", " ".join(last)))


def determinism():
    args = SMALL + ["--propagation=3gpp-umi", "--nakagamiM=1", "--coherenceTime=10ms",
                    "--noise=thermal", "--subChannels=2"]
    outs = []
    for k, extra in enumerate([[], [], ["--RngRun=2"]]):
        out = os.path.join(TMP, "det-%d" % k)
        p = run(EXCHANGE, args + extra + ["--outDir=" + out])
        check(p.returncode == 0, "%s: exit %d %s" % (" ".join(args + extra), p.returncode,
                                                      p.stderr.strip()[:200]))
        outs.append(out)
    same = all(digest(os.path.join(outs[0], f)) == digest(os.path.join(outs[1], f))
               for f in ("messages.csv", "energy.csv", "positions.csv"))
    other = digest(os.path.join(outs[0], "messages.csv")) != digest(
        os.path.join(outs[2], "messages.csv"))
    check(same and other, "3gpp-umi + Rayleigh held 10 ms + thermal noise: the same seed "
                          "the same bytes (%s), --RngRun=2 another messages.csv (%s)"
          % (same, other))
    ok, last = audited(outs[0])
    check(ok, "that run audited: %s" % " ".join(last))


def thermal_noise():
    k, t0 = 1.380649e-23, 290.0
    seen = {}
    for kk in (0, 4):
        out = os.path.join(TMP, "thermal-%d" % kk)
        p = run(EXCHANGE, SMALL + ["--noise=thermal", "--noiseFigureDb=7", "--bandwidthHz=2e7",
                                   "--subChannels=%d" % kk, "--outDir=" + out])
        if p.returncode != 0:
            check(False, "thermal K=%d: exit %d %s" % (kk, p.returncode, p.stderr))
            continue
        with open(os.path.join(out, "run.json")) as f:
            seen[kk] = json.load(f)["parameters"]["noisePowerInForceW"]
        want = k * t0 * 2e7 / max(kk, 1) * 10 ** 0.7
        check(abs(seen[kk] - want) <= 1e-12 * want,
              "--noise=thermal --noiseFigureDb=7 --bandwidthHz=2e7 --subChannels=%d: "
              "noisePowerInForceW %r, k T0 B/K F = %r" % (kk, seen[kk], want))
    if len(seen) == 2:
        check(abs(seen[0] / seen[4] - 4) < 1e-12, "K = 4 has a quarter of the whole band's "
                                                  "noise (%r)" % (seen[0] / seen[4]))


def refusals():
    cases = [
        (EXCHANGE, ["--propagation=no-such-model"], "--propagation=no-such-model"),
        (EXCHANGE, ["--frequencyHz=2e9"], "has no carrier"),
        (EXCHANGE, ["--propagation=d2d-3gpp", "--frequencyHz=3.5e9"], "two bands"),
        (EXCHANGE, ["--nakagamiM=0.3"], "--nakagamiM=0.3"),
        (EXCHANGE, ["--propagation=d2d-3gpp", "--d2sFraction=0.5"], "links between devices"),
        # server FedAvg with equal D2S links: no link's power comes from the positions
        (FEDAVG, ["--propagation=3gpp-umi", "--d2sLinks=equal"], "cannot change this run"),
        # graph-discovery's equal D2S links (its default) have stand-in ends
        (DISCOVERY, ["--propagation=3gpp-umi"], "needs each link's own two devices"),
    ]
    for program, args, words in cases:
        out = os.path.join(TMP, "refused")
        p = run(program, args + ["--outDir=" + out, "--quiet"])
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and words in lines[0]
              and not os.path.exists(out),
              "%s %s: exit %d, %r" % (os.path.basename(program), " ".join(args), p.returncode,
                                      lines))


def main():
    every_preset()
    server_height()
    determinism()
    thermal_noise()
    refusals()
    if failures:
        sys.exit("propagation: %d failure(s) (runs in %s)" % (failures, TMP))
    print("propagation: ok")


if __name__ == "__main__":
    main()
