#!/usr/bin/env bash
# Build the manual: the flag reference from the programs' --PrintHelp, the C++ API
# reference with Doxygen, then the HTML with Sphinx, warnings as errors.
#
#   bash doc/tools/build-doc.sh SRCDIR BINDIR OUTDIR [DOXYFILE]
#
# SRCDIR is the repository, BINDIR the folder of the scenario programs (build/bin), OUTDIR
# the output (build/doc: html/, api/, doctrees/). DOXYFILE (configured by CMake from
# doc/Doxyfile.in) names the public headers; without it the API reference is skipped.
# Run by `cmake --build build --target doc` and by the CTest test doc-html.
set -euo pipefail

src=${1:?usage: build-doc.sh SRCDIR BINDIR OUTDIR [DOXYFILE]}
bin=${2:?usage: build-doc.sh SRCDIR BINDIR OUTDIR [DOXYFILE]}
out=${3:?usage: build-doc.sh SRCDIR BINDIR OUTDIR [DOXYFILE]}
doxyfile=${4:-}
PYTHON=/usr/bin/python3

for tool in sphinx-build; do
    command -v "$tool" >/dev/null ||
        { echo "build-doc.sh: error: $tool not found (Debian: python3-sphinx python3-myst-parser)" >&2; exit 1; }
done
# the theme, and the MathJax that doc/conf.py copies into the HTML
"$PYTHON" -c "import furo" 2>/dev/null ||
    { echo "build-doc.sh: error: the Sphinx theme furo not found (Debian: furo)" >&2; exit 1; }
[ -f "${D2DLEARN_MATHJAX_DIR:-/usr/share/javascript/mathjax}/MathJax.js" ] ||
    { echo "build-doc.sh: error: MathJax not found in ${D2DLEARN_MATHJAX_DIR:-/usr/share/javascript/mathjax} (Debian: libjs-mathjax)" >&2; exit 1; }

# 1. Generated pages (git-ignored doc/_generated/): one flag table per program,
"$PYTHON" "$src/doc/tools/gen_flags.py" "$bin" "$src/doc/_generated"
#    and the index of which class or function implements which equation (from the headers)
"$PYTHON" "$src/doc/tools/gen_equations.py" "$src" "$src/doc/_generated/equations.md"

# 2. Doxygen: the public headers only, no graphs, no source browsing (a few seconds).
mkdir -p "$out"
if [ -n "$doxyfile" ]; then
    command -v doxygen >/dev/null ||
        { echo "build-doc.sh: error: doxygen not found (Debian: doxygen)" >&2; exit 1; }
    rm -rf "$out/api"
    { cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $out/api"
      echo "WARN_LOGFILE = $out/doxygen-warnings.log"; } | doxygen - >"$out/doxygen.log" 2>&1 ||
        { tail -n 20 "$out/doxygen.log" >&2; echo "build-doc.sh: error: doxygen failed" >&2; exit 1; }
    # Warnings are errors, as Sphinx's below (WARN_IF_UNDOCUMENTED: every public member).
    if [ -s "$out/doxygen-warnings.log" ]; then
        head -n 20 "$out/doxygen-warnings.log" >&2
        echo "build-doc.sh: error: doxygen warned $(grep -c 'warning:' "$out/doxygen-warnings.log") times ($out/doxygen-warnings.log)" >&2
        exit 1
    fi
    # each flag of its prose kept on one line, as the manual's (doc/conf.py)
    "$PYTHON" "$src/doc/tools/doxygen-flags.py" "$out/api/html" >/dev/null
fi

# 3. Sphinx, every warning an error; -n: a broken cross-reference is a warning too.
sphinx-build -W --keep-going -n -q -b html -d "$out/doctrees" "$src/doc" "$out/html"
if [ -d "$out/api/html" ]; then
    rm -rf "$out/html/api"
    cp -r "$out/api/html" "$out/html/api"
fi
echo "build-doc.sh: manual in $out/html/index.html"
