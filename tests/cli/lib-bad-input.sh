# Shared by the *-bad-input.sh tests: `expect_reject WORD ARGS...` checks that "$BIN" ARGS
# --outDir=<fresh folder> stops before simulating: non-zero exit status (not a crash or a
# timeout), exactly one line on stderr containing WORD, nothing on stdout, nothing in the
# output folder, not even an empty one. Each case also runs with --validate appended, which
# must refuse it with the same status and the same line (--validate runs every check a run
# makes before simulating). Failures are counted in $failures; `finish NAME` reports.
# The caller sets BIN and TMP (a temporary folder it removes).
#
# The cases run in batches: expect_reject queues a case, and `run_rejects` (called by
# finish, or by a script before it reads $failures) runs the queue in one start of the
# program, D2DLEARN_CASES=FILE (D2dCaseBatch, scenario/d2d-case-batch.h): the program forks
# one child per case at its flag parsing, each going on with the case's arguments as a
# fresh process would, with its own stdout, stderr and exit status, 60 s at most. A start
# of the program (loading LibTorch) takes about a second; a case then costs a fork.
# D2DLEARN_BAD_INPUT_PROCESSES=1 runs each case as a program of its own instead (the
# check the batch mode replaces; both must agree).

failures=0
ncase=0
queued=()   # case numbers waiting for run_rejects
declare -A case_name case_args case_twin
fail() {
    echo "  FAIL: $*"
    failures=$((failures + 1))
}

expect_reject() {
    local name=$1
    shift
    ncase=$((ncase + 1))
    local arg line=""
    for arg in "$@" "--outDir=$TMP/out$ncase"; do
        case $arg in
            *$'\t'* | *$'\n'*) echo "expect_reject: an argument holds a tab or a newline: $arg" >&2; exit 2 ;;
        esac
        line+="${line:+$'\t'}$arg"
    done
    case_name[$ncase]=$name
    case_args[$ncase]=$line
    queued+=("$ncase")
    # Its --validate twin, checked against it.
    local first=$ncase
    ncase=$((ncase + 1))
    case_name[$ncase]=$name
    case_args[$ncase]="${line%$'\t'--outDir=*}"$'\t'"--validate"$'\t'"--outDir=$TMP/out$ncase"
    case_twin[$ncase]=$first
    queued+=("$ncase")
}

# check_reject K RC STDOUT STDERR: the checks of case K, from what it left.
check_reject() {
    local k=$1 rc=$2 stdout=$3 stderr=$4 name=${case_name[$1]} out="$TMP/out$1"
    echo "check: ${case_args[$k]//$'\t'/ } -> rejected, one stderr line naming '$name', nothing in outDir"
    local lines
    lines=$(awk 'END { print NR }' "$stderr")
    if [ "$rc" -eq 0 ]; then
        fail "exit status 0 (expected non-zero)"
    elif [ "$rc" -eq 124 ] || [ "$rc" -gt 125 ]; then
        fail "exit status $rc: the program crashed or timed out"
    fi
    if [ "$lines" -ne 1 ]; then
        fail "stderr has $lines lines (expected exactly 1):"
        head -n 5 "$stderr" | sed 's/^/    | /'
    elif ! grep -qF -- "$name" "$stderr"; then
        fail "stderr does not name '$name': $(cat "$stderr")"
    else
        echo "  stderr: $(cat "$stderr")"
    fi
    if [ -s "$stdout" ]; then
        fail "stdout is not empty"
    fi
    if [ -e "$out" ]; then
        fail "outDir left behind: $out $(find "$out" -mindepth 1 | tr '\n' ' ')"
    fi
    local twin=${case_twin[$k]:-}
    if [ -n "$twin" ]; then
        # --validate: the same refusal as the run's (its outDir named the same way).
        local want got
        want=$(sed "s|$TMP/out$twin|OUTDIR|g" "$TMP/stderr.$twin" 2>/dev/null)
        got=$(sed "s|$TMP/out$k|OUTDIR|g" "$stderr")
        if [ "$rc" != "$(cat "$TMP/rc.$twin" 2>/dev/null)" ] || [ "$got" != "$want" ]; then
            fail "--validate refused it otherwise (exit $rc): '$got' (the run, exit $(cat "$TMP/rc.$twin" 2>/dev/null)): '$want')"
        fi
    else
        cp "$stderr" "$TMP/stderr.$k"
        echo "$rc" >"$TMP/rc.$k"
    fi
}

run_rejects() {
    [ "${#queued[@]}" -gt 0 ] || return 0
    local k rc args
    if [ "${D2DLEARN_BAD_INPUT_PROCESSES:-0}" = 1 ]; then
        for k in "${queued[@]}"; do
            IFS=$'\t' read -r -a args <<<"${case_args[$k]}"
            rc=0
            timeout 60 "$BIN" "${args[@]}" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
            check_reject "$k" "$rc" "$TMP/stdout" "$TMP/stderr"
        done
        queued=()
        return 0
    fi
    local cases="$TMP/cases"
    : >"$cases"
    for k in "${queued[@]}"; do
        printf '%s\n' "${case_args[$k]}" >>"$cases"
    done
    rc=0
    D2DLEARN_CASES="$cases" timeout 1800 "$BIN" >"$TMP/batch.out" 2>"$TMP/batch.err" || rc=$?
    if [ "$rc" -ne 0 ] || [ -s "$TMP/batch.out" ] || [ -s "$TMP/batch.err" ]; then
        fail "the batch run of ${#queued[@]} cases exited $rc: $(head -c 300 "$TMP/batch.err")"
    fi
    local i=0
    for k in "${queued[@]}"; do
        i=$((i + 1))
        if [ ! -f "$cases.$i.rc" ]; then
            fail "case ${case_args[$k]//$'\t'/ }: not run by the batch"
            continue
        fi
        check_reject "$k" "$(cat "$cases.$i.rc")" "$cases.$i.out" "$cases.$i.err"
        rm -f "$cases.$i.rc" "$cases.$i.out" "$cases.$i.err"
    done
    queued=()
}

finish() {
    run_rejects
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures failure(s) in $ncase case(s) (each case and its --validate twin)"
        exit 1
    fi
    echo "$1: all $ncase cases rejected correctly (each case and its --validate twin)"
}
