"""graph-discovery's gd_graph.csv, gd_iterations.csv, gd_policy.csv, gd_nodes.csv and
gd_links.csv (check discovery), against each other, gd_diversity.csv, positions.csv and
run.json. Its energy files (gd_energy.csv, gd_stages.csv): module gd_energy.
"""

import math

from d2dlearn_analysis import run_flags
from d2dlearn_analysis.audit.core import ints, printed_tol
from d2dlearn_analysis.audit.environment import held, moves


def traced_iterations(iterations, every):
    every = max(1, every)
    return [i for i in range(iterations) if i % every == 0 or i + 1 == iterations]


def check_discovery(a):
    """graph-discovery: gd_iterations.csv one row per (edge, traced iteration, node) in
    order (iterations i % traceEvery = 0 and the last, edges 0..E-1 that ran: those of
    gd_graph.csv), reward = local_reward + gamma x global_reward (9 significant digits
    each), exchanged 0 or 1; gd_policy.csv's chosen = 1 exactly where its transmitter is
    gd_graph.csv's for (edge, node), value = total_reward / count; with per-action buffers
    no shorter than the iterations, a node's counts over its states and transmitters sum to
    the iterations where gd_graph.csv gives it a transmitter; gd_nodes.csv one row per
    device in order, at its positions.csv position (static devices, the same text) and
    (supervised) min_labels = minLabels if > 0, else min(labels, satisfied_before + 1);
    gd_links.csv (check_links)."""
    graph = a.read_csv("gd_graph.csv")
    if graph is None:
        return
    check_links(a, graph)
    p = a.params
    n = p.get("nDevices")
    chosen = {}
    for g in graph:
        try:
            chosen[(int(g["edge"]), int(g["receiver"]))] = int(g["transmitter"])
        except (TypeError, ValueError):
            pass
    edges = sorted({e for e, _ in chosen})
    iterations, every, gamma = p.get("iterations"), run_flags.trace_every(p), p.get("gamma")
    rows = a.read_csv("gd_iterations.csv")
    if rows is not None:
        name = "gd_iterations.csv"
        ints(a, rows, name, ("edge", "iteration", "node", "transmitter", "exchanged"),
             "discovery")
        for col in ("local_reward", "global_reward", "reward"):
            a.number(rows, name, col, float, "discovery")
        if isinstance(iterations, int) and isinstance(every, int) and isinstance(n, int):
            want = [(e, i, k) for e in edges for i in traced_iterations(iterations, every)
                    for k in range(n)]
            got = [(r.get("edge#"), r.get("iteration#"), r.get("node#")) for r in rows]
            bad = next((k for k, (x, y) in enumerate(zip(want, got)) if x != y), None)
            if bad is None and len(want) != len(got):
                bad = min(len(want), len(got))
            a.expect(bad is None, "%s:%d" % (name, rows[bad]["_line"]) if bad is not None
                     and bad < len(rows) else name, "discovery",
                     "one row per (edge, iteration, node): edges %s, iterations %s "
                     "(traceEvery %d), nodes 0..%d" % (edges, "i %% %d = 0 and the last"
                                                       % max(1, every), every, n - 1),
                     "%d rows" % len(want), "%d rows" % len(got) if bad is None or
                     bad >= len(want) or bad >= len(got)
                     else "(%s, %s, %s) at row %d" % (got[bad] + (bad + 1,)))
        for r in rows:
            where = "%s:%d" % (name, r["_line"])
            a.expect(r.get("exchanged") in ("0", "1"), where, "discovery", "exchanged 0 or 1",
                     "0|1", r.get("exchanged"))
            lo, gl, rw = r.get("local_reward#"), r.get("global_reward#"), r.get("reward#")
            if isinstance(gamma, (int, float)) and None not in (lo, gl, rw):
                want = lo + gamma * gl
                a.expect(abs(want - rw) <= printed_tol(lo, gamma * gl, rw), where,
                         "discovery", "reward = local_reward + gamma x global_reward (gamma "
                         "%s)" % gamma, want, rw)
    policy = a.read_csv("gd_policy.csv")
    if policy is not None:
        name = "gd_policy.csv"
        ints(a, policy, name, ("edge", "node", "state", "transmitter", "chosen"), "discovery")
        for col in ("total_reward", "count", "value"):
            a.number(policy, name, col, float, "discovery")
        counts = {}
        for r in policy:
            where = "%s:%d" % (name, r["_line"])
            key = (r.get("edge#"), r.get("node#"))
            if key in chosen and r.get("transmitter#") is not None:
                want = int(chosen[key] == r["transmitter#"])
                a.expect(r.get("chosen#") == want, where, "discovery", "chosen = transmitter "
                         "%s is gd_graph.csv's of edge %s node %s (%s)" % (
                             r["transmitter"], key[0], key[1], chosen[key]), want,
                         r.get("chosen"))
            total, count, value = r.get("total_reward#"), r.get("count#"), r.get("value#")
            if None not in (total, count, value) and count > 0:
                a.expect(abs(total / count - value) <= printed_tol(value, total / count),
                         where, "discovery", "value = total_reward / count", total / count,
                         value)
            if count is not None:
                counts[key] = counts.get(key, 0.0) + count
        size = p.get("bufferSize")
        if p.get("graph", "rl") == "rl" and p.get("bufferMode") == "per-action" and \
                isinstance(size, int) and isinstance(iterations, int) and iterations <= size:
            for key, j in sorted(chosen.items()):
                if j < 0:
                    continue
                a.expect(counts.get(key, 0.0) == iterations, name, "discovery",
                         "edge %d node %d's counts sum to its %d iterations (a transmitter "
                         "in gd_graph.csv; buffers of %d)" % (key + (iterations, size)),
                         iterations, counts.get(key, 0.0))
    nodes = a.read_csv("gd_nodes.csv")
    if nodes is None:
        return
    name = "gd_nodes.csv"
    ints(a, nodes, name, ("node", "satisfied_before", "satisfied_after", "min_labels"),
         "discovery")
    if isinstance(n, int):
        a.expect([r.get("node#") for r in nodes] == list(range(n)), name, "discovery",
                 "one row per device 0..%d in order" % (n - 1), "%d rows" % n,
                 "%d rows" % len(nodes))
    at = getattr(a, "position_text", None) or {}
    labels = None
    diversity = a.read_csv("gd_diversity.csv") or []
    try:
        labels = max(int(d["label"]) for d in diversity) + 1 if diversity else None
    except (TypeError, ValueError):
        labels = None
    given = p.get("minLabels")
    for r in nodes:
        where = "%s:%d" % (name, r["_line"])
        xy = at.get(r.get("node#"))
        if xy is not None:
            a.expect((r["x_m"], r["y_m"]) == xy, where, "discovery", "node %s at positions.csv"
                     "'s position" % r["node"], "(%s, %s)" % xy,
                     "(%s, %s)" % (r["x_m"], r["y_m"]))
        before, ml = r.get("satisfied_before#"), r.get("min_labels#")
        if p.get("paradigm") == "supervised" and None not in (before, ml) and \
                isinstance(given, int):
            if given > 0:
                want, what = given, "minLabels"
            elif labels is not None:
                want, what = min(labels, before + 1), "min(labels %d, satisfied_before + 1)" \
                    % labels
            else:
                continue
            a.expect(ml == want, where, "discovery", "min_labels = " + what, want, ml)


def paradigm_parameter(p, name, classes):
    """run.json's parameter name (the scenario's flag), else its attribute of the first of
    classes that run.json records."""
    value = p.get(name[0].lower() + name[1:])
    for cls in classes:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            break
        value = p.get("ns3::%s::%s" % (cls, name))
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def check_links(a, graph):
    """graph-discovery, gd_links.csv (edge, receiver, transmitter, p_drop, requested,
    allocated, sent, received, trust, shareable; one row per link of an exchange, traced
    before the paradigm's counts change): transmitter is gd_graph.csv's of (edge,
    receiver); sent = allocated, exactly (the writer writes the allocation twice); on
    static links (mobility constant, no --dynamicRssLevels) p_drop is gd_graph.csv's of
    that link (9 significant digits against 17: 5e-9 relative). trust is empty exactly for
    the unsupervised paradigm, else the trust matrices' row of the link (transmitter j,
    receiver i), one 0/1 a label of gd_diversity.csv. shareable, from j's gd_diversity.csv
    "before" counts c_j of that edge:
      supervised, semi-supervised (D2dSupervisedParadigm::Offer, D2dMessagePassing::
        Available): sum_l trust[l] x 1[c_j[l] > b_j], b_j = floor(thresholdFraction x |D_j|
        + 1e-9) (Prepare), |D_j| the sum of j's edge-0 "before" counts; an integer, exact
        (the counts are whole numbers: shard label counts, whole requests, allocations
        rounded down and whole apportioned receptions, printed exactly below 1e9);
      unsupervised (D2dUnsupervisedParadigm::Offer): sum_l max(0, c_j[l] - ceil(r x
        c_j[l])), r = RetainFraction, the receiver playing no part; within 5e-9 of the
        value and of each count (exact for whole counts)."""
    links = a.read_csv("gd_links.csv")
    if links is None:
        return
    name, check = "gd_links.csv", "discovery"
    p = a.params
    ints(a, links, name, ("edge", "receiver", "transmitter"), check)
    for col in ("p_drop", "requested", "allocated", "sent", "received", "shareable"):
        a.number(links, name, col, float, check)
    arcs = {}
    for g in graph:
        try:
            j = int(g["transmitter"])
            arcs[(int(g["edge"]), int(g["receiver"]))] = (
                j, float(g["p_drop"]) if j >= 0 else None)
        except (TypeError, ValueError):
            pass
    before, labels = {}, None
    diversity = a.read_csv("gd_diversity.csv")
    if diversity is not None:
        for d in diversity:
            try:
                key = (int(d["edge"]), int(d["node"]))
                label, count = int(d["label"]), float(d["count"])
            except (TypeError, ValueError):
                continue
            if d.get("phase") == "before":
                before.setdefault(key, {})[label] = count
            labels = label + 1 if labels is None else max(labels, label + 1)
    size = {k[1]: sum(c.values()) for k, c in before.items() if k[0] == 0}
    d2d_held, d2d_why = held(a, "D2D")
    static = not moves(a) and not p.get("dynamicRssLevels") and d2d_held
    if not static:
        a.skip(name, check, "p_drop: %s (gd_graph.csv's is the link's at the end of the run)"
               % ("the devices move (mobility %s)" % p.get("mobility") if moves(a)
                  else "--dynamicRssLevels: each link's RSS changes over time"
                  if p.get("dynamicRssLevels") else d2d_why))
    paradigm = p.get("paradigm")
    supervised = paradigm in ("supervised", "semi-supervised")
    if supervised:
        fraction = paradigm_parameter(p, "ThresholdFraction",
                                      ("D2dSemiSupervisedParadigm", "D2dSupervisedParadigm")
                                      if paradigm == "semi-supervised"
                                      else ("D2dSupervisedParadigm",))
        what = "thresholdFraction"
    else:
        fraction = paradigm_parameter(p, "RetainFraction", ("D2dUnsupervisedParadigm",))
        what = "RetainFraction"
    why = None
    if paradigm not in ("supervised", "semi-supervised", "unsupervised"):
        why = "run.json's paradigm %r is none of supervised, semi-supervised, unsupervised" \
            % (paradigm,)
    elif diversity is None:
        why = "no gd_diversity.csv: no label counts"
    elif fraction is None:
        why = "run.json records no %s" % what
    elif links and "trust" not in links[0] and supervised:
        why = "no trust column (a run before it)"
    if why is not None:
        a.skip(name, check, "shareable: " + why)
    for r in links:
        where = "%s:%d" % (name, r["_line"])
        e, i, j = r.get("edge#"), r.get("receiver#"), r.get("transmitter#")
        sent, allocated = r.get("sent#"), r.get("allocated#")
        if None not in (sent, allocated):
            a.expect(sent == allocated, where, check, "sent = allocated (the points the "
                     "transmitter sent are those it allocated)", allocated, sent)
        arc = arcs.get((e, i))
        if None not in (e, i, j):
            a.expect(arc is not None and arc[0] == j, where, check, "transmitter is "
                     "gd_graph.csv's of edge %s receiver %s" % (e, i),
                     arc[0] if arc is not None else "a row", j)
        if static and arc is not None and arc[0] == j and arc[1] is not None \
                and r.get("p_drop#") is not None:
            a.expect(abs(arc[1] - r["p_drop#"]) <= printed_tol(arc[1]), where, check,
                     "p_drop is gd_graph.csv's of link %s->%s (static devices; 9 "
                     "significant digits)" % (j, i), arc[1], r["p_drop#"])
        trust = r.get("trust")
        if paradigm == "unsupervised" and trust is not None:
            a.expect(trust == "", where, check, "trust empty (the unsupervised paradigm has "
                     "no trust matrices)", "", trust)
        elif supervised and trust is not None:
            a.expect(trust != "" and set(trust) <= {"0", "1"} and
                     (labels is None or len(trust) == labels), where, check,
                     "trust the link's row of the trust matrices, one 0/1 a label (%s "
                     "labels in gd_diversity.csv)" % labels,
                     "%s characters 0|1" % labels, trust or "empty")
        got = r.get("shareable#")
        if why is not None or None in (e, j, got):
            continue
        c = before.get((e, j))
        if c is None or (labels is not None and sorted(c) != list(range(labels))):
            a.expect(False, where, check, "gd_diversity.csv's \"before\" counts of edge %s "
                     "node %s (transmitter), one a label" % (e, j), "%s labels" % labels,
                     "%d" % len(c or {}))
            continue
        if supervised:
            if len(trust) != len(c) or not set(trust) <= {"0", "1"} or j not in size:
                continue
            b = math.floor(fraction * size[j] + 1e-9)
            want = sum(1 for l, t in enumerate(trust) if t == "1" and c[l] > b)
            a.expect(got == want, where, check,
                     "shareable = the labels the transmitter trusts the receiver with and "
                     "holds more than b_j = floor(%s x %s + 1e-9) = %d of (gd_diversity.csv "
                     "\"before\" counts of edge %s node %s)" % (fraction, "%.9g" % size[j], b,
                                                               e, j),
                     want, r["shareable"])
        else:
            want = sum(max(0.0, x - math.ceil(fraction * x)) for x in c.values())
            a.expect(abs(want - got) <= printed_tol(got, *c.values()), where, check,
                     "shareable = sum over the clusters of max(0, c - ceil(%s x c)) "
                     "(RetainFraction; gd_diversity.csv \"before\" counts of edge %s node %s)"
                     % (fraction, e, j), want, got)
