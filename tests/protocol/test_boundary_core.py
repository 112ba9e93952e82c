"""The boundary core: Java's number parsing, Java's name rules, and declared request headers.

Each rule is checked on what Java accepts and on what it refuses, with the hostile inputs a peer
can send (NUL, lone surrogates, path segments, absurd numbers, final newlines).
"""

from __future__ import annotations

from typing import Annotated

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqadmin.protocol import javanum, names
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.header import (
    decode_binary_header,
    decode_json_header,
    encode_binary_header,
    encode_json_header,
)
from mqadmin.protocol.headers.base import (
    Group,
    HeaderError,
    Java,
    Long,
    Topic,
    TopicRequestHeader,
    request_header,
)

# ------------------------------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("-1", -1), ("+7", 7), ("2147483647", 2**31 - 1), ("-2147483648", -(2**31)), ("007", 7)],
)
def test_parse_int_accepts_what_java_accepts(text: str, value: int) -> None:
    assert javanum.parse_int(text) == value


@pytest.mark.parametrize(
    "text", [None, "", "-", "+", "2147483648", "-2147483649", " 1", "1 ", "1_000", "0x10", "1e3", "١٢", "1\n"]
)
def test_parse_int_refuses_what_java_refuses(text: str | None) -> None:
    with pytest.raises(javanum.JavaNumberError) as e:
        javanum.parse_int(text)
    assert str(e.value).startswith("java.lang.NumberFormatException: ")


def test_parse_long_range_and_null_text() -> None:
    assert javanum.parse_long("9223372036854775807") == 2**63 - 1
    with pytest.raises(javanum.JavaNumberError, match='For input string: "9223372036854775808"'):
        javanum.parse_long("9223372036854775808")
    with pytest.raises(javanum.JavaNumberError, match="NumberFormatException: null"):
        javanum.parse_long(None)


def test_parse_bool_and_double() -> None:
    assert [javanum.parse_bool(t) for t in ("true", "TRUE", "tRuE")] == [True] * 3
    assert [javanum.parse_bool(t) for t in (None, "1", "yes", "true ", "")] == [False] * 5
    assert javanum.parse_double(" 1.5d ") == 1.5 and javanum.parse_double("-Infinity") == float("-inf")
    for bad in (None, "", "1.5x", "inf", "0x"):
        with pytest.raises(javanum.JavaNumberError):
            javanum.parse_double(bad)


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_parse_long_round_trips_every_long(n: int) -> None:
    assert javanum.parse_long(str(n)) == n


# ------------------------------------------------------------------------------------------- names


@pytest.mark.parametrize("topic", ["T", "a-b_c|d%e", "A" * 127, "%RETRY%g"])
def test_good_topics(topic: str) -> None:
    assert names.check_topic(topic) is None


@pytest.mark.parametrize(
    "topic", [None, "", "  ", "Tnl\n", "a b", "../x", "a/b", "a\x00b", "\ud800", "é", "A" * 128, "T\r"]
)
def test_bad_topics(topic: str | None) -> None:
    assert names.check_topic(topic) is not None


def test_group_rules_are_the_clients() -> None:
    assert names.check_group("G" * 255) is None
    assert names.check_group("G" * 256) == "the specified group is longer than group max length 255."
    assert names.check_group("../../Victim") is not None and names.check_group(" ") is not None
    assert names.check_group("a\x00b") is not None and names.check_group("\udfff") is not None


@pytest.mark.parametrize("name", ["", " ", ".", "..", "a/b", "a\\b", "x\x00", "\ud800", "a\nb", "n" * 256])
def test_bad_cluster_and_broker_names(name: str) -> None:
    assert names.check_name("broker", name) is not None


def test_good_names_and_kv() -> None:
    assert names.check_name("cluster", "DefaultCluster") is None
    assert names.check_name("broker", "broker-a") is None
    assert names.check_kv_key("any text, even = and spaces") is None
    assert names.check_kv_key("k\ud800") is not None and names.check_kv_namespace("n\x00") is not None


def test_bad_text_says_why() -> None:
    assert names.bad_text("plain") is None and names.bad_text("é😀") is None
    assert names.bad_text("a\ud800") == "contains a lone surrogate (U+D800)"
    assert names.bad_text("a\x00") == "contains a NUL character"
    assert names.bad_text("a\tb") is None and names.bad_text("a\tb", controls=True) is not None


def test_leaves_directory() -> None:
    assert [names.leaves_directory(n) for n in ("", ".", "..", "a/b", "a\\b")] == [True] * 5
    assert not names.leaves_directory("...") and not names.leaves_directory("topic")


# ----------------------------------------------------------------------------------------- headers


@request_header
class _Sample(TopicRequestHeader):
    consumer_group: Group
    topic: Topic
    queue_id: int
    queue_offset: Long
    broker: Annotated[str | None, Java("bname2")] = None
    flag: bool | None = None


GOOD = {"consumerGroup": "G", "topic": "T", "queueId": "3", "queueOffset": "99999999999"}


def test_declared_fields_in_java_order() -> None:
    assert [(f.java, f.kind, f.required) for f in _Sample.fields()] == [
        ("consumerGroup", "str", True),
        ("topic", "str", True),
        ("queueId", "int", True),
        ("queueOffset", "long", True),
        ("bname2", "str", False),
        ("flag", "bool", False),
        ("lo", "bool", False),  # TopicRequestHeader's own, then RpcRequestHeader's
        ("ns", "str", False),
        ("nsd", "bool", False),
        ("bname", "str", False),
        ("oway", "bool", False),
    ]


def test_a_subclass_lists_its_own_fields_first() -> None:
    """Java's field walk: a subclass's own fields, then its superclass's, then theirs."""

    @request_header
    class Base(TopicRequestHeader):
        topic: Topic

    @request_header
    class Child(Base):
        queue_id: int = 0

    assert [f.java for f in Base.fields()][:2] == ["topic", "lo"]
    assert [f.java for f in Child.fields()][:3] == ["queueId", "topic", "lo"]
    assert Child.decode({"topic": "T", "queueId": "4"}) == Child(topic="T", queue_id=4)
    with pytest.raises(HeaderError):
        Child.decode({"topic": "bad topic"})


def test_decode_and_encode_round_trip() -> None:
    h = _Sample.decode({**GOOD, "flag": "TRUE", "lo": "true", "bname2": "b"})
    assert (h.queue_id, h.queue_offset, h.flag, h.lo, h.broker) == (3, 99999999999, True, True, "b")
    assert _Sample.decode(h.to_ext()) == h
    assert _Sample("G", "T", 1, 2, lo=True).check().to_ext() == {
        "consumerGroup": "G", "topic": "T", "queueId": "1", "queueOffset": "2", "lo": "true"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value", "remark"),
    [
        ("consumerGroup", "a\x00b", "the header field consumerGroup contains a NUL character"),
        ("topic", "T\udfff", "the header field topic contains a lone surrogate (U+DFFF)"),
        ("consumerGroup", "../../Victim", "illegal characters"),
        ("topic", "Tnl\n", "illegal characters"),
        ("queueId", "2147483648", 'NumberFormatException: For input string: "2147483648"'),
        ("queueOffset", "-99999999999999999999", "NumberFormatException"),
        ("queueId", "", "NumberFormatException"),
        ("bname2", "x\x00", "NUL"),
    ],
)
def test_hostile_values_are_refused(field: str, value: str, remark: str) -> None:
    with pytest.raises(HeaderError) as e:
        _Sample.decode({**GOOD, field: value})
    assert remark in e.value.remark and e.value.code == 1


def test_missing_required_field_strict_and_lenient() -> None:
    with pytest.raises(HeaderError, match="the custom field <queueId> is null"):
        _Sample.decode({k: v for k, v in GOOD.items() if k != "queueId"})
    with pytest.raises(HeaderError):
        _Sample.decode(None)
    h = _Sample.decode({"topic": "T", "queueId": "x"}, lenient=True)  # Java's reflective decode
    assert (h.consumer_group, h.topic, h.queue_id) == (None, "T", None)
    with pytest.raises(HeaderError):  # the checks still apply when lenient
        _Sample.decode({"topic": "a/b"}, lenient=True)


def test_client_side_check() -> None:
    with pytest.raises(HeaderError):
        _Sample("../g", "T", 1, 2).check()
    with pytest.raises(HeaderError, match="custom field <topic> is null"):
        _Sample("G", None, 1, 2).check()  # type: ignore[arg-type]


@given(
    st.dictionaries(st.sampled_from([f.java for f in _Sample.fields()]), st.text(max_size=12), max_size=12)
)
def test_any_ext_fields_decode_or_refuse(ext: dict[str, str]) -> None:
    """Whatever a peer sends, decoding gives a header or a HeaderError: never anything else."""
    try:
        h = _Sample.decode(ext)
    except HeaderError:
        return
    assert names.check_topic(h.topic) is None and names.check_group(h.consumer_group) is None


# ------------------------------------------------------------------------- bad text in frame headers


def test_decoders_mark_bad_header_text() -> None:
    cmd = RemotingCommand.request(10, {"group": "a\ud800b", "ok": "fine"})
    data = encode_json_header(cmd)  # a lone surrogate is written as an escape, never fails
    assert b"\\uD800" in data
    assert decode_json_header(data).bad_text == "the header field group contains a lone surrogate (U+D800)"
    nul = RemotingCommand.request(10, {"k": "v\x00"})
    why = decode_binary_header(encode_binary_header(nul)).bad_text
    assert why == "the header field k contains a NUL character"
    assert decode_json_header(encode_json_header(RemotingCommand.request(10, {"k": "é"}))).bad_text is None
