"""Pulled records into Arrow columns (``export.columns``) against the protocol's own decoder.

Every kind of record (IPv4 and IPv6 hosts, a compressed body, the v2 magic of a long topic, no
properties) gives the row :func:`~mqadmin.pipeline.export.pull.to_batch` gives from the decoded
message; rows outside the asked offsets are left out; a bad buffer is a ProtocolError, never
anything else.
"""

from __future__ import annotations

import random
import zlib

import pytest

from mqadmin.pipeline.export.columns import Columns
from mqadmin.pipeline.export.pull import to_batch
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import (
    MessageExt,
    MessageSysFlag,
    body_crc32,
    decode_messages,
    encode_message,
    magic_code_for_topic,
)


def record(offset: int, **over: object) -> MessageExt:
    body = over.pop("body", f"body-{offset}".encode())
    assert isinstance(body, bytes)
    base: dict[str, object] = dict(
        topic="T", properties={"KEYS": f"k{offset}", "TAGS": "t", "UNIQ_KEY": f"ID{offset:030d}", "a": "b"},
        body=body, queue_id=1, queue_offset=offset, born_timestamp=1_700_000_000_000 + offset,
        born_host="10.0.0.1", born_port=40000, store_timestamp=1_700_000_000_500 + offset,
        store_host="10.0.0.2", store_port=10911, commit_log_offset=4096 * offset, body_crc=body_crc32(body),
        reconsume_times=offset % 3,
    )  # fmt: skip
    base.update(over)
    return MessageExt(**base)  # type: ignore[arg-type]


def kinds() -> list[MessageExt]:
    long_topic = "L" * 200
    compressed = zlib.compress(b"z" * 5000)
    return [
        record(0),
        record(1, properties={}),
        record(2, born_host="fd00::1", store_host="fd00::2",
               sys_flag=MessageSysFlag.BORNHOST_V6_FLAG | MessageSysFlag.STOREHOSTADDRESS_V6_FLAG),
        record(3, body=compressed, sys_flag=MessageSysFlag.COMPRESSED_FLAG),
        record(4, topic=long_topic, magic_code=magic_code_for_topic(long_topic)),
        record(5, properties={"TAGS": "only", "MIN_OFFSET": "0"}),
    ]  # fmt: skip


def test_columns_equal_the_decoded_messages() -> None:
    data = b"".join(encode_message(m) for m in kinds())
    cols = Columns("broker-a")
    assert cols.add_body(data, 0, 100) == 0
    got = cols.drain().to_pylist()
    want = to_batch(decode_messages(data), "broker-a").to_pylist()
    assert got == want and len(got) == 6
    assert got[3]["body"] == b"z" * 5000
    assert len(cols) == 0  # drained


def test_rows_outside_the_offsets_are_left_out() -> None:
    data = b"".join(encode_message(record(i)) for i in range(10))
    cols = Columns("b", include_properties=False)
    assert cols.add_body(data, 3, 7) == 0
    rows = cols.drain().to_pylist()
    assert [r["queue_offset"] for r in rows] == [3, 4, 5, 6]
    assert all(r["properties"] is None for r in rows)


def test_bad_buffers_are_protocol_errors() -> None:
    good = encode_message(record(0))
    bad = [
        good[:-1],  # truncated
        good[:20],
        b"\x00\x00\x00\x10" + good[4:],  # size below the minimum
        good[:4] + b"\x12\x34\x56\x78" + good[8:],  # bad magic
        good + b"\x00",
    ]
    rng = random.Random(7)
    for _ in range(300):  # random damage
        b = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        bad.append(bytes(b))
    for data in bad:
        try:
            Columns("b").add_body(data, 0, 1 << 62)
        except ProtocolError:
            pass
        except Exception as e:  # anything else is a bug in the fast path
            pytest.fail(f"{type(e).__name__}: {e} for {data!r}")


def test_properties_split_as_java_does() -> None:
    from mqadmin.pipeline.export.columns import _properties
    from mqadmin.protocol.message import string_to_properties

    rng = random.Random(11)
    alphabet = ["a", "b", "\x01", "\x02", "é", ""]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert _properties(text) == string_to_properties(text), repr(text)
