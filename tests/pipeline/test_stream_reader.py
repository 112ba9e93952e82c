"""The stream reader driven the way Spark drives it, without Spark, against our name server and broker.

What a Spark test cannot easily stage: a broker that leaves (its queues keep their offsets, a batch
that needs them fails rather than skipping them) and comes back (reading resumes where it was),
``minOffsetsPerTrigger`` with ``maxTriggerDelay``, and ``Trigger.AvailableNow``'s fixed target.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows, ReadMinRows

from mqadmin.pipeline.stream.offsets import flat
from mqadmin.pipeline.stream.options import StreamOptions
from mqadmin.pipeline.stream.source import QueueUnreachableError, RocketMQStreamReader
from tests.broker.peers import cpp, create_topic
from tests.servers import BrokerProcess, NameServerProcess


@dataclass
class Servers:
    ns: NameServerProcess
    broker: BrokerProcess
    work: Path


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    work = tmp_path_factory.mktemp("stream-reader")
    ns = NameServerProcess(work / "ns")
    broker = None
    try:
        broker = BrokerProcess(work / "broker", ns.addr)
        yield Servers(ns, broker, work)
    finally:
        if broker is not None:
            broker.stop()
        ns.stop()


def reader(s: Servers, topic: str, **options: str) -> RocketMQStreamReader:
    opts = {"namesrv": s.ns.addr, "topics": topic, "startingOffsets": "earliest", "timeout": "3", **options}
    return RocketMQStreamReader(StreamOptions.parse(opts))


def produce(s: Servers, topic: str, count: int, prefix: str) -> set[str]:
    events = cpp("produce", s.ns.addr, topic, str(count), "--prefix", prefix, timeout=120)
    return {e["body"] for e in events if e["event"] == "sent"}


def read_all(r: RocketMQStreamReader, start: dict, end: dict) -> set[str]:  # type: ignore[type-arg]
    bodies: set[str] = set()
    for part in r.partitions(start, end):
        for batch in r.read(part):
            bodies |= {b.decode() for b in batch.column("body").to_pylist()}
    return bodies


def test_a_broker_that_leaves_and_comes_back(servers: Servers, caplog: pytest.LogCaptureFixture) -> None:
    create_topic(servers.broker.addr, "Leaving", queues=2)
    first = produce(servers, "Leaving", 20, "a")
    r = reader(servers, "Leaving")
    try:
        start = r.initialOffset()
        end = r.latestOffset(start, ReadAllAvailable())
        assert read_all(r, start, end) == first
        servers.broker.stop()  # unregisters: the route has no queue left
        with caplog.at_level(logging.WARNING):
            later = r.latestOffset(end, ReadAllAvailable())
        assert later == end  # nothing read, nothing forgotten
        assert "not reachable now" in caplog.text or "no route now" in caplog.text
        with pytest.raises(QueueUnreachableError):  # a replayed batch that needs the queue fails
            r.partitions(start, end)
        servers.broker.start()
        deadline = time.monotonic() + 30
        while not r.refresh():  # registered again
            assert time.monotonic() < deadline
            time.sleep(0.2)
        second = produce(servers, "Leaving", 10, "b")
        final = r.latestOffset(end, ReadAllAvailable())
        assert sum(flat(final).values()) == 30
        assert read_all(r, end, final) == second
    finally:
        r.stop()


def test_min_offsets_wait_for_max_trigger_delay(servers: Servers) -> None:
    create_topic(servers.broker.addr, "Trickle", queues=1)
    produce(servers, "Trickle", 5, "t")
    r = reader(servers, "Trickle", minOffsetsPerTrigger="10", maxTriggerDelay="1500ms")
    try:
        assert r.getDefaultReadLimit() == ReadMinRows(10)
        start = r.initialOffset()
        assert r.latestOffset(start, ReadMinRows(10)) == start  # 5 < 10: wait
        assert flat(r.latestOffset(start, ReadAllAvailable())) != flat(start)  # the engine may insist
        time.sleep(1.6)
        assert sum(flat(r.latestOffset(start, ReadMinRows(10))).values()) == 5  # waited long enough
    finally:
        r.stop()


def test_available_now_stops_at_its_target(servers: Servers) -> None:
    create_topic(servers.broker.addr, "Target", queues=2)
    produce(servers, "Target", 20, "x")
    r = reader(servers, "Target", maxOffsetsPerTrigger="6")
    try:
        assert r.getDefaultReadLimit() == ReadMaxRows(6)
        start = r.initialOffset()
        r.prepareForTriggerAvailableNow()
        produce(servers, "Target", 10, "late")  # after the target: not read by this run
        offsets, steps = start, 0
        while True:
            nxt = r.latestOffset(offsets, ReadMaxRows(6))
            if nxt == offsets:
                break
            assert sum(flat(nxt).values()) - sum(flat(offsets).values()) <= 6
            offsets, steps = nxt, steps + 1
        assert sum(flat(offsets).values()) == 20 and steps == 4
    finally:
        r.stop()


@pytest.fixture
def expiring(tmp_path: Path) -> Iterator[Servers]:
    """Small commit-log files kept for no time: deleteExpiredCommitLog drops all but the last one."""
    ns = NameServerProcess(tmp_path / "ns")
    broker = None
    try:
        broker = BrokerProcess(  # no scheduled clean-up hour: deleteWhen's default, 04, would drop them too
            tmp_path / "broker",
            ns.addr,
            mappedFileSizeCommitLog=64 * 1024,
            fileReservedTime=0,
            deleteWhen="99",
        )
        yield Servers(ns, broker, tmp_path)
    finally:
        if broker is not None:
            broker.stop()
        ns.stop()


def test_offsets_expiring_after_planning_follow_fail_on_data_loss(expiring: Servers) -> None:
    from mqadmin.pipeline.stream.source import DataLossError
    from mqadmin.protocol.command import RemotingCommand
    from tests.broker.peers import call

    create_topic(expiring.broker.addr, "Shrinking", queues=1)
    events = cpp("produce", expiring.ns.addr, "Shrinking", "300", "--size", "1000", timeout=120)
    assert sum(e["event"] == "sent" for e in events) == 300
    strict, lenient = reader(expiring, "Shrinking"), reader(expiring, "Shrinking", failOnDataLoss="false")
    try:
        start = strict.initialOffset()
        end = strict.latestOffset(start, ReadAllAvailable())
        parts = strict.partitions(start, end)  # planned while every offset is there
        resp = call(expiring.broker.addr, RemotingCommand.request(329, {}))  # deleteExpiredCommitLog
        assert resp.code == 0, resp.remark
        with pytest.raises(DataLossError, match="failOnDataLoss"):
            for part in parts:
                list(strict.read(part))
        offsets = [
            o for part in parts for b in lenient.read(part) for o in b.column("queue_offset").to_pylist()
        ]
        assert offsets and 0 < offsets[0] and offsets == list(range(offsets[0], 300))
    finally:
        strict.stop()
        lenient.stop()


def test_queue_ranges_packed_into_partitions_read_each_message_once(servers: Servers) -> None:
    create_topic(servers.broker.addr, "Packed", queues=4)
    sent = produce(servers, "Packed", 40, "p")
    r = reader(servers, "Packed", partitionSize="7")
    try:
        start = r.initialOffset()
        end = r.latestOffset(start, ReadAllAvailable())
        backlog = {k: v - flat(start)[k] for k, v in flat(end).items()}
        assert sum(backlog.values()) == 40 and sum(n > 7 for n in backlog.values()) >= 2  # some are cut
        parts = r.partitions(start, end)
        sizes = [sum(q.size for q in part.value) for part in parts]
        assert all(0 < n <= 7 for n in sizes) and sum(sizes) == 40
        assert any(len({q.queue_id for q in part.value}) > 1 for part in parts)  # queues share a task
        assert len(parts) < sum(-(-n // 7) for n in backlog.values())  # fewer than one per piece
        seen: list[tuple[int, int]] = []
        bodies: list[str] = []
        for part in parts:
            for batch in r.read(part):
                qids, offsets = batch.column("queue_id").to_pylist(), batch.column("queue_offset").to_pylist()
                seen += zip(qids, offsets, strict=True)
                bodies += [b.decode() for b in batch.column("body").to_pylist()]
        assert sorted(bodies) == sorted(sent)  # every message once
        assert len(set(seen)) == len(seen) == 40
        for key, hi in flat(end).items():  # each queue's offsets [start, end) exactly
            qid = int(key[1].rpartition(":")[2])
            assert sorted(o for q, o in seen if q == qid) == list(range(flat(start)[key], hi))
    finally:
        r.stop()


def test_min_partitions_spreads_a_small_backlog(servers: Servers) -> None:
    create_topic(servers.broker.addr, "Spread", queues=4)
    sent = produce(servers, "Spread", 40, "s")
    packed, spread = reader(servers, "Spread"), reader(servers, "Spread", minPartitions="4")
    try:
        start = packed.initialOffset()
        end = packed.latestOffset(start, ReadAllAvailable())
        assert [len(p.value) for p in packed.partitions(start, end)] == [4]  # one task for 40 messages
        parts = spread.partitions(start, end)
        assert len(parts) >= 4 and all(sum(q.size for q in p.value) <= 10 for p in parts)
        assert read_all(spread, start, end) == sent
    finally:
        packed.stop()
        spread.stop()
