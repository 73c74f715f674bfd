#!/usr/bin/env bash
# Same seed, same parameters -> byte-identical traces of the cmfl scenario: rounds.csv,
# messages.csv, energy.csv, and for CMFL also ccp.csv, committee.csv and aggregation.csv.
# Cases (20 devices, 10 active, 2 rounds, logistic model on 2 % of Fashion-MNIST):
#  - CMFL-I with 10 % back-gradient attackers and CMFL-II with label flipping, committee of
#    5 (quorum 3 of 4 replicas): with seed 3 an attacker sits on the committee in round 1
#    and trains in round 2, and every vote reaches consensus (checked);
#  - CMFL-I with the attackers and a committee of 4 under the former rules (--quorum=replicas
#    --failedVote=keep-committee --maliciousCommittee=adversarial): the malicious member's
#    reply is missing from the quorum of 3 identical replies of 3 replicas, so the CCP times
#    out, tries new primaries and fails (checked: timeout and failed rows in ccp.csv, and
#    the committee is kept); with the defaults (majority quorum, step-down) the same run
#    agrees on every aggregation or steps the committee down (checked);
#  - CMFL-I on lossy links (P_D = 0.2 per fragment on every link, at most 3
#    retransmissions; checked: p_drop = 0.2 in messages.csv);
#  - Multi-Krum with gradient scaling, trimmed mean with same-value attackers,
#    BrainTorrent, GossipFL.
# Training inline (--threads=0) gives the bytes of 2 worker threads; another seed gives
# other messages. The channel access defaults to scheduled (no half-duplex loss, every
# score multicast delivered); --access=immediate is still selectable (run.json records
# it) and loses receptions to half-duplex, since CMFL schedules no radios itself.
#
# Usage: bash cmfl-determinism.sh PATH/TO/cmfl
set -euo pipefail

BIN=${1:?usage: bash cmfl-determinism.sh PATH/TO/cmfl}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" cmfl-determinism
PYTHON=/usr/bin/python3

# 20 devices, 10 active per round (CMFL: 4 committee members, 6 training clients).
SMALL=(--nDevices=20 --activationFraction=0.5 --rounds=2 --dataFraction=0.02 --model=logistic
    --quiet)
run() { # run DIR ARGS...
    local dir=$1
    shift
    if ! timeout 120 "$BIN" "${SMALL[@]}" "$@" --outDir="$dir" >"$TMP/log" 2>&1; then
        sed 's/^/    | /' "$TMP/log"
        fail "run failed: $*"
    fi
}
TRACES=(rounds.csv messages.csv energy.csv)
CMFL_TRACES=(rounds.csv messages.csv energy.csv ccp.csv committee.csv aggregation.csv)
same() { # same DIR1 DIR2 WHAT FILE...
    local a=$1 b=$2 what=$3 f
    shift 3
    for f in "$@"; do
        if [ ! -s "$a/$f" ]; then
            fail "$what: $f is missing or empty"
        elif ! cmp -s "$a/$f" "$b/$f"; then
            fail "$what: $f differs"
        fi
    done
}
queue() { # queue DIR ARGS...: a run forked by the one start below (run_queued, lib-checks.sh)
    local dir=$1
    shift
    queue_run "$dir" "${SMALL[@]}" "$@"
}
# twice NAME "FILES" ARGS... : two runs with --seed=3, compared once the queue has run: one in
# a process of its own (its traces checked further at once), one forked by one start of the
# program (run_queued): the same flags, another address layout.
compared=()
twice() {
    local name=$1 files=$2
    shift 2
    echo "check: $* (twice with --seed=3: compared below)"
    run "$TMP/$name-a" --seed=3 "$@"
    queue "$TMP/$name-b" --seed=3 "$@"
    compared+=("$name|$files")
}

ATTACK=(--algorithm=cmfl-1 --committeeFraction=0.5 --maliciousFraction=0.1 --attack=back-gradient)
twice cmfl1-attack "${CMFL_TRACES[*]}" "${ATTACK[@]}" --threads=2
twice cmfl2-flip "${CMFL_TRACES[*]}" --algorithm=cmfl-2 --committeeFraction=0.5 \
    --maliciousFraction=0.1 --attack=label-flipping
for name in cmfl1-attack cmfl2-flip; do
    "$PYTHON" - "$TMP/$name-a" <<'PY' || fail "$name: no attacker active or no consensus"
import sys
import pandas as pd
d = sys.argv[1]
c = pd.read_csv(d + "/committee.csv")
v = pd.read_csv(d + "/ccp.csv")
votes = v[v.step != "scores"]
print("  attackers training %d, on the committee %d, aggregated %d; votes %s"
      % (c.n1.sum(), c.n2.sum(), c.n3.sum(), votes.outcome.value_counts().to_dict()))
assert len(c) == 2 and c.n1.sum() + c.n2.sum() > 0, c
assert (votes.outcome == "consensus").all() and len(votes) == 4, votes
PY
done
twice cmfl1-stalled "${CMFL_TRACES[*]}" --algorithm=cmfl-1 --committeeFraction=0.4 \
    --maliciousFraction=0.1 --attack=back-gradient --quorum=replicas \
    --failedVote=keep-committee --maliciousCommittee=adversarial
"$PYTHON" - "$TMP/cmfl1-stalled-a" <<'PY' || fail "cmfl1-stalled: no CCP timeouts"
import sys
import pandas as pd
v = pd.read_csv(sys.argv[1] + "/ccp.csv")
c = pd.read_csv(sys.argv[1] + "/committee.csv")
out = v[v.step != "scores"].outcome.value_counts().to_dict()
print("  votes", out, "next committees", c.next_committee.value_counts().to_dict())
assert out.get("timeout", 0) > 0 and out.get("failed", 0) > 0, out
assert (c.next_committee == "kept").all(), c
PY
twice cmfl1-live "${CMFL_TRACES[*]}" --algorithm=cmfl-1 --committeeFraction=0.4 \
    --maliciousFraction=0.1 --attack=back-gradient --maliciousCommittee=adversarial
"$PYTHON" - "$TMP/cmfl1-live-a" <<'PY' || fail "cmfl1-live: a round neither agreed nor stepped down"
import sys
import pandas as pd
v = pd.read_csv(sys.argv[1] + "/ccp.csv")
c = pd.read_csv(sys.argv[1] + "/committee.csv")
agreed = set(v[(v.step == "aggregation") & (v.outcome == "consensus")]["round"])
print("  rounds agreed", sorted(agreed), "next committees",
      c.next_committee.value_counts().to_dict())
assert (c.next_committee != "kept").all(), c
assert all(r in agreed or n != "kept" for r, n in zip(c["round"], c.next_committee)), c
PY

# eq. 18: P_D = 1 - exp(-(2^r - 1) sigma^2 / W) = 0.2 with r = 2, sigma^2 = 1e-13 W on every
# link (as in cmfl-integration.sh), for the 20 devices.
"$PYTHON" - "$TMP/rss.csv" <<'PY'
import math, sys
w = 3e-13 / -math.log(0.8)
n = 20
rows = [",".join("0" if i == j else "%.9e" % w for j in range(n)) for i in range(n)]
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
twice cmfl1-lossy "${CMFL_TRACES[*]}" --algorithm=cmfl-1 --rssFile="$TMP/rss.csv" \
    --maxRetransmissions=3 --phaseTimeout=5s
# The lossy case must be lossy: P_D = 0.2 in messages.csv and some fragments dropped.
"$PYTHON" - "$TMP/cmfl1-lossy-a" <<'PY' || fail "cmfl1-lossy: the links are not lossy"
import sys
import pandas as pd
m = pd.read_csv(sys.argv[1] + "/messages.csv")
p = m["p_drop"].iloc[0]
assert abs(p - 0.2) < 1e-6, p
print("  p_drop %.3f, reasons %s" % (p, m["reason"].value_counts().to_dict()))
PY

twice multikrum-scaling "${TRACES[*]}" --algorithm=multi-krum --maliciousFraction=0.1 \
    --attack=gradient-scaling
twice trimmed-same "${TRACES[*]}" --algorithm=trimmed-mean --maliciousFraction=0.1 \
    --attack=same-value
# (The serverless baselines have no share of active clients: SMALL's --activationFraction is
# refused with them, so it is given again at its default, which never counts as given.)
twice braintorrent "${TRACES[*]}" --algorithm=braintorrent --activationFraction=0.1
twice gossipfl "${TRACES[*]}" --algorithm=gossipfl --activationFraction=0.1

queue "$TMP/cmfl1-inline" --seed=3 "${ATTACK[@]}" --threads=0
queue "$TMP/cmfl1-seed4" --seed=4 "${ATTACK[@]}" --threads=2
queue "$TMP/cmfl1-immediate" --seed=3 "${ATTACK[@]}" --threads=2 --access=immediate
run_queued "$BIN" 120
for entry in "${compared[@]}"; do
    IFS='|' read -r name files <<<"$entry"
    echo "check: $name: the two runs with --seed=3 -> identical $files"
    # shellcheck disable=SC2086
    same "$TMP/$name-a" "$TMP/$name-b" "$name" $files
    echo "  rounds.csv: $(($(wc -l <"$TMP/$name-a/rounds.csv") - 1)) rows," \
        "messages.csv: $(($(wc -l <"$TMP/$name-a/messages.csv") - 1)) rows"
done

echo "check: CMFL-I with --threads=0 (inline) gives the bytes of --threads=2"
same "$TMP/cmfl1-attack-a" "$TMP/cmfl1-inline" "threads" "${CMFL_TRACES[@]}"

echo "check: CMFL-I with --seed=4 gives other messages"
if [ ! -s "$TMP/cmfl1-seed4/messages.csv" ]; then
    fail "seed 4: messages.csv is missing or empty"
elif cmp -s "$TMP/cmfl1-attack-a/messages.csv" "$TMP/cmfl1-seed4/messages.csv"; then
    fail "messages.csv is the same for seeds 3 and 4"
fi

echo "check: --access defaults to scheduled (no half-duplex loss), --access=immediate selectable"
"$PYTHON" - "$TMP/cmfl1-attack-a" "$TMP/cmfl1-immediate" <<'PY' || fail "channel access of cmfl"
import json, sys
import pandas as pd
for d, access, policy in ((sys.argv[1], "scheduled", "Scheduled"), (sys.argv[2], "immediate", "Immediate")):
    p = json.load(open(d + "/run.json"))["parameters"]
    assert p["access"] == access, (d, p["access"])
    assert p["ns3::D2dChannel::AccessPolicy"] == policy, (d, p["ns3::D2dChannel::AccessPolicy"])
    m = pd.read_csv(d + "/messages.csv")
    lost = int((m["reason"] == "half_duplex").sum())
    scores = m[m.kind == "ccp_score"]
    print("  %s: %d half_duplex rows, %d of %d score rows delivered"
          % (access, lost, int(scores.delivered.sum()), len(scores)))
    if access == "scheduled":
        # CMFL and the CCP send at once; the channel serialises the half-duplex radios.
        assert lost == 0, lost
        assert scores.delivered.all(), scores
    else:
        # Raw radios: the members' simultaneous score multicasts meet sending radios.
        assert lost > 0, lost
PY

finish "identical traces for identical seeds"
