"""Every planned range read to its end or failed, against a hostile broker (answers chosen per pull).

The two reproductions of silent loss and silent duplicates, first at the reader every Spark task
and ``export messages`` run (``read_ranges`` / ``pull_all``), then through a Spark stream: a broker
that plans offsets 0..9 and answers PULL_NOT_FOUND fails the read naming the queue, the offsets and
the answer (and a broker that recovers within the pauses is read whole); an answer that carries
each message twice, or a record of another queue, a hole, an offset below the one pulled, is an
error. Only offsets the broker says are gone are skipped, under failOnDataLoss=false, and counted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.export.checks import DataLossError, LossHandler, RangeReadError
from mqadmin.pipeline.export.pull import read_ranges
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.protocol.command import RemotingCommand
from tests.pipeline.hostile import (
    NAME,
    PULL_NOT_FOUND,
    Hostile,
    HostileCluster,
    Pull,
    answer,
    hostile_cluster,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TOPIC = "TopicH"
OFFSET_MOVED = 21


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[HostileCluster]:
    with hostile_cluster(tmp_path, TOPIC, [(0, 10), (0, 10)]) as c:
        yield c


def read(c: HostileCluster, qid: int = 0, retry_for: float = 1.0, **kw: object) -> list[int]:
    """The queue offsets read of queue ``qid``'s planned range 0..9."""
    r = QueueRange(TOPIC, NAME, c.addr, qid, 0, 10)
    settings = AdminSettings(namesrv_addrs=(c.namesrv,), timeout=3.0)
    batches = read_ranges(settings, (r,), retry_for=retry_for, **kw)  # type: ignore[arg-type]
    return [o for b in batches for o in b.column("queue_offset").to_pylist()]


def test_not_found_for_the_planned_range_fails_naming_queue_offsets_and_answer(
    hostile: HostileCluster,
) -> None:
    hostile.broker.pull = lambda b, cmd, ask: answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
    with pytest.raises(RangeReadError) as e:
        read(hostile, retry_for=0.6)
    said = str(e.value)
    assert f"{TOPIC} {NAME}:0" in said and "offsets 0..9" in said and "PULL_NOT_FOUND (19)" in said
    assert hostile.addr in said
    assert 3 <= len(hostile.broker.pulls) <= 15  # tried again, with pauses, for a bounded time


def test_a_broker_that_recovers_within_the_pauses_is_read_whole(
    hostile: HostileCluster, caplog: pytest.LogCaptureFixture
) -> None:
    def lagging(b: Hostile, cmd: RemotingCommand, ask: Pull) -> RemotingCommand:
        if ask.n < 3:
            return answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
        return b.found(cmd, ask)

    hostile.broker.pull = lagging
    with caplog.at_level(logging.WARNING):
        assert read(hostile, retry_for=5.0) == list(range(10))
    assert (
        caplog.text.count("answered PULL_NOT_FOUND (19)") == 1 and "trying again for up to 5 s" in caplog.text
    )


@pytest.mark.parametrize(
    ("offsets", "next_begin", "said"),
    [
        ([o for o in range(10) for _ in range(2)], 10, "offset 0 arrived twice"),
        ([0, 1, 2, 2, 3], 4, "offset 2 arrived twice"),
        ([0, 1, 3, 4], 5, "offsets 2..2 were never sent"),
        ([0, 1, 2], 10, "offsets 3..9 were never sent"),
        ([5, 6], 7, "offsets 0..4 were never sent"),
    ],
)
def test_answers_that_break_the_offsets_rule_are_errors(
    hostile: HostileCluster, offsets: list[int], next_begin: int, said: str
) -> None:
    def bent_once(b: Hostile, cmd: RemotingCommand, ask: Pull) -> RemotingCommand:
        return b.found(cmd, ask, offsets, next_begin) if ask.n == 0 else b.found(cmd, ask)

    hostile.broker.pull = bent_once
    with pytest.raises(RangeReadError, match=said) as e:
        read(hostile)
    assert f"{TOPIC} {NAME}:0" in str(e.value) and "planned offsets 0..9" in str(e.value)


def test_a_record_of_another_queue_is_an_error(hostile: HostileCluster) -> None:
    def other_queue(b: Hostile, cmd: RemotingCommand, ask: Pull) -> RemotingCommand:
        return b.found(cmd, Pull(1, ask.offset, ask.max_nums, ask.n))  # queue 1's records for queue 0

    hostile.broker.pull = other_queue
    with pytest.raises(RangeReadError, match=f"a record of {TOPIC} queue 1"):
        read(hostile)


def test_an_answer_that_does_not_move_on_is_retried_then_fails(hostile: HostileCluster) -> None:
    hostile.broker.pull = lambda b, cmd, ask: b.found(cmd, ask, [ask.offset], next_begin=ask.offset)
    with pytest.raises(RangeReadError, match="SUCCESS"):
        read(hostile, retry_for=0.4)


def test_under_a_tag_filter_skipped_offsets_are_the_brokers(hostile: HostileCluster) -> None:
    hostile.broker.pull = lambda b, cmd, ask: b.found(cmd, ask, [o for o in (0, 4, 8) if o >= ask.offset], 10)
    assert read(hostile, sub_expression="TagA") == [0, 4, 8]


def test_offsets_the_broker_says_are_gone_fail_or_are_counted(
    hostile: HostileCluster, caplog: pytest.LogCaptureFixture
) -> None:
    def expired(b: Hostile, cmd: RemotingCommand, ask: Pull) -> RemotingCommand:
        if ask.offset < 6:
            return answer(cmd, OFFSET_MOVED, 6, 6, 10)
        return b.found(cmd, ask)

    hostile.broker.pull = expired
    with pytest.raises(DataLossError, match=r"offsets 0\.\.5 are gone"):
        read(hostile)
    loss = LossHandler(fail=False)
    with caplog.at_level(logging.WARNING):
        assert read(hostile, on_loss=loss) == [6, 7, 8, 9]
    assert loss.skipped == 6 and "6 skipped (failOnDataLoss=false)" in caplog.text


def test_export_messages_in_process_follows_the_same_rule(hostile: HostileCluster) -> None:
    from mqadmin.pipeline.export.inprocess import pull_all

    ranges = [QueueRange(TOPIC, NAME, hostile.addr, q, 0, 10) for q in (0, 1)]
    settings = AdminSettings(namesrv_addrs=(hostile.namesrv,), timeout=3.0)
    hostile.broker.pull = lambda b, cmd, ask: b.found(cmd, ask)
    table = asyncio.run(pull_all(settings, ranges, retry_for=0.5))
    assert sorted(
        zip(table.column("queue_id").to_pylist(), table.column("queue_offset").to_pylist(), strict=True)
    ) == [(q, o) for q in (0, 1) for o in range(10)]
    hostile.broker.pull = lambda b, cmd, ask: (
        b.found(cmd, ask) if ask.queue_id == 0 else answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
    )
    with pytest.raises(RangeReadError, match=f"{NAME}:1 .*offsets 0..9"):
        asyncio.run(pull_all(settings, ranges, retry_for=0.5))


def stream(spark: SparkSession, c: HostileCluster, work: Path) -> Exception | None:
    """An ``availableNow`` stream of the topic into Parquet; the query's failure, if any."""
    import mqadmin.spark

    mqadmin.spark.register(spark)
    q = (
        spark.readStream.format(mqadmin.spark.FORMAT).option("namesrv", c.namesrv).option("topics", TOPIC)
        .option("startingOffsets", "earliest").option("pullRetryTimeout", "1s").load()
        .writeStream.format("parquet").option("path", str(work / "out"))
        .option("checkpointLocation", str(work / "ck")).trigger(availableNow=True).start()
    )  # fmt: skip
    try:
        q.awaitTermination(120)
    except Exception as e:
        return e
    return None


def test_stream_fails_instead_of_committing_a_batch_it_could_not_read(
    spark: SparkSession, hostile: HostileCluster, tmp_path: Path
) -> None:
    hostile.broker.pull = lambda b, cmd, ask: (
        b.found(cmd, ask) if ask.queue_id == 1 else answer(cmd, PULL_NOT_FOUND, ask.offset, 0, 10)
    )
    failure = stream(spark, hostile, tmp_path)
    assert failure is not None
    said = str(failure)
    assert (
        "RangeReadError" in said
        and f"{NAME}:0" in said
        and "offsets 0..9" in said
        and "PULL_NOT_FOUND" in said
    )
    assert not list((tmp_path / "ck" / "commits").glob("[0-9]*"))  # batch 0 planned, never committed

    hostile.broker.pull = lambda b, cmd, ask: b.found(cmd, ask)  # the broker caught up: the restart reads all
    assert stream(spark, hostile, tmp_path) is None
    rows = spark.read.parquet(str(tmp_path / "out")).select("queue_id", "queue_offset").collect()
    assert sorted((r.queue_id, r.queue_offset) for r in rows) == [(q, o) for q in (0, 1) for o in range(10)]


def test_stream_refuses_an_answer_carrying_each_message_twice(
    spark: SparkSession, hostile: HostileCluster, tmp_path: Path
) -> None:
    hostile.broker.pull = lambda b, cmd, ask: b.found(
        cmd, ask, [o for o in range(ask.offset, 10) for _ in (1, 2)]
    )
    failure = stream(spark, hostile, tmp_path)
    assert failure is not None and "arrived twice" in str(failure)
    assert not list((tmp_path / "ck" / "commits").glob("[0-9]*"))
