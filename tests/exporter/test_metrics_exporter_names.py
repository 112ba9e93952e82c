"""The exporter's names from a scrape, value by value, where a live cluster cannot show them.

The runtime table is read as ``BrokerRuntimeStats`` reads it (TPS windows, the put-latency buckets,
the commit log's disk in bytes from its rounded text), rates are rounded as ``Utils.getFixedDouble``
rounds them, and a consumer whose running info has a status table (the C++ client sends an empty
one) gives the six ``rocketmq_client_*`` families with the Java collector's label order.
"""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from mqadmin.exporter.collect import BrokerScrape, GroupScrape, Scrape, fixed_double
from mqadmin.exporter.java_names import EXPORTER_NAMES
from mqadmin.exporter.server import exposition
from mqadmin.protocol.bodies.connection import Connection
from mqadmin.protocol.bodies.consumption import ConsumerRunningInfo, ConsumeStatus

RUNTIME = {
    "putTps": "12.345 6.5 1.25",
    "getTransferedTps": "3.0 2.0 1.0",
    "commitLogDirCapacity": "Total : 252.0 GiB, Free : 78.3 GiB.",
    "putMessageDistributeTime": "[<=0ms]:7 [0~10ms]:3 [10~50ms]:1 [10s~]:0 ",
    "remainHowManyDataToFlush": "1.5 KiB",
    "brokerVersionDesc": "V5_3_3",
    "bootTimestamp": "1700000000000",
    "brokerVersion": "489",
    "commitLogMaxOffset": "4096",
}


def page(s: Scrape) -> dict[str, list[tuple[dict[str, str], float]]]:
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(exposition(s).decode()):
        assert family.type == "gauge", family.name
        out[family.name] = [(x.labels, x.value) for x in family.samples]
    return out


def test_runtime_table_read_as_the_java_exporter_reads_it() -> None:
    b = BrokerScrape("C", "broker-a", "10.0.0.1:10911", runtime=RUNTIME)
    found = page(Scrape(True, [b]))
    labels = {
        "cluster": "C",
        "brokerIP": "10.0.0.1:10911",
        "brokerHost": "",
        "des": "V5_3_3",
        "boottime": "1700000000000",
        "broker_version": "489",
    }
    assert found["rocketmq_brokeruntime_put_tps10"] == [(labels, 12.345)]
    assert found["rocketmq_brokeruntime_put_tps600"] == [(labels, 1.25)]
    assert found["rocketmq_brokeruntime_gettransfered_tps60"] == [(labels, 2.0)]
    assert found["rocketmq_brokeruntime_commitlogdir_capacity_total"] == [(labels, 252.0 * 1024**3)]
    assert found["rocketmq_brokeruntime_commitlogdir_capacity_free"] == [(labels, 78.3 * 1024**3)]
    assert found["rocketmq_brokeruntime_pmdt_0ms"] == [(labels, 7.0)]
    assert found["rocketmq_brokeruntime_pmdt_0to10ms"] == [(labels, 3.0)]
    assert found["rocketmq_brokeruntime_pmdt_500to1s"] == []  # not in the table: left out, not 0
    assert found["rocketmq_brokeruntime_remain_howmanydata_toflush"] == [(labels, 1.5)]
    assert found["rocketmq_brokeruntime_put_latency_99"] == [(labels, -1.0)]  # Java's default
    assert found["rocketmq_brokeruntime_getmiss_tps10"] == []
    names = [n for n in found if n in EXPORTER_NAMES]
    assert names == list(EXPORTER_NAMES)  # every family, in the Java collector's order


def test_a_down_broker_has_up_0_and_nothing_else() -> None:
    b = BrokerScrape("C", "broker-a", "10.0.0.1:10911", runtime=RUNTIME, error=TimeoutError())
    found = page(Scrape(True, [b]))
    assert found["rocketmq_broker_up"] == [
        ({"cluster": "C", "broker": "broker-a", "addr": "10.0.0.1:10911"}, 0.0)
    ]
    assert all(not v for n, v in found.items() if n in EXPORTER_NAMES)


def test_tps_is_rounded_as_getfixeddouble_rounds() -> None:
    assert fixed_double(1.005) == 1.0  # the double 1.005 is below 1.005: half-even on the exact value
    assert fixed_double(2.675) == 2.67
    assert fixed_double(0.125) == 0.12
    assert fixed_double(0.375) == 0.38
    assert fixed_double(12.3456) == 12.35


def test_client_families_from_a_status_table() -> None:
    g = GroupScrape(
        "G",
        [Connection("cid-1", "10.0.0.9:5555", "JAVA", 400)],
        "CLUSTERING",
        {
            "cid-1": ConsumerRunningInfo(
                status_table={"T": ConsumeStatus(1.5, 20.0, 3.25, 19.0, 1.0, 7)},
            )
        },
    )
    found = page(Scrape(True, [], {"G": g}))
    labels = {"clientAddr": "10.0.0.9:5555", "clientId": "cid-1", "group": "G", "topic": "T"}
    assert found["rocketmq_client_consumer_pull_rt"] == [(labels, 1.5)]
    assert found["rocketmq_client_consumer_pull_tps"] == [(labels, 20.0)]
    assert found["rocketmq_client_consume_rt"] == [(labels, 3.25)]
    assert found["rocketmq_client_consume_ok_msg_tps"] == [(labels, 19.0)]
    assert found["rocketmq_client_consume_fail_msg_tps"] == [(labels, 1.0)]
    assert found["rocketmq_client_consume_fail_msg_count"] == [(labels, 7.0)]
    count = {"caddr": "10.0.0.9:5555", "localaddr": "cid-1", "group": "G"}
    assert found["rocketmq_group_count"] == [(count, 1.0)]
