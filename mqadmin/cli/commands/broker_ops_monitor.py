"""startMonitoring: Java's ``MonitorService`` with its ``DefaultMonitorListener``, run in the foreground.

Every round (the first 20 s after the start, then every 60 s, as ``MonitorConfig`` sets it) walks
the topic list; for each ``%RETRY%<group>`` topic it reports the group's undone messages per topic
(``UndoneMsgs``: the total lag, the largest lag of one queue, and the delay of the newest message
behind the last consumed one) and, when clients disagree on the subscription, a notice. Java logs
these lines to its tools log; here they go to stdout, one line each, with Java's text. The command
runs until interrupted (Ctrl-C, exit 130); ``--rounds`` stops it after that many rounds, and
``--first-delay``/``--interval`` change the timing (options of ours). A round that fails on one
group goes on with the next, as Java does; a round that cannot list the topics is reported on
stderr and the next round runs anyway.
"""

from __future__ import annotations

import asyncio
from typing import Any

import click

from mqadmin.cli.command import Invocation, java_command

PREFIX = "[MONITOR] "
FIRST_DELAY_S = 20.0
ROUND_INTERVAL_S = 60.0
RETRY_PREFIX = "%RETRY%"


@java_command(
    "startMonitoring",
    [],
    json_doc='one JSON document per round: {"round": int, "undone": [{"consumerGroup": str, "topic": str, '
    '"undoneMsgsTotal": int, "undoneMsgsSingleMQ": int, "undoneMsgsDelayTimeMills": int}]}',
    own=[
        click.Option(
            ["--rounds"], type=click.IntRange(min=0), default=0, help="Stop after N rounds (0: never)."
        ),
        click.Option(
            ["--first-delay"],
            type=click.FloatRange(min=0),
            default=FIRST_DELAY_S,
            help="Seconds before round 1.",
        ),
        click.Option(
            ["--interval"],
            type=click.FloatRange(min=0.1),
            default=ROUND_INTERVAL_S,
            help="Seconds between rounds.",
        ),
    ],
    blocking=False,  # rounds with pauses on the loop
)
async def start_monitoring(inv: Invocation, rounds: int, first_delay: float, interval: float) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(first_delay)
    n = 0
    while True:
        started = loop.time()
        n += 1
        try:
            await _round(inv, n)
        except Exception as e:  # the next round runs anyway
            inv.report(e)
        if rounds and n >= rounds:
            return
        await asyncio.sleep(max(0.0, interval - (loop.time() - started)))


async def _round(inv: Invocation, n: int) -> None:
    admin = inv.admin
    undone: list[dict[str, Any]] = []
    lines = [PREFIX + "=========================================beginRound\n"]
    for topic in await admin.namesrv.fetch_all_topic_list():
        if not topic.startswith(RETRY_PREFIX):
            continue
        group = topic[len(RETRY_PREFIX) :]
        try:
            reports = await _undone(inv, group)
        except Exception:  # Java ignores a group it cannot examine
            continue
        for r in reports:
            undone.append(r)
            lines.append(
                f"{PREFIX}reportUndoneMsgs: UndoneMsgs [consumerGroup={r['consumerGroup']}, "
                f"topic={r['topic']}, undoneMsgsTotal={r['undoneMsgsTotal']}, "
                f"undoneMsgsSingleMQ={r['undoneMsgsSingleMQ']}, "
                f"undoneMsgsDelayTimeMills={r['undoneMsgsDelayTimeMills']}]\n"
            )
    lines.append(PREFIX + "=========================================endRound\n")
    if inv.out.structured:
        inv.out.data({"round": n, "undone": undone}, compact=True)
    else:
        inv.out.text("".join(lines))


async def _undone(inv: Invocation, group: str) -> list[dict[str, Any]]:
    """``reportUndoneMsgs``: the group's lag per topic (Java needs its connection to be examinable)."""
    admin = inv.admin
    stats = await admin.consumers.examine_consume_stats(group)
    await admin.connections.examine_consumer_connection_info(group)
    by_topic: dict[str, list[Any]] = {}
    for mq, ow in stats.offset_table.items():
        by_topic.setdefault(mq.topic or "", []).append((mq, ow))
    out: list[dict[str, Any]] = []
    for topic, queues in by_topic.items():
        total = single = delay_max = 0
        for mq, ow in queues:
            diff = ow.broker_offset - ow.consumer_offset
            single = max(single, diff)
            if diff > 0:
                total += diff
            if ow.last_timestamp > 0:
                delay_max = max(delay_max, await _delay(inv, mq, ow.last_timestamp))
        out.append(
            {
                "consumerGroup": group,
                "topic": topic,
                "undoneMsgsTotal": total,
                "undoneMsgsSingleMQ": single,
                "undoneMsgsDelayTimeMills": delay_max,
            }
        )
    return out


async def _delay(inv: Invocation, mq: Any, last_timestamp: int) -> int:
    """Store time of the queue's newest message minus the last consumed one's (0 if unknown)."""
    try:
        newest = await inv.admin.messages.max_offset(mq)
        if newest <= 0:
            return 0
        pulled = await inv.admin.messages.pull_message(mq, "*", newest - 1, 1)
    except Exception:
        return 0
    if pulled.status != "FOUND" or not pulled.messages:
        return 0
    return int(pulled.messages[0].store_timestamp - last_timestamp)
