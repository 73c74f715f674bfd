"""graph-discovery's gd_energy.csv and gd_stages.csv (check energy): each group's energy equals
energy.csv's rows of that group up to the row's time, total_j their sum; gd_energy.csv one
row per (round, time) of rounds.csv's node -1 energy_j rows, its accuracy theirs.
"""

from d2dlearn_analysis.audit.core import PRINTED, parse_times


def group_of(component):
    if component.startswith("d2s_"):
        return "d2s_j"
    return "compute_j" if component == "compute" else "d2d_j"


def check_group_energy(a, energy, groups, name="gd_energy.csv",
                       columns=("d2d_j", "d2s_j", "compute_j")):
    """gd_energy.csv: total = sum of the groups; each group = energy.csv up to that time
    (gd_stages.csv: its d2d_j only)."""
    if groups is None:
        return
    ordered = sorted(energy, key=lambda r: r["sim_time_ns"] or 0)
    for g in groups:
        where = "%s:%d" % (name, g["_line"])
        parts = [g.get(k + "#") for k in columns]
        if None in parts or g.get("sim_time_ns") is None:
            continue
        if "total_j" in g:
            if g.get("total_j#") is None:
                continue
            a.expect_close(where, "energy", "total_j = d2d_j + d2s_j + compute_j", sum(parts),
                           g["total_j#"], rel=PRINTED, abs_tol=1e-15)
        sums = {"d2d_j": 0.0, "d2s_j": 0.0, "compute_j": 0.0}
        for r in ordered:
            if (r["sim_time_ns"] or 0) > g["sim_time_ns"]:
                break
            sums[group_of(r["component"])] += r["energy_j#"] or 0.0
        for key, value in sums.items():
            if key not in columns:
                continue
            a.expect_close(where, "energy", "%s = energy.csv's %s rows up to sim_time_s"
                           % (key, key[:-2]), value, g[key + "#"], rel=PRINTED, abs_tol=1e-15)


def check_group_rounds(a, rounds):
    """gd_energy.csv (graph discovery, a row per round): its rounds and times those of
    rounds.csv's node -1 energy_j rows, and its accuracy (rounds >= 1) rounds.csv's node -1
    accuracy of that round (relative 1e-8, 9 significant digits)."""
    groups = a.read_csv("gd_energy.csv")
    if groups is None or rounds is None:
        return
    a.number(groups, "gd_energy.csv", "round", int, "energy")
    a.number(groups, "gd_energy.csv", "accuracy", float, "energy")
    parse_times(a, groups, "gd_energy.csv", ("sim_time_s",))
    energy = {(r.get("round#"), r.get("sim_time_ns")) for r in rounds
              if r.get("node#") == -1 and r["metric"] == "energy_j"}
    accuracy = {r.get("round#"): r.get("value#") for r in rounds
                if r.get("node#") == -1 and r["metric"] == "accuracy"}
    keys = [(g.get("round#"), g.get("sim_time_ns")) for g in groups]
    if energy:
        a.expect(sorted(keys) == sorted(energy) and len(set(keys)) == len(keys),
                 "gd_energy.csv", "energy", "one row per (round, time) of rounds.csv's node -1 "
                 "energy_j rows", len(energy), len(keys))
    for g in groups:
        if g.get("round#") and g.get("accuracy#") is not None and g["round#"] in accuracy:
            a.expect_close("gd_energy.csv:%d" % g["_line"], "energy",
                           "accuracy = rounds.csv's node -1 accuracy at round %d" % g["round#"],
                           accuracy[g["round#"]], g["accuracy#"], rel=PRINTED, abs_tol=1e-15)
