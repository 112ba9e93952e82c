"""Atomic file writes: every config, store file and export is replaced whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

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


@contextmanager
def atomic_output(path: PathText, mode: int = 0o644) -> Iterator[BinaryIO]:
    """A binary file that becomes ``path`` only when the block ends without an error.

    It is written under a hidden temporary name in the same folder (readers such as Spark skip
    dot-files), fsynced, renamed over ``path``, and the rename made durable. Use as
    ``with atomic_output(path) as f:``.
    """
    import tempfile  # most runs import this module for the contexts file and write nothing

    target = os.fspath(path)
    parent = os.path.dirname(target) or "."
    os.makedirs(parent, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    sync_dir(parent)


def write_atomic(path: PathText, data: str | bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically (see :class:`atomic_output`)."""
    with atomic_output(path, mode) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
