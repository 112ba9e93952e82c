"""The export's options and plan, without Spark: what the command checks before any JVM starts.

:class:`ExportOptions` are the ``rocketmq`` data source's options parsed once (on the driver, shipped
to the tasks); :func:`plan` asks the cluster which queue ranges to read (see :mod:`.ranges`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings, Credentials, parse_namesrv_list
from mqadmin.pipeline.export.pull import DEFAULT_GROUP, DEFAULT_RETRY_S
from mqadmin.pipeline.export.ranges import (
    DEFAULT_PARTITION_SIZE,
    OffsetSpec,
    QueueRange,
    parse_offset_spec,
    plan_ranges,
)
from mqadmin.pipeline.timespec import TimeSpecError, parse_duration, parse_time

__all__ = ["DEFAULT_TIMEOUT", "ExportOptions", "plan"]

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """The data source's options, parsed once on the driver (and shipped to the tasks)."""

    settings: AdminSettings
    topic: str
    group: str = DEFAULT_GROUP
    begin_ms: int | None = None
    end_ms: int | None = None
    starting: OffsetSpec | None = None
    ending: OffsetSpec | None = None
    partition_size: int = DEFAULT_PARTITION_SIZE
    fail_on_data_loss: bool = True
    retry_for: float = DEFAULT_RETRY_S

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> ExportOptions:
        opts = {k.lower(): v for k, v in options.items()}
        addrs = parse_namesrv_list(opts.get("namesrv"))
        topic = (opts.get("topic") or "").strip()
        if not addrs:
            raise ValueError("the rocketmq data source needs option namesrv (host:port;host:port)")
        if not topic:
            raise ValueError("the rocketmq data source needs option topic")
        creds = None
        if opts.get("accesskey") and opts.get("secretkey"):
            creds = Credentials(opts["accesskey"], opts["secretkey"])
        settings = AdminSettings(
            namesrv_addrs=tuple(addrs),
            timeout=float(opts.get("timeout") or DEFAULT_TIMEOUT),
            credentials=creds,
        )

        def ms(name: str) -> int | None:
            value = opts.get(name)
            return None if not value else int(parse_time(value).timestamp() * 1000)

        return cls(
            settings=settings,
            topic=topic,
            group=opts.get("group") or DEFAULT_GROUP,
            begin_ms=ms("begin"),
            end_ms=ms("end"),
            starting=parse_offset_spec(opts.get("startingoffsets")),
            ending=parse_offset_spec(opts.get("endingoffsets")),
            partition_size=int(opts.get("partitionsize") or DEFAULT_PARTITION_SIZE),
            fail_on_data_loss=_flag(opts, "failondataloss", True),
            retry_for=_seconds(opts, "pullretrytimeout", DEFAULT_RETRY_S),
        )


def _flag(opts: Mapping[str, str], name: str, default: bool) -> bool:
    value = (opts.get(name) or "").strip().lower()
    if value not in ("", "true", "false"):
        raise ValueError(f"option {name} must be true or false, not {opts[name]!r}")
    return default if not value else value == "true"


def _seconds(opts: Mapping[str, str], name: str, default: float) -> float:
    value = (opts.get(name) or "").strip()
    try:
        seconds = parse_duration(value) if value else default
    except TimeSpecError as e:
        raise ValueError(f"option {name}: {e}") from None
    if seconds <= 0:
        raise ValueError(f"option {name} must be a positive duration (30s, 2m), not {value!r}")
    return seconds


def plan(o: ExportOptions) -> list[QueueRange]:
    """The ranges to read (route, min/max offsets and time search through the admin API)."""

    async def go() -> list[QueueRange]:
        async with MQAdmin(o.settings) as admin:
            return await plan_ranges(
                admin.messages,
                o.topic,
                begin_ms=o.begin_ms,
                end_ms=o.end_ms,
                starting=o.starting,
                ending=o.ending,
                max_per_partition=o.partition_size,
            )

    return asyncio.run(go())
