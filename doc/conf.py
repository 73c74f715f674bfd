# Sphinx configuration of the d2dlearn manual (built by `cmake --build build --target doc`,
# which runs sphinx-build -W: a warning fails the build).
import os

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
html_theme = "alabaster"
# _static/d2dlearn.css: wide tables and commands scroll sideways in the text column
# (tests/doc/test_html_layout.py loads every page at 1280 px)
html_static_path = ["_static"]
html_css_files = ["d2dlearn.css"]
html_show_sourcelink = False
# The Doxygen API reference is copied next to the HTML by the build (reference/api.md).
html_extra_path = [p for p in [os.environ.get("D2DLEARN_DOXYGEN_HTML", "")] if p]
