"""The ``rocketmq`` data source's option names and value forms: one table for the batch reader, the
stream reader and the sink.

Spark compares option names case-insensitively and hands them to the source lower-cased; the names
here are spelt as documented and matched lower-cased. An option a side does not take is refused by
:func:`known_options` before any request is sent, naming it and the known ones (the closest first):
a misspelt option silently ignored would read something the user did not ask for. Nothing here
touches the network.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping

from mqadmin.admin.settings import AdminSettings, Credentials, parse_namesrv_list
from mqadmin.pipeline.timespec import TimeSpecError, parse_duration

__all__ = [
    "BATCH_NAMES", "BATCH_OPTIONS", "DEFAULT_TIMEOUT", "SINK_NAMES", "SINK_OPTIONS", "SPARK_OPTIONS",
    "STREAM_NAMES", "STREAM_OPTIONS", "OptionError", "admin_settings", "duration", "flag", "int_option",
    "known_options",
]  # fmt: skip

DEFAULT_TIMEOUT = 10.0
"""Seconds per request of a read or a send, unless option ``timeout`` says otherwise."""

_ACL = ("accessKey", "secretKey", "securityToken")

BATCH_NAMES = (
    "namesrv", "topic", "begin", "end", "startingOffsets", "endingOffsets", "partitionSize", "group",
    "timeout", *_ACL, "failOnDataLoss", "pullRetryTimeout",
)  # fmt: skip
"""Options of ``spark.read.format("rocketmq")``."""

STREAM_NAMES = (
    "namesrv", "topics", "topicPattern", "startingOffsets", "startingTimestamp", "maxOffsetsPerTrigger",
    "minOffsetsPerTrigger", "maxTriggerDelay", "failOnDataLoss", "pullRetryTimeout", "includeProperties",
    "subExpression", "group", *_ACL, "timeout", "partitionSize", "minPartitions",
)  # fmt: skip
"""Options of ``spark.readStream.format("rocketmq")``."""

SINK_NAMES = (
    "namesrv", "topic", *_ACL, "timeout", "batchSize", "maxInFlight", "retries", "producerGroup", "writeId",
)  # fmt: skip
"""Options of ``df.write`` and ``df.writeStream`` ``.format("rocketmq")``."""

_SPARK_NAMES = ("path", "checkpointLocation", "queryName")


def _lowered(names: Iterable[str]) -> frozenset[str]:
    return frozenset(n.lower() for n in names)


BATCH_OPTIONS = _lowered(BATCH_NAMES)
STREAM_OPTIONS = _lowered(STREAM_NAMES)
SINK_OPTIONS = _lowered(SINK_NAMES)
SPARK_OPTIONS = _lowered(_SPARK_NAMES)
"""Options Spark itself may pass along with the user's (``save(path)``, a query's checkpoint)."""

_SIDES = {"spark.read": BATCH_NAMES, "spark.readStream": STREAM_NAMES, "df.write": SINK_NAMES}


class OptionError(ValueError):
    """An option of the ``rocketmq`` source or sink that cannot be used as given."""


def known_options(options: Mapping[str, object], names: tuple[str, ...], what: str) -> dict[str, str]:
    """``options`` with lower-cased names, or an :class:`OptionError` for any name not in ``names``
    (``what`` says whose options they are, as ``rocketmq stream source``)."""
    opts = {k.lower(): str(v) for k, v in options.items()}
    spelt = {n.lower(): n for n in names}
    unknown = sorted(set(opts) - set(spelt) - SPARK_OPTIONS)
    if not unknown:
        return opts
    elsewhere: dict[str, dict[str, str]] = {}  # an unknown name another side takes: its spelling there
    for side, taken in _SIDES.items():
        for n in taken if taken is not names else ():
            if n.lower() in unknown:
                elsewhere.setdefault(n.lower(), {})[side] = n
    misspelt = [u for u in unknown if u not in elsewhere]
    close = list(dict.fromkeys(m for u in misspelt for m in difflib.get_close_matches(u, spelt, 3, 0.6)))
    notes = [f"did you mean {' or '.join(spelt[m] for m in close)}?"] if close else []
    notes += [f"{next(iter(s.values()))} is an option of {' and '.join(s)}" for s in elsewhere.values()]
    listed = [spelt[m] for m in close] + sorted((n for n in names if n.lower() not in close), key=str.lower)
    said = f" ({'; '.join(notes)})" if notes else ""
    raise OptionError(
        f"unknown option(s) of the {what}: {', '.join(unknown)}{said}; known: {', '.join(listed)}"
    )


def admin_settings(opts: Mapping[str, str]) -> AdminSettings:
    """``namesrv``, ``timeout`` and the ACL keys of lower-cased options."""
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


def int_option(opts: Mapping[str, str], name: str, lowest: int) -> int | None:
    """A whole number of at least ``lowest``; None when the option is absent or blank."""
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


def flag(opts: Mapping[str, str], name: str, default: bool) -> bool:
    """``true`` or ``false`` (any case); ``default`` when absent or blank."""
    value = (opts.get(name) or "").strip().lower()
    if value not in ("", "true", "false"):
        raise OptionError(f"option {name} must be true or false, not {opts[name]!r}")
    return default if not value else value == "true"


_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}
_SIMPLE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h)?\s*")


def duration(value: str | None, default: float, name: str) -> float:
    """Seconds from ``30``, ``30s``, ``500ms``, ``5m``, ``1h`` or ``1h30m`` (a bare number is seconds);
    ``default`` when absent or blank."""
    if value is None or not value.strip():
        return default
    m = _SIMPLE.fullmatch(value)
    try:
        seconds = float(m.group(1)) * _UNITS[m.group(2) or "s"] if m else parse_duration(value)
    except TimeSpecError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise OptionError(f"option {name}: {value!r} is not a positive duration (30s, 500ms, 5m, 1h30m)")
    return seconds
