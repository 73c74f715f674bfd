"""Every CSV file with a sim_time_s column (check time-order): its times non-decreasing and not
after simulated_time_s, its rounds too, rounds.csv's rounds' times rising. check_files reads
every CSV file of the folder but messages.csv, positions.csv and availability.csv (so that a
file no other check reads has its format checked too) and checks gd_energy.csv's groups
against energy.csv (check energy).
"""

import os

from d2dlearn_analysis.audit.core import parse_times, seconds_ns_or_none
from d2dlearn_analysis.audit.gd_energy import check_group_energy


def check_csv_times(a, name, rows):
    """sim_time_s non-decreasing in file order; rounds too; rounds.csv: rounds' times rise."""
    if not rows or "sim_time_s" not in rows[0]:
        return
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    prev = None
    round_time = {}
    for r in rows:
        where = "%s:%d" % (name, r["_line"])
        t = r.get("sim_time_ns")
        if t is None:
            continue
        if end is not None:
            a.expect(t <= end, where, "time-order", "sim_time_s not after simulated_time_s",
                     "<= %.9f" % (end / 1e9), r["sim_time_s"])
        if prev is not None:
            a.expect(t >= prev[1], where, "time-order",
                     "sim_time_s not before the previous row's", ">= " + prev[2],
                     r["sim_time_s"])
            if "round" in r and r.get("round#") is not None and prev[0] is not None:
                a.expect(r["round#"] >= prev[0], where, "time-order",
                         "round not before the previous row's", ">= %d" % prev[0], r["round"])
        prev = (r.get("round#"), t, r["sim_time_s"])
        if r.get("round#") is not None:
            lo_hi = round_time.setdefault(r["round#"], [t, t, r["_line"]])
            lo_hi[0], lo_hi[1] = min(lo_hi[0], t), max(lo_hi[1], t)
    if name == "rounds.csv":
        ordered = sorted(round_time.items())
        for (k0, (_, hi0, _l0)), (k1, (lo1, _h1, line1)) in zip(ordered, ordered[1:]):
            a.expect(lo1 > hi0, "%s:%d" % (name, line1), "time-order",
                     "round %d's time after round %d's" % (k1, k0), "> %.9f" % (hi0 / 1e9),
                     "%.9f" % (lo1 / 1e9))


def check_files(a, energy, rounds):
    """Check time-order of every CSV file of the folder but messages.csv (its own times:
    checks time-order of module messages and spectrum), positions.csv (check positions) and
    availability.csv (check availability); a file no check read yet is read here (its format
    checked too), gd_energy.csv's groups against energy.csv (check energy)."""
    for name in sorted(os.listdir(a.dir)):
        if not name.endswith(".csv") or name in ("messages.csv", "positions.csv",
                                                 "availability.csv"):
            continue  # (availability.csv's times: check availability)
        rows = {"energy.csv": energy, "rounds.csv": rounds}.get(name)
        if rows is None:
            rows = a.read_csv(name) or []
            if rows and "sim_time_s" in rows[0]:
                parse_times(a, rows, name, ("sim_time_s",))
                if "round" in rows[0]:
                    a.number(rows, name, "round", int)
            if name == "gd_energy.csv":
                for col in ("d2d_j", "d2s_j", "compute_j", "total_j"):
                    a.number(rows, name, col)
                check_group_energy(a, energy, rows)
        check_csv_times(a, name, rows)
