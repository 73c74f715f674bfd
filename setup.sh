#!/usr/bin/env bash
# d2dlearn set-up: install the Debian packages the project needs (only those missing),
# configure and build with CMake, then run the main job or the test suite.
#
#   bash setup.sh [--run]   build, run fedavg on its defaults (FedAvg, 10 devices,
#                           Fashion-MNIST) into results/fedavg and plot it
#                           (results/fedavg/plots)
#   bash setup.sh --test    build, then run every test with CTest
#
# Installing packages needs root (sudo bash setup.sh ...); with every package already
# installed any user can run it.
set -euo pipefail

usage() {
    echo "usage: bash setup.sh [--run | --test]"
}

mode=run
if [ $# -gt 1 ]; then
    usage >&2
    exit 2
fi
case ${1:---run} in
    --run) mode=run ;;
    --test) mode=test ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        echo "setup.sh: unknown option '$1'" >&2
        usage >&2
        exit 2
        ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")"

# Debian 12 packages, each with why it is here when that is not obvious. RUN_PACKAGES build,
# run and plot the scenario programs (`--run` installs only these); TEST_PACKAGES are what the
# tests and the manual need besides (`--test` installs both lists).
RUN_PACKAGES=(cmake g++ libns3-dev ns3 libgsl-dev libtorch-dev libfmt-dev libboost-dev
              libboost-program-options-dev dataset-fashion-mnist python3-pandas
              python3-matplotlib
              libgtest-dev # configure: contrib/d2dlearn/CMakeLists.txt finds GTest for its tests
              libopenblas0-pthread # LibTorch's BLAS (held to 1 thread): the libblas.so.3 alternative
              liblapack-dev # LAPACK and BLAS to link: graph discovery's KL blocks (dpotrf, dgemm)
              make # CMake's build tool: only a Recommends of cmake, so name it
              nlohmann-json3-dev # parses LEAF's JSON data sets (--dataset=leaf); header-only
              ccache) # compiler cache: a rebuild of the same sources, in any clone, reuses objects
TEST_PACKAGES=(slurm-wlm munge # tests/analysis: sweeps submitted to a local Slurm
               python3-scipy # analysis/stats.py: Student t quantiles (sweeps' intervals)
               python3-torch # bench-fedavg's plain PyTorch loop (Debian's build of the same LibTorch)
               python3-sphinx python3-myst-parser # the manual (doc/, Markdown pages): target doc
               furo # the manual's theme (doc/conf.py: a wide text column, tables that scroll whole)
               libjs-mathjax # the manual's formulas, typeset offline (doc/conf.py copies MathJax in)
               chromium # headless: test doc-html-layout loads every page of the manual at 1280 px
               tcpdump # test cli-pcap reads the Wi-Fi backend's pcap files (--pcap) with tcpdump -r
               doxygen # the manual's C++ API reference (public headers)
               universal-ctags) # tests/structure.py: function lengths and class members
PACKAGES=("${RUN_PACKAGES[@]}")
[ "$mode" = test ] && PACKAGES+=("${TEST_PACKAGES[@]}")

# Each phase's wall time, printed when it ends (bench/bench-ci.py reads these lines).
now() { echo "${EPOCHREALTIME/,/.}"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
setup_start=$(now)
phase_start=$setup_start
phase_done() {
    echo "setup.sh: phase $1: $(elapsed "$phase_start") s"
    phase_start=$(now)
}

# The compiler cache's hits and misses in this build (CMakeLists.txt puts ccache in front of
# the compiler when it is installed, logging each compilation to build/ccache-stats.log).
ccache_stats() {
    local log=build/ccache-stats.log
    if [ -s "$log" ]; then
        awk '/^#/ { n++ } /^(direct|preprocessed)_cache_hit$/ { h++ }
             END { printf "setup.sh: compiler cache: %d of %d compilations were hits (%.0f %%)\n",
                   h, n, n ? 100 * h / n : 0 }' "$log"
        rm -f "$log"
    fi
}

installed() {
    dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q 'ok installed$'
}

missing=()
for p in "${PACKAGES[@]}"; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup.sh: error: missing Debian packages (${missing[*]}): run as root, e.g. sudo bash setup.sh${1:+ $1}" >&2
        exit 1
    fi
    echo "setup.sh: installing ${missing[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "setup.sh: all ${#PACKAGES[@]} Debian packages are installed"
fi
phase_done packages

echo "setup.sh: configuring and building in build/"
# --test also builds the torch-free GoogleTest cases with ASan, UBSan and LSan (CTest tests
# sanitize-*); the main job does not need them.
sanitized=OFF
[ "$mode" = test ] && sanitized=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DD2DLEARN_SANITIZED_TESTS=$sanitized
phase_done configure
if [ "$mode" = test ]; then
    cmake --build build -j"$(nproc)"
else
    # The main job needs one program (and the libraries it links); the rest is built by
    # --test, or on demand: cmake --build build [--target NAME].
    cmake --build build -j"$(nproc)" --target fedavg
fi
phase_done build
ccache_stats

if [ "$mode" = test ]; then
    echo "setup.sh: running the tests"
    status=0
    ctest --test-dir build --output-on-failure -j2 2>&1 | tee build/ctest-output.log ||
        status=${PIPESTATUS[0]}
    phase_done tests
    echo "setup.sh: done in $(elapsed "$setup_start") s"
    # CTest's summary again, as the last line: what a reader of the closing lines looks for.
    grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' build/ctest-output.log |
        tail -n 1
    exit $status
fi

echo "setup.sh: running fedavg on its defaults into results/fedavg"
build/bin/fedavg --outDir=results/fedavg
phase_done run
/usr/bin/python3 analysis/plot_rounds.py results/fedavg
phase_done plot
echo "setup.sh: done in $(elapsed "$setup_start") s"
echo "setup.sh: traces in results/fedavg, plots in results/fedavg/plots"
