"""run.json's `summary.results`, a scenario's headline results, each recomputed from the traces
(check results): rounds.csv, messages.csv, energy.csv, cmfl's ccp.csv, bayes-consensus's
missed.csv, graph discovery's gd_graph.csv, gd_links.csv, gd_stages.csv, gd_energy.csv,
gd_diversity.csv, gd_subspace.csv and gd_labelling.csv; a result without a recomputation is
a violation unless RESULTS_ALLOW_LISTED gives its reason.
"""

import os

from d2dlearn_analysis.audit.core import PRINTED, REL, parse_times
from d2dlearn_analysis.audit.gd_energy import check_group_energy

RESULTS_ALLOW_LISTED = {
    "gdGcnSystems": "the GCN baseline trains at the server outside simulated time: no trace "
                    "records its training",
    "gdGcnLossBefore": "the GCN's training loss at the server: no trace records the training",
    "gdGcnLossAfter": "the GCN's training loss at the server: no trace records the training",
    "gdGcnBestLinkAgreement": "the GCN's agreement with the best links on its training "
                              "systems: no trace records them",
}
# The file each result is recomputed from (named in its violation).
RESULT_FILES = {
    "roundsCompleted": "rounds.csv", "finalAccuracy": "rounds.csv", "finalTestMse": "rounds.csv",
    "bytesSent": "messages.csv", "ccpAttempts": "ccp.csv", "consensusVotes": "ccp.csv",
    "missedLocalUpdates": "missed.csv", "gdEdgesFound": "gd_graph.csv",
    "gdMeanLinkPDrop": "gd_graph.csv", "gdPointsSent": "gd_links.csv",
    "gdPointsReceived": "gd_links.csv", "gdPointsMoved": "gd_links.csv",
    "gdDeliveredFraction": "gd_links.csv", "gdRlEnergyJ": "gd_stages.csv",
    "gdExchangeEnergyJ": "gd_stages.csv", "gdDiscoveryEndS": "gd_energy.csv",
    "targetsReached": "gd_energy.csv",
    "gdMeanW1ToUniformBefore": ("gd_subspace.csv", "gd_diversity.csv"),
    "gdMeanW1ToUniformAfter": ("gd_subspace.csv", "gd_diversity.csv"),
    "gdPcaSubspaceMissed": "gd_subspace.csv", "gdDevicesTakingPart": "gd_subspace.csv",
    "gdPcaEndS": ("gd_subspace.csv", "gd_labelling.csv"),
    "gdLabellingMeanAccuracy": "gd_labelling.csv",
    "gdLabellingMeanUnlabelledAccuracy": "gd_labelling.csv",
    "gdLabellingEndS": "gd_labelling.csv", "gdPcaBytes": "messages.csv",
    "gdPcaSketchesReceived": "messages.csv", "gdPcaD2sEnergyJ": "energy.csv",
}


def distinct_bytes(messages, keep):
    """Bytes of the distinct messages (one per msg_id) whose kind keep() accepts."""
    seen = {}
    for r in messages:
        if r["msg_id#"] is not None and r["bytes#"] is not None and keep(r["kind"]):
            seen.setdefault(r["msg_id#"], r["bytes#"])
    return sum(seen.values())


def w1_to_uniform(counts):
    """W1 between a histogram over ordered labels and the uniform one: the sum over l < L-1
    of |CDF_p(l) - CDF_u(l)| (Wasserstein-1 on the label line, unit spacing)."""
    total = sum(counts)
    p = [c / total for c in counts] if total > 0 else [0.0] * len(counts)
    u = 1.0 / len(counts)
    w, cp, cu = 0.0, 0.0, 0.0
    for l in range(len(counts) - 1):
        cp += p[l]
        cu += u
        w += abs(cp - cu)
    return w


def expected_results(a, messages, energy, rounds):
    """{result name: (expected value, relative tolerance, absolute tolerance)}."""
    out = {}
    s = a.summary
    if "rounds_completed" in s:
        out["roundsCompleted"] = (s["rounds_completed"], 0.0, 0.0)
    if rounds is not None:
        for metric, key in (("accuracy", "finalAccuracy"), ("loss", "finalTestMse")):
            rows = [r for r in rounds if r["node#"] == -1 and r["metric"] == metric
                    and r["value#"] is not None]
            if rows:
                top = max(r["round#"] for r in rows)
                last = [r for r in rows if r["round#"] == top][-1]
                out[key] = (last["value#"], PRINTED, 1e-15)
    out["bytesSent"] = (distinct_bytes(messages, lambda k: not k.startswith(("gd_", "pca_"))),
                        0.0, 0.0)
    ccp = a.read_csv("ccp.csv")
    if ccp is not None:
        # One row per CCP attempt (consensus, timeout or failed); "scores" rows are no vote.
        out["ccpAttempts"] = (sum(r["step"] != "scores" for r in ccp), 0.0, 0.0)
        out["consensusVotes"] = (sum(r["outcome"] == "consensus" for r in ccp), 0.0, 0.0)
    missed = a.read_csv("missed.csv")
    if missed is not None:
        out["missedLocalUpdates"] = (len(missed), 0.0, 0.0)
    graph = a.read_csv("gd_graph.csv")
    if graph is not None:
        for col in ("transmitter", "p_drop"):
            a.number(graph, "gd_graph.csv", col)
        chosen = [r for r in graph
                  if r["transmitter#"] is not None and r["transmitter#"] >= 0]
        out["gdEdgesFound"] = (len(chosen), 0.0, 0.0)
        out["gdMeanLinkPDrop"] = (sum(r["p_drop#"] for r in chosen) / len(chosen)
                                  if chosen else None, REL, 1e-15)  # no link: null
    links = a.read_csv("gd_links.csv")
    if links is not None:
        for col in ("allocated", "received"):
            a.number(links, "gd_links.csv", col)
        sent = sum(r["allocated#"] or 0.0 for r in links)
        got = sum(r["received#"] or 0.0 for r in links)
        out["gdPointsSent"] = (sent, PRINTED, 1e-9)
        out["gdPointsReceived"] = (got, PRINTED, 1e-9)
        out["gdPointsMoved"] = (int(round(got)), 0.0, 0.0)
        out["gdDeliveredFraction"] = (got / sent if sent > 0 else None, PRINTED, 1e-15)
    stages = a.read_csv("gd_stages.csv")
    if stages is not None:
        a.number(stages, "gd_stages.csv", "d2d_j")
        sums = {"learned": 0.0, "exchanged": 0.0}
        previous = 0.0
        for r in stages:
            sums[r["stage"]] = sums.get(r["stage"], 0.0) + (r["d2d_j#"] or 0.0) - previous
            previous = r["d2d_j#"] or 0.0
        out["gdRlEnergyJ"] = (sums["learned"], REL, 1e-12)
        out["gdExchangeEnergyJ"] = (sums["exchanged"], REL, 1e-12)
        parse_times(a, stages, "gd_stages.csv", ("sim_time_s",))
        check_group_energy(a, energy, stages, "gd_stages.csv", ("d2d_j",))
    groups = a.read_csv("gd_energy.csv")
    if groups is not None:
        end = [r for r in groups if r["round"] == "0"]
        if end:
            out["gdDiscoveryEndS"] = (float(end[-1]["sim_time_s"]), REL, 1e-9)
        for col in ("d2d_j", "d2s_j", "compute_j", "total_j", "accuracy"):
            a.number(groups, "gd_energy.csv", col)
        targets = s.get("results", {}).get("targetsReached")
        if isinstance(targets, list):
            expected = []
            for t in targets:
                target = t.get("target") if isinstance(t, dict) else None
                hit = next((g for g in groups if g["round"] != "0" and g["accuracy#"] is not None
                            and target is not None and g["accuracy#"] >= target), None)
                if hit is None:
                    expected.append({"target": target, "round": None})
                else:
                    expected.append({"target": target, "round": int(hit["round"]),
                                     "energyJ": hit["total_j#"], "d2dJ": hit["d2d_j#"],
                                     "d2sJ": hit["d2s_j#"], "computeJ": hit["compute_j#"]})
            out["targetsReached"] = (expected, PRINTED, 1e-15)
    diversity = a.read_csv("gd_diversity.csv")
    subspace = a.read_csv("gd_subspace.csv")
    if subspace is not None:
        for col in ("label_w1_before", "label_w1_after", "pca_end_s"):
            a.number(subspace, "gd_subspace.csv", col)
        took = [r for r in subspace if r["subspace"] == "common"] or subspace
        out["gdMeanW1ToUniformBefore"] = (sum(r["label_w1_before#"] for r in took) / len(took),
                                          PRINTED, 1e-12)
        out["gdMeanW1ToUniformAfter"] = (sum(r["label_w1_after#"] for r in took) / len(took),
                                         PRINTED, 1e-12)
        out["gdPcaSubspaceMissed"] = (sum(r["subspace"] == "none" for r in subspace), 0.0, 0.0)
        out["gdDevicesTakingPart"] = (sum(r["subspace"] == "common" for r in subspace), 0.0, 0.0)
        if subspace:
            out["gdPcaEndS"] = (subspace[0]["pca_end_s#"], REL, 1e-9)
    elif diversity is not None:
        for col in ("count", "edge", "node", "label"):
            a.number(diversity, "gd_diversity.csv", col)
        for phase, key in (("before", "gdMeanW1ToUniformBefore"),
                           ("after", "gdMeanW1ToUniformAfter")):
            rows = [r for r in diversity if r["phase"] == phase]
            if not rows:
                continue
            edge = min(r["edge#"] for r in rows) if phase == "before" else \
                max(r["edge#"] for r in rows)
            hist = {}
            for r in rows:
                if r["edge#"] == edge:
                    hist.setdefault(int(r["node#"]), {})[int(r["label#"])] = r["count#"]
            w = [w1_to_uniform([h[l] for l in sorted(h)]) for h in hist.values()]
            out[key] = (sum(w) / len(w), PRINTED, 1e-12)
    labelling = a.read_csv("gd_labelling.csv")
    if labelling is not None and labelling:
        for col in ("accuracy", "unlabelled_accuracy", "pca_end_s"):
            a.number(labelling, "gd_labelling.csv", col)
        n = len(labelling)
        out["gdLabellingMeanAccuracy"] = (sum(r["accuracy#"] for r in labelling) / n,
                                          PRINTED, 1e-12)
        out["gdLabellingMeanUnlabelledAccuracy"] = (
            sum(r["unlabelled_accuracy#"] for r in labelling) / n, PRINTED, 1e-12)
        out["gdLabellingEndS"] = (labelling[0]["pca_end_s#"], REL, 1e-9)
        out["gdPcaEndS"] = (labelling[0]["pca_end_s#"], REL, 1e-9)
    if any(r["kind"].startswith("pca_") for r in messages):
        out["gdPcaBytes"] = (distinct_bytes(messages, lambda k: k.startswith("pca_")), 0.0, 0.0)
        out["gdPcaSketchesReceived"] = (
            sum(1 for r in messages if r["kind"] == "pca_sketch" and r["complete"] == "1"),
            0.0, 0.0)
        end = out.get("gdPcaEndS", (None,))[0]
        if end is not None:
            end_ns = int(round(end * 1e9))
            out["gdPcaD2sEnergyJ"] = (sum(r["energy_j#"] or 0.0 for r in energy
                                          if r["component"].startswith("d2s_")
                                          and (r["sim_time_ns"] or 0) <= end_ns), PRINTED,
                                      1e-12)
    return out


def check_results(a, got, messages, energy, rounds):
    """summary.results: every result against its recomputation (RESULTS)."""
    where = "run.json:summary.results"
    if not a.expect(isinstance(got, dict), where, "results", "an object", "{...}", got):
        return
    expected = expected_results(a, messages, energy, rounds)
    per_edge = got.get("gdMeanW1ToUniformPerEdge")
    if isinstance(per_edge, list) and per_edge:
        for key, index in (("gdMeanW1ToUniformBefore", 0), ("gdMeanW1ToUniformAfter", -1)):
            if key in expected:
                value, rel, abs_tol = expected[key]
                a.expect_close(where + ".gdMeanW1ToUniformPerEdge[%d]" % index, "results",
                               "the %s end equals %s" % ("first" if index == 0 else "last", key),
                               value, per_edge[index], rel=rel, abs_tol=abs_tol)
    for key, value in got.items():
        if key in RESULTS_ALLOW_LISTED or key == "gdMeanW1ToUniformPerEdge":
            continue
        if key not in expected:
            a.expect(False, where + "." + key, "results",
                     "result %s: no independent recomputation" % key, "a recomputed key",
                     "unknown")
            continue
        compare_result(a, where + "." + key, expected[key], value)


def compare_result(a, where, expected, got):
    value, rel, abs_tol = expected
    if isinstance(value, list):
        if not a.expect(isinstance(got, list) and len(got) == len(value), where, "results",
                        "a list of %d" % len(value), len(value),
                        len(got) if isinstance(got, list) else got):
            return
        for i, (e, g) in enumerate(zip(value, got)):
            compare_result(a, "%s[%d]" % (where, i), (e, rel, abs_tol), g)
        return
    if isinstance(value, dict):
        if not a.expect(isinstance(got, dict) and set(got) == set(value), where, "results",
                        "keys", sorted(value), sorted(got) if isinstance(got, dict) else got):
            return
        for k in value:
            compare_result(a, where + "." + k, (value[k], rel, abs_tol), got[k])
        return
    if isinstance(value, float) and isinstance(got, int) and not isinstance(got, bool):
        got = float(got)
    if isinstance(value, int) and isinstance(got, float) and got.is_integer() and rel == 0.0:
        got = int(got)
    key = where.split("run.json:summary.results.", 1)[-1].split(".")[0].split("[")[0]
    source = RESULT_FILES.get(key, "the traces")
    if isinstance(source, tuple):  # the first of the files the run has
        source = next((f for f in source if os.path.exists(os.path.join(a.dir, f))),
                      source[0])
    a.expect_close(where, "results", "recomputed from " + source, value, got, rel=rel,
                   abs_tol=abs_tol)
