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
