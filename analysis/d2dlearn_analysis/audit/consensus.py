"""consensus's trust.csv and consensus.csv, bayes-consensus's beliefs.csv and consensus.csv:
checks beliefs (beliefs.csv, and its values in rounds.csv) and consensus (trust.csv's
received counted in consensus.csv, its matrix columns recomputed from trust.csv's W;
bayes-consensus's in-neighbours per step).
"""

import math

from d2dlearn_analysis.audit.core import ints, printed_tol


def check_beliefs(a, rounds):
    """beliefs.csv (bayes-consensus: step, node, estimate, belief_true, log_belief_true,
    error): one row per (step, node); belief_true = exp(log_belief_true) (relative 1e-12);
    error 0 or 1; and rounds.csv's belief_true and error rows of each (round = step, node)
    are its values, belief_true as printed with 9 significant digits (exactly), one each."""
    rows = a.read_csv("beliefs.csv")
    if rows is None:
        return
    # --mode=discrete's columns; gaussian-linear (mean_k, var_k) and variational (mean_l2,
    # sigma_*, train_loss) write others: only their (step, node) rows are checked.
    discrete = {"belief_true", "log_belief_true", "error"} <= set(rows[0] if rows else ())
    columns = [("step", int), ("node", int)]
    if discrete:
        columns += [("belief_true", float), ("log_belief_true", float), ("error", int)]
    for col, kind in columns:
        a.number(rows, "beliefs.csv", col, kind, "beliefs")
    seen = {}
    for r in rows:
        where = "beliefs.csv:%d" % r["_line"]
        key = (r["step#"], r["node#"])
        a.expect(key not in seen, where, "beliefs", "(step %s, node %s) once" % key,
                 "one row", "another at line %s" % seen.get(key))
        seen.setdefault(key, r)
        if not discrete:
            continue
        b, log_b = r["belief_true#"], r["log_belief_true#"]
        if b is not None and log_b is not None:
            a.expect_close(where, "beliefs", "belief_true = exp(log_belief_true)",
                           math.exp(log_b), b, rel=1e-12)
        a.expect(r["error"] in ("0", "1"), where, "beliefs", "error 0 or 1", "0|1",
                 r["error"])
    if rounds is None or not discrete:
        return
    mirrored = {}
    for r in rounds:
        if r["metric"] not in ("belief_true", "error") or r.get("node#") is None \
                or r["node#"] < 0:
            continue
        key = (r.get("round#"), r["node#"])
        mirrored.setdefault(key, set()).add(r["metric"])
        b = seen.get(key)
        where = "rounds.csv:%d" % r["_line"]
        if not a.expect(b is not None, where, "beliefs", "round %s node %s: a row of "
                        "beliefs.csv" % key, "a row", "none"):
            continue
        if r["metric"] == "belief_true" and b["belief_true#"] is not None:
            want = float("%.9g" % b["belief_true#"])
            what = "beliefs.csv:%d's belief_true (9 significant digits)" % b["_line"]
        elif r["metric"] == "error" and b["error#"] is not None:
            want, what = float(b["error#"]), "beliefs.csv:%d's error" % b["_line"]
        else:
            continue
        a.expect(r.get("value#") == want, where, "beliefs", what, want, r.get("value#"))
    if mirrored:
        for key, r in sorted(seen.items(), key=lambda kv: kv[1]["_line"]):
            a.expect(mirrored.get(key) == {"belief_true", "error"},
                     "beliefs.csv:%d" % r["_line"], "beliefs",
                     "step %s node %s: rounds.csv's belief_true and error rows" % key,
                     "both", ",".join(sorted(mirrored.get(key, ()))) or "none")


def check_trust(a):
    """consensus: trust.csv's rows (round, node, peer, w, received) against consensus.csv's
    row of that (round, node): received one of fresh, reused, missing, counted as its fresh,
    reused and missing; the row of peer = node its self_trust (the same text); a
    (round, node) in one file is in the other. bayes-consensus: consensus.csv has one row
    per (step, node) of beliefs.csv."""
    summary = a.read_csv("consensus.csv")
    if summary is None:
        return
    if "step" in (summary[0] if summary else {}):
        beliefs = a.read_csv("beliefs.csv")
        if beliefs is not None:
            want = sorted((r["step"], r["node"]) for r in beliefs)
            got = sorted((r["step"], r["node"]) for r in summary)
            a.expect(want == got, "consensus.csv", "consensus", "one row per (step, node) of "
                     "beliefs.csv", "%d rows" % len(want), "%d rows" % len(got))
        return
    trust = a.read_csv("trust.csv")
    if trust is None or not summary or "self_trust" not in summary[0]:
        return
    by = {}
    for t in trust:
        by.setdefault((t["round"], t["node"]), []).append(t)
        a.expect(t["received"] in ("fresh", "reused", "missing"),
                 "trust.csv:%d" % t["_line"], "consensus", "received: fresh, reused or missing",
                 "fresh|reused|missing", t["received"])
    for c in summary:
        where = "consensus.csv:%d" % c["_line"]
        key = (c["round"], c["node"])
        rows = by.pop(key, [])
        for col in ("fresh", "reused", "missing"):
            n = sum(t["received"] == col for t in rows)
            a.expect(str(n) == c[col], where, "consensus", "%s = trust.csv's rows of round %s "
                     "node %s received %s" % ((col,) + key + (col,)), n, c[col])
        own = [t["w"] for t in rows if t["peer"] == t["node"]]
        a.expect(own == [c["self_trust"]], where, "consensus", "self_trust = trust.csv's w of "
                 "round %s node %s's own row" % key, ",".join(own) or "none", c["self_trust"])
    for key, rows in sorted(by.items(), key=lambda kv: kv[1][0]["_line"]):
        a.expect(False, "trust.csv:%d" % rows[0]["_line"], "consensus", "round %s node %s: a "
                 "row of consensus.csv" % key, "a row", "none")


ROUND_WIDE = ("trace", "delta", "lambda", "product_delta", "disagreement")


def check_trust_matrix(a):
    """consensus: consensus.csv's matrix columns recomputed from trust.csv's W of the round
    (w printed with 9 significant digits; a node without trust rows keeps its own
    predictions: its row of W is e_i): column_sum / column_sum_offdiag W's column sums with
    and without the diagonal, trace the sum of the diagonal, delta max_j (max_i - min_i
    w_ij), lambda 1 - min over row pairs of sum_j min(w_aj, w_bj), product_delta delta of
    the product of the rounds' W so far; each within the 9 digits' rounding of the terms;
    consensus_weight >= 0, summing to 1 over the round; trace, delta, lambda,
    product_delta and disagreement (a spread of predictions no trace records) the same on
    every row of a round."""
    summary = a.read_csv("consensus.csv")
    if not summary or "column_sum" not in summary[0]:
        return
    trust = a.read_csv("trust.csv") or []
    n = a.params.get("nDevices")
    if not isinstance(n, int) or n < 1:
        return
    w_rows = {}
    for t in trust:
        try:
            key = (int(t["round"]), int(t["node"]))
            w_rows.setdefault(key, {})[int(t["peer"])] = float(t["w"])
        except (TypeError, ValueError):
            continue
    by_round = {}
    for c in summary:
        by_round.setdefault(c["round"], []).append(c)
    product = None
    for rnd_text, crs in sorted(by_round.items(), key=lambda kv: int(kv[0])
                                if kv[0].lstrip("-").isdigit() else 0):
        first = crs[0]
        for c in crs[1:]:
            for col in ROUND_WIDE:
                a.expect(c[col] == first[col], "consensus.csv:%d" % c["_line"], "consensus",
                         "%s the same on every row of round %s (consensus.csv:%d)"
                         % (col, rnd_text, first["_line"]), first[col], c[col])
        try:
            rnd = int(rnd_text)
            values = [{col: float(c[col]) for col in ("column_sum", "column_sum_offdiag",
                                                      "consensus_weight", "trace", "delta",
                                                      "lambda", "product_delta")}
                      for c in crs]
            nodes = [int(c["node"]) for c in crs]
        except (TypeError, ValueError):
            product = None
            continue
        w = [[0.0] * n for _ in range(n)]
        for i in range(n):
            row = w_rows.get((rnd, i))
            if row is None:
                w[i][i] = 1.0
            else:
                for j, v in row.items():
                    if 0 <= j < n:
                        w[i][j] = v
        weights = [v["consensus_weight"] for v in values]
        a.expect(all(x >= 0 for x in weights) and abs(sum(weights) - 1) <= printed_tol(
                 *weights) + 1e-12, "consensus.csv:%d" % first["_line"], "consensus",
                 "round %s's consensus_weight >= 0, summing to 1" % rnd_text, 1, sum(weights))
        for c, v, i in zip(crs, values, nodes):
            if not 0 <= i < n:
                continue
            where = "consensus.csv:%d" % c["_line"]
            col = [w[k][i] for k in range(n)]
            for key, want, terms in (
                    ("column_sum", sum(col), col),
                    ("column_sum_offdiag", sum(col) - w[i][i],
                     [x for k, x in enumerate(col) if k != i])):
                a.expect(abs(want - v[key]) <= printed_tol(v[key], *terms), where,
                         "consensus", "%s of W's column %d (trust.csv, round %s)"
                         % (key, i, rnd_text), want, v[key])
        v = values[0]
        where = "consensus.csv:%d" % first["_line"]
        diag = [w[i][i] for i in range(n)]
        a.expect(abs(sum(diag) - v["trace"]) <= printed_tol(v["trace"], *diag), where,
                 "consensus", "trace = the sum of W's diagonal (trust.csv, round %s)"
                 % rnd_text, sum(diag), v["trace"])
        delta = row_difference(w)
        spread = max((max(abs(w[i][j]) for i in range(n)) for j in range(n)), default=0.0)
        a.expect(abs(delta - v["delta"]) <= printed_tol(v["delta"], spread, spread), where,
                 "consensus", "delta = max_j (max_i - min_i w_ij) (trust.csv, round %s)"
                 % rnd_text, delta, v["delta"])
        least, terms = 1.0, 2.0
        for x in range(n):
            for y in range(x + 1, n):
                overlap = sum(min(p, q) for p, q in zip(w[x], w[y]))
                least = min(least, overlap)
        lam = 1.0 - (least if n >= 2 else 1.0)
        a.expect(abs(lam - v["lambda"]) <= printed_tol(v["lambda"], terms), where,
                 "consensus", "lambda = 1 - min over row pairs of sum_j min (trust.csv, "
                 "round %s)" % rnd_text, lam, v["lambda"])
        # W's product over the rounds: each round's rounding of W adds at most 5e-9 of a row.
        product = w if product is None else [[sum(w[i][k] * product[k][j] for k in range(n))
                                              for j in range(n)] for i in range(n)]
        steps = rnd
        a.expect(abs(row_difference(product) - v["product_delta"])
                 <= printed_tol(v["product_delta"]) + 2e-8 * max(steps, 1), where, "consensus",
                 "product_delta = delta of the product of the rounds' W (trust.csv, rounds up "
                 "to %s)" % rnd_text, row_difference(product), v["product_delta"])


def row_difference(w):
    n = len(w[0]) if w else 0
    return max((max(r[j] for r in w) - min(r[j] for r in w) for j in range(n)), default=0.0)


def check_belief_consensus(a):
    """bayes-consensus: consensus.csv (step, node, fresh, reused, renormalized_out): per
    node, fresh + reused + renormalized_out (its in-neighbours in W) the same at every step
    (beliefs are broadcast: messages.csv's senders are not the in-neighbours);
    --lossRule=reuse renormalizes nothing (renormalized_out 0), renormalize reuses nothing
    (reused 0)."""
    rows = a.read_csv("consensus.csv")
    if not rows or "renormalized_out" not in rows[0]:
        return
    name = "consensus.csv"
    ints(a, rows, name, ("step", "node", "fresh", "reused", "renormalized_out"), "consensus")
    rule = str(a.params.get("lossRule", "")).lower()
    first = {}
    for r in rows:
        where = "%s:%d" % (name, r["_line"])
        parts = [r.get(c + "#") for c in ("fresh", "reused", "renormalized_out")]
        if None in parts or r.get("node#") is None:
            continue
        total = sum(parts)
        node = r["node#"]
        if node in first:
            a.expect(total == first[node][0], where, "consensus", "fresh + reused + "
                     "renormalized_out of node %d = its in-neighbours, as at %s:%d"
                     % (node, name, first[node][1]), first[node][0], total)
        else:
            first[node] = (total, r["_line"])
        if rule == "reuse":
            a.expect(parts[2] == 0, where, "consensus", "renormalized_out 0 (lossRule reuse)",
                     0, parts[2])
        elif rule == "renormalize":
            a.expect(parts[1] == 0, where, "consensus", "reused 0 (lossRule renormalize)",
                     0, parts[1])
