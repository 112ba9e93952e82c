"""The decision table of a route query: every flag, both sources, and what hostile requests get.

The tables are real (a :class:`RouteInfoManager` with two registered brokers in two zones, a KV store
on disk, a config); the replica is a real :class:`RouteReplica` over a real body cache, with no
primary behind it (what it holds is put in its cache, as a fill would).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.namesrv.config import NamesrvConfig
from mqadmin.namesrv.kvconfig import NAMESPACE_ORDER_TOPIC_CONFIG, KVConfigManager
from mqadmin.namesrv.replica import RouteReplica
from mqadmin.namesrv.routequery import (
    FORWARD,
    NOT_READY,
    NotFound,
    RouteQuery,
    RouteTables,
    answer,
    not_found_remark,
    response,
)
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.command import RemotingCommand
from mqadmin.route import RouteInfoManager
from mqadmin.route.routecache import RouteBodyCache

A0, B0 = "10.0.0.1:10911", "10.0.0.2:10911"
TOPIC = "Orders"
REMARK = (
    "No topic route info in name server for the topic: {}"
    "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."
)


def _register(routes: RouteInfoManager, name: str, addr: str, zone: str) -> None:
    topics = {t: TopicConfig(topic_name=t, read_queue_nums=4, write_queue_nums=4) for t in (TOPIC, "X")}
    routes.register_broker(
        cluster_name="C",
        broker_addr=addr,
        broker_name=name,
        broker_id=0,
        ha_server_addr=None,
        zone_name=zone,
        data_version=DataVersion(1, 1, 0),
        topic_configs=topics,
        channel=None,
    )


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[RouteTables]:
    config = NamesrvConfig()
    routes = RouteInfoManager(config)
    _register(routes, "ba", A0, "za")
    _register(routes, "bb", B0, "zb")
    yield RouteTables(routes, KVConfigManager(str(tmp_path / "kvConfig.json")), config)


def _route(body: object) -> TopicRouteData:
    assert isinstance(body, bytes), body
    return TopicRouteData.decode(body)


def _brokers(body: object) -> list[str]:
    return sorted(b.broker_name for b in _route(body).broker_datas or [])


# ------------------------------------------------------------------------------ reading the query


@pytest.mark.parametrize(
    ("version", "ext", "want"),
    [
        (479, {"topic": "T"}, RouteQuery("T", True)),
        (401, {"topic": "T"}, RouteQuery("T", True)),
        (400, {"topic": "T"}, RouteQuery("T", False)),
        (0, {"topic": "T", "acceptStandardJsonOnly": "true"}, RouteQuery("T", True)),
        (0, {"topic": "T", "acceptStandardJsonOnly": "TRUE"}, RouteQuery("T", True)),
        (0, {"topic": "T", "acceptStandardJsonOnly": "false"}, RouteQuery("T", False)),
        (0, {"topic": "T", "acceptStandardJsonOnly": "1"}, RouteQuery("T", False)),
        (479, {"topic": "T", "acceptStandardJsonOnly": "false"}, RouteQuery("T", True)),
        (0, {"topic": "T", "__ZONE_MODE": "true", "__ZONE_NAME": "zb"}, RouteQuery("T", False, "zb")),
        (0, {"topic": "T", "__ZONE_MODE": "True", "__ZONE_NAME": "zb"}, RouteQuery("T", False, "zb")),
        (0, {"topic": "T", "__ZONE_MODE": "false", "__ZONE_NAME": "zb"}, RouteQuery("T", False)),
        (0, {"topic": "T", "__ZONE_MODE": "true", "__ZONE_NAME": "  "}, RouteQuery("T", False)),
        (0, {"topic": "T", "__ZONE_MODE": "true"}, RouteQuery("T", False)),
        (0, {"topic": "T", "__ZONE_NAME": "zb"}, RouteQuery("T", False)),
        (0, {"__ZONE_MODE": "true"}, RouteQuery(None, False)),
        (0, {}, RouteQuery(None, False)),
        (479, None, RouteQuery(None, True)),
        (-(1 << 31), {"topic": "T"}, RouteQuery("T", False)),
    ],
)
def test_the_query_is_read_once_with_java_rules(version: int, ext: dict[str, str] | None, want: Any) -> None:
    assert RouteQuery.of(version, ext) == want
    req = RemotingCommand(code=105, version=version, ext_fields=ext)
    assert RouteQuery.of_request(req) == want


def test_only_a_named_whole_route_is_plain() -> None:
    assert RouteQuery("T", True).plain
    assert not RouteQuery("T", True, "z").plain
    assert not RouteQuery(None, True).plain


# ------------------------------------------------------------------------------ the tables


def test_the_tables_answer_each_form_as_the_route_tables_encode_it(tables: RouteTables) -> None:
    for standard in (True, False):
        got = answer(RouteQuery(TOPIC, standard), tables)
        assert got == tables.routes.route_body(TOPIC, standard)
        assert _brokers(got) == ["ba", "bb"]
    assert answer(RouteQuery(TOPIC, True), tables) != answer(RouteQuery(TOPIC, False), tables)


def test_the_tables_say_not_found_with_javas_remark(tables: RouteTables) -> None:
    assert answer(RouteQuery("Missing", True), tables) == NotFound(REMARK.format("Missing"))
    assert answer(RouteQuery(None, True), tables) == NotFound(REMARK.format("null"))
    assert not_found_remark(None) == REMARK.format("null")


def test_a_zone_query_keeps_its_zone_in_legacy_json(tables: RouteTables) -> None:
    got = answer(RouteQuery(TOPIC, True, "ZB"), tables)  # the zone is matched ignoring case
    assert _brokers(got) == ["bb"]
    assert isinstance(got, bytes) and b'{0:"' in got  # legacy JSON, whatever form was asked
    assert [q.broker_name for q in _route(got).queue_datas or []] == ["bb"]
    # a zone nobody is in: every master is dropped, so nothing is left but the empty route
    assert _brokers(answer(RouteQuery(TOPIC, False, "nowhere"), tables)) == []
    assert answer(RouteQuery("Missing", False, "zb"), tables) == NotFound(REMARK.format("Missing"))


def test_order_mode_splices_the_order_config_in(tables: RouteTables) -> None:
    tables.kv.put(NAMESPACE_ORDER_TOPIC_CONFIG, TOPIC, "ba:4;bb:4")
    assert _route(answer(RouteQuery(TOPIC, True), tables)).order_topic_conf is None  # off: not read
    tables.config.order_message_enable = True
    for standard in (True, False):
        assert _route(answer(RouteQuery(TOPIC, standard), tables)).order_topic_conf == "ba:4;bb:4"
    assert _route(answer(RouteQuery(TOPIC, False, "zb"), tables)).order_topic_conf == "ba:4;bb:4"
    assert _route(answer(RouteQuery("X", True), tables)).order_topic_conf is None  # none kept for X


def test_a_server_waiting_for_service_answers_nothing_until_it_is_ready(tables: RouteTables) -> None:
    tables.config.need_wait_for_service = True
    for query in (RouteQuery(TOPIC, True), RouteQuery("Missing", False), RouteQuery(None, True, "z")):
        assert answer(query, tables) is NOT_READY
    tables.config.wait_seconds_for_service = 0  # the wait is over
    assert _brokers(answer(RouteQuery(TOPIC, True), tables)) == ["ba", "bb"]


# ------------------------------------------------------------------------------ what a worker's copy gets


def test_a_fill_gets_only_answers_a_copy_may_keep(tables: RouteTables) -> None:
    assert tables.fill(TOPIC, True) == tables.routes.route_body(TOPIC, True)
    assert tables.fill("Missing", False) == NotFound(REMARK.format("Missing"))
    tables.config.order_message_enable = True  # a KV change would never reach the copy
    assert tables.fill(TOPIC, True) is FORWARD
    tables.config.order_message_enable = False
    tables.config.need_wait_for_service = True  # the primary answers NOT_READY itself
    assert tables.fill(TOPIC, True) is FORWARD


def _replica(held: dict[tuple[str, bool], bytes]) -> RouteReplica:
    cache = RouteBodyCache()
    for (topic, standard), body in held.items():
        cache.put(topic, standard, body)
    return RouteReplica(cache)


def test_the_replica_answers_what_it_holds_and_forwards_the_rest() -> None:
    async def body() -> None:
        replica = _replica({(TOPIC, True): b'{"held":1}'})
        assert answer(RouteQuery(TOPIC, True), replica) == b'{"held":1}'
        assert answer(RouteQuery(TOPIC, False), replica) is FORWARD  # not held in that form
        assert answer(RouteQuery("Missing", True), replica) is FORWARD  # only the tables know
        assert answer(RouteQuery(TOPIC, True, "zb"), replica) is FORWARD  # only the tables cut zones
        assert answer(RouteQuery(None, True), replica) is FORWARD
        # a query that is not plain is never asked of the primary as a fill
        assert await replica.fill(RouteQuery(TOPIC, True, "zb")) is FORWARD
        assert await replica.fill(RouteQuery(None, False)) is FORWARD

    asyncio.run(body())


# ------------------------------------------------------------------------------ hostile queries


@pytest.mark.parametrize(
    "topic",
    ["T" * 100_000, "a/../b", "bad\x00name", "\ud800", "%s%n", "", " ", TOPIC.lower(), TOPIC + " "],
    ids=["over-long", "path", "nul", "surrogate", "format", "empty", "blank", "case", "trailing-blank"],
)
def test_a_name_the_tables_cannot_hold_is_simply_not_found(tables: RouteTables, topic: str) -> None:
    for ext in ({"topic": topic}, {"topic": topic, "__ZONE_MODE": "true", "__ZONE_NAME": "za"}):
        query = RouteQuery.of(479, ext)
        assert answer(query, tables) == NotFound(REMARK.format(topic))

    async def on_replica() -> None:
        assert answer(RouteQuery.of(479, {"topic": topic}), _replica({})) is FORWARD

    asyncio.run(on_replica())


def test_a_missing_or_odd_header_field_reads_as_java_reads_it(tables: RouteTables) -> None:
    assert answer(RouteQuery.of(479, {"acceptStandardJsonOnly": "true"}), tables) == NotFound(
        REMARK.format("null")
    )
    odd = {"topic": TOPIC, "acceptStandardJsonOnly": "yes", "__ZONE_MODE": "1", "__ZONE_NAME": "zb"}
    query = RouteQuery.of(0, odd)
    assert query == RouteQuery(TOPIC, False)  # neither flag says "true"
    assert answer(query, tables) == tables.routes.route_body(TOPIC, False)


# ------------------------------------------------------------------------------ the responses


def test_each_answer_has_the_response_java_gives() -> None:
    req = RemotingCommand(code=105, opaque=9, ext_fields={"topic": "T"})
    ok = response(req, b"{}")
    assert (ok.code, ok.remark, ok.body) == (0, None, b"{}")
    missing = response(req, NotFound(REMARK.format("T")))
    assert (missing.code, missing.remark, missing.body) == (17, REMARK.format("T"), None)
    waiting = response(req, NOT_READY)
    assert (waiting.code, waiting.remark) == (1, "name server not ready")
    with pytest.raises(ValueError, match="FORWARD"):
        response(req, FORWARD)
