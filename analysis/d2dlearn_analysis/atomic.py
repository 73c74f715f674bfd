"""Writing a file atomically, the one way every analysis tool writes its outputs.

    with atomic_open(path, "w", newline="") as fh:
        fh.write(text)

The data go to a temporary file of a unique name (``.NAME.XXXXXX.tmp``, O_EXCL: never one
already there) in the file's own folder, flushed to disk, given the permissions a new file
gets under the process's umask (mkstemp makes 0600), then renamed over PATH: a reader sees
the old file or the whole new one, never half of it. If the block raises (an error, a
signal) the temporary file is removed and PATH is untouched.
"""
import contextlib
import os
import tempfile

_UMASK = os.umask(0)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_open(path, mode="w", **kwargs):
    """A file object open on a temporary file beside path (mode and kwargs as open()'s),
    renamed to path when the block ends without an exception."""
    path = os.path.abspath(path)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=os.path.dirname(path))
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
