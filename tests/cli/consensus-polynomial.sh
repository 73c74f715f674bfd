#!/usr/bin/env bash
# The polynomial toy of Fan, Mendler-Dünner, Jaggi 2023 (sec. 3.4, App. A.1) as a scenario
# data set: `consensus --dataset=polynomial --rounds=41` (three agents x 50 points around
# -2, 0, 2, X* = 50 points evenly in [-4, 4], degree-4 polynomials fitted in closed form,
# uniform trust, lambda = 1, one round of local fitting, then 40 collaboration rounds).
# From the traces, recomputed here independently of the program:
# - samples.csv holds 3 x 50 training points and X* = 50 evenly spaced points in [-4, 4]
#   with the noise-free f(x) = 0.5x^3 + 0.3x^2 - 5x + 4;
# - the disagreement on X* of the agents' polynomials (coefficients.csv evaluated on X*)
#   falls at least 10x from collaboration round 1 to collaboration round 40, while the
#   coefficient vectors still differ (consensus in prediction space, not in parameters);
# - consensus.csv's disagreement of each round equals that of the previous round's
#   polynomials (the predictions broadcast), and trust.csv has w = 1/3 everywhere;
# - rounds.csv's `loss` of each agent is the mean squared error of its polynomial against
#   the noise-free f on 201 points evenly in [-4, 4], node -1 their mean; messages are
#   50 x 4 + 32 bytes; run.json records lambda 1, trust naive, model poly:4 and the final
#   test MSE (finalTestMse; a regression run has no finalAccuracy);
# - with --trust=dynamic, trust.csv is the regression reading of eq. 6 (recomputed from the
#   polynomials) and the summary line gives the final test MSE.
#
# Usage: bash consensus-polynomial.sh PATH/TO/consensus
set -euo pipefail

BIN=${1:?usage: bash consensus-polynomial.sh PATH/TO/consensus}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/consensus-polynomial.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$BIN" --dataset=polynomial --rounds=41 --seed=1 --quiet --outDir="$TMP/run"

/usr/bin/python3 - "$TMP/run" <<'EOF'
import json
import os
import sys

import numpy as np
import pandas as pd

run = sys.argv[1]
fails = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)


def f(x):
    return 0.5 * x**3 + 0.3 * x**2 - 5 * x + 4


params = json.load(open(os.path.join(run, "run.json")))["parameters"]
check(params.get("lambda") == 1 and params.get("trust") == "naive"
      and params.get("model") == "poly:4" and params.get("warmupRounds") == 1,
      "run.json: lambda 1, trust naive, model poly:4, warmupRounds 1 (%s, %s, %s, %s)"
      % (params.get("lambda"), params.get("trust"), params.get("model"),
         params.get("warmupRounds")))

# A regression run's figure of merit in run.json is the test MSE (node -1's loss at the last
# round of rounds.csv), not an accuracy.
last = pd.read_csv(os.path.join(run, "rounds.csv"))
last = last[(last["node"] == -1) & (last["metric"] == "loss")]
last = float(last[last["round"] == last["round"].max()]["value"].iloc[0])
results = json.load(open(os.path.join(run, "run.json")))["summary"]["results"]
check("finalAccuracy" not in results and abs(results.get("finalTestMse", -1) - last) < 1e-8,
      "run.json: finalTestMse %s equals rounds.csv's last loss %s, no finalAccuracy"
      % (results.get("finalTestMse"), last))

samples = pd.read_csv(os.path.join(run, "samples.csv"))
train = samples[samples["set"] == "train"]
xstar = samples[samples["set"] == "xstar"].sort_values("x")
check(sorted(train.groupby("node").size().items()) == [(0, 50), (1, 50), (2, 50)],
      "3 agents x 50 training points")
means = train.groupby("node")["x"].mean()
check(all(abs(means[i] - m) < 0.5 for i, m in enumerate([-2, 0, 2])),
      "agents' x around -2, 0, 2 (means %s)" % np.round(means.values, 2).tolist())
resid = train["y"] - f(train["x"])
check(0.6 < resid.std() < 1.4, "noise sd about 1 (%.3f)" % resid.std())
xs = xstar["x"].to_numpy()
check(len(xs) == 50 and np.allclose(xs, np.linspace(-4, 4, 50), atol=1e-6),
      "X*: 50 points evenly in [-4, 4]")
check(np.allclose(xstar["y"], f(xs), rtol=1e-5, atol=1e-5), "X* targets: the noise-free f")

coef = pd.read_csv(os.path.join(run, "coefficients.csv"))
rounds = sorted(coef["round"].unique())
check(rounds == list(range(1, 42)), "coefficients for rounds 1..41")


def polys(r):
    c = coef[coef["round"] == r].pivot(index="node", columns="power", values="coefficient")
    return c.sort_index().to_numpy()


def values(c, x):
    return np.array([np.polyval(ci[::-1], x) for ci in c])


def disagreement(c):
    p = values(c, xs)
    return float(((p - p.mean(axis=0)) ** 2).sum() / p.size)


# Scenario round r + 1 is collaboration round r (round 1 fits locally).
first = disagreement(polys(2))
last = disagreement(polys(41))
check(first >= 10 * last,
      "disagreement on X* after collaboration round 1: %.6g, after round 40: %.6g (%.1fx)"
      % (first, last, first / max(last, 1e-300)))
c41 = polys(41)
gap = np.abs(c41[:, None, :] - c41[None, :, :]).max()
check(gap > 0.05, "coefficient vectors still differ after round 40 (largest gap %.4f)" % gap)
print("final coefficients (c0..c4):")
for i, ci in enumerate(c41):
    print("  agent %d: %s" % (i, " ".join("%.4f" % v for v in ci)))

cons = pd.read_csv(os.path.join(run, "consensus.csv"))
worst = 0.0
for r in range(2, 42):
    d = cons[cons["round"] == r]["disagreement"].iloc[0]
    expect = disagreement(polys(r - 1))
    worst = max(worst, abs(d - expect) / max(expect, 1e-12))
check(worst < 1e-3, "consensus.csv disagreement = previous round's polynomials on X* "
      "(largest relative difference %.2g)" % worst)
trust = pd.read_csv(os.path.join(run, "trust.csv"))
check(len(trust) == 40 * 9 and np.allclose(trust["w"], 1 / 3, atol=1e-9)
      and (trust["received"] == "fresh").all(), "trust.csv: w = 1/3, fresh, 40 rounds x 9")

rows = pd.read_csv(os.path.join(run, "rounds.csv"))
grid = np.linspace(-4, 4, 201)
worst = 0.0
for r in (1, 21, 41):
    mse = ((values(polys(r), grid) - f(grid)) ** 2).mean(axis=1)
    got = rows[(rows["round"] == r) & (rows["metric"] == "loss")].set_index("node")["value"]
    for i in range(3):
        worst = max(worst, abs(got[i] - mse[i]) / mse[i])
    worst = max(worst, abs(got[-1] - mse.mean()) / mse.mean())
check(worst < 1e-3, "rounds.csv loss = MSE against f on 201 points in [-4, 4], node -1 "
      "the mean (largest relative difference %.2g)" % worst)
print("MSE against f, node -1: round 1 %.4f, round 41 %.4f" % tuple(
    rows[(rows["node"] == -1) & (rows["metric"] == "loss") & rows["round"].isin([1, 41])]
    .sort_values("round")["value"]))
msgs = pd.read_csv(os.path.join(run, "messages.csv"))
pred = msgs[msgs["kind"] == "predictions"]
check(len(pred) > 0 and (pred["bytes"] == 50 * 4 + 32).all(), "messages: 50 x 4 + 32 bytes")

if fails:
    print("%d check(s) failed" % len(fails))
    sys.exit(1)
print("all checks passed")
EOF

# Dynamic trust on regression (the paper's App. A.2 uses it on the polynomial toy): eq. 6's
# cosine taken over the X* vectors, clipped at 0 (D2dTrustRules::RegressionTrustRow),
# recomputed here from the previous round's polynomials on X*; the summary line gives the
# test MSE (node -1's loss of the last round), not an accuracy.
"$BIN" --dataset=polynomial --rounds=6 --seed=2 --trust=dynamic --outDir="$TMP/dyn" \
    2>"$TMP/dyn.err"
/usr/bin/python3 - "$TMP/dyn" "$TMP/dyn.err" <<'EOF'
import json
import os
import re
import sys

import numpy as np
import pandas as pd

run, err = sys.argv[1], sys.argv[2]
fails = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)


params = json.load(open(os.path.join(run, "run.json")))["parameters"]
check(params.get("trust") == "dynamic" and params.get("confidence") == "none",
      "run.json: trust dynamic, confidence none (%s, %s)"
      % (params.get("trust"), params.get("confidence")))
samples = pd.read_csv(os.path.join(run, "samples.csv"))
xs = samples[samples["set"] == "xstar"].sort_values("x")["x"].to_numpy()
coef = pd.read_csv(os.path.join(run, "coefficients.csv"))
trust = pd.read_csv(os.path.join(run, "trust.csv"))
worst = 0.0
off = 0
for r in range(2, 7):
    c = coef[coef["round"] == r - 1].pivot(index="node", columns="power",
                                           values="coefficient").sort_index().to_numpy()
    y = np.array([np.polyval(ci[::-1], xs) for ci in c])
    norm = np.linalg.norm(y, axis=1)
    gamma = np.maximum(0.0, (y @ y.T) / np.outer(norm, norm))
    w = gamma / gamma.sum(axis=1, keepdims=True)
    got = trust[trust["round"] == r].pivot(index="node", columns="peer", values="w")
    got = got.sort_index().sort_index(axis=1).to_numpy()
    worst = max(worst, float(np.abs(got - w).max()))
    off += int((np.abs(got - 1 / 3) > 1e-6).sum())
check(worst < 1e-5, "trust.csv = max(0, cos) of the X* predictions, row-normalised "
      "(largest difference %.2g)" % worst)
check(off > 0, "dynamic rows differ from the uniform 1/3 (%d entries)" % off)
rows = pd.read_csv(os.path.join(run, "rounds.csv"))
mse = rows[(rows["round"] == 6) & (rows["node"] == -1) & (rows["metric"] == "loss")]["value"]
text = open(err).read()
m = re.search(r"final test MSE ([0-9.]+)", text)
check(m is not None and "final accuracy" not in text,
      "summary: 'final test MSE', no accuracy (%s)" % text.strip().splitlines()[-1])
check(m is not None and abs(float(m.group(1)) - float(mse.iloc[0])) < 5e-5,
      "summary MSE = node -1's loss of round 6 (%s vs %.4f)"
      % (m.group(1) if m else None, float(mse.iloc[0])))
if fails:
    print("%d check(s) failed" % len(fails))
    sys.exit(1)
print("all checks passed")
EOF
