"""fastjson quirks: unquoted numeric keys, object keys, Java doubles and HashMap order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_mock import MockerFixture

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.fastjson import ObjectKey, dumps, java_double, java_hash_order, java_string_hash, loads
from tests.captures import all_frames


def test_legacy_and_standard_forms() -> None:
    doc = '{"brokerAddrs":{0:"127.0.0.1:10911",1:"127.0.0.1:10921"},"brokerName":"broker-a"}'
    v = loads(doc)
    assert v == {"brokerAddrs": {0: "127.0.0.1:10911", 1: "127.0.0.1:10921"}, "brokerName": "broker-a"}
    assert dumps(v) == doc
    std = dumps(v, standard=True)
    assert std == doc.replace("{0:", '{"0":').replace(",1:", ',"1":')
    json.loads(std)


def test_object_keys() -> None:
    doc = '{"offsetTable":{{"brokerName":"broker-a","queueId":0,"topic":"T"}:{"brokerOffset":5}}}'
    v = loads(doc)
    (key,) = v["offsetTable"]
    assert isinstance(key, ObjectKey) and key["queueId"] == 0
    assert dumps(v) == doc
    assert hash(key) == hash(ObjectKey({"topic": "T", "queueId": 0, "brokerName": "broker-a"}))


def test_nulls_omitted_in_objects_kept_in_arrays() -> None:
    assert dumps({"a": None, "b": [None, 1]}) == '{"b":[null,1]}'


def test_escaping_like_fastjson() -> None:
    assert dumps('KEYS\x01k\x02\x1a"\\\n/é') == '"KEYS\\u0001k\\u0002\\u001A\\"\\\\\\n/é"'


@pytest.mark.parametrize(
    ("x", "s"),
    [
        (0.0, "0.0"),
        (0.04, "0.04"),
        (1e-4, "1.0E-4"),
        (0.001, "0.001"),
        (1.2345678e7, "1.2345678E7"),
        (9999999.0, "9999999.0"),
        (0.03333333333333333, "0.03333333333333333"),
        (-2.5e-5, "-2.5E-5"),
        (100.0, "100.0"),
        (float("nan"), "NaN"),
    ],
)
def test_java_double(x: float, s: str) -> None:
    assert java_double(x) == s


def test_java_string_hash_matches_java() -> None:
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == -(1 << 31)  # Java's famous MIN_VALUE hash


def test_hash_order_matches_recorded_ext_fields() -> None:
    """Java-written ext fields come out in HashMap order; our emulation predicts every one.

    5.x requests signed by the ACL hook get their map from ``addExtField``, which sizes it 256; an
    unsigned one (a 5.x broker registering) keeps the ``new HashMap<>()`` of ``makeCustomHeaderToNet``.
    """
    checked = 0
    for f in all_frames():
        ext = f.header.get("extFields")
        if f.header.get("language") != "JAVA" or not ext or len(ext) < 2:
            continue
        signed = "AccessKey" in ext  # the ACL hook's addExtField sizes a fresh map 256
        capacity = 256 if f.header["version"] >= 479 and f.dir == "request" and signed else 16
        assert java_hash_order(ext, capacity) == list(ext), f"{f.scenario}#{f.index}"
        checked += 1
    print(f"\n{checked} recorded ext-field maps in Java HashMap order")
    assert checked > 100


@pytest.mark.parametrize("bad", ["{", '{"a":}', "[1,,2]", '{"a" 1}', "{1.5:2}", "nul", '"x', "{}x", b"\xff"])
def test_malformed_raises_protocol_error(bad: str | bytes) -> None:
    with pytest.raises(ProtocolError):
        loads(bad)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(ProtocolError):
        loads("{0:" * 5000)


# text a JSON body may hold: a lone surrogate or a NUL is refused (see test_bad_strings_refused)
_keepable = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1)
    | st.text(_keepable, max_size=10),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(
            st.text(_keepable, max_size=6) | st.integers(min_value=0, max_value=99), kids, max_size=4
        )
    ),
    max_leaves=20,
)


def _drop_null_members(v: object) -> object:
    if isinstance(v, dict):
        return {k: _drop_null_members(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_drop_null_members(x) for x in v]
    return v


@given(json_values)
def test_round_trip(v: object) -> None:
    back = loads(dumps(v))
    assert back == _drop_null_members(v)
    std = json.loads(dumps(v, standard=True))  # the standard form is valid JSON
    assert isinstance(std, type(_drop_null_members(v))) or v is None


@given(st.binary(max_size=200))
def test_fuzz(data: bytes) -> None:
    try:
        loads(b"{" + data)
    except ProtocolError:
        pass


def test_properties_order_reproduces_recorded_config_listings() -> None:
    """getNamesrvConfig/getBrokerConfig print a Properties in its iteration order: we predict it."""
    from mqadmin.protocol.javacoll import properties_order
    from tests.captures import captures_dir, load_scenario

    checked = 0
    for scen in (
        "rocketmq-5.3.3/v05_getNamesrvConfig",
        "rocketmq-4.9.8/s08_getNamesrvConfig",
        "rocketmq-4.9.8/s20_getBrokerConfig",
        "rocketmq-5.3.3/v18_getBrokerConfig",
    ):
        bodies = [
            f.body.decode()
            for f in load_scenario(scen)
            if f.dir == "response" and f.body and not f.body.startswith(b"{")
        ]
        (body,) = bodies
        keys = [line.split("=", 1)[0] for line in body.split("\n") if "=" in line]
        out = (captures_dir() / f"{scen}.out").read_text().splitlines()
        printed = [
            line.split("=", 1)[0].strip() for line in out if "=" in line and not line.startswith("===")
        ]
        assert properties_order(keys) == printed, scen
        checked += len(keys)
    assert checked > 400


@pytest.mark.parametrize(
    "doc",
    [b'{"a":"\\ud800"}', b'["x\\u0000y"]', b'{"\\udfff":1}', b'{"k":{"n":["\\u0000"]}}'],
)
def test_bad_strings_refused(doc: bytes) -> None:
    """A lone surrogate or NUL anywhere in a JSON body is a ProtocolError, never a value to keep."""
    with pytest.raises(ProtocolError):
        loads(doc)


def test_escaped_good_text_still_read() -> None:
    assert loads(b'{"a":"\\u00e9\\ud83d\\ude00"}') == {"a": "\u00e9\U0001f600"}


# maps keyed by objects, as a ConsumeStats' offset table: the part of a body handed to the C decoder
_object_keyed = st.dictionaries(
    st.dictionaries(  # as a MessageQueue: names and numbers
        st.text(_keepable, max_size=4),
        st.text(_keepable, max_size=6) | st.integers(min_value=-(1 << 31), max_value=(1 << 31) - 1),
        min_size=1,
        max_size=3,
    ).map(ObjectKey),
    json_values.filter(lambda x: x is not None),
    max_size=4,
)


def _pure_python(text: str) -> object:
    from mqadmin.protocol.fastjson import _Parser

    parser = _Parser(text)
    parser.retry_from = len(text)  # never hand anything to the C decoder
    return parser.value(0)


@given(st.dictionaries(st.text(_keepable, max_size=6), _object_keyed, max_size=3))
def test_object_keyed_maps_read_as_the_character_parser_reads_them(
    v: dict[str, dict[ObjectKey, object]],
) -> None:
    text = dumps(v)
    read = loads(text)
    assert read == _pure_python(text)
    assert {k: len(m) for k, m in read.items()} == {k: len(m) for k, m in v.items()}


def test_fastjson_inside_an_object_keyed_map_still_reads() -> None:
    text = '{{"k":1}:{a:12L,"b":[1,{2:3}]},{"k":2}:{"c":\'x\'},{"k":3}:[{"d":1}]}'
    assert loads(text) == {
        ObjectKey({"k": 1}): {"a": 12, "b": [1, {2: 3}]},
        ObjectKey({"k": 2}): {"c": "x"},
        ObjectKey({"k": 3}): [{"d": 1}],
    }
    with pytest.raises(ProtocolError):  # NaN is no more a value under an object key than elsewhere
        loads('{{"k":1}:{"x":NaN},{"k":2}:{y:1}}')


def test_failed_hand_offs_read_the_text_at_most_once(mocker: MockerFixture) -> None:
    """A hostile body whose every object-keyed value turns non-standard at its very end must not
    make the C decoder read the same bytes again and again (quadratic time)."""
    import mqadmin.protocol.fastjson as fj

    entry = '{{"k":%d}:{"pad":[' + ",".join(["1"] * 2000) + "],x:%d}}"
    text = '{"m":[' + ",".join(entry % (i, i) for i in range(200)) + "]}"
    real = fj._standard_value
    read = 0

    def counted(s: str, idx: int) -> tuple[object, int]:
        nonlocal read
        try:
            value, end = real(s, idx)
        except json.JSONDecodeError as e:
            read += e.pos - idx
            raise
        read += end - idx
        return value, end

    mocker.patch.object(fj, "_standard_value", counted)
    assert len(loads(text)["m"]) == 200
    assert 0 < read <= len(text)


# ------------------------------------------------------------------------------------- quoting


def _fastjson_escape(c: str) -> str:
    """What fastjson writes for one character: the short escapes, ``\\uXXXX`` for the C0 and C1
    controls, U+2028/U+2029 and the surrogates, the character itself otherwise."""
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    o = ord(c)
    if c in short:
        return short[c]
    if o < 0x20 or 0x7F <= o < 0xA0 or o in (0x2028, 0x2029) or 0xD800 <= o < 0xE000:
        return f"\\u{o:04X}"
    return c


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())))
def test_quote_escapes_what_fastjson_escapes_and_always_encodes(s: str) -> None:
    """Any string, lone surrogates included: the character-by-character rule, written as UTF-8
    without error, and read back by a JSON reader as the string itself when it holds no surrogate."""
    from mqadmin.protocol.fastjson import quote

    out = quote(s)
    assert out == '"' + "".join(map(_fastjson_escape, s)) + '"'
    out.encode("utf-8")
    if not any("\ud800" <= c <= "\udfff" for c in s):
        assert json.loads(out) == s
