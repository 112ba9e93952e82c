"""The quick ways through a registration (issue 26) read and refuse exactly what the slow ones do.

A body is read by orjson when it can be and its usual topics inline; whatever the two read must be
what json and :meth:`TopicConfig.from_json_obj` read, and whatever one of them refuses the other
refuses too. Topic names the route tables already hold are not checked again, but a bad name is
refused however often it comes, and the route-size refusal looks at the name a topic is stored
under. Over the wire: a changed registration re-encodes only the routes that changed, an unchanged
one is taken without its table being read again, and new topics are logged in one line.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqadmin.namesrv.processor import LARGE_REGISTRATION
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.register import RegisterBrokerBody
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.errors import ProtocolError
from tests.namesrv.support import (
    Wire,
    register_body,
    register_request,
    route_query,
    topic_config,
    with_namesrv,
)

A0 = "10.0.0.1:10911"

_INT_EDGES = st.sampled_from(
    [0, 1, 8, -1, j.INT_MAX, j.INT_MAX + 1, j.INT_MIN, j.INT_MIN - 1, 1 << 64, 1 << 70]
)
_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    _INT_EDGES,
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.just({}),
    st.dictionaries(
        st.text(max_size=4), st.one_of(st.text(max_size=4), st.integers(), st.none()), max_size=2
    ),
)
_FIELDS = (
    "topicName",
    "readQueueNums",
    "writeQueueNums",
    "perm",
    "topicFilterType",
    "topicSysFlag",
    "order",
    "attributes",
)


@st.composite
def _topic(draw: Any) -> Any:
    """A topic config as a broker writes it, then up to two fields dropped, nulled or of another
    type or range (one in twenty configs is not an object at all)."""
    base: dict[str, Any] = topic_config(draw(st.from_regex(r"[A-Za-z0-9_%|-]{1,12}", fullmatch=True)))
    if draw(st.booleans()):
        base["attributes"] = draw(st.sampled_from([{}, {"+a": "b"}]))
    for name in draw(st.lists(st.sampled_from(_FIELDS), max_size=2, unique=True)):
        action = draw(st.sampled_from(["drop", "edge", "any"]))
        if action == "drop":
            base.pop(name, None)
        elif action == "edge":
            base[name] = draw(_INT_EDGES)
        elif action == "any":
            base[name] = draw(_VALUE)
    return base if draw(st.integers(0, 20)) else draw(_VALUE)


def _reference(body: bytes) -> Any:
    """What the body reads as through the standard reader (json, strings checked) and the
    field-by-field one, or the refusal's type."""
    try:
        table = fastjson.loads(body)["topicConfigSerializeWrapper"]["topicConfigTable"]
        out = {}
        for k, v in table.items():
            if v is not None:
                out[k] = TopicConfig.from_json_obj(v)
        return out
    except (ProtocolError, ValueError, TypeError):
        return ProtocolError


def _fast(body: bytes) -> Any:
    try:
        return RegisterBrokerBody.decode(body).topic_config_serialize_wrapper.topic_config_table
    except (ProtocolError, ValueError, TypeError):
        return ProtocolError


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text(max_size=6), _topic(), max_size=3), st.booleans())
def test_fast_decoding_reads_and_refuses_what_the_field_reader_does(
    table: dict[str, Any], ascii: bool
) -> None:
    wrapper = {"dataVersion": {"counter": 1}, "topicConfigTable": table}
    doc = {"filterServerList": [], "topicConfigSerializeWrapper": wrapper}
    body = json.dumps(doc, ensure_ascii=ascii).encode()
    assert _fast(body) == _reference(body)


@pytest.mark.parametrize(
    "value",
    ["1" + "0" * 30, "-" + "9" * 25, "1e400", "NaN", "1.0", "12345678901234567890"],
)
def test_numbers_orjson_reads_otherwise_are_refused_as_json_refuses_them(value: str) -> None:
    """orjson reads integers past 64 bits as floats and refuses NaN and 1e400: every such number
    in a field is refused the same way, and one in a field nobody reads is ignored the same way."""

    def body(entry: str) -> bytes:
        return f'{{"topicConfigSerializeWrapper":{{"topicConfigTable":{{"T":{entry}}}}}}}'.encode()

    read = body(f'{{"perm":{value},"readQueueNums":8,"topicName":"T","writeQueueNums":8}}')
    assert _fast(read) == _reference(read) == ProtocolError
    ignored = body(f'{{"perm":6,"readQueueNums":8,"topicName":"T","writeQueueNums":8,"spare":{value}}}')
    assert _fast(ignored) == _reference(ignored) != ProtocolError


@pytest.mark.parametrize(
    "name",
    [r"A\u0000B", r"A\ud800B", r"A\udc00", r"A\ud83d\ude00B", r"A\u0041B", "A\u00e9B", "A\u00e9\u0000B"],
)
def test_escapes_and_text_orjson_reads_otherwise_are_refused_as_fastjson_refuses_them(name: str) -> None:
    """A NUL or a lone surrogate, escaped or raw, is refused in a key, a topic name or a field
    nobody reads; a surrogate pair and plain escapes are read."""
    for entry in (
        f'"{name}":{{"perm":6,"readQueueNums":8,"topicName":"T","writeQueueNums":8}}',
        f'"T":{{"perm":6,"readQueueNums":8,"topicName":"{name}","writeQueueNums":8}}',
        f'"T":{{"perm":6,"readQueueNums":8,"topicName":"T","writeQueueNums":8,"spare":"{name}"}}',
    ):
        body = f'{{"topicConfigSerializeWrapper":{{"topicConfigTable":{{{entry}}}}}}}'.encode(
            "utf-8", "surrogatepass"
        )
        expected = _reference(body)
        assert _fast(body) == expected
        assert (expected is ProtocolError) == (
            "\\u0000" in name or "\x00" in name or "\\ud800" in name or name.endswith("dc00")
        )


# ------------------------------------------------------------------------------------ over the wire


def _configs(n: int, changed: int | None = None) -> list[dict[str, Any]]:
    return [topic_config(f"F{i:03d}", perm=4 if i == changed else 6) for i in range(n)]


@pytest.mark.parametrize("topics", [100, 600])  # a body applied at once, and one applied in slices
def test_a_changed_registration_re_encodes_only_the_routes_that_changed(tmp_path: Path, topics: int) -> None:
    """Happy path: every topic's route cached; a new data version with one topic's perm changed
    drops that route alone (every worker hears of that one), and the answer shows it."""

    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        raw = register_body(_configs(topics))
        assert (len(raw) >= LARGE_REGISTRATION) == (topics > 100)
        assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
        for i in range(topics):
            assert (await w.call(route_query(f"F{i:03d}"))).code == 0
        cache = ctl.routes.route_cache
        cached, dropped = len(cache), []
        original = cache.on_drop

        def spy(topic: str | None) -> None:
            dropped.append(topic)
            if original is not None:
                original(topic)

        cache.on_drop = spy
        raw = register_body(_configs(topics, changed=7), counter=2)
        assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
        assert dropped == ["F007"] and len(cache) == cached - 1
        route = json.loads((await w.call(route_query("F007"))).body)
        assert route["queueDatas"][0]["perm"] == 4
        await w.close()

    with_namesrv(tmp_path, body)


def test_a_known_topic_name_is_not_checked_again_but_a_bad_one_always_is(tmp_path: Path) -> None:
    """The second registration of the same names checks none of them; a bad name (a control
    character, or a good key whose config names a bad topic) is refused every time, nothing changes
    and the next query is answered."""
    import mqadmin.namesrv.processor as processor

    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        checked: list[str] = []
        original = processor.route_topic_refusal

        def spy(topic: str | None) -> str | None:
            checked.append(str(topic))
            return original(topic)

        processor.route_topic_refusal = spy  # type: ignore[assignment]
        try:
            assert (await w.call(register_request("C", "b", 0, A0, register_body(_configs(50))))).code == 0
            assert len(checked) == 50
            checked.clear()
            raw = register_body(_configs(50), counter=2)
            assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
            assert checked == []
            before = sorted(ctl.routes.topic_queue_table)
            renamed = _configs(50)
            renamed[3] = {**renamed[3], "topicName": "bad/../topic"}  # a known key, its own name bad
            for bad in ([*_configs(50), topic_config("bad\x01topic")], renamed):
                for _ in range(2):
                    reply = await w.call(register_request("C", "b", 0, A0, register_body(bad, counter=3)))
                    assert reply.code != 0 and "register broker refused" in (reply.header.get("remark") or "")
                    assert sorted(ctl.routes.topic_queue_table) == before
                    assert (await w.call(route_query("F001"))).code == 0
        finally:
            processor.route_topic_refusal = original  # type: ignore[assignment]
        await w.close()

    with_namesrv(tmp_path, body)


def test_an_identical_registration_is_taken_without_reading_its_table(tmp_path: Path) -> None:
    """The periodic registration of an unchanged broker neither decodes its body nor touches a route."""

    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        raw = register_body(_configs(300))
        assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
        decoded: list[int] = []
        original = RegisterBrokerBody.decode

        def spy(*a: Any, **kw: Any) -> Any:
            decoded.append(1)
            return original(*a, **kw)

        RegisterBrokerBody.decode = spy  # type: ignore[method-assign]
        try:
            for _ in range(3):
                assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
        finally:
            RegisterBrokerBody.decode = original  # type: ignore[method-assign]
        assert decoded == []
        await w.close()

    with_namesrv(tmp_path, body)


def test_new_topics_are_logged_in_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def body(ctl: NamesrvController) -> None:
        w = await Wire.open(ctl.port)
        with caplog.at_level(logging.INFO, logger="mqadmin.namesrv.route"):
            assert (await w.call(register_request("C", "b", 0, A0, register_body(_configs(300))))).code == 0
            raw = register_body(_configs(300, changed=5), counter=2)
            assert (await w.call(register_request("C", "b", 0, A0, raw))).code == 0
        lines = [r.getMessage() for r in caplog.records if r.name == "mqadmin.namesrv.route"]
        new = [m for m in lines if m.startswith("new topics registered")]
        assert len(new) == 1 and "by b: 300," in new[0] and "F000" in new[0] and "and 200 more" in new[0]
        changed = [m for m in lines if m.startswith("topics changed")]
        assert len(changed) == 1 and "F005 OLD:" in changed[0] and "perm=4" in changed[0]
        await w.close()

    with_namesrv(tmp_path, body)
