#!/usr/bin/env python3
"""Devices that come and go (fedavg --meanOnTime/--meanOffTime, --availabilityFile), from the
command line.

- the on/off model (fedavg, 10 devices, --meanOnTime=20s --meanOffTime=10s): availability.csv
  alternates 0/1 per device, starting with 0; the share of device-time available over the
  run is within 0.25 of T_on / (T_on + T_off) = 2/3; each round's `available` row is the
  devices not away at its start (recomputed from availability.csv); no message leaves an
  away device; audit.py passes; same --seed, same bytes of every trace; another --seed,
  other periods;
- a trace file: device 1 is away from 0.5 s to 100 s (available [0, 0.5) and [100, 1000)),
  the others always: availability.csv has exactly its two rows (0.5 s leave, 100 s back);
  rounds starting while it is away sample from 9 devices (`available` 9), audited;
- FedBuff with the on/off model: every update the server applied came from a device that
  was available when it arrived, audited;
- decentralized FL: device 1 leaves at 0.5 s, mid-round 1: the others average without it
  (9 participants, 1 straggler) before the 60 s deadline, and round 2 has 9 devices there;
  with the on/off model too, and semi-decentralized FL with devices there 4 s, away 2 s on
  average: no round reaches the 60 s deadline, audited;
- local training: device 1 leaves at 0.05 s, during its job: 9 devices trained, 1
  straggler, and round 1 lasts as long as with every device there, audited;
- refusals, one line each, exit 2, nothing written: one mean without the other, a file with
  the model, a bad file (overlapping intervals, a device out of range, a bad header),
  and --meanOnTime with --backend=wifi.

Usage: fedavg-availability.py BIN_DIR ANALYSIS_DIR
"""

import filecmp
import os
import sys
import tempfile

import cli_checks
from cli_checks import audited, check, network_rows_timed, read_csv, run

if len(sys.argv) < 3:
    sys.exit("usage: fedavg-availability.py BIN_DIR ANALYSIS_DIR")
cli_checks.configure(sys.argv[1], sys.argv[2])
TMP = tempfile.mkdtemp(prefix="fedavg-availability.")
MODEL = ["--meanOnTime=20s", "--meanOffTime=10s"]
BASE = ["--nDevices=10", "--rounds=5", "--quiet"]


def away_intervals(run_dir, end_ns):
    """{device: [(leave_ns, back_ns)]} from availability.csv (back: end_ns if never)"""
    away = {}
    for r in read_csv(os.path.join(run_dir, "availability.csv")):
        t = round(float(r["sim_time_s"]) * 1e9)
        d = int(r["device"])
        if r["available"] == "0":
            away.setdefault(d, []).append([t, end_ns])
        else:
            away[d][-1][1] = t
    return away


def is_away(away, device, t_ns):
    return any(a < t_ns < b for a, b in away.get(device, []))


def model_case():
    out = os.path.join(TMP, "model")
    p = run(BASE + MODEL, out)
    check(p.returncode == 0, "the on/off model runs: %s" % p.stderr.strip()[-300:])
    if p.returncode != 0:
        return
    rows = read_csv(os.path.join(out, "availability.csv"))
    state = {}
    ok = True
    for r in rows:
        d, v = int(r["device"]), r["available"]
        ok = ok and v == ("0" if state.get(d, "1") == "1" else "1")
        state[d] = v
    check(ok and rows, "availability.csv: %d rows, alternating 0/1 from 0 per device"
          % len(rows))
    rounds = network_rows_timed(out)
    end_ns = round(max(t for v in rounds.values() for _, t in v.values()) * 1e9)
    away = away_intervals(out, end_ns)
    gone = sum(b - a for lst in away.values() for a, b in lst)
    share = 1 - gone / (10 * end_ns)
    check(abs(share - 2 / 3) < 0.25, "available share %.3f, T_on / (T_on + T_off) = 0.667"
          % share)
    start = 0
    for rnd in sorted(rounds):
        v = rounds[rnd]
        if "available" not in v:
            continue
        lo = sum(1 for d in range(10) if not any(a < start < b or a == start
                                                   for a, b in away.get(d, [])))
        hi = sum(1 for d in range(10) if not is_away(away, d, start))
        check(lo <= v["available"][0] <= hi, "round %d: available %g = devices there at its "
              "start (%d to %d)" % (rnd, v["available"][0], lo, hi))
        start = round(v["round_time_s"][1] * 1e9)
    sent_away = [m for m in read_csv(os.path.join(out, "messages.csv"))
                 if is_away(away, int(m["src"]), round(float(m["t_send_s"]) * 1e9))]
    check(not sent_away, "no message sent by an away device (%d)" % len(sent_away))
    audited(out)
    again = os.path.join(TMP, "model-again")
    run(BASE + MODEL, again)
    same = all(filecmp.cmp(os.path.join(out, f), os.path.join(again, f), shallow=False)
               for f in ("availability.csv", "messages.csv", "energy.csv", "rounds.csv"))
    check(same, "same --seed: the same bytes of availability, messages, energy and rounds")
    other = os.path.join(TMP, "model-seed2")
    run(BASE + MODEL + ["--seed=2"], other)
    check(not filecmp.cmp(os.path.join(out, "availability.csv"),
                          os.path.join(other, "availability.csv"), shallow=False),
          "--seed=2: other periods")


def file_case(backend):
    path = os.path.join(TMP, "avail.csv")
    with open(path, "w") as f:
        f.write("device,start_s,end_s\n1,0,0.5\n1,100,1000\n")
    out = os.path.join(TMP, "file-" + backend)
    p = run(BASE + ["--availabilityFile=" + path, "--backend=" + backend], out)
    check(p.returncode == 0, "--availabilityFile runs (%s): %s" % (backend,
                                                                   p.stderr.strip()[-300:]))
    if p.returncode != 0:
        return
    rows = [(r["sim_time_s"], r["device"], r["available"])
            for r in read_csv(os.path.join(out, "availability.csv"))]
    want = [("0.500000000", "1", "0")]
    check(rows[:1] == want and all(r == ("100.000000000", "1", "1") for r in rows[1:]),
          "%s: availability.csv rows %r" % (backend, rows))
    later = [v["available"][0] for rnd, v in network_rows_timed(out).items()
             if rnd > 1 and "available" in v]
    check(later and all(a == 9 for a in later), "%s: rounds 2..5 sample from 9 devices: %r"
          % (backend, later))
    audited(out)


def fedbuff_case():
    out = os.path.join(TMP, "fedbuff")
    p = run(BASE + MODEL + ["--algorithm=fedbuff", "--bufferSize=3"], out)
    check(p.returncode == 0, "fedbuff with the on/off model: %s" % p.stderr.strip()[-300:])
    if p.returncode != 0:
        return
    rounds = network_rows_timed(out)
    end_ns = round(max(t for v in rounds.values() for _, t in v.values()) * 1e9)
    away = away_intervals(out, end_ns)
    bad = [m for m in read_csv(os.path.join(out, "messages.csv"))
           if m["kind"] == "update" and m["complete"] == "1"
           and is_away(away, int(m["src"]), round(float(m["t_recv_s"]) * 1e9))]
    check(not bad, "no complete update from a device away at its arrival (%d)" % len(bad))
    audited(out)


def decentralized_case():
    """Decentralized FL: a neighbour that leaves is not waited for."""
    path = os.path.join(TMP, "dec.csv")
    with open(path, "w") as f:
        f.write("device,start_s,end_s\n1,0,0.5\n1,1000,2000\n")
    out = os.path.join(TMP, "dec-file")
    p = run(["--algorithm=decentralized", "--nDevices=10", "--rounds=2", "--quiet",
             "--availabilityFile=" + path], out)
    check(p.returncode == 0, "decentralized with a file: %s" % p.stderr.strip()[-300:])
    if p.returncode != 0:
        return
    rows = network_rows_timed(out)
    r1, r2 = rows[1], rows[2]
    check(r1["available"][0] == 10 and r1["participants"][0] == 9
          and r1["stragglers"][0] == 1 and r1["round_time_s"][0] < 60,
          "round 1: device 1 leaves at 0.5 s, mid-round: 9 averaged, 1 straggler, %.3f s < "
          "the 60 s deadline" % r1["round_time_s"][0])
    check(r2["available"][0] == 9 and r2["participants"][0] == 9 and r2["stragglers"][0] == 0,
          "round 2: 9 devices there, 9 averaged")
    audited(out)
    model = os.path.join(TMP, "dec-model")
    p = run(["--algorithm=decentralized"] + BASE + MODEL, model)
    check(p.returncode == 0, "decentralized with the on/off model: %s" % p.stderr.strip()[-300:])
    if p.returncode == 0:
        audited(model)
    semi = os.path.join(TMP, "semi-model")
    p = run(["--algorithm=semi-decentralized"] + BASE + ["--meanOnTime=4s", "--meanOffTime=2s"],
            semi)
    check(p.returncode == 0, "semi-decentralized with the on/off model: %s"
          % p.stderr.strip()[-300:])
    if p.returncode == 0:
        times = [v["round_time_s"][0] for v in network_rows_timed(semi).values()
                 if "round_time_s" in v]
        check(times and max(times) < 60, "semi-decentralized: no round waits for the 60 s "
              "deadline (%s s)" % ", ".join("%.2f" % t for t in times))
        audited(semi)


def local_case():
    """Local training: a job lost to a leave is a straggler; the round does not wait."""
    path = os.path.join(TMP, "local.csv")
    with open(path, "w") as f:
        f.write("device,start_s,end_s\n1,0,0.05\n1,1000,2000\n")
    out = os.path.join(TMP, "local-file")
    whole = os.path.join(TMP, "local-all")
    p = run(["--algorithm=local", "--nDevices=10", "--rounds=2", "--quiet",
             "--availabilityFile=" + path], out)
    q = run(["--algorithm=local", "--nDevices=10", "--rounds=2", "--quiet"], whole)
    check(p.returncode == 0 and q.returncode == 0, "local training with a file: %s"
          % (p.stderr + q.stderr).strip()[-300:])
    if p.returncode != 0 or q.returncode != 0:
        return
    r1 = network_rows_timed(out)[1]
    t = network_rows_timed(whole)[1]["round_time_s"][0]
    check(r1["available"][0] == 10 and r1["participants"][0] == 9
          and r1["stragglers"][0] == 1 and r1["round_time_s"][0] == t,
          "round 1: device 1 leaves at 0.05 s, mid-job: 9 trained, 1 straggler, the round as "
          "long as without it (%.9f s = %.9f s)" % (r1["round_time_s"][0], t))
    audited(out)


def refusals():
    bad = os.path.join(TMP, "bad.csv")
    overlap = os.path.join(TMP, "overlap.csv")
    header = os.path.join(TMP, "header.csv")
    with open(bad, "w") as f:
        f.write("device,start_s,end_s\n10,0,1\n")
    with open(overlap, "w") as f:
        f.write("device,start_s,end_s\n2,0,5\n2,4,8\n")
    with open(header, "w") as f:
        f.write("device,from,to\n1,0,1\n")
    cases = [(["--meanOnTime=20s"], "--meanOffTime"),
             (MODEL + ["--availabilityFile=" + bad], "--availabilityFile"),
             (["--availabilityFile=" + bad], "device '10'"),
             (["--availabilityFile=" + overlap], "overlap"),
             (["--availabilityFile=" + header], "header"),
             (MODEL + ["--backend=wifi"], "--backend=channel")]
    cli_checks.refused(cases, os.path.join(TMP, "refused"), ["--quiet"], timeout=600)


def main():
    model_case()
    file_case("channel")
    fedbuff_case()
    decentralized_case()
    local_case()
    refusals()
    if cli_checks.failures:
        sys.exit("fedavg-availability: %d failure(s) (runs in %s)" % (cli_checks.failures, TMP))
    print("fedavg-availability: ok")


if __name__ == "__main__":
    main()
