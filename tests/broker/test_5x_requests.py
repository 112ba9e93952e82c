"""What 5.x tools send that a 4.9.8 broker ignores or drops, and the store's periodic flush.

In-process broker (:mod:`tests.broker.inproc`): single-queue resets (222 with ``queueId``/``offset``),
``cleanOffset`` on 207, ``pullOffset`` in 208, 5.x subscription-group fields kept by 200, and the
checkpoint moving while the broker runs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from mqadmin.broker.store.checkpoint import Checkpoint
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.consume_stats import ConsumeStats
from mqadmin.protocol.bodies.group import SubscriptionGroupWrapper
from mqadmin.protocol.command import RemotingCommand
from tests.broker.inproc import Env, running

CLASSIC_GROUP_KEYS = {
    "brokerId",
    "consumeBroadcastEnable",
    "consumeEnable",
    "consumeFromMinEnable",
    "groupName",
    "notifyConsumerIdsChangedEnable",
    "retryMaxTimes",
    "retryQueueNums",
    "whichBrokerWhenConsumeSlowly",
}


def run(coro) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(coro)


async def commit(env: Env, group: str, topic: str, queue_id: int, offset: int) -> None:
    r = await env.req(
        15, {"consumerGroup": group, "topic": topic, "queueId": str(queue_id), "commitOffset": str(offset)}
    )
    assert r.code == 0


async def committed(env: Env, group: str, topic: str) -> dict[int, int]:
    table = fastjson.loads((await env.req(43)).body)["offsetTable"]
    return dict(table.get(f"{topic}@{group}", {}))


async def go_online(env: Env, group: str, topic: str) -> list[RemotingCommand]:
    """Heartbeat a consumer of ``group`` on the test client; returns the 220 notices it will get."""
    notices: list[RemotingCommand] = []
    env.client.register_handler(220, lambda conn, cmd: notices.append(cmd))
    env.client.register_handler(40, lambda conn, cmd: None)
    hb = {
        "clientID": "c5@1",
        "producerDataSet": [],
        "consumerDataSet": [
            {
                "groupName": group,
                "consumeType": "CONSUME_PASSIVELY",
                "messageModel": "CLUSTERING",
                "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                "unitMode": False,
                "subscriptionDataSet": [{"topic": topic, "subString": "*", "subVersion": 1}],
            }
        ],
    }
    assert (await env.req(34, None, json.dumps(hb).encode())).code == 0
    return notices


def queue_offsets(body: bytes) -> dict[int, int]:
    """A ResetOffsetBody's ``{{mq}:offset}`` table as queue id → offset."""
    table = fastjson.loads(body)["offsetTable"]
    return {mq["queueId"]: off for mq, off in table.items()}


def test_reset_offset_of_one_queue(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            await env.create_topic("RT", 4)
            for q in range(4):
                for _ in range(5):
                    await env.send("RT", b"x", q)
                await commit(env, "RG", "RT", q, 1)

            # nobody online: the broker applies the one-queue reset itself (a 5.x broker does too)
            single = {"topic": "RT", "group": "RG", "timestamp": "0", "isForce": "false"}
            r = await env.req(222, {**single, "queueId": "2", "offset": "4"})
            assert (r.code, queue_offsets(r.body)) == (0, {2: 4})
            assert await committed(env, "RG", "RT") == {0: 1, 1: 1, 2: 4, 3: 1}

            r = await env.req(222, {**single, "queueId": "1", "offset": "99"})
            assert (r.code, r.remark) == (1, "Target offset 99 not in consume queue range [0-5]")
            assert await committed(env, "RG", "RT") == {0: 1, 1: 1, 2: 4, 3: 1}

            notices = await go_online(env, "RG", "RT")
            r = await env.req(222, {**single, "queueId": "3", "offset": "0"})
            assert (r.code, queue_offsets(r.body)) == (0, {3: 0})
            await asyncio.sleep(0.1)
            assert [(n.code, queue_offsets(n.body)) for n in notices] == [(220, {3: 0})]
            assert await committed(env, "RG", "RT") == {0: 1, 1: 1, 2: 4, 3: 0}

            # queueId -1 and offset -1 (what 5.x sends for a whole-topic reset): every queue, as before
            r = await env.req(
                222,
                {
                    "topic": "RT",
                    "group": "RG",
                    "timestamp": "-1",
                    "isForce": "true",
                    "queueId": "-1",
                    "offset": "-1",
                },
            )
            assert (r.code, queue_offsets(r.body)) == (0, {0: 5, 1: 5, 2: 5, 3: 5})
            await asyncio.sleep(0.1)
            assert queue_offsets(notices[-1].body) == {0: 5, 1: 5, 2: 5, 3: 5}
            # the consumers commit those: the broker's own offsets stay until they do
            assert await committed(env, "RG", "RT") == {0: 1, 1: 1, 2: 4, 3: 0}

    run(go())


def test_delete_group_with_5x_clean_offset(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            await env.create_topic("DT", 2)
            await env.send("DT", b"x", 0)
            for group in ("Keep5", "Drop5"):
                await commit(env, group, "DT", 0, 1)
            assert (await env.req(207, {"groupName": "Keep5", "cleanOffset": "false"})).code == 0
            assert (await env.req(207, {"groupName": "Drop5", "cleanOffset": "true"})).code == 0
            body = (await env.req(43)).body
            assert b"DT@Keep5" in body and b"DT@Drop5" not in body

    run(go())


def test_consume_stats_has_the_5x_pull_offset(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            await env.create_topic("PT", 2)
            for _ in range(3):
                await env.send("PT", b"x", 0)
            await env.send("PT", b"x", 1)
            await commit(env, "PG5", "PT", 0, 1)
            await commit(env, "PG5", "PT", 1, 1)
            r = await env.pull("PT", 0, 1, group="PG5")
            assert (r.code, r.ext_fields["nextBeginOffset"]) == (0, "3")

            r = await env.req(208, {"consumerGroup": "PG5", "topic": "PT"})
            stats = ConsumeStats.decode(r.body)
            got = {
                mq.queue_id: (w.broker_offset, w.consumer_offset, w.pull_offset)
                for mq, w in stats.offset_table.items()
            }
            # queue 0: pulled up to 3, committed 1 → 2 in flight; queue 1: never pulled
            assert got == {0: (3, 1, 3), 1: (1, 1, 1)}
            assert b'"lastTimestamp"' in r.body
            # a group with no committed offset: consumerOffset 0, pullOffset never below it
            await env.pull("PT", 1, 0, group="Fresh5")
            stats = ConsumeStats.decode((await env.req(208, {"consumerGroup": "Fresh5", "topic": "PT"})).body)
            got = {mq.queue_id: (w.consumer_offset, w.pull_offset) for mq, w in stats.offset_table.items()}
            assert got == {0: (0, 0), 1: (0, 1)}
            # GET_BROKER_CONSUME_STATS keeps the 4.x shape (5.x does not add pullOffset there either)
            assert b"pullOffset" not in (await env.req(317, {"isOrder": "false"})).body

    run(go())


def test_5x_subscription_group_fields_are_kept(tmp_path: Path) -> None:
    five = {
        "attributes": {"+k": "v"},
        "brokerId": 0,
        "consumeBroadcastEnable": True,
        "consumeEnable": True,
        "consumeFromMinEnable": True,
        "consumeMessageOrderly": True,
        "consumeTimeoutMinute": 30,
        "groupName": "Group5",
        "groupRetryPolicy": {
            "exponentialRetryPolicy": {"initial": 1000, "max": 60000, "multiplier": 3},
            "type": "EXPONENTIAL",
        },
        "groupSysFlag": 0,
        "notifyConsumerIdsChangedEnable": True,
        "retryMaxTimes": 5,
        "retryQueueNums": 1,
        "whichBrokerWhenConsumeSlowly": 1,
    }
    partial = {"groupName": "Partial5", "consumeMessageOrderly": True}
    four = {k: v for k, v in five.items() if k in CLASSIC_GROUP_KEYS} | {"groupName": "Group4"}

    async def read_back(env: Env) -> dict[str, Any]:
        return dict(fastjson.loads((await env.req(201)).body)["subscriptionGroupTable"])

    async def go() -> None:
        async with running(tmp_path) as env:
            for body in (five, partial, four):
                assert (await env.req(200, None, json.dumps(body).encode())).code == 0
            table = await read_back(env)
            assert table["Group5"] == five
            assert set(table["Group4"]) == CLASSIC_GROUP_KEYS and table["Group4"] == four
            p = table["Partial5"]  # the 5.x fields it left out take 5.x defaults
            assert (p["consumeMessageOrderly"], p["consumeTimeoutMinute"], p["groupSysFlag"]) == (True, 15, 0)
            assert p["attributes"] == {} and p["groupRetryPolicy"]["type"] == "CUSTOMIZED"
            parsed = SubscriptionGroupWrapper.decode((await env.req(201)).body).subscription_group_table or {}
            assert parsed["Group5"].consume_timeout_minute == 30
        async with running(tmp_path) as env:  # and subscriptionGroup.json keeps them over a restart
            table = await read_back(env)
            assert table["Group5"] == five and table["Group4"] == four

    run(go())


def test_store_is_flushed_while_running(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as env:
            store = env.broker.store
            path = store.config.root / "checkpoint"
            await env.create_topic("FT", 1)
            await env.send("FT", b"x" * 100, 0)
            end = store.commitlog.max_offset
            assert end > 0
            await asyncio.sleep(1.6)
            assert Checkpoint.read(path).dispatched_offset == end  # no shutdown needed

            syncs = 0
            real_sync = store.commitlog.sync

            def counting_sync() -> None:
                nonlocal syncs
                syncs += 1
                real_sync()

            store.commitlog.sync = counting_sync  # type: ignore[method-assign]
            await asyncio.sleep(2.2)
            assert syncs == 0  # nothing written: nothing flushed
            await env.send("FT", b"y" * 100, 0)
            await asyncio.sleep(1.6)
            assert syncs >= 1 and Checkpoint.read(path).dispatched_offset == store.commitlog.max_offset

    run(go())
