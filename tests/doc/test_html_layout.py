#!/usr/bin/python3
"""Every page of the built manual reads in a 1280 px window: nothing runs past its right edge
or is cut off, no table column is narrower than its longest word, no flag or identifier in
code is split across lines, and every formula is typeset, offline.

    test_html_layout.py HTMLDIR [WIDTH]

Loads every HTML page of HTMLDIR (the Sphinx pages and the Doxygen API reference under
api/), one after the other, in an iframe WIDTH px wide (default 1280) of a headless Chromium
(Debian's chromium, /usr/bin/chromium; setup.sh installs it), and in each measures, after
its style sheets applied:

- the page itself: wider than the window (document scrollWidth > clientWidth) means a
  sideways scroll bar for the whole page, the text column with it;
- every element: its right edge past the window's, with no ancestor that scrolls sideways
  (overflow-x auto or scroll), or past the edge of an ancestor that clips it (overflow-x
  hidden or clip): cut off. Only the outermost such element of a page is reported;
- every table cell (td, th): each of its words on one line and inside the cell, that is the
  cell at least as wide as its longest word. A word is what lies between white space; in
  prose (not code) a line may also end where a typesetter breaks one: after a hyphen, a
  dash or a slash (semi-|decentralized), after the "::" of a qualified name, between a
  closing and an opening bracket; in code only after a comma of a list (a CSV header), so
  never inside a flag or an identifier (c|i|f|a|r|1|0, --|alg|ori|thm);
- every code span and block: no flag (--name, --name=value) over two lines, and no word of
  an inline code span (an identifier, a path) over two lines, in a table or not;
- a page with formulas (Sphinx's .math): MathJax loaded from the manual's own folder (not a
  CDN: the manual is read offline), each formula typeset (MathJax's output in it), and no
  raw TeX (\\( \\[ $$) left in the text outside code once MathJax is done (it is waited for,
  at most 30 s of the page's time).

The measurement is a script of a harness page (file://, --allow-file-access-from-files, so
that it reads the iframe's document) that writes its findings into its own DOM, which
--dump-dom prints. Exit status 1 and one line per finding (at most 5 of each kind a page,
then their count), and a summary: pages measured, pages and table cells that fail.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

CHROMIUM = "/usr/bin/chromium"

HARNESS = r"""<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="f" style="width:%(width)dpx;height:900px;border:0"></iframe>
<pre id="result"></pre>
<script>
const pages = %(pages)s;
const out = [];
const MAX_SHOWN = 5;  // findings of one kind shown a page; the rest counted
function describe(e) {
  let s = e.tagName.toLowerCase();
  if (e.id) s += "#" + e.id;
  if (e.className && typeof e.className === "string") s += "." + e.className.trim().split(/\s+/).join(".");
  const text = (e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 50);
  return s + (text ? " '" + text + "'" : "");
}
function short(t, n) {
  t = t.trim().replace(/\s+/g, " ");
  return t.length > n ? t.slice(0, n) + "..." : t;
}
// Inside a drawer that the theme keeps outside the window until a button opens it (furo's
// contents beside the page below 82em: position fixed, right -15em): not on the screen.
function offCanvas(e, w) {
  const vw = w.document.documentElement.clientWidth;
  for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
    if (w.getComputedStyle(a).position !== "fixed") continue;
    const r = a.getBoundingClientRect();
    if (r.left >= vw - 1 || r.right <= 1) return true;
  }
  return false;
}
// The page as a whole, and each element: nothing past the window or cut off.
function measureOverflow(d, w, found) {
  const vw = d.documentElement.clientWidth;
  if (d.documentElement.scrollWidth > vw + 1)
    found.push(["page", "the page is " + d.documentElement.scrollWidth + " px wide, the window " + vw + " px"]);
  const reported = [], overflow = new Map();
  const ox = a => {
    if (!overflow.has(a)) overflow.set(a, w.getComputedStyle(a).overflowX);
    return overflow.get(a);
  };
  for (const e of d.body.querySelectorAll("*")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (reported.some(p => p.contains(e))) continue;
    const right = r.right + w.scrollX;
    let a = e.parentElement, verdict = null;
    while (a && a !== d.documentElement) {
      const o = ox(a);
      if (o === "auto" || o === "scroll") { verdict = "scrolls"; break; }
      if (o === "hidden" || o === "clip") {
        const ar = a.getBoundingClientRect();
        if (r.right > ar.right + 1)
          verdict = "cut off at " + Math.round(ar.right + w.scrollX) + " px by " + describe(a).split(" ")[0];
        else verdict = "fits";
        break;
      }
      a = a.parentElement;
    }
    if (verdict === null && right > vw + 1)
      verdict = "runs to " + Math.round(right) + " px, past the window's " + vw + " px";
    if (verdict && verdict !== "scrolls" && verdict !== "fits" && !offCanvas(e, w)) {
      found.push(["overflow", describe(e) + ": " + verdict]);
      reported.push(e);
    }
  }
}
// The number of lines that a range's boxes lie on (boxes that overlap vertically share one).
function lineCount(rects) {
  const rs = Array.from(rects).filter(r => r.width > 0 || r.height > 0).sort((a, b) => a.top - b.top);
  let n = 0, bottom = -Infinity;
  for (const r of rs) {
    if (r.top >= bottom - 1) { n++; bottom = r.bottom; }
    else bottom = Math.max(bottom, r.bottom);
  }
  return n;
}
function rangeOf(d, node, start, end) {
  const r = d.createRange();
  r.setStart(node, start);
  r.setEnd(node, end);
  return r;
}
const CODE = "code, pre, kbd, samp, tt";
const SKIP = "script, style, .MathJax, .MathJax_SVG, .MathJax_CHTML, .MathJax_Display, .MathJax_SVG_Display, .MathJax_Preview, mjx-container";
// The boxes of a text node's lines (a range over elements would give the elements' boxes
// too: a paragraph's one box over all its lines).
function nodeRects(d, n) {
  const r = d.createRange();
  r.selectNodeContents(n);
  return r.getClientRects();
}
function textNodes(d, root, blank) {
  const walker = d.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if ((blank || n.data.trim()) && !n.parentElement.closest(SKIP)) nodes.push(n);
  return nodes;
}
// The words of a text node, [start, end) each: what lies between white space. In prose a
// typesetter may also end a line after a hyphen, a dash or a slash (one that starts the
// word stays with it: --flag), after the "::" of a qualified name (ns3::D2dChannel::RangeM:
// conf.py's <wbr>) or between a closing and an opening bracket ("(2^r - 1)(sigma^2"); code
// after a comma of a list (a CSV header: conf.py's <wbr>), and never inside a flag.
function words(text, inCode) {
  const out = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const w = m[0];
    let from = 0, seen = false;  // seen: a character that is no dash or slash
    for (let i = 1; i < w.length; i++) {
      const p = w[i - 1], c = w[i];
      if (!"-/\u2013\u2014".includes(p)) seen = true;
      const cut = inCode ? p === "," && c !== ","
                         : ("-/\u2013\u2014".includes(p) && seen && !"-/\u2013\u2014".includes(c)) ||
                           (p === ":" && i >= 2 && w[i - 2] === ":" && c !== ":") ||
                           (")]".includes(p) && "([".includes(c));
      if (cut) { out.push([m.index + from, m.index + i]); from = i; }
    }
    out.push([m.index + from, m.index + w.length]);
  }
  return out;
}
// Each table cell: every word on one line and inside the cell.
function measureCells(d, w, found, counts) {
  for (const cell of d.body.querySelectorAll("td, th")) {
    const cr = cell.getBoundingClientRect();
    if (cr.width === 0 || cr.height === 0) continue;
    if (cell.querySelector("td, th")) continue;  // a cell holding a table: its own cells are measured
    if (offCanvas(cell, w)) continue;
    counts.cells++;
    const overflows = cell.scrollWidth > cell.clientWidth + 1;
    let bad = null;
    for (const n of textNodes(d, cell)) {
      // a word is split only in a text node over two lines or more
      if (!overflows && lineCount(nodeRects(d, n)) <= 1) continue;
      for (const [s, e] of words(n.data, !!n.parentElement.closest(CODE))) {
        const word = n.data.slice(s, e);
        const r = rangeOf(d, n, s, e);
        const lines = lineCount(r.getClientRects());
        const br = r.getBoundingClientRect();
        if (lines > 1) { bad = "'" + short(word, 40) + "' split over " + lines + " lines"; break; }
        if (overflows && (br.right > cr.right + 1 || br.left < cr.left - 1)) {
          bad = "'" + short(word, 40) + "' (" + Math.round(br.width) + " px) runs past the cell";
          break;
        }
      }
      if (bad) break;
    }
    if (bad) {
      counts.badCells++;
      found.push(["cell", "table cell '" + short(cell.textContent, 40) + "' (" + Math.round(cr.width) + " px): " + bad]);
    }
  }
}
// Flags in code (--name, --name=value) and the words of inline code: on one line each.
const FLAG = /(^|[^\w\-])(--[A-Za-z][\w.:\-]*(=\S*)?)/g;
function measureCode(d, w, found) {
  for (const c of d.body.querySelectorAll(CODE)) {
    if (c.parentElement.closest(CODE)) continue;  // measured with its outermost code element
    const cr = c.getBoundingClientRect();
    if (cr.width === 0 || cr.height === 0) continue;
    const inline = c.tagName !== "PRE" && !c.closest("pre");
    if (inline && c.closest(".toc-drawer") && offCanvas(c, w)) continue;
    const nodes = textNodes(d, c, true);  // the spaces between Sphinx's span.pre words too
    if (!nodes.length || lineCount(nodes.flatMap(n => Array.from(nodeRects(d, n)))) <= 1) continue;
    // the element's text as one string, and each character's text node and offset
    let text = "";
    const at = [];
    for (const n of nodes) { at.push([text.length, n]); text += n.data; }
    const locate = i => {
      let k = 0;
      while (k + 1 < at.length && at[k + 1][0] <= i) k++;
      return [at[k][1], i - at[k][0]];
    };
    const span = (s, e) => {
      const r = d.createRange();
      const [sn, so] = locate(s), [en, eo] = locate(e - 1);
      r.setStart(sn, so);
      r.setEnd(en, eo + 1);
      return r;
    };
    FLAG.lastIndex = 0;
    for (let m = FLAG.exec(text); m; m = FLAG.exec(text)) {
      const s = m.index + m[1].length, e = s + m[2].length;
      if (lineCount(span(s, e).getClientRects()) > 1)
        found.push(["flag", "flag '" + short(m[2], 50) + "' split over two lines"]);
    }
    if (!inline) continue;
    for (const [s, e] of words(text, true)) {
      if (/^--[A-Za-z]/.test(text.slice(s))) continue;  // a flag (or a piece of one): above
      if (lineCount(span(s, e).getClientRects()) > 1)
        found.push(["code", "code '" + short(text.slice(s, e), 50) + "' split over two lines"]);
    }
  }
}
// Formulas: MathJax from the manual's own folder, each typeset, no raw TeX left.
const OUTPUT = ".MathJax, .MathJax_SVG, .MathJax_CHTML, .MathJax_SVG_Display, .MathJax_Display, mjx-container";
function mathState(d) {
  const maths = Array.from(d.body.querySelectorAll(".math"));
  const typeset = maths.filter(m => m.querySelector(OUTPUT)).length;
  const raw = [];
  for (const n of textNodes(d, d.body)) {
    if (n.parentElement.closest(CODE)) continue;
    const k = n.data.search(/\\\(|\\\[|\$\$/);
    if (k >= 0) raw.push(n.data.slice(k, k + 40));
  }
  return {maths: maths.length, typeset: typeset, raw: raw};
}
function measureMath(d, w, found) {
  const st = mathState(d);
  if (st.maths === 0 && st.raw.length === 0) return;
  const scripts = Array.from(d.querySelectorAll("script[src]")).map(s => s.getAttribute("src"))
                  .filter(s => /mathjax/i.test(s));
  if (st.maths && !scripts.length) found.push(["math", "formulas but no MathJax script"]);
  for (const s of scripts)
    if (/^(https?:)?\/\//.test(s)) found.push(["math", "MathJax from the network: " + s]);
  if (st.typeset < st.maths)
    found.push(["math", (st.maths - st.typeset) + " of " + st.maths + " formulas not typeset"]);
  for (const t of st.raw) found.push(["math", "raw TeX in the text: '" + short(t, 40) + "'"]);
}
function measure(d, w) {
  const found = [], counts = {cells: 0, badCells: 0};
  measureOverflow(d, w, found);
  measureCells(d, w, found, counts);
  measureCode(d, w, found);
  measureMath(d, w, found);
  // at most MAX_SHOWN findings of each kind, then their count
  const byKind = new Map();
  for (const [k, t] of found) { if (!byKind.has(k)) byKind.set(k, []); byKind.get(k).push(t); }
  const shown = [];
  for (const [k, ts] of byKind) {
    shown.push(...ts.slice(0, MAX_SHOWN));
    if (ts.length > MAX_SHOWN) shown.push("... and " + (ts.length - MAX_SHOWN) + " more of kind " + k);
  }
  return {found: shown, kinds: Object.fromEntries(Array.from(byKind, ([k, ts]) => [k, ts.length])),
          cells: counts.cells, badCells: counts.badCells};
}
// A page with formulas is measured once MathJax is done (or after 30 s of its time).
function whenTypeset(d, then, waited) {
  const st = mathState(d);
  if (st.maths === 0 || (st.typeset === st.maths && st.raw.length === 0) || waited >= 30000)
    return then();
  setTimeout(() => whenTypeset(d, then, waited + 100), 100);
}
function next(i) {
  if (i >= pages.length) {
    document.getElementById("result").textContent = "RESULT " + JSON.stringify(out) + " END";
    return;
  }
  const f = document.getElementById("f");
  f.onload = () => {
    const done = () => {
      let res;
      try { res = measure(f.contentDocument, f.contentWindow); }
      catch (err) { res = {found: ["not measured: " + err], kinds: {error: 1}, cells: 0, badCells: 0}; }
      out.push([pages[i], res]);
      setTimeout(() => next(i + 1), 0);
    };
    try { whenTypeset(f.contentDocument, done, 0); } catch (err) { done(); }
  };
  f.src = pages[i];
}
next(0);
</script></body></html>
"""


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    htmldir = os.path.abspath(argv[1])
    width = int(argv[2]) if len(argv) == 3 else 1280
    if not os.access(CHROMIUM, os.X_OK):
        print("test_html_layout: %s not found (Debian: apt-get install chromium; setup.sh "
              "installs it)" % CHROMIUM, file=sys.stderr)
        return 1
    pages = sorted(p for p in glob.glob(os.path.join(htmldir, "**", "*.html"), recursive=True)
                   if "/_static/" not in p and "/_sources/" not in p)
    if not pages:
        print("test_html_layout: no HTML page under %s (build the manual first)" % htmldir,
              file=sys.stderr)
        return 1
    urls = ["file://" + urllib.parse.quote(p) for p in pages]
    tmp = tempfile.mkdtemp(prefix="d2dlearn-html-layout.")
    try:
        harness = os.path.join(tmp, "harness.html")
        with open(harness, "w", encoding="utf-8") as f:
            f.write(HARNESS % {"width": width, "pages": json.dumps(urls)})
        proc = subprocess.run(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage",  # a container's small /dev/shm
             "--allow-file-access-from-files", "--user-data-dir=" + os.path.join(tmp, "profile"),
             "--window-size=%d,1000" % (width + 40), "--virtual-time-budget=600000",
             "--dump-dom", "file://" + urllib.parse.quote(harness)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    m = re.search(r"RESULT (.*) END", proc.stdout)
    if not m:
        print("test_html_layout: Chromium gave no measurement (exit %d): %s"
              % (proc.returncode, proc.stderr.strip()[-300:]), file=sys.stderr)
        return 1
    import html
    results = json.loads(html.unescape(m.group(1)))
    errors = []
    cells = bad_cells = 0
    kinds = {}
    for url, res in results:
        page = os.path.relpath(urllib.parse.unquote(url[len("file://"):]), htmldir)
        cells += res["cells"]
        bad_cells += res["badCells"]
        for kind, n in res["kinds"].items():
            kinds.setdefault(kind, set()).add(page)
        for line in res["found"]:
            errors.append((page, line))
    bad = {page for page, _ in errors}
    print("test_html_layout: %d pages at %d px, %d measured; %d do not read well; "
          "%d of %d table cells narrower than a word of theirs"
          % (len(pages), width, len(results), len(bad), bad_cells, cells))
    names = {"page": "wider than the window", "overflow": "something cut off or past the window",
             "cell": "a table cell narrower than a word", "flag": "a flag split over two lines",
             "code": "an inline code word split", "math": "a formula not typeset offline",
             "error": "not measured"}
    for kind in sorted(kinds):
        print("test_html_layout: %d pages with %s" % (len(kinds[kind]), names.get(kind, kind)))
    if len(results) != len(pages):
        errors.append(("", "%d pages not measured" % (len(pages) - len(results))))
    for page, line in errors:
        print("test_html_layout: %s: %s" % (page, line), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
