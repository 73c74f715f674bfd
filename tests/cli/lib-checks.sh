# Shared by the CLI tests: `source "$(dirname "$0")/lib-checks.sh" NAME` makes a temporary
# folder $TMP (removed at exit) and sets failures=0; `fail MESSAGE...` reports and counts a
# failure; `finish TEXT...` ends the test: "NAME: N failure(s)" and exit status 1 if any
# failed, else "NAME: TEXT".

d2d_check_name=${1:?usage: source lib-checks.sh NAME}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/$d2d_check_name.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
    echo "  FAIL: $*"
    failures=$((failures + 1))
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$d2d_check_name: $failures failure(s)"
        exit 1
    fi
    echo "$d2d_check_name: $*"
}

# Runs of one program in one start of it (D2DLEARN_CASES, scenario/d2d-case-batch.h):
# `queue_run DIR ARGS...` queues a run with ARGS --outDir=DIR; `run_queued PROGRAM [SECONDS]`
# starts PROGRAM once, which forks a child per queued run at its flag parsing (each goes on
# as a fresh process would, with the libraries, LibTorch's among them, loaded once: a run
# costs a fork instead of about a second of start-up), at most SECONDS (default 120) each,
# and fails each run that did not exit 0. A determinism test compares a run of a fresh
# process with a forked one: two address layouts, so a trace that depends on where the
# allocator put something still differs.
d2d_queue=()
queue_run() {
    local dir=$1 arg line=""
    shift
    for arg in "$@" "--outDir=$dir"; do
        case $arg in
            *$'\t'* | *$'\n'*) echo "queue_run: an argument holds a tab or a newline: $arg" >&2; exit 2 ;;
        esac
        line+="${line:+$'\t'}$arg"
    done
    d2d_queue+=("$line")
}

run_queued() {
    local program=$1 limit=${2:-120} cases="$TMP/queued-cases" i n code rc=0
    [ "${#d2d_queue[@]}" -gt 0 ] || return 0
    printf '%s\n' "${d2d_queue[@]}" >"$cases"
    D2DLEARN_CASES="$cases" D2DLEARN_CASE_TIMEOUT="$limit" "$program" \
        >"$TMP/queued.out" 2>"$TMP/queued.err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "the start of $program for ${#d2d_queue[@]} runs exited $rc: $(head -c 300 "$TMP/queued.err")"
    fi
    for i in "${!d2d_queue[@]}"; do
        n=$((i + 1))
        code=$(cat "$cases.$n.rc" 2>/dev/null || echo "none (not run)")
        if [ "$code" != 0 ]; then
            tail -n 5 "$cases.$n.err" 2>/dev/null | sed 's/^/    | /'
            fail "run ${d2d_queue[$i]//$'\t'/ } (forked by one start): exit status $code"
        fi
        rm -f "$cases.$n.rc" "$cases.$n.out" "$cases.$n.err"
    done
    d2d_queue=()
}
