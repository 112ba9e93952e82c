"""Pulled records into Arrow columns (``export.columns``) against the protocol's own decoder.

Every kind of record (IPv4 and IPv6 hosts, a compressed body, the v2 magic of a long topic, no
properties) gives the row :func:`~mqadmin.pipeline.export.pull.to_batch` gives from the decoded
message; rows past the chunk's end are left out, and a record that breaks the offsets' rule
(:class:`~mqadmin.pipeline.export.checks.Cursor`) is refused whichever decoder reads it; a bad
buffer is a ProtocolError (or, damaged where the rule looks, a RangeReadError), never anything else.
"""

from __future__ import annotations

import random
import zlib

import pytest

from mqadmin.pipeline.export.checks import Cursor, RangeReadError
from mqadmin.pipeline.export.columns import Columns
from mqadmin.pipeline.export.pull import to_batch
from mqadmin.pipeline.export.ranges import QueueRange
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import MessageSysFlag, magic_code_for_topic
from mqadmin.protocol.message_record import MessageExt, body_crc32, decode_messages, encode_message


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


def cursor(lo: int, hi: int, topic: str = "T", contiguous: bool = True) -> Cursor:
    return Cursor(QueueRange(topic, "b", "127.0.0.1:10911", 1, lo, hi), lo, hi, contiguous)


def test_columns_equal_the_decoded_messages() -> None:
    data = b"".join(encode_message(m) for m in kinds())
    cols = Columns("broker-a")
    for m in kinds():  # one topic per cursor: the long-topic record is of another topic
        assert cols.add_body(encode_message(m), cursor(m.queue_offset, 100, m.topic)) == m.queue_offset
    got = cols.drain().to_pylist()
    want = to_batch(decode_messages(data), "broker-a").to_pylist()
    assert got == want and len(got) == 6
    assert got[3]["body"] == b"z" * 5000
    assert len(cols) == 0  # drained


def test_rows_past_the_chunk_are_left_out() -> None:
    data = b"".join(encode_message(record(i)) for i in range(3, 10))
    cols = Columns("b", include_properties=False)
    assert cols.add_body(data, cursor(3, 7)) == 3
    rows = cols.drain().to_pylist()
    assert [r["queue_offset"] for r in rows] == [3, 4, 5, 6]
    assert all(r["properties"] is None for r in rows)


@pytest.mark.parametrize("slow", [False, True])
@pytest.mark.parametrize(
    ("offsets", "said"),
    [
        ([0, 1, 1], "offset 1 arrived twice"),
        ([0, 2], "offsets 1..1 were never sent"),
        ([2, 3], "before the offset pulled"),
        ([3, 4, 2], "offset 2 arrived after offset 4"),
    ],
)
def test_both_decoders_refuse_what_breaks_the_rule(offsets: list[int], said: str, slow: bool) -> None:
    flag = {"sys_flag": MessageSysFlag.COMPRESSED_FLAG, "body": zlib.compress(b"x")} if slow else {}
    data = b"".join(encode_message(record(o, **flag)) for o in offsets)
    c = cursor(offsets[0] if "pulled" not in said else 3, 100)
    with pytest.raises(RangeReadError, match=said):
        Columns("b").add_body(data, c)


def test_other_topics_and_queues_are_refused() -> None:
    for m in (record(0, topic="Other"), record(0, queue_id=2)):
        with pytest.raises(RangeReadError, match="the answer holds a record of"):
            Columns("b").add_body(encode_message(m), cursor(0, 10))


def test_a_chunk_whose_tail_never_came_fails_unless_filtered() -> None:
    data = b"".join(encode_message(record(i)) for i in range(4))
    c = cursor(0, 10)
    Columns("b").add_body(data, c)
    with pytest.raises(RangeReadError, match=r"offsets 4\.\.9 were never sent"):
        c.finish()
    filtered = cursor(0, 10, contiguous=False)
    Columns("b").add_body(b"".join(encode_message(record(i)) for i in (0, 5, 7)), filtered)
    filtered.finish()


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
            Columns("b").add_body(data, cursor(0, 1 << 62, contiguous=False))
        except (ProtocolError, RangeReadError):
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
