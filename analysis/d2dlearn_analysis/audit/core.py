"""The shared pieces of the audit (analysis/audit.py is its command line): the Audit of one
run folder, which counts the checks and collects the violation lines (Audit.expect) and the
checks left out on purpose (Audit.skip); the reading of a CSV trace (Audit.read_csv, which
itself checks the `format` and `header` of every CSV file it reads: a cut last line, a row
of another field count, bytes that are not UTF-8, a NUL byte, the header, the columns the
writers always fill; Audit.number and parse_times: a column's numbers and times); the
comparisons and tolerances every module uses; the columns ALWAYS_WRITTEN needs.
The registry of the checks, in the order they run, is d2dlearn_analysis.audit.checks.
"""

import csv
import io
import math
import os

# energy.csv's columns, the same at --traces=full and standard (doc/reference/traces.md).
ENERGY_COLUMNS = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                  "duration_s", "power_w", "periods"]
# availability.csv (devices that come and go: --meanOnTime/--meanOffTime, --availabilityFile):
# one row per change of a device's state, 0 when it leaves, 1 when it comes back.
AVAILABILITY_COLUMNS = ["sim_time_s", "device", "available"]
# The algorithms of the FedAvg family (check fl-round; rounds.csv's `available` rows). By
# hand, as the audit's other names of protocols: which rows a protocol writes is no field of
# the registry's export (d2dlearn_analysis/protocols.py).
FEDAVG_FAMILY = ("fedavg", "fedprox", "fedsgd")
# The columns the writers fill on every row (empty only where a column says "none": t_recv_s
# of a row not delivered, reason of a delivered one, the air columns of a message never on
# the air): an empty one is a violation ("format").
ALWAYS_WRITTEN = {
    "messages.csv": ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "fragments",
                     "fragments_lost", "retransmissions", "delivered", "complete", "mode",
                     "p_drop", "interference_w", "sleep_wait_s"],
    "energy.csv": ENERGY_COLUMNS,
    "rounds.csv": ["round", "sim_time_s", "node", "metric", "value"],
    "positions.csv": ["sim_time_s", "node", "x_m", "y_m", "z_m"],
    "availability.csv": AVAILABILITY_COLUMNS,
    # trust is empty for the unsupervised paradigm (check discovery: only there).
    "gd_links.csv": ["edge", "receiver", "transmitter", "p_drop", "requested", "allocated",
                     "sent", "received", "shareable"],
}
NS_TOL = 1  # ns: the simulator's time step (Time rounding)
REL = 1e-9          # relative tolerance of recomputed floats
PRINTED = 1e-8      # relative tolerance of values printed with 9 significant digits


class Audit:
    """The checks of one run folder; violations collects the lines."""

    def __init__(self, run_dir, run):
        self.dir = run_dir
        self.checks = 0
        self.violations = []
        self.skipped = []  # (where, check, reason): what a check could not check, and why
        self.filled = set()  # the files whose ALWAYS_WRITTEN columns were checked (once)
        self.run = run  # the parsed run.json
        self.positions = None  # {node: (x, y, z)} of static devices (check positions)
        # {device: [(t_leave, t_back) ns]} of availability.csv (None without the file)
        self.away = None
        self.depleted = {}  # node -> (earliest, latest) ns its battery may have depleted at
        self.params = self.run.get("parameters", {})
        self.summary = self.run.get("summary", {})
        for key in ("parameters", "summary"):  # a run.json of another shape: a violation
            value = self.run.get(key, {})
            if self.expect(isinstance(value, dict), "run.json:" + key, "run-json", "an object",
                           "{...}", type(value).__name__):
                continue
            if key == "parameters":
                self.params = {}
            else:
                self.summary = {}

    # -- reporting -----------------------------------------------------------------
    def expect(self, ok, where, check, what, expected, got):
        """Count one check; record a violation when ok is false."""
        self.checks += 1
        if not ok:
            self.violations.append("%s: %s: %s: %s, expected %s got %s"
                                   % (self.dir, where, check, what, fmt(expected), fmt(got)))
        return ok

    def skip(self, where, check, reason):
        """Record a check left out on purpose, with its reason (printed with --skipped)."""
        if (where, check, reason) not in self.skipped:
            self.skipped.append((where, check, reason))

    def expect_close(self, where, check, what, expected, got, rel=REL, abs_tol=0.0):
        return self.expect(close(expected, got, rel, abs_tol), where, check, what,
                           expected, got)

    # -- reading -------------------------------------------------------------------
    def read_csv(self, name, columns=None, required=False, why=""):
        """Rows of name as dicts with their line number in '_line'; None if absent. A file
        whose last line has no newline (cut while written) and a row with another number of
        fields than the header are violations ("format"); such a row is left out. A header
        other than columns is a violation ("header"), why saying why those columns."""
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            self.expect(not required, name, "header", "file missing", "a file", "none")
            return None
        with open(path, "rb") as fh:
            data = fh.read()
        self.expect(not data or data.endswith(b"\n"), name, "format",
                    "the last line is cut (no newline at its end)", "a newline", "none")
        text = self.decode(name, data)
        # csv.DictReader, not reader.read_trace (pandas): a row with another number of fields
        # than the header must be a violation at its line (pandas refuses the whole file for
        # one too many, fills one too few with NaN), every row needs the line it ends on,
        # and a number must be Python's correctly rounded float(), compared at 1e-9 (pandas'
        # default parser is not round-trip exact).
        reader = csv.DictReader(io.StringIO(text, newline=""))
        rows = []
        try:
            for row in reader:
                # The line the row ends on (a quoted field may span lines).
                line = reader.line_num
                fields = len(reader.fieldnames or [])
                got = fields - sum(1 for k, v in row.items() if k is not None and v is None) \
                    + len(row.get(None) or [])
                if got != fields:  # one violation a row; the file's check counted below
                    self.expect(False, "%s:%d" % (name, line), "format", "fields in the row",
                                fields, got)
                    self.checks -= 1
                    continue
                row["_line"] = line
                rows.append(row)
        except csv.Error as e:  # not CSV (a field beyond the csv module's limit): one line
            self.expect(False, "%s:%d" % (name, reader.line_num + 1), "format",
                        "CSV text (%s)" % " ".join(str(e).split()), "CSV", "unreadable")
        self.checks += 1
        try:
            header = reader.fieldnames or []
        except csv.Error:
            header = []
        if columns is not None:
            self.expect(header == columns, name + ":1", "header", "columns" + why,
                        ",".join(columns), ",".join(header))
        for column in ALWAYS_WRITTEN.get(name, ()) if name not in self.filled else ():
            if column not in header:
                continue
            empty = [r["_line"] for r in rows if r.get(column) in (None, "")]
            self.expect(not empty, "%s:%d" % (name, empty[0]) if empty else name, "format",
                        "a value in column %s on every row (the writer always writes one)%s"
                        % (column, "; empty on %d rows" % len(empty) if len(empty) > 1
                           else ""), "a value", "empty")
        self.filled.add(name)  # a file read by several checks: its empty values once
        return rows

    def decode(self, name, data):
        """data as UTF-8 text; a byte that is not UTF-8 (or a NUL) is a violation naming the
        file and its line ("format"), and is read as U+FFFD (its value then fails its check)."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            self.expect(False, "%s:%d" % (name, line), "format",
                        "UTF-8 text (%s)" % " ".join(str(e).split()), "UTF-8",
                        "byte 0x%02x at offset %d" % (data[e.start], e.start))
            text = data.decode("utf-8", errors="replace")
        if "\0" in text:
            self.expect(False, "%s:%d" % (name, text.count("\n", 0, text.index("\0")) + 1),
                        "format", "text without NUL bytes", "none", "a NUL byte")
            text = text.replace("\0", "\ufffd")
        else:
            self.checks += 1
        return text

    def number(self, rows, name, column, kind=float, check="header"):
        """Parse column of every row into row[column + '#'] (None if unparsable)."""
        for r in rows:
            text = r.get(column)
            try:
                value = kind(text) if text not in (None, "") else None
            except ValueError:
                value = None
                self.expect(False, "%s:%d" % (name, r["_line"]), check,
                            "%s is not a number" % column, kind.__name__, text)
            r[column + "#"] = value


def fmt(value):
    if isinstance(value, float):
        return repr(value)
    if value is None:
        return "null"
    return str(value)


def close(expected, got, rel=REL, abs_tol=0.0):
    """Equal within rel (relative) or abs_tol; exact for ints, strings, None, bools."""
    if expected is None or got is None or isinstance(expected, (str, bool)) \
            or isinstance(got, (str, bool)):
        return expected == got and type(expected) is type(got)
    if isinstance(expected, int) and isinstance(got, int):
        return expected == got
    if not isinstance(got, (int, float)) or not isinstance(expected, (int, float)):
        return False
    if math.isnan(expected) or math.isnan(got):
        return False
    return abs(expected - got) <= max(abs_tol, rel * max(abs(expected), abs(got)))


def seconds_ns(text):
    """Integer nanoseconds of a time printed with 9 decimals ('' -> None)."""
    if text in (None, ""):
        return None
    whole, _, frac = text.partition(".")
    if not (whole.isdigit() and (frac == "" or frac.isdigit()) and len(frac) <= 9):
        raise ValueError(text)
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


def seconds_ns_or_none(value):
    return None if not isinstance(value, (int, float)) else int(round(value * 1e9))


def parse_times(a, rows, name, columns):
    for r in rows:
        for col in columns:
            try:
                r[col + "#"] = seconds_ns(r.get(col))
            except ValueError:
                r[col + "#"] = None
                a.expect(False, "%s:%d" % (name, r["_line"]), "time-order",
                         "%s is not a time with 9 decimals" % col, "s.nnnnnnnnn", r.get(col))
        r["sim_time_ns"] = r.get("sim_time_s#")


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def printed_tol(*values):
    """The rounding of values printed with 9 significant digits: half a unit of the 9th
    digit of each, at most 5e-9 of its size."""
    return sum(5e-9 * abs(v) for v in values) + 1e-15


def ints(a, rows, name, columns, check):
    for col in columns:
        a.number(rows, name, col, int, check)
