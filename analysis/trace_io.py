"""What the analysis scripts share: reading d2dlearn CSV traces with one-line errors,
energy.csv, and writing figures atomically.

Imported by the plot scripts and sweep.py (which put this folder on sys.path).
"""

import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ENERGY_COLUMNS = ["sim_time_s", "node", "component", "energy_j", "remaining_j"]

_UMASK = os.umask(0)
os.umask(_UMASK)


class TraceError(Exception):
    """A problem with an input file or argument; reported as one line, exit code 2."""


def note(text):
    print("note: " + text)


def read_trace(path, required):
    """Read a CSV trace; returns a DataFrame (possibly empty) or raises TraceError."""
    if not os.path.isfile(path):
        raise TraceError("missing trace file: %s" % path)
    try:
        df = pd.read_csv(path, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=required)  # zero-byte file: like header-only
    except (pd.errors.ParserError, UnicodeDecodeError, OSError) as exc:
        msg = " ".join(str(exc).split())
        raise TraceError("cannot parse %s: %s" % (path, msg))
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise TraceError("%s lacks required column(s): %s" % (path, ",".join(missing)))
    return df


def to_numeric(df, columns, path):
    for col in columns:
        converted = pd.to_numeric(df[col], errors="coerce")
        bad = converted.isna() & df[col].notna() & (df[col].astype(str).str.strip() != "")
        if bad.any():
            first = df.loc[bad, col].iloc[0]
            raise TraceError("%s: non-numeric value %r in column %s" % (path, first, col))
        df[col] = converted


def load_energy(path):
    df = read_trace(path, ENERGY_COLUMNS)
    if df.empty:
        return df
    to_numeric(df, ["sim_time_s", "node", "energy_j", "remaining_j"], path)
    df["component"] = df["component"].fillna("").astype(str).str.strip()
    return df


FORMATS = ("png", "pdf", "svg")


def add_format_argument(parser):
    """The --format option every analysis script takes."""
    parser.add_argument("--format", choices=FORMATS, default="png",
                        help="figure file format (default png)")


def save_figure(fig, out_dir, name, fmt=None):
    """Save atomically: temporary file in out_dir, then os.replace. The format is fmt, else
    the name's extension."""
    fmt = fmt or os.path.splitext(name)[1].lstrip(".") or "png"
    final = os.path.join(out_dir, name)
    fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".tmp", dir=out_dir)
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp creates 0600; use normal permissions
        with os.fdopen(fd, "wb") as fh:
            # No creation date in PDF and SVG metadata: same figure, same bytes.
            meta = {"png": {}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}[fmt]
            fig.savefig(fh, format=fmt, dpi=120, bbox_inches="tight", metadata=meta)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        plt.close(fig)
    print("wrote %s" % final)
    return final


def newest_mtime(paths):
    """The latest modification time (ns) of the files that exist, or None."""
    stamps = [os.stat(p).st_mtime_ns for p in paths if os.path.isfile(p)]
    return max(stamps) if stamps else None


def remove_stale_figures(out_dir, bases, traces, written):
    """Delete the figures a script makes (base names `bases`, in any of FORMATS) that it did
    not write now and that are older than the newest of `traces`: in a folder whose run was
    redone, a figure of the old traces that this run no longer draws would mislead.

    Returns the paths removed."""
    newest = newest_mtime(traces)
    if newest is None or not os.path.isdir(out_dir):
        return []
    keep = {os.path.abspath(p) for p in written}
    removed = []
    for base in bases:
        for fmt in FORMATS:
            path = os.path.join(out_dir, "%s.%s" % (base, fmt))
            if os.path.abspath(path) in keep or not os.path.isfile(path):
                continue
            if os.stat(path).st_mtime_ns < newest:
                os.unlink(path)
                removed.append(path)
                note("removed %s: older than the traces it would show" % path)
    return removed
