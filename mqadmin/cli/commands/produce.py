"""``mqadmin produce``: send messages read from stdin or a file, as kcat -P does.

One message a line (or a record between ``-D`` delimiters); keys, tags, properties and the delay
level come from the options for every message, or, with ``--fields``, from each record, a JSON
object (``{"body": ..., "keys": ..., "tags": ..., "properties": {...}, "delayLevel": n}``). ``-K``
splits a key off the front of each record, as kcat's. Records are sent one after another as they
are read, so a pipe's messages go out while it is still writing; Ctrl-C stops at once (what was sent
stays sent) and the summary says how many went.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from mqadmin.admin.producer import SendResult
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.common import OurOpt
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.nameargs import send_topic_arg
from mqadmin.cli.optvalues import parse_int
from mqadmin.cli.results import Result
from mqadmin.protocol.message import Message

__all__ = ["Produced", "records"]

_READ = 64 * 1024


def records(stream: IO[bytes], delimiter: bytes) -> Iterator[bytes]:
    """The records of ``stream`` between ``delimiter``s, each as soon as it is complete (a last
    record without a delimiter counts; an empty one at the very end does not)."""
    pending = b""
    while True:
        chunk = stream.read1(_READ) if hasattr(stream, "read1") else stream.read(_READ)
        if not chunk:
            break
        pending += chunk
        *done, pending = pending.split(delimiter)
        yield from done
    if pending:
        yield pending


def _properties(text: str, option: str) -> dict[str, str]:
    props: dict[str, str] = {}
    for part in (p for p in text.split(",") if p.strip()):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise usage_error(f"{option} takes name=value pairs separated by commas, not {part!r}")
        props[name.strip()] = value
    return props


@dataclass(slots=True)
class Defaults:
    """What every message gets unless its record says otherwise (``--fields``)."""

    keys: str | None
    tags: str | None
    properties: dict[str, str]
    delay_level: int | None


def _message(topic: str, record: bytes, d: Defaults, fields: bool, key_sep: bytes | None, n: int) -> Message:
    keys, tags, props, delay = d.keys, d.tags, dict(d.properties), d.delay_level
    body = record
    if fields:
        try:
            obj = json.loads(record)
        except ValueError as e:
            raise CommandError(f"record {n}: not a JSON object ({e})", ExitCode.USAGE) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("body"), str):
            raise CommandError(f'record {n}: a JSON object with a "body" string is expected', ExitCode.USAGE)
        body = obj["body"].encode("utf-8")
        keys = _text_field(obj, "keys", keys, n)
        tags = _text_field(obj, "tags", tags, n)
        extra = obj.get("properties") or {}
        if not isinstance(extra, dict) or not all(isinstance(v, str) for v in extra.values()):
            raise CommandError(f"record {n}: properties must be an object of strings", ExitCode.USAGE)
        props.update(extra)
        level = obj.get("delayLevel", delay)
        if level is not None and (not isinstance(level, int) or isinstance(level, bool) or level < 0):
            raise CommandError(f"record {n}: delayLevel must be a whole number of 0 or more", ExitCode.USAGE)
        delay = level
    elif key_sep is not None:
        head, sep, rest = record.partition(key_sep)
        if sep:
            keys, body = head.decode("utf-8", "replace"), rest
    msg = Message(topic=topic, body=body)
    if keys:
        msg.keys = keys
    if tags:
        msg.tags = tags
    for name, value in props.items():
        try:
            msg.put_user_property(name, value)
        except ValueError as e:
            raise CommandError(f"record {n}: {e}", ExitCode.USAGE) from None
    if delay:
        msg.put_property("DELAY", str(delay))
    msg.wait_store_msg_ok = True
    return msg


def _text_field(obj: dict[str, Any], name: str, default: str | None, n: int) -> str | None:
    value = obj.get(name, default)
    if value is not None and not isinstance(value, str):
        raise CommandError(f"record {n}: {name} must be a string", ExitCode.USAGE)
    return value


@dataclass(slots=True)
class Produced(Result):
    """What was sent: the count, and each message's id and place."""

    topic: str
    sent: list[SendResult]

    def text(self) -> str:
        return f"sent {len(self.sent)} message(s) to {self.topic}\n"

    def data(self) -> dict[str, Any]:
        return {"topic": self.topic, "sent": len(self.sent), "messages": [r.to_json() for r in self.sent]}


_FIELDS = OurOpt(
    ("--fields",),
    "fields",
    'Each record is a JSON object: {"body": str, "keys": str, "tags": str, "properties": {str: str}, '
    '"delayLevel": int}; what it leaves out comes from the options.',
    kind="flag",
)


@java_command(
    "produce",
    [
        JavaOpt("t", "topic", "Topic to send to", required=True),
        JavaOpt("f", "file", "Read the messages from this file instead of stdin"),
        JavaOpt("D", "delimiter", "Delimiter between messages (default a newline; \\n, \\t, \\0 escapes)"),
        JavaOpt("K", "keyDelimiter", "Split each record here into keys and body", dest="key_sep"),
        JavaOpt("k", "keys", "Keys of every message"),
        JavaOpt("c", "tags", "Tags of every message"),
        JavaOpt("p", "properties", "Properties of every message: name=value,name2=value2"),
        JavaOpt("d", "delayLevel", "Delay level of every message (1 = 1 s ... 18 = 2 h)", dest="delay_level"),
    ],
    json_doc='{"topic": str, "sent": int, "messages": [{"brokerName": str, "queueId": int, "sendStatus": '
    'str, "msgId": str, "offsetMsgId": str, "queueOffset": int}]}',
    epilog="kcat: kcat -P -t T -K: < file is mqadmin produce -t T -K: < file. With the default newline "
    "delimiter, empty lines are skipped and a line's trailing carriage return dropped. A record that "
    "cannot be sent stops the command with its error (what was sent before stays sent; the count is "
    "on stderr).",
    own=[_FIELDS],
)
async def produce(
    inv: Invocation,
    topic: str,
    file: str | None,
    delimiter: str | None,
    key_sep: str | None,
    keys: str | None,
    tags: str | None,
    properties: str | None,
    delay_level: str | None,
    fields: bool,
) -> None:
    from mqadmin.admin.producer import Producer

    t = send_topic_arg(topic)
    delim = _unescape(delimiter, "-D") if delimiter is not None else b"\n"
    ksep = _unescape(key_sep, "-K") if key_sep is not None else None
    level = parse_int(delay_level, "-d") if delay_level is not None else None
    if level is not None and level < 0:
        raise usage_error(f"-d takes a delay level of 0 or more, not {level}")
    props = _properties(properties, "-p") if properties is not None else {}
    d = Defaults(keys.strip() if keys else None, tags.strip() if tags else None, props, level)
    try:
        stream: IO[bytes] = open(file, "rb") if file is not None else sys.stdin.buffer
    except OSError as e:
        raise CommandError(f"-f {file}: {e.strerror}", ExitCode.USAGE) from None
    producer = Producer(inv.admin, f"mqadmin_produce_{time.time_ns() // 1_000_000}")
    sent: list[SendResult] = []
    try:
        for n, record in enumerate(records(stream, delim), 1):
            if delim == b"\n":
                record = record.removesuffix(b"\r")
                if not record:
                    continue
            try:
                sent.append(await producer.send(_message(t, record, d, fields, ksep, n)))
            except CommandError:
                raise
            except Exception as exc:
                inv.say(f"{len(sent)} message(s) sent before record {n} failed")
                raise _checked(exc) from None
            inv.any_success = True
    finally:
        await producer.close()
        if file is not None:
            stream.close()
    inv.out.emit(Produced(t, sent))


def _checked(exc: Exception) -> Exception:
    from mqadmin.admin.producer import MessageCheckError

    return CommandError(str(exc), ExitCode.USAGE) if isinstance(exc, MessageCheckError) else exc


_ESC = {"\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0", "\\\\": "\\"}


def _unescape(text: str, option: str) -> bytes:
    out = text
    for k, v in _ESC.items():
        out = out.replace(k, v)
    if not out:
        raise usage_error(f"{option} takes a non-empty delimiter")
    return out.encode("utf-8")
