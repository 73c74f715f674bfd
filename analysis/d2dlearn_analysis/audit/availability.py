"""Devices that come and go: availability.csv (sim_time_s, device, available) and check
availability (the file written exactly when devices come and go, its rows, the
--availabilityFile's intervals; no message sent or delivered, no compute period, while a
device is away; rounds.csv's `available` rows); its away intervals (away_intervals) for the
checks partition, periods and fl-round.
"""

import csv
import math

from d2dlearn_analysis.audit.core import FEDAVG_FAMILY, NS_TOL, is_number, seconds_ns_or_none


def away_intervals(a, rows):
    """{device: [(t_leave, t_back), ...]} in ns of availability.csv's rows (None without the
    file): ascending, disjoint, t_back math.inf for a device that never came back (one that
    left at the run's very end too); a leave and a return at one instant (--availabilityFile's
    intervals that touch) an interval of 0 ns, kept (the device left: its transmissions and
    its round's job are lost). Rows that repeat a state, or go back in time, are read as far
    as they go (check availability flags them)."""
    if rows is None:
        return None
    left, away = {}, {}

    def add(device, leave, back):
        intervals = away.setdefault(device, [])
        if back >= leave and (not intervals or intervals[-1][1] <= leave):
            intervals.append((leave, back))
    for r in rows:
        t, device, value = r.get("sim_time_ns"), r.get("device#"), r.get("available")
        if t is None or device is None:
            continue
        if value == "0" and device not in left:
            left[device] = t
        elif value == "1" and device in left:
            add(device, left.pop(device), t)
    for device, t in left.items():
        add(device, t, math.inf)
    return away


def away_inside(intervals, t):
    """The away interval (t_leave, t_back) with t_leave < t < t_back, else None."""
    if t is None:
        return None
    return next(((lo, hi) for lo, hi in intervals or () if lo < t < hi), None)


def away_before(intervals, t):
    """The away time (ns) of intervals within [0, t]."""
    return sum(max(0, min(hi, t) - lo) for lo, hi in intervals if lo < t)


def on_until(intervals, t0, span):
    """The instant a radio on from t0 but over the away intervals has been on for span ns."""
    t = t0
    for lo, hi in intervals:
        if hi <= t:
            continue
        if lo >= t + span:
            break
        span -= max(0, lo - t)
        t = hi
    return t + span


def available_range(a, t):
    """(least, most) devices available at t: nDevices less those away with availability.csv's
    rows at t < t applied, and with those at t <= t applied (a change stamped at t itself
    may count either way); None without nDevices."""
    k = a.params.get("nDevices")
    if not isinstance(k, int) or isinstance(k, bool):
        return None
    intervals = [iv for ivs in (a.away or {}).values() for iv in ivs]
    at_or_before = k - sum(1 for lo, hi in intervals if lo <= t < hi)
    before = k - sum(1 for lo, hi in intervals if lo < t <= hi)
    return min(at_or_before, before), max(at_or_before, before)


def round_begin(a, start):
    """The instant the server samples a round it opens at start: start; with every device
    away then (availability.csv, the changes stamped at start applied: a leave that ends a
    round comes before the next round), the first return after it (D2dFedAvg waits)."""
    k = a.params.get("nDevices")
    if not a.away or not isinstance(k, int):
        return start
    backs = [hi for ivs in a.away.values() for lo, hi in ivs if lo <= start < hi]
    if len(backs) < k or min(backs) == math.inf:
        return start
    return min(backs)


def availability_active(a):
    """True / False: run.json's parameters say devices come and go (meanOnTime_s and
    meanOffTime_s > 0, or an availabilityFile) or not; None if it records neither."""
    p = a.params
    if not any(key in p for key in ("meanOnTime_s", "meanOffTime_s", "availabilityFile")):
        return None
    on, off = p.get("meanOnTime_s"), p.get("meanOffTime_s")
    model = is_number(on) and is_number(off) and on > 0 and off > 0
    return bool(model or p.get("availabilityFile") not in (None, ""))


def check_availability(a, rows, messages, energy):
    """Check availability: availability.csv written exactly when run.json says devices come
    and go, its rows well formed; no message sent by a device while away, none delivered to
    one; no compute period while away."""
    active = availability_active(a)
    if active is not None:
        p = a.params
        a.expect(active == (rows is not None), "availability.csv", "availability",
                 "availability.csv written exactly when devices come and go (run.json: "
                 "meanOnTime_s %s, meanOffTime_s %s, availabilityFile '%s')"
                 % (p.get("meanOnTime_s"), p.get("meanOffTime_s"),
                    p.get("availabilityFile", "")),
                 "a file" if active else "none", "a file" if rows is not None else "none")
    if rows is None:
        return
    k = a.params.get("nDevices")
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    state, prev = {}, None
    for r in rows:
        where = "availability.csv:%d" % r["_line"]
        t, device, value = r.get("sim_time_ns"), r.get("device#"), r["available"]
        if device is not None and isinstance(k, int):
            a.expect(0 <= device < k, where, "availability", "a device (0..%d)" % (k - 1),
                     "0..%d" % (k - 1), device)
        if a.expect(value in ("0", "1"), where, "availability", "available 0 or 1", "0|1",
                    value) and device is not None:
            want = "0" if state.get(device, "1") == "1" else "1"
            a.expect(value == want, where, "availability", "device %d's rows alternate 0, "
                     "1, 0, ... from 0 (it is available until its first 0 row)" % device,
                     want, value)
            state[device] = value
        if t is None:
            continue
        if end is not None:
            a.expect(t <= end, where, "availability", "sim_time_s not after "
                     "simulated_time_s", "<= %.9f" % (end / 1e9), r["sim_time_s"])
        if prev is not None:
            a.expect(t >= prev[0], where, "availability", "sim_time_s not before the "
                     "previous row's", ">= " + prev[1], r["sim_time_s"])
        prev = (t, r["sim_time_s"])
    check_availability_file(a)
    check_away_rows(a, messages, energy)


def availability_file(path):
    """{device: [(lo, hi) ns]} of the away intervals an --availabilityFile (device,start_s,
    end_s: when a device is there) leaves a device that it lists: before its first interval,
    between them, after its last (hi math.inf); ValueError if it is no such file."""
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows or [c.strip() for c in rows[0]] != ["device", "start_s", "end_s"]:
        raise ValueError("no header device,start_s,end_s")
    there = {}
    for row in rows[1:]:
        if row:
            there.setdefault(int(row[0]), []).append((int(round(float(row[1]) * 1e9)),
                                                       int(round(float(row[2]) * 1e9))))
    away = {}
    for device, intervals in there.items():
        t = 0
        for lo, hi in sorted(intervals):
            if lo > t:
                away.setdefault(device, []).append((t, lo))
            t = max(t, hi)
        away.setdefault(device, []).append((t, math.inf))
    return away


def check_availability_file(a):
    """Check availability: with --availabilityFile (run.json's availabilityFile, if it can
    be read here), each device's away intervals in availability.csv those the file leaves
    it, within the run (1 ns: a change at the run's very end may or may not be written)."""
    path = a.params.get("availabilityFile")
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    if not path or a.away is None or end is None:
        return
    try:
        want = availability_file(path)
    except (OSError, ValueError, IndexError) as e:
        a.skip("availability.csv", "availability", "--availabilityFile=%s cannot be read "
               "here (%s): its intervals are not compared" % (path, e))
        return

    def within(intervals):  # (a leave and a return at one instant: the file's intervals touch)
        return [(lo, hi if hi < end - NS_TOL else math.inf) for lo, hi in intervals
                if lo < end - NS_TOL and hi > lo]
    for device in sorted(set(want) | set(a.away)):
        expected, got = within(want.get(device, [])), within(a.away.get(device, []))
        same = len(expected) == len(got) and all(
            abs(lo - lo2) <= NS_TOL and (hi == hi2 or abs(hi - hi2) <= NS_TOL)
            for (lo, hi), (lo2, hi2) in zip(expected, got))
        a.expect(same, "availability.csv", "availability", "device %d's away intervals: "
                 "those --availabilityFile=%s leaves it" % (device, path),
                 "; ".join(span_text(iv) for iv in expected) or "none",
                 "; ".join(span_text(iv) for iv in got) or "none")


def check_away_rows(a, messages, energy):
    """Check availability: messages.csv and energy.csv against the away intervals."""
    away = a.away or {}
    for m in messages:
        where = "messages.csv:%d" % m["_line"]
        sent = away_inside(away.get(m.get("src#")), m.get("t_send_ns"))
        a.expect(sent is None, where, "availability", "device %s sends nothing while away "
                 "(availability.csv: away from %s)" % (m["src"], span_text(sent)),
                 "no row", "t_send_s " + m["t_send_s"])
        if m["delivered"] == "1":
            got = away_inside(away.get(m.get("dst#")), m.get("t_recv_ns"))
            a.expect(got is None, where, "availability", "device %s receives nothing while "
                     "away (availability.csv: away from %s)" % (m["dst"], span_text(got)),
                     "not delivered (receiver_off)", "delivered at t_recv_s " + m["t_recv_s"])
    for r in energy:
        # A compute row of one period (every row at --traces=full) dates its period.
        if r["component"] != "compute" or r.get("periods#") != 1 \
                or None in (r.get("start_s#"), r.get("duration_s#")):
            continue
        s, e = r["start_s#"], r["start_s#"] + r["duration_s#"]
        hit = next(((lo, hi) for lo, hi in away.get(r.get("node#"), ()) if s < hi and e > lo),
                   None)
        a.expect(hit is None, "energy.csv:%d" % r["_line"], "availability",
                 "node %s computes nothing while away (availability.csv: away from %s)"
                 % (r["node"], span_text(hit)), "no compute period",
                 "from %.9f to %.9f s" % (s / 1e9, e / 1e9))


def span_text(interval):
    if interval is None:
        return ""
    return "%.9f s %s" % (interval[0] / 1e9, "on (never back)" if interval[1] == math.inf
                          else "to %.9f s" % (interval[1] / 1e9))


def check_available_rows(a, rounds):
    """Check availability: rounds.csv's node -1 `available` rows (the FedAvg family,
    decentralized FL and local training): one per round exactly when availability.csv is there, each nDevices
    less the devices away at the round's start (the previous round's round_time_s row, 0 for
    round 1; FedAvg, with every device away then: the first return after it, when the
    server samples)."""
    algorithm = a.params.get("algorithm")
    # (by hand: which protocols write `available` rows is no field of the registry's export)
    if algorithm not in FEDAVG_FAMILY + ("decentralized", "local") or not rounds:
        return
    rows = {}
    for r in rounds:
        if r.get("node#") == -1 and r["metric"] in ("available", "round_time_s") \
                and r.get("round#") is not None:
            rows.setdefault(r["round#"], {})[r["metric"]] = r
    start = 0
    for rnd in sorted(rows):
        got = rows[rnd]
        if a.away is None:
            if "available" in got:
                a.expect(False, "rounds.csv:%d" % got["available"]["_line"], "availability",
                         "round %d: no `available` row without availability.csv (devices "
                         "always there)" % rnd, "none", got["available"]["value"])
            continue
        timed = got.get("round_time_s")
        if timed is not None:
            a.expect("available" in got, "rounds.csv:%d" % timed["_line"], "availability",
                     "round %d: node -1's `available` row (availability.csv: devices come "
                     "and go)" % rnd, "a row", "none")
        if "available" in got and got["available"].get("value#") is not None:
            begin = round_begin(a, start) if algorithm in FEDAVG_FAMILY else start
            counts = available_range(a, begin)
            value = got["available"]["value#"]
            if counts is not None:
                lo, hi = counts
                a.expect(lo <= value <= hi, "rounds.csv:%d" % got["available"]["_line"],
                         "availability", "round %d: `available` = nDevices less the devices "
                         "away at its start, %.9f s (availability.csv)" % (rnd, begin / 1e9),
                         "%d" % lo if lo == hi else "%d or %d" % (lo, hi),
                         int(value) if value == int(value) else value)
        if timed is None or timed.get("sim_time_ns") is None:
            break  # (the next round's start is unknown)
        start = timed["sim_time_ns"]
