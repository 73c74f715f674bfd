"""The campaign model of sweep.py: a campaign file (TOML) parsed and checked (Campaign), its
runs made one at a time from its axes (Runs, mixed radix over the axes), each run's flags,
command hash and folder name (Run, folder_name), and the meaning of a value (value_key:
2, 2.0 and "2" one number; "1s" and "1000ms" one time).
"""

import fractions
import functools
import hashlib
import itertools
import json
import math
import os
import re
import stat

from d2dlearn_analysis.sweep.common import SweepError


TOP_KEYS = {"scenario", "program", "parameters", "grid", "zip", "seeds", "threads_per_run",
            "slurm", "local", "description"}


# The project's scenario programs: the only names `scenario` takes (else `program = PATH`).
SCENARIOS = ("fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery",
             "d2d-exchange")


SLURM_KEYS = {"time": str, "mem": str, "max_parallel": int, "cpus_per_task": int,
              "partition": str, "account": str, "extra_args": list}


LOCAL_KEYS = {"time_limit": str}
TIME_RE = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$")
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(::[A-Za-z][A-Za-z0-9_]*)*$")
FOLDER_SAFE = re.compile(r"[^A-Za-z0-9._+=-]")
NUMBER_RE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$")


# ns-3 Time strings (nstime.h): a number and one of these units, in seconds.
TIME_UNITS = {"y": 365 * 86400, "d": 86400, "h": 3600, "min": 60, "s": 1,
              "ms": fractions.Fraction(1, 10 ** 3), "us": fractions.Fraction(1, 10 ** 6),
              "ns": fractions.Fraction(1, 10 ** 9), "ps": fractions.Fraction(1, 10 ** 12),
              "fs": fractions.Fraction(1, 10 ** 15)}


TIME_VALUE_RE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(%s)\s*$"
                           % "|".join(sorted(TIME_UNITS, key=len, reverse=True)))


MAX_FOLDER = 100
MAX_RUNS = 1000000
MAX_CAMPAIGN_BYTES = 1 << 20
RESERVED = {"outDir"}


@functools.lru_cache(maxsize=None, typed=True)
def flag_text(value):
    """A TOML value as on the command line. Cached (typed: True, 1 and 1.0 apart): a run's
    flags are formatted for its command line and its folder name, and a campaign's values,
    at most a campaign file's worth, recur in every run (12 calls a run, 10^6 runs)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError("not a finite number")
        return repr(value)
    return str(value)


def check_time(where, label, text, unlimited=False):
    """Seconds of a time in Slurm's --time syntax (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM,
    D-HH:MM:SS); with `unlimited`, also 0, UNLIMITED or INFINITE (None: no limit)."""
    if unlimited and text.strip().upper() in ("0", "UNLIMITED", "INFINITE"):
        return None
    m = TIME_RE.match(text.strip())
    if m:
        days, first, second, third = (int(g) if g else 0 for g in m.groups())
        if m.group(1) is not None:  # D-HH[:MM[:SS]]
            seconds = ((days * 24 + first) * 60 + second) * 60 + third
        elif m.group(4) is not None:  # HH:MM:SS
            seconds = (first * 60 + second) * 60 + third
        else:  # MM or MM:SS
            seconds = first * 60 + second
        if seconds >= 1:
            return seconds
    raise SweepError("%s: %s=%r is not a time of 1 s or more (accepted: as Slurm's --time: "
                     "MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS%s)"
                     % (where, label, text, "; or UNLIMITED" if unlimited else ""))


def value_key(value):
    """What a value means as a flag, to find the same value spelt twice: a number (given as
    a number or as text: 2, 2.0, "2", "2e0") as its exact decimal value, an ns-3 Time
    string ("1s", "1000ms", "0.5min") as its exact number of seconds (the same number:
    a Time given without unit is in seconds), anything else as its flag text."""
    if not isinstance(value, bool):
        text = flag_text(value)
        m = NUMBER_RE.match(text)
        if m:
            return ("number", fractions.Fraction(m.group(1)))
        m = TIME_VALUE_RE.match(text)
        if m:
            return ("number", fractions.Fraction(m.group(1)) * TIME_UNITS[m.group(2)])
    return ("text", flag_text(value))


def check_value(where, value):
    if isinstance(value, (bool, int, float, str)):
        try:
            flag_text(value)
        except ValueError as exc:
            raise SweepError("%s: %r is %s" % (where, value, exc))
        return
    raise SweepError("%s: %r is not a number, string or boolean" % (where, value))


def read_campaign_text(path):
    """The text of a campaign file, refused (SweepError) unless it is a small regular file
    of UTF-8 text. A FIFO or device is never opened for reading (it could block)."""
    def check_regular(st):
        if not stat.S_ISREG(st.st_mode):
            raise SweepError("%s: not a regular file (a campaign is a TOML text file)" % path)
    try:
        check_regular(os.stat(path))
        # O_NONBLOCK: should the file become a FIFO after the stat, open does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as fh:
            check_regular(os.fstat(fd))
            data = fh.read(MAX_CAMPAIGN_BYTES + 1)
    except OSError as exc:
        raise SweepError("cannot read campaign %s: %s" % (path, exc.strerror or exc))
    if len(data) > MAX_CAMPAIGN_BYTES:
        raise SweepError("%s: larger than %d bytes (accepted for a campaign: up to %d)"
                         % (path, MAX_CAMPAIGN_BYTES, MAX_CAMPAIGN_BYTES))
    if b"\0" in data:
        raise SweepError("%s: a binary file (it holds NUL bytes), not a TOML campaign" % path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SweepError("%s: not UTF-8 text (byte 0x%02x at offset %d); TOML files are UTF-8"
                         % (path, data[exc.start], exc.start))


class Campaign:
    """A parsed campaign file: scenario, fixed parameters, swept axes, resources."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.splitext(os.path.basename(path))[0]
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            raise SweepError("tomllib is missing: use Debian 12's /usr/bin/python3 (3.11)")
        text = read_campaign_text(path)
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SweepError("%s: not valid TOML: %s" % (path, " ".join(str(exc).split())))
        except RecursionError:
            raise SweepError("%s: not valid TOML: arrays or tables nested too deeply" % path)
        where = os.path.basename(path)
        unknown = sorted(set(doc) - TOP_KEYS)
        if unknown:
            raise SweepError("%s: unknown key %s (accepted: %s)"
                             % (where, unknown[0], ", ".join(sorted(TOP_KEYS))))
        self.scenario = doc.get("scenario")
        if not isinstance(self.scenario, str) or not self.scenario.strip():
            raise SweepError("%s: scenario must name a program, e.g. scenario = \"fedavg\""
                             % where)
        # An explicit program = PATH runs that executable (relative to the campaign's
        # folder); without it, scenario names one of the project's programs, never a path
        # or a command that a campaign file (shared, downloaded) would make sweep.py run.
        self.program = doc.get("program")
        if self.program is not None:
            if not isinstance(self.program, str) or not self.program.strip():
                raise SweepError("%s: program must be the path of an executable, e.g. "
                                 "program = \"build/bin/d2d-exchange\"" % where)
            if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$", self.scenario):
                raise SweepError("%s: scenario=%r is not a name (with program = PATH, "
                                 "scenario names what it runs: letters, digits, - and _)"
                                 % (where, self.scenario))
        elif self.scenario not in SCENARIOS:
            raise SweepError("%s: scenario=%r is not one of the project's programs "
                             "(accepted: %s; another executable: give program = \"PATH\")"
                             % (where, self.scenario, ", ".join(SCENARIOS)))
        self.description = doc.get("description", "")
        self.fixed = {}
        params = doc.get("parameters", {})
        if not isinstance(params, dict):
            raise SweepError("%s: [parameters] must be a table of name = value" % where)
        for name, value in params.items():
            self.check_name(where, "[parameters]", name)
            check_value("%s: [parameters] %s" % (where, name), value)
            self.fixed[name] = value
        # Axes: each is (names, list of value tuples); the product of the axes is the runs.
        self.axes = []
        grid = doc.get("grid", {})
        if not isinstance(grid, dict):
            raise SweepError("%s: [grid] must be a table of name = [values]" % where)
        seeds = doc.get("seeds")
        if seeds is not None:
            if "seed" in grid:
                raise SweepError("%s: seeds and [grid] seed both given; keep one" % where)
            grid = dict(grid)
            grid["seed"] = seeds
        for name, values in grid.items():
            label = "[grid] " + name if name != "seed" or seeds is None else "seeds"
            self.check_name(where, label, name)
            self.axes.append(([name], [(v,) for v in self.check_list(where, label, values)]))
        zips = doc.get("zip", [])
        if isinstance(zips, dict):
            zips = [zips]
        if not isinstance(zips, list):
            raise SweepError("%s: zip must be [[zip]] tables of name = [values]" % where)
        for k, table in enumerate(zips):
            label = "[[zip]] #%d" % (k + 1)
            if not isinstance(table, dict) or not table:
                raise SweepError("%s: %s must be a non-empty table of name = [values]"
                                 % (where, label))
            names, lists = [], []
            for name, values in table.items():
                self.check_name(where, label, name)
                names.append(name)
                # A value may repeat in one zipped list (algorithm = ["consensus",
                # "consensus"] with trust = ["static", "dynamic"]): rows must differ.
                lists.append(self.check_list(where, "%s %s" % (label, name), values,
                                             distinct=False))
            lengths = {len(v) for v in lists}
            if len(lengths) > 1:
                raise SweepError("%s: %s: lists of different lengths (%s) cannot be zipped"
                                 % (where, label, ", ".join("%s %d" % (n, len(v))
                                                            for n, v in zip(names, lists))))
            seen = {}
            for row, values in enumerate(zip(*lists), start=1):
                # Numbers compare by value (2, 2.0 and "2"), times in seconds ("1s" and
                # "1000ms"), other values by their flag text.
                key = tuple(value_key(v) for v in values)
                if key in seen:
                    same = ", ".join("%s=%s" % (n, flag_text(v)) for n, v in zip(names, values))
                    raise SweepError("%s: %s: rows %d and %d are the same (%s): the same runs "
                                     "twice; keep one" % (where, label, seen[key], row, same))
                seen[key] = row
            self.axes.append((names, list(zip(*lists))))
        self.swept = [n for names, _ in self.axes for n in names]
        threads = doc.get("threads_per_run")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 1):
            raise SweepError("%s: threads_per_run=%r is out of range (accepted: 1 or more)"
                             % (where, threads))
        self.threads_per_run = threads
        self.slurm = self.check_table(where, doc, "slurm", SLURM_KEYS)
        if "time" in self.slurm:
            check_time(where, "[slurm] time", self.slurm["time"], unlimited=True)
        local = self.check_table(where, doc, "local", LOCAL_KEYS)
        self.time_limit = None
        if "time_limit" in local:
            self.time_limit = check_time(where, "[local] time_limit", local["time_limit"])
        # Counted before expanding: a few short lines can make an astronomical product.
        count = math.prod(len(values) for _, values in self.axes)
        if count > MAX_RUNS:
            size = (str(count) if count < 10 ** 15
                    else "about 10^%d" % int(math.log10(count)))
            raise SweepError("%s: the grid has %s runs; accepted: up to %d"
                             % (where, size, MAX_RUNS))
        self.runs = Runs(self)
        self.check_folders(where)

    @staticmethod
    def check_table(where, doc, table, keys):
        """The campaign's [table] ({} if absent), its keys and their types checked."""
        values = doc.get(table, {})
        if not isinstance(values, dict):
            raise SweepError("%s: [%s] must be a table" % (where, table))
        for key, value in values.items():
            if key not in keys:
                raise SweepError("%s: [%s] unknown key %s (accepted: %s)"
                                 % (where, table, key, ", ".join(sorted(keys))))
            kind = keys[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise SweepError("%s: [%s] %s must be a %s"
                                 % (where, table, key, kind.__name__))
            if kind is int and value < 1:
                raise SweepError("%s: [%s] %s=%d is out of range (accepted: 1 or more)"
                                 % (where, table, key, value))
            if kind is list and not all(isinstance(a, str) for a in value):
                raise SweepError("%s: [%s] %s must be a list of strings" % (where, table, key))
        return values

    def check_name(self, where, label, name):
        if not NAME_RE.match(name):
            raise SweepError("%s: %s: %r is not a flag name (letters, digits, _, or "
                             "ns3::Class::Attribute)" % (where, label, name))
        if name in RESERVED:
            raise SweepError("%s: %s: %s is set by sweep.py (one folder per run under --out)"
                             % (where, label, name))
        seen = set(self.fixed) | {n for names, _ in getattr(self, "axes", []) for n in names}
        if name in seen:
            raise SweepError("%s: %s: %s is given twice" % (where, label, name))

    @staticmethod
    def check_list(where, label, values, distinct=True):
        if not isinstance(values, list):
            raise SweepError("%s: %s must be a list of values, e.g. [1, 2]" % (where, label))
        if not values:
            raise SweepError("%s: %s is an empty list" % (where, label))
        for v in values:
            check_value("%s: %s" % (where, label), v)
        if not distinct:
            return values
        # The same value twice would run the same command twice (into two folders): 2 and
        # 2.0 or "2" (numbers compare by value), "1s" and "1000ms" (times, in seconds).
        seen = {}
        for v in values:
            key = value_key(v)
            first = seen.get(key)
            if first is not None:
                if flag_text(first) == flag_text(v):
                    raise SweepError("%s: %s holds %s twice" % (where, label, flag_text(v)))
                raise SweepError("%s: %s holds %s and %s, the same value twice; keep one"
                                 % (where, label, flag_text(first), flag_text(v)))
            seen[key] = v
        return values

    def folders_distinct(self):
        """Whether every run's folder is its plain name=value_... text, distinct by
        construction: no value's flag text holds "_" (a value then ends at the first "_"
        after its "name=", so two runs with different values, which they have, cannot
        spell the same name) or a character the folder name replaces, and the longest
        combination stays within MAX_FOLDER (no hash, which could collide)."""
        longest = -1
        for names, rows in self.axes:
            for i, name in enumerate(names):
                texts = [flag_text(row[i]) for row in rows]
                if any("_" in t or FOLDER_SAFE.search(t) for t in texts):
                    return False
                longest += len(name) + 2 + max(len(t) for t in texts)
        return longest <= MAX_FOLDER

    def check_folders(self, where):
        """SweepError if two runs map to one folder. Distinct by construction in most
        campaigns (folders_distinct: checked on the values, not the runs); otherwise every
        folder name is computed once and an 8-byte digest of each kept (about 60 MB for
        10^6 runs, not the names), a digest seen twice confirmed on the names."""
        if self.folders_distinct():
            return
        seen = set()
        clash = None
        for r in self.runs:
            key = hashlib.blake2b(r.folder.encode(), digest_size=8).digest()
            if key in seen:
                clash = r
                break
            seen.add(key)
        if clash is None:
            return
        del seen
        for r in self.runs:
            if r.folder == clash.folder:
                if r.swept != clash.swept:
                    raise SweepError("%s: two runs map to folder %s (%s and %s)"
                                     % (where, r.folder, dict(r.swept), dict(clash.swept)))
                break
        # A digest collision of two different names: check by the names themselves.
        names = set()
        for r in self.runs:
            if r.folder in names:
                first = next(o for o in self.runs if o.folder == r.folder)
                raise SweepError("%s: two runs map to folder %s (%s and %s)"
                                 % (where, r.folder, dict(first.swept), dict(r.swept)))
            names.add(r.folder)

    def parameter_names(self):
        return list(self.fixed) + self.swept


class Runs:
    """The runs of a campaign, in order (the last axis varies fastest), made one at a time
    when asked for: the axes are kept, not the runs (a campaign of 10^6 runs is a few
    lists of values). A sequence: len(), iteration, runs[i] (mixed radix over the axes)."""

    def __init__(self, campaign):
        self.campaign = campaign
        self.sizes = [len(values) for _, values in campaign.axes]
        self.count = math.prod(self.sizes)

    def __len__(self):
        return self.count

    def make(self, combo):
        swept = []
        for (names, _), values in zip(self.campaign.axes, combo):
            swept.extend(zip(names, values))
        return Run(self.campaign, swept)

    def __iter__(self):
        for combo in itertools.product(*[values for _, values in self.campaign.axes]):
            yield self.make(combo)

    def at(self, indices):
        """The run with value number indices[a] of each axis a."""
        return self.make([values[i] for (_, values), i in zip(self.campaign.axes, indices)])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError("run %d of %d" % (index, self.count))
        indices = []
        for size in reversed(self.sizes):
            index, i = divmod(index, size)
            indices.append(i)
        return self.at(indices[::-1])


class Run:
    """One run: the campaign's fixed parameters plus one value of every swept axis."""

    def __init__(self, campaign, swept):
        self.swept = swept
        self.parameters = dict(campaign.fixed)
        self.parameters.update(swept)
        self.folder = folder_name(swept)
        self.program_name = os.path.basename(campaign.scenario)

    @classmethod
    def from_manifest(cls, entry, program, scenario=None):
        """The run of a Slurm manifest entry ({"folder", "parameters"}); `scenario`, the
        campaign's (its command's name, also when program = PATH runs another file)."""
        run = cls.__new__(cls)
        run.swept = None
        run.parameters = entry["parameters"]
        run.folder = entry["folder"]
        run.program_name = os.path.basename(scenario or program)
        return run

    def flags(self):
        return ["--%s=%s" % (k, flag_text(v)) for k, v in self.parameters.items()]

    def argv(self, program, run_dir):
        return [program] + self.flags() + ["--outDir=%s" % run_dir]

    def command(self):
        """What makes the run's results: the program's name and its flags, sorted (not
        its folder, nor where the program or the campaign folder are)."""
        return [self.program_name] + sorted(self.flags())

    def command_hash(self):
        return hashlib.sha256(json.dumps(self.command()).encode()).hexdigest()


def folder_name(swept):
    """Stable, readable folder name of a run: name=value of the swept parameters."""
    if not swept:
        return "run"
    raw = "_".join("%s=%s" % (k, flag_text(v)) for k, v in swept)
    safe = FOLDER_SAFE.sub("-", raw)
    if safe == raw and len(raw) <= MAX_FOLDER:
        return raw
    digest = hashlib.sha1(json.dumps([[k, flag_text(v)] for k, v in swept]).encode())
    return "%s-%s" % (safe[:MAX_FOLDER - 9].rstrip("-_"), digest.hexdigest()[:8])
