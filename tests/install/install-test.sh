#!/usr/bin/env bash
# CTest: install d2dlearn into a temporary prefix and use it from outside the tree.
#
#   bash install-test.sh BUILD_DIR SOURCE_DIR EXAMPLE_SOURCE EXPECT_REGEX [ARGS...]
#
# 1. `cmake --install BUILD_DIR --prefix P` into a temporary folder; checks that P has
#    the headers exactly as BUILD_DIR/include/ns3 publishes them (d2dlearn-module.h and
#    every header it includes), the three libraries, the four scenario programs, the analysis
#    scripts and the CMake package, and that nothing installed names BUILD_DIR.
# 2. Configures tests/install/ (find_package(d2dlearn REQUIRED)) against P only, builds
#    EXAMPLE_SOURCE linked with d2dlearn::learning and the usage checks (usage-check.cc,
#    linked with each target), runs the checks, and runs the program with ARGS: exit
#    status 0 and a line matching EXPECT_REGEX; they load the libraries of P, not of
#    BUILD_DIR (and the learning check libtorch, through the learning library).
# 3. Runs the installed d2d-exchange from P (its RUNPATH finds P's libraries) and the
#    installed plot_traces.py on its traces.
# The temporary folder is removed at the end. CMAKE (environment) names cmake.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
EXAMPLE=$3
EXPECT=$4
shift 4
CMAKE=${CMAKE:-cmake}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=$TMP/prefix
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

echo "== cmake --install into $P"
"$CMAKE" --install "$BUILD" --prefix "$P" >"$TMP/install.log"

# Headers: d2dlearn-module.h and each header it includes, identical to the build tree's.
module=$P/include/ns3/d2dlearn-module.h
if [ -f "$module" ] && cmp -s "$module" "$BUILD/include/ns3/d2dlearn-module.h"; then
    names=$(sed -n 's/^#include "ns3\/\(.*\)"$/\1/p' "$module")
    nheaders=0
    for h in $names; do
        nheaders=$((nheaders + 1))
        cmp -s "$P/include/ns3/$h" "$BUILD/include/ns3/$h" || fail "header ns3/$h missing or not the build tree's"
    done
    ninstalled=$(find "$P/include/ns3" -name '*.h' | wc -l)
    [ "$ninstalled" -eq $((nheaders + 1)) ] || fail "$ninstalled headers installed, expected $((nheaders + 1))"
    ok "d2dlearn-module.h and its $nheaders headers"
else
    fail "d2dlearn-module.h missing or not the build tree's"
fi
for f in lib/libd2dlearn.so lib/libd2dlearn-learning.so lib/libd2dlearn-scenario.so \
         lib/cmake/d2dlearn/d2dlearnConfig.cmake lib/cmake/d2dlearn/d2dlearnConfigVersion.cmake \
         lib/cmake/d2dlearn/d2dlearnTargets.cmake lib/cmake/d2dlearn/d2dlearnFilterNs3Targets.cmake \
         share/d2dlearn/analysis/d2dlearn_analysis/traces.py; do
    [ -f "$P/$f" ] && ok "$f" || fail "$f not installed"
done
for f in bin/fedavg bin/cmfl bin/bayes-consensus bin/d2d-exchange \
         share/d2dlearn/analysis/plot_traces.py share/d2dlearn/analysis/plot_rounds.py \
         share/d2dlearn/analysis/plot_cmfl.py share/d2dlearn/analysis/plot_bayes.py; do
    [ -x "$P/$f" ] && ok "$f" || fail "$f not installed as a program"
done
# Every analysis script as a program, beside the package it imports (the one that imports a
# sibling script too: plot_round_times.py, round_time_tables.py).
missing=""
for f in "$SRC"/analysis/*.py; do
    [ -x "$P/share/d2dlearn/analysis/$(basename "$f")" ] || missing+=" $(basename "$f")"
done
[ -z "$missing" ] && ok "every analysis/*.py installed as a program" ||
    fail "analysis scripts not installed as programs:$missing"
if "$P/share/d2dlearn/analysis/plot_round_times.py" --help >"$TMP/prt.log" 2>&1; then
    ok "installed plot_round_times.py --help"
else
    fail "installed plot_round_times.py --help: $(tail -n 1 "$TMP/prt.log")"
fi
# (Text files only: compiled programs may quote header paths in assertion messages.)
if grep -rlF "$BUILD" "$P/include" "$P/lib/cmake" "$P/share" >"$TMP/names-build"; then
    fail "installed files name the build tree: $(tr '\n' ' ' <"$TMP/names-build")"
else
    ok "no installed file names $BUILD"
fi
for prog in fedavg cmfl bayes-consensus d2d-exchange; do
    runpath=$(readelf -d "$P/bin/$prog" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    case $runpath in
        "\$ORIGIN/../lib"*"$BUILD"* | "") fail "$prog RUNPATH '$runpath'" ;;
        "\$ORIGIN/../lib"*) ok "$prog RUNPATH $runpath" ;;
        *) fail "$prog RUNPATH '$runpath' (expected \$ORIGIN/../lib first)" ;;
    esac
done

echo "== out-of-tree build of $EXAMPLE against $P"
name=$(basename "$EXAMPLE" .cc)
# The ns-3 d2dlearn was built against, as its user points at it (an ns-3 in a prefix is not
# found by default; Debian's is).
ns3dir=$(sed -n 's/^ns3_DIR:PATH=//p' "$BUILD/CMakeCache.txt")
# The consumer project and the program copied into the temporary folder, and, when the build
# under test uses ccache (cmake/d2dlearnCcache.cmake), ccache with its base_dir there and
# __FILE__ relative to it: every path the compiler sees is then the same relative path in
# every run of this test, so a later run (a fresh clone's, in CI) reuses this one's
# compilations. The sources, the installed headers and the flags of the usage requirements
# are those a user's build gets.
cp -r "$SRC/tests/install" "$TMP/consumer"
cp "$EXAMPLE" "$TMP/consumer/"
consumer_example=$TMP/consumer/$(basename "$EXAMPLE")
cache=()
if grep -q '^D2DLEARN_CCACHE:BOOL=ON$' "$BUILD/CMakeCache.txt" && command -v ccache >/dev/null; then
    cache=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$TMP;CCACHE_NOHASHDIR=1;ccache"
           "-DCMAKE_CXX_FLAGS=-fmacro-prefix-map=$TMP/=")
fi
"$CMAKE" -S "$TMP/consumer" -B "$TMP/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$P" -Dns3_DIR="$ns3dir" -DD2DLEARN_EXAMPLE="$consumer_example" \
    "${cache[@]}" >"$TMP/configure.log" 2>&1 ||
    { cat "$TMP/configure.log"; fail "configure"; exit 1; }
"$CMAKE" --build "$TMP/build" -j2 >"$TMP/build.log" 2>&1 ||
    { cat "$TMP/build.log"; fail "build"; exit 1; }
ok "configured and built $name and the usage checks"
# Each program loads the libraries of P (those it needs: the linker drops the others).
for check in d2dlearn learning scenario; do
    rc=0
    "$TMP/build/usage-check-$check" >"$TMP/out" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] && ok "usage-check-$check: $(cat "$TMP/out")" ||
        fail "usage-check-$check: exit status $rc: $(cat "$TMP/out")"
done
for prog in usage-check-learning usage-check-scenario "$name"; do
    libs=$(ldd "$TMP/build/$prog" | sed -n 's/.*\(libd2dlearn[a-z-]*\.so\) => \([^ ]*\).*/\1=\2/p')
    [ -n "$libs" ] || fail "$prog loads no d2dlearn library"
    for entry in $libs; do
        if [ "$(realpath "${entry#*=}")" = "$(realpath "$P/lib/${entry%%=*}")" ]; then
            ok "$prog loads $entry"
        else
            fail "$prog loads $entry, not the one in $P/lib"
        fi
    done
done
deps=$(ldd "$TMP/build/usage-check-learning")
grep -q 'libd2dlearn-learning\.so' <<<"$deps" ||
    fail "usage-check-learning does not load libd2dlearn-learning.so"
grep -q 'libtorch' <<<"$deps" && ok "usage-check-learning loads libtorch" ||
    fail "usage-check-learning does not load libtorch (through libd2dlearn-learning.so)"
rc=0
"$TMP/build/$name" "$@" >"$TMP/out" 2>&1 || rc=$?
cat "$TMP/out"
[ "$rc" -eq 0 ] && ok "$name exit status 0" || fail "$name exit status $rc"
grep -Eq "$EXPECT" "$TMP/out" && ok "output matches $EXPECT" || fail "no output line matches $EXPECT"

echo "== an ns-3 other than the one d2dlearn was built against is refused"
# A hand-made ns-3 package of another release, found before the real one: the installed
# d2dlearnConfig.cmake must refuse it in one clear line naming both releases.
built=$(sed -n 's/^ns3_VERSION:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
[ -n "$built" ] || built=$(sed -n 's/.*PACKAGE_VERSION "\([0-9.]*\)".*/\1/p' \
    "$(sed -n 's/^ns3_DIR:PATH=//p' "$BUILD/CMakeCache.txt")/ns3ConfigVersion.cmake")
other=3.48
[ "$built" = 3.48 ] && other=3.37
mkdir -p "$TMP/other-ns3/lib/cmake/ns3"
echo "set(PACKAGE_VERSION $other)
set(PACKAGE_VERSION_COMPATIBLE TRUE)" >"$TMP/other-ns3/lib/cmake/ns3/ns3ConfigVersion.cmake"
echo "# no targets: d2dlearnConfig.cmake must stop before it needs them" \
    >"$TMP/other-ns3/lib/cmake/ns3/ns3Config.cmake"
rc=0
"$CMAKE" -S "$SRC/tests/install" -B "$TMP/build-other" -DCMAKE_PREFIX_PATH="$TMP/other-ns3;$P" \
    -DD2DLEARN_EXAMPLE="$EXAMPLE" >"$TMP/other.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && tr '\n' ' ' <"$TMP/other.log" | tr -s ' ' |
    grep -qF "d2dlearn in $P was built against ns-3 $built, but this project found ns-3 $other"; then
    ok "ns-3 $other refused: d2dlearn was built against ns-3 $built"
else
    cat "$TMP/other.log"
    fail "ns-3 $other not refused in one line (exit status $rc)"
fi

echo "== installed programs and scripts"
rc=0
"$P/bin/d2d-exchange" --nDevices=4 --duration=2s --outDir="$TMP/x" --quiet || rc=$?
[ "$rc" -eq 0 ] && [ -f "$TMP/x/run.json" ] && ok "installed d2d-exchange wrote its traces" ||
    fail "installed d2d-exchange: exit status $rc"
lib=$(ldd "$P/bin/d2d-exchange" | sed -n 's/.*libd2dlearn\.so => \([^ ]*\).*/\1/p')
[ -n "$lib" ] && [ "$(realpath "$lib")" = "$(realpath "$P/lib/libd2dlearn.so")" ] && ok "d2d-exchange loads $lib" || fail "d2d-exchange loads '$lib'"
rc=0
/usr/bin/python3 "$P/share/d2dlearn/analysis/plot_traces.py" "$TMP/x" --out "$TMP/plots" \
    >"$TMP/plot.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ -f "$TMP/plots/latency_cdf.png" ] && ok "installed plot_traces.py" ||
    { cat "$TMP/plot.log"; fail "installed plot_traces.py: exit status $rc"; }
rc=0
sweep="$P/share/d2dlearn/analysis/sweep.py"
campaign="$P/share/d2dlearn/analysis/campaigns/paper-d2d-exchange.toml"
env -u D2DLEARN_BIN /usr/bin/python3 "$sweep" run "$campaign" --out "$TMP/sweep" --dry-run \
    >"$TMP/sweep.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && grep -q "^$P/bin/d2d-exchange " "$TMP/sweep.log" &&
    ok "installed sweep.py finds the installed d2d-exchange" ||
    { cat "$TMP/sweep.log"; fail "installed sweep.py --dry-run: exit status $rc"; }
rc=0
{ env -u D2DLEARN_BIN /usr/bin/python3 "$sweep" run "$campaign" --out "$TMP/sweep" &&
    /usr/bin/python3 "$sweep" collect "$campaign" --out "$TMP/sweep"; } >"$TMP/sweep.log" 2>&1 ||
    rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/sweep/results.csv")" -eq 13 ] &&
    ok "installed sweep.py ran the installed paper-d2d-exchange campaign (12 runs)" ||
    { cat "$TMP/sweep.log"; fail "installed sweep.py run/collect: exit status $rc"; }

if [ "$failures" -ne 0 ]; then
    echo "install-test: $failures failure(s)"
    exit 1
fi
echo "install-test: PASS"
