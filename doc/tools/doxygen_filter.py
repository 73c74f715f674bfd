#!/usr/bin/python3
"""Doxygen's INPUT_FILTER for the public headers (doc/Doxyfile.in): keep a flag a flag.

    doxygen_filter.py HEADER      (writes the header to stdout, as Doxygen reads it)

Doxygen renders "--" in comment text as an en dash, so `--rssFile` in a comment became
"–rssFile" in the API reference, which a shell refuses when pasted. This writes "\\--"
(Doxygen's escape for a literal double dash) before a name in comment text; code, `code
spans`, \\code and \\verbatim blocks are left as they are (Doxygen does not touch them, and the
escape would show there), nor "quotations" and <code> (read as written too). Only what Doxygen parses changes: the headers do not, and the
header listings of the reference show them as written (FILTER_SOURCE_FILES stays NO).
"""
import re
import sys

DASHES = re.compile(r"(?<![-\\\w])--(?=[A-Za-z])")
VERBATIM = re.compile(r"[\\@](code|verbatim|f\[)|[\\@](endcode|endverbatim|f\])")


OPEN = {'"': '"', "`": "`", "<code>": "</code>", "<tt>": "</tt>"}
SPAN = re.compile(r'"|`|<code>|<tt>')


def escape_text(text, state):
    """Comment text: escape outside `spans`, "quotes", <code> and verbatim blocks, which
    Doxygen reads as written; a span or block may go on over the next lines (state)."""
    out, pos = [], 0
    while pos < len(text):
        if state["open"]:  # inside a span: up to its end, as it is
            end = text.find(state["open"], pos)
            if end < 0:
                out.append(text[pos:])
                break
            out.append(text[pos:end + len(state["open"])])
            pos, state["open"] = end + len(state["open"]), None
            continue
        m = SPAN.search(text, pos)
        stop = m.start() if m else len(text)
        out.append(escape_plain(text[pos:stop], state))
        if not m:
            break
        out.append(m.group(0))
        pos, state["open"] = m.end(), OPEN[m.group(0)]
    return "".join(out)


def escape_plain(part, state):
    """Text outside spans: escape, but not within \\code or \\verbatim blocks."""
    pieces, pos = [], 0
    for m in VERBATIM.finditer(part):
        piece = part[pos:m.end()]
        pieces.append(piece if state["verbatim"] else DASHES.sub(r"\\--", piece))
        state["verbatim"] = bool(m.group(1))
        pos = m.end()
    rest = part[pos:]
    pieces.append(rest if state["verbatim"] else DASHES.sub(r"\\--", rest))
    return "".join(pieces)


def filter_source(source):
    out, state = [], {"verbatim": False, "open": None}
    in_block = False
    for line in source.split("\n"):
        res, pos = [], 0
        while pos < len(line):
            if in_block:
                end = line.find("*/", pos)
                stop = len(line) if end < 0 else end
                res.append(escape_text(line[pos:stop], state))
                if end < 0:
                    pos = len(line)
                else:
                    res.append("*/")
                    pos, in_block, state["open"] = end + 2, False, None
                continue
            # code: up to the next comment, skipping string literals
            m = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*|//').search(line, pos)
            if not m:
                res.append(line[pos:])
                break
            if m.group(0) == "//":
                res.append(line[pos:m.end()])
                res.append(escape_text(line[m.end():], state))
                break
            if m.group(0) == "/*":
                res.append(line[pos:m.end()])
                pos, in_block = m.end(), True
                continue
            res.append(line[pos:m.end()])  # a string literal
            pos = m.end()
        out.append("".join(res))
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as f:
        sys.stdout.write(filter_source(f.read()))


if __name__ == "__main__":
    main(sys.argv)
