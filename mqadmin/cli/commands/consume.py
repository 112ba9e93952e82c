"""``mqadmin consume``: read a topic as kcat -C does, to a terminal or down a pipe.

Every readable queue is read in turn, a batch at a time, from where ``--from`` says (the group's
committed offsets with ``-g``, else the earliest), to its end; ``--follow`` keeps waiting for new
messages. Each message is one line of ``-f FORMAT`` (kcat's tokens) or, with ``--json``, one JSON
document a line. ``-g`` commits what was printed to the group, so its lag shows as any consumer's.
It ends quietly when the reader of stdout is gone (``| head``) and on Ctrl-C.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mqadmin.admin.consumers import EmptyConsumeStatsError
from mqadmin.admin.offset_reset import offset_at_or_after
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.commands.message_text import decode_body, message_json
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import usage_error
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.optvalues import parse_int
from mqadmin.cli.timeargs import parse_time_ms
from mqadmin.cli.watch import pause
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message_record import MessageExt

__all__ = ["render", "start_offsets"]

BATCH = 32
FOLLOW_PAUSE = 0.5
"""Seconds between two rounds of pulls once every queue is read to its end (``--follow``)."""
DEFAULT_FORMAT = "%s\\n"
_TOKEN = re.compile(r"%[tbpokThsd%]|\\[ntr\\]")
_PERCENT = re.compile(r"%(.?)", re.DOTALL)
_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\r": "\r", "\\\\": "\\"}
_LAST_N = re.compile(r"-\d+")


def render(fmt: str, msg: MessageExt) -> str:
    """One message in kcat's format language: %t topic, %b broker, %p queue, %o offset, %k keys,
    %T tags, %h properties (k=v, comma-separated), %s body, %d store time (epoch ms), %% a percent;
    \\n \\t \\r \\\\ escapes."""

    def token(m: re.Match[str]) -> str:
        t = m.group(0)
        if t in _ESCAPES:
            return _ESCAPES[t]
        match t[1]:
            case "t":
                return msg.topic
            case "b":
                return msg.broker_name or ""
            case "p":
                return str(msg.queue_id)
            case "o":
                return str(msg.queue_offset)
            case "k":
                return msg.keys or ""
            case "T":
                return msg.tags or ""
            case "h":
                return ",".join(f"{k}={v}" for k, v in msg.properties.items())
            case "s":
                return decode_body(msg.body)
            case "d":
                return str(msg.store_timestamp)
        return "%"

    return _TOKEN.sub(token, fmt)


def check_format(fmt: str) -> None:
    """Refuse a format with a token :func:`render` does not know (kcat's "Unsupported formatter"),
    rather than print it as it stands on every message."""
    for m in _PERCENT.finditer(fmt):  # left to right, so "%%" is read as one token
        if m.group(1) and m.group(1) in "tbpokThsd%":
            continue
        shown = repr(m.group(0)) if m.group(1) else "'%' at the end"
        raise usage_error(
            f"-f: unknown token {shown}; the tokens are %t %b %p %o %k %T %h %s %d and %% (a percent sign)"
        )


@dataclass(slots=True)
class QueueCursor:
    """Where the reading of one queue stands: the next offset, and whether it reached the end."""

    mq: MessageQueue
    offset: int
    at_end: bool = False
    committed: int | None = None


async def start_offsets(
    inv: Invocation, queues: list[MessageQueue], start: str | None, group: str | None
) -> list[QueueCursor]:
    """The first offset to read on each queue, from ``--from`` (or the group's, or the earliest)."""
    msgs = inv.admin.messages
    committed: dict[MessageQueue, int] = {}
    if group is not None and start is None and queues:
        try:
            stats = await inv.admin.consumers.examine_consume_stats(group, queues[0].topic)
        except EmptyConsumeStatsError:  # a group that never committed: from the earliest
            stats = None
        if stats is not None:
            committed = {mq: w.consumer_offset for mq, w in stats.offset_table.items()}
    cursors = []
    for mq in queues:
        lo, hi = await msgs.min_offset(mq), await msgs.max_offset(mq)
        if start is None:
            at = committed.get(mq, lo) if group is not None else lo
        elif start == "earliest":
            at = lo
        elif start == "latest":
            at = hi
        elif _LAST_N.fullmatch(start):
            at = hi - int(start[1:])
        else:
            at = await offset_at_or_after(inv.admin, mq, parse_time_ms(start, "--from"))
        cursors.append(QueueCursor(mq, max(lo, min(at, hi))))
    return cursors


_FROM = OurOpt(
    ("--from",),
    "start",
    "Where to start on each queue: earliest, latest, -N (the last N messages of each queue) or a "
    "time (epoch ms, ISO 8601, yyyy-MM-dd#HH:mm:ss:SSS). Default: the group's committed offsets with "
    "-g, else earliest.",
    metavar="WHERE",
)
_FOLLOW = OurOpt(
    ("--follow",),
    "follow",
    "At the end of the queues, wait for new messages (until Ctrl-C or the reader of stdout is gone).",
    kind="flag",
)


@java_command(
    "consume",
    [
        JavaOpt("t", "topic", "Topic to read", required=True),
        JavaOpt("g", "group", "Consumer group: start from its committed offsets, commit what was printed"),
        JavaOpt("f", "format", "Output format of each message (kcat's tokens, default '%s\\n')", dest="fmt"),
        JavaOpt("s", "subExpression", "Tag expression (TagA || TagB), default *", dest="sub_expression"),
        JavaOpt("c", "count", "Stop after this many messages"),
    ],
    json_doc="one document a line per message, as printMsg --json-lines: " + '{"timestamp": ms, "msgId": '
    'str, "topic": str, "brokerName": str, "queueId": int, "queueOffset": int, ..., "body": str|null}',
    epilog="Format tokens: %t topic, %b broker name, %p queue id, %o queue offset, %k keys, %T tags, "
    "%h properties (k=v,...), %s body, %d store timestamp (epoch ms), %% a percent sign; \\n, \\t, "
    "\\r and \\\\ are escapes. kcat: kcat -C -t T -o -10 -f '%t %p %o %k %s\\n' is mqadmin consume -t "
    "T --from -10 -f '%t %p %o %k %s\\n'. With -g the offsets of what was printed are committed to "
    "the group, queue by queue, as each batch is written.",
    own=[_FROM, _FOLLOW],
    blocking=False,  # --follow waits on the loop between rounds
)
async def consume(
    inv: Invocation,
    topic: str,
    group: str | None,
    fmt: str | None,
    sub_expression: str | None,
    count: str | None,
    start: str | None,
    follow: bool,
) -> None:
    t = topic_arg(topic)
    g = group_arg(group) if group is not None else None
    limit = parse_int(count, "-c") if count is not None else None
    if limit is not None and limit <= 0:
        raise usage_error(f"-c takes a positive count, not {limit}")
    where = start.strip() if start is not None else None
    if where is not None and where not in ("earliest", "latest") and not _LAST_N.fullmatch(where):
        parse_time_ms(where, "--from")  # refused before anything is sent
    form = fmt if fmt is not None else DEFAULT_FORMAT
    check_format(form)
    sub = sub_expression.strip() if sub_expression is not None else "*"
    admin = inv.admin
    cursors = await start_offsets(inv, await admin.messages.fetch_subscribe_message_queues(t), where, g)
    printed = 0
    try:
        while True:
            for cur in cursors:
                r = await admin.messages.pull_message(cur.mq, sub, cur.offset, BATCH)
                inv.any_success = True
                found = r.messages if r.status == "FOUND" else []
                messages = found[: limit - printed] if limit is not None else found
                for m in messages:
                    _write(inv, form, m)
                printed += len(messages)
                if len(messages) < len(found):  # -c reached inside the batch: the rest is not read
                    cur.offset = messages[-1].queue_offset + 1 if messages else cur.offset
                elif r.status in ("FOUND", "NO_MATCHED_MSG"):
                    cur.offset = r.next_begin_offset
                elif r.status == "OFFSET_ILLEGAL":
                    cur.offset = max(r.min_offset, min(cur.offset, r.max_offset))
                cur.at_end = r.status not in ("FOUND", "NO_MATCHED_MSG") or cur.offset >= r.max_offset
                if limit is not None and printed >= limit:
                    return
            if g is not None:
                await _commit(inv, g, cursors)
            if all(c.at_end for c in cursors):
                if not follow:
                    return
                await pause(FOLLOW_PAUSE)  # ends at once when the reader of stdout is gone
    finally:
        if g is not None:
            await _commit(inv, g, cursors)


def _write(inv: Invocation, form: str, m: MessageExt) -> None:
    if inv.out.structured:
        inv.out.json_line(message_json(m))
    else:
        inv.out.text(render(form, m))


async def _commit(inv: Invocation, group: str, cursors: list[QueueCursor]) -> None:
    """Commit each queue's next offset to ``group`` where it moved since the last commit."""
    msgs = inv.admin.messages
    for cur in cursors:
        if cur.committed == cur.offset:
            continue
        assert cur.mq.topic is not None and cur.mq.broker_name is not None
        addr = await msgs.broker_addr_of(cur.mq.topic, cur.mq.broker_name)
        await inv.admin.offsets.update_consume_offset(addr, group, cur.mq, cur.offset)
        cur.committed = cur.offset
