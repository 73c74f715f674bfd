#!/usr/bin/env bash
# Every member of every published header documented, private and protected ones too, as
# ns-3's doxygen.conf asks (EXTRACT_PRIVATE and WARN_IF_UNDOCUMENTED): Doxygen reads the
# headers with EXTRACT_PRIVATE = YES and writes nothing but its warnings; any warning fails.
# (The API reference that build-doc.sh publishes keeps to the public members: this is a
# check of the headers, not a page.)
#
#   bash doc/tools/doxygen-members.sh DOXYFILE
#
# DOXYFILE: the configured doc/Doxyfile.in (build/doc/Doxyfile). Run by CTest's
# doc-doxygen-members.
set -euo pipefail

doxyfile=${1:?usage: doxygen-members.sh DOXYFILE}
command -v doxygen >/dev/null ||
    { echo "doxygen-members.sh: error: doxygen not found (Debian: doxygen)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ cat "$doxyfile"
  echo "EXTRACT_PRIVATE = YES"
  echo "GENERATE_HTML = NO"
  echo "OUTPUT_DIRECTORY = $tmp/out"
  echo "WARN_LOGFILE = $tmp/warnings.log"; } | doxygen - >"$tmp/doxygen.log" 2>&1 ||
    { tail -n 20 "$tmp/doxygen.log" >&2; echo "doxygen-members.sh: error: doxygen failed" >&2; exit 1; }
n=$(grep -c 'warning:' "$tmp/warnings.log" || true)
if [ "$n" -gt 0 ]; then
    head -n 20 "$tmp/warnings.log" >&2
    echo "doxygen-members.sh: error: $n undocumented or badly documented members (first 20 above)" >&2
    exit 1
fi
echo "doxygen-members.sh: every member of the published headers is documented (EXTRACT_PRIVATE)"
