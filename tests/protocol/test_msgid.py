"""Message ids: offset ids and unique keys, checked against the recorded traffic and Java's rules."""

from __future__ import annotations

import ipaddress
import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.message import string_to_properties
from mqadmin.protocol.message_record import decode_messages
from mqadmin.protocol.msgid import (
    UniqueIdGenerator,
    create_offset_msg_id,
    decode_offset_msg_id,
    decode_unique_id,
    host_to_bytes,
    java_host_address,
    java_ip_string,
    month_start_ms,
    parse_unique_id,
)
from tests.captures import pairs, scenarios

SEND_CODES = (10, 310)


def _ms(*args: int, tz: timezone = UTC) -> int:
    return int(datetime(*args, tzinfo=tz).timestamp() * 1000)


def _sends() -> list[tuple[dict, dict, str]]:
    """(request extFields with long names, response extFields, client language) of every recorded send."""
    out = []
    for p in scenarios():
        for req, resp in pairs(f"{p.parent.name}/{p.name}"):
            if req.header.get("code") not in SEND_CODES or resp is None or resp.header.get("code") != 0:
                continue
            ext = dict(req.header["extFields"])
            if req.header["code"] == 310:
                ext = {"topic": ext["b"], "bornTimestamp": ext["g"], "properties": ext["i"]}
            out.append((ext, resp.header["extFields"], req.header["language"]))
    return out


def _stored_offsets() -> set[int]:
    offsets = set()
    for p in scenarios():
        for req, resp in pairs(f"{p.parent.name}/{p.name}"):
            if req.header.get("code") in (11, 12) and resp is not None and resp.header.get("code") == 0:
                offsets |= {m.commit_log_offset for m in decode_messages(resp.body)}
    return offsets


# --- offset message ids ---------------------------------------------------------------------------


def test_recorded_send_responses_carry_offset_ids() -> None:
    sends = _sends()
    stored = _stored_offsets()
    matched = 0
    for _, resp_ext, _ in sends:
        msg_id = resp_ext["msgId"]
        host, port, offset = decode_offset_msg_id(msg_id)
        assert (host, port) == ("127.0.0.1", 10911)
        assert create_offset_msg_id(host, port, offset) == msg_id
        matched += offset in stored
    print(f"offset msg ids checked: {len(sends)}, found among pulled records: {matched}")
    assert sends and matched >= 5


def test_offset_id_layout() -> None:
    assert create_offset_msg_id("127.0.0.1", 10911, 826) == "7F00000100002A9F000000000000033A"
    v6 = create_offset_msg_id("fd00::2", 10911, 826)
    assert v6 == "FD000000000000000000000000000002" + "00002A9F" + "000000000000033A"
    assert decode_offset_msg_id(v6) == ("fd00:0:0:0:0:0:0:2", 10911, 826)
    assert decode_offset_msg_id(v6.lower()) == decode_offset_msg_id(v6)  # Java upper-cases first
    # Java resolves an IPv4-mapped address to IPv4, so the id is the short one.
    assert create_offset_msg_id("::ffff:127.0.0.1", 10911, 826) == "7F00000100002A9F000000000000033A"
    assert decode_offset_msg_id("7F00000100002A9FFFFFFFFFFFFFFFFF")[2] == -1  # a Java long


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "32 or 56 hex characters, got 0"),
        ("7F00000100002A9F000000000000033", "32 or 56 hex characters, got 31"),
        ("7F00000100002A9F000000000000033AB", "got 33"),
        ("7F00000100002A9F00000000000003XZ", "not hexadecimal"),
        ("7F000001 0002A9F000000000000033A", "not hexadecimal"),
        (None, "must be a string"),
    ],
)
def test_bad_offset_ids(bad: object, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        decode_offset_msg_id(bad)  # type: ignore[arg-type]


def test_bad_offset_id_inputs() -> None:
    with pytest.raises(ProtocolError, match="not an IP address"):
        create_offset_msg_id("broker-a", 10911, 0)
    with pytest.raises(ProtocolError, match="out of range"):
        create_offset_msg_id("127.0.0.1", 10911, 2**63)


@given(st.ip_addresses(), st.integers(0, 65535), st.integers(-(2**63), 2**63 - 1))
def test_offset_id_round_trip(
    addr: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int, offset: int
) -> None:
    host = java_host_address(addr.packed)
    msg_id = create_offset_msg_id(str(addr), port, offset)
    assert msg_id == msg_id.upper() and len(msg_id) == (32 if "." in host else 56)
    assert decode_offset_msg_id(msg_id) == (host, port, offset)
    assert create_offset_msg_id(host, port, offset) == msg_id


# --- addresses ------------------------------------------------------------------------------------


def test_address_renderings() -> None:
    assert java_host_address(bytes([127, 0, 0, 1])) == "127.0.0.1"
    assert java_host_address(ipaddress.ip_address("fd00::2").packed) == "fd00:0:0:0:0:0:0:2"
    assert java_host_address(ipaddress.ip_address("::ffff:10.1.2.3").packed) == "10.1.2.3"
    assert java_ip_string(ipaddress.ip_address("fd00::2").packed) == "fd00:0000:0000:0000:0000:0000:0000:0002"
    assert java_ip_string(ipaddress.ip_address("::ffff:10.1.2.3").packed).endswith("ffff:0a01:0203")
    assert host_to_bytes("10.1.2.3", v6=True) == ipaddress.ip_address("::ffff:10.1.2.3").packed
    assert host_to_bytes("::ffff:10.1.2.3") == bytes([10, 1, 2, 3])
    assert host_to_bytes("[::1]") == ipaddress.ip_address("::1").packed
    for bad in (b"\x01\x02", b"\x00" * 5):
        with pytest.raises(ProtocolError):
            java_host_address(bad)
        with pytest.raises(ProtocolError):
            java_ip_string(bad)
    with pytest.raises(ProtocolError):
        host_to_bytes("::1", v6=False)
    with pytest.raises(ProtocolError):
        host_to_bytes(None)  # type: ignore[arg-type]


# --- unique keys ----------------------------------------------------------------------------------


def test_recorded_java_unique_keys() -> None:
    """Java producers (4.9.8 and 5.3.3 tools): the id decodes to a time just before bornTimestamp.

    The recording host ran in UTC, which the ids confirm: their month start is 2026-11-01T00:00Z.
    """
    checked = 0
    for req_ext, _, language in _sends():
        if language != "JAVA":
            continue
        uniq = string_to_properties(req_ext["properties"])["UNIQ_KEY"]
        born = int(req_ext["bornTimestamp"])
        info = parse_unique_id(uniq, now_ms=born + 60_000, tz=UTC)
        assert info.ip == "fd00:0000:0000:0000:0000:0000:0000:0002"
        assert 0 <= born - info.timestamp_ms < 5_000, (uniq, born, info)
        assert info.pid == int(uniq[32:36], 16) and info.counter == 0
        fields = decode_unique_id(uniq)
        assert fields.class_loader_hash == 0x4E0E2F2A
        # Our generator, fed the same facts, makes the very same id.
        gen = UniqueIdGenerator(
            fields.ip,
            pid=fields.pid,
            class_loader_hash=fields.class_loader_hash,
            clock=lambda ts=info.timestamp_ms: ts,
            tz=UTC,
        )
        assert gen.next_id() == uniq
        checked += 1
    print(f"Java unique keys checked: {checked}")
    assert checked >= 3


def test_recorded_cpp_unique_keys() -> None:
    """The C++ client 1.0.1 writes its fields little-endian; Java reads them as it reads its own."""
    ids = [
        string_to_properties(req_ext["properties"])["UNIQ_KEY"]
        for req_ext, _, language in _sends()
        if language == "CPP"
    ]
    assert len(ids) == 3
    for i, uniq in enumerate(ids, start=1):
        info = parse_unique_id(uniq, now_ms=_ms(2026, 11, 20), tz=UTC)
        assert info.ip == "1.0.0.127"  # 127.0.0.1 byte-swapped, as Java's getIPStrFromID shows it
        assert info.counter == i << 8  # counter 1, 2, 3 in little-endian


def test_unique_id_layout_and_parse() -> None:
    now = _ms(2024, 3, 15, 12, 0, 0)
    gen = UniqueIdGenerator("10.1.2.3", pid=0x12345, class_loader_hash=-1, clock=lambda: now, tz=UTC)
    assert gen.prefix == "0A010203" + "2345" + "FFFFFFFF"
    first, second = gen.next_id(), gen()
    span = now - _ms(2024, 3, 1)
    assert first == gen.prefix + f"{span:08X}" + "0000"
    assert second.endswith("0001") and len(first) == 32
    info = parse_unique_id(first, now_ms=now + 1, tz=UTC)
    assert info == ("10.1.2.3", 0x2345, now, 0)
    fields = decode_unique_id(first)
    assert (fields.ip, fields.pid, fields.class_loader_hash, fields.time_span_ms, fields.counter) == (
        bytes([10, 1, 2, 3]), 0x2345, -1, span, 0,
    )  # fmt: skip


def test_parse_picks_the_previous_month_for_future_times() -> None:
    gen = UniqueIdGenerator("10.1.2.3", pid=1, class_loader_hash=1, clock=lambda: _ms(2024, 2, 20), tz=UTC)
    uniq = gen.next_id()
    assert parse_unique_id(uniq, now_ms=_ms(2024, 2, 25), tz=UTC).timestamp_ms == _ms(2024, 2, 20)
    # Read on 3 March, 19 days into "this" month would be in the future: Java picks February.
    assert parse_unique_id(uniq, now_ms=_ms(2024, 3, 3), tz=UTC).timestamp_ms == _ms(2024, 2, 20)
    # The zone matters as in Java: the month starts at local midnight.
    plus2 = timezone(timedelta(hours=2))
    assert (
        parse_unique_id(uniq, now_ms=_ms(2024, 2, 25), tz=plus2).timestamp_ms == _ms(2024, 2, 20) - 7_200_000
    )


def test_generator_month_rollover_counter_wrap_and_clock_steps() -> None:
    times = iter([_ms(2024, 1, 31, 23, 59, 59), _ms(2024, 2, 1, 0, 0, 0) + 5, _ms(2024, 2, 1) - 400])
    gen = UniqueIdGenerator(
        "10.1.2.3", pid=1, class_loader_hash=1, clock=lambda: next(times), tz=UTC, counter=0xFFFF
    )
    ids = [gen.next_id() for _ in range(2)]
    # (the constructor consumed the first time)
    assert ids[0].endswith("00000005" + "FFFF")  # new month: the span restarts, counter keeps counting
    assert ids[1].endswith("00000000" + "0000")  # clock stepped back 400 ms: pinned at 0; counter wrapped
    far_back = iter([_ms(2024, 2, 10), _ms(2024, 2, 10) - 2_000_000])
    gen = UniqueIdGenerator("10.1.2.3", pid=1, class_loader_hash=1, clock=lambda: next(far_back), tz=UTC)
    span = _ms(2024, 2, 10) - 2_000_000 - _ms(2024, 2, 1)
    assert gen.next_id()[20:28] == f"{span:08X}"
    backwards = iter([_ms(2024, 2, 1) + 10, _ms(2024, 2, 1) - 2_000_000])
    gen = UniqueIdGenerator("10.1.2.3", pid=1, class_loader_hash=1, clock=lambda: next(backwards), tz=UTC)
    assert gen.next_id()[20:28] == f"{-2_000_000 & 0xFFFFFFFF:08X}"  # beyond the NTP allowance: kept


def test_generator_defaults_and_ipv6() -> None:
    now = 1_700_000_000_000
    gen = UniqueIdGenerator(clock=lambda: now, tz=UTC)
    assert gen.prefix.startswith(f"{now & 0xFFFFFFFF:08X}")  # Java's fake IP: the clock's low bytes
    v6 = UniqueIdGenerator("fd00::2", pid=7, class_loader_hash=9, tz=UTC)
    uniq = v6.next_id()
    assert len(uniq) == 56 and uniq.startswith("FD000000000000000000000000000002" + "0007" + "00000009")
    assert parse_unique_id(uniq, tz=UTC).ip == "fd00:0000:0000:0000:0000:0000:0000:0002"
    with pytest.raises(ProtocolError):
        UniqueIdGenerator(b"\x01\x02\x03")
    with pytest.raises(ProtocolError):
        UniqueIdGenerator("not-an-ip")


def test_generator_is_thread_safe() -> None:
    gen = UniqueIdGenerator("10.1.2.3", pid=1, class_loader_hash=1)
    ids: list[str] = []
    lock = threading.Lock()

    def work() -> None:
        made = [gen.next_id() for _ in range(500)]
        with lock:
            ids.extend(made)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == 4000


@pytest.mark.parametrize("bad", ["", "ABC", "0A0102032345FFFFFFFF0000000000G0", "0A010203" * 5])
def test_bad_unique_ids(bad: str) -> None:
    with pytest.raises(ProtocolError, match="unique message id"):
        parse_unique_id(bad)


def test_month_start() -> None:
    assert month_start_ms(_ms(2024, 12, 31, 23), UTC, months=1) == _ms(2025, 1, 1)
    assert month_start_ms(_ms(2024, 1, 5), UTC, months=-1) == _ms(2023, 12, 1)
    assert month_start_ms(_ms(2024, 1, 5), UTC) == _ms(2024, 1, 1)
