"""Queue locks for orderly consumers (Java ``RebalanceLockManager``).

A consumer group's queue belongs to one client at a time; the lock lapses 60 s after its holder
last asked for it, so a crashed consumer's queues pass to another member.
"""

from __future__ import annotations

import time

from mqadmin.protocol.bodies.message_queue import MessageQueue

__all__ = ["LOCK_EXPIRE_MS", "QueueLocks"]

LOCK_EXPIRE_MS = 60_000


def _now_ms() -> int:
    return int(time.time() * 1000)


class QueueLocks:
    """group → queue → (client id, last time it locked)."""

    def __init__(self) -> None:
        self._table: dict[str, dict[MessageQueue, tuple[str, int]]] = {}

    def try_lock_batch(self, group: str, mqs: list[MessageQueue], client_id: str) -> list[MessageQueue]:
        """Lock what is free, expired or already ours; return the queues now held by ``client_id``."""
        now = _now_ms()
        table = self._table.setdefault(group, {})
        locked = []
        for mq in mqs:
            holder = table.get(mq)
            if holder is None or holder[0] == client_id or now - holder[1] > LOCK_EXPIRE_MS:
                table[mq] = (client_id, now)
                locked.append(mq)
        return locked

    def unlock_batch(self, group: str, mqs: list[MessageQueue], client_id: str) -> None:
        table = self._table.get(group)
        if not table:
            return
        for mq in mqs:
            holder = table.get(mq)
            if holder is not None and holder[0] == client_id:
                del table[mq]
