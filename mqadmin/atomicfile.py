"""Atomic file writes: every config, store file and export is replaced whole or not at all."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
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


class atomic_output:
    """A binary file that becomes ``path`` only when the block ends without an error.

    It is written under a hidden temporary name in the same folder (readers such as Spark skip
    dot-files), fsynced, renamed over ``path``, and the rename made durable. Use as
    ``with atomic_output(path) as f:``; a class rather than ``contextlib.contextmanager``, which every
    CLI run (they all import this module) would pay for.
    """

    __slots__ = ("_file", "_mode", "_parent", "_path", "_tmp")

    def __init__(self, path: PathText, mode: int = 0o644) -> None:
        self._path = os.fspath(path)
        self._mode = mode
        self._parent = ""
        self._tmp = ""
        self._file: BinaryIO | None = None

    def __enter__(self) -> BinaryIO:
        path = self._path
        parent = self._parent = os.path.dirname(path) or "."
        os.makedirs(parent, exist_ok=True)
        import tempfile  # here, not at the top: every CLI run imports this module, few of them write

        fd, self._tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
        try:
            self._file = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self._discard()
            raise
        return self._file

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        f = self._file
        assert f is not None
        self._file = None
        if exc is not None:  # the block failed: nothing replaces ``path``
            try:
                f.close()
            finally:
                self._discard()
            return
        try:
            with f:
                f.flush()
                os.fsync(f.fileno())
            os.chmod(self._tmp, self._mode)
            os.replace(self._tmp, self._path)
        except BaseException:
            self._discard()
            raise
        sync_dir(self._parent)

    def _discard(self) -> None:
        try:
            os.unlink(self._tmp)
        except OSError:
            pass


def write_atomic(path: PathText, data: str | bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically (see :class:`atomic_output`)."""
    with atomic_output(path, mode) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
