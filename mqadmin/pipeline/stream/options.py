"""The streaming source's options, judged once on the driver before any task starts.

Names follow Spark's Kafka source where they mean the same thing. An unknown option, a value that
is not of its kind, or two options that exclude each other is a :class:`OptionError` naming the
option; nothing here touches the network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mqadmin.admin.settings import AdminSettings, Credentials, parse_namesrv_list
from mqadmin.pipeline.export.plan import DEFAULT_TIMEOUT
from mqadmin.pipeline.export.pull import DEFAULT_RETRY_S
from mqadmin.pipeline.export.ranges import DEFAULT_PARTITION_SIZE
from mqadmin.pipeline.timespec import TimeSpecError, parse_time
from mqadmin.protocol.names import check_group, check_topic

__all__ = [
    "SPARK_OPTIONS", "OptionError", "StartSpec", "StreamOptions", "admin_settings", "duration", "int_option",
    "parse_start",
]  # fmt: skip

SOURCE_OPTIONS = frozenset(
    {
        "namesrv", "topics", "topicpattern", "startingoffsets", "startingtimestamp", "endingoffsets",
        "maxoffsetspertrigger", "minoffsetspertrigger", "maxtriggerdelay", "failondataloss",
        "includeproperties", "subexpression", "group", "accesskey", "secretkey", "securitytoken",
        "timeout", "partitionsize", "minpartitions", "pullretrytimeout",
    }
)  # fmt: skip
SPARK_OPTIONS = frozenset({"path", "checkpointlocation", "queryname"})
"""Options Spark itself may pass along with the user's."""

EARLIEST, LATEST = -2, -1
"""Offsets in a JSON ``startingOffsets`` that mean the queue's start or end (as Kafka's -2 and -1)."""

StartSpec = str | int | dict[str, dict[str, int]]
"""``"earliest"``, ``"latest"``, a store time in ms, or offsets per topic and ``broker:queue``."""


class OptionError(ValueError):
    """An option of the ``rocketmq`` source or sink that cannot be used as given."""


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
        opts = {k.lower(): str(v) for k, v in options.items()}
        unknown = sorted(set(opts) - SOURCE_OPTIONS - SPARK_OPTIONS)
        if unknown:
            raise OptionError(
                f"unknown option(s) of the rocketmq stream source: {', '.join(unknown)} "
                f"(known: {', '.join(sorted(SOURCE_OPTIONS))})"
            )
        if "endingoffsets" in opts:
            raise OptionError("endingOffsets is for batch reads (spark.read), not for a stream")
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
            fail_on_data_loss=_bool(opts, "failondataloss", True),
            include_properties=_bool(opts, "includeproperties", True),
            sub_expression=(opts.get("subexpression") or "").strip() or None,
            group=group,
            partition_size=int_option(opts, "partitionsize", 1) or DEFAULT_PARTITION_SIZE,
            min_partitions=int_option(opts, "minpartitions", 1),
            retry_for=duration(opts.get("pullretrytimeout"), DEFAULT_RETRY_S, "pullRetryTimeout"),
        )


def admin_settings(opts: Mapping[str, str]) -> AdminSettings:
    addrs = parse_namesrv_list(opts.get("namesrv"))
    if not addrs:
        raise OptionError("the rocketmq source needs option namesrv (host:port;host:port)")
    for addr in addrs:
        host, _, port = addr.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise OptionError(f"namesrv {addr!r} is not host:port")
    creds = None
    access, secret = opts.get("accesskey"), opts.get("secretkey")
    if bool(access) != bool(secret):
        raise OptionError("accessKey and secretKey go together")
    if access and secret:
        creds = Credentials(access, secret, opts.get("securitytoken") or None)
    timeout = duration(opts.get("timeout"), DEFAULT_TIMEOUT, "timeout")
    return AdminSettings(namesrv_addrs=tuple(addrs), timeout=timeout, credentials=creds)


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


def int_option(opts: Mapping[str, str], name: str, lowest: int) -> int | None:
    value = opts.get(name)
    if value is None or not value.strip():
        return None
    try:
        n = int(value.strip())
    except ValueError:
        raise OptionError(f"option {name} must be a whole number, not {value!r}") from None
    if n < lowest:
        raise OptionError(f"option {name} must be at least {lowest}, not {n}")
    return n


def _bool(opts: Mapping[str, str], name: str, default: bool) -> bool:
    value = opts.get(name)
    if value is None:
        return default
    v = value.strip().lower()
    if v not in ("true", "false"):
        raise OptionError(f"option {name} must be true or false, not {value!r}")
    return v == "true"


_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


def duration(value: str | None, default: float, name: str) -> float:
    """Seconds from ``30``, ``30s``, ``500ms``, ``5m``, ``1h`` (a bare number is seconds)."""
    if value is None or not value.strip():
        return default
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h)?\s*", value)
    if m is None or float(m.group(1)) <= 0:
        raise OptionError(f"option {name}: {value!r} is not a positive duration (30s, 500ms, 5m, 1h)")
    return float(m.group(1)) * _UNITS[m.group(2) or "s"]
