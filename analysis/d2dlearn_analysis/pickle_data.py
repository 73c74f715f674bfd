"""Reading a pickle of plain data (FedScale's device traces) without running its code.

    data = read_pickle(path, "a device-capacity trace")

A pickle may name any importable function for the reader to call (os.system, say):
DataOnlyUnpickler resolves no global, so it builds only what the pickle protocol makes by
itself (dictionaries, lists, tuples, sets, numbers, strings, bytes) and refuses a file that
asks for anything else, before calling anything. read_pickle also refuses a file larger
than max_bytes, and reports every failure as one AnalysisError naming the file.
"""
import io
import os
import pickle

from d2dlearn_analysis.errors import AnalysisError

MAX_BYTES = 1 << 30  # FedScale's traces are a few MB


class DataOnlyUnpickler(pickle.Unpickler):
    """An unpickler that resolves no global: only the pickle protocol's own types."""

    what = "the file"  # what the file should be, for the error

    def find_class(self, module, name):
        raise AnalysisError("it asks for %s.%s: %s holds only dictionaries, lists, numbers "
                            "and strings" % (module, name, self.what))


def read_pickle(path, what, max_bytes=MAX_BYTES):
    """The object pickled in the file at path, built by DataOnlyUnpickler; what (e.g. "a
    device-capacity trace") names the file's kind in the errors."""
    try:
        size = os.path.getsize(path)
        if size > max_bytes:
            raise AnalysisError("%s: %d bytes, more than %s (at most %d)"
                                % (path, size, what, max_bytes))
        with open(path, "rb") as fh:
            unpickler = DataOnlyUnpickler(io.BytesIO(fh.read()))
        unpickler.what = what
        return unpickler.load()
    except AnalysisError as e:
        raise AnalysisError("%s: %s" % (path, e)) if not str(e).startswith(path) else e
    except OSError as e:
        raise AnalysisError("%s: cannot be read (%s)" % (path, e.strerror))
    except Exception as e:  # what a corrupt pickle raises varies (EOFError, UnpicklingError...)
        raise AnalysisError("%s: not a pickle (%s)" % (path, type(e).__name__))
