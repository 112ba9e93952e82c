"""Queue ranges packed into Spark partitions (:func:`mqadmin.pipeline.export.ranges.pack`)."""

from __future__ import annotations

import random

from mqadmin.pipeline.export.ranges import QueueRange, pack, split


def rng(queue: int, start: int, end: int, topic: str = "T", broker: str = "b") -> QueueRange:
    return QueueRange(topic, broker, "127.0.0.1:10911", queue, start, end)


def test_small_ranges_share_a_partition_up_to_the_size() -> None:
    groups = pack([rng(0, 0, 10), rng(1, 0, 10), rng(2, 0, 10), rng(3, 0, 10)], 25)
    assert groups == [(rng(0, 0, 10), rng(1, 0, 10)), (rng(2, 0, 10), rng(3, 0, 10))]


def test_a_full_range_stays_alone_and_the_rest_fill_the_gaps() -> None:
    pieces = [p for q in range(3) for p in split(rng(q, 100, 160), 50)]  # 50 + 10 per queue
    groups = pack(pieces, 50)
    assert groups == [  # in the order of their first range
        (rng(0, 100, 150),),
        (rng(0, 150, 160), rng(1, 150, 160), rng(2, 150, 160)),
        (rng(1, 100, 150),),
        (rng(2, 100, 150),),
    ]


def test_every_offset_once_and_no_group_over_the_size() -> None:
    rand = random.Random(7)
    for _ in range(200):
        size = rand.randint(1, 100)
        ranges: list[QueueRange] = []
        for q in range(rand.randint(0, 12)):
            start = rand.randint(0, 1000)
            ranges += split(rng(q, start, start + rand.randint(1, 300), broker=f"b{q % 3}"), size)
        groups = pack(ranges, size)
        assert all(0 < sum(r.size for r in g) <= size for g in groups)
        flat = [r for g in groups for r in g]
        assert sorted(flat, key=repr) == sorted(ranges, key=repr)
        assert len(groups) <= len(ranges)
        assert groups == pack(list(reversed(ranges)), size)  # the order given does not matter


def test_nothing_to_pack() -> None:
    assert pack([], 10) == []
