"""The store's small bookkeeping files: ``checkpoint``, ``abort`` and ``lock`` (Java names and layout).

``checkpoint`` is 4096 bytes: ``int64 physicMsgTimestamp @0, logicsMsgTimestamp @8,
indexMsgTimestamp @16, masterFlushedOffset @24`` as in Java (5.x added the last one). Beyond
Java's fields (5.x uses up to byte 40) this store keeps
``int64 dispatchedOffset @1024`` and its bitwise complement ``@1032``: the commit-log offset up to
which consume queues and index were complete at the last clean shutdown.
"""

from __future__ import annotations

import fcntl
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from mqadmin.atomicfile import write_atomic
from mqadmin.broker.store.results import StoreError

CHECKPOINT_SIZE = 4096
_TIMES = struct.Struct(">qqq")
_MASTER_FLUSHED = struct.Struct(">q")
_MASTER_FLUSHED_POS = 24
_OURS = struct.Struct(">qq")
_OURS_POS = 1024
_MASK = 0xFFFFFFFFFFFFFFFF


@dataclass
class Checkpoint:
    physic_msg_timestamp: int = 0
    logics_msg_timestamp: int = 0
    index_msg_timestamp: int = 0
    dispatched_offset: int = -1
    master_flushed_offset: int = 0

    @classmethod
    def read(cls, path: Path) -> Checkpoint:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls()
        if len(data) < _OURS_POS + _OURS.size:
            data = data.ljust(_OURS_POS + _OURS.size, b"\0")
        physic, logics, index = _TIMES.unpack_from(data, 0)
        (master_flushed,) = _MASTER_FLUSHED.unpack_from(data, _MASTER_FLUSHED_POS)
        offset, check = _OURS.unpack_from(data, _OURS_POS)
        if offset < 0 or (offset ^ _MASK) - (1 << 64) != check:
            offset = -1
        return cls(physic, logics, index, offset, master_flushed)

    def write(self, path: Path) -> None:
        data = bytearray(CHECKPOINT_SIZE)
        _TIMES.pack_into(
            data, 0, self.physic_msg_timestamp, self.logics_msg_timestamp, self.index_msg_timestamp
        )
        _MASTER_FLUSHED.pack_into(data, _MASTER_FLUSHED_POS, self.master_flushed_offset)
        if self.dispatched_offset >= 0:
            _OURS.pack_into(
                data, _OURS_POS, self.dispatched_offset, (self.dispatched_offset ^ _MASK) - (1 << 64)
            )
        write_atomic(path, bytes(data))


class StoreLock:
    """``lock``: an exclusive flock held while the store runs, so two brokers cannot share a root."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = -1

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(f"Lock failed,MQ already started ({self.path})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, b"lock", 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = -1


def create_abort_marker(path: Path) -> None:
    """``abort`` exists while the store runs; finding it at start means the last run crashed."""
    path.touch()


def remove_abort_marker(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
