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

# Debian 12 packages, each with why it is here when that is not obvious.
PACKAGES=(cmake g++ libns3-dev ns3 libgsl-dev libtorch-dev libfmt-dev libboost-dev
          libboost-program-options-dev libgtest-dev dataset-fashion-mnist python3-pandas
          python3-matplotlib slurm-wlm munge
          python3-scipy # analysis/stats.py: Student t quantiles
          libopenblas0-pthread # LibTorch's BLAS (held to 1 thread): the libblas.so.3 alternative
          python3-torch # bench-fedavg's plain PyTorch loop (Debian's build of the same LibTorch)
          make # CMake's build tool: only a Recommends of cmake, so name it
          nlohmann-json3-dev # parses LEAF's JSON data sets (--dataset=leaf); header-only
          python3-sphinx python3-myst-parser # the manual (doc/, Markdown pages): target doc
          chromium # headless: test doc-html-layout loads every page of the manual at 1280 px
          doxygen # the manual's C++ API reference (public headers)
          universal-ctags) # tests/structure.py: function lengths and class members

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

echo "setup.sh: configuring and building in build/"
# --test also builds the torch-free GoogleTest cases with ASan, UBSan and LSan (CTest tests
# sanitize-*); the main job does not need them.
sanitized=OFF
[ "$mode" = test ] && sanitized=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DD2DLEARN_SANITIZED_TESTS=$sanitized
cmake --build build -j"$(nproc)"

if [ "$mode" = test ]; then
    echo "setup.sh: running the tests"
    exec ctest --test-dir build --output-on-failure -j2
fi

echo "setup.sh: running fedavg on its defaults into results/fedavg"
build/bin/fedavg --outDir=results/fedavg
/usr/bin/python3 analysis/plot_rounds.py results/fedavg
echo "setup.sh: traces in results/fedavg, plots in results/fedavg/plots"
