#!/usr/bin/python3
"""Write the manual's equation index from the module's headers: which class or function
implements which equation of which paper.

    gen_equations.py SRCDIR OUTFILE

Reads the Doxygen comments of contrib/d2dlearn/{core,learning}/*/*.h and, for every comment
that cites an equation ("eq. (18)", "eqs. (9)-(12)", "Eq. 6"), the declaration it
documents (a class, a function, a member or enum value) and the paper: the one the comment
names, else the one its class's comment names, else the one of its folder (core/bayes/:
Lalitha et al. 2018, learning/cmfl/: Che et al. 2022, learning/consensus/: Fan et al. 2023,
learning/discovery/ and core/model/: Wagle et al. 2025). Writes a Markdown table per paper, so the index follows the
code: an equation cited in a header appears, one no longer cited disappears.
"""
import os
import re
import sys

EQ = re.compile(r"\b[Ee]qs?\.\s*\(?\d+[a-z]?\)?(?:\s*(?:-|/|,|and|to)\s*\(?\d+[a-z]?\)?)*")
PAPERS = [  # (pattern in a comment, short name); the order decides ties
    (r"Wagle", "Wagle et al. 2025"),
    (r"\bChe\b", "Che et al. 2022"),
    (r"\bFan\b|Mendler", "Fan et al. 2023"),
    (r"Lalitha", "Lalitha et al. 2018"),
    (r"McMahan", "McMahan et al. 2017"),
    (r"Yin et al", "Yin et al. 2018"),
    (r"Blanchard", "Blanchard et al. 2017"),
    (r"Schroff|FaceNet", "Schroff et al. 2015"),
    (r"Kipf", "Kipf and Welling 2017"),
]
FOLDER = {"core/bayes": "Lalitha et al. 2018", "learning/cmfl": "Che et al. 2022",
          "learning/consensus": "Fan et al. 2023", "learning/discovery": "Wagle et al. 2025",
          "core/model": "Wagle et al. 2025"}
TITLES = {
    "Wagle et al. 2025": 'Wagle, Das, Love and Brinton, "Multi-Agent Reinforcement Learning '
                         'for Graph Discovery in D2D-Enabled Federated Learning", 2025',
    "Che et al. 2022": 'Che, Li, Chen, He and Zheng, "A Decentralized Federated Learning '
                       'Framework via Committee Mechanism with Convergence Guarantee", 2022',
    "Fan et al. 2023": 'Fan, Mendler-Dünner and Jaggi, "Collaborative Learning via '
                       'Prediction Consensus", 2023',
    "Lalitha et al. 2018": 'Lalitha, Shekhar, Javidi and Koushanfar, "Fully Decentralized '
                           'Federated Learning", 2018',
    "McMahan et al. 2017": 'McMahan et al., "Communication-Efficient Learning of Deep '
                           'Networks from Decentralized Data", 2017',
    "Schroff et al. 2015": 'Schroff et al., "FaceNet: A Unified Embedding for Face '
                           'Recognition and Clustering", 2015',
    "Kipf and Welling 2017": 'Kipf and Welling, "Semi-Supervised Classification with Graph '
                             'Convolutional Networks", 2017',
    "other": "Not attributed: the comment names no paper and its folder belongs to none "
             "(read the header)",
}


def paper_of(text):
    for pattern, name in PAPERS:
        if re.search(pattern, text):
            return name
    return None


def declaration(lines, i):
    """The symbol declared at or after line i (a class, function, member)."""
    for line in lines[i:i + 8]:
        s = line.strip()
        if not s or s.startswith(("/*", "*", "//", "template", "#")):
            continue
        m = re.match(r"(?:class|struct)\s+(\w+)", s)
        if m:
            return m.group(1), "class"
        m = re.search(r"(~?\w+)\s*\(", s)
        if m and m.group(1) not in ("if", "for", "while", "return", "sizeof"):
            return m.group(1) + "()", "function"
        m = re.match(r"(?:[\w:<>,\s\*&]+\s)?(\w+)\s*(?:[{=;\[,]|$)", s)
        if m:
            return m.group(1), "member"
    return None, None


def scan(path, folder):
    lines = open(path, encoding="utf-8").read().split("\n")
    rows, klass, class_paper, file_paper = [], None, None, None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*(?:class|struct)\s+(\w+)\b(?!;)", line)
        if m and not line.rstrip().endswith(";"):
            klass = m.group(1)
        trailing = re.search(r"//!<\s*(.*)$", line)
        if trailing and EQ.search(trailing.group(1)):
            names = re.findall(r"\w+", line.split("//!<")[0].split("=")[0].split("{")[0])
            name = names[-1] if names else "?"
            rows.append((klass, name, trailing.group(1), class_paper or file_paper))
        if line.strip().startswith("/**"):
            j = i
            block = []
            while j < len(lines):
                block.append(lines[j])
                if "*/" in lines[j]:
                    break
                j += 1
            text = " ".join(l.strip().lstrip("/*").strip() for l in block).replace("*/", "")
            sym, kind = declaration(lines, j + 1)
            p = paper_of(text)
            if kind == "class":
                class_paper = p or class_paper
                file_paper = file_paper or p
            if EQ.search(text) and sym:
                owner = None if kind == "class" else klass
                if kind == "class":
                    klass = sym
                rows.append((owner, sym, text, p or class_paper or file_paper))
            i = j + 1
            continue
        i += 1
    out = []
    for owner, sym, text, p in rows:
        eqs = []
        for m in EQ.finditer(text):
            e = re.sub(r"\s+", " ", m.group(0)).rstrip(",")
            if e.count(")") > e.count("("):
                e = e.rstrip(")")
            if e not in eqs:
                eqs.append(e)
        # the words around the first equation cited: what the code says it computes
        plain = re.sub(r"\\(ingroup \w+|brief|param|return|tparam|f\$)\s*", "", text)
        plain = re.sub(r"\s+", " ", plain).strip()
        m = EQ.search(plain)
        a, b = max(0, m.start() - 110), min(len(plain), m.end() + 50)
        a = plain.rfind(" ", 0, a) + 1 if a > 0 else 0
        b = plain.find(" ", b) if plain.find(" ", b) != -1 else len(plain)
        brief = ("..." if a > 0 else "") + plain[a:b] + ("..." if b < len(plain) else "")
        qual = "%s::%s" % (owner, sym) if owner and owner != sym else sym
        out.append((p or FOLDER.get(folder, "other"), ", ".join(eqs), qual, brief))
    return out


def cell(text):
    return (text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")
            .replace("_", "\\_").replace("<", "\\<"))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src, outfile = argv[1], argv[2]
    module = os.path.join(src, "contrib", "d2dlearn")
    rows = []
    for library in ("core", "learning"):
        for sub in sorted(os.listdir(os.path.join(module, library))):
            folder = "%s/%s" % (library, sub)
            d = os.path.join(module, folder)
            if not os.path.isdir(d):
                continue
            for name in sorted(os.listdir(d)):
                if name.endswith(".h"):
                    for r in scan(os.path.join(d, name), folder):
                        rows.append(r + ("%s/%s" % (folder, name),))
    order = list(TITLES) + sorted({r[0] for r in rows} - set(TITLES))
    out = ["<!-- Generated by doc/tools/gen_equations.py from the headers; do not edit. -->", ""]
    for paper in order:
        sel = [r for r in rows if r[0] == paper]
        if not sel:
            continue
        out += ["**%s** (%d):" % (TITLES.get(paper, paper), len(sel)), "",
                "| equations | implemented by | header | what its comment says, around the first |",
                "|---|---|---|---|"]
        for _, eqs, qual, header, brief in [(r[0], r[1], r[2], r[4], r[3]) for r in sel]:
            out.append("| %s | `%s` | `%s` | %s |" % (cell(eqs), qual, header,
                                                     cell(brief)))
        out.append("")
    os.makedirs(os.path.dirname(os.path.abspath(outfile)), exist_ok=True)
    with open(outfile + ".tmp", "w") as f:
        f.write("\n".join(out))
    os.replace(outfile + ".tmp", outfile)
    print("gen_equations.py: %d citations of equations in %s" % (len(rows), outfile))


if __name__ == "__main__":
    main(sys.argv)
