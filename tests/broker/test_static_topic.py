"""Static topics end to end: our name server, two of our brokers (behaving as 5.3.3), the installed
``mqadmin`` and the real C++ client.

updateStaticTopic creates the mapping on the brokers (``topicQueueMapping.json`` in Java's shape),
the route carries ``topicQueueMappingByBroker``, topicStatus adds the logical rows; the C++ client
writes and reads the logical queues; remappingStaticTopic moves queues between the brokers with
offsets that keep growing and older messages still readable; the mapping survives a restart. Plans
that do not add up, and hostile 513 requests, change nothing on any broker.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.static_topic import TopicConfigAndQueueMapping, TopicRemappingDetailWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.staticmapping import leader_id_map
from mqadmin.remoting.client import RemotingClient
from tests import servers
from tests.broker.peers import cpp
from tests.cli_harness import Result, clean_env, run_mqadmin
from tests.servers import BrokerProcess, NameServerProcess

V5 = "5.3.3"
"""``rocketmqVersion``: static topics are a 5.x broker's."""
MOCK = "__syslo__global__"


@dataclass
class Cluster:
    ns: NameServerProcess
    a: BrokerProcess
    b: BrokerProcess
    env: dict[str, str]
    tmp: Path

    def mq(self, *args: str) -> Result:
        return run_mqadmin([args[0], "-n", self.ns.addr, *args[1:]], self.env, timeout=60)

    def mq_json(self, *args: str) -> Any:
        r = self.mq(*args, "--json")
        assert r.code == 0, r.err
        return json.loads(r.out)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    root = tmp_path_factory.mktemp("static")
    brokers = {name: {"brokerName": f"broker-{name}", "rocketmqVersion": V5} for name in "ab"}
    with servers.Cluster(root, brokers) as c:
        env = clean_env(root / "home", root / "cfg")
        (root / "plans").mkdir()
        env["TMPDIR"] = str(root / "plans")
        yield Cluster(c.ns, *c.brokers, env, root)


def request(addr: str, code: int, ext: dict[str, str], body: bytes | None = None) -> RemotingCommand:
    async def go() -> RemotingCommand:
        client = RemotingClient()
        try:
            return await client.invoke(addr, RemotingCommand.request(code, ext, body), 10)
        finally:
            await client.close()

    return asyncio.run(go())


def topic_config(addr: str, topic: str) -> RemotingCommand:
    return request(addr, RequestCode.GET_TOPIC_CONFIG, {"topic": topic, "lo": "true"})


def leaders(cluster: Cluster, topic: str) -> dict[int, tuple[str, int]]:
    """logical queue → (broker, physical queue), from what the brokers answer to GET_TOPIC_CONFIG."""
    out: dict[int, tuple[str, int]] = {}
    for broker in (cluster.a, cluster.b):
        r = topic_config(broker.addr, topic)
        if r.code != ResponseCode.SUCCESS:
            continue
        cm = TopicConfigAndQueueMapping.decode(r.body or b"")
        assert cm.mapping_detail is not None
        for gid, items in (cm.mapping_detail.hosted_queues or {}).items():
            if items[-1].bname == cm.mapping_detail.bname:
                assert gid not in out
                out[gid] = (cm.mapping_detail.bname or "", items[-1].queue_id)
    return out


def status_rows(r: Result) -> list[list[str]]:
    return [line.split() for line in r.out.splitlines()[1:] if line.strip() and not line.startswith("Topic")]


PLAN_LINE = re.compile(r"^The (old|new) mapping data is written to file (\S+)$")


# ------------------------------------------------------------------------------------- create


def test_update_static_topic_creates_the_mapping_on_every_broker(cluster: Cluster) -> None:
    r = cluster.mq("updateStaticTopic", "-c", "DefaultCluster", "-t", "StaticA", "-qn", "6")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert [PLAN_LINE.match(x).group(1) for x in lines] == ["old", "new"]  # type: ignore[union-attr]
    after = Path(PLAN_LINE.match(lines[1]).group(2))  # type: ignore[union-attr]
    assert after.parent == cluster.tmp / "plans" and after.name.startswith("StaticA-")
    plan = TopicRemappingDetailWrapper.decode(after.read_bytes())
    assert plan.type == "CREATE_OR_UPDATE" and sorted(plan.broker_config_map) == ["broker-a", "broker-b"]

    who = leaders(cluster, "StaticA")
    assert sorted(who) == list(range(6))
    assert sorted(b for b, _ in who.values()) == ["broker-a"] * 3 + ["broker-b"] * 3

    # kept as Java keeps it: config/topicQueueMapping.json beside topics.json
    for broker in (cluster.a, cluster.b):
        saved = fastjson.loads((broker.workdir / "store" / "config" / "topicQueueMapping.json").read_text())
        assert list(saved) == ["dataVersion", "topicQueueMappingInfoMap"]
        detail = saved["topicQueueMappingInfoMap"]["StaticA"]
        assert detail["totalQueues"] == 6 and detail["epoch"] == plan.epoch
        assert detail["scope"] == "__global__" and len(detail["hostedQueues"]) == 3

    # GET_ALL_TOPIC_CONFIG of a 5.3.3 broker carries the mapping details too
    everything = fastjson.loads(request(cluster.a.addr, RequestCode.GET_ALL_TOPIC_CONFIG, {}).body or b"")
    assert set(everything) == {
        "dataVersion",
        "mappingDataVersion",
        "topicConfigTable",
        "topicQueueMappingDetailMap",
        "topicQueueMappingInfoMap",
    }
    assert everything["topicQueueMappingDetailMap"]["StaticA"]["totalQueues"] == 6

    # the route: every broker's queues and which logical queues it leads
    route = cluster.mq("topicRoute", "-t", "StaticA")
    assert route.code == 0, route.err
    assert '"topicQueueMappingByBroker":{' in route.out and '"currIdMap":{' in route.out
    routed = cluster.mq_json("topicRoute", "-t", "StaticA")
    by_broker = routed["topicQueueMappingByBroker"]
    ids = sorted(int(k) for info in by_broker.values() for k in info["currIdMap"])
    assert ids == list(range(6))
    assert {info["totalQueues"] for info in by_broker.values()} == {6}

    # topicStatus: the physical rows and one row per logical queue under the mock broker
    st = cluster.mq("topicStatus", "-t", "StaticA")
    assert st.code == 0, st.err
    header = (
        "#Broker Name"
        + " " * 22
        + "#QID  #Min Offset"
        + " " * 11
        + "#Max Offset"
        + " " * 13
        + "#Last Updated"
    )
    assert st.out.splitlines()[0] == header
    rows = status_rows(st)
    assert [(x[0], x[1]) for x in rows[:6]] == [(MOCK, str(i)) for i in range(6)]
    assert sorted(x[0] for x in rows[6:]) == ["broker-a"] * 3 + ["broker-b"] * 3


def test_the_cpp_client_writes_and_reads_a_static_topics_logical_queues(cluster: Cluster) -> None:
    r = cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticCpp", "-qn", "4")
    assert r.code == 0, r.err
    sent = cpp("produce", cluster.ns.addr, "StaticCpp", "40", "--prefix", "s")
    ok = [e for e in sent if e["event"] == "sent"]
    assert len(ok) == 40 and {e["status"] for e in ok} == {"OK"}
    got = cpp(
        "consume",
        cluster.ns.addr,
        "StaticCpp",
        "StaticCppGroup",
        "--expect",
        "40",
        "--timeout",
        "60",
        "--idle",
        "1",
    )
    assert {e["body"] for e in got if e["event"] == "recv"} == {f"s{i}" for i in range(40)}
    rows = status_rows(cluster.mq("topicStatus", "-t", "StaticCpp"))
    logical = [x for x in rows if x[0] == MOCK]
    assert len(logical) == 4 and sum(int(x[3]) for x in logical) == 40


# ------------------------------------------------------------------------------------- remap


def _send(cluster: Cluster, topic: str, broker: str, qid: int, body: str) -> dict[str, Any]:
    return dict(cluster.mq_json("sendMessage", "-t", topic, "-p", body, "-b", broker, "-i", str(qid)))


def test_remapping_moves_queues_with_offsets_that_keep_growing(cluster: Cluster) -> None:
    assert cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticMove", "-qn", "2").code == 0
    offsets = [_send(cluster, "StaticMove", "broker-a", 1, f"old{i}")["queueOffset"] for i in range(3)]
    assert offsets == [0, 1, 2]

    r = cluster.mq("remappingStaticTopic", "-b", "broker-b", "-t", "StaticMove")
    assert r.code == 0, r.err
    assert [PLAN_LINE.match(x).group(1) for x in r.out.splitlines()] == ["old", "old"]  # type: ignore[union-attr]
    assert {b for b, _ in leaders(cluster, "StaticMove").values()} == {"broker-b"}

    # broker-a no longer takes writes to the logical queue; broker-b continues after the last offset
    refused = cluster.mq("sendMessage", "-t", "StaticMove", "-p", "x", "-b", "broker-a", "-i", "1")
    assert refused.code != 0 and "501" in refused.err
    new = _send(cluster, "StaticMove", "broker-b", 1, "new0")
    assert new["queueId"] == 1 and new["queueOffset"] == 10000 > max(offsets)

    st = {(x[0], x[1]): x for x in status_rows(cluster.mq("topicStatus", "-t", "StaticMove"))}
    assert st[(MOCK, "1")][2:4] == ["0", "10001"] and st[(MOCK, "0")][3] == "10000"

    # the old messages are read through the new leader (it asks broker-a), then the new ones
    old = cluster.mq_json(
        "consumeMessage", "-t", "StaticMove", "-b", "broker-b", "-i", "1", "-o", "0", "-c", "3"
    )
    assert [m["body"] for q in old["queues"] for m in q["messages"]] == ["old0", "old1", "old2"]
    fresh = cluster.mq_json(
        "consumeMessage", "-t", "StaticMove", "-b", "broker-b", "-i", "1", "-o", "10000", "-c", "5"
    )
    got = [(m["body"], m["queueOffset"]) for q in fresh["queues"] for m in q["messages"]]
    assert got == [("new0", 10000)]  # the logical offset (the message is at 0 on broker-b)

    # consumer offsets of the logical queue: each kept by the generation holding it, asked through
    # the leader (UPDATE/QUERY_CONSUMER_OFFSET), and GET_MAX/MIN_OFFSET in logical terms
    b = cluster.b.addr
    q = {"consumerGroup": "StaticMoveGroup", "topic": "StaticMove", "queueId": "1"}
    nothing = request(b, RequestCode.QUERY_CONSUMER_OFFSET, {**q, "setZeroIfNotFound": "false"})
    assert nothing.code == ResponseCode.QUERY_NOT_FOUND
    assert request(b, RequestCode.UPDATE_CONSUMER_OFFSET, {**q, "commitOffset": "2"}).code == 0
    physical = request(cluster.a.addr, RequestCode.QUERY_CONSUMER_OFFSET, {**q, "lo": "false"})
    assert physical.ext("offset") == "2"  # kept on broker-a, on its physical queue 1
    assert request(b, RequestCode.QUERY_CONSUMER_OFFSET, q).ext("offset") == "2"
    assert request(b, RequestCode.UPDATE_CONSUMER_OFFSET, {**q, "commitOffset": "10001"}).code == 0
    assert request(b, RequestCode.QUERY_CONSUMER_OFFSET, q).ext("offset") == "10001"
    assert (
        request(b, RequestCode.GET_MAX_OFFSET, {"topic": "StaticMove", "queueId": "1"}).ext("offset")
        == "10001"
    )
    assert (
        request(b, RequestCode.GET_MIN_OFFSET, {"topic": "StaticMove", "queueId": "1"}).ext("offset") == "0"
    )
    search = {"topic": "StaticMove", "queueId": "1"}
    earliest = request(b, RequestCode.GET_EARLIEST_MSG_STORETIME, search).ext("timestamp")
    on_a = request(cluster.a.addr, RequestCode.GET_EARLIEST_MSG_STORETIME, {**search, "lo": "false"})
    assert earliest == on_a.ext("timestamp") and int(earliest or 0) > 0  # old0's, kept on broker-a
    assert (
        request(b, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, {**search, "timestamp": "0"}).ext("offset") == "0"
    )
    future = {**search, "timestamp": str(4_000_000_000_000)}
    # Java's rule: broker-b's single message sits at physical 0, which does not count as found
    assert request(b, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, future).ext("offset") == "2"
    other = request(cluster.a.addr, RequestCode.QUERY_CONSUMER_OFFSET, q)
    assert other.code == ResponseCode.NOT_LEADER_FOR_QUEUE and "does not exit" in (other.remark or "")


def test_json_output_describes_the_plan(cluster: Cluster) -> None:
    made = cluster.mq_json("updateStaticTopic", "-c", "DefaultCluster", "-t", "StaticJson", "-qn", "3")
    assert made["topic"] == "StaticJson" and Path(made["newMappingFile"]).exists()
    assert made["brokerToMapIn"] == [] and made["brokerToMapOut"] == []
    rows = {b["brokerName"]: b for b in made["brokers"]}
    assert set(rows) == {"broker-a", "broker-b"} and rows["broker-a"]["addr"] == cluster.a.addr
    assert sorted(int(g) for b in rows.values() for g in b["leaderOf"]) == [0, 1, 2]
    moved = cluster.mq_json("remappingStaticTopic", "-b", "broker-a", "-t", "StaticJson")
    assert moved["brokerToMapIn"] == ["broker-a"] and moved["brokerToMapOut"] == ["broker-b"]
    assert moved["epoch"] > made["epoch"]
    assert {b["brokerName"]: sorted(b["leaderOf"]) for b in moved["brokers"]} == {
        "broker-a": ["0", "1", "2"],
        "broker-b": [],
    }


# ------------------------------------------------------------------------------------- refused


def _snapshot(cluster: Cluster) -> dict[str, str]:
    out = {}
    for broker in (cluster.a, cluster.b):
        d = broker.workdir / "store" / "config"
        for name in ("topics.json", "topicQueueMapping.json"):
            p = d / name
            out[f"{broker.addr}/{name}"] = p.read_text() if p.exists() else ""
    return out


def _bad_plan(cluster: Cluster, name: str, spoil: Any) -> Path:
    """A plan file for topic ``name`` that a broker-a-only plan of 3 queues, spoiled, gives."""
    ok = cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticPlanSrc", "-qn", "3")
    assert ok.code == 0 or "equal the existed queue num" in ok.err, ok.err
    src = sorted((cluster.tmp / "plans").glob("StaticPlanSrc-*.after"))[0]
    obj = fastjson.loads(src.read_text().replace("StaticPlanSrc", name))
    spoil(obj)
    path = cluster.tmp / f"{name}.plan.json"
    path.write_text(fastjson.dumps(obj))
    return path


def _hosted(obj: Any, broker: str = "broker-a") -> Any:
    return obj["brokerConfigMap"][broker]["mappingDetail"]["hostedQueues"]


def _second_leader(obj: Any) -> None:
    """broker-b also claims logical queue 0 (on its own physical queue 0)."""
    cm = json.loads(json.dumps(obj["brokerConfigMap"]["broker-a"]))
    first = json.loads(json.dumps(_hosted(obj)[0]))
    first[-1].update(bname="broker-b", queueId=0)
    cm["mappingDetail"].update(bname="broker-b", hostedQueues={0: first})
    cm.update(readQueueNums=1, writeQueueNums=1)
    obj["brokerConfigMap"]["broker-b"] = cm


def _set_all(obj: Any, key: str, value: Any) -> None:
    for cm in obj["brokerConfigMap"].values():
        cm["mappingDetail"][key] = value


@pytest.mark.parametrize(
    ("name", "spoil", "why"),
    [
        ("StaticDup", _second_leader, "The queue id is duplicated"),
        (
            "StaticMissing",
            lambda o: _hosted(o).pop(next(iter(_hosted(o)))),
            "does not match the real hosted queues",
        ),
        ("StaticNegEpoch", lambda o: _set_all(o, "epoch", -1), "epoch -1 is negative"),
        ("StaticOverCap", lambda o: _set_all(o, "totalQueues", 4096), "1 to 1024"),
    ],
)
def test_a_plan_that_does_not_add_up_writes_nothing(
    cluster: Cluster, name: str, spoil: Any, why: str
) -> None:
    path = _bad_plan(cluster, name, spoil)
    before = _snapshot(cluster)
    r = cluster.mq("updateStaticTopic", "-c", "DefaultCluster", "-t", name, "-qn", "3", "-mf", str(path))
    assert r.code == 1 and r.out == "", (r.code, r.out, r.err)
    assert len(r.err.strip().splitlines()) == 1 and why in r.err, r.err
    assert _snapshot(cluster) == before
    for broker in (cluster.a, cluster.b):
        assert topic_config(broker.addr, name).code == ResponseCode.TOPIC_NOT_EXIST


def test_a_plan_file_that_adds_up_is_written_as_it_is(cluster: Cluster) -> None:
    path = _bad_plan(cluster, "StaticFromFile", lambda o: None)
    plan = TopicRemappingDetailWrapper.decode(path.read_bytes())
    r = cluster.mq(
        "updateStaticTopic", "-b", "broker-a", "-t", "StaticFromFile", "-qn", "3", "-mf", str(path)
    )
    assert r.code == 0 and r.out == "", r
    detail = plan.broker_config_map["broker-a"].mapping_detail
    assert detail is not None
    expected = {g: ("broker-a", q) for g, q in leader_id_map(detail).items()}
    assert leaders(cluster, "StaticFromFile") == expected


def test_unknown_brokers_and_too_many_queues_are_one_line(cluster: Cluster) -> None:
    before = _snapshot(cluster)
    r = cluster.mq("updateStaticTopic", "-b", "broker-a,broker-x", "-t", "StaticBad", "-qn", "4")
    assert r.code == 1 and r.out == "" and r.err.strip().endswith("Can't find addr for broker broker-x"), r
    r = cluster.mq("updateStaticTopic", "-c", "NoSuchCluster", "-t", "StaticBad", "-qn", "4")
    assert r.code == 1 and r.out == "" and r.err.strip().endswith("Find none brokers, do nothing"), r
    plain = cluster.mq("updateTopic", "-b", cluster.a.addr, "-t", "PlainNotStatic")
    assert plain.code == 0, plain.err
    before = _snapshot(cluster)
    r = cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "PlainNotStatic", "-qn", "4")
    assert r.code == 1 and r.out == "" and r.err.strip().endswith("should not be null in broker broker-a"), r
    r = cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticBad", "-qn", "2000")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "1 to 1024" in r.err, r
    r = cluster.mq("updateStaticTopic", "-t", "StaticBad", "-qn", "2")  # neither -b nor -c
    assert r.code == 2 and r.out == "", r
    r = cluster.mq("remappingStaticTopic", "-b", "broker-x", "-t", "StaticMove")
    assert r.code == 1 and r.out == "" and r.err.strip().endswith("Can't find addr for broker broker-x"), r
    r = cluster.mq("remappingStaticTopic", "-b", "broker-b", "-t", "NoSuchStatic")
    assert r.code != 0 and "No topic route to do the remapping" in r.err, r
    assert _snapshot(cluster) == before


def test_hostile_513_requests_change_nothing(cluster: Cluster) -> None:
    assert cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticHostile", "-qn", "2").code == 0
    r = topic_config(cluster.a.addr, "StaticHostile")
    good = TopicConfigAndQueueMapping.decode(r.body or b"")
    detail = good.mapping_detail
    assert detail is not None
    ext = {
        "topic": "StaticHostile",
        "defaultTopic": "TBW102",
        "readQueueNums": "2",
        "writeQueueNums": "2",
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
    }
    obj = detail.to_json_obj()
    before = _snapshot(cluster)

    def spoiled(**changes: Any) -> bytes:
        return fastjson.dumps({**obj, **changes}).encode()

    cases = [
        (ext, spoiled(bname="broker-b"), "broker name is not equal"),
        (ext, spoiled(epoch=detail.epoch - 1), "small epoch"),
        (ext, spoiled(epoch=-3), "negative"),
        (ext, spoiled(hostedQueues={9: obj["hostedQueues"][0]}), "out of range"),
        (ext, spoiled(topic="Other"), "topic name is not match"),
        (ext, b"{not json", ""),
        (ext, None, ""),
        ({**ext, "writeQueueNums": "1"}, spoiled(), "overflow the write queues"),
    ]
    for fields, body, why in cases:
        resp = request(cluster.a.addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, fields, body)
        assert resp.code == ResponseCode.SYSTEM_ERROR and why in (resp.remark or ""), (
            why,
            resp.code,
            resp.remark,
        )
    for fields, code in (
        ({**ext, "readQueueNums": "5000"}, ResponseCode.INVALID_PARAMETER),
        ({**ext, "topic": "bad topic!"}, ResponseCode.INVALID_PARAMETER),
        ({**ext, "topic": "SCHEDULE_TOPIC_XXXX"}, ResponseCode.INVALID_PARAMETER),
    ):
        resp = request(cluster.a.addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, fields, spoiled())
        assert resp.code == code, (fields, resp.code, resp.remark)
    assert _snapshot(cluster) == before
    # the same request, unspoiled, is accepted (and changes nothing: same epoch, same queues)
    resp = request(cluster.a.addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, ext, spoiled())
    assert resp.code == ResponseCode.SUCCESS, resp.remark


# ------------------------------------------------------------------------------------- restart


def test_the_mapping_survives_a_restart(cluster: Cluster) -> None:
    assert cluster.mq("updateStaticTopic", "-b", "broker-a", "-t", "StaticKeep", "-qn", "3").code == 0
    _send(cluster, "StaticKeep", "broker-a", 2, "k0")
    before = topic_config(cluster.a.addr, "StaticKeep").body
    cluster.a.stop()
    saved = cluster.a.workdir / "store" / "config" / "topicQueueMapping.json"
    table = fastjson.loads(saved.read_text())
    bogus = json.loads(json.dumps(table["topicQueueMappingInfoMap"]["StaticKeep"]))
    bogus.update(topic="StaticBogus", bname="broker-z")  # not this broker's: left out at load
    table["topicQueueMappingInfoMap"]["StaticBogus"] = bogus
    saved.write_text(fastjson.dumps(table))
    cluster.a.start()
    assert topic_config(cluster.a.addr, "StaticKeep").body == before
    assert "the mapping of static topic StaticBogus is left out" in cluster.a.log()
    routed = cluster.mq_json("topicRoute", "-t", "StaticKeep")
    assert sorted(routed["topicQueueMappingByBroker"]["broker-a"]["currIdMap"]) == ["0", "1", "2"]
    assert _send(cluster, "StaticKeep", "broker-a", 2, "k1")["queueOffset"] == 1


def test_a_498_broker_does_not_know_static_topics(broker_factory: Any) -> None:
    old = broker_factory.start("old")  # rocketmqVersion left at its default, 4.9.8
    ext = {
        "topic": "StaticOld",
        "defaultTopic": "TBW102",
        "readQueueNums": "1",
        "writeQueueNums": "1",
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "order": "false",
    }
    body = fastjson.dumps({"bname": "broker-a", "epoch": 1, "topic": "StaticOld", "totalQueues": 1}).encode()
    resp = request(old.addr, RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC, ext, body)
    assert resp.code == ResponseCode.REQUEST_CODE_NOT_SUPPORTED
    assert not (old.workdir / "store" / "config" / "topicQueueMapping.json").exists()
    assert topic_config(old.addr, "StaticOld").code == ResponseCode.TOPIC_NOT_EXIST
