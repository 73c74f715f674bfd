#!/usr/bin/env bash
# Runs that stop while LibTorch work is still pending: a simulated-time limit mid-round, or
# stragglers whose jobs never finish in simulated time. With worker threads, deferred jobs
# (D2dDeferredJob) and the worker pool's queue still hold training work when the simulation
# ends; the run must then exit 0 with its run.json, every time, and its traces must be the
# bytes of the same run trained inline (--threads=0) and, where the program has it, eagerly
# (--deferTraining=false): the jobs that did not finish in simulated time leave no rows.
# Each case runs REPEAT times (default 4): before the rule every time-limited or straggling
# deferred run failed at exit, and the repeats guard against a rarer race (10 repeats took
# the suite's second-longest test, 92 s; a race in half of the runs or more is missed by 4
# with a probability of 1/16 per case, and by all five deferred FedAvg cases below 1e-6).
# Before the worker pool's lifetime rule (learning/learner/d2d-torch-runtime.h) the FedAvg-family
# (deferred training) and graph-discovery cases aborted (double free, corrupted size) or hung
# at exit in most runs; the semi-decentralized, cmfl and consensus cases, whose jobs are
# eager (waited for when their learners are disposed), passed: they guard the same rule.
#
# Usage: bash stopped-runs.sh BIN_DIR GROUP [REPEAT]
#   GROUP: fedavg | cmfl | consensus | graph-discovery (the program whose cases run)
#   REPEAT: runs of each case with --threads=2 (default 4; more to hunt a rare race)
set -euo pipefail

BIN_DIR=${1:?usage: bash stopped-runs.sh BIN_DIR GROUP [REPEAT]}
GROUP=${2:?usage: bash stopped-runs.sh BIN_DIR GROUP [REPEAT]}
REPEAT=${3:-4}
# shellcheck source=lib-checks.sh
source "$(dirname "$0")/lib-checks.sh" "stopped-runs-$GROUP"

# One case: NAME|PROGRAM|REFERENCE FLAGS|FLAGS (the reference run adds its flags to FLAGS).
cases=()
case $GROUP in
    fedavg)
        small="--quiet --dataFraction=0.02"
        cases+=(
            "limit-mid-round|fedavg|--deferTraining=false|$small --rounds=1 --nDevices=2 --maxSimTime=0.2s"
            "stragglers-never-finish|fedavg|--deferTraining=false|$small --rounds=1 --nDevices=4 --stragglers=2 --stragglerSlowdown=1e9 --maxSimTime=2s"
            "all-stragglers|fedavg|--deferTraining=false|$small --rounds=2 --nDevices=4 --stragglers=4 --stragglerSlowdown=1e6 --maxSimTime=2s"
            "fedsgd-limit|fedavg|--deferTraining=false|$small --algorithm=fedsgd --rounds=1 --nDevices=2 --maxSimTime=0.2s"
            "fedprox-limit|fedavg|--deferTraining=false|$small --algorithm=fedprox --rounds=1 --nDevices=2 --maxSimTime=0.2s"
            "decentralized-limit|fedavg|--deferTraining=false|$small --algorithm=decentralized --rounds=2 --nDevices=4 --maxSimTime=0.3s"
            "semi-decentralized-limit|fedavg||$small --algorithm=semi-decentralized --rounds=2 --nDevices=4 --maxSimTime=0.3s"
        )
        ;;
    cmfl)
        cases+=(
            "limit-mid-round|cmfl||--quiet --nDevices=20 --activationFraction=0.5 --rounds=2 --dataFraction=0.1 --maxSimTime=0.45s"
        )
        ;;
    consensus)
        cases+=(
            "limit-mid-round|consensus||--quiet --nDevices=4 --rounds=4 --warmupRounds=1 --dataFraction=0.05 --maxSimTime=0.1s"
        )
        ;;
    graph-discovery)
        cases+=(
            "downstream-limit|graph-discovery||--quiet --nDevices=6 --iterations=20 --rounds=3 --dataFraction=0.05 --maxSimTime=0.5s"
        )
        ;;
    *)
        echo "stopped-runs.sh: unknown GROUP '$GROUP' (accepted: fedavg, cmfl, consensus, graph-discovery)" >&2
        exit 2
        ;;
esac

run() { # run DIR PROGRAM ARGS...: exit 0 and a run.json, or a failure
    local dir=$1 program=$2 code=0
    shift 2
    timeout 120 "$BIN_DIR/$program" "$@" --outDir="$dir" >"$TMP/log" 2>&1 || code=$?
    if [ "$code" -ne 0 ]; then
        sed 's/^/    | /' "$TMP/log" | tail -n 5
        fail "$program $* exited $code$([ "$code" -eq 124 ] && echo ' (hung: killed after 120 s)')"
        return 1
    fi
    if [ ! -s "$dir/run.json" ]; then
        fail "$program $*: no run.json"
        return 1
    fi
}

same() { # same REFERENCE DIR WHAT: every CSV trace byte-identical
    local f n=0
    for f in "$1"/*.csv; do
        n=$((n + 1))
        if ! cmp -s "$f" "$2/$(basename "$f")"; then
            fail "$3: $(basename "$f") differs from the reference"
        fi
    done
    [ "$n" -gt 0 ] || fail "$3: the reference wrote no CSV trace"
}

# The references (inline, and eager where the program has it: nothing pending at exit) only
# give the traces to compare with: forked by one start of the group's program (run_queued,
# lib-checks.sh). The runs under test below are processes of their own: their exit is what
# is checked.
for c in "${cases[@]}"; do
    IFS='|' read -r name program reference flags <<<"$c"
    read -r -a args <<<"$flags"
    read -r -a refArgs <<<"$reference"
    queue_run "$TMP/$name-reference" "${args[@]}" --threads=0 "${refArgs[@]}"
done
run_queued "$BIN_DIR/$GROUP" 120 # every case of a GROUP runs the program of that name

for c in "${cases[@]}"; do
    IFS='|' read -r name program reference flags <<<"$c"
    read -r -a args <<<"$flags"
    echo "check: $name ($program ${args[*]}), $REPEAT runs with --threads=2"
    ref=$TMP/$name-reference
    if [ ! -s "$ref/run.json" ]; then
        fail "$name: the reference run wrote no run.json"
        continue
    fi
    ok=0
    for i in $(seq 1 "$REPEAT"); do
        dir=$TMP/$name-$i
        if run "$dir" "$program" "${args[@]}" --threads=2; then
            before=$failures
            same "$ref" "$dir" "$name run $i"
            [ "$failures" -eq "$before" ] && ok=$((ok + 1))
        fi
        rm -rf "$dir"
    done
    echo "  $ok of $REPEAT runs exited 0 with the reference's traces"
done

finish "every stopped run exited 0 with the traces of the inline, eager run"
