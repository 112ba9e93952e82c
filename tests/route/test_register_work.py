"""What a registration costs the route tables (issue 26): the work is on what changed, the checks
stay whole.

A topic whose queues did not change is neither rewritten nor invalidated, however its shared queue
data came to be; the route-size refusal looks at the name each topic is stored under (a config's
own name), not the map key it arrived with.
"""

from __future__ import annotations

from typing import Any

from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.route import RouteInfoManager
from mqadmin.route.routesize import ROUTE_BODY_LIMIT

A0 = "10.0.0.1:10911"


def tc(name: str, perm: int = 6) -> TopicConfig:
    return TopicConfig(topic_name=name, read_queue_nums=4, write_queue_nums=4, perm=perm)


def args(name: str, addr: str, topics: dict[str, TopicConfig], counter: int = 1, **kw: Any) -> dict[str, Any]:
    return {
        "cluster_name": "C",
        "broker_addr": addr,
        "broker_name": name,
        "broker_id": 0,
        "ha_server_addr": None,
        "data_version": DataVersion(1_700_000_000_000, counter, None),
        "topic_configs": topics,
        **kw,
    }


def test_only_changed_topics_are_rewritten_and_invalidated() -> None:
    m = RouteInfoManager()
    topics = {f"T{i}": tc(f"T{i}") for i in range(20)}
    m.register_broker(**args("b", A0, topics))
    for t in topics:
        assert m.route_body(t, True) is not None
    dropped: list[str | None] = []
    m.route_cache.on_drop = dropped.append
    m._queue_datas.clear()  # the shared queue data forgotten: equal values are still unchanged
    before = {t: m.topic_queue_table[t]["b"] for t in topics}
    changed = {**topics, "T3": tc("T3", perm=4)}
    m.register_broker(**args("b", A0, changed, counter=2))
    assert dropped == ["T3"]
    assert all(m.topic_queue_table[t]["b"] is before[t] for t in topics if t != "T3")
    assert m.topic_queue_table["T3"]["b"].perm == 4
    assert len(m.route_cache) == 19  # the standard form of every route but T3's


def _big_filters(n: int, tag: int) -> list[str]:
    return [f"{'h' * 240}{tag:06d}{i:05d}:7000" for i in range(n)]


def test_route_size_refusal_looks_at_the_name_a_topic_is_stored_under() -> None:
    """Groups with long filter server lists fill Victim's route up to the limit; a registration
    listing Victim under another key (its config names Victim) is refused like one listing it under
    its own name, and changes nothing; the same group with a topic of its own is taken."""
    m = RouteInfoManager()
    b = 0
    while b < 200:
        own = {"Victim": tc("Victim"), f"Own{b}": tc(f"Own{b}")}  # a full table: more than one topic
        reg = args(f"g{b}", f"10.2.{b // 250}.{b % 250}:10911", own)
        reg["filter_server_list"] = _big_filters(2000, b)
        if m.registration_refusal(**reg) is not None:
            break
        m.register_broker(**reg)
        b += 1
    assert b > 5 and m.route_size_bound("Victim") <= ROUTE_BODY_LIMIT
    newcomer = args("late", "10.3.0.1:10911", {}, filter_server_list=_big_filters(2000, 99999))
    for key in ("Victim", "Alias"):
        attempt = {**newcomer, "topic_configs": {key: tc("Victim"), "Own": tc("Own")}}
        why = m.registration_refusal(**attempt)
        assert why is not None and "route of topic Victim" in why, key
    assert "late" not in m.broker_addr_table and "Alias" not in m.topic_queue_table
    taken = {**newcomer, "topic_configs": {"Own": tc("Own"), "Alias": tc("Alias")}}
    assert m.registration_refusal(**taken) is None
    m.register_broker(**taken)
    assert set(m.topic_queue_table["Own"]) == {"late"}
