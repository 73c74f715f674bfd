"""rounds.csv: check round-energy (node -1's energy rows against energy.csv), network-mean
(node -1 the mean of the regular agents' rows), rounds (each (round, node, metric) once;
node -1's bytes_sent against messages.csv), fl-round (the FedAvg family's participants and
stragglers against the round's messages) and async-round (fedasync's and fedbuff's
updates).
"""

import bisect
import math

from d2dlearn_analysis.audit.availability import round_begin
from d2dlearn_analysis.audit.core import FEDAVG_FAMILY, PRINTED, is_number
from d2dlearn_analysis.audit.results import distinct_bytes


def check_round_energy(a, energy, rounds):
    """rounds.csv's energy rows (node -1, `energy_j` and `energy_j.COMPONENT`, after the
    first row of each (round, sim_time_s)): each within its bounds from energy.csv, the
    total the sum of its components, one set per (round, time). The energy drawn up to t
    (open periods of draw included) is at least the rows stamped up to t (a row holds
    periods that ended by its stamp, at both trace levels) and at most those plus, per
    (node, component), the first row after t (--traces=full: the row that closes the
    period open at t) or plus all later rows (standard: a row sums the periods of a
    second)."""
    if not rounds:
        return
    standard = a.run.get("traces") == "standard"
    points = {}   # (round, t) -> {metric: (value, line)}
    keys = []     # the (round, t) of every row, in order
    for r in rounds:
        if r.get("round#") is None or r.get("sim_time_ns") is None or r.get("value#") is None:
            continue
        key = (r["round#"], r["sim_time_ns"])
        if not keys or keys[-1] != key:
            keys.append(key)
        if r.get("node#") == -1 and (r["metric"] == "energy_j"
                                     or r["metric"].startswith("energy_j.")):
            points.setdefault(key, {})[r["metric"]] = (r["value#"], r["_line"])
    if not points:
        a.expect(not energy, "rounds.csv", "round-energy",
                 "energy_j rows (node -1) at each (round, time), energy being traced",
                 "energy_j rows", "none")
        return
    every_metric = set()
    for got in points.values():
        every_metric |= set(got)
    for key in dict.fromkeys(keys):
        a.expect("energy_j" in points.get(key, {}), "rounds.csv", "round-energy",
                 "an energy_j row at round %d, t = %.9f s" % (key[0], key[1] / 1e9),
                 "a row", "none")
        # Each set of energy rows has every component (the writer writes them all, 0 too).
        missing = sorted(every_metric - set(points.get(key, {})))
        if key in points:
            a.expect(not missing, "rounds.csv", "round-energy",
                     "the energy rows of every component at round %d, t = %.9f s (as at the "
                     "other times)" % (key[0], key[1] / 1e9), "all", "none of "
                     + ",".join(missing))
    # energy.csv per component: times sorted with cumulative sums; per (node, component)
    # its rows' times and energies (the first row after t).
    by_comp, by_key = {}, {}
    for r in energy:
        t, e = r.get("sim_time_ns"), r.get("energy_j#")
        if t is None or e is None:
            continue
        by_comp.setdefault(r["component"], []).append((t, e))
        by_key.setdefault((r["node"], r["component"]), []).append((t, e))
    cum = {}
    for comp, rows in by_comp.items():
        rows.sort(key=lambda x: x[0])
        sums = [0.0]
        for _, e in rows:
            sums.append(sums[-1] + e)
        cum[comp] = ([t for t, _ in rows], sums)
    keyed = {k: ([t for t, _ in v], [e for _, e in v]) for k, v in by_key.items()}

    def bounds(comps, t):
        lo = hi = 0.0
        for c in comps:
            if c not in cum:
                continue
            times, sums = cum[c]
            i = bisect.bisect_right(times, t)
            lo += sums[i]
            hi += sums[-1] if standard else sums[i]
        if not standard:
            for (node, c), (times, es) in keyed.items():
                if c in comps:
                    i = bisect.bisect_right(times, t)
                    if i < len(times):
                        hi += es[i]
        return lo, hi

    every = sorted(set(by_comp) | {m[len("energy_j."):] for p in points.values() for m in p
                                   if m != "energy_j"})
    for (rnd, t), got in sorted(points.items()):
        parts = 0.0
        for metric, (value, line) in sorted(got.items()):
            comps = every if metric == "energy_j" else [metric[len("energy_j."):]]
            lo, hi = bounds(comps, t)
            tol = 1e-8 * max(abs(hi), abs(value)) + 1e-12
            a.expect(lo - tol <= value <= hi + tol, "rounds.csv:%d" % line, "round-energy",
                     "%s at round %d, t = %.9f s within energy.csv's bounds" % (
                         metric, rnd, t / 1e9), "[%r, %r]" % (lo, hi), value)
            if metric != "energy_j":
                parts += value
        if "energy_j" in got and len(got) > 1:
            total, line = got["energy_j"]
            a.expect_close("rounds.csv:%d" % line, "round-energy",
                           "energy_j = the sum of its energy_j.COMPONENT rows", parts, total,
                           rel=1e-8, abs_tol=1e-12)


def check_rounds(a, rounds, messages):
    """rounds.csv: each (round, node, metric) exactly once (a row written twice, or a round's
    row under another round's number, is found); node -1's bytes_sent rows sum to the bytes
    of the distinct messages of the learning protocol in messages.csv (every kind but graph
    discovery's gd_* and pca_*: results.bytesSent), exactly."""
    if not rounds:
        return
    seen = {}
    for r in rounds:
        if None in (r.get("round#"), r.get("node#")):
            continue
        key = (r["round#"], r["node#"], r["metric"])
        a.expect(key not in seen, "rounds.csv:%d" % r["_line"], "rounds",
                 "(round %d, node %d, metric %s) written once" % key, "one row",
                 "another at line %s" % seen.get(key))
        seen.setdefault(key, r["_line"])
    sent = [r for r in rounds if r.get("node#") == -1 and r["metric"] == "bytes_sent"
            and r.get("value#") is not None]
    # The round-based protocols with a server or a committee write bytes_sent with each
    # round's round_time_s; the peer-to-peer algorithms (decentralized, semi-decentralized,
    # local) do not (by hand: no field of the registry's export says which rows a protocol
    # writes, and usesD2d/usesD2s do not part these from the others).
    timed = [r for r in rounds if r.get("node#") == -1 and r["metric"] == "round_time_s"]
    # (graph-discovery: the protocol is --downstream's.)
    protocol = a.params.get("algorithm", a.params.get("downstream"))
    peer = protocol in ("decentralized", "semi-decentralized", "local")
    a.expect(bool(sent) or not timed or peer, "rounds.csv", "rounds", "node -1's bytes_sent "
             "rows, written with its round_time_s rows (messages.csv's learning bytes; "
             "algorithm %s)" % (protocol or "of the program"), "rows", "none")
    if sent:
        total = sum(r["value#"] for r in sent)
        learning = lambda k: not k.startswith(("gd_", "pca_"))  # noqa: E731
        rounds_wanted = a.params.get("rounds")
        done = a.summary.get("rounds_completed")
        if isinstance(rounds_wanted, int) and isinstance(done, int) and done < rounds_wanted:
            # Stopped mid-round (--maxSimTime): the unfinished round's messages have no row.
            # Those sent before the last row count, those sent at its instant may (the next
            # round's first messages leave then).
            t = sent[-1].get("sim_time_ns")
            lo = distinct_bytes([m for m in messages if m["t_send_ns"] is not None
                                 and t is not None and m["t_send_ns"] < t], learning)
            hi = distinct_bytes([m for m in messages if m["t_send_ns"] is not None
                                 and t is not None and m["t_send_ns"] <= t], learning)
            a.expect(lo <= total <= hi, "rounds.csv:%d" % sent[-1]["_line"], "rounds",
                     "node -1's bytes_sent rows (%d) sum to the bytes of messages.csv's "
                     "distinct messages of the learning protocol sent by the last row (the "
                     "run stopped after %d of %d rounds)" % (len(sent), done, rounds_wanted),
                     "%d to %d" % (lo, hi), int(total) if total == int(total) else total)
            return
        want = distinct_bytes(messages, learning)
        a.expect(total == want, "rounds.csv:%d" % sent[-1]["_line"], "rounds",
                 "node -1's bytes_sent rows (%d) sum to the bytes of messages.csv's distinct "
                 "messages of the learning protocol" % len(sent), want,
                 int(total) if total == int(total) else total)


def check_fl_rounds(a, rounds, messages):
    """Check fl-round: the FedAvg family's participants and stragglers against the round's
    downlink and uplink rows, and why each round ended when it did."""
    p = a.params
    if p.get("algorithm") not in FEDAVG_FAMILY or not rounds:
        return
    if a.run.get("untraced_message_rows"):
        a.skip("rounds.csv", "fl-round", "--traces=standard leaves message rows out")
        return
    k, c = p.get("nDevices"), p.get("clientFraction")
    if not isinstance(k, int) or not is_number(c):
        a.skip("rounds.csv", "fl-round", "run.json has no nDevices or clientFraction")
        return
    target = max(1, math.floor(c * k + 0.5))
    over = p.get("overSelection", 1)
    over_n = math.floor((over if is_number(over) else 1) * target + 0.5)
    unicast = p.get("ns3::D2dFedAvg::Downlink") == "unicast"
    deadline = p.get("roundDeadline_s")
    deadline_ns = round(deadline * 1e9) if is_number(deadline) else 0
    # Known failures: a reliable global_model not delivered, or a "busy" reply (both only
    # with --waitForFailed=false; busy replies also on unreliable links), a sampled device
    # that leaves (availability.csv) or whose battery depletes during the round.
    fail_known = p.get("waitForFailed") is not True
    server = k  # the server's index: the last transport
    rows = {}
    for r in rounds:
        if r.get("node#") == -1 and r["metric"] in ("round_time_s", "participants",
                                                   "stragglers", "available"):
            rows.setdefault(r["round#"], {})[r["metric"]] = r
    start = 0
    for rnd in sorted(x for x in rows if x is not None):
        got = rows[rnd]
        if not all(m in got for m in ("round_time_s", "participants", "stragglers")):
            continue
        end = got["round_time_s"]["sim_time_ns"]
        where = "rounds.csv:%d" % got["participants"]["_line"]
        part, strag = got["participants"]["value#"], got["stragglers"]["value#"]
        if end is None or part is None or strag is None:
            continue
        # Devices that come and go: the server samples among those available (rounds.csv's
        # `available`, check availability), when one is (the round may wait for one).
        there = (got.get("available") or {}).get("value#")
        sampled_n = min(k if there is None else int(there), over_n)
        start = round_begin(a, start)
        down = [m for m in messages if m["kind"] == "global_model" and m["t_send_ns"] is not
                None and abs(m["t_send_ns"] - start) <= 1]
        sampled = {m["dst#"] for m in down}
        # (A device away when the server samples is not sampled: its row of a broadcast to
        # every device is no failure; one that leaves at that instant may have been.)
        away = {d for d, ivs in (a.away or {}).items()
                if any(lo < start < hi or lo == start == 0 < hi for lo, hi in ivs)}
        failed = {m["dst#"] for m in down if m["mode"] == "reliable" and m["delivered"] != "1"
                  and m["reason"] != "unfinished" and m["dst#"] not in away}
        # A sampled device still on an earlier round's job answers "busy".
        failed |= {m["src#"] for m in messages if m["kind"] == "busy" and m["dst#"] == server
                   and m["complete"] == "1" and m["t_recv_ns"] is not None
                   and start < m["t_recv_ns"] <= end}
        arrived = {m["src#"] for m in messages if m["kind"] == "update" and m["dst#"] == server
                   and m["complete"] == "1" and m["t_recv_ns"] is not None
                   and start < m["t_recv_ns"] <= end and m["src#"] in sampled}
        # A sampled device that left or was depleted during the round, before it answered
        # (D2dFedAvg::GiveUp: not once its answer is in).
        failed |= sampled & ({d for d, ivs in (a.away or {}).items()
                              if any(start < lo <= end for lo, _ in ivs)}
                             | {d for d, (lo, hi) in a.depleted.items()
                                if lo <= end and hi > start}) - arrived
        n = part + strag
        a.expect(n == sampled_n, where, "fl-round", "round %d: participants + stragglers = "
                 "min(%s, round(overSelection x m)) sampled" % (
                     rnd, "nDevices" if there is None else "available"), sampled_n, n)
        if unicast or sampled_n == k:
            # One row per sampled device (a broadcast to all: none for one out of range).
            a.expect(len(sampled) == n if unicast else len(sampled) <= n, where, "fl-round",
                     "round %d: devices sent w^t at its start" % rnd,
                     n if unicast else "<= %d" % n, len(sampled))
        else:
            # A broadcast naming the sampled devices reaches every device in range: a row each.
            a.expect(len(sampled) >= n, where, "fl-round", "round %d: devices sent w^t at its "
                     "start" % rnd, ">= %d" % n, len(sampled))
        a.expect(part <= target, where, "fl-round", "round %d: participants <= m = max(1, "
                 "round(clientFraction x nDevices))" % rnd, "<= %d" % target, part)
        a.expect(part <= len(arrived), where, "fl-round", "round %d: participants <= sampled "
                 "devices whose update arrived complete in the round" % rnd,
                 "<= %d" % len(arrived), part)
        if deadline_ns == 0 or end - start < deadline_ns - 1:
            done = part == target or part == n or (
                fail_known and part + len(failed) >= n)
            a.expect(done, where, "fl-round", "round %d ended before --roundDeadline: m "
                     "answers, or every sampled device answered%s" % (
                         rnd, " or known failed (its global_model not delivered, it "
                         "answered busy, left or its battery depleted)" if fail_known else ""),
                     "%d answers, or %d with %d failed or busy" % (target, n, len(failed)),
                     part)
        start = end
    return


def check_async_rounds(a, rounds, messages):
    """Check async-round: fedasync's and fedbuff's updates per version and their count
    against the complete updates that reached the server."""
    p = a.params
    algorithm = p.get("algorithm")
    # (by hand, not from the registry's export: the check is these two protocols' own, one
    # update per version for fedasync, --bufferSize for fedbuff)
    if algorithm not in ("fedasync", "fedbuff") or not rounds:
        return
    want = 1 if algorithm == "fedasync" else p.get("bufferSize", 10)
    applied = 0
    last = None
    for r in rounds:
        if r.get("node#") != -1 or r["metric"] not in ("updates", "staleness_mean",
                                                       "staleness_max"):
            continue
        where = "rounds.csv:%d" % r["_line"]
        v = r.get("value#")
        if r["metric"] == "updates":
            a.expect(v == want, where, "async-round", "round %s: updates per version (%s)"
                     % (r["round"], "1 for fedasync" if want == 1 else "--bufferSize"),
                     want, v)
            applied += v or 0
            last = r
        elif v is not None:
            a.expect(v >= 0, where, "async-round", "%s >= 0" % r["metric"], ">= 0", v)
    if last is None or a.run.get("untraced_message_rows"):
        return
    server = p.get("nDevices")
    arrived = sum(1 for m in messages if m["kind"] == "update" and m["dst#"] == server
                  and m["complete"] == "1" and m["t_recv_ns"] is not None
                  and m["t_recv_ns"] <= last["sim_time_ns"])
    a.expect(applied <= arrived, "rounds.csv:%d" % last["_line"], "async-round",
             "the updates applied <= the complete updates that reached the server by then",
             "<= %d" % arrived, applied)


def left_out_agents(a):
    """The agents node -1 leaves out, or None where node -1 is no mean over device rows.

    Node -1 means the regular agents in every program (README, rounds.csv): the flipped
    (low-quality) agents run.json lists in flippedDevices are left out:
    consensus (its flipList), every algorithm, as the paper's Table 1;
    fedavg's decentralized and local algorithms (its flipDevices);
    bayes-consensus with --cooperation=network: none left out (the mean over the live
    devices)."""
    p = a.params
    flipped = p.get("flippedDevices")
    if "flipList" in p and isinstance(flipped, list):
        return set(flipped)
    if p.get("cooperation") == "network":
        return set()
    # (by hand: which protocols leave --flipDevices' agents out of node -1 is no field of
    # the registry's export)
    if p.get("algorithm") in ("decentralized", "local") and "flipDevices" in p:
        return set(flipped) if isinstance(flipped, list) else set()
    return None


def check_network_mean(a, rounds):
    flipped = left_out_agents(a)
    if rounds is None or flipped is None:
        return
    devices = {}
    network = {}
    for r in rounds:
        if r["node#"] is None or r["value#"] is None or r["round#"] is None:
            continue
        key = (r["round#"], r["metric"])
        if r["node#"] == -1:
            network[key] = r
        elif r["node#"] >= 0 and r["node#"] not in flipped:
            devices.setdefault(key, []).append(r["value#"])
    for key, row in sorted(network.items(), key=lambda kv: kv[1]["_line"]):
        values = devices.get(key)
        if not values:
            continue
        what = "round %d %s: node -1 = mean over the %d regular agents" % (key[0], key[1],
                                                                         len(values))
        if flipped:
            what += " (flipped %s left out)" % ",".join(str(i) for i in sorted(flipped))
        scale = max(abs(v) for v in values + [row["value#"]])
        mean = sum(values) / len(values)
        ok = a.expect_close("rounds.csv:%d" % row["_line"], "network-mean", what, mean,
                            row["value#"], rel=0.0, abs_tol=PRINTED * max(scale, 1e-300))
        final = "final_" + key[1]
        if not ok and a.summary.get("metric") == key[1] and a.summary.get("metric_from") \
                == "node -1" and a.summary.get("rounds_completed") == key[0]:
            a.expect(False, "run.json:summary." + final, "network-mean",
                     "%s, from node -1 of rounds.csv:%d" % (final, row["_line"]), mean,
                     a.summary.get(final))
