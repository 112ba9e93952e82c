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
