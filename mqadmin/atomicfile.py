"""Atomic file writes: every config, store file and export is replaced whole or not at all."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import BinaryIO

# plain os paths, not pathlib: every CLI run imports this module, and pathlib costs milliseconds
PathText = str | os.PathLike[str]


def sync_dir(directory: PathText) -> None:
    """Make a new, renamed or removed directory entry durable (best effort: not every file system
    lets a directory be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_output(path: PathText, mode: int = 0o644) -> Iterator[BinaryIO]:
    """A binary file that becomes ``path`` only when the block ends without an error.

    It is written under a hidden temporary name in the same folder (readers such as Spark skip
    dot-files), fsynced, renamed over ``path``, and the rename made durable.
    """
    path = os.fspath(path)
    parent = os.path.dirname(path) or "."
    os.makedirs(parent, exist_ok=True)
    import tempfile  # here, not at the top: every CLI run imports this module, few of them write

    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_dir(parent)


def write_atomic(path: PathText, data: str | bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically (see :func:`atomic_output`)."""
    with atomic_output(path, mode) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
