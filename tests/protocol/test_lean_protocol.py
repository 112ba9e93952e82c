"""The protocol layer on a command's start-up path, without the standard library's heavier modules.

- In a bare interpreter (no site, only this source tree), what the topicRoute client does with the
  protocol (a request's frame, a response's JSON header, a route body in either form, the topic
  checks) imports none of typing, dataclasses, re, enum, json, collections, functools, ...
- Each hand-written fast path answers as the regular expression (or ``json``) it stands in for,
  for every input: hypothesis compares them.
- The plain classes that replaced enums and dataclasses behave as those did where code uses them.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mqadmin.protocol import fastjson, header, javanum, names
from mqadmin.protocol.bodies import _json as bodies_json
from mqadmin.protocol.bodies.route import BrokerData, QueueData, TopicRouteData
from mqadmin.protocol.codes import LanguageCode, language_from_code
from mqadmin.protocol.codes import SerializeType as SerializeCode
from mqadmin.protocol.command import HeaderStyle, RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from tests.bare import heavy_in, run_bare

ROOT = Path(__file__).resolve().parents[2]


CLIENT_PATH = r"""
from mqadmin.protocol import frame, names
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.codes import RequestCode, language_from_name
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.fastjson import loads

assert names.check_topic("T") is None and names.bad_text("T") is None
assert names.check_name("cluster", "DefaultCluster") is None
req = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "T"})
wire = frame.encode(req)
assert frame.decode(wire).ext_fields == {"topic": "T"}
legacy = (b'{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911",1:"127.0.0.1:10921"},'
          b'"brokerName":"b","cluster":"C"}],"filterServerTable":{},'
          b'"queueDatas":[{"brokerName":"b","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}')
standard = legacy.replace(b"{0:", b'{"0":').replace(b",1:", b',"1":')
answers = []
for body in (legacy, standard):
    resp = req.response(0, None, None, body)
    resp.language = "JAVA"
    got = frame.FrameDecoder().feed(frame.encode(resp))[0]
    assert got.serialize_type is SerializeType.JSON and got.code == 0
    route = TopicRouteData.decode(got.body)
    assert route.broker_datas[0].broker_addrs == {0: "127.0.0.1:10911", 1: "127.0.0.1:10921"}
    answers.append(route)
assert answers[0] == answers[1]
assert loads(legacy)["brokerDatas"][0]["brokerAddrs"] == {0: "127.0.0.1:10911", 1: "127.0.0.1:10921"}
assert language_from_name("JAVA").value == 0
"""


def test_client_path_imports_nothing_heavy() -> None:
    _, names = run_bare(CLIENT_PATH)
    assert not heavy_in(names), f"imported: {heavy_in(names)}"


def test_a_refused_header_still_says_what_json_says_in_a_bare_interpreter() -> None:
    """The C scanner needs json.decoder for its errors: the message is json's all the same."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from mqadmin.protocol.header import decode_json_header\n"
        "from mqadmin.protocol.fastjson import loads\n"
        "for data in (b'{\"code\":1,}', b'{\"code\":1} x', b'{'):\n"
        "    try:\n"
        "        decode_json_header(data)\n"
        "    except ValueError as e:\n"
        "        print(e)\n"
        "try:\n"
        '    loads(\'{"a":"\\x01"}\')\n'
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    expected = []
    for data in (b'{"code":1,}', b'{"code":1} x', b"{"):
        try:
            json.loads(data)
        except ValueError as e:
            expected.append(f"header is not JSON: {e}")
    with pytest.raises(ProtocolError) as refused:
        fastjson.loads('{"a":"\x01"}')
    expected.append(str(refused.value))
    assert r.stdout.splitlines() == expected


# ------------------------------------------------------------------------- json, without importing it


def _outcome(read: object, data: object) -> tuple[str, str]:
    try:
        return "value", repr(read(data))  # type: ignore[operator]
    except (ValueError, RecursionError) as e:
        return type(e).__name__, str(e)


HEADER_LIKE = st.one_of(
    st.binary(max_size=60),
    st.builds(lambda b: b"{" + b, st.binary(max_size=60)),
    st.builds(
        lambda t: json.dumps(t, ensure_ascii=False).encode("utf-8", "surrogatepass"),
        st.dictionaries(st.text(max_size=5), st.one_of(st.text(max_size=5), st.integers(), st.floats())),
    ),
    st.builds(
        lambda t, cut: json.dumps(t).encode()[:cut],
        st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
        st.integers(0, 30),
    ),
)


@settings(max_examples=600, deadline=None)
@given(HEADER_LIKE)
@example(b'{"a":NaN,"b":-Infinity}')
@example(b"{\x00")
@example(b'{"a":1}\x00\x00')
@example(b'{"a":"\xed\xa0\x80"}')
@example(b'{"a":1}  \n\t ')
@example(b'{"a":1}\x0c')
@example(b"{" * 3000 + b"}" * 3000)
def test_header_reading_is_json_loads(data: bytes) -> None:
    assert _outcome(header._json_loads, data) == _outcome(json.loads, data)


@settings(max_examples=600, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.builds(
            lambda t: " " + json.dumps(t) + "\n",
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
                lambda kids: (
                    st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3)
                ),
                max_leaves=8,
            ),
        ),
    )
)
@example("\ufeff{}")
@example("[NaN, Infinity]")
@example("")
@example('{"a":1} x')
def test_standard_loads_is_json_loads(text: str) -> None:
    assert _outcome(fastjson.standard_loads, text) == _outcome(json.loads, text)


# ---------------------------------------------------------------------------- fast paths against re

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?[LFDlfd]?")
NUMBERISH = st.text(alphabet="-+0123456789.eELFDlfdx \u0661\u00b2", max_size=12)


def _number_by_re(text: str) -> tuple[object, int] | None:
    m = _NUMBER.match(text)
    if not m:
        return None
    tok = m.group(0).rstrip("LFDlfd")
    try:
        value: object = float(tok) if "." in tok or "e" in tok or "E" in tok else int(tok)
    except ValueError as e:
        value = str(e)
    return value, m.end()


def _number_by_hand(text: str) -> tuple[object, int] | None:
    parser = fastjson._Parser(text)
    try:
        value: object = parser.number()
    except ProtocolError:
        return None
    except ValueError as e:
        value = str(e)
    return value, parser.pos


@settings(max_examples=1500, deadline=None)
@given(NUMBERISH)
@example("0123")
@example("1.e5")
@example("-")
@example("1e+")
@example("12L")
@example("1\u0661\u0662")
@example("\u0661")
@example("1.\u0662E\u00b2")
def test_fastjson_number_is_the_regex(text: str) -> None:
    assert _number_by_hand(text) == _number_by_re(text)


_TOPIC_CHARS = re.compile(r"[%|a-zA-Z0-9_-]+")
_BAD_TEXT = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SURROGATE_OR_NUL = re.compile(r"[\x00\ud800-\udfff]")
NAMES = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="%|aZ09_-^$ .\x00\x7f\x1f\u00e9\ud800\uffff\u0085\u200b\n", max_size=12),
)


@settings(max_examples=1500, deadline=None)
@given(NAMES)
@example("")
@example("a\n")
@example("\x7f")
@example("T\ud800")
def test_name_checks_are_the_regexes(s: str) -> None:
    assert names.check_topic_or_group_chars(s) == (_TOPIC_CHARS.fullmatch(s) is not None)
    for controls, pattern in ((True, _BAD_TEXT), (False, _SURROGATE_OR_NUL)):
        m = pattern.search(s)
        got = names.bad_text(s, controls=controls)
        assert (got is None) == (m is None)
        if m is not None:
            assert f"U+{ord(m.group()):04X}" in got or "NUL" in got  # type: ignore[operator]


_INTEGER = re.compile(r"[+-]?[0-9]+")
_LONG_TEXT = re.compile(r"-?[0-9]{1,19}")


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.text(alphabet="+-0123456789 _\u0661\u00b2a", max_size=22), st.text(max_size=6)))
@example("+")
@example("-0")
@example("\u0661")
@example("1_0")
@example("9" * 19)
@example("-" + "9" * 20)
def test_java_integers_are_the_regexes(text: str) -> None:
    try:
        got: object = javanum.parse_long(text)
    except javanum.JavaNumberError:
        got = None
    want = None
    if _INTEGER.fullmatch(text) and javanum.LONG_MIN <= int(text) <= javanum.LONG_MAX:
        want = int(text)
    assert got == want
    assert bodies_json._long_text(text) == (_LONG_TEXT.fullmatch(text) is not None)


_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[dDfF]?)")


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="+-.0123456789eEdfNaIny \t\u0661", max_size=14))
@example(".")
@example("1.")
@example("+.5")
@example("-")
@example(" 2.5 ")
@example("1.2.3")
def test_java_doubles_are_the_regex(text: str) -> None:
    """parse_double's plain-decimal path answers as Double.parseDouble's syntax (the regex) does."""
    try:
        got: object = javanum.parse_double(text)
    except javanum.JavaNumberError:
        got = None
    t = text.strip(" \t\n\r\f\v\x00")
    want: object = None
    if _DOUBLE.fullmatch(t):
        want = float(t.replace("Infinity", "inf")) if "Infinity" in t else float(t.rstrip("dDfF"))
    assert got == want or (got != got and want != want)  # NaN is NaN


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]')
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(m: re.Match[str]) -> str:
    """The regex-era escape of one character (the oracle of the translation table)."""
    c = m.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04X}"


_BROWSER_SAFE = re.compile(r"[ !#-.0-\[\]-~]*")
QUOTABLE = st.one_of(
    st.text(max_size=10),
    st.text(alphabet=' !"#./0[\\]~\x7f\x00\x1f\t\u2028\u00e9\ud800\U0001f600a', max_size=10),
)


@settings(max_examples=1500, deadline=None)
@given(QUOTABLE)
def test_quoting_is_the_regex(s: str) -> None:
    # the quoters remember what they wrote: the functions they wrap are called too
    escaped = '"' + _NEEDS_ESCAPE.sub(_escape_char, s) + '"'
    assert fastjson.quote(s) == fastjson.quote.__wrapped__(s) == escaped  # type: ignore[attr-defined]
    safe = [bool(_BROWSER_SAFE.fullmatch(ch)) for ch in s]
    quoted = fastjson.browser_quote(s)
    assert quoted == fastjson.browser_quote.__wrapped__(s)  # type: ignore[attr-defined]
    assert (quoted == f'"{s}"') == (_BROWSER_SAFE.fullmatch(s) is not None)
    if all(safe):
        assert quoted == f'"{s}"'
    else:
        assert quoted.isascii()
        assert json.loads(quoted) == s or any("\ud800" <= ch <= "\udfff" for ch in s)


# ----------------------------------------------------------------------- enums and dataclasses no more


def test_serialize_types_and_styles_behave_as_the_enums_did() -> None:
    assert list(SerializeType) == [SerializeType.JSON, SerializeType.ROCKETMQ]
    assert SerializeType("ROCKETMQ") is SerializeType.ROCKETMQ is SerializeType["ROCKETMQ"]
    assert SerializeType.JSON == "JSON" and SerializeType.JSON.value == "JSON"
    assert (SerializeType.JSON.code, SerializeType.ROCKETMQ.code) == (0, 1)
    assert f"{SerializeType.JSON}" == "JSON" and SerializeType.ROCKETMQ.name == "ROCKETMQ"
    assert repr(SerializeType.JSON) == "<SerializeType.JSON: 'JSON'>"
    assert HeaderStyle.JSONCPP == "jsoncpp" and HeaderStyle("fastjson") is HeaderStyle.FASTJSON
    with pytest.raises(ValueError, match="is not a valid SerializeType"):
        SerializeType("BSON")
    with pytest.raises(KeyError):
        HeaderStyle["fastjson"]
    assert {SerializeType.JSON: 1}["JSON"] == 1
    cmd = RemotingCommand(1, serialize_type=SerializeType.ROCKETMQ, style=HeaderStyle.JSONCPP)
    for again in (copy.deepcopy(cmd), pickle.loads(pickle.dumps(cmd))):
        assert again == cmd and again.serialize_type is SerializeType.ROCKETMQ
        assert again.style is HeaderStyle.JSONCPP
    assert pickle.loads(pickle.dumps(LanguageCode.GO)) is LanguageCode.GO
    assert copy.copy(SerializeCode.ROCKETMQ) is SerializeCode.ROCKETMQ


def test_language_and_serialize_codes_behave_as_the_int_enums_did() -> None:
    assert LanguageCode(9) is LanguageCode.GO and LanguageCode.GO == 9 and int(LanguageCode.GO) == 9
    assert LanguageCode["NODE_JS"].value == 13 and len(LanguageCode) == 14
    assert repr(LanguageCode.CPP) == "<LanguageCode.CPP: 1>" and str(LanguageCode.CPP) == "1"
    assert language_from_code(-1) is LanguageCode.OTHER
    with pytest.raises(ValueError):
        LanguageCode(14)
    assert LanguageCode.from_name(" go ") is LanguageCode.GO
    assert [int(m) for m in SerializeCode] == [0, 1] and SerializeCode(1) is SerializeCode.ROCKETMQ


def test_command_equality_repr_and_copy_as_the_dataclass() -> None:
    a = RemotingCommand(code=10, opaque=3, ext_fields={"k": "v"}, body=b"x")
    b = RemotingCommand(10, 3, 0, "JAVA", 479, None, {"k": "v"}, b"x")
    assert a == b and a != b.with_(bad_text="NUL") and a != (10, 3)
    with pytest.raises(TypeError):
        hash(a)
    assert repr(a).startswith("RemotingCommand(code=10, opaque=3, flag=0, language='JAVA', version=479,")
    assert "serialize_type=<SerializeType.JSON: 'JSON'>" in repr(a)
    c = a.with_(serialize_type=SerializeType.ROCKETMQ)
    assert c.serialize_type is SerializeType.ROCKETMQ and a.serialize_type is SerializeType.JSON
    assert c.ext_fields is a.ext_fields  # shallow, as dataclasses.replace
    with pytest.raises(TypeError):
        a.with_(colour="red")
    assert a.numeric_ext == frozenset() and a.style is HeaderStyle.FASTJSON


def test_route_records_as_the_dataclasses() -> None:
    r1, r2 = TopicRouteData(), TopicRouteData()
    assert r1 == r2 and r1.queue_datas == [] and r1.filter_server_table == {}
    r1.queue_datas.append(QueueData("b", 4, 4, 6))  # type: ignore[union-attr]
    assert r2.queue_datas == [] and r1 != r2  # no shared default
    assert TopicRouteData(queue_datas=None).queue_datas is None
    q = QueueData("b", 4, 4, 6)
    copy = q.copy()
    assert copy == q and copy is not q
    copy.perm = 2
    assert q.perm == 6
    with pytest.raises(TypeError):
        hash(BrokerData())
    assert repr(BrokerData("C", "b")) == (
        "BrokerData(broker_addrs=None, broker_name='b', cluster='C', enable_acting_master=None, "
        "zone_name=None)"
    )
