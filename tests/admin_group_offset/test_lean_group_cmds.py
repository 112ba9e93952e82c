"""The group, offset and stats commands import nothing heavy, and print what the installed tool prints.

In a bare interpreter (no site, only this source tree on the path), consumerProgress (one group,
all groups, with the client IPs, with --max-lag), consumerConnection, consumerStatus,
getConsumerConfig, statsAll, brokerConsumeStats, queryCq and the group and offset changes against
our name server and broker import none of typing, dataclasses, re, enum, json, datetime, pathlib,
collections, functools, threading, ... (nor ``random``, which brings ``warnings``), at module level
or inside the functions on the path they take. The read-only ones print what ``mqadmin`` installed
in the environment prints. Their value classes (records now) keep the dataclasses' equality, hash
and repr.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mqadmin.admin.consumers import RollbackStats
from mqadmin.admin.groups import GroupConfigHit
from mqadmin.admin.tablenames import SkippedName
from mqadmin.cli.lagalert import Thresholds
from mqadmin.lazyrandom import randbelow
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
from mqadmin.protocol.bodies.static_topic import LogicQueueMappingItem, TopicQueueMappingDetail
from mqadmin.protocol.staticmapping import MappingOne, PullOffsets
from tests.admin_group_offset.servers import Cluster, OnlineConsumer
from tests.bare import heavy_in, run_mqadmin_bare

TOPIC = "LeanGroupTopic"
GROUP = "LeanGroup"
ONLINE = "LeanOnlineGroup"

#: Beside the lean rule's list: ``random`` (it imports ``warnings``, ``hashlib``, ``bisect``).
MORE = ("random",)


def bare(cluster: Cluster, *args: str) -> tuple[int, str, set[str]]:
    """Exit code, stdout and every module ``mqadmin ARGS`` imported in a bare interpreter."""
    run = run_mqadmin_bare(list(args), cluster.env, cluster.cwd)
    return run.code, run.out, run.modules


@pytest.fixture(scope="module")
def online(cluster: Cluster) -> Iterator[OnlineConsumer]:
    """Messages in the topic, a group that consumed them all, and a consumer online in another."""
    cluster.create_topic(TOPIC, 4)
    cluster.produce(TOPIC, 12)
    cluster.consume(TOPIC, GROUP, 12)
    r = cluster.mqadmin("updateSubGroup", "-b", cluster.addr, "-g", GROUP)
    assert r.code == 0, r.err
    consumer = OnlineConsumer(cluster.namesrv, TOPIC, ONLINE, 12)
    try:
        consumer.wait_received(12, 60)
        yield consumer
    finally:
        consumer.stop()


def test_reading_commands_import_nothing_heavy_and_print_as_installed(
    cluster: Cluster, online: OnlineConsumer
) -> None:
    ns = ["-n", cluster.namesrv]
    commands = [
        ["consumerProgress", *ns, "-g", GROUP],
        ["consumerProgress", *ns],
        ["consumerProgress", *ns, "-g", GROUP, "--max-lag", "0"],
        ["consumerProgress", *ns, "-g", ONLINE, "-s", "true"],
        ["consumerConnection", *ns, "-g", ONLINE],
        ["consumerStatus", *ns, "-g", ONLINE],
        ["getConsumerConfig", *ns, "-g", GROUP],
        ["statsAll", *ns],
        ["brokerConsumeStats", *ns, "-b", cluster.addr],
        ["queryCq", *ns, "-t", TOPIC, "-q", "0", "-i", "0", "-c", "2"],
    ]
    for args in commands:
        code, out, names = bare(cluster, *args)
        assert code == 0, (args, out)
        assert heavy_in(names, *MORE) == [], args
        installed = cluster.mqadmin(*args)
        assert (code, out) == (installed.code, installed.out), args
        assert out.strip(), args
    # what the runs went through: the group's queues, the online client, the group's config
    assert GROUP in bare(cluster, "consumerProgress", *ns)[1]
    assert "Rebalance OK" in bare(cluster, "consumerStatus", *ns, "-g", ONLINE)[1]
    assert "groupName" in bare(cluster, "getConsumerConfig", *ns, "-g", GROUP)[1]


def test_a_lag_over_the_limit_exits_8_without_importing_anything_heavy(
    cluster: Cluster, online: OnlineConsumer
) -> None:
    cluster.produce(TOPIC, 3)  # the group that consumed everything is 3 behind now
    for args in (["-g", GROUP], []):
        code, out, names = bare(cluster, "consumerProgress", "-n", cluster.namesrv, "--max-lag", "0", *args)
        assert code == 8, (args, out)
        assert heavy_in(names, *MORE) == [], args
        assert GROUP in out


def test_changing_commands_import_nothing_heavy(cluster: Cluster, online: OnlineConsumer) -> None:
    ns = ["-n", cluster.namesrv]
    b = cluster.addr
    commands = [
        ["updateSubGroup", *ns, "-b", b, "-g", "LeanScratch"],
        ["deleteSubGroup", *ns, "-b", b, "-g", "LeanScratch", "--yes"],
        ["resetOffsetByTime", *ns, "-g", GROUP, "-t", TOPIC, "-s", "now"],
        ["resetOffsetByTime", *ns, "-g", GROUP, "-t", TOPIC, "-s", "0"],
        ["skipAccumulatedMessage", *ns, "-g", GROUP, "-t", TOPIC],
        ["cloneGroupOffset", *ns, "-s", GROUP, "-d", "LeanClone", "-t", TOPIC],
    ]
    for args in commands:
        code, out, names = bare(cluster, *args)
        assert code == 0, (args, out)
        assert heavy_in(names, *MORE) == [], args
    assert "LeanScratch" not in cluster.groups_on_broker()
    assert cluster.committed("LeanClone", TOPIC, 0) == cluster.committed(GROUP, TOPIC, 0) >= 0


def test_records_compare_hash_and_print_as_the_dataclasses_did() -> None:
    r = RollbackStats("b", 1, 10, 5, 7, 7)
    assert r == RollbackStats("b", 1, 10, 5, 7, 7) != RollbackStats("b", 2, 10, 5, 7, 7)
    assert hash(r) == hash(RollbackStats("b", 1, 10, 5, 7, 7))
    assert repr(r) == (
        "RollbackStats(broker_name='b', queue_id=1, broker_offset=10, consumer_offset=5, "
        "timestamp_offset=7, rollback_offset=7)"
    )
    assert r.with_(queue_id=3) == RollbackStats("b", 3, 10, 5, 7, 7)
    assert repr(SkippedName("group", "", "blank")) == "SkippedName(kind='group', name='', reason='blank')"
    assert {SkippedName("group", "a", "x"), SkippedName("group", "a", "x")} == {
        SkippedName("group", "a", "x")
    }
    assert Thresholds() == Thresholds(None, None) and not Thresholds().active
    assert repr(Thresholds(3)) == "Thresholds(max_lag=3, stuck_after=None)"
    assert hash(Thresholds(3, 1.5)) == hash(Thresholds(max_lag=3, stuck_after=1.5))
    cfg = SubscriptionGroupConfig(group_name="G")
    hit = GroupConfigHit(None, "broker-a", "1:2", cfg)
    assert hit == GroupConfigHit(None, "broker-a", "1:2", SubscriptionGroupConfig(group_name="G"))
    assert repr(hit).startswith(
        "GroupConfigHit(cluster=None, broker_name='broker-a', broker_addr='1:2', config="
    )
    got = PullOffsets(0, 1, 2, 3)
    assert got == PullOffsets(0, 1, 2, 3, 0) != PullOffsets(0, 1, 2, 3, 1)
    assert repr(got) == "PullOffsets(code=0, next_begin_offset=1, min_offset=2, max_offset=3, offset_delta=0)"
    got.code = 20  # mutable, as the dataclass was
    assert got.code == 20
    with pytest.raises(TypeError):
        hash(got)
    items = [LogicQueueMappingItem(0, 0, "b", 0, 0, -1, -1, -1)]
    detail = TopicQueueMappingDetail(topic="T", bname="b", epoch=1)
    one = MappingOne("T", "b", 0, items, detail)
    assert one == MappingOne("T", "b", 0, list(items), detail)
    assert repr(one).startswith("MappingOne(topic='T', bname='b', global_id=0, items=[")


def test_a_random_broker_is_any_of_them() -> None:
    for n in (1, 2, 3, 5, 8):
        seen = {randbelow(n) for _ in range(400)}
        assert seen == set(range(n)), (n, seen)
