#!/usr/bin/python3
"""Keep each flag of the Doxygen API reference's prose on one line.

    doxygen-flags.py HTMLDIR

Doxygen writes a flag that a comment names (--PrintAttributes, --ns3::Class::Attribute=value)
as plain text, which a browser breaks after its "--". This puts each such flag of the text
of every page of HTMLDIR (not of a tag's attributes, nor of a script or a style sheet) in a
span.flag, which doc/_static/doxygen-wide.css keeps on one line, as doc/conf.py does for the
manual's pages (tests/doc/test_html_layout.py measures both). Run by doc/tools/build-doc.sh.
"""
import glob
import os
import re
import sys

FLAG = re.compile(r"(?<![\w\-])(--[A-Za-z][\w.:\-]*(?:=[^\s,;()\[\]<&]*)?)")
PARTS = re.compile(r"(<script\b.*?</script>|<style\b.*?</style>|<[^>]*>)", re.S | re.I)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    changed = 0
    for path in glob.glob(os.path.join(argv[1], "*.html")):
        if path.endswith("_source.html"):  # a header's listing: C++ (--i), not prose
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        parts = PARTS.split(text)
        # even parts: text between tags; odd: a tag, a script or a style sheet
        new = "".join(p if i % 2 else FLAG.sub(r'<span class="flag">\1</span>', p)
                      for i, p in enumerate(parts))
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            changed += 1
    print("doxygen-flags.py: flags kept on one line in %d pages" % changed)


if __name__ == "__main__":
    main(sys.argv)
