"""``mqadmin resetOffsets``: kafka-consumer-groups' offset resets, for one group and topic.

A dry run by default: the plan per queue (the committed offset, the new one, the lag it leaves) and
nothing changed; ``--execute`` commits it. ``--export FILE`` writes the offsets the group has now, in
the CSV that ``--from-file`` reads back, so a reset can be rolled back. ``resetOffsetByTime`` stays the
Java tool's command; this one speaks Kafka's words (see :mod:`mqadmin.admin.offset_reset`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqadmin.admin.offset_reset import QueuePlan, Target, apply, plan, read_export, write_export
from mqadmin.atomicfile import write_atomic
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.optvalues import parse_long
from mqadmin.cli.results import Result
from mqadmin.cli.safety import Step, confirm
from mqadmin.cli.timeargs import parse_duration_ms, parse_time_ms

__all__ = ["ResetPlan", "target_of"]

_ROW = "%-24s  %-8s  %-16s  %-16s  %-16s%n"


@dataclass(slots=True)
class ResetPlan(Result):
    """The plan (or what was done, ``executed``): one row per queue."""

    group: str
    topic: str
    how: str
    plans: list[QueuePlan]
    executed: bool

    def text(self) -> str:
        head = (
            f"reset offsets of group [{self.group}] on topic [{self.topic}] {self.how}: done\n"
            if self.executed
            else f"dry run, nothing changed (--execute applies it): reset offsets of group [{self.group}] "
            f"on topic [{self.topic}] {self.how}\n"
        )
        rows = [jformat(_ROW, "#Broker Name", "#QID", "#Current Offset", "#New Offset", "#Lag After")]
        for p in self.plans:
            current = "-" if p.current is None else str(p.current)
            rows.append(
                jformat(
                    _ROW,
                    p.queue.broker_name,
                    str(p.queue.queue_id),
                    current,
                    str(p.new),
                    str(p.max_offset - p.new),
                )
            )
        return head + "".join(rows)

    def data(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "topic": self.topic,
            "dryRun": not self.executed,
            "queues": [p.to_json() for p in self.plans],
        }


def target_of(
    earliest: bool,
    latest: bool,
    shift_by: str | None,
    by_duration: str | None,
    to_datetime: str | None,
    to_offset: str | None,
    from_file: str | None,
    topic: str,
    now_ms: int,
) -> tuple[Target, str]:
    """The one target the options name, and its words for the plan's title."""
    chosen = [
        name
        for name, given in (
            ("--to-earliest", earliest),
            ("--to-latest", latest),
            ("--shift-by", shift_by is not None),
            ("--by-duration", by_duration is not None),
            ("--to-datetime", to_datetime is not None),
            ("--to-offset", to_offset is not None),
            ("--from-file", from_file is not None),
        )
        if given
    ]
    if len(chosen) != 1:
        which = ", ".join(chosen) if chosen else "none"
        raise usage_error(
            "give exactly one of --to-earliest, --to-latest, --shift-by, --by-duration, --to-datetime, "
            f"--to-offset, --from-file (given: {which})"
        )
    if earliest:
        return Target("earliest"), "to the earliest"
    if latest:
        return Target("latest"), "to the latest"
    if shift_by is not None:
        n = parse_long(shift_by, "--shift-by")
        return Target("shift", n), f"shifted by {n}"
    if by_duration is not None:
        ms = parse_duration_ms(by_duration, "--by-duration")
        return Target("time", now_ms - ms), f"to {by_duration.strip()} ago"
    if to_datetime is not None:
        return Target("time", parse_time_ms(to_datetime, "--to-datetime")), f"to {to_datetime.strip()}"
    if to_offset is not None:
        n = parse_long(to_offset, "--to-offset")
        if n < 0:
            raise usage_error(f"--to-offset takes an offset of 0 or more, not {n}")
        return Target("offset", n), f"to offset {n}"
    assert from_file is not None
    try:
        text = Path(from_file).read_text(encoding="utf-8")
    except OSError as e:
        raise usage_error(f"--from-file {from_file}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise usage_error(f"--from-file {from_file}: not UTF-8 text (byte {e.start})") from None
    try:
        offsets = read_export(text, topic, from_file)
    except ValueError as e:
        raise usage_error(str(e)) from None
    return Target("file", offsets=offsets), f"to the offsets of {from_file}"


def _flag(name: str, dest: str, help: str) -> OurOpt:
    return OurOpt((name,), dest, help, kind="flag")


def _value(name: str, dest: str, help: str, metavar: str) -> OurOpt:
    return OurOpt((name,), dest, help, metavar=metavar)


@java_command(
    "resetOffsets",
    [
        JavaOpt("g", "group", "Consumer group", required=True),
        JavaOpt("t", "topic", "Topic", required=True),
    ],
    json_doc='{"group": str, "topic": str, "dryRun": bool, "queues": [{"topic": str, "brokerName": str, '
    '"queueId": int, "minOffset": int, "maxOffset": int, "currentOffset": int|null, "newOffset": int, '
    '"lagAfter": int}]}',
    epilog="kafka-consumer-groups --reset-offsets, for one group and topic: a dry run unless --execute. "
    "A time (--to-datetime, --by-duration) means each queue's first message stored at or after it (its "
    "max offset when all are older), as a Java 5.3.3 broker answers; new offsets are kept within what "
    "each queue holds. --export FILE writes the group's offsets before the reset (topic,brokerName,"
    "queueId,offset) and --from-file FILE sets them back. With --execute, the online consumers are told "
    "of each queue's new offset (5.x brokers pass it on); on a terminal the plan is confirmed first "
    "(--yes does not ask).",
    own=[
        _flag("--to-earliest", "to_earliest", "Each queue's earliest offset."),
        _flag("--to-latest", "to_latest", "Each queue's latest offset (skip everything waiting)."),
        _value("--shift-by", "shift_by", "Move the committed offsets by N (negative: back).", "N"),
        _value(
            "--by-duration", "by_duration", "The first message stored this long ago (PT15M, 2h).", "DURATION"
        ),
        _value(
            "--to-datetime",
            "to_datetime",
            "The first message stored at or after this time (ISO 8601).",
            "TIME",
        ),
        _value("--to-offset", "to_offset", "This offset on every queue.", "N"),
        _value("--from-file", "from_file", "The offsets of a file written by --export (a rollback).", "FILE"),
        _value("--export", "export", "Write the group's offsets before the reset to FILE (CSV).", "FILE"),
        _flag("--execute", "execute", "Apply the plan (without it nothing changes)."),
        _flag("--yes", "yes", "Do not ask on a terminal (without a terminal the command never asks)."),
    ],
)
async def reset_offsets(
    inv: Invocation,
    group: str,
    topic: str,
    to_earliest: bool,
    to_latest: bool,
    shift_by: str | None,
    by_duration: str | None,
    to_datetime: str | None,
    to_offset: str | None,
    from_file: str | None,
    export: str | None,
    execute: bool,
    yes: bool,
) -> None:
    import time

    g, t = group_arg(group), topic_arg(topic)
    now = time.time_ns() // 1_000_000
    target, how = target_of(
        to_earliest, to_latest, shift_by, by_duration, to_datetime, to_offset, from_file, t, now
    )
    plans = await plan(inv.admin, g, t, target)
    if not plans:
        raise CommandError(f"topic {t} has no readable queue to reset", ExitCode.NOT_FOUND)
    if export is not None:
        try:
            write_atomic(export, write_export(plans))
        except OSError as e:
            raise CommandError(f"--export {export}: {e.strerror}", ExitCode.USAGE) from None
    if execute:
        steps = [
            Step("queue", f"{p.queue.broker_name}:{p.queue.queue_id}", f"{p.current} -> {p.new}")
            for p in plans
        ]
        confirm(f"reset offsets of group [{g}] on topic [{t}] {how}", steps, yes)
        await apply(inv.admin, g, plans)
    inv.out.emit(ResetPlan(g, t, how, plans, execute))
