"""energy.csv's periods of draw (check partition): each row's period against its stamp, and
each radio's exclusive states partition the run (--traces=full) or add up to it (standard),
less its device's away intervals (availability.csv) and up to its battery's depletion; the
depletions found (Audit.depleted) for check fl-round.
"""

from d2dlearn_analysis.audit.availability import away_before, span_text
from d2dlearn_analysis.audit.energy import RADIO_STATES, radio_state
from d2dlearn_analysis.audit.power import RadioPowers


def check_partition(a, energy, messages=()):
    """Each row's period (start_s, duration_s) against its stamp; each radio's exclusive
    states partition the run (full) or add up to it (standard), less its device's away
    intervals (availability.csv)."""
    standard = a.run.get("traces") == "standard"
    p = a.params
    powers = RadioPowers(a)
    top = a.run.get("simulated_time_s")
    end = int(round(top * 1e9)) if isinstance(top, (int, float)) else None
    groups = {}       # (node, prefix) -> rows
    depleted = {}     # node -> the stamp of its first row with remaining_j 0
    for r in energy:
        where = "energy.csv:%d" % r["_line"]
        t, s, d, n = r.get("sim_time_ns"), r.get("start_s#"), r.get("duration_s#"), \
            r.get("periods#")
        node = r.get("node#")
        if r.get("remaining_j#") == 0.0 and node not in depleted and t is not None:
            depleted[node] = t
        if None in (t, s, d):
            continue
        if standard:
            a.expect(n is not None and n >= 1 and d >= n, where, "partition",
                     "periods >= 1, each of at least 1 ns (duration_s >= periods ns)",
                     ">= 1, <= %d" % d, n)
            a.expect(s + d <= t, where, "partition", "start_s + duration_s <= sim_time_s "
                     "(the periods end by the row's stamp)", "<= %.9f" % (t / 1e9),
                     "%.9f" % ((s + d) / 1e9))
        else:
            a.expect(n == 1, where, "partition", "periods = 1 (one period a row)", 1, n)
            a.expect(d > 0 and s + d == t, where, "partition",
                     "duration_s = sim_time_s - start_s > 0", "%.9f" % ((t - s) / 1e9),
                     "%.9f" % (d / 1e9))
        state = radio_state(r["component"])
        if state is not None and node is not None:
            groups.setdefault((node, state[0]), []).append(r)
    # (check fl-round: a sampled device depleted during a round is a known failure; its
    # battery emptied after the end of its periods stamped by its first row of remaining_j 0.)
    for r in energy:
        node, t = r.get("node#"), r.get("sim_time_ns")
        if node in depleted and t is not None and t <= depleted[node] \
                and None not in (r.get("start_s#"), r.get("duration_s#")):
            lo = a.depleted.get(node, (0, 0))[0]
            a.depleted[node] = (max(lo, r["start_s#"] + r["duration_s#"]), depleted[node])
    for node, t in depleted.items():
        a.depleted[node] = (min(a.depleted.get(node, (t, t))[0], t), t)
    if end is None:
        return
    if powers.zero:
        a.skip("energy.csv", "partition", "; ".join(powers.zero))
        return
    devices = p.get("nDevices")
    off = p.get("d2dRadioOff") is True
    # A radio switched off at time 0 (--d2dRadio=auto with a protocol that sends no D2D
    # message: d2dRadioOff) has no rows; every other radio of a kind some device has listens
    # from time 0 on every device.
    if off:
        lines = [rows[0]["_line"] for (node, prefix), rows in groups.items()
                 if prefix == "radio"]
        a.expect(not lines, "energy.csv:%d" % min(lines) if lines else "energy.csv",
                 "partition", "no radio_* row: the D2D radios are off from time 0 "
                 "(d2dRadioOff)", "none", "%d rows" % len(lines))
    if isinstance(devices, int):
        for prefix in sorted({k[1] for k in groups}):
            if prefix == "radio" and off:
                continue
            missing = [i for i in range(devices) if (i, prefix) not in groups
                       and not rowless_away(a, i, prefix, messages, powers.wifi, end)]
            a.expect(not missing, "energy.csv", "partition",
                     "every device's %s radio has rows (on from time 0%s)" % (
                         prefix, "; but a device away at time 0 (availability.csv) that "
                         "never came back, or on Wi-Fi whose PHY neither sent nor received"
                         if a.away else ""),
                     "nodes 0..%d" % (devices - 1),
                     "none of node " + ",".join(str(i) for i in missing[:10]))
    # tx and rx overlap on a full-duplex channel radio; an 802.11 PHY is one state at a time.
    duplex = not powers.wifi and p.get("ns3::D2dRadio::HalfDuplex") is False
    for (node, prefix), rows in sorted(groups.items()):
        rows = [r for r in rows if r.get("start_s#") is not None
                and r.get("duration_s#") is not None]
        if not rows:
            continue
        last = max(rows, key=lambda r: r["_line"])
        dep = depleted.get(node)
        who = "node %d's %s radio" % (node, "D2D" if prefix == "radio" else "D2S")
        away = None if a.away is None else a.away.get(node, [])
        if standard:
            partition_standard(a, rows, last, who, end, dep, duplex, away)
        else:
            partition_full(a, rows, last, who, end if dep is None else dep, dep is not None,
                           duplex, away)


def rowless_away(a, device, prefix, messages, wifi, end):
    """True if device's radio (prefix) may have no row: away from time 0 (availability.csv)
    and never back, or, on Wi-Fi, its PHY (switched off at time 0) neither sent nor received
    a message of that radio on record (messages.csv: src, or dst of a delivered row)."""
    intervals = (a.away or {}).get(device)
    if not intervals or intervals[0][0] != 0:
        return False
    if end is not None and intervals[0][1] >= end:
        return True
    server = a.params.get("nDevices")
    for m in messages if wifi else ():
        d2s = server in (m.get("src#"), m.get("dst#"))
        if d2s == (prefix == "d2s") and (m.get("src#") == device or (
                m.get("dst#") == device and m["delivered"] == "1")):
            a.expect(False, "messages.csv:%d" % m["_line"], "partition", "node %d's %s radio "
                     "has rows: away at time 0 (availability.csv), back at %.9f s, it %s this "
                     "message" % (device, "D2S" if d2s else "D2D", intervals[0][1] / 1e9,
                                  "sent" if m.get("src#") == device else "received"),
                     "rows", "none")
            return True  # (flagged here, with the message)
    return wifi


def partition_full(a, rows, last, who, end, depleted, duplex, away=None):
    """The periods of one radio cover [0, end] without a gap or an overlap (but tx with rx
    when duplex); with availability.csv (away: its device's away intervals), [0, end] less
    them: a gap exactly over each, no period within one, and the periods end where it left
    if it never came back."""
    periods = sorted((r["start_s#"], r["sim_time_ns"], radio_state(r["component"])[1],
                      r["_line"]) for r in rows)
    listed = away is not None
    away = [(lo, min(hi, end)) for lo, hi in away or () if lo < end]
    cover = 0
    active = []  # the periods still open at the current start
    for start, stop, state, line in periods:
        where = "energy.csv:%d" % line
        if start > cover and not any(lo <= cover and start <= hi for lo, hi in away):
            a.expect(False, where, "partition", "%s in some state from %.9f to %.9f s%s"
                     % (who, cover / 1e9, start / 1e9, " (away only over availability.csv's "
                        "intervals)" if listed else ""), "a period", "none (a gap)")
        inside = next(((lo, hi) for lo, hi in away if start < hi and stop > lo), None)
        if away:
            a.expect(inside is None, where, "partition", "%s draws nothing while its device "
                     "is away (availability.csv: from %s)" % (who, span_text(inside)),
                     "no period", "a %s period from %.9f to %.9f s"
                     % (state, start / 1e9, stop / 1e9))
        active = [x for x in active if x[1] > start]
        for other in active:
            allowed = duplex and {state, other[2]} == {"tx", "rx"}
            a.expect(allowed, where, "partition", "%s: its %s period from %.9f s overlaps "
                     "line %d's %s period (until %.9f s)" % (who, state, start / 1e9,
                                                             other[3], other[2],
                                                             other[1] / 1e9),
                     "no overlap" + (" but tx with rx" if duplex else ""), "an overlap")
        if not active:
            a.checks += 1  # no overlap: one check passed
        active.append((start, stop, state, line))
        cover = max(cover, stop)
    final = away[-1][0] if away and away[-1][1] >= end else end
    a.expect(cover == final, "energy.csv:%d" % last["_line"], "partition",
             "%s's periods end at %s" % (who, "its battery's depletion (remaining_j 0)"
                                         if depleted and final == end else
                                         "the run's end (simulated_time_s%s)" % (
                                             ", there then by availability.csv" if listed
                                             else "") if final == end
                                         else "its last leave (availability.csv: it never "
                                         "came back)"),
             "%.9f" % (final / 1e9), "%.9f" % (cover / 1e9))


def partition_standard(a, rows, last, who, end, depleted_at, duplex, away=None):
    """The summed durations of one radio's states equal the run's end (or its battery's
    depletion, which a standard row does not date: between the end of its periods and the
    stamp of its first row with remaining_j 0), less its away time (availability.csv)."""
    sums = {state: 0 for state in RADIO_STATES}
    for r in rows:
        sums[radio_state(r["component"])[1]] += r["duration_s#"]
    total = sum(sums.values())
    exclusive = total - sums["tx"] - sums["rx"] + max(sums["tx"], sums["rx"])
    lo, hi = (exclusive, total) if duplex else (total, total)
    where = "energy.csv:%d" % last["_line"]
    less = " less its device's away time (availability.csv)" if away is not None else ""
    away = away or ()
    if depleted_at is None:
        end -= away_before(away, end)
        what = "%s: its states' summed duration_s = the run's end (simulated_time_s)%s" % (
            who, less)
        if duplex:
            what += " (tx and rx may overlap: between the sum without their overlap and the sum)"
        a.expect(lo <= end <= hi, where, "partition", what, "%.9f" % (end / 1e9),
                 "%.9f" % (lo / 1e9) if lo == hi else "[%.9f, %.9f]" % (lo / 1e9, hi / 1e9))
    else:
        latest = max(r["start_s#"] + r["duration_s#"] for r in rows)
        latest -= away_before(away, latest)
        depleted_at -= away_before(away, depleted_at)
        a.expect(lo <= depleted_at and hi >= latest, where, "partition",
                 "%s: its states' summed duration_s = its battery's depletion, between the "
                 "end of its last period and its first row with remaining_j 0%s" % (who, less),
                 "[%.9f, %.9f]" % (latest / 1e9, depleted_at / 1e9),
                 "%.9f" % (lo / 1e9) if lo == hi else "[%.9f, %.9f]" % (lo / 1e9, hi / 1e9))
