"""How the Java message commands print a message, shared by every message command.

- ``MessageExt.toString()`` (printMsg, consumeMessage): signed body bytes, properties in the
  iteration order of the ``HashMap(128)`` Java 5.3.3 decodes them into, hosts as ``/ip:port``.
- The detail block of queryMsgById / queryMsgByOffset / queryMsgByUniqueKey, with the body written
  to ``/tmp/rocketmq/msgbodys/<msgId>`` as Java does.
- Java charsets for bodies (``new String(bytes, charset)``: malformed input becomes U+FFFD).
- The JSON form of a message for ``--json``.
"""

from __future__ import annotations

import base64
import codecs
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javatext import jformat
from mqadmin.cli.javatime import human_time
from mqadmin.protocol.javacoll import remembered_hash_order
from mqadmin.protocol.message import MessageConst
from mqadmin.protocol.message_record import MessageExt

__all__ = [
    "BODY_DIR",
    "MESSAGE_JSON_DOC",
    "body_array",
    "body_json",
    "check_range",
    "decode_body",
    "detail_block",
    "java_charset",
    "message_json",
    "message_string",
    "properties_string",
    "socket_string",
    "write_body_file",
]

BODY_DIR = "/tmp/rocketmq/msgbodys"
"""Where the Java tool writes a queried message's body (``QueryMsgByIdSubCommand.createBodyFile``)."""
PROPERTIES_CAPACITY = 128
"""``MessageDecoder.string2messageProperties`` builds ``new HashMap<>(128)`` in 5.3.3."""

MESSAGE_JSON_DOC = (
    '{"msgId": str (UNIQ_KEY, else the offset id), "offsetMsgId": str, "topic": str, "brokerName": str?, '
    '"queueId": int, "queueOffset": int, "commitLogOffset": int, "storeSize": int, "sysFlag": int, '
    '"flag": int, "bornTimestamp": int, "bornHost": "ip:port", "storeTimestamp": int, '
    '"storeHost": "ip:port", "reconsumeTimes": int, "preparedTransactionOffset": int, "bodyCRC": int, '
    '"tags": str|null, "keys": str|null, "properties": {str: str}, "bodyLength": int, "body": str|null, '
    '"bodyEncoding": str|null} (body as text when it is valid in the charset, bodyEncoding naming it, '
    'else base64 with bodyEncoding "base64"; both null when the body is not shown)'
)

_SIGNED = [str(b - 256 if b > 127 else b) for b in range(256)]


def body_array(body: bytes | None) -> str:
    """``Arrays.toString(byte[])``: signed bytes."""
    if body is None:
        return "null"
    return "[" + ", ".join([_SIGNED[b] for b in body]) + "]"


def properties_string(props: dict[str, str] | None) -> str:
    """``HashMap.toString()`` of the decoded properties, in Java's iteration order."""
    if not props:
        return "null"  # Java decodes an empty properties field to no map at all
    return (
        "{"
        + ", ".join([f"{k}={props[k]}" for k in remembered_hash_order(tuple(props), PROPERTIES_CAPACITY)])
        + "}"
    )


def ordered_properties(props: dict[str, str]) -> dict[str, str]:
    return {k: props[k] for k in remembered_hash_order(tuple(props), PROPERTIES_CAPACITY)}


def socket_string(host: str, port: int) -> str:
    """``InetSocketAddress`` without the slash: ``1.2.3.4:5``, ``[0:0:0:0:0:0:0:1]:5``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def message_string(msg: MessageExt, *, with_body: bool = True) -> str:
    """``MessageExt.toString()``; ``with_body=False`` for a record decoded without its body (Java
    prints ``body=null``)."""
    return (
        f"MessageExt [brokerName={_null(msg.broker_name)}, queueId={msg.queue_id}, "
        f"storeSize={msg.store_size}, "
        f"queueOffset={msg.queue_offset}, sysFlag={msg.sys_flag}, bornTimestamp={msg.born_timestamp}, "
        f"bornHost=/{socket_string(msg.born_host, msg.born_port)}, storeTimestamp={msg.store_timestamp}, "
        f"storeHost=/{socket_string(msg.store_host, msg.store_port)}, msgId={msg.msg_id}, "
        f"commitLogOffset={msg.commit_log_offset}, bodyCRC={msg.body_crc}, "
        f"reconsumeTimes={msg.reconsume_times}, preparedTransactionOffset={msg.prepared_transaction_offset}, "
        f"toString()=Message{{topic='{msg.topic}', flag={msg.flag}, "
        f"properties={properties_string(msg.properties)}, "
        f"body={body_array(msg.body if with_body else None)}, "
        f"transactionId='{_null(msg.transaction_id)}'}}]"
    )


# ------------------------------------------------------------------------------------ option values


def check_range(begin: int, end: int) -> None:
    if begin > end:
        raise usage_error(f"the time range is backwards: begin {begin} is after end {end}")


# ------------------------------------------------------------------------------------ charsets


def java_charset(name: str) -> str:
    """The Python codec of a Java charset name; an unknown one is a usage error."""
    text = name.strip()
    try:
        return codecs.lookup(text).name
    except LookupError:
        raise CommandError(
            f"unknown charset {text!r} (e.g. UTF-8, GBK, ISO-8859-1)", ExitCode.USAGE
        ) from None


def decode_body(body: bytes | None, codec: str = "utf-8") -> str:
    """``new String(body, charset)``; an empty body is an empty string."""
    if not body:
        return ""
    return body.decode(codec, "replace")


# ------------------------------------------------------------------------------------ detail block


def write_body_file(msg: MessageExt, suffix: str = "") -> str:
    """The body written where Java writes it; returns the path (an empty body gives an empty file)."""
    name = f"{msg.client_msg_id}{suffix}"
    if "/" in name or name in ("", ".", ".."):  # a path of its own: as pathlib joins and names it
        joined = Path(BODY_DIR) / name
        path, tmp = str(joined), str(joined.with_name(joined.name + f".{os.getpid()}.tmp"))
    else:
        path = f"{BODY_DIR}/{name}"
        tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(BODY_DIR, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(msg.body or b"")
        os.replace(tmp, path)
    except OSError as e:
        raise CommandError(f"cannot write the message body to {path}: {e.strerror or e}") from None
    return path


def detail_block(
    msg: MessageExt, body_path: str, *, offset_id_line: bool = True, body_text: str | None = None
) -> str:
    """``QueryMsgByIdSubCommand.printMsg`` up to the tracks (which the caller appends)."""
    p = msg.properties
    rows: list[str] = []
    if offset_id_line:
        rows.append(jformat("%-20s %s%n", "OffsetID:", msg.offset_msg_id))
    rows += [
        jformat("%-20s %s%n", "Topic:", msg.topic),
        jformat("%-20s %s%n", "Tags:", f"[{_null(p.get(MessageConst.PROPERTY_TAGS))}]"),
        jformat("%-20s %s%n", "Keys:", f"[{_null(p.get(MessageConst.PROPERTY_KEYS))}]"),
        jformat("%-20s %d%n", "Queue ID:", msg.queue_id),
        jformat("%-20s %d%n", "Queue Offset:", msg.queue_offset),
        jformat("%-20s %d%n", "CommitLog Offset:", msg.commit_log_offset),
        jformat("%-20s %d%n", "Reconsume Times:", msg.reconsume_times),
        jformat("%-20s %s%n", "Born Timestamp:", human_time(msg.born_timestamp)),
        jformat("%-20s %s%n", "Store Timestamp:", human_time(msg.store_timestamp)),
        jformat("%-20s %s%n", "Born Host:", socket_string(msg.born_host, msg.born_port)),
        jformat("%-20s %s%n", "Store Host:", socket_string(msg.store_host, msg.store_port)),
        jformat("%-20s %d%n", "System Flag:", msg.sys_flag),
        jformat("%-20s %s%n", "Properties:", properties_string(p) if p else ""),
        jformat("%-20s %s%n", "Message Body Path:", body_path),
    ]
    if body_text is not None:
        rows.append(jformat("%-20s %s%n", "Message Body:", body_text))
    return "".join(rows)


def tracks_text(tracks: Iterable[Any], *, newline_each: bool) -> str:
    """What follows the detail block: the consumer groups' tracks, or ``WARN: No Consumer``."""
    items = list(tracks)
    if not items:
        return "\n\nWARN: No Consumer"
    sep = "\n" if newline_each else ""
    return "\n\n" + "".join(f"{t}{sep}" for t in items)


def _null(v: str | None) -> str:
    return "null" if v is None else v


# ------------------------------------------------------------------------------------ JSON


def message_json(msg: MessageExt, codec: str | None = "utf-8") -> dict[str, Any]:
    """A message for ``--json`` (shape in :data:`MESSAGE_JSON_DOC`); ``codec=None`` leaves the body out."""
    return {
        "msgId": msg.client_msg_id,
        "offsetMsgId": msg.offset_msg_id,
        "topic": msg.topic,
        "brokerName": msg.broker_name,
        "queueId": msg.queue_id,
        "queueOffset": msg.queue_offset,
        "commitLogOffset": msg.commit_log_offset,
        "storeSize": msg.store_size,
        "sysFlag": msg.sys_flag,
        "flag": msg.flag,
        "bornTimestamp": msg.born_timestamp,
        "bornHost": socket_string(msg.born_host, msg.born_port),
        "storeTimestamp": msg.store_timestamp,
        "storeHost": socket_string(msg.store_host, msg.store_port),
        "reconsumeTimes": msg.reconsume_times,
        "preparedTransactionOffset": msg.prepared_transaction_offset,
        "bodyCRC": msg.body_crc,
        "tags": msg.tags,
        "keys": msg.keys,
        "properties": ordered_properties(msg.properties),
        "bodyLength": len(msg.body or b""),
        **body_json(msg.body, codec),
    }


def body_json(body: bytes | None, codec: str | None) -> dict[str, str | None]:
    """``body`` and ``bodyEncoding`` of a message in JSON: the text when the bytes are valid in
    ``codec``, else base64, so no byte is lost to a replacement character."""
    if codec is None:
        return {"body": None, "bodyEncoding": None}
    try:
        return {"body": (body or b"").decode(codec), "bodyEncoding": codec}
    except UnicodeDecodeError:
        return {"body": base64.b64encode(body or b"").decode("ascii"), "bodyEncoding": "base64"}
