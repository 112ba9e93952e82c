"""The registration, unregistration and listing rules of the route tables, case by case."""

from __future__ import annotations

import json
from typing import Any

from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.route import QueueData
from mqadmin.protocol.bodies.static_topic import TopicQueueMappingInfo
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.route import DefaultRouteConfig, RouteInfoManager
from tests.captures import pairs

A0, A1, A2 = "10.0.0.1:10911", "10.0.0.2:10911", "10.0.0.3:10911"


def tc(name: str, perm: int = 6, queues: int = 4, flag: int = 0) -> TopicConfig:
    return TopicConfig(
        topic_name=name, read_queue_nums=queues, write_queue_nums=queues, perm=perm, topic_sys_flag=flag
    )


def reg(
    m: RouteInfoManager,
    addr: str,
    bid: int,
    topics: dict[str, TopicConfig],
    *,
    name: str = "broker-a",
    cluster: str = "C",
    counter: int = 1,
    state: int | None = None,
    acting: bool | None = None,
    channel: Any = None,
    single: bool = False,
    **kw: Any,
) -> Any:
    """A registration; a broker's full table always has more than one topic (TBW102 is added)."""
    if len(topics) == 1 and not single:
        topics = {**topics, "TBW102": tc("TBW102", perm=7)}
    return m.register_broker(
        cluster_name=cluster,
        broker_addr=addr,
        broker_name=name,
        broker_id=bid,
        ha_server_addr=addr + "-ha",
        data_version=DataVersion(1_700_000_000_000, counter, state),
        topic_configs=topics,
        filter_server_list=[],
        enable_acting_master=acting,
        channel=channel,
        **kw,
    )


def queues(m: RouteInfoManager, topic: str) -> dict[str, int]:
    route = m.pickup_topic_route(topic)
    assert route is not None
    return {q.broker_name: q.perm for q in route.queue_datas or []}  # type: ignore[misc]


def test_slave_learns_master_and_ha_address() -> None:
    m = RouteInfoManager()
    assert reg(m, A0, 0, {"T": tc("T")}).master_addr is None
    r = reg(m, A1, 1, {"T": tc("T", perm=4)})
    assert (r.master_addr, r.ha_server_addr) == (A0, A0 + "-ha")
    assert queues(m, "T") == {"broker-a": 6}  # a 4.x slave's topics are not taken


def test_slave_switch_keeps_one_id_per_address() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T")})
    reg(m, A1, 1, {"T": tc("T")})
    m.unregister_broker("C", A0, "broker-a", 0)
    reg(m, A1, 0, {"T": tc("T", perm=7)}, counter=2)
    assert m.broker_addr_table["broker-a"].addrs == {0: A1}
    assert queues(m, "T") == {"broker-a": 7}


def test_unchanged_version_only_restores_missing_topics() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T", perm=7), "U": tc("U")})
    assert m.wipe_write_perm("broker-a") == 2
    m.delete_topic("U")
    reg(m, A0, 0, {"T": tc("T", perm=7), "U": tc("U")})
    assert queues(m, "T") == {"broker-a": 5}  # left as wiped
    assert queues(m, "U") == {"broker-a": 6}  # back
    reg(m, A0, 0, {"T": tc("T", perm=7), "U": tc("U")}, counter=2)
    assert queues(m, "T") == {"broker-a": 7}
    assert m.add_write_perm("broker-a") == 2 and queues(m, "T") == {"broker-a": 6}


def test_single_topic_registration_needs_a_full_one_first() -> None:
    m = RouteInfoManager()
    assert reg(m, A0, 0, {"T": tc("T")}, single=True) is None
    assert m.pickup_topic_route("T") is None
    # Java keeps the group it created, with no member
    assert "broker-a" in m.cluster_addr_table["C"] and m.broker_addr_table["broker-a"].addrs == {}
    assert reg(m, A0, 0, {"T": tc("T"), "U": tc("U")}) is not None
    assert reg(m, A0, 0, {"V": tc("V")}, counter=2, single=True) is not None
    assert sorted(m.all_topics()) == ["T", "U", "V"]


def test_newer_state_version_keeps_its_id() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T")}, state=5, acting=False)
    result = reg(m, A1, 0, {"T": tc("T", perm=2)}, state=3, acting=False)
    assert result.master_addr is None and ("C", A1) not in m.broker_live_table
    assert m.broker_addr_table["broker-a"].addrs == {0: A0} and queues(m, "T") == {"broker-a": 6}
    reg(m, A1, 0, {"T": tc("T", perm=2)}, state=6, acting=False)
    assert m.broker_addr_table["broker-a"].addrs == {0: A1}
    assert ("C", A0) not in m.broker_live_table  # replaced: its live entry goes with it


def test_prime_slave_acts_for_a_missing_master() -> None:
    m = RouteInfoManager(DefaultRouteConfig(support_acting_master=True))
    reg(m, A0, 0, {"T": tc("T")}, acting=True)
    reg(m, A1, 1, {"T": tc("T")}, acting=True)
    reg(m, A2, 2, {"T": tc("T")}, acting=True)
    m.unregister_broker("C", A0, "broker-a", 0)
    assert queues(m, "T") == {"broker-a": 4}  # no master: write wiped
    route = m.pickup_topic_route("T")
    assert route is not None and route.broker_datas[0].broker_addrs == {0: A1, 2: A2}  # type: ignore[index]
    reg(m, A1, 1, {"T": tc("T", perm=6)}, counter=2, acting=True)
    assert queues(m, "T") == {"broker-a": 4}  # the prime slave registers read-only
    reg(m, A0, 0, {"T": tc("T")}, counter=3, acting=True)
    assert queues(m, "T") == {"broker-a": 6}


def test_min_broker_id_notices() -> None:
    m = RouteInfoManager(DefaultRouteConfig(notify_min_broker_id_changed=True))
    reg(m, A1, 1, {"T": tc("T")}, acting=True)
    r = reg(m, A0, 0, {"T": tc("T")}, acting=True)
    assert [(n.min_broker_id, n.targets) for n in r.notices] == [(0, (A1,))]
    notices = m.unregister_broker("C", A0, "broker-a", 0)
    assert [(n.min_broker_id, n.offline_broker_addr, n.targets) for n in notices] == [(1, A0, (A1,))]


def test_delete_topic_with_broker_registration() -> None:
    m = RouteInfoManager(DefaultRouteConfig(delete_topic_with_broker_registration=True))
    reg(m, A0, 0, {"T": tc("T"), "U": tc("U")})
    reg(m, A1, 0, {"U": tc("U")}, name="broker-b")
    reg(m, A0, 0, {"T": tc("T")}, counter=2)
    assert m.pickup_topic_route("T") is not None
    assert queues(m, "U") == {"broker-b": 6}


def test_channel_loss_and_expiry_clean_every_table() -> None:
    now = [0]
    m = RouteInfoManager(clock_ms=lambda: now[0])
    ch_a, ch_b = object(), object()
    reg(m, A0, 0, {"T": tc("T"), "U": tc("U")}, channel=ch_a)
    reg(m, A1, 0, {"U": tc("U")}, name="broker-b", cluster="D", channel=ch_b, timeout_millis=10_000)
    m.on_channel_destroy(ch_a)
    assert m.pickup_topic_route("T") is None and "C" not in m.cluster_addr_table
    assert queues(m, "U") == {"broker-b": 6}
    now[0] = 10_001
    expired, _ = m.scan_not_active_brokers()
    assert expired == [(("D", A1), ch_b)]
    assert not m.topic_queue_table and not m.broker_addr_table and not m.broker_live_table


def test_register_topic_needs_known_brokers() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T")})
    m.register_topic("N", [QueueData("broker-a", 2, 2, 6, 0), QueueData("broker-x", 2, 2, 6, 0)])
    assert m.pickup_topic_route("N") is None
    m.register_topic("N", [QueueData("broker-a", 2, 2, 6, 0)])
    assert queues(m, "N") == {"broker-a": 6}


def test_delete_topic_in_cluster() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T")})
    reg(m, A1, 0, {"T": tc("T")}, name="broker-b", cluster="D")
    m.delete_topic_in_cluster("T", "C")
    assert queues(m, "T") == {"broker-b": 6}
    m.delete_topic_in_cluster("T", "D")
    assert m.pickup_topic_route("T") is None


def test_topic_lists() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T": tc("T", flag=1), "U": tc("U", flag=2), "V": tc("V", flag=3), "W": tc("W")})
    reg(m, A1, 0, {"X": tc("X")}, name="broker-b", cluster="D")
    assert sorted(m.topics_by_cluster("C")) == ["T", "U", "V", "W"]
    assert m.topics_by_cluster("nope") == [] and m.topics_by_cluster(None) == []
    assert sorted(m.unit_topics()) == ["T", "V"]
    assert sorted(m.has_unit_sub_topics()) == ["U", "V"]
    assert m.has_unit_sub_ununit_topics() == ["U"]
    names, addr = m.system_topics()
    assert sorted(names) == ["C", "D", "broker-a", "broker-b"] and addr in (A0, A1)
    assert m.broker_member_group("C", "broker-a") == {0: A0} and m.broker_member_group("C", "zz") == {}


def test_route_bodies_standard_legacy_and_order_conf() -> None:
    m = RouteInfoManager()
    reg(m, A0, 0, {"T/1": tc("T/1")}, name="broker/é")
    std = m.route_body("T/1", True)
    legacy = m.route_body("T/1", False)
    assert std is not None and legacy is not None
    assert b'"0":"10.0.0.1:10911"' in std and b'"broker\\/\\u00E9"' in std
    assert b'{0:"10.0.0.1:10911"}' in legacy and "broker/é".encode() in legacy
    with_conf = m.route_body("T/1", True, "broker/é:4")
    assert json.loads(with_conf)["orderTopicConf"] == "broker/é:4"  # type: ignore[arg-type]
    assert with_conf.index(b"orderTopicConf") < with_conf.index(b"queueDatas")  # type: ignore[union-attr]
    assert m.route_body("T/1", True) == std  # the cached body is untouched


def test_mapping_infos_reach_the_route() -> None:
    m = RouteInfoManager()
    info = TopicQueueMappingInfo(topic="S", total_queues=2, bname="broker-a", epoch=1, curr_id_map={0: 0})
    reg(m, A0, 0, {"S": tc("S")}, acting=False, mapping_infos={"S": info})
    route = m.pickup_topic_route("S")
    assert route is not None and route.topic_queue_mapping_by_broker == {"broker-a": info}
    assert b'"topicQueueMappingByBroker":{"broker-a":' in m.route_body("S", True)  # type: ignore[operator]


def test_route_cache_stays_under_its_budget() -> None:
    m = RouteInfoManager(route_cache_bytes=4096)
    reg(m, A0, 0, {f"T{i}": tc(f"T{i}") for i in range(100)})
    for i in range(100):
        assert m.route_body(f"T{i}", True) is not None
    assert 0 < m._routes.size_bytes <= 4096


def test_sliced_registration_yields_between_chunks() -> None:
    m = RouteInfoManager()
    steps = m.register_broker_steps(
        cluster_name="C",
        broker_addr=A0,
        broker_name="broker-a",
        broker_id=0,
        ha_server_addr=None,
        data_version=DataVersion(1, 1, None),
        topic_configs={f"T{i}": tc(f"T{i}") for i in range(2500)},
        chunk=1000,
    )
    sizes = []
    try:
        while True:
            next(steps)
            sizes.append(len(m.topic_queue_table))
    except StopIteration as done:
        assert done.value is not None
    # the Java order of the new topics is worked out first, then they go in 1000 at a time
    assert sizes == [0, 1000, 2000] and len(m.topic_queue_table) == 2500


def test_captured_topic_lists_order() -> None:
    """The 5.3.3 name server's topic lists, rebuilt from the registrations that preceded them."""
    m = RouteInfoManager()
    for scenario in ("rocketmq-4.9.8/r01_brokerRestart", "rocketmq-5.3.3/v02_topicRoute"):
        for req, _ in pairs(scenario):
            if req.server_port == 9877 and req.header["code"] == 103:
                body = json.loads(req.body)["topicConfigSerializeWrapper"]
                ext = req.header["extFields"]
                m.register_broker(
                    cluster_name=ext["clusterName"],
                    broker_addr=ext["brokerAddr"],
                    broker_name=ext["brokerName"],
                    broker_id=0,
                    ha_server_addr=ext["haServerAddr"],
                    data_version=DataVersion(
                        body["dataVersion"]["timestamp"], body["dataVersion"]["counter"]
                    ),
                    topic_configs={
                        k: TopicConfig.from_json_obj(v) for k, v in body["topicConfigTable"].items()
                    },
                )
    (_, resp), *_ = [p for p in pairs("rocketmq-5.3.3/v04_topicList") if p[0].header["code"] == 206]
    assert resp is not None
    assert m.all_topics() == json.loads(resp.body)["topicList"]


def test_route_cache_shares_identical_bodies() -> None:
    m = RouteInfoManager(route_cache_bytes=1 << 20)
    reg(m, A0, 0, {f"T{i}": tc(f"T{i}") for i in range(1000)})
    reg(m, A1, 0, {"Odd": tc("Odd", queues=2), "T0": tc("T0")}, name="broker-b")
    for t in [f"T{i}" for i in range(1000)] + ["Odd"]:
        assert m.route_body(t, True) is not None and m.route_body(t, False) is not None
    cache = m._routes
    assert len(cache) == 2002 and cache.distinct_bodies == 6  # T0 is on both brokers, Odd differs
    assert cache.size_bytes < 2002 * 200 + 6 * 400
    m.wipe_write_perm("broker-b")  # T0 and Odd change; the rest keep their shared body
    assert m.route_body("T0", True) != m.route_body("T1", True)
    assert len(cache) == 1999 and cache.distinct_bodies == 3  # T1..T999 twice, the new T0 once
