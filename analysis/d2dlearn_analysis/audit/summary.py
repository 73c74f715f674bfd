"""run.json's `summary` recomputed from messages.csv, energy.csv and rounds.csv (check summary):
every key against its recomputation, a key without one a violation (but ALLOW_LISTED), a
recomputed key missing from the summary a violation too; simulated_time_s against run.json's
and the traces' last time. Its `results`: module results.
"""

import math

from d2dlearn_analysis.audit.core import REL
from d2dlearn_analysis.audit.energy import COMPONENTS, RADIO_MODEL, SLEEP_COMPONENTS
from d2dlearn_analysis.audit.results import check_results

METRICS = [("accuracy", True), ("mse", False), ("error", False)]
ALLOW_LISTED = {"wall_time_s": "the wall clock of the run: no trace records it (compared "
                               "with run.json's top-level wall_time_s only)"}
# The summary keys recomputed from rounds.csv (the file each key is recomputed from is named
# in its violation).
ROUND_KEYS = ("metric", "metric_from", "rounds_completed")
# run.json's latency_p95_s is exact (type 7) while a kind has at most this many delivered
# rows (D2dRunSummary::LATENCIES_EXACT), then the P-squared estimate, accepted between the
# exact percentiles 0.95 -/+ P2_RANK_WINDOW (its rank error; the gtest
# D2dStreamingQuantile.P2RankErrorBelowOnePercent measures under 0.01 on 200,000 values).
LATENCIES_EXACT = 4096
P2_RANK_WINDOW = 0.02


def percentile(values, q):
    """Linear interpolation between order statistics (numpy's default)."""
    x = sorted(values)
    h = (len(x) - 1) * q
    lo = int(math.floor(h))
    if lo + 1 >= len(x):
        return x[-1]
    return x[lo] + (h - lo) * (x[lo + 1] - x[lo])


def ratio(num, den):
    return num / den if den > 0 else None


def expected_message_summary(rows):
    n = len(rows)
    out = {"message_rows": n,
           "complete_delivery_rate": ratio(sum(r["complete"] == "1" for r in rows), n),
           "delivered_rate": ratio(sum(r["delivered"] == "1" for r in rows), n)}
    per_msg = {}
    kinds = {}
    for r in rows:
        m = per_msg.setdefault(r["msg_id"], {"retx": 0})
        m["bytes"] = r["bytes#"] or 0
        m["fragments"] = r["fragments#"] or 0
        m["retx"] = max(m["retx"], r["retransmissions#"] or 0)
        k = kinds.setdefault(r["kind"], {"rows": 0, "complete": 0, "latencies": []})
        k["rows"] += 1
        k["complete"] += r["complete"] == "1"
        if r["delivered"] == "1" and r["t_recv_ns"] is not None and r["t_send_ns"] is not None:
            k["latencies"].append((r["t_recv_ns"] - r["t_send_ns"]) / 1e9)
    out["messages"] = len(per_msg)
    out["fragments"] = sum(m["fragments"] for m in per_msg.values())
    out["retransmissions"] = sum(m["retx"] for m in per_msg.values())
    out["retransmissions_per_fragment"] = ratio(out["retransmissions"], out["fragments"])
    out["bytes_sent"] = sum(m["bytes"] for m in per_msg.values())
    out["kinds"] = {}
    for name, k in kinds.items():
        lat = k["latencies"]
        exact = len(lat) <= LATENCIES_EXACT
        p95 = percentile(lat, 0.95) if lat else None
        if not exact:
            # The P-squared estimate (Jain and Chlamtac 1985) has no exact recomputation:
            # it must lie between the exact percentiles P2_RANK_WINDOW either side of 0.95.
            p95 = RankWindow(percentile(lat, 0.95 - P2_RANK_WINDOW),
                             percentile(lat, 0.95 + P2_RANK_WINDOW))
        out["kinds"][name] = {
            "rows": k["rows"], "complete_rate": ratio(k["complete"], k["rows"]),
            "latency_n": len(lat),
            "latency_mean_s": sum(lat) / len(lat) if lat else None,
            "latency_p95_s": p95,
            "latency_p95_estimator": "exact" if exact else "p2"}
    return out


def expected_energy_summary(rows, run=None):
    """energy_j per component and total; the sleep components (SLEEP_COMPONENTS) are keys
    when the run has the sleep attributes, rows of them or such keys in its summary."""
    energy = {c: 0.0 for c in COMPONENTS}
    run = run or {}
    summary = (run.get("summary") or {}).get("energy_j")
    sleeping = RADIO_MODEL + "SleepPowerW" in (run.get("parameters") or {}) \
        or any(r["component"] in SLEEP_COMPONENTS for r in rows) \
        or (isinstance(summary, dict) and any(c in summary for c in SLEEP_COMPONENTS))
    if sleeping:
        energy.update({c: 0.0 for c in SLEEP_COMPONENTS})
    total = 0.0
    for r in rows:
        value = r["energy_j#"] or 0.0
        energy[r["component"]] = energy.get(r["component"], 0.0) + value
        total += value
    energy["total"] = total
    return energy


def curve(points, higher_is_better):
    """final (value of the highest round, its last row), best and best's first round."""
    final_round = final = best = best_round = None
    for rnd, value in points:
        if final_round is None or rnd >= final_round:
            final_round, final = rnd, value
        if math.isnan(value):
            continue
        better = best is None or (value > best if higher_is_better else value < best)
        if better or (value == best and rnd < best_round):
            best, best_round = value, rnd
    return final_round, final, best, best_round


def expected_round_summary(rows):
    if rows is None:
        return {}
    out = {}
    chosen = None
    for name, higher in METRICS:
        pts = [(r["round#"], r["value#"]) for r in rows
               if r["metric"] == name and r["node#"] == -1 and r["value#"] is not None]
        if pts:
            chosen = (name, higher, pts, "node -1")
            break
    if chosen is None:
        for name, higher in METRICS:
            sums = {}
            for r in rows:
                if r["metric"] == name and r["node#"] is not None and r["node#"] >= 0 \
                        and r["value#"] is not None:
                    s = sums.setdefault(r["round#"], [0.0, 0])
                    s[0] += r["value#"]
                    s[1] += 1
            if sums:
                pts = [(k, s / c) for k, (s, c) in sorted(sums.items())]
                chosen = (name, higher, pts, "device mean")
                break
    if chosen is not None:
        name, higher, pts, source = chosen
        final_round, final, best, best_round = curve(pts, higher)
        out.update({"metric": name, "metric_from": source, "final_" + name: final,
                    "best_" + name: best, "best_%s_round" % name: best_round,
                    "rounds_completed": final_round})
    else:
        rounds = [r["round#"] for r in rows if r["round#"] is not None]
        out["rounds_completed"] = max(rounds) if rounds else 0
    return out


class RankWindow:
    """An estimate's accepted range: between two exact order-statistic percentiles."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


def key_tolerance(key):
    """(relative tolerance) of a summary key: 0 for exact keys."""
    exact = {"message_rows", "messages", "fragments", "retransmissions", "bytes_sent",
             "rounds_completed", "metric", "metric_from", "rows", "latency_n",
             "latency_p95_estimator"}
    if key in exact or key.endswith("_round"):
        return 0.0
    return REL


def check_summary(a, messages, energy, rounds):
    """Every summary key against its recomputation; unknown keys are violations."""
    expected = {}
    expected.update(expected_round_summary(rounds))
    expected["energy_j"] = expected_energy_summary(energy, a.run)
    expected.update(expected_message_summary(messages))
    for key, got in a.summary.items():
        where = "run.json:summary." + key
        if key in ALLOW_LISTED:
            a.expect(got == a.run.get(key), where, "summary", "equal to run.json's " + key,
                     a.run.get(key), got)
            continue
        if key == "simulated_time_s":
            check_simulated_time(a, got, messages, energy, rounds)
            continue
        if key == "results":
            check_results(a, got, messages, energy, rounds)
            continue
        if key not in expected:
            a.expect(False, where, "summary", "summary key %s: no independent recomputation"
                     % key, "a recomputed key", "unknown")
            continue
        compare_value(a, where, key, expected[key], got)
    for key in expected:
        a.expect(key in a.summary, "run.json:summary." + key, "summary", "key missing",
                 "present", "absent")


def compare_value(a, where, key, expected, got):
    """Compare recursively (energy_j, kinds): extra or missing sub-keys are violations."""
    if isinstance(expected, RankWindow):
        a.expect(isinstance(got, (int, float)) and expected.lo <= got <= expected.hi, where,
                 "summary", "P-squared estimate within the exact percentiles %g either side"
                 % P2_RANK_WINDOW, "[%r, %r]" % (expected.lo, expected.hi), got)
        return
    if isinstance(expected, dict):
        if not a.expect(isinstance(got, dict), where, "summary", "an object", "{...}", got):
            return
        for sub in sorted(set(expected) | set(got)):
            if sub not in got or sub not in expected:
                a.expect(False, where + "." + sub, "summary",
                         "sub-key %s: no independent recomputation" % sub if sub in got
                         else "sub-key missing", expected.get(sub), got.get(sub))
                continue
            compare_value(a, where + "." + sub, sub, expected[sub], got[sub])
        return
    tol = key_tolerance(key)
    if tol == 0.0 and isinstance(expected, float) and isinstance(got, int):
        got = float(got)
    if isinstance(expected, float) and isinstance(got, int):
        got = float(got)  # JSON writes 0 for 0.0
    top = where.split("run.json:summary.", 1)[-1].split(".")[0]
    source = "energy.csv" if top == "energy_j" else "rounds.csv" if top in ROUND_KEYS \
        or top.startswith(("final_", "best_")) else "messages.csv"
    a.expect_close(where, "summary", "recomputed from " + source, expected, got, rel=tol,
                   abs_tol=1e-15 if tol else 0.0)


def check_simulated_time(a, got, messages, energy, rounds):
    where = "run.json:summary.simulated_time_s"
    top = a.run.get("simulated_time_s")
    a.expect_close(where, "summary", "equal to run.json's simulated_time_s", top, got,
                   rel=0.0, abs_tol=1e-9)
    latest = 0
    for r in messages:
        latest = max(latest, r["t_send_ns"] or 0, r["t_recv_ns"] or 0)
    for rows in (energy, rounds or []):
        for r in rows:
            latest = max(latest, r.get("sim_time_ns") or 0)
    if isinstance(got, (int, float)):
        a.expect(got * 1e9 >= latest - 0.5, where, "summary",
                 "not before the last time in the traces", ">= %.9f" % (latest / 1e9), got)
