"""Stream offsets: the next queue offset to read of every message queue, as Spark checkpoints them.

An offset is ``{"Topic": {"broker-a:0": 120, "broker-a:1": 98}, ...}`` (a plain dict, as Spark's
Python sources need it; the same form ``startingOffsets`` takes). Pure functions only: what to
read next given a read limit is decided here, without the network.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["Offsets", "cap", "flat", "nest", "queue_key", "split_key", "total_backlog"]

Offsets = dict[str, dict[str, int]]


def queue_key(broker: str, queue_id: int) -> str:
    return f"{broker}:{queue_id}"


def split_key(key: str) -> tuple[str, int]:
    """``broker:queueId`` back into its parts (a broker name may hold ':')."""
    broker, _, qid = key.rpartition(":")
    return broker, int(qid)


def flat(offsets: Mapping[str, Mapping[str, int]]) -> dict[tuple[str, str], int]:
    return {(t, k): int(v) for t, queues in offsets.items() for k, v in queues.items()}


def nest(items: Iterable[tuple[tuple[str, str], int]]) -> Offsets:
    out: Offsets = {}
    for (topic, key), value in sorted(items):
        out.setdefault(topic, {})[key] = value
    return out


def total_backlog(start: Mapping[tuple[str, str], int], end: Mapping[tuple[str, str], int]) -> int:
    return sum(max(0, v - start.get(k, v)) for k, v in end.items())


def cap(start: Mapping[tuple[str, str], int], end: dict[tuple[str, str], int], limit: int) -> None:
    """Move ``end`` back so that at most ``limit`` offsets are read in all, shared in proportion to
    each queue's backlog (the largest remainders get the odd offsets, as Kafka's source does)."""
    backlog = {k: v - start[k] for k, v in end.items() if v - start[k] > 0}
    total = sum(backlog.values())
    if total <= limit:
        return
    share = {k: n * limit // total for k, n in backlog.items()}
    left = limit - sum(share.values())
    by_rest = sorted(backlog, key=lambda k: (-(backlog[k] * limit % total), k))
    for k in by_rest[:left]:
        share[k] += 1
    for k, n in share.items():
        end[k] = start[k] + n
