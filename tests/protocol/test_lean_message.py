"""Messages and message ids without dataclasses, typing, enum, re, datetime or ipaddress at import.

- In a bare interpreter (no site, only this source tree), the message codec and the id module import
  nothing heavy, and decoding a record, reading its offset id and parsing a unique key import
  nothing heavy either.
- ``Message`` and ``MessageExt`` behave as the dataclasses did: positional order, fresh property
  maps, equality without ``transaction_id``, ``broker_name`` and ``raw_body``, the repr without
  ``raw_body``, ``with_`` as ``dataclasses.replace`` (the decoder's private state starts afresh),
  unhashable, copies and pickles.
- ``CompressionType`` is an ``IntEnum`` in all but the import; the unique-key tuples are named
  tuples in all but the import; ``host_to_bytes`` answers as :mod:`ipaddress` does; the local month
  start is what ``datetime(...).timestamp()`` gives, in zones with odd clock changes too.
"""

from __future__ import annotations

import copy
import ipaddress
import os
import pickle
import time
import zlib
from collections.abc import Iterator
from datetime import datetime

import pytest

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import (
    CompressionType,
    Message,
    MessageExt,
    MessageSysFlag,
    decode_message,
    encode_message,
)
from mqadmin.protocol.msgid import (
    UniqueIdFields,
    UniqueIdGenerator,
    UniqueIdInfo,
    host_to_bytes,
    month_start_ms,
    parse_unique_id,
)
from tests.bare import heavy_in, run_bare


def test_bare_import_and_decode_pull_nothing_heavy() -> None:
    out, names = run_bare(
        "from mqadmin.protocol.message import MessageExt, encode_message, decode_message\n"
        "from mqadmin.protocol.msgid import UniqueIdGenerator, parse_unique_id, decode_offset_msg_id\n"
        "ids = UniqueIdGenerator('10.1.2.3', pid=1, class_loader_hash=1)\n"
        "m = MessageExt(topic='t', properties={'UNIQ_KEY': ids()}, body=b'x', store_host='10.0.0.9',\n"
        "               store_port=10911, commit_log_offset=77)\n"
        "back, _ = decode_message(encode_message(m))\n"
        "print(back.with_(store_size=0) == m, back.msg_id, decode_offset_msg_id(back.msg_id))\n"
        "print(parse_unique_id(back.unique_key).ip, back.delay_time_level)\n"
    )
    assert out == "True 0A00000900002A9F000000000000004D ('10.0.0.9', 10911, 77)\n10.1.2.3 0"
    assert heavy_in(names, "ipaddress", "random") == []


def test_fields_order_defaults_and_fresh_properties() -> None:
    m = Message("t", 3, {"a": "b"}, b"body", "tx")
    assert (m.topic, m.flag, m.properties, m.body, m.transaction_id) == ("t", 3, {"a": "b"}, b"body", "tx")
    one, two = MessageExt(), MessageExt()
    one.properties["k"] = "v"
    assert two.properties == {} and one.properties is not two.properties
    assert (two.born_host, two.store_host, two.magic_code, two.broker_name, two.raw_body) == (
        "0.0.0.0", "0.0.0.0", -626843481, None, None,
    )  # fmt: skip
    ext = MessageExt("t", 0, None, b"", None, 5, 6, 7)
    assert (ext.queue_id, ext.store_size, ext.queue_offset) == (5, 6, 7)


def test_equality_leaves_out_what_the_dataclasses_did() -> None:
    base = MessageExt(topic="t", body=b"x", queue_id=1, born_host="10.0.0.1")
    same = MessageExt(topic="t", body=b"x", queue_id=1, born_host="10.0.0.1", transaction_id="tx",
                      broker_name="b", raw_body=b"zz")  # fmt: skip
    assert base == same and not base != same
    for change in ({"queue_id": 2}, {"body": b"y"}, {"magic_code": -626843477}, {"store_port": 1},
                   {"properties": {"a": "b"}}, {"prepared_transaction_offset": 9}):  # fmt: skip
        assert base != base.with_(**change), change
    assert Message(topic="t") == Message(topic="t", transaction_id="other")
    assert Message(topic="t") != MessageExt(topic="t")  # another class is never equal
    with pytest.raises(TypeError):
        hash(base)


def test_repr_as_the_dataclasses_printed() -> None:
    m = MessageExt(topic="t", properties={"KEYS": "k"}, body=b"x", transaction_id="tx", queue_id=2,
                   broker_name="b", raw_body=b"zz", born_host="10.0.0.1")  # fmt: skip
    assert repr(m) == (
        "MessageExt(topic='t', flag=0, properties={'KEYS': 'k'}, body=b'x', transaction_id='tx', queue_id=2, "
        "store_size=0, queue_offset=0, sys_flag=0, born_timestamp=0, born_host='10.0.0.1', born_port=0, "
        "store_timestamp=0, store_host='0.0.0.0', store_port=0, commit_log_offset=0, body_crc=0, "
        "reconsume_times=0, prepared_transaction_offset=0, magic_code=-626843481, broker_name='b')"
    )
    assert repr(Message("t", 1, {"a": "b"}, b"y", "tid")) == (
        "Message(topic='t', flag=1, properties={'a': 'b'}, body=b'y', transaction_id='tid')"
    )


def test_with_copies_every_field_and_drops_the_decoders_state() -> None:
    m = MessageExt(topic="t", body=zlib.compress(b"hello" * 100), sys_flag=MessageSysFlag.COMPRESSED_FLAG,
                   transaction_id="tx", broker_name="b", store_host="10.0.0.2")  # fmt: skip
    decoded, _ = decode_message(encode_message(m))
    assert decoded.raw_body is not None and decoded.body == b"hello" * 100
    again = decoded.with_(queue_id=4)
    assert again.queue_id == 4 and again.raw_body == decoded.raw_body and again.body == decoded.body
    assert again._inflated_body is None and again._raw_properties is None and not again._body_skipped
    kept = m.with_()
    assert (kept.transaction_id, kept.broker_name, kept.store_host) == ("tx", "b", "10.0.0.2")
    # as after dataclasses.replace, the copy compresses its body again (level 5, not the stored bytes)
    assert encode_message(decoded) == encode_message(m)
    assert decode_message(encode_message(again))[0].body == b"hello" * 100


def test_copies_and_pickles() -> None:
    m = MessageExt(topic="t", properties={"a": "b"}, body=b"x", broker_name="b", transaction_id="tx")
    decoded, _ = decode_message(encode_message(m))
    for again in (copy.copy(decoded), copy.deepcopy(decoded), pickle.loads(pickle.dumps(decoded))):
        assert again == decoded and again.broker_name is None
        assert encode_message(again) == encode_message(decoded)
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.transaction_id == "tx" and back.broker_name == "b"
    with pytest.raises(AttributeError):
        m.no_such_field = 1  # type: ignore[attr-defined]


def test_java_int_properties() -> None:
    m = Message()
    for text, value in (("5", 5), ("+5", 5), ("-3", -3), ("007", 7)):
        m.properties["DELAY"] = text
        assert m.delay_time_level == value
    for bad in ("", "+", "-", " 5", "5 ", "5\n", "\u0663", "1_0", "0x1", "+-1", "1.0"):
        m.properties["DELAY"] = bad
        with pytest.raises(ProtocolError, match="not a number"):
            _ = m.delay_time_level


def test_compression_type_as_an_int_enum() -> None:
    z = CompressionType.ZLIB
    assert CompressionType(3) is z and CompressionType["ZSTD"] is CompressionType.ZSTD
    assert (z.name, z.value, z == 3, z.compression_flag) == ("ZLIB", 3, True, 0x300)
    assert (repr(z), str(z), f"{CompressionType.LZ4}") == ("<CompressionType.ZLIB: 3>", "3", "1")
    assert [c.name for c in CompressionType] == ["LZ4", "ZSTD", "ZLIB"]
    assert CompressionType.find_by_value(0) is z and pickle.loads(pickle.dumps(z)) is z
    with pytest.raises(ProtocolError, match="unknown compression type value 5"):
        CompressionType.find_by_value(5)


def test_unique_id_tuples_as_named_tuples() -> None:
    f = UniqueIdFields(b"\x01", 2, 3, 4, 5)
    assert f == (b"\x01", 2, 3, 4, 5) and (
        f.ip,
        f.pid,
        f.class_loader_hash,
        f.time_span_ms,
        f.counter,
    ) == tuple(f)
    assert repr(f) == "UniqueIdFields(ip=b'\\x01', pid=2, class_loader_hash=3, time_span_ms=4, counter=5)"
    info = UniqueIdInfo("1.2.3.4", 1, 2, 3)
    assert repr(info) == "UniqueIdInfo(ip='1.2.3.4', pid=1, timestamp_ms=2, counter=3)"
    assert info._asdict() == {"ip": "1.2.3.4", "pid": 1, "timestamp_ms": 2, "counter": 3}
    assert pickle.loads(pickle.dumps(info)) == info and type(pickle.loads(pickle.dumps(f))) is UniqueIdFields
    assert hash(info) == hash(("1.2.3.4", 1, 2, 3))


@pytest.mark.parametrize("v6", [None, True, False])
@pytest.mark.parametrize(
    "host",
    ["1.2.3.4", "0.0.0.0", "255.255.255.255", "01.2.3.4", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.0004",
     "1..2.3", "1.2.3.4 ", "\u0661.2.3.4", "::ffff:1.2.3.4", "[::1]", "fd00::2", "[10.0.0.1]", "", "x"],
)  # fmt: skip
def test_host_to_bytes_as_ipaddress(host: str, v6: bool | None) -> None:
    try:
        addr = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        with pytest.raises(ProtocolError, match="not an IP address"):
            host_to_bytes(host, v6=v6)
        return
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None and v6 is not True:
        addr = addr.ipv4_mapped
    if isinstance(addr, ipaddress.IPv4Address):
        want = (b"\x00" * 10 + b"\xff\xff" + addr.packed) if v6 else addr.packed
    elif v6 is False:
        with pytest.raises(ProtocolError, match="where the sys flag says IPv4"):
            host_to_bytes(host, v6=v6)
        return
    else:
        want = addr.packed
    assert host_to_bytes(host, v6=v6) == want
    assert host_to_bytes(host, v6=v6) == want  # remembered


@pytest.fixture
def zone() -> Iterator[None]:
    before = os.environ.get("TZ")
    yield
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def _datetime_month_start(ms: int, months: int) -> int:
    """What month_start_ms computed with datetime before (naive, local zone)."""
    dt = datetime.fromtimestamp(ms / 1000)
    index = dt.year * 12 + (dt.month - 1) + months
    start = dt.replace(
        year=index // 12, month=index % 12 + 1, day=1, hour=0, minute=0, second=0, microsecond=0
    )
    return round(start.timestamp() * 1000)


@pytest.mark.parametrize(
    "tz",
    # Santiago and Beirut change clocks at midnight, Lord Howe by half an hour, Apia skipped a day.
    ["UTC", "Europe/Berlin", "America/Santiago", "Asia/Beirut", "Australia/Lord_Howe", "Pacific/Apia",
     "America/Sao_Paulo", "Asia/Tehran", "America/St_Johns"],
)  # fmt: skip
def test_local_month_start_as_datetime(tz: str, zone: None) -> None:
    os.environ["TZ"] = tz
    time.tzset()
    for year in range(1960, 2040):
        for month in range(1, 13):
            for day, hour in ((1, 0), (1, 1), (15, 12), (28, 23)):
                ms = int(time.mktime((year, month, day, hour, 30, 0, 0, 0, -1))) * 1000 + 123
                for shift in (-1, 0, 1):
                    assert month_start_ms(ms, months=shift) == _datetime_month_start(ms, shift), (ms, shift)


def test_generator_without_a_loader_hash_and_its_lock() -> None:
    gen = UniqueIdGenerator("10.1.2.3", pid=1)
    other = UniqueIdGenerator("10.1.2.3", pid=1)
    assert len(gen.prefix) == 20 and gen.prefix[:12] == "0A0102030001"
    assert gen.prefix != other.prefix  # a random class-loader hash each (as Java's)
    first = gen.next_id()
    assert parse_unique_id(first).ip == "10.1.2.3" and gen.next_id()[-4:] == "0001"
