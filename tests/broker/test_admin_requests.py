"""Admin requests against an in-process broker: codes, remarks and body shapes of a 4.9.8 broker."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.connection import ConsumerConnection, ProducerConnection
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.group import SubscriptionGroupWrapper
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.bodies.topic import TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.bodies.topic_list import TopicList
from mqadmin.protocol.bodies.topic_stats import TopicStatsTable
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.message_record import decode_messages
from tests.broker.inproc import running

RUNTIME_KEYS = {
    "EndTransactionQueueSize",
    "EndTransactionThreadPoolQueueCapacity",
    "bootTimestamp",
    "brokerVersion",
    "brokerVersionDesc",
    "commitLogDirCapacity",
    "commitLogDiskRatio",
    "commitLogMaxOffset",
    "commitLogMinOffset",
    "consumeQueueDiskRatio",
    "dispatchBehindBytes",
    "dispatchMaxBuffer",
    "earliestMessageTimeStamp",
    "getFoundTps",
    "getMessageEntireTimeMax",
    "getMissTps",
    "getTotalTps",
    "getTransferedTps",
    "msgGetTotalTodayMorning",
    "msgGetTotalTodayNow",
    "msgGetTotalYesterdayMorning",
    "msgPutTotalTodayMorning",
    "msgPutTotalTodayNow",
    "msgPutTotalYesterdayMorning",
    "pageCacheLockTimeMills",
    "pullThreadPoolQueueCapacity",
    "pullThreadPoolQueueHeadWaitTimeMills",
    "pullThreadPoolQueueSize",
    "putLatency99",
    "putLatency999",
    "putMessageAverageSize",
    "putMessageDistributeTime",
    "putMessageEntireTimeMax",
    "putMessageFailedTimes",
    "putMessageSizeTotal",
    "putMessageTimesTotal",
    "putTps",
    "queryThreadPoolQueueCapacity",
    "queryThreadPoolQueueHeadWaitTimeMills",
    "queryThreadPoolQueueSize",
    "remainHowManyDataToFlush",
    "remainTransientStoreBufferNumbs",
    "runtime",
    "sendThreadPoolQueueCapacity",
    "sendThreadPoolQueueHeadWaitTimeMills",
    "sendThreadPoolQueueSize",
    "startAcceptSendRequestTimeStamp",
}


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


def test_topic_admin(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            r = await env.create_topic("AdminTopic", 4)
            assert (r.code, r.remark, r.ext_fields, r.version) == (0, "not set any response code", None, 409)
            # registered with the name server before the answer
            route = await env.client.invoke(
                env.ns.address, RemotingCommand.request(105, {"topic": "AdminTopic"}), 5
            )
            assert route.code == 0
            r = await env.create_topic("TBW102")
            assert (r.code, r.remark) == (1, "The topic[TBW102] is conflict with system topic.")

            r = await env.req(21)
            assert r.ext_fields == {}
            wrapper = TopicConfigSerializeWrapper.decode(r.body)
            table = wrapper.topic_config_table or {}
            assert {
                "AdminTopic",
                "TBW102",
                "SCHEDULE_TOPIC_XXXX",
                "DefaultCluster",
                "broker-a",
                "OFFSET_MOVED_EVENT",
                "SELF_TEST_TOPIC",
                "BenchmarkTest",
                "DefaultCluster_REPLY_TOPIC",
            } <= set(table)
            assert table["TBW102"].perm == 7 and table["TBW102"].write_queue_nums == 8
            assert r.body.startswith(b'{"dataVersion":{"counter":')

            r = await env.req(351, {"topic": "AdminTopic", "lo": "true"})
            assert r.code == 0 and json.loads(r.body)["attributes"] == {}
            assert TopicConfig.decode(r.body).write_queue_nums == 4
            r = await env.req(351, {"topic": "Nope"})
            assert (r.code, r.remark) == (17, "No topic in this broker. topic: Nope")

            r = await env.req(305)
            names = TopicList.decode(r.body).topic_list
            assert {
                "TBW102",
                "SCHEDULE_TOPIC_XXXX",
                "RMQ_SYS_TRACE_TOPIC",
                "broker-a",
                "DefaultCluster",
            } <= set(names)

            await env.send("AdminTopic", b"one", 1)
            r = await env.req(202, {"topic": "AdminTopic"})
            stats = TopicStatsTable.decode(r.body)
            offsets = {mq.queue_id: (o.min_offset, o.max_offset) for mq, o in stats.offset_table.items()}
            assert offsets == {0: (0, 0), 1: (0, 1), 2: (0, 0), 3: (0, 0)}
            assert all(
                o.last_update_timestamp > 0 for mq, o in stats.offset_table.items() if mq.queue_id == 1
            )
            assert (await env.req(202, {"topic": "Nope"})).code == 17

            r = await env.req(215, {"topic": "AdminTopic"})
            assert (r.code, r.remark) == (0, None)
            assert "AdminTopic" not in (
                TopicConfigSerializeWrapper.decode((await env.req(21)).body).topic_config_table or {}
            )
            assert (await env.req(215, {"topic": "AdminTopic"})).code == 0
            assert (await env.req(30, {"topic": "AdminTopic", "queueId": "1"})).ext_fields == {"offset": "0"}
            for code in (306, 316, 329):
                assert (await env.req(code)).code == 0

    run(go())


def test_broker_config_and_runtime(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            r = await env.req(26)
            version = DataVersion.decode(r.ext_fields["version"].encode())
            assert version.counter == 0
            props = string_to_properties(r.body)
            assert props["listenPort"] == str(env.broker.port) and props["brokerName"] == "broker-a"
            keys = [line.split("=", 1)[0] for line in r.body.decode().splitlines()]
            assert len(keys) == len(set(keys)) >= 170

            r = await env.req(25, None, b"maxMessageSize=1024\n")
            assert (r.code, r.remark) == (0, None)
            r = await env.req(26)
            assert string_to_properties(r.body)["maxMessageSize"] == "1024"
            assert DataVersion.decode(r.ext_fields["version"].encode()).counter == 1
            assert (await env.send("TBW102x", b"y" * 2000)).code == 13  # takes effect at once
            assert (await env.req(25, None, b"brokerConfigPath=/x\n")).code == 16

            for i in range(3):
                assert (await env.send("RtTopic", f"m{i}".encode())).code == 0
            await env.pull("RtTopic", 0, 0)
            r = await env.req(28)
            table = KVTable.decode(r.body).table or {}
            root = env.broker.store_config.store_path_root_dir
            assert RUNTIME_KEYS <= set(table) and f"commitLogDiskRatio_{root}/commitlog" in table
            assert table["msgPutTotalTodayNow"] == "3" and table["putMessageTimesTotal"] == "3"
            assert table["msgGetTotalTodayNow"] == "3" and table["brokerVersionDesc"] == "V4_9_8"
            assert int(table["commitLogMaxOffset"]) > 0 and table["putTps"].count(" ") == 2

            env.broker.stats.sample_seconds()  # the 10-second sampling tick
            r = await env.req(315, {"statsName": "TOPIC_PUT_NUMS", "statsKey": "RtTopic"})
            assert r.code == 0 and set(json.loads(r.body)) == {"statsDay", "statsHour", "statsMinute"}
            assert json.loads(r.body)["statsMinute"]["sum"] == 3
            r = await env.req(315, {"statsName": "TOPIC_PUT_NUMS", "statsKey": "Nope"})
            assert (r.code, r.remark) == (1, "The stats <TOPIC_PUT_NUMS> <Nope> not exist")

    run(go())


def test_group_and_offset_admin(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            body = (
                b'{"brokerId":0,"consumeBroadcastEnable":false,"consumeEnable":true,"consumeFromMinEnable":false,'
                b'"groupName":"GoldenGroup","notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,'
                b'"retryQueueNums":1,"whichBrokerWhenConsumeSlowly":1}'
            )
            assert (await env.req(200, None, body)).code == 0
            groups = SubscriptionGroupWrapper.decode((await env.req(201)).body).subscription_group_table or {}
            assert groups["GoldenGroup"].consume_broadcast_enable is False and "TOOLS_CONSUMER" in groups

            await env.create_topic("GT", 2)
            for q in (0, 1, 1):
                await env.send("GT", b"x", q)
            for q, off in ((0, 1), (1, 1)):
                r = await env.req(
                    15,
                    {
                        "consumerGroup": "GoldenGroup",
                        "topic": "GT",
                        "queueId": str(q),
                        "commitOffset": str(off),
                    },
                )
                assert (r.code, r.ext_fields) == (0, {})
            r = await env.req(14, {"consumerGroup": "GoldenGroup", "topic": "GT", "queueId": "1"})
            assert r.ext_fields == {"offset": "1"}
            r = await env.req(14, {"consumerGroup": "Fresh", "topic": "GT", "queueId": "1"})
            assert r.ext_fields == {"offset": "0"}  # a new group starts at 0 while the first message is there

            stats = ConsumeStats.decode((await env.req(208, {"consumerGroup": "GoldenGroup"})).body)
            assert {
                mq.queue_id: (w.broker_offset, w.consumer_offset) for mq, w in stats.offset_table.items()
            } == {0: (1, 1), 1: (2, 1)}
            assert stats.total_diff() == 1
            r = await env.req(317, {"isOrder": "false"})
            body317 = fastjson.loads(r.body)
            assert body317["totalDiff"] == 1 and body317["brokerAddr"] == env.addr
            assert json.loads((await env.req(300, {"topic": "GT"})).body) == {"groupList": ["GoldenGroup"]}
            assert b'"GT@GoldenGroup":{0:1,1:1}' in (await env.req(43)).body
            r = await env.req(303, {"topic": "GT", "group": "GoldenGroup"})
            assert len(json.loads(r.body)["consumeTimeSpanSet"]) == 2

            r = await env.req(222, {"topic": "GT", "group": "Other", "timestamp": "-1", "isForce": "true"})
            assert (r.code, r.remark) == (1, "THe consumer group <Other> not exist")
            r = await env.req(
                222, {"topic": "GT", "group": "GoldenGroup", "timestamp": "-1", "isForce": "true"}
            )
            assert r.code == 206 and r.remark.startswith(
                "Consumer not online, so can not reset offset, Group: GoldenGroup"
            )

            r = await env.req(203, {"consumerGroup": "GoldenGroup"})
            assert (r.code, r.remark) == (206, "the consumer group[GoldenGroup] not online")
            r = await env.req(204, {"producerGroup": "PG"})
            assert (r.code, r.remark) == (1, "the producer group[PG] not exist")

            r = await env.req(207, {"groupName": "GoldenGroup", "removeOffset": "true"})
            assert r.code == 0
            assert "GoldenGroup" not in (
                SubscriptionGroupWrapper.decode((await env.req(201)).body).subscription_group_table or {}
            )
            assert b"GoldenGroup" not in (await env.req(43)).body

    run(go())


def test_rocketmq_binary_header_is_answered_in_kind(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            cmd = RemotingCommand.request(30, {"topic": "Any", "queueId": "0"})
            cmd.serialize_type = SerializeType.ROCKETMQ
            r = await env.client.invoke(env.addr, cmd, 5)
            assert (r.code, r.ext_fields, r.serialize_type) == (0, {"offset": "0"}, SerializeType.ROCKETMQ)

    run(go())


def test_clients_heartbeat_notify_and_connections(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            notified: list[RemotingCommand] = []
            env.client.register_handler(40, lambda conn, cmd: notified.append(cmd))
            hb = {
                "clientID": "c1@1",
                "producerDataSet": [{"groupName": "PG1"}],
                "consumerDataSet": [
                    {
                        "groupName": "CG1",
                        "consumeType": "CONSUME_PASSIVELY",
                        "messageModel": 1,
                        "consumeFromWhere": 0,
                        "unitMode": False,
                        "subscriptionDataSet": [{"topic": "T1", "subString": "*", "subVersion": "5"}],
                    }
                ],
            }
            r = await env.req(34, None, json.dumps(hb).encode())
            assert (r.code, r.ext_fields, r.remark) == (0, None, None)
            await asyncio.sleep(0.05)
            assert [(c.code, c.ext_fields, c.flag) for c in notified] == [(40, {"consumerGroup": "CG1"}, 2)]
            assert (await env.req(34, None, json.dumps(hb).encode())).code == 0  # nothing changed: no notice
            await asyncio.sleep(0.05)
            assert len(notified) == 1

            r = await env.req(38, {"consumerGroup": "CG1"})
            assert (r.ext_fields, json.loads(r.body)) == ({}, {"consumerIdList": ["c1@1"]})
            cc = ConsumerConnection.decode((await env.req(203, {"consumerGroup": "CG1"})).body)
            assert cc.connection_set[0].client_id == "c1@1" and cc.message_model == "CLUSTERING"
            assert set(cc.subscription_table) == {"T1"}
            pc = ProducerConnection.decode((await env.req(204, {"producerGroup": "PG1"})).body)
            assert pc.connection_set[0].language == "JAVA"
            assert "%RETRY%CG1" in (
                TopicConfigSerializeWrapper.decode((await env.req(21)).body).topic_config_table or {}
            )

            r = await env.req(35, {"clientID": "c1@1", "consumerGroup": "CG1", "producerGroup": "PG1"})
            assert (r.code, r.ext_fields) == (0, {})
            r = await env.req(38, {"consumerGroup": "CG1"})
            assert (r.code, r.remark) == (1, "no consumer for this group, CG1")

    run(go())


def test_long_polling(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            await env.create_topic("LP", 1)
            loop = asyncio.get_running_loop()
            # parked, answered as soon as a message arrives
            started = loop.time()
            waiting = asyncio.ensure_future(env.pull("LP", 0, 0, sys_flag=6, suspend_ms=15000))
            await asyncio.sleep(0.3)
            assert not waiting.done()
            await env.send("LP", b"wake")
            r = await waiting
            assert (r.code, r.remark) == (0, "FOUND") and loop.time() - started < 2
            assert [m.body for m in decode_messages(r.body)] == [b"wake"]
            # parked, answered at its timeout with PULL_NOT_FOUND
            started = loop.time()
            r = await env.pull("LP", 0, 1, sys_flag=6, suspend_ms=500)
            assert (r.code, r.remark) == (19, "OFFSET_OVERFLOW_ONE") and 0.4 < loop.time() - started < 2
            # a tag filter: a message with another tag does not wake it
            waiting = asyncio.ensure_future(env.pull("LP", 0, 1, sys_flag=6, suspend_ms=15000, sub="A || B"))
            await asyncio.sleep(0.2)
            await env.send("LP", b"c", props="TAGS\x01C\x02")
            await asyncio.sleep(0.2)
            assert not waiting.done()
            await env.send("LP", b"b", props="TAGS\x01B\x02")
            r = await asyncio.wait_for(waiting, 2)
            assert r.code == 0 and [m.body for m in decode_messages(r.body)] == [b"b"]

    run(go())


def test_query_and_view_and_send_back(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path, message_delay_level="1s 1s 1s 1s") as env:
            await env.create_topic("QT", 1)
            r = await env.send("QT", b"keyed", props="KEYS\x01k1 k2\x02TAGS\x01t\x02UNIQ_KEY\x01ABCDEF\x02")
            msg_id = r.ext_fields["msgId"]
            r = await env.req(
                12,
                {
                    "topic": "QT",
                    "key": "k2",
                    "maxNum": "64",
                    "beginTimestamp": "0",
                    "endTimestamp": str(2**63 - 1),
                    "_UNIQUE_KEY_QUERY": "false",
                },
            )
            assert r.code == 0 and [m.body for m in decode_messages(r.body)] == [b"keyed"]
            assert set(r.ext_fields) == {"indexLastUpdatePhyoffset", "indexLastUpdateTimestamp"}
            r = await env.req(
                12,
                {
                    "topic": "QT",
                    "key": "none",
                    "maxNum": "64",
                    "beginTimestamp": "0",
                    "endTimestamp": str(2**63 - 1),
                },
            )
            assert (r.code, r.remark) == (22, "can not find message, maybe time range not correct")
            offset = int(msg_id[16:], 16)
            r = await env.req(33, {"offset": str(offset)})
            (stored,) = decode_messages(r.body)
            assert stored.properties["CLUSTER"] == "DefaultCluster" and "WAIT" not in stored.properties

            # a failed message goes back: delayed, then in %RETRY%G; past max retries, %DLQ%G
            r = await env.req(
                36,
                {
                    "offset": str(offset),
                    "group": "G",
                    "delayLevel": "0",
                    "originMsgId": msg_id,
                    "originTopic": "QT",
                    "unitMode": "false",
                    "maxReconsumeTimes": "16",
                },
            )
            assert (r.code, r.remark) == (0, None)
            for _ in range(50):
                if (await env.req(30, {"topic": "%RETRY%G", "queueId": "0"})).ext_fields["offset"] == "1":
                    break
                await asyncio.sleep(0.1)
            r = await env.pull("%RETRY%G", 0, 0)
            (retry,) = decode_messages(r.body)
            assert retry.reconsume_times == 1 and retry.properties["RETRY_TOPIC"] == "QT"
            assert retry.properties["ORIGIN_MESSAGE_ID"] == msg_id and retry.body == b"keyed"
            r = await env.req(
                36,
                {
                    "offset": str(retry.commit_log_offset),
                    "group": "G",
                    "delayLevel": "0",
                    "maxReconsumeTimes": "1",
                },
            )
            assert r.code == 0
            (dlq,) = decode_messages((await env.pull("%DLQ%G", 0, 0)).body)
            assert dlq.properties["ORIGIN_MESSAGE_ID"] == msg_id and dlq.reconsume_times == 2

    run(go())


def test_config_files_persist_in_java_format(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            await env.create_topic("PersistTopic", 2)
            await env.req(
                15, {"consumerGroup": "PG", "topic": "PersistTopic", "queueId": "0", "commitOffset": "6"}
            )
            await env.req(
                15, {"consumerGroup": "PG", "topic": "PersistTopic", "queueId": "1", "commitOffset": "3"}
            )
        config = tmp_path / "store" / "config"
        topics = (config / "topics.json").read_text()
        assert topics.startswith('{\n\t"dataVersion":{\n\t\t"counter":') and not topics.endswith("\n")
        assert '\t\t"PersistTopic":{\n\t\t\t"order":false,\n\t\t\t"perm":6,' in topics
        offsets = (config / "consumerOffset.json").read_text()
        assert offsets == '{\n\t"offsetTable":{\n\t\t"PersistTopic@PG":{0:6,1:3\n\t\t}\n\t}\n}'
        groups = (config / "subscriptionGroup.json").read_text()
        assert '"TOOLS_CONSUMER":{\n\t\t\t"brokerId":0,' in groups
        # a second start reads them back
        async with running(tmp_path) as env:
            r = await env.req(14, {"consumerGroup": "PG", "topic": "PersistTopic", "queueId": "0"})
            assert r.ext_fields == {"offset": "6"}
            assert "PersistTopic" in env.broker.topics.table

    run(go())
