"""The streaming source's options, judged once on the driver before any task starts.

Names follow Spark's Kafka source where they mean the same thing; they and the value forms the
batch reader and the sink share are :mod:`mqadmin.pipeline.datasource_options`. An unknown option, a
value that is not of its kind, or two options that exclude each other is a :class:`OptionError`
naming the option; nothing here touches the network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.datasource_options import (
    SPARK_OPTIONS,
    STREAM_NAMES,
    OptionError,
    admin_settings,
    duration,
    flag,
    int_option,
    known_options,
)
from mqadmin.pipeline.export.pull import DEFAULT_RETRY_S
from mqadmin.pipeline.export.ranges import DEFAULT_PARTITION_SIZE
from mqadmin.pipeline.timespec import TimeSpecError, parse_time
from mqadmin.protocol.names import check_group, check_topic

__all__ = [
    "SPARK_OPTIONS", "OptionError", "StartSpec", "StreamOptions", "admin_settings", "duration", "int_option",
    "parse_start",
]  # fmt: skip

EARLIEST, LATEST = -2, -1
"""Offsets in a JSON ``startingOffsets`` that mean the queue's start or end (as Kafka's -2 and -1)."""

StartSpec = str | int | dict[str, dict[str, int]]
"""``"earliest"``, ``"latest"``, a store time in ms, or offsets per topic and ``broker:queue``."""


@dataclass(frozen=True, slots=True)
class StreamOptions:
    """Everything the stream reader needs, shipped to the tasks with it."""

    settings: AdminSettings
    topics: tuple[str, ...] = ()
    pattern: str | None = None
    start: StartSpec = "latest"
    max_per_trigger: int | None = None
    min_per_trigger: int | None = None
    max_trigger_delay_s: float = 15 * 60.0
    fail_on_data_loss: bool = True
    include_properties: bool = True
    sub_expression: str | None = None
    group: str | None = None
    partition_size: int = DEFAULT_PARTITION_SIZE
    min_partitions: int | None = None
    retry_for: float = DEFAULT_RETRY_S

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> StreamOptions:
        if "endingoffsets" in {k.lower() for k in options}:
            raise OptionError("endingOffsets is for batch reads (spark.read), not for a stream")
        opts = known_options(options, STREAM_NAMES, "rocketmq stream source")
        topics, pattern = _topics(opts)
        group = opts.get("group") or None
        if group is not None and (why := check_group(group)) is not None:
            raise OptionError(f"group {group!r}: {why}")
        start = _start(opts)
        if isinstance(start, dict) and pattern is None:
            extra = sorted(set(start) - set(topics))
            if extra:
                raise OptionError(f"startingOffsets names topics not in option topics: {', '.join(extra)}")
        max_n = int_option(opts, "maxoffsetspertrigger", 1)
        min_n = int_option(opts, "minoffsetspertrigger", 1)
        if max_n is not None and min_n is not None and min_n > max_n:
            raise OptionError(f"minOffsetsPerTrigger ({min_n}) is above maxOffsetsPerTrigger ({max_n})")
        return cls(
            settings=admin_settings(opts),
            topics=topics,
            pattern=pattern,
            start=start,
            max_per_trigger=max_n,
            min_per_trigger=min_n,
            max_trigger_delay_s=duration(opts.get("maxtriggerdelay"), 15 * 60.0, "maxTriggerDelay"),
            fail_on_data_loss=flag(opts, "failondataloss", True),
            include_properties=flag(opts, "includeproperties", True),
            sub_expression=(opts.get("subexpression") or "").strip() or None,
            group=group,
            partition_size=int_option(opts, "partitionsize", 1) or DEFAULT_PARTITION_SIZE,
            min_partitions=int_option(opts, "minpartitions", 1),
            retry_for=duration(opts.get("pullretrytimeout"), DEFAULT_RETRY_S, "pullRetryTimeout"),
        )


def _topics(opts: Mapping[str, str]) -> tuple[tuple[str, ...], str | None]:
    listed, pattern = opts.get("topics"), opts.get("topicpattern")
    if (listed is None) == (pattern is None):
        raise OptionError("give exactly one of the options topics (a comma list) and topicPattern (a regex)")
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as e:
            raise OptionError(f"topicPattern {pattern!r} is not a regular expression: {e}") from None
        return (), pattern
    assert listed is not None
    topics = tuple(dict.fromkeys(t.strip() for t in listed.split(",") if t.strip()))
    if not topics:
        raise OptionError("option topics is empty")
    for t in topics:
        if (why := check_topic(t)) is not None:
            raise OptionError(f"topic {t!r}: {why}")
    return topics, None


def _start(opts: Mapping[str, str]) -> StartSpec:
    if "startingtimestamp" in opts:
        if "startingoffsets" in opts:
            raise OptionError("give startingOffsets or startingTimestamp, not both")
        try:
            return int(parse_time(opts["startingtimestamp"]).timestamp() * 1000)
        except (TimeSpecError, ValueError, OverflowError) as e:
            raise OptionError(f"startingTimestamp: {e}") from None
    return parse_start(opts.get("startingoffsets"))


def parse_start(text: str | None) -> str | dict[str, dict[str, int]]:
    """``startingOffsets``: earliest, latest, or ``{"Topic": {"broker-a:0": 120, ...}}`` (-2 earliest,
    -1 latest)."""
    value = (text or "latest").strip()
    if value.lower() in ("earliest", "latest"):
        return value.lower()
    try:
        obj = json.loads(value)
    except ValueError as e:
        raise OptionError(f"startingOffsets is not earliest, latest or JSON ({e}): {text!r}") from None
    shape = 'startingOffsets JSON must be {"topic": {"broker:queueId": offset, ...}, ...}'
    if not isinstance(obj, dict):
        raise OptionError(f"{shape}, not {text!r}")
    out: dict[str, dict[str, int]] = {}
    for topic, queues in obj.items():
        if (why := check_topic(topic)) is not None:
            raise OptionError(f"startingOffsets topic {topic!r}: {why}")
        if not isinstance(queues, dict):
            raise OptionError(f"{shape}; {topic!r} maps to {queues!r}")
        out[topic] = {}
        for key, offset in queues.items():
            broker, sep, qid = str(key).rpartition(":")
            if not sep or not broker or not qid.isdigit():
                raise OptionError(f"{shape}; {key!r} is not broker:queueId")
            if isinstance(offset, bool) or not isinstance(offset, int) or offset < EARLIEST:
                raise OptionError(f"{shape}; the offset of {topic} {key} is {offset!r}")
            out[topic][f"{broker}:{int(qid)}"] = offset
    return out
