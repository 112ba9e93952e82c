"""Each name server request code over a real socket: codes, remarks, ext fields and bodies as 5.3.3."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.frame import FrameDecoder, encode
from tests.namesrv.support import (
    Reply,
    Wire,
    namesrv,
    register,
    register_body,
    register_request,
    request,
    route_query,
    run,
    topic_config,
    with_namesrv,
)

A0, A1 = "10.1.0.1:10911", "10.1.0.2:10911"
TOPICS = [topic_config("T1", 8, 8), topic_config("T2"), topic_config("TBW102", 8, 8, 7)]


async def _registered(w: Wire, addr: str = A0, bid: int = 0, name: str = "broker-a", **kw: Any) -> Reply:
    return await register(w, "DefaultCluster", name, bid, addr, TOPICS, **kw)


def test_kv_config_codes(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        ns = {"namespace": "ORDER_TOPIC_CONFIG"}
        r = await w.call(request(101, {**ns, "key": "T1"}))
        assert r.code == 22 and r.ext == {}
        assert r.header["remark"] == "No config item, Namespace: ORDER_TOPIC_CONFIG Key: T1"
        r = await w.call(request(219, ns))
        assert (r.code, r.header["remark"]) == (22, "No config item, Namespace: ORDER_TOPIC_CONFIG")
        r = await w.call(request(100, {**ns, "key": "T1", "value": "broker-a:8"}))
        assert r.header_raw.startswith('{"code":0,"flag":1,') and r.body == b""
        r = await w.call(request(101, {**ns, "key": "T1"}))
        assert (r.code, r.ext) == (0, {"value": "broker-a:8"}) and "remark" not in r.header
        r = await w.call(request(219, ns))
        assert r.body == b'{"table":{"T1":"broker-a:8"}}'
        r = await w.call(request(100, {"key": "x", "value": "y"}))
        assert (r.code, r.header["remark"]) == (1, "namespace or key is null")
        assert (await w.call(request(102, {**ns, "key": "T1"}))).code == 0
        assert (await w.call(request(102, {**ns, "key": "never"}))).code == 0
        assert (await w.call(request(219, ns))).body == b'{"table":{}}'
        saved = json.loads((tmp_path / "namesrv" / "kvConfig.json").read_text())
        assert saved == {"configTable": {"ORDER_TOPIC_CONFIG": {}}}
        assert (tmp_path / "namesrv" / "kvConfig.json.bak").is_file()
        await w.close()

    with_namesrv(tmp_path, body)


def test_register_broker_answers(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        master = await _registered(w)
        assert master.ext == {} and master.body == b""  # no ORDER_TOPIC_CONFIG namespace yet
        await w.call(request(100, {"namespace": "ORDER_TOPIC_CONFIG", "key": "T1", "value": "broker-a:8"}))
        slave = await _registered(w, A1, 1)
        assert slave.ext == {
            "haServerAddr": "10.1.0.1:20911",
            "masterAddr": A0,
        }  # the master's HA address
        assert slave.header_raw.startswith(
            '{"code":0,"extFields":{"haServerAddr":"10.1.0.1:20911","masterAddr":'
        )
        assert slave.body == b'{"table":{"T1":"broker-a:8"}}'

        bad_crc = register_request("DefaultCluster", "broker-a", 0, A0, register_body(TOPICS), crc=False)
        bad_crc.ext_fields["bodyCrc32"] = "12345"  # type: ignore[index]
        r = await w.call(bad_crc)
        assert (r.code, r.header["remark"], r.ext) == (1, "crc32 not match", {})

        no_id = register_request("DefaultCluster", "broker-a", 0, A0, register_body(TOPICS))
        del no_id.ext_fields["brokerId"]  # type: ignore[union-attr]
        r = await w.call(no_id)
        assert r.code == 1 and r.header["remark"].startswith("java.lang.NullPointerException, ")
        assert "extFields" not in r.header

        r = await w.call(register_request("DefaultCluster", "broker-a", 0, A0, b"{not json"))
        assert r.code == 1 and "extFields" not in r.header
        remark = r.header["remark"]
        assert remark.startswith("org.apache.rocketmq.remoting.exception.RemotingCommandException: ")
        assert "Failed to decode RegisterBrokerBody, " in remark

        one = register_request("DefaultCluster", "broker-b", 0, "10.1.0.9:10911", register_body(TOPICS[:1]))
        r = await w.call(one)
        assert (r.code, r.header["remark"], r.ext) == (1, "register broker failed", {})
        await w.close()

    with_namesrv(tmp_path, body)


def test_register_broker_body_layouts(tmp_path: Path) -> None:
    """Compressed (4.x and 5.x), pre-3.0.11 bare wrapper, and no body at all."""

    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        table = {t: TopicConfig(topic_name=t, read_queue_nums=2, write_queue_nums=2) for t in ("Z1", "Z2")}
        wrapper = TopicConfigSerializeWrapper(table, DataVersion(1, 1))
        packed = RegisterBrokerBody(wrapper, []).encode(compress=True)
        req = register_request("C", "zip-4x", 0, "10.2.0.1:10911", packed, extra={"compressed": "true"})
        assert (await w.call(req)).code == 0
        packed5 = RegisterBrokerBody(TopicConfigSerializeWrapper(table, DataVersion(1, 1, 0)), []).encode(
            compress=True
        )
        req = register_request("C", "zip-5x", 0, "10.2.0.2:10911", packed5, extra={"compressed": "true"})
        assert (await w.call(req)).code == 0
        bare = json.dumps(
            {
                "dataVersion": {"counter": 1, "timestamp": 1},
                "topicConfigTable": {"Z3": topic_config("Z3"), "Z4": topic_config("Z4")},
            }
        ).encode()
        assert (await w.call(register_request("C", "old", 0, "10.2.0.3:10911", bare, version=36))).code == 0
        empty = RemotingCommand(
            code=103,
            opaque=77,
            version=409,
            ext_fields={
                "brokerId": "0",
                "brokerName": "nobody",
                "brokerAddr": "10.2.0.4:10911",
                "clusterName": "C",
            },
        )
        assert (await w.call(empty)).code == 0
        r = await w.call(request(224, {"cluster": "C"}))
        assert sorted(json.loads(r.body)["topicList"]) == ["Z1", "Z2", "Z3", "Z4"]
        info = json.loads((await w.call(request(106))).body.replace(b"{0:", b'{"0":'))
        assert sorted(info["clusterAddrTable"]["C"]) == ["nobody", "old", "zip-4x", "zip-5x"]
        await w.close()

    with_namesrv(tmp_path, body)


def test_route_forms_and_options(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path, order_message_enable=True) as ctl:
            w = await Wire.open(ctl.port)
            await _registered(w, extra={"__ZONE_NAME": "zone-a"})
            await _registered(w, "10.1.1.1:10911", 0, "broker-b", extra={"__ZONE_NAME": "zone-b"})
            std = await w.call(route_query("T1", version=401))
            assert b'"brokerAddrs":{"0":"10.1.0.1:10911"}' in std.body and "extFields" not in std.header
            legacy = await w.call(route_query("T1", version=63))
            assert b'"brokerAddrs":{0:"10.1.0.1:10911"}' in legacy.body
            forced = await w.call(request(105, {"topic": "T1", "acceptStandardJsonOnly": "TRUE"}, version=63))
            assert forced.body == std.body
            assert b"orderTopicConf" not in std.body
            await w.call(
                request(100, {"namespace": "ORDER_TOPIC_CONFIG", "key": "T1", "value": "broker-a:8"})
            )
            conf = json.loads((await w.call(route_query("T1"))).body)
            assert conf["orderTopicConf"] == "broker-a:8"
            zoned = await w.call(
                request(105, {"topic": "T1", "__ZONE_MODE": "true", "__ZONE_NAME": "ZONE-B"})
            )
            data = json.loads(zoned.body.replace(b"{0:", b'{"0":'))
            assert [b["brokerName"] for b in data["brokerDatas"]] == ["broker-b"]
            assert [q["brokerName"] for q in data["queueDatas"]] == ["broker-b"]
            assert b"{0:" in zoned.body  # the zone filter answers in the legacy form
            missing = await w.call(route_query("Nope"))
            assert missing.code == 17 and missing.header["remark"] == (
                "No topic route info in name server for the topic: Nope\n"
                "See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."
            )
            assert (
                '"remark":"No topic route info in name server for the topic: Nope\\nSee '
                in missing.header_raw
            )
            no_topic = await w.call(request(105, {}))
            assert no_topic.code == 17 and "the topic: null\n" in no_topic.header["remark"]
            await w.close()

        async with namesrv(tmp_path / "wait", need_wait_for_service=True) as ctl:
            w = await Wire.open(ctl.port)
            r = await w.call(route_query("T1"))
            assert (r.code, r.header["remark"]) == (1, "name server not ready")
            await w.close()

    run(body())


def test_lists_perms_and_topic_changes(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            w = await Wire.open(ctl.port)
            r = await w.call(request(106))
            assert r.body == b'{"brokerAddrTable":{},"clusterAddrTable":{}}'
            assert (await w.call(request(206))).body == b'{"topicList":[]}'
            await _registered(w)
            assert sorted(json.loads((await w.call(request(206))).body)["topicList"]) == [
                "T1",
                "T2",
                "TBW102",
            ]
            r = await w.call(request(304))
            assert r.body == b'{"brokerAddr":"10.1.0.1:10911","topicList":["broker-a","DefaultCluster"]}'
            assert (await w.call(request(224, {"cluster": "nope"}))).body == b'{"topicList":[]}'
            for code in (311, 312, 313):
                assert (await w.call(request(code))).body == b'{"topicList":[]}'
            r = await w.call(request(205, {"brokerName": "broker-a"}))
            assert r.header_raw.startswith('{"code":0,"extFields":{"wipeTopicCount":"3"},"flag":1,')
            assert json.loads((await w.call(route_query("T1"))).body)["queueDatas"][0]["perm"] == 4
            r = await w.call(request(327, {"brokerName": "broker-a"}))
            assert r.ext == {"addTopicCount": "3"}
            assert (await w.call(request(205, {"brokerName": "nobody"}))).ext == {"wipeTopicCount": "0"}
            assert (await w.call(request(216, {"topic": "T1", "clusterName": "Other"}))).code == 0
            assert (await w.call(route_query("T1"))).code == 0
            assert (await w.call(request(216, {"topic": "T1", "clusterName": "DefaultCluster"}))).code == 0
            assert (await w.call(route_query("T1"))).code == 17
            assert (await w.call(request(216, {"topic": "T2"}))).code == 0
            assert (await w.call(route_query("T2"))).code == 17
            route = (
                b'{"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":3,"writeQueueNums":3}]}'
            )
            assert (await w.call(request(217, {"topic": "T9"}, route))).code == 0
            assert json.loads((await w.call(route_query("T9"))).body)["queueDatas"][0]["readQueueNums"] == 3
            r = await w.call(request(217, {"topic": "T9"}, b"{oops"))
            assert r.code == 1 and r.header["remark"].startswith("com.alibaba.fastjson.JSONException")
            group = await w.call(request(901, {"clusterName": "DefaultCluster", "brokerName": "broker-a"}))
            assert group.header["remark"] == "not set any response code" and group.code == 0
            assert group.body == (
                b'{"brokerMemberGroup":{"brokerAddrs":{0:"10.1.0.1:10911"},'
                b'"brokerName":"broker-a","cluster":"DefaultCluster"}}'
            )
            unknown = await w.call(request(901, {"clusterName": "X", "brokerName": "nobody"}))
            assert (
                unknown.body
                == b'{"brokerMemberGroup":{"brokerAddrs":{},"brokerName":"nobody","cluster":"X"}}'
            )
            await w.close()

        async with namesrv(tmp_path / "off", enable_all_topic_list=False, enable_topic_list=False) as ctl:
            w = await Wire.open(ctl.port)
            for code in (206, 224, 311, 312, 313):
                r = await w.call(request(code))
                assert (r.code, r.header["remark"]) == (1, "disable")
            assert (await w.call(request(304))).code == 0
            await w.close()

    run(body())


def test_data_version_heartbeat_and_unregister(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        await _registered(w)
        ext = {
            "clusterName": "DefaultCluster",
            "brokerAddr": A0,
            "brokerName": "broker-a",
            "brokerId": "0",
        }
        r = await w.call(request(322, ext, b'{"counter":1,"timestamp":1700000000000}'))
        assert r.ext == {"changed": "false"}
        assert r.body == b'{"counter":1,"stateVersion":0,"timestamp":1700000000000}'
        r = await w.call(request(322, ext, b'{"counter":2,"timestamp":1700000000000}'))
        assert r.ext == {"changed": "true"}
        r = await w.call(request(322, {**ext, "brokerAddr": "1.2.3.4:5"}))
        assert r.ext == {"changed": "true"} and r.body == b""
        live = ctl.routes.broker_live_table[("DefaultCluster", A0)]
        live.last_update_ms = 0
        assert (await w.call(request(904, ext))).code == 0 and live.last_update_ms > 0
        r = await w.call(request(104, ext))
        assert r.header_raw.startswith('{"code":0,"flag":1,')
        assert (await w.call(route_query("T1"))).code == 17
        assert (await w.call(request(106))).body == b'{"brokerAddrTable":{},"clusterAddrTable":{}}'
        await w.close()

    with_namesrv(tmp_path, body)


def test_namesrv_config_codes(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        text = (await w.call(request(319))).body.decode()
        lines = text.splitlines()
        assert (
            lines == sorted(lines) and text.endswith("\n") and len(lines) == 40
        )  # 22 + 18 settings, the file key, no rocketmqHome
        assert "custom.key=raw value " in lines and "orderMessageEnable=false" in lines
        assert not any(line.startswith("rocketmqHome=") for line in lines)
        r = await w.call(request(318, None, b"kvConfigPath=/tmp/evil\n"))
        assert (r.code, r.header["remark"]) == (16, "Can not update config in black list.")
        r = await w.call(request(318, None, b"x=\\u12"))
        assert (r.code, r.header["remark"]) == (1, "string2Properties error")
        # an address key refuses the whole update (Java takes it and listens there after a restart)
        r = await w.call(request(318, None, b"orderMessageEnable=true\nlistenPort=1\nunknownKey=3\n"))
        assert (r.code, r.header["remark"]) == (16, "Can not update config in black list.")
        assert not ctl.namesrv_config.order_message_enable
        r = await w.call(request(318, None, b"orderMessageEnable=true\nunknownKey=3\n"))
        assert r.code == 0 and ctl.namesrv_config.order_message_enable
        text = (await w.call(request(319))).body.decode()
        assert "orderMessageEnable=true" in text and "listenPort=1\n" not in text and "unknownKey" not in text
        assert (tmp_path / "namesrv" / "namesrv.properties").read_text() == text
        assert (await w.call(request(318))).code == 0
        await w.close()

    with_namesrv(tmp_path, body, file_properties={"custom.key": "raw value "})


def test_unknown_code_oneway_pipelining_and_binary_headers(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        r = await w.call(request(12345))
        assert r.header_raw == (
            f'{{"code":3,"flag":1,"language":"JAVA","opaque":{r.header["opaque"]},'
            '"remark":" request type 12345 not supported","serializeTypeCurrentRPC":"JSON","version":479}'
        )
        # three registrations and a query back to back: answered in order, oneway not at all
        frames = [
            encode(register_request("C", "b", 0, A0, register_body(TOPICS), oneway=True)),
            encode(register_request("C", "b", 0, A0, register_body(TOPICS))),
            encode(route_query("T1")),
            encode(request(106)),
        ]
        await w.send(b"".join(frames))
        opaques = [json.loads(f[8 : 8 + struct.unpack(">i", f[4:8])[0]])["opaque"] for f in frames]
        got = [(await w.recv()).header["opaque"] for _ in range(3)]
        assert got == opaques[1:]
        # a ROCKETMQ (binary) header is answered in the same serialization
        binary = RemotingCommand(
            code=105,
            opaque=4242,
            version=479,
            ext_fields={"topic": "T1"},
            serialize_type=SerializeType.ROCKETMQ,
        )
        await w.send(encode(binary))
        head = await w.reader.readexactly(4)
        payload = await w.reader.readexactly(struct.unpack(">i", head)[0])
        assert payload[0] == 1  # serialize type ROCKETMQ in the top byte of the header length
        (cmd,) = FrameDecoder().feed(head + payload)
        assert (cmd.code, cmd.opaque, cmd.serialize_type) == (0, 4242, SerializeType.ROCKETMQ)
        assert json.loads(cmd.body or b"")["queueDatas"][0]["brokerName"] == "b"
        await w.close()

    with_namesrv(tmp_path, body)


def test_identical_reregistration_takes_the_short_way_and_restores_deleted_topics(tmp_path: Path) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        topics = [topic_config(f"R{i:03d}") for i in range(100)]
        raw = register_body(topics)
        assert len(raw) > 4096
        first = await w.call(register_request("C", "b", 0, A0, raw))
        calls = []
        original = ctl.routes.register_broker_steps

        def spy(**kw: Any) -> Any:
            calls.append(kw["broker_addr"])
            return original(**kw)

        ctl.routes.register_broker_steps = spy  # type: ignore[method-assign]
        again = await w.call(register_request("C", "b", 0, A0, raw))
        assert (again.code, again.ext, again.body) == (first.code, first.ext, first.body)
        assert calls == []  # answered without decoding the table again
        assert (await w.call(request(216, {"topic": "R007"}))).code == 0
        assert (await w.call(route_query("R007"))).code == 17
        await w.call(register_request("C", "b", 0, A0, raw))
        assert calls == [A0]  # a topic went missing: the table is looked at again ...
        assert (await w.call(route_query("R007"))).code == 0  # ... and the topic is back (5.3.3 rule)
        await w.close()

    with_namesrv(tmp_path, body)
