"""energy.csv at --traces=standard on the channel backend (check periods): each radio_idle or
d2s_idle row's periods against its radio's other rows of the same flush and the
transmissions and receptions on record in messages.csv (busy_joins).
"""

import bisect

from d2dlearn_analysis.audit.availability import on_until
from d2dlearn_analysis.audit.energy import RADIO_PREFIXES, radio_state
from d2dlearn_analysis.audit.environment import moves
from d2dlearn_analysis.audit.messages import ON_AIR_REASONS, RECEIVED_REASONS
from d2dlearn_analysis.audit.power import RadioPowers


def radio_may_sleep(a, energy):
    """{prefix: why} of the radios that may sleep (DRX, sleepWhileTraining,
    sleepBetweenIterations, a sleep or transition row): a sleep may last 0 ns (woken at the
    instant it fell asleep: D2dDrx::RequestWake), which writes no row yet splits an idle
    period in two."""
    p = a.params
    why = {}
    for key, value in sorted(p.items()):
        low = key.lower()
        if low == "drx" or low == "d2sdrx":
            if value not in ("", None):
                why.setdefault("d2s" if low == "d2sdrx" else "radio", "%s=%s" % (key, value))
        elif "drx" in low and value not in ("", None, False, 0):
            for prefix in RADIO_PREFIXES:
                why.setdefault(prefix, "%s=%s" % (key, value))
        elif ("sleepwhiletraining" in low or "sleepbetween" in low) and value is True:
            for prefix in RADIO_PREFIXES:
                why.setdefault(prefix, "%s true" % key)
    for r in energy:
        state = radio_state(r["component"])
        if state is not None and state[1] in ("sleep", "transition"):
            why.setdefault(state[0], "%s rows" % r["component"])
    return why


def busy_joins(a, messages, sp):
    """({(node, prefix): sorted instants (ns)}, prefixes with an air time of 0 ns on record):
    the instants at which a radio is busy just before and just after and its draw changes,
    from its transmissions and receptions on record, whose times are exact: a transmission
    that ran to its end (a row of ON_AIR_REASONS) from t_start_s to t_start_s + airtime_s
    at its sender (BeginTx, TxEnd); a delivered reception from t_recv_s - airtime_s to
    t_recv_s at its receiver (D2dChannel::RxStart and RxEnd, one propagation delay after
    them); a reception that began but was lost (loss, retry_limit) one propagation delay
    after its transmission too, where that delay is known: devices that do not move, ns-3's
    delay model not set on the command line (a constant speed: one delay per link), and
    the link's delivered rows all giving the same one. Such an instant is where one of them begins or ends, and either another ends or
    begins there too or one of them is under way across it. Each begin and end changes the
    radio's draw (D2dRadioEnergyModel: tx on / off, rx draw +- one reception's), so each
    such instant ends a period of draw and begins another, both not idle."""
    spans, seen, zero, delays, lost = {}, set(), set(), {}, []
    for r in messages:
        start, air = r.get("t_start_ns"), r.get("airtime_ns")
        if start is None or air is None or r["reason"] not in ON_AIR_REASONS \
                or r.get("src#") is None or r.get("dst#") is None:
            continue
        prefix = "d2s" if sp.channel(r) == "D2S" else "radio"
        if air <= 0:
            zero.add(prefix)
            continue
        if (r.get("msg_id#"), start, air) not in seen:  # one transmission, a row per receiver
            seen.add((r.get("msg_id#"), start, air))
            spans.setdefault((r["src#"], prefix), []).append((start, start + air))
        recv = r.get("t_recv_ns")
        if r["delivered"] == "1" and recv is not None:
            spans.setdefault((r["dst#"], prefix), []).append((recv - air, recv))
            delays.setdefault((r["src#"], r["dst#"]), set()).add(recv - start - air)
        elif r["reason"] in RECEIVED_REASONS:
            lost.append((r["src#"], r["dst#"], prefix, start, air))
    fixed = not moves(a) and "delaymodel" not in str(a.params.get("commandLine", "")).lower()
    for src, dst, prefix, start, air in lost if fixed else []:
        delay = delays.get((src, dst), ())
        if len(delay) == 1:
            (d,) = delay
            spans.setdefault((dst, prefix), []).append((start + d, start + air + d))
    joins = {}
    for key, intervals in spans.items():
        begins = sorted(s for s, _ in intervals)
        ends = sorted(e for _, e in intervals)
        both = set(begins) & set(ends)
        # under way across t: begun before t and not ended by t (every span lasts > 0 ns)
        joins[key] = sorted(t for t in set(begins) | set(ends) if t in both or
                            bisect.bisect_left(begins, t) - bisect.bisect_right(ends, t) > 0)
    return joins, zero


def check_periods(a, energy, messages, sp):
    """--traces=standard: each radio_idle / d2s_idle row's periods against its radio's other
    rows of the same flush (and the transmissions and receptions on record)."""
    if a.run.get("traces") != "standard":
        return  # --traces=full: periods = 1 (check partition)
    p = a.params
    powers = RadioPowers(a)
    why = None
    if p.get("backend", "channel") != "channel":
        why = ("--backend=wifi: a radio's idle rows hold ns-3's IDLE, CCA_BUSY and SWITCHING, "
               "periods that may follow each other")
    elif powers.zero:
        why = "; ".join(powers.zero)
    elif any(r.get("remaining_j#") == 0.0 for r in energy):
        why = ("a battery depleted: its radio, switched off, ends the receptions of its "
               "transmission, maybe at the instant they began")
    if why is not None:
        a.skip("energy.csv", "periods", why)
        return
    sleeps = radio_may_sleep(a, energy)
    for prefix, reason in sorted(sleeps.items()):
        a.skip("energy.csv", "periods", "%s_idle: the radio may sleep (%s), maybe for 0 ns, "
               "between two idle periods" % (prefix, reason))
    rate_key = {"radio": "linkRateBps", "d2s": "d2sLinkRateBps"}
    fast = {}
    for prefix in RADIO_PREFIXES:
        rate = p.get(rate_key[prefix])
        # A message has at least one byte (D2dMessage): 8 bits take >= 1 ns up to 8 Gb/s.
        fast[prefix] = not isinstance(rate, (int, float)) or isinstance(rate, bool) \
            or not 0 < rate <= 8e9
    joins, zero = busy_joins(a, messages, sp)
    duplex = p.get("ns3::D2dRadio::HalfDuplex") is False
    groups = {}  # (sim_time_ns, node, prefix) -> rows, in file order
    for r in energy:
        state = radio_state(r["component"])
        if state is None:
            continue
        groups.setdefault((r.get("sim_time_ns"), r.get("node#"), state[0]), []).append(r)
    for (t, node, prefix), rows in groups.items():
        idle = [r for r in rows if radio_state(r["component"])[1] == "idle"]
        if not idle or prefix in sleeps or t is None or node is None:
            continue
        if fast[prefix] or prefix in zero:
            a.skip("energy.csv", "periods", "%s_idle: an air time may round to 0 ns (%s)"
                   % (prefix, "one on record" if prefix in zero else
                      "%s above 8e9 b/s or not recorded" % rate_key[prefix]))
            continue
        if any(r.get(c) is None for r in rows for c in ("start_s#", "duration_s#",
                                                         "periods#")):
            continue  # (a violation of its own)
        row = idle[-1]
        n = sum(r["periods#"] for r in idle)
        t0 = min(r["start_s#"] for r in rows)
        # Its device's away intervals (availability.csv) within the flush: no period there,
        # and each leave may part two idle periods as a busy one does.
        away = (a.away or {}).get(node, [])
        gaps = sum(1 for lo, _ in away if t0 < lo < t)
        # The end of the flush's last period (half-duplex: the states follow each other, as
        # check partition checks, but over the away intervals), or a time not after it (tx
        # and rx may overlap).
        t1 = max(r["start_s#"] + r["duration_s#"] for r in rows) if duplex else \
            on_until(away, t0, sum(r["duration_s#"] for r in rows))
        first = any(r["start_s#"] == t0 for r in idle)
        last = radio_state(rows[-1]["component"])[1] == "idle"
        busy = sum(r["periods#"] for r in rows if radio_state(r["component"])[1] != "idle")
        where = "energy.csv:%d" % row["_line"]
        who = "node %d's %s radio" % (node, "D2D" if prefix == "radio" else "D2S")
        parted = "; leaves (availability.csv) within it: %d" % gaps if gaps else ""
        if busy == 0:
            a.expect(1 <= n <= 1 + gaps, where, "periods", "%s idle through its flush: one "
                     "period%s" % (who, parted), "1" if not gaps else "[1, %d]" % (1 + gaps),
                     n)
            continue
        instants = joins.get((node, prefix), [])
        joined = bisect.bisect_left(instants, t1) - bisect.bisect_right(instants, t0)
        lo = int(first) + int(last)
        hi = busy - joined + int(first) + int(last) - 1 + gaps
        a.expect(lo <= n <= hi, where, "periods",
                 "%s: its idle periods alternate with its %d other periods of the flush "
                 "(%s with idle, %s with idle; instants on record where its draw changes "
                 "while it stays busy: %d%s)"
                 % (who, busy, "begins" if first else "does not begin",
                    "ends" if last else "does not end", joined, parted),
                 "%d" % lo if lo == hi else "[%d, %d]" % (lo, hi), n)
