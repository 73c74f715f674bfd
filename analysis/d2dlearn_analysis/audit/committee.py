"""cmfl's committee.csv, aggregation.csv and ccp.csv (check committee): committee.csv one row
per round against rounds.csv's node -1 rows and run.json's maliciousDevices, ccp.csv's last
vote of each round at its end, aggregation.csv one row per device summing to committee.csv.
"""

from d2dlearn_analysis.audit.core import ints, parse_times


def check_committee(a, rounds):
    """cmfl: committee.csv (round, sim_time_s, training, committee, aggregation, n1, n2, n3,
    next_committee, next_n2) one row per round of rounds.csv's node -1 training_clients,
    at its time, its training, committee and aggregation those of rounds.csv's
    training_clients, committee_clients and aggregated, exactly; n1 <= training, n2 <=
    committee, n3 <= aggregation, each and next_n2 at most run.json's maliciousDevices;
    next_committee elected, drawn or kept; next_n2 (the malicious members of the next
    committee) is n2 of the next row, and n2 itself when kept. aggregation.csv (device,
    malicious, training, committee, aggregated): one row per device 0..N-1 in order,
    malicious = 1 exactly for maliciousDevices; each column's sum over the devices the sum
    of committee.csv's training, committee and aggregation, and over the malicious devices
    the sum of n1, n2 and n3."""
    rows = a.read_csv("committee.csv")
    if rows is None:
        return
    name = "committee.csv"
    cols = ("round", "training", "committee", "aggregation", "n1", "n2", "n3", "next_n2")
    ints(a, rows, name, cols, "committee")
    parse_times(a, rows, name, ("sim_time_s",))
    malicious = a.params.get("maliciousDevices")
    malicious = set(malicious) if isinstance(malicious, list) else None
    per_round = {}
    for r in rounds or []:
        if r.get("node#") == -1 and r["metric"] in ("training_clients", "committee_clients",
                                                    "aggregated"):
            per_round.setdefault(r.get("round#"), {})[r["metric"]] = r
    seen = set()
    for k, r in enumerate(rows):
        where = "%s:%d" % (name, r["_line"])
        if None in (r.get(c + "#") for c in cols):
            continue
        seen.add(r["round#"])
        got = per_round.get(r["round#"])
        if rounds is not None and a.expect(got is not None, where, "committee",
                                           "round %d: rounds.csv's node -1 rows of the round"
                                           % r["round#"], "rows", "none"):
            for col, metric in (("training", "training_clients"),
                                ("committee", "committee_clients"),
                                ("aggregation", "aggregated")):
                m = got.get(metric)
                if m is None:
                    continue
                a.expect(m.get("value#") == r[col + "#"], where, "committee",
                         "%s = rounds.csv:%d's %s" % (col, m["_line"], metric),
                         m.get("value#"), r[col + "#"])
                a.expect(m.get("sim_time_ns") == r.get("sim_time_ns"), where, "committee",
                         "sim_time_s = rounds.csv:%d's (written at the round's end)"
                         % m["_line"], m["sim_time_s"], r["sim_time_s"])
        for n, col in (("n1", "training"), ("n2", "committee"), ("n3", "aggregation")):
            a.expect(0 <= r[n + "#"] <= r[col + "#"], where, "committee",
                     "%s (malicious) at most %s" % (n, col), "0..%d" % r[col + "#"], r[n])
        for n in ("n1", "n2", "n3", "next_n2"):
            if malicious is not None:
                a.expect(r[n + "#"] <= len(malicious), where, "committee",
                         "%s at most the %d malicious devices (run.json's maliciousDevices)"
                         % (n, len(malicious)), "<= %d" % len(malicious), r[n])
        a.expect(r["next_committee"] in ("elected", "drawn", "kept"), where, "committee",
                 "next_committee elected, drawn or kept", "elected|drawn|kept",
                 r["next_committee"])
        if r["next_committee"] == "kept":
            a.expect(r["next_n2#"] == r["n2#"], where, "committee", "next_n2 = n2 (the "
                     "committee kept)", r["n2"], r["next_n2"])
        following = rows[k + 1] if k + 1 < len(rows) else None
        if following is not None and following.get("n2#") is not None:
            a.expect(r["next_n2#"] == following["n2#"], where, "committee",
                     "next_n2 = the next round's n2 (%s:%d)" % (name, following["_line"]),
                     following["n2"], r["next_n2"])
    # The vote that ends a round (the election, or a failed aggregation vote with
    # keep-committee) calls FinishRound at its last step: ccp.csv's last row of each round
    # is at committee.csv's time of that round.
    ccp = a.read_csv("ccp.csv") or []
    parse_times(a, ccp, "ccp.csv", ("sim_time_s",))
    last = {}
    for c in ccp:
        last[c.get("round")] = c
    for r in rows:
        c = last.get(r.get("round"))
        if c is not None and r.get("sim_time_ns") is not None:
            a.expect(c.get("sim_time_ns") == r["sim_time_ns"], "ccp.csv:%d" % c["_line"],
                     "committee", "the round's last vote step at its end (%s:%d)"
                     % (name, r["_line"]), r["sim_time_s"], c.get("sim_time_s"))
    for rnd, got in sorted(per_round.items(), key=lambda kv: kv[0] or 0):
        if "training_clients" in got:
            a.expect(rnd in seen, name, "committee", "a row for round %s (rounds.csv:%d)"
                     % (rnd, got["training_clients"]["_line"]), "a row", "none")
    check_aggregation(a, rows, malicious)


def check_aggregation(a, committee, malicious):
    rows = a.read_csv("aggregation.csv")
    if rows is None:
        return
    name = "aggregation.csv"
    ints(a, rows, name, ("device", "malicious", "training", "committee", "aggregated"),
         "committee")
    n = a.params.get("nDevices")
    if isinstance(n, int):
        a.expect([r.get("device#") for r in rows] == list(range(n)), name, "committee",
                 "one row per device 0..%d in order" % (n - 1), "%d rows" % n,
                 "%d rows" % len(rows))
    for r in rows:
        if malicious is not None and r.get("device#") is not None:
            a.expect(r.get("malicious#") == (1 if r["device#"] in malicious else 0),
                     "%s:%d" % (name, r["_line"]), "committee", "malicious = device %d in "
                     "run.json's maliciousDevices" % r["device#"],
                     int(r["device#"] in malicious), r["malicious"])
    done = [c for c in committee if c.get("training#") is not None]
    for col, total, bad in (("training", "training", "n1"), ("committee", "committee", "n2"),
                            ("aggregated", "aggregation", "n3")):
        values = [r.get(col + "#") for r in rows]
        if None in values or any(c.get(bad + "#") is None for c in done):
            continue
        want = sum(c[total + "#"] for c in done)
        a.expect(sum(values) == want, name, "committee", "the devices' %s sum to "
                 "committee.csv's %s over its %d rounds" % (col, total, len(done)), want,
                 sum(values))
        if malicious is not None:
            want = sum(c[bad + "#"] for c in done)
            got = sum(r[col + "#"] for r in rows if r.get("device#") in malicious)
            a.expect(got == want, name, "committee", "the malicious devices' %s sum to "
                     "committee.csv's %s" % (col, bad), want, got)
