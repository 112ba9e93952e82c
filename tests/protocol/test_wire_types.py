"""Every declared wire type against the recorded frames that carry it, and on generated values.

The request registry names each code's header, body and response types. Walked here, type by type:
every recorded frame of a code that declares the type decodes and re-encodes to what Java wrote (a
header to the declared ext fields it was sent with, a body to the same bytes; a header from the C++
client, which writes booleans as numbers, to a header that reads back equal). The declared bodies
(:mod:`mqadmin.protocol.bodies.declared`) also round-trip generated values in both route forms, and
their hand-written text encoders write exactly the declaration's JSON object.
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given
from hypothesis import strategies as st

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.declared import DeclaredBody, java_view, members
from mqadmin.protocol.bodies.route import BrokerData, QueueData, TopicRouteData
from mqadmin.protocol.codes import RequestCode, request_name
from mqadmin.protocol.headers.base import RequestHeader, ext_text
from mqadmin.protocol.requests import declarations, wire_type
from tests.captures import Frame, pairs, scenarios

STANDARD_JSON_VERSION = 401
"""``V4_9_4``: from this client version on, a name server answers routes in standard JSON."""

BODY_EXEMPT = {
    RequestCode.REGISTER_BROKER,  # CRC and zlib around the body: tests/namesrv's replay covers it
    RequestCode.GET_BROKER_RUNTIME_INFO,  # the broker's own map capacity decides its order
}


def _recorded() -> list[tuple[Frame, Frame | None]]:
    out = []
    for p in scenarios():
        out.extend(pairs(f"{p.parent.name}/{p.name}"))
    return out


def _carried() -> dict[tuple[str, type], list[tuple[Frame, Frame | None]]]:
    """(role, declared type) -> the recorded request/answer pairs of every code declaring it."""
    decls = declarations()
    out: dict[tuple[str, type], list[tuple[Frame, Frame | None]]] = defaultdict(list)
    for req, resp in _recorded():
        decl = decls.get(req.header["code"])
        assert decl is not None, request_name(req.header["code"])
        for role, ref in (("header", decl.header), ("body", decl.body), ("response", decl.response)):
            kind = wire_type(ref)
            if kind is not None:
                out[role, kind].append((req, resp))
    return out


def _standard(req: Frame) -> bool:
    ext = req.header.get("extFields") or {}
    return req.header["version"] >= STANDARD_JSON_VERSION or ext.get("acceptStandardJsonOnly") == "true"


def test_every_declared_type_re_encodes_every_recorded_frame_that_carries_it() -> None:
    checked: dict[str, int] = defaultdict(int)
    for (role, kind), recorded in _carried().items():
        for req, resp in recorded:
            code = req.header["code"]
            where = (role, kind.__name__, request_name(code), req.scenario, req.index)
            if role == "header":
                assert issubclass(kind, RequestHeader)
                sent = {k: ext_text(v) for k, v in (req.header.get("extFields") or {}).items()}
                header = kind.decode(sent, lenient=True)
                ours = {f.java for f in kind.fields()}
                if req.header["language"] == "JAVA":
                    assert header.to_ext() == {k: v for k, v in sent.items() if k in ours}, where
                else:  # the C++ client writes booleans as 0 and 1: Java reads them, and so do we
                    assert kind.decode(header.to_ext(), lenient=True) == header, where
            elif role == "body":
                if not req.body or code in BODY_EXEMPT:
                    continue
                value = kind.decode(req.body)  # type: ignore[attr-defined]
                if hasattr(value, "encode"):  # a body only servers read (a heartbeat) has no encoder
                    assert value.encode() == req.body, where
            else:
                if resp is None or resp.header.get("code") != 0 or not resp.body or code in BODY_EXEMPT:
                    continue
                value = kind.decode(resp.body)  # type: ignore[attr-defined]
                if kind is TopicRouteData:
                    assert value.encode(_standard(req)) == resp.body, where
                else:
                    assert value.encode() == resp.body, where
            checked[role] += 1
    assert checked["header"] > 100 and checked["response"] > 100 and checked["body"] > 5, dict(checked)


# ------------------------------------------------------------------------------ generated values

_names = st.text(
    st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), min_size=1, max_size=12
)
_opt_names = st.none() | _names
_int32 = st.integers(-(1 << 31), (1 << 31) - 1)

queue_datas = st.builds(
    QueueData,
    broker_name=_opt_names,
    read_queue_nums=_int32,
    write_queue_nums=_int32,
    perm=_int32,
    topic_sys_flag=_int32,
)
broker_datas = st.builds(
    BrokerData,
    cluster=_opt_names,
    broker_name=_opt_names,
    broker_addrs=st.none() | st.dictionaries(st.integers(-(1 << 40), 1 << 40), _names, max_size=6),
    zone_name=_opt_names,
    enable_acting_master=st.none() | st.booleans(),
)
routes = st.builds(
    TopicRouteData,
    order_topic_conf=_opt_names,
    queue_datas=st.none() | st.lists(queue_datas, max_size=4),
    broker_datas=st.none() | st.lists(broker_datas, max_size=4),
    filter_server_table=st.none() | st.dictionaries(_names, st.lists(_names, max_size=3), max_size=3),
    topic_queue_mapping_by_broker=st.none(),
)


def _absent_as_read(route: TopicRouteData) -> TopicRouteData:
    """What a reader makes of a route whose null lists and maps were left out: Java's empty ones."""
    return TopicRouteData(
        route.order_topic_conf,
        [] if route.queue_datas is None else route.queue_datas,
        [] if route.broker_datas is None else route.broker_datas,
        {} if route.filter_server_table is None else route.filter_server_table,
        route.topic_queue_mapping_by_broker,
    )


@given(routes, st.booleans())
def test_routes_round_trip_in_both_forms(route: TopicRouteData, standard: bool) -> None:
    body = route.encode(standard)
    assert TopicRouteData.decode(body) == _absent_as_read(route)
    assert TopicRouteData.from_json_obj(route.to_json_obj(standard)) == _absent_as_read(route)


@given(routes, st.booleans())
def test_hand_written_encoders_write_the_declared_object(route: TopicRouteData, standard: bool) -> None:
    """The name server's text encoders are held to the declaration's JSON object."""
    obj = route.to_json_obj(standard)
    expected = fastjson.browser_dumps(obj) if standard else fastjson.dumps(obj)
    assert route.encode(standard).decode() == expected
    for q in route.queue_datas or []:
        assert q.encode() == fastjson.dumps(q.to_json_obj()).encode()
    for b in route.broker_datas or []:
        assert b.encode() == fastjson.dumps(b.to_json_obj()).encode()


@given(routes)
def test_the_java_view_names_every_declared_member(route: TopicRouteData) -> None:
    view = java_view(route, dict, lambda v: v)
    expected = {m.java for m in members(TopicRouteData) if getattr(route, m.attr) is not None}
    assert set(view) == expected
    for b, shown in zip(route.broker_datas or [], view.get("brokerDatas", []), strict=True):
        assert shown["enableActingMaster"] is bool(b.enable_acting_master)  # the 5.3.3 bean's default
        assert sorted(shown.get("brokerAddrs", {}).items()) == sorted((b.broker_addrs or {}).items())


def test_declared_bodies_are_dataclasses_with_every_field_declared() -> None:
    import dataclasses

    for kind in (QueueData, BrokerData, TopicRouteData):
        assert issubclass(kind, DeclaredBody)
        declared = {m.attr for m in members(kind)}
        assert declared == {f.name for f in dataclasses.fields(kind)}, kind
