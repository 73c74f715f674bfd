"""positions.csv (sim_time_s, node, x_m, y_m, z_m): check positions (the sampling grid, the nodes
of each sample, the square, the devices' height, the server at serverPosition, static
devices where their first row puts them, messages.csv's links within rangeM) and its
time-order; it records the static devices' positions (Audit.positions) for the checks that
recompute a link's RSS (LinkRss) and gd_nodes.csv's (check discovery).
"""

import math
import os

from d2dlearn_analysis.audit.core import parse_times, seconds_ns_or_none
from d2dlearn_analysis.audit.environment import moves

POSITION_COLUMNS = ["sim_time_s", "node", "x_m", "y_m", "z_m"]
POSITION_TOL_M = 1e-6
PRINTED_M = 5.000001e-7  # a coordinate printed with 6 decimals: half its last digit


def check_positions(a, messages):
    """positions.csv: the sampling grid, the nodes of each sample, the square, and for static
    devices their positions against messages.csv's links within rangeM."""
    p = a.params
    if p.get("rssFile"):
        a.expect(not os.path.exists(os.path.join(a.dir, "positions.csv")), "positions.csv",
                 "positions", "no positions.csv with --rssFile", "none", "a file")
        return
    if "positionEvery_s" not in p:
        return  # a run of a d2dlearn before positions.csv
    rows = a.read_csv("positions.csv", POSITION_COLUMNS, required=True)
    if rows is None:
        return
    n = p.get("nDevices")
    side = p.get("areaSideM")
    every = seconds_ns_or_none(p.get("positionEvery_s"))
    a.number(rows, "positions.csv", "node", int, "positions")
    for col in ("x_m", "y_m", "z_m"):
        a.number(rows, "positions.csv", col, float, "positions")
    parse_times(a, rows, "positions.csv", ("sim_time_s",))
    samples = []  # [(time ns, [rows])]
    for r in rows:
        t = r.get("sim_time_ns")
        if samples and samples[-1][0] == t:
            samples[-1][1].append(r)
        else:
            samples.append((t, [r]))
    if not a.expect(bool(samples), "positions.csv", "positions", "samples", "at least one",
                    "none"):
        return
    server = any(len(group) == n + 1 for _, group in samples) if isinstance(n, int) else False
    # A run with a server (its D2S radios draw: energy.csv's d2s_* rows) has its position in
    # every sample.
    d2s = a.energy_d2s
    a.expect(server or not d2s, "positions.csv", "positions", "the server's row (node %s) in "
             "each sample: the run has a server (energy.csv's d2s_* rows)" % n, "a row",
             "none")
    server = server or d2s
    try:
        server_at = [float(v) for v in str(p.get("serverPosition")).split(",")]
        server_at = server_at if len(server_at) == 3 else None
    except ValueError:
        server_at = None
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    for k, (t, group) in enumerate(samples):
        where = "positions.csv:%d" % group[0]["_line"]
        if end is not None and t is not None:
            a.expect(t <= end, where, "time-order", "sim_time_s not after simulated_time_s",
                     "<= %.9f" % (end / 1e9), group[0]["sim_time_s"])
        if every is not None:
            a.expect(t == k * every, where, "positions",
                     "sample %d at %d x positionEvery_s" % (k, k), "%.9f" % (k * every / 1e9),
                     group[0]["sim_time_s"])
            if every == 0:
                a.expect(k == 0, where, "positions", "one sample (positionEvery_s = 0)",
                         "time 0 only", group[0]["sim_time_s"])
        if isinstance(n, int):
            want = list(range(n + (1 if server else 0)))
            a.expect([r.get("node#") for r in group] == want, where, "positions",
                     "one row per node 0..%d in order" % (want[-1] if want else -1),
                     "%d rows" % len(want), "%d rows" % len(group))
    first, text = {}, {}
    for r in rows:
        where = "positions.csv:%d" % r["_line"]
        x, y, z = r.get("x_m#"), r.get("y_m#"), r.get("z_m#")
        if None in (x, y, z):
            continue
        node = r.get("node#")
        is_server = isinstance(n, int) and node == n
        # The devices are in the square; the server stands where serverPosition puts it
        # (anywhere within 1e7 m: outside the square too).
        if isinstance(side, (int, float)) and not (is_server and server_at is not None):
            a.expect(-POSITION_TOL_M <= x <= side + POSITION_TOL_M
                     and -POSITION_TOL_M <= y <= side + POSITION_TOL_M, where, "positions",
                     "a position in the square of side areaSideM = %s m" % side,
                     "0..%s" % side, "(%s, %s)" % (r["x_m"], r["y_m"]))
        if is_server and server_at is not None:
            # The server stands at run.json's serverPosition (6 decimals printed: 5e-7 m).
            a.expect(all(abs(u - v) <= PRINTED_M for u, v in zip((x, y, z), server_at)),
                     where, "positions", "the server (node %d) at serverPosition" % n,
                     "(%s)" % p.get("serverPosition"),
                     "(%s, %s, %s)" % (r["x_m"], r["y_m"], r["z_m"]))
        else:
            height = a.env.height  # deviceHeightInForceM (0 in a run.json without it)
            a.expect(abs(z - height) <= PRINTED_M, where, "positions", "z_m at the devices' "
                     "height deviceHeightInForceM (printed with 6 decimals)", height, z)
        if not moves(a):
            text.setdefault(node, (r["x_m"], r["y_m"]))
            x0 = first.setdefault(node, (x, y, r["_line"], z))
            a.expect((x, y) == x0[:2], where, "positions",
                     "node %s where row %d puts it (constant mobility)" % (node, x0[2]),
                     "(%s, %s)" % x0[:2], "(%s, %s)" % (x, y))
    if not moves(a):
        a.positions = {node: (v[0], v[1], v[3]) for node, v in first.items()}
        a.position_text = text  # (x_m, y_m) as printed (check discovery: gd_nodes.csv)
    range_m = p.get("rangeM")
    if (moves(a) or p.get("backend", "channel") != "channel" or p.get("dynamicRssLevels")
            or not isinstance(range_m, (int, float)) or range_m <= 0 or not isinstance(n, int)):
        return
    at = {node: (v[0], v[1], v[3]) for node, v in first.items()}
    for r in messages:
        src, dst = r.get("src#"), r.get("dst#")
        if src is None or dst is None or src >= n or dst >= n or r["reason"] == "out_of_range":
            continue
        if src not in at or dst not in at:
            continue
        d = math.dist(at[src], at[dst])  # (D2dChannel::GetDistanceM: 3-D)
        a.expect(d < range_m + 1e-5, "messages.csv:%d" % r["_line"], "positions",
                 "a link %d->%d within rangeM at positions.csv's positions" % (src, dst),
                 "< %s m" % range_m, "%.6f m" % d)
