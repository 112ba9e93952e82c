"""What a request may cost the name server (issue 20, breaks 8, 11 and 13), each beside its happy path.

A registration inflates to at most the REGISTER_BROKER budget, lists at most its filter servers and
holds little non-standard JSON; it cannot make a route larger than a route answer may be (so no
worker process is ever sent one it cannot take); a KV value and the KV store are bounded. A refusal
answers with a remark naming the limit and changes nothing (tables, kvConfig.json byte for byte),
and route queries on other connections are answered meanwhile within a second.
"""

from __future__ import annotations

import asyncio
import json
import logging
import struct
import time
import zlib
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from mqadmin.namesrv.replica import _FILL_HEAD, MAX_MESSAGE
from mqadmin.namesrv.server import NamesrvController
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.register import NON_STANDARD_JSON_MAX, RegisterBrokerBody
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.bodies.topic import TopicConfig, TopicConfigSerializeWrapper
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.frame import MAX_FRAME
from mqadmin.protocol.headers.namesrv import ROUTE_TOPIC_MAX_LENGTH
from mqadmin.protocol.requests import declared, limit
from mqadmin.route import RouteInfoManager
from mqadmin.route.routesize import ROUTE_BODY_LIMIT
from tests.namesrv.support import (
    Reply,
    Wire,
    namesrv,
    register,
    register_body,
    register_request,
    request,
    route_query,
    run,
    topic_config,
)

CLUSTER = "C"
LEGIT, LEGIT_ADDR = "broker-a", "10.1.0.1:10911"
LEGIT_TOPICS = [topic_config("Orders"), topic_config("Victim")]
INFLATED = 32 << 20
FILTERS = 64
_INT = struct.Struct(">i")


def test_the_registry_declares_what_the_name_server_reads() -> None:
    decl = declared(RequestCode.REGISTER_BROKER)
    assert decl is not None and decl.budget.inflated == INFLATED
    assert limit(RequestCode.REGISTER_BROKER, "filterServers") == FILTERS
    assert limit(RequestCode.PUT_KV_CONFIG, "valueBytes") == 65536
    assert limit(RequestCode.PUT_KV_CONFIG, "entries") == 10000
    # the largest answer a worker can be sent crosses its channel
    assert 1 + _FILL_HEAD.size + 4 * ROUTE_TOPIC_MAX_LENGTH + ROUTE_BODY_LIMIT < MAX_MESSAGE
    assert ROUTE_BODY_LIMIT < MAX_FRAME


# ------------------------------------------------------------------------------------- helpers


def _compressed(
    filters_json: bytes, topics: tuple[str, ...] | list[str] = ("Orders",), pad: int = 0
) -> bytes:
    """A compressed (4.x layout) registration body with this filter list text, written by hand so
    it can hold what a broker never writes; ``pad`` trailing bytes inflate it (Java ignores them)."""
    parts = [_chunk(b'{"counter":1,"timestamp":1700000000000}'), _INT.pack(len(topics))]
    parts += [_chunk(f"{t} 4 4 6 SINGLE_TAG".encode()) for t in topics]
    parts.append(_chunk(filters_json))
    z = zlib.compressobj(9)
    out = z.compress(b"".join(parts))
    zeros = b"\0" * (1 << 20)
    while pad > 0:
        out += z.compress(zeros[: min(pad, len(zeros))])
        pad -= len(zeros)
    return out + z.flush()


def _chunk(b: bytes) -> bytes:
    return _INT.pack(len(b)) + b


def _compressed_request(name: str, addr: str, body: bytes) -> Any:
    return register_request(CLUSTER, name, 0, addr, body, extra={"compressed": "true"})


async def _legit(port: int) -> Wire:
    w = await Wire.open(port)
    await register(w, CLUSTER, LEGIT, 0, LEGIT_ADDR, LEGIT_TOPICS)
    return w


async def _state(port: int) -> list[tuple[int, bytes]]:
    """What a fresh client sees of the tables and the KV store."""
    w = await Wire.open(port)
    try:
        out = []
        for cmd in (
            request(RequestCode.GET_BROKER_CLUSTER_INFO),
            request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER),
            route_query("Orders"),
            route_query("Victim"),
            request(RequestCode.GET_KVLIST_BY_NAMESPACE, {"namespace": "NS"}),
        ):
            reply = await w.call(cmd)
            out.append((reply.code, reply.body))
        return out
    finally:
        await w.close()


async def _while_served(port: int, hostile: Awaitable[Reply]) -> tuple[Reply, float]:
    """``hostile``'s answer, and the slowest route query answered on another connection meanwhile."""
    w = await Wire.open(port)
    task = asyncio.ensure_future(hostile)
    worst = 0.0
    try:
        while not task.done():
            started = time.monotonic()
            reply = await w.call(route_query("Orders"), timeout=5.0)
            worst = max(worst, time.monotonic() - started)
            assert reply.code == ResponseCode.SUCCESS, reply.header
            await asyncio.sleep(0.005)
        return await task, worst
    finally:
        await w.close()


def _refused(reply: Reply, *words: str) -> None:
    assert reply.code == ResponseCode.SYSTEM_ERROR, reply.header
    remark = reply.header.get("remark", "")
    for word in words:
        assert word in remark, remark


# --------------------------------------------------------------------------- break 8: inflation


def test_compressed_registration_within_budget_is_taken(tmp_path: Path) -> None:
    """A compressed body with 64 filter servers (the limit) and padding to just under 32 MiB."""
    filters = [f"10.2.0.{i}:7000" for i in range(FILTERS)]

    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            w = await Wire.open(ctl.port)
            raw = _compressed(json.dumps(filters).encode(), ["Orders", "Victim"], pad=INFLATED - (1 << 20))
            assert (await w.call(_compressed_request(LEGIT, LEGIT_ADDR, raw))).code == 0
            route = json.loads((await w.call(route_query("Orders"))).body)
            assert route["filterServerTable"] == {LEGIT_ADDR: filters}

    run(body())


def test_compressed_bombs_are_refused_and_queries_answered_meanwhile(tmp_path: Path) -> None:
    """Break 8: 20 MB of filter-server text only the Python parser reads (from a 20 KB body), a body
    inflating past 32 MiB, and 65 filter servers: each refused naming its limit, nothing changed,
    and the route queries of another connection answered within a second meanwhile."""
    nonstandard = b"[" + b"'10.2.0.1:7000'," * (20 << 20 >> 4) + b"'10.2.0.1:7000']"
    hostile = [
        (_compressed(nonstandard), ["filterServers=64"]),
        (_compressed(b"[]", pad=INFLATED + 1), [f"{INFLATED} byte limit"]),
        (_compressed(json.dumps([f"10.2.0.{i}:7000" for i in range(65)]).encode()), ["filterServers=64"]),
    ]
    assert len(hostile[0][0]) < 64 << 10

    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            legit = await _legit(ctl.port)
            before = await _state(ctl.port)
            w = await Wire.open(ctl.port)
            for raw, words in hostile:
                reply, worst = await _while_served(
                    ctl.port, w.call(_compressed_request("fake", "10.3.0.1:10911", raw), timeout=30.0)
                )
                _refused(reply, *words)
                assert worst < 1.0, worst
            assert await _state(ctl.port) == before
            assert (await legit.call(route_query("Victim"))).code == 0  # the connections stay usable
            assert (await w.call(route_query("Victim"))).code == 0

    run(body(), 60.0)


def test_non_standard_json_is_bounded(tmp_path: Path) -> None:
    """A plain body in fastjson's own syntax is read up to 1 MiB (a 5.x broker's static topics write
    ``{0:1}``), and refused beyond; a large standard body is read whatever its syntax costs."""

    def nonstandard_body(n: int) -> bytes:
        topics = ",".join(f"'T{i:07d}':{{'topicName':'T{i:07d}','perm':6}}" for i in range(n))
        return ("{'topicConfigSerializeWrapper':{'dataVersion':{'counter':1,'timestamp':1},"
                f"'topicConfigTable':{{{topics}}}}}}}").encode()  # fmt: skip

    small, large = nonstandard_body(9000), nonstandard_body(40000)
    assert len(small) < NON_STANDARD_JSON_MAX < len(large)
    standard = register_body([topic_config(f"S{i:06d}") for i in range(30000)])
    assert len(standard) > 4 * NON_STANDARD_JSON_MAX

    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            legit = await _legit(ctl.port)
            w = await Wire.open(ctl.port)
            reply, worst = await _while_served(
                ctl.port, w.call(register_request(CLUSTER, "ns-small", 0, "10.4.0.1:10911", small))
            )
            assert reply.code == 0 and worst < 1.0, (reply.header, worst)
            before = await _state(ctl.port)
            reply, worst = await _while_served(
                ctl.port, w.call(register_request(CLUSTER, "ns-large", 0, "10.4.0.2:10911", large))
            )
            _refused(reply, f"more than {NON_STANDARD_JSON_MAX} bytes of non-standard JSON")
            assert worst < 1.0, worst
            assert await _state(ctl.port) == before
            reply, worst = await _while_served(
                ctl.port, w.call(register_request(CLUSTER, "std", 0, "10.4.0.3:10911", standard))
            )
            assert reply.code == 0 and worst < 1.0, (reply.header, worst)
            assert (await w.call(route_query("S029999"))).code == 0
            assert (await legit.call(route_query("Orders"))).code == 0

    run(body(), 60.0)


def test_plain_registration_with_too_many_filter_servers_is_refused(tmp_path: Path) -> None:
    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            legit = await _legit(ctl.port)
            before = await _state(ctl.port)
            w = await Wire.open(ctl.port)
            many = [f"10.2.0.{i % 250}:{7000 + i}" for i in range(FILTERS + 1)]
            raw = register_body([topic_config("Victim")], filters=many)
            _refused(
                await w.call(register_request(CLUSTER, "fake", 0, "10.3.0.1:10911", raw)), "filterServers=64"
            )
            assert await _state(ctl.port) == before
            raw = register_body([topic_config("Victim"), topic_config("Own")], filters=many[:FILTERS])
            assert (await w.call(register_request(CLUSTER, "fake", 0, "10.3.0.1:10911", raw))).code == 0
            assert (await legit.call(route_query("Victim"))).code == 0

    run(body())


# ------------------------------------------------------------------ break 11: route answer size


def _filter_hosts(n: int, tag: int) -> list[str]:
    """``n`` filter servers with host names as long as an address may be (255 characters)."""
    return [f"{'h' * 240}{tag:06d}{i:03d}:7000" for i in range(n)]


async def _flood(w: Wire, count: int) -> tuple[int, Reply | None]:
    """Fake brokers, each listing ``Victim`` with 64 of the longest filter servers, until one is
    refused: how many were taken, and the refusal."""
    for b in range(count):
        raw = register_body(
            [topic_config("Victim"), topic_config(f"Own{b}")], filters=_filter_hosts(FILTERS, b)
        )
        reply = await w.call(
            register_request(CLUSTER, f"fake-{b}", 0, f"10.6.{b // 250}.{b % 250}:10911", raw)
        )
        if reply.code != 0:
            return b, reply
    return count, None


def test_a_route_never_outgrows_an_answer(tmp_path: Path) -> None:
    """Break 11 on one process: fake brokers grow a victim topic's route toward 16 MiB; the one that
    would take it over is refused naming the limit, and the route stays answerable."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=1) as ctl:
            legit = await _legit(ctl.port)
            w = await Wire.open(ctl.port)
            taken, refusal = await _flood(w, 2000)
            assert refusal is not None, "no registration was refused"
            _refused(refusal, "route of topic Victim", f"{ROUTE_BODY_LIMIT} bytes")
            route = await legit.call(route_query("Victim"), timeout=20.0)
            assert route.code == 0 and len(route.frame) <= MAX_FRAME
            assert len(route.body) > ROUTE_BODY_LIMIT * 0.8, (taken, len(route.body))  # not far too strict
            decoded = TopicRouteData.decode(route.body)
            assert len(decoded.broker_datas or []) == taken + 1
            assert (await legit.call(route_query("Orders"))).code == 0

    run(body(), 120.0)


def test_workers_carry_every_route_and_keep_brokers(tmp_path: Path) -> None:
    """Break 11 with ``--workers 2``: the legitimate broker registers through the worker process;
    the flood is refused at the limit, the worker never restarts, the victim's full route is
    answered on every connection and the legitimate broker's topics stay routable."""

    async def body() -> None:
        async with namesrv(tmp_path, workers=2) as ctl:
            legit = await _through_worker(ctl)
            await register(legit, CLUSTER, LEGIT, 0, LEGIT_ADDR, LEGIT_TOPICS)
            w = await Wire.open(ctl.port)
            taken, refusal = await _flood(w, 2000)
            assert refusal is not None
            _refused(refusal, f"{ROUTE_BODY_LIMIT} bytes")
            for _ in range(3):
                route = await legit.call(route_query("Victim"), timeout=20.0)
                assert route.code == 0, route.header
                assert len(TopicRouteData.decode(route.body).broker_datas or []) == taken + 1
            assert ctl.pool is not None and ctl.pool.restarts == 0
            assert (await legit.call(route_query("Orders"))).code == 0
            assert (await w.call(route_query("Orders"))).code == 0

    run(body(), 180.0)


async def _through_worker(ctl: NamesrvController) -> Wire:
    """A connection the kernel gave to the worker process, not to the primary."""
    assert ctl.server is not None
    spare: list[Wire] = []
    for _ in range(200):
        w = await Wire.open(ctl.port)
        await w.call(route_query("Nothing"))
        local = w.writer.get_extra_info("sockname")
        if f"{local[0]}:{local[1]}" not in {c.remote_addr for c in ctl.server.connections}:
            for s in spare:
                await s.close()
            return w
        spare.append(w)
    raise AssertionError("no connection landed on the worker")


def test_route_size_estimate_is_an_upper_bound() -> None:
    """The estimate a refusal rests on is never below the route actually encoded, in either form."""
    routes = RouteInfoManager()
    for b in range(40):
        filters = _filter_hosts(b % 7, b) if b % 3 else None
        for member in range(1 + b % 3):
            args: dict[str, Any] = {
                "cluster_name": f"cluster-{b % 2}",
                "broker_addr": f"10.7.{b}.{member}:10911",
                "broker_name": f"broker-{b}-\u00e9",
                "broker_id": member,
                "ha_server_addr": None,
                "zone_name": "zone" if b % 2 else None,
                "enable_acting_master": True,
                "data_version": DataVersion(1, b),
                "topic_configs": {t: TopicConfig(t, 16, 16, 6) for t in ("Shared", f"T{b}")},
                "filter_server_list": filters,
            }
            assert routes.registration_refusal(**args) is None
            routes.register_broker(**args)
    for topic in ("Shared", "T5", "T10"):
        bound = routes.route_size_bound(topic)
        for standard in (True, False):
            size = len(routes.route_body(topic, standard) or b"")
            assert size <= bound < 3 * size, (topic, size, bound)


def test_register_topic_cannot_outgrow_an_answer() -> None:
    """REGISTER_TOPIC_IN_NAMESRV adding known groups to a topic is bounded the same way."""
    routes = RouteInfoManager()
    names = []
    for b in range(1100):
        name = f"fake-{b}"
        names.append(name)
        routes.register_broker(
            cluster_name=CLUSTER,
            broker_addr=f"10.8.{b // 250}.{b % 250}:10911",
            broker_name=name,
            broker_id=0,
            ha_server_addr=None,
            data_version=DataVersion(1, 1),
            topic_configs={f"Own{b}": TopicConfig(f"Own{b}"), f"Two{b}": TopicConfig(f"Two{b}")},
            filter_server_list=_filter_hosts(FILTERS, b),
        )
    assert routes.topic_registration_refusal("Victim", names[:100]) is None
    why = routes.topic_registration_refusal("Victim", names)
    assert why is not None and str(ROUTE_BODY_LIMIT) in why


# --------------------------------------------------------------------------------- break 13: KV


def _put(ns: str, key: str, value: str) -> Any:
    return request(RequestCode.PUT_KV_CONFIG, {"namespace": ns, "key": key, "value": value})


def test_kv_values_and_entries_are_bounded(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Break 13: a 64 KiB value is kept (and logged cut short); one byte more, a new entry past the
    entries limit, or a store past its bytes, is refused naming the limit, kvConfig.json unchanged
    byte for byte."""
    caplog.set_level(logging.INFO, logger="mqadmin.namesrv")

    async def body() -> None:
        async with namesrv(tmp_path) as ctl:
            kv_file = Path(ctl.namesrv_config.kv_config_path)
            w = await Wire.open(ctl.port)
            full = "v" * 65536
            assert (await w.call(_put("NS", "big", full))).code == 0
            assert not any(full in r.getMessage() for r in caplog.records)
            assert any("(65536 chars)" in r.getMessage() for r in caplog.records)
            before_file, before = kv_file.read_bytes(), await _state(ctl.port)

            _refused(await w.call(_put("NS", "big", full + "v")), "65536 byte limit (valueBytes)")
            _refused(await w.call(_put("NS", "other", "\u00e9" * 32769)), "valueBytes")
            ctl.kv.max_entries = 3  # the declared 10,000, lowered to keep the test short
            assert (await w.call(_put("NS", "k2", "x"))).code == 0
            assert (await w.call(_put("NS2", "k3", "x"))).code == 0
            before_file, before = kv_file.read_bytes(), await _state(ctl.port)
            _refused(await w.call(_put("NS", "k4", "x")), "limit (entries)")
            _refused(await w.call(_put("NS3", "k1", "x")), "limit (entries)")
            assert (await w.call(_put("NS", "k2", "replaced"))).code == 0  # replacing is no new entry
            before_file, before = kv_file.read_bytes(), await _state(ctl.port)
            ctl.kv.max_entries, ctl.kv.max_store_bytes = 10000, 100 << 10
            _refused(await w.call(_put("NS", "k5", full)), "bytes, the limit")
            assert kv_file.read_bytes() == before_file
            assert await _state(ctl.port) == before

    run(body())


def test_register_body_decoder_takes_a_budget() -> None:
    """The decoder's own checks, without a server: the budget passed in is the one applied."""
    from mqadmin.protocol.bodies.register import RegisterBodyRefused, RegisterBudget

    rb = RegisterBrokerBody(
        TopicConfigSerializeWrapper({"T": TopicConfig("T")}, DataVersion(1, 1)), ["1.1.1.1:1"] * 3
    )
    raw = rb.encode(compress=True)
    assert RegisterBrokerBody.decode(raw, compressed=True).filter_server_list == ["1.1.1.1:1"] * 3
    with pytest.raises(RegisterBodyRefused, match="filterServers=2"):
        RegisterBrokerBody.decode(raw, compressed=True, budget=RegisterBudget(1 << 20, 2))
    with pytest.raises(RegisterBodyRefused, match="10 byte limit"):
        RegisterBrokerBody.decode(raw, compressed=True, budget=RegisterBudget(10, 64))
