"""The request registry against what real Java 4.9.8 and 5.3.3 processes sent and answered.

Every request code in the captures is declared, every recorded request body fits its declared budget
(so the budgets never refuse a real Java client, broker or tool), and every declared header, body
and response type reads the recorded frames of its code.
"""

from __future__ import annotations

from mqadmin.protocol.codes import request_name
from mqadmin.protocol.headers.base import ext_text
from mqadmin.protocol.requests import declared, wire_type
from tests.captures import pairs, scenarios


def _recorded() -> list[tuple[object, object]]:
    out = []
    for p in scenarios():
        out.extend(pairs(f"{p.parent.name}/{p.name}"))
    return out


def test_every_recorded_request_is_declared_and_within_budget() -> None:
    seen: set[int] = set()
    for req, _ in _recorded():
        code = req.header["code"]  # type: ignore[attr-defined]
        decl = declared(code)
        assert decl is not None, f"{request_name(code)} was sent by a Java process but is not declared"
        body = req.body  # type: ignore[attr-defined]
        assert len(body) <= decl.budget.body, (request_name(code), len(body), decl.budget.body)
        seen.add(code)
    assert len(seen) > 40  # the captures cover the tool's, the broker's and the clients' requests


def test_declared_wire_types_read_the_recorded_frames() -> None:
    read = {"header": 0, "body": 0, "response": 0}
    for req, resp in _recorded():
        code = req.header["code"]  # type: ignore[attr-defined]
        decl = declared(code)
        assert decl is not None
        header = wire_type(decl.header)
        if header is not None:
            ext = {k: ext_text(v) for k, v in (req.header.get("extFields") or {}).items()}  # type: ignore[attr-defined]
            header.decode(ext, lenient=True)  # type: ignore[attr-defined]
            read["header"] += 1
        body = wire_type(decl.body)
        if body is not None and req.body and code != 103:  # registrations: see test_replay (CRC, zlib)
            body.decode(req.body)  # type: ignore[attr-defined]
            read["body"] += 1
        response = wire_type(decl.response)
        if response is not None and resp is not None and resp.header.get("code") == 0 and resp.body:  # type: ignore[attr-defined]
            response.decode(resp.body)  # type: ignore[attr-defined]
            read["response"] += 1
    assert min(read.values()) > 0, read


ROUND_TRIP_EXEMPT = {
    "GET_ROUTEINFO_BY_TOPIC",  # standard or fastjson form by the request's version: test_replay covers it
    "GET_BROKER_RUNTIME_INFO",  # the broker's map capacity decides its order: test_capture_replay covers it
}


def test_typed_answers_write_back_the_bytes_java_wrote() -> None:
    """Each declared response type that reads a recorded answer writes the same bytes back, so a
    server of ours answering with the type answers as the Java server did."""
    checked: dict[str, int] = {}
    for req, resp in _recorded():
        code = req.header["code"]  # type: ignore[attr-defined]
        decl = declared(code)
        assert decl is not None
        response = wire_type(decl.response)
        name = request_name(code)
        if response is None or resp is None or name in ROUND_TRIP_EXEMPT:
            continue
        if resp.header.get("code") != 0 or not resp.body:  # type: ignore[attr-defined]
            continue
        assert response.decode(resp.body).encode() == resp.body, name  # type: ignore[attr-defined]
        checked[name] = checked.get(name, 0) + 1
    # among them the answers that were dict literals in the handlers before
    assert {"GET_CONSUMER_LIST_BY_GROUP", "QUERY_TOPIC_CONSUME_BY_WHO", "GET_CONSUME_STATS"} <= set(checked)
