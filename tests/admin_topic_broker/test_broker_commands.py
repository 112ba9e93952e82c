"""Broker commands against our name server and development broker: what they print and what they did."""

from __future__ import annotations

import json

from mqadmin.protocol.javacoll import properties_order
from tests.admin_topic_broker.servers import Cluster
from tests.broker.peers import cpp


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and err.endswith("\n")


def broker_config(c: Cluster) -> dict[str, str]:
    return c.admin(lambda a: a.brokers.get_broker_config(c.broker_addr))


# ------------------------------------------------------------------------------------- brokerStatus


def test_broker_status_by_broker_and_by_cluster(cluster: Cluster) -> None:
    assert cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "StatsTopic").code == 0
    cpp("produce", cluster.ns_addr, "StatsTopic", "3")
    r = cluster.mqadmin("brokerStatus", "-b", cluster.broker_addr)
    assert (r.code, r.err) == (0, "")
    table = cluster.admin(lambda a: a.broker.fetch_broker_runtime_stats(cluster.broker_addr))
    keys = sorted(table, key=lambda k: k.encode("utf-16-be"))
    lines = r.out.splitlines()
    assert [ln.split(":", 1)[0].rstrip() for ln in lines] == keys
    assert "EndTransactionThreadPoolQueueCapacity: 100000" in lines  # longer than 32: no padding
    assert "putMessageTimesTotal            : 3" in lines  # what we sent
    assert "brokerVersionDesc               : V4_9_8" in lines

    r = cluster.mqadmin("brokerStatus", "-c", "DefaultCluster")
    assert (r.code, r.err) == (0, "")
    first = r.out.splitlines()[0]
    assert first == f"{cluster.broker_addr:<24} {'EndTransactionQueueSize':<32}: 0"
    assert len(r.out.splitlines()) == len(keys)

    doc = json.loads(cluster.mqadmin("brokerStatus", "-b", cluster.broker_addr, "--json").out)
    [b] = doc["brokers"]
    assert b["addr"] == cluster.broker_addr and b["ok"] is True and b["brokerName"] == "broker-a"
    stats = b["stats"]  # the table typed (mqadmin schema brokerStatus): camelCase, a key per rate window
    assert stats["endTransactionQueueSize"] == 0 and {"put10sTps", "put1mTps", "put10mTps"} <= set(stats)
    assert len(stats) >= len(keys)

    for args, code in ((("-c", "NoSuchCluster"), 7), (("-b", "127.0.0.1:1"), 4), ((), 2)):
        r = cluster.mqadmin("brokerStatus", *args)
        assert (r.code, r.out) == (code, ""), (args, r.err)


# ------------------------------------------------------------------------------------- broker config


def test_update_then_get_broker_config(cluster: Cluster) -> None:
    addr = cluster.broker_addr
    r = cluster.mqadmin("updateBrokerConfig", "-b", addr, "-k", "maxMessageSize", "-v", "2097152")
    assert (r.code, r.err, r.out) == (0, "", f"update broker config success, {addr}\n")
    assert broker_config(cluster)["maxMessageSize"] == "2097152"

    r = cluster.mqadmin(
        "updateBrokerConfig", "-c", "DefaultCluster", "-a", "true", "-k", "fileReservedTime", "-v", "24"
    )
    assert (r.code, r.out) == (0, f"update broker config success, {addr}\n")
    assert broker_config(cluster)["fileReservedTime"] == "24"

    r = cluster.mqadmin(
        "updateBrokerConfig", "-c", "DefaultCluster", "-k", "brokerPermission", "-v", "4", "--json"
    )
    assert json.loads(r.out) == {
        "apiVersion": "mqadmin/v1",
        "key": "brokerPermission",
        "value": "4",
        "brokers": [
            {"cluster": "DefaultCluster", "brokerName": "broker-a", "brokerId": 0, "addr": addr, "ok": True}
        ],
    }
    assert broker_config(cluster)["brokerPermission"] == "4"
    assert cluster.mqadmin("updateBrokerConfig", "-b", addr, "-k", "brokerPermission", "-v", "6").code == 0

    props = broker_config(cluster)
    r = cluster.mqadmin("getBrokerConfig", "-b", addr)
    assert (r.code, r.err) == (0, "")
    expected = f"============{addr}============\n"
    expected += "".join(f"{k:<50}=  {props[k]}\n" for k in properties_order(list(props))) + "\n"
    assert r.out == expected
    assert f"{'maxMessageSize':<50}=  2097152\n" in r.out

    r = cluster.mqadmin("getBrokerConfig", "-c", "DefaultCluster")
    assert r.out == expected.replace(f"============{addr}", f"============Master: {addr}", 1)
    doc = json.loads(cluster.mqadmin("getBrokerConfig", "-c", "DefaultCluster", "--json").out)
    [b] = doc["brokers"]
    assert (b["addr"], b["role"], b["ok"], b["config"]["fileReservedTime"]) == (addr, "master", True, 24)


def test_broker_config_bad_input(cluster: Cluster) -> None:
    addr = cluster.broker_addr
    before = broker_config(cluster)
    cases = [
        (("updateBrokerConfig", "-b", addr, "-k", "brokerPermission", "-v", "9"), 2, "invalid"),
        (("updateBrokerConfig", "-k", "a", "-v", "b"), 2, "-b ADDR or the cluster with -c"),
        (("updateBrokerConfig", "-c", "Nope", "-k", "a", "-v", "b"), 7, "cluster 'Nope' not found"),
        (("getBrokerConfig",), 2, "-b ADDR"),
        (("updateBrokerConfig", "-b", addr, "-k", "brokerConfigPath", "-v", "/x"), 3, "black list"),
    ]
    for args, code, text in cases:
        r = cluster.mqadmin(*args)
        assert (r.code, r.out) == (code, ""), (args, r.err)
        assert text in r.err and one_error_line(r.err), r.err
    assert broker_config(cluster) == before


# ------------------------------------------------------------------------------------- housekeeping


def test_housekeeping_requests(cluster: Cluster) -> None:
    for name, args in (
        ("cleanUnusedTopic", ("-b", cluster.broker_addr)),
        ("cleanExpiredCQ", ("-c", "DefaultCluster")),
        ("deleteExpiredCommitLog", ()),  # every broker of every cluster
    ):
        r = cluster.mqadmin(name, *args)
        assert (r.code, r.err, r.out) == (0, "", "success"), (name, args)
    for name in ("cleanUnusedTopic", "cleanExpiredCQ", "deleteExpiredCommitLog"):
        doc = json.loads(cluster.mqadmin(name, "--json").out)
        who = {"cluster": "DefaultCluster", "brokerName": "broker-a", "brokerId": 0}
        item = {**who, "addr": cluster.broker_addr, "ok": True}
        assert doc == {"apiVersion": "mqadmin/v1", "result": True, "brokers": [item]}
        r = cluster.mqadmin(name, "-c", "NoSuchCluster")
        assert (r.code, r.out) == (7, "") and one_error_line(r.err)
        r = cluster.mqadmin(name, "-b", "127.0.0.1:1")
        assert (r.code, r.out) == (4, "false") and one_error_line(r.err)


def test_clean_unused_topic_drops_the_queues_of_a_deleted_topic(cluster: Cluster) -> None:
    """A topic deleted from the broker's table keeps no consume queues after cleanUnusedTopic."""
    assert (
        cluster.mqadmin("updateTopic", "-c", "DefaultCluster", "-t", "Leftover", "-w", "2", "-r", "2").code
        == 0
    )
    cpp("produce", cluster.ns_addr, "Leftover", "2")
    queues = cluster.broker.workdir / "store" / "consumequeue" / "Leftover"
    assert queues.is_dir()
    assert cluster.mqadmin("deleteTopic", "-c", "DefaultCluster", "-t", "Leftover").code == 0
    r = cluster.mqadmin("cleanUnusedTopic", "-b", cluster.broker_addr)
    assert (r.code, r.out) == (0, "success")
    assert not queues.exists()


# ------------------------------------------------------------------------------------- with a slave


def test_cluster_with_a_slave(cluster: Cluster, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """A second development broker as broker-a's slave (brokerId 1): where -c and -a reach it."""
    from tests.servers import BrokerProcess

    master = cluster.broker_addr
    slave = BrokerProcess(tmp_path_factory.mktemp("slave"), cluster.ns_addr, brokerId=1, brokerRole="SLAVE")
    try:
        r = cluster.mqadmin("getBrokerConfig", "-c", "DefaultCluster")
        headers = [ln for ln in r.out.splitlines() if ln.startswith("====")]
        assert headers == [
            f"============Master: {master}============",
            f"============My Master: {master}=====Slave: {slave.addr}============",
        ]
        slave_props = cluster.admin(lambda a: a.brokers.get_broker_config(slave.addr))
        assert r.out.endswith(
            "".join(f"{k:<50}=  {slave_props[k]}\n" for k in properties_order(list(slave_props))) + "\n"
        )

        r = cluster.mqadmin(
            "updateBrokerConfig", "-c", "DefaultCluster", "-k", "maxMessageSize", "-v", "1048576"
        )
        assert r.out == f"update broker config success, {master}\n"
        assert cluster.admin(lambda a: a.brokers.get_broker_config(slave.addr))["maxMessageSize"] != "1048576"
        r = cluster.mqadmin(
            "updateBrokerConfig",
            "-c",
            "DefaultCluster",
            "-a",
            "true",
            "-k",
            "maxMessageSize",
            "-v",
            "1048576",
        )
        addrs = cluster.admin(lambda a: a.brokers.fetch_master_and_slave_addrs("DefaultCluster"))
        assert sorted(addrs) == sorted([master, slave.addr])
        assert r.out == "".join(f"update broker config success, {a}\n" for a in addrs)
        for addr in (master, slave.addr):
            assert (
                cluster.admin(lambda a, x=addr: a.brokers.get_broker_config(x))["maxMessageSize"] == "1048576"
            )

        r = cluster.mqadmin("brokerStatus", "-c", "DefaultCluster")
        assert [ln.split(" ", 1)[0] for ln in r.out.splitlines()][:: len(r.out.splitlines()) // 2] == addrs

        doc = json.loads(
            cluster.mqadmin(
                "exportConfigs", "-c", "DefaultCluster", "-f", str(tmp_path_factory.mktemp("e")), "--json"
            ).out
        )
        assert doc["clusterScale"] == {"namesrvSize": 1, "masterBrokerSize": 1, "slaveBrokerSize": 1}
    finally:
        slave.stop()
