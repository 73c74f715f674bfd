#!/usr/bin/python3
"""Every page of the built manual fits a 1280 px window: nothing runs past its right edge or
is cut off, unless it is inside a box that scrolls sideways (a wide table, a long command).

    test_html_layout.py HTMLDIR [WIDTH]

Loads every HTML page of HTMLDIR (the Sphinx pages and the Doxygen API reference under
api/), one after the other, in an iframe WIDTH px wide (default 1280) of a headless Chromium
(Debian's chromium, /usr/bin/chromium; setup.sh installs it), and in each measures, after
its style sheets applied:

- the page itself: wider than the window (document scrollWidth > clientWidth) means a
  sideways scroll bar for the whole page, the text column with it;
- every element: its right edge past the window's, with no ancestor that scrolls sideways
  (overflow-x auto or scroll), or past the edge of an ancestor that clips it (overflow-x
  hidden or clip): cut off. Only the outermost such element of a page is reported.

The measurement is a script of a harness page (file://, --allow-file-access-from-files, so
that it reads the iframe's document) that writes its findings into its own DOM, which
--dump-dom prints. Exit status 1 and one line per page that does not fit.
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
function describe(e) {
  let s = e.tagName.toLowerCase();
  if (e.id) s += "#" + e.id;
  if (e.className && typeof e.className === "string") s += "." + e.className.trim().split(/\s+/).join(".");
  const text = (e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 50);
  return s + (text ? " '" + text + "'" : "");
}
function measure(d, w) {
  const vw = d.documentElement.clientWidth;
  const found = [];
  if (d.documentElement.scrollWidth > vw + 1)
    found.push("the page is " + d.documentElement.scrollWidth + " px wide, the window " + vw + " px");
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
    if (verdict && verdict !== "scrolls" && verdict !== "fits") {
      found.push(describe(e) + ": " + verdict);
      reported.push(e);
    }
  }
  return found;
}
function next(i) {
  if (i >= pages.length) {
    document.getElementById("result").textContent = "RESULT " + JSON.stringify(out) + " END";
    return;
  }
  const f = document.getElementById("f");
  f.onload = () => {
    let found;
    try { found = measure(f.contentDocument, f.contentWindow); }
    catch (err) { found = ["not measured: " + err]; }
    out.push([pages[i], found]);
    setTimeout(() => next(i + 1), 0);
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
    for url, found in results:
        page = os.path.relpath(urllib.parse.unquote(url[len("file://"):]), htmldir)
        for line in found:
            errors.append("%s: %s" % (page, line))
    bad = {e.split(":")[0] for e in errors}
    print("test_html_layout: %d pages at %d px, %d measured; %d do not fit"
          % (len(pages), width, len(results), len(bad)))
    if len(results) != len(pages):
        errors.append("%d pages not measured" % (len(pages) - len(results)))
    for e in errors:
        print("test_html_layout: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
