# Shared by the *-bad-input.sh tests: `expect_reject WORD ARGS...` runs "$BIN" ARGS
# --outDir=<fresh folder> and checks that it stops before simulating: non-zero exit status
# (not a crash or a timeout), exactly one line on stderr containing WORD, nothing on stdout,
# nothing in the output folder. Failures are counted in $failures; `finish NAME` reports.
# The caller sets BIN and TMP (a temporary folder it removes).

failures=0
ncase=0
fail() {
    echo "  FAIL: $*"
    failures=$((failures + 1))
}

expect_reject() {
    local name=$1
    shift
    ncase=$((ncase + 1))
    local out="$TMP/out$ncase"
    echo "check: $* -> rejected, one stderr line naming '$name', nothing in outDir"
    local rc=0
    timeout 60 "$BIN" "$@" --outDir="$out" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
    local lines
    lines=$(awk 'END { print NR }' "$TMP/stderr")
    if [ "$rc" -eq 0 ]; then
        fail "exit status 0 (expected non-zero)"
    elif [ "$rc" -eq 124 ] || [ "$rc" -gt 125 ]; then
        fail "exit status $rc: the program crashed or timed out"
    fi
    if [ "$lines" -ne 1 ]; then
        fail "stderr has $lines lines (expected exactly 1):"
        head -n 5 "$TMP/stderr" | sed 's/^/    | /'
    elif ! grep -qF -- "$name" "$TMP/stderr"; then
        fail "stderr does not name '$name': $(cat "$TMP/stderr")"
    else
        echo "  stderr: $(cat "$TMP/stderr")"
    fi
    if [ -s "$TMP/stdout" ]; then
        fail "stdout is not empty"
    fi
    if [ -e "$out" ] && [ -n "$(find "$out" -mindepth 1 -print -quit)" ]; then
        fail "outDir is not empty: $(find "$out" -mindepth 1 | tr '\n' ' ')"
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures of $ncase case(s) failed"
        exit 1
    fi
    echo "$1: all $ncase cases rejected correctly"
}
