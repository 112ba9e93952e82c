"""The export's options and plan, without Spark: what the command checks before any JVM starts.

:class:`ExportOptions` are the ``rocketmq`` data source's options parsed once (on the driver, shipped
to the tasks); :func:`plan` asks the cluster which queue ranges to read (see :mod:`.ranges`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.datasource_options import (
    BATCH_NAMES,
    DEFAULT_TIMEOUT,
    OptionError,
    admin_settings,
    duration,
    flag,
    int_option,
    known_options,
)
from mqadmin.pipeline.export.pull import DEFAULT_GROUP, DEFAULT_RETRY_S
from mqadmin.pipeline.export.ranges import (
    DEFAULT_PARTITION_SIZE,
    OffsetSpec,
    QueueRange,
    parse_offset_spec,
    plan_ranges,
)
from mqadmin.pipeline.timespec import TimeSpecError, parse_time

__all__ = ["DEFAULT_TIMEOUT", "ExportOptions", "plan"]  # DEFAULT_TIMEOUT: from .datasource_options


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
        opts = known_options(options, BATCH_NAMES, "rocketmq batch source")
        settings = admin_settings(opts)
        topic = (opts.get("topic") or "").strip()
        if not topic:
            raise OptionError("the rocketmq data source needs option topic")

        def ms(name: str) -> int | None:
            value = opts.get(name)
            try:
                return None if not value else int(parse_time(value).timestamp() * 1000)
            except TimeSpecError as e:
                raise OptionError(f"option {name}: {e}") from None

        return cls(
            settings=settings,
            topic=topic,
            group=opts.get("group") or DEFAULT_GROUP,
            begin_ms=ms("begin"),
            end_ms=ms("end"),
            starting=parse_offset_spec(opts.get("startingoffsets")),
            ending=parse_offset_spec(opts.get("endingoffsets")),
            partition_size=int_option(opts, "partitionsize", 1) or DEFAULT_PARTITION_SIZE,
            fail_on_data_loss=flag(opts, "failondataloss", True),
            retry_for=duration(opts.get("pullretrytimeout"), DEFAULT_RETRY_S, "pullRetryTimeout"),
        )


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
