#!/usr/bin/python3
"""Every `--flag` of the built manual, copied as a reader copies it, is a flag of the program
it is given to.

    test_html_flags.py HTMLDIR BINDIR

Reads every page of the built HTML (HTMLDIR, e.g. build/doc/html; the Doxygen API reference
under api/ too) as a browser's copy gives it: the text content of the body, entities
decoded, without scripts and styles. In that text:

- a dash other than the hyphen-minus before a flag name ("–rounds", "—rounds": typographic
  replacement of "--", by Sphinx's smart quotes or Doxygen) fails: pasted into a shell it is
  no flag;
- in a command (a line of a command block, continuation lines joined, or an inline code
  span; split at |, ;, && and parentheses), each argument that is a `--flag`, as the shell
  splits the line (quotes respected: '--extra=--a=1 --b=2' is one argument of the command's
  own), must be a flag of the command's program: its first word after VAR=value settings
  and wrappers (sudo, python3, bash, ...). A program is a binary of BINDIR (checked against
  its `--PrintHelp`), setup.sh, or a Python script of analysis/, bench/, doc/tools/ or
  examples/models/ (its argparse `--help`, with each sub-command's). A command of another
  tool (cmake, ctest, ./ns3, ...) is counted, not checked;
- in prose (the other text; its code spans are commands), a `--flag` must be a flag of a
  program that a command of the manual runs or of one named beside it or on the page, or
  of a tool the page names (EXTERNAL); ns-3's `--ns3::...` attributes and global values
  (--RngRun) are the programs' own.

Doxygen's header listings (api/*_source.html, C++ code: --i) are checked for dashes only.
Exit status 1 and one line per failure (page, the copied token, its context).
"""
import html.parser
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# words that run the next word: the command is the word after them
WRAPPERS = {"sudo", "python3", "/usr/bin/python3", "bash", "exec", "time", "env", "nohup",
            "srun"}
# ns-3's global values, which every ns-3 program takes (--PrintGlobals), not in --PrintHelp
NS3_GLOBALS = {"RngSeed", "RngRun", "SchedulerType", "SimulatorImplementationType",
               "ChecksumEnabled"}
# a flag's place-holder in a pattern ("--flag=value is not accepted")
PLACEHOLDERS = {"flag", "name"}
# flags of other tools that the prose names, each accepted only beside the tool's name
EXTERNAL = {"mem": "Slurm", "time": "Slurm", "cpus-per-task": "Slurm", "as": "prlimit",
            "enable-modules": "ns3", "filter-module-examples-and-tests": "ns3",
            "enable-examples": "ns3", "enable-tests": "ns3", "shift": "traceExporter.py",
            "fcd-output": "sumo", "fcd-input": "traceExporter.py", "display": "update-alternatives"}
SCENARIOS = ("fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery", "d2d-exchange")
BLOCKS = {"p", "li", "td", "th", "tr", "pre", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
          "div", "caption", "blockquote", "figcaption", "table", "ul", "ol", "dl", "section",
          "title", "article", "nav", "header", "footer", "body"}
# a flag as copied: a dash of any kind, twice for the hyphen-minus, then a name
TOKEN = re.compile(r"(?<![\w\-\u2010-\u2015\u2212])(--|[\u2010-\u2015\u2212]+)([A-Za-z][\w:.\-]*)")


class Text(html.parser.HTMLParser):
    """A page's body text as (kind, text) items in order: what a selection copies. Kind "cmd":
    a line of a command block (continuation lines joined) or an inline code span, "prose":
    the text of any other block (its inline code included)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.cur, self.code, self.skip, self.pre, self.incode = [], [], [], 0, 0, 0

    def flush(self):
        text = "".join(self.cur)
        self.cur = []
        if not text.strip():
            return
        if self.pre:  # a command block: one item per command
            self.items += [("cmd", b) for b in text.replace("\\\n", " ").split("\n")
                           if b.strip()]
        else:
            self.items.append(("prose", " ".join(text.split())))

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head", "template"):
            self.skip += 1
        if tag in BLOCKS:
            self.flush()
        if tag == "pre":
            self.pre += 1
        if tag == "code" and not self.pre:
            self.incode += 1
            self.code = []
            self.cur.append("\0")  # a token ends where its code span ends
        if tag == "br":
            self.cur.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head", "template"):
            self.skip = max(0, self.skip - 1)
        if tag in BLOCKS:
            self.flush()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag == "code" and self.incode:
            self.incode -= 1
            if self.code:
                self.items.append(("cmd", " ".join("".join(self.code).split())))
            self.code = []
            self.cur.append("\0")

    def handle_data(self, data):
        if not self.skip:
            self.cur.append(data)
            if self.incode:
                self.code.append(data)


def page_items(path):
    parser = Text()
    parser.feed(open(path, encoding="utf-8", errors="replace").read())
    parser.close()
    parser.flush()
    return parser.items


def command_of(segment):
    """The program a command segment runs: its first word after environment settings and
    wrappers (sudo, python3, bash, ...), as a base name; None if it starts with a flag."""
    words = segment.replace("\0", " ").split()
    while words and (re.match(r"^[A-Za-z_]\w*=", words[0]) or words[0] in WRAPPERS
                     or words[0] in ("$", "#")):
        words = words[1:]
    if not words or words[0].startswith("-"):
        return None
    return os.path.basename(words[0].strip("`"))


def scripts():
    """{script name: path} of the repository's Python command lines."""
    out = {}
    for folder in ("analysis", "bench", os.path.join("doc", "tools"),
                   os.path.join("examples", "models")):
        d = os.path.join(TOP, folder)
        for name in sorted(os.listdir(d)):
            if name.endswith(".py"):
                out[name] = os.path.join(d, name)
    return out


def help_flags(command):
    """The flags its help lists; for an argparse script whose first argument is a choice of
    sub-commands ({run,collect,...}), those of each sub-command's help too."""
    env = dict(os.environ, COLUMNS="200")
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, env=env)
    text = proc.stdout
    sub = re.search(r"^usage: \S+(?: \[[^\]]*\])* \{([\w,-]+)\}", text, re.M)
    choices = sub.group(1).split(",") if sub else []
    if re.search(r"^usage: .* COMMAND ", text, re.M):  # sub-commands listed under COMMAND
        choices = re.findall(r"^    ([a-z][\w-]*)\s{2,}", text, re.M)
    if proc.returncode == 0 and command[0].endswith("python3"):
        for choice in choices:
            text += subprocess.run(command[:-1] + [choice, "--help"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=120,
                                   env=env).stdout
    flags = set(re.findall(r"(?<![\w-])--([A-Za-z][\w-]*)", text))
    if proc.returncode != 0 or not flags:
        return None, "%s exited with status %d, %d flags" % (
            " ".join(command), proc.returncode, len(flags))
    return flags, None


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    htmldir, bindir = argv[1], argv[2]
    pages = []
    for root, dirs, files in os.walk(htmldir):
        dirs[:] = sorted(d for d in dirs if d not in ("_static", "_sources", "_images"))
        pages += [os.path.join(root, f) for f in sorted(files) if f.endswith(".html")]
    if not pages:
        print("test_html_flags: no HTML page under %s (build the manual first)" % htmldir,
              file=sys.stderr)
        return 1
    binaries = {n for n in os.listdir(bindir)
                if os.access(os.path.join(bindir, n), os.X_OK) and not n.endswith(".so")
                and "gtest" not in n and "test-runner" not in n}
    pys = scripts()
    programs = binaries | set(pys) | {"setup.sh"}

    errors = []
    tokens = {}  # (page, flag, program or None) -> context
    page_words = {}
    for path in pages:
        page = os.path.relpath(path, htmldir)
        items = page_items(path)
        page_words[page] = {os.path.basename(w.strip("`()[],;:'\"\0")) for _, t in items
                            for w in t.split()}
        for kind, text in items:
            for m in TOKEN.finditer(text):  # a flag's dashes as copied
                if m.group(1) != "--":
                    context = " ".join(text[max(0, m.start() - 50):m.end() + 30]
                                       .replace("\0", "").split())
                    errors.append("%s: '%s%s' (U+%04X, not '--'): copied, it is no flag: "
                                  "...%s..." % (page, m.group(1), m.group(2),
                                                ord(m.group(1)[0]), context))
            if page.startswith("api" + os.sep) and page.endswith("_source.html"):
                continue  # Doxygen's header listings: C++ (--i), briefs cut short
            if kind == "cmd":
                # a command: the arguments as the shell gives them to its program
                for segment in re.split(r"\|\||&&|;|\||\$\(|\(|\)", text):
                    program = command_of(segment)
                    try:
                        args = shlex.split(segment, comments=True)
                    except ValueError:  # an unbalanced quote in a fragment of a command
                        args = segment.split()
                    for arg in args:
                        m = re.match(r"^--([A-Za-z][\w:.\-]*)", arg)
                        if m:
                            context = " ".join(segment.split())[:120]
                            tokens.setdefault((page, m.group(1).rstrip(".:,"), program),
                                              (context, set()))
            else:  # prose: its inline code spans are commands of their own
                prose = re.sub(r"\0[^\0]*\0", " ", text)
                words = {os.path.basename(w.strip("`()[],;:'\"\0")) for w in text.split()}
                for m in TOKEN.finditer(prose):
                    if m.group(1) == "--" and not (m.start() and prose[m.start() - 1] == "="):
                        context = " ".join(prose[max(0, m.start() - 50):m.end() + 30].split())
                        tokens.setdefault((page, m.group(2).rstrip(".:,;"), None),
                                          (context, words))

    # the help of every program a command gives a flag to, and of the scenario programs
    in_commands = {p for (_, _, p) in tokens if p in programs}
    wanted = sorted(in_commands | {p for p in SCENARIOS if p in binaries})
    def get(name):
        if name in binaries:
            return help_flags([os.path.join(bindir, name), "--PrintHelp"])
        if name == "setup.sh":
            return help_flags(["bash", os.path.join(TOP, "setup.sh"), "--help"])
        return help_flags(["/usr/bin/python3", pys[name], "--help"])
    with ThreadPoolExecutor(max_workers=2) as pool:
        helps = dict(zip(wanted, pool.map(get, wanted)))
    for name, (_, err) in sorted(helps.items()):
        if err:
            errors.append("%s: no flags read from its help: %s" % (name, err))
    scenarios = set()
    for p in SCENARIOS:
        scenarios |= helps[p][0] if p in helps and helps[p][0] else set()
    def named_has(words, flag):
        """Whether a program named in these words has the flag: their help read once, those
        already read first (only for a flag in prose that no program the manual runs has)."""
        for name in sorted(words & programs, key=lambda n: (n not in helps, n)):
            if name not in helps:
                helps[name] = get(name)
            if flag in (helps[name][0] or ()):
                return True
        return False

    documented = set()  # every flag of a program that the manual's commands run
    for flags, _ in helps.values():
        documented |= flags or set()
    commands = prose = other = 0
    for (page, flag, program), (context, words) in sorted(
            tokens.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or "")):
        if flag.startswith("ns3") or flag in NS3_GLOBALS or flag in PLACEHOLDERS:
            other += 1
        elif program in helps:  # in a command: its program's
            commands += 1
            if flag not in (helps[program][0] or ()):
                errors.append("%s: --%s is not a flag of %s (%s): ...%s..."
                              % (page, flag, program, "--PrintHelp" if program in binaries
                                 else "--help", context))
        elif program:  # a command of another tool
            other += 1
        elif flag in documented:  # in prose: a flag of a program that the manual runs
            prose += 1
        elif named_has(words, flag) or named_has(page_words[page], flag):
            prose += 1  # or of a program named beside it, or on the page
        elif EXTERNAL.get(flag, "\0") in page_words[page]:  # or of a tool the page names
            other += 1
        else:
            prose += 1
            errors.append("%s: --%s is a flag of no program the manual runs: ...%s..."
                          % (page, flag, context))
    print("test_html_flags: %d pages; distinct (page, flag, program): %d in commands, checked "
          "against their program's help, %d in prose, checked against the flags of every "
          "program the manual runs (%d programs' help read), %d given to other tools or ns-3's "
          "attributes and globals"
          % (len(pages), commands, prose, len(helps), other))
    for e in errors:
        print("test_html_flags: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
