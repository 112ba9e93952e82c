"""Request budgets of the broker (issue 20): heartbeats and cold-data configs over real sockets.

A heartbeat naming more consumer groups, subscriptions per group or producer groups than its
declared budget is refused whole: no group, no ``%RETRY%`` topic, no file written, nothing sent to
the name server, and other clients are served meanwhile. A heartbeat within the budget that names
200 new groups writes ``subscriptionGroup.json`` and ``topics.json`` once each and registers with
the name server once (it used to rewrite both files and re-register per group, a cost growing with
the square of the groups). A cold-data config update that would leave the table over its declared
entry bound is refused whole, and the table and its file stay as they were.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from mqadmin.broker import jsonfile
from mqadmin.protocol import fastjson
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.requests import limit
from mqadmin.remoting.client import RemotingClient
from tests.broker.inproc import running
from tests.broker.peers import call
from tests.servers import BrokerProcess, NameServerProcess

HB = RequestCode.HEART_BEAT
COLD = RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG
GROUPS, SUBS, PRODUCERS = limit(HB, "groups"), limit(HB, "subscriptions"), limit(HB, "producers")
ENTRIES = limit(COLD, "entries")
FILES = ("subscriptionGroup.json", "topics.json")


def consumer(group: str, topics: int = 1) -> dict[str, Any]:
    return {
        "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
        "consumeType": "CONSUME_PASSIVELY",
        "groupName": group,
        "messageModel": "CLUSTERING",
        "subscriptionDataSet": [{"subString": "*", "subVersion": 1, "topic": f"T{i}"} for i in range(topics)],
        "unitMode": False,
    }


def heartbeat(client_id: str, consumers: list[dict[str, Any]], producers: Sequence[str] = ()) -> bytes:
    data = {
        "clientID": client_id,
        "consumerDataSet": consumers,
        "producerDataSet": [{"groupName": g} for g in producers],
    }
    return json.dumps(data).encode()


HOSTILE = {
    "groups": heartbeat("evil", [consumer(f"H{i}") for i in range(1500)]),
    "subscriptions": heartbeat("evil", [consumer("HSubs", SUBS + 1)]),
    "producers": heartbeat("evil", [consumer("HProd")], [f"HP{i}" for i in range(PRODUCERS + 1)]),
}


def snapshot(config: Path) -> dict[str, tuple[bytes, int, int]]:
    """Each config file (and its ``.bak``) as bytes, mtime and inode: any write shows."""
    out = {}
    for name in FILES:
        for p in (config / name, config / (name + ".bak")):
            if p.exists():
                st = p.stat()
                out[p.name] = (p.read_bytes(), st.st_mtime_ns, st.st_ino)
    return out


def served_meanwhile(addr: str, hostile: Callable[[], None], probe: RemotingCommand) -> float:
    """Run ``hostile`` in a thread while another client keeps asking ``probe``; the slowest answer (s)."""
    done = threading.Event()

    def run() -> None:
        try:
            hostile()
        finally:
            done.set()

    async def probing() -> float:
        worst = 0.0
        async with RemotingClient() as good:
            await good.invoke(addr, probe, 10)  # connected before the hostile client starts
            worker = threading.Thread(target=run)
            worker.start()
            while not done.is_set():
                t = time.perf_counter()
                r = await good.invoke(
                    addr, RemotingCommand.request(probe.code, probe.ext_fields, probe.body), 10
                )
                worst = max(worst, time.perf_counter() - t)
                assert r.code == ResponseCode.SUCCESS, r.remark
                await asyncio.sleep(0.01)
            await asyncio.to_thread(worker.join)
        return worst

    return asyncio.run(probing())


def route_code(ns: str, topic: str) -> int:
    return call(ns, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": topic})).code


def all_groups(addr: str) -> dict[str, Any]:
    r = call(addr, RemotingCommand.request(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG))
    assert r.code == ResponseCode.SUCCESS, r.remark
    groups: dict[str, Any] = fastjson.loads(r.body or b"{}")["subscriptionGroupTable"]
    return groups


# ------------------------------------------------------------------------------------ heartbeats


@pytest.fixture
def broker(broker_factory: Any) -> BrokerProcess:
    b: BrokerProcess = broker_factory.start()
    r = call(b.addr, RemotingCommand.request(HB, None, heartbeat("good", [consumer("GoodCG")], ["GoodPG"])))
    assert r.code == ResponseCode.SUCCESS, r.remark
    return b


@pytest.mark.parametrize("key", list(HOSTILE))
def test_a_heartbeat_over_its_budget_is_refused_whole(
    broker: BrokerProcess, namesrv: NameServerProcess, key: str
) -> None:
    config = broker.workdir / "store" / "config"
    before = snapshot(config)
    assert set(before) >= set(FILES)
    answers: list[RemotingCommand] = []

    def hostile() -> None:
        for _ in range(5):
            answers.append(call(broker.addr, RemotingCommand.request(HB, None, HOSTILE[key])))

    probe = RemotingCommand.request(HB, None, heartbeat("good", [consumer("GoodCG")], ["GoodPG"]))
    worst = served_meanwhile(broker.addr, hostile, probe)
    assert worst < 1.0, f"another client waited {worst:.2f} s"
    for r in answers:
        assert r.code == ResponseCode.SYSTEM_ERROR, r.remark
        assert r.remark and "limit of 256" in r.remark, r.remark
        assert {"groups": "consumer groups", "subscriptions": "HSubs", "producers": "producer groups"}[
            key
        ] in r.remark
    assert snapshot(config) == before  # not one file written
    groups = all_groups(broker.addr)
    assert "GoodCG" in groups and not any(g.startswith("H") for g in groups)
    r = call(broker.addr, RemotingCommand.request(RequestCode.GET_ALL_PRODUCER_INFO))
    assert set(fastjson.loads(r.body or b"{}")["data"]) == {"GoodPG"}
    for topic in ("%RETRY%H0", "%RETRY%HSubs", "%RETRY%HProd"):
        assert route_code(namesrv.addr, topic) == ResponseCode.TOPIC_NOT_EXIST
    assert route_code(namesrv.addr, "%RETRY%GoodCG") == ResponseCode.SUCCESS
    assert "Traceback" not in broker.log()


def test_a_heartbeat_at_its_budget_is_accepted_and_survives_a_restart(
    broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    body = heartbeat(
        "big",
        [consumer("Wide", SUBS)] + [consumer(f"A{i}") for i in range(GROUPS - 1)],
        [f"P{i}" for i in range(PRODUCERS)],
    )

    async def beat() -> None:  # one connection: the group is online while it is asked about
        async with RemotingClient() as c:
            r = await c.invoke(broker.addr, RemotingCommand.request(HB, None, body), 10)
            assert r.code == ResponseCode.SUCCESS, r.remark
            ask = RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST, {"consumerGroup": "Wide"})
            r = await c.invoke(broker.addr, ask, 10)
            assert len(fastjson.loads(r.body or b"{}")["subscriptionTable"]) == SUBS
            r = await c.invoke(broker.addr, RemotingCommand.request(RequestCode.GET_ALL_PRODUCER_INFO), 10)
            assert len(fastjson.loads(r.body or b"{}")["data"]) == PRODUCERS + 1

    asyncio.run(beat())
    deadline = time.monotonic() + 10
    while route_code(namesrv.addr, f"%RETRY%A{GROUPS - 2}") != ResponseCode.SUCCESS:
        assert time.monotonic() < deadline, "the retry topics never reached the name server"
        time.sleep(0.1)
    broker.kill()
    broker.start()
    groups = all_groups(broker.addr)
    assert "Wide" in groups and all(f"A{i}" in groups for i in range(GROUPS - 1))
    topics = (broker.workdir / "store" / "config" / "topics.json").read_text("utf-8")
    assert f'"%RETRY%A{GROUPS - 2}"' in topics and '"%RETRY%Wide"' in topics


@pytest.fixture
def write_spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of every file the broker's config persistence writes, in order."""
    written: list[str] = []
    real = jsonfile.write_atomic

    def spy(path: Any, data: Any, *args: Any, **kw: Any) -> Any:
        written.append(Path(path).name)
        return real(path, data, *args, **kw)

    monkeypatch.setattr(jsonfile, "write_atomic", spy)
    yield written


def test_200_new_groups_are_written_once_and_registered_once(tmp_path: Path, write_spy: list[str]) -> None:
    async def scenario() -> None:
        async with running(tmp_path) as env:
            registrations: list[int] = []
            client = env.broker.registrar.client
            real = client.invoke_oneway

            async def counting(addr: str, cmd: RemotingCommand, *args: Any, **kw: Any) -> Any:
                registrations.append(cmd.code)
                return await real(addr, cmd, *args, **kw)

            client.invoke_oneway = counting  # type: ignore[method-assign]
            write_spy.clear()
            body = heartbeat("c200", [consumer(f"N{i}") for i in range(200)])
            t = time.perf_counter()
            r = await env.req(HB, None, body)
            took = time.perf_counter() - t
            assert r.code == ResponseCode.SUCCESS, r.remark
            route = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "%RETRY%N199"})
            for _ in range(100):
                if (await env.client.invoke(env.ns.address, route, 5)).code == ResponseCode.SUCCESS:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the retry topics never reached the name server")
            await asyncio.sleep(0.2)  # a second registration, were there one, would be out by now
            for name in FILES:
                assert write_spy.count(name) == 1, write_spy
            assert registrations == [RequestCode.REGISTER_BROKER], registrations
            config = Path(env.broker.settings.store.config_dir)
            saved = fastjson.loads((config / "subscriptionGroup.json").read_text("utf-8"))
            assert all(f"N{i}" in saved["subscriptionGroupTable"] for i in range(200))
            topics = fastjson.loads((config / "topics.json").read_text("utf-8"))["topicConfigTable"]
            assert all(f"%RETRY%N{i}" in topics for i in range(200))
            print(f"200-group heartbeat answered in {took * 1000:.1f} ms")

    asyncio.run(scenario())


# ------------------------------------------------------------------------------------ cold data


def cold_body(groups: range | list[str], value: int = 1) -> bytes:
    return "".join(f"{g if isinstance(g, str) else f'C{g}'}={value}\n" for g in groups).encode()


def cold_table(addr: str) -> dict[str, int]:
    r = call(addr, RemotingCommand.request(RequestCode.GET_COLD_DATA_FLOW_CTR_INFO))
    assert r.code == ResponseCode.SUCCESS, r.remark
    table: dict[str, int] = fastjson.loads(r.body or b"{}")["configTable"]
    return table


def test_cold_data_entries_are_bounded(broker_factory: Any) -> None:
    b: BrokerProcess = broker_factory.start("cold", rocketmqVersion="5.3.3")
    path = b.workdir / "store" / "config" / "coldDataFlowCtrConfig.json"
    first = ENTRIES - 24
    r = call(b.addr, RemotingCommand.request(COLD, None, cold_body(range(first))))
    assert r.code == ResponseCode.SUCCESS, r.remark
    before_file = path.read_bytes(), path.stat().st_mtime_ns
    before = cold_table(b.addr)
    assert len(before) == first
    hostile = [
        cold_body(range(first - 10, first + 25)),  # 25 new: one over the bound
        cold_body(range(5000)),  # too many in one request
        cold_body(range(300_000)),  # 3.3 MB: over the body budget, or over the entries bound
    ]
    answers: list[RemotingCommand] = []

    def send() -> None:
        for body in hostile:
            answers.append(call(b.addr, RemotingCommand.request(COLD, None, body)))

    probe = RemotingCommand.request(RequestCode.GET_COLD_DATA_FLOW_CTR_INFO)
    worst = served_meanwhile(b.addr, send, probe)
    assert worst < 1.0, f"another client waited {worst:.2f} s"
    for r in answers[:2]:
        assert r.code == ResponseCode.SYSTEM_ERROR, r.remark
        assert r.remark and f"more than the limit of {ENTRIES}" in r.remark, r.remark
    assert answers[2].code != ResponseCode.SUCCESS
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before_file
    assert cold_table(b.addr) == before
    # updating what is there and adding up to the bound is fine
    r = call(b.addr, RemotingCommand.request(COLD, None, cold_body(range(first - 10, first + 24), 7)))
    assert r.code == ResponseCode.SUCCESS, r.remark
    after = cold_table(b.addr)
    assert len(after) == ENTRIES and after["C0"] == 1 and after[f"C{first + 23}"] == 7
    assert json.loads(path.read_text("utf-8"))["configTable"] == after
