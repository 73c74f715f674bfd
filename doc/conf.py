# Sphinx configuration of the d2dlearn manual (built by `cmake --build build --target doc`,
# which runs sphinx-build -W: a warning fails the build).
import os
import re

from sphinx.writers.html5 import HTML5Translator

project = "d2dlearn"
author = "the d2dlearn authors"
copyright = "the d2dlearn authors"
version = release = os.environ.get("D2DLEARN_VERSION", "0.1.0")

# MyST: the pages are Markdown (Debian's python3-myst-parser), so that text moved from the
# old README stays as it was written; the model-library chapter is reStructuredText.
extensions = ["myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# No typographic replacement on any page: docutils' smart quotes would render `--flag` as an
# en dash ("–flag", which a shell refuses when pasted) and straighten nothing a reader needs.
# MyST's own "smartquotes" and "replacements" extensions stay off for the same reason
# (tests/doc/test_html_flags.py copies every flag out of the HTML).
smartquotes = False

exclude_patterns = ["_build", "_static", "tools", "README.md"]

# Theme: furo (Debian's furo package, 2022.12.07 in bookworm), chosen over Debian's other
# maintained theme, python3-pydata-sphinx-theme, whose 0.7.2 (2021) is far behind its
# upstream and lays the text out in fixed Bootstrap columns. Furo wraps every table in a box
# that scrolls sideways as a whole (div.table-wrapper), has search, the page's contents and
# a dark mode without extensions, and its text column is one CSS rule (.content), which
# _static/d2dlearn.css widens: furo's own is 46em, 736 px, the width that squeezed the flag
# tables of reference/flags.md.
html_theme = "furo"
html_title = "d2dlearn %s manual" % release
# _static/d2dlearn.css: a wider text column, table columns never narrower than their longest
# word, inline code that breaks only between words (tests/doc/test_html_layout.py loads
# every page at 1280 px and measures both)
html_static_path = ["_static"]
html_css_files = ["d2dlearn.css"]
html_show_sourcelink = False
# The Doxygen API reference is copied next to the HTML by the build (reference/api.md).
html_extra_path = [p for p in [os.environ.get("D2DLEARN_DOXYGEN_HTML", "")] if p]

# Formulas (the model library's eq. (18), the CMFL rules): MathJax from Debian's
# libjs-mathjax (MathJax 2.7), copied into the manual's _static/mathjax/ when the build
# ends, so that they are typeset offline; Sphinx's default loads MathJax 3 from a CDN, and
# without a network the reader saw raw TeX. SVG output: its glyphs are JavaScript files, no
# web font that a browser may refuse to load from file://. Only what this configuration
# loads is copied (about 2.5 MB of the package's 54 MB).
MATHJAX_DIR = os.environ.get("D2DLEARN_MATHJAX_DIR", "/usr/share/javascript/mathjax")
MATHJAX_FILES = ["MathJax.js", "config/TeX-AMS_SVG.js", "extensions", "jax/element",
                 "jax/input/TeX", "jax/output/SVG/config.js", "jax/output/SVG/jax.js",
                 "jax/output/SVG/autoload", "jax/output/SVG/fonts/TeX"]
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_SVG"
mathjax2_config = {
    # only what Sphinx marks as a formula, in its delimiters (no $, which prose uses)
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": False, "ignoreClass": "tex2jax_ignore|highlight|literal",
                "processClass": "math"},
    "SVG": {"font": "TeX"},
    "messageStyle": "none",
}


# Debian's furo.css imports normalize.css from /javascript/normalize.css/ (javascript-common's
# path on a Debian web server; upstream's furo.css has it built in): from a folder (file://)
# or another server that is no file, and headings, code and form fields lose their reset.
NORMALIZE_CSS = "/usr/share/javascript/normalize.css/normalize.css"
NORMALIZE_IMPORT = "@import url(/javascript/normalize.css/normalize.css);"


def copy_local_assets(app, exception):
    """Copies MATHJAX_FILES of MATHJAX_DIR into the HTML's _static/mathjax/, and Debian's
    normalize.css beside furo.css, which imports it from there."""
    import shutil
    if exception is not None or app.builder.format != "html":
        return
    furo_css = os.path.join(app.outdir, "_static", "styles", "furo.css")
    if os.path.isfile(furo_css) and os.path.isfile(NORMALIZE_CSS):
        with open(furo_css, encoding="utf-8") as f:
            text = f.read()
        if NORMALIZE_IMPORT in text:
            shutil.copyfile(NORMALIZE_CSS, os.path.join(os.path.dirname(furo_css), "normalize.css"))
            with open(furo_css, "w", encoding="utf-8") as f:
                f.write(text.replace(NORMALIZE_IMPORT, "@import url(normalize.css);"))
    dest = os.path.join(app.outdir, "_static", "mathjax")
    for name in MATHJAX_FILES:
        src = os.path.join(MATHJAX_DIR, name)
        out = os.path.join(dest, name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, out, dirs_exist_ok=True)
        else:
            shutil.copyfile(src, out)


# Flags, qualified names and long lists in the HTML (tests/doc/test_html_layout.py measures
# them):
# - a flag in prose (--backend=wifi, not in code) is put in a span.flag that does not break
#   (_static/d2dlearn.css): a browser would break it after its "--"; a qualified name in
#   prose gets a <wbr> after each "::";
# - an inline literal is a span.pre per word, which never breaks; a long word of a literal
#   that is a comma-separated list and no flag (a CSV header of 150 characters) becomes one
#   span.pre per item, with a <wbr> after each comma, so that it breaks only there.
FLAG_IN_PROSE = re.compile(r"(?<![\w\-])(--[A-Za-z][\w.:\-]*(?:=[^\s,;()\[\]<&]*)?)")
# a qualified name in prose (ns3::D2dSemiDecentralizedFl::ExchangesPerRound, 380 px wide) may
# break after its "::", as in the C++ references; in code it never breaks
QUALIFIED = re.compile(r"::(?=[A-Za-z])")
LONG_LIST = 40  # characters of a literal's word from which it may break after its commas


class D2dTranslator(HTML5Translator):
    def visit_Text(self, node):
        start = len(self.body)
        super().visit_Text(node)
        for i in range(start, len(self.body)):
            part = self.body[i]
            if not self.protect_literal_text:
                # odd pieces: the flags
                pieces = FLAG_IN_PROSE.split(part)
                self.body[i] = "".join('<span class="flag">%s</span>' % p if k % 2 else
                                       QUALIFIED.sub("::<wbr>", p)
                                       for k, p in enumerate(pieces))
                continue
            m = re.fullmatch(r'<span class="pre">(.*)</span>', part)
            if m and len(m.group(1)) >= LONG_LIST and "," in m.group(1) \
                    and not m.group(1).startswith("-"):
                items = re.findall(r"[^,]*,|[^,]+$", m.group(1))
                self.body[i] = "<wbr>".join('<span class="pre">%s</span>' % item
                                            for item in items)


def setup(app):
    app.set_translator("html", D2dTranslator)
    if not os.path.isfile(os.path.join(MATHJAX_DIR, "MathJax.js")):
        raise RuntimeError("doc/conf.py: MathJax not found in %s (Debian: libjs-mathjax; "
                           "setup.sh --test installs it)" % MATHJAX_DIR)
    app.connect("build-finished", copy_local_assets)
