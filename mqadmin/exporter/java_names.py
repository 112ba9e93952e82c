"""A scrape under the metric names, types, label names and label values of ``apache/rocketmq-exporter``.

The names are those of its ``RMQMetricsCollector`` (head e1ab2dd), so that its Grafana dashboards
(grafana.com 10477 and the overview one) and its ``example.rules`` work unchanged. Every family is a
gauge, in the Java collector's order, with its help text; where the Java exporter's value is odd we
give the same value and say so in the help: TPS rounded to two decimals (``Utils.getFixedDouble``),
``brokerIP`` holding the master's ``ip:port``, ``brokerHost`` empty, ``msgModel`` the ordinal of
``MessageModel`` (``1`` clustering), ``rocketmq_consumer_offset`` holding the group's committed offsets,
``rocketmq_group_consume_tps`` and ``rocketmq_group_consume_total_offset`` declared with no series
(Java never fills them). Two choices differ on purpose: the ``cluster`` label is the broker's own
cluster (Java puts the first cluster it ever saw on the per-topic and per-group series), and a runtime
figure the broker does not give is left out alone (Java drops the whole broker's runtime table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from mqadmin.exporter.collect import fixed_double, minute_figure
from mqadmin.protocol.names import DLQ_GROUP_TOPIC_PREFIX, RETRY_GROUP_TOPIC_PREFIX

if TYPE_CHECKING:
    from prometheus_client.core import GaugeMetricFamily

    from mqadmin.exporter.collect import BrokerScrape, Scrape

__all__ = ["EXPORTER_NAMES", "exporter_families"]

_MODEL_ORDINAL = {"BROADCASTING": "0", "CLUSTERING": "1"}

_GROUP_DIFF = ["group", "topic", "countOfOnlineConsumers", "msgModel"]
_GROUP_COUNT = ["caddr", "localaddr", "group"]
_CLUSTER_BROKER_GROUP = ["cluster", "broker", "group"]
_TOPIC = ["cluster", "broker", "topic"]
_GROUP_NUMS = ["cluster", "broker", "topic", "group"]
_CLIENT = ["clientAddr", "clientId", "group", "topic"]
_BROKER = ["cluster", "brokerIP", "broker"]
_RUNTIME = ["cluster", "brokerIP", "brokerHost", "des", "boottime", "broker_version"]

_PMDT = (
    ("0ms", "<=0ms", "PutMessageDistributeTimeMap0ms"),
    ("0to10ms", "0~10ms", "PutMessageDistributeTimeMap0to10ms"),
    ("10to50ms", "10~50ms", "PutMessageDistributeTimeMap10to50ms"),
    ("50to100ms", "50~100ms", "PutMessageDistributeTimeMap50to100ms"),
    ("100to200ms", "100~200ms", "PutMessageDistributeTimeMap100to200ms"),
    ("200to500ms", "200~500ms", "PutMessageDistributeTimeMap200to500ms"),
    ("500to1s", "500ms~1s", "PutMessageDistributeTimeMap500to1s"),
    ("1to2s", "1~2s", "PutMessageDistributeTimeMap1to2s"),
    ("2to3s", "2~3s", "PutMessageDistributeTimeMap2to3s"),
    ("3to4s", "3~4s", "PutMessageDistributeTimeMap3to4s"),
    ("4to5s", "4~5s", "PutMessageDistributeTimeMap4to5s"),
    ("5to10s", "5~10s", "PutMessageDistributeTimeMap5to10s"),
    ("10stomore", "10s~", "PutMessageDistributeTimeMap10toMore"),
)

Reader = Callable[[dict[str, str]], float | None]


def _long(key: str) -> Reader:
    def read(t: dict[str, str]) -> float | None:
        try:
            return float(int(t[key]))
        except (KeyError, ValueError):
            return None

    return read


def _double(key: str, default: str | None = None) -> Reader:
    def read(t: dict[str, str]) -> float | None:
        try:
            return float(t.get(key, default) or "")
        except (TypeError, ValueError):
            return None

    return read


def _first(key: str) -> Reader:
    """``Double.parseDouble(value.split(" ")[0])``: the number before the unit, as Java reads it."""

    def read(t: dict[str, str]) -> float | None:
        try:
            return float(t[key].split(" ")[0])
        except (KeyError, ValueError):
            return None

    return read


def _tps(key: str, index: int) -> Reader:
    """One window of a ``"10s 60s 600s"`` TPS triple (``getTransferredTps`` before the 4.x spelling)."""

    def read(t: dict[str, str]) -> float | None:
        value = t.get("getTransferredTps", t.get(key)) if key == "getTransferedTps" else t.get(key)
        parts = (value or "").split(" ")
        try:
            return float(parts[index])
        except (IndexError, ValueError):
            return None

    return read


def _pmdt(bucket: str) -> Reader:
    def read(t: dict[str, str]) -> float | None:
        for item in (t.get("putMessageDistributeTime") or "").split(" "):
            name, sep, count = item.partition(":")
            if sep and name.replace("[", "").replace("]", "") == bucket:
                try:
                    return float(int(count))
                except ValueError:
                    return None
        return None

    return read


_UNITS = "KMGTPE"


def _capacity(which: int) -> Reader:
    """``commitLogDirCapacity`` (``"Total : 252.0 GiB, Free : 78.3 GiB."``) in bytes, as Java reads it."""

    def read(t: dict[str, str]) -> float | None:
        arr = (t.get("commitLogDirCapacity") or "").split(" ")
        try:
            base, unit = float(arr[2 + 4 * which]), arr[3 + 4 * which][:-1]
        except (IndexError, ValueError):
            return None
        if unit == "B":
            return base
        return base * 1024.0 ** (_UNITS.index(unit[0]) + 1) if unit and unit[0] in _UNITS else None

    return read


_TPS_NOTE = " (as the Java exporter reads the broker's runtime table)"
_RUNTIME_FAMILIES: tuple[tuple[str, str, Reader], ...] = (
    *((f"rocketmq_brokeruntime_pmdt_{suffix}", help_, _pmdt(bucket)) for suffix, bucket, help_ in _PMDT),
    (
        "rocketmq_brokeruntime_msg_put_total_today_now",
        "brokerRuntimeMsgPutTotalTodayNow",
        _long("msgPutTotalTodayNow"),
    ),
    (
        "rocketmq_brokeruntime_msg_gettotal_today_now",
        "brokerRuntimeMsgGetTotalTodayNow",
        _long("msgGetTotalTodayNow"),
    ),
    (
        "rocketmq_brokeruntime_dispatch_behind_bytes",
        "brokerRuntimeDispatchBehindBytes",
        _long("dispatchBehindBytes"),
    ),
    (
        "rocketmq_brokeruntime_put_message_size_total",
        "brokerRuntimePutMessageSizeTotal",
        _long("putMessageSizeTotal"),
    ),
    (
        "rocketmq_brokeruntime_put_message_average_size",
        "brokerRuntimePutMessageAverageSize",
        _double("putMessageAverageSize"),
    ),
    (
        "rocketmq_brokeruntime_query_threadpool_queue_capacity",
        "brokerRuntimeQueryThreadPoolQueueCapacity",
        _long("queryThreadPoolQueueCapacity"),
    ),
    (
        "rocketmq_brokeruntime_remain_transientstore_buffer_numbs",
        "brokerRuntimeRemainTransientStoreBufferNumbs",
        _long("remainTransientStoreBufferNumbs"),
    ),
    (
        "rocketmq_brokeruntime_earliest_message_timestamp",
        "brokerRuntimeEarliestMessageTimeStamp",
        _long("earliestMessageTimeStamp"),
    ),
    (
        "rocketmq_brokeruntime_putmessage_entire_time_max",
        "brokerRuntimePutMessageEntireTimeMax",
        _long("putMessageEntireTimeMax"),
    ),
    (
        "rocketmq_brokeruntime_start_accept_sendrequest_time",
        "brokerRuntimeStartAcceptSendRequestTimeStamp",
        _long("startAcceptSendRequestTimeStamp"),
    ),
    (
        "rocketmq_brokeruntime_send_threadpool_queue_size",
        "brokerRuntimeSendThreadPoolQueueSize",
        _long("sendThreadPoolQueueSize"),
    ),
    (
        "rocketmq_brokeruntime_putmessage_times_total",
        "brokerRuntimePutMessageTimesTotal",
        _long("putMessageTimesTotal"),
    ),
    (
        "rocketmq_brokeruntime_getmessage_entire_time_max",
        "brokerRuntimeGetMessageEntireTimeMax",
        _long("getMessageEntireTimeMax"),
    ),
    (
        "rocketmq_brokeruntime_pagecache_lock_time_mills",
        "brokerRuntimePageCacheLockTimeMills",
        _long("pageCacheLockTimeMills"),
    ),
    (
        "rocketmq_brokeruntime_commitlog_disk_ratio",
        "brokerRuntimeCommitLogDiskRatio",
        _double("commitLogDiskRatio"),
    ),
    (
        "rocketmq_brokeruntime_consumequeue_disk_ratio",
        "brokerRuntimeConsumeQueueDiskRatio",
        _double("consumeQueueDiskRatio"),
    ),
    *(
        (
            f"rocketmq_brokeruntime_{name}_tps{window}",
            f"brokerRuntime{camel}Tps{window}{_TPS_NOTE}",
            _tps(key, i),
        )
        for name, camel, key in (
            ("getfound", "GetFound", "getFoundTps"),
            ("gettotal", "GetTotal", "getTotalTps"),
            ("gettransfered", "GetTransfered", "getTransferedTps"),
            ("getmiss", "GetMiss", "getMissTps"),
            ("put", "Put", "putTps"),
        )
        for i, window in ((2, 600), (1, 60), (0, 10))
    ),
    (
        "rocketmq_brokeruntime_dispatch_maxbuffer",
        "brokerRuntimeDispatchMaxBuffer",
        _long("dispatchMaxBuffer"),
    ),
    (
        "rocketmq_brokeruntime_pull_threadpoolqueue_capacity",
        "brokerRuntimePullThreadPoolQueueCapacity",
        _long("pullThreadPoolQueueCapacity"),
    ),
    (
        "rocketmq_brokeruntime_send_threadpoolqueue_capacity",
        "brokerRuntimeSendThreadPoolQueueCapacity",
        _long("sendThreadPoolQueueCapacity"),
    ),
    (
        "rocketmq_brokeruntime_pull_threadpoolqueue_size",
        "brokerRuntimePullThreadPoolQueueSizeF",
        _long("pullThreadPoolQueueSize"),
    ),
    (
        "rocketmq_brokeruntime_query_threadpoolqueue_size",
        "brokerRuntimeQueryThreadPoolQueueSize",
        _long("queryThreadPoolQueueSize"),
    ),
    (
        "rocketmq_brokeruntime_pull_threadpoolqueue_headwait_timemills",
        "brokerRuntimePullThreadPoolQueueHeadWaitTimeMills",
        _long("pullThreadPoolQueueHeadWaitTimeMills"),
    ),
    (
        "rocketmq_brokeruntime_query_threadpoolqueue_headwait_timemills",
        "brokerRuntimeQueryThreadPoolQueueHeadWaitTimeMills",
        _long("queryThreadPoolQueueHeadWaitTimeMills"),
    ),
    (
        "rocketmq_brokeruntime_send_threadpoolqueue_headwait_timemills",
        "brokerRuntimeSendThreadPoolQueueHeadWaitTimeMills",
        _long("sendThreadPoolQueueHeadWaitTimeMills"),
    ),
    (
        "rocketmq_brokeruntime_msg_gettotal_yesterdaymorning",
        "brokerRuntimeMsgGetTotalYesterdayMorning",
        _long("msgGetTotalYesterdayMorning"),
    ),
    (
        "rocketmq_brokeruntime_msg_puttotal_yesterdaymorning",
        "brokerRuntimeMsgPutTotalYesterdayMorning",
        _long("msgPutTotalYesterdayMorning"),
    ),
    (
        "rocketmq_brokeruntime_msg_gettotal_todaymorning",
        "brokerRuntimeMsgGetTotalTodayMorning",
        _long("msgGetTotalTodayMorning"),
    ),
    (
        "rocketmq_brokeruntime_msg_puttotal_todaymorning",
        "brokerRuntimeMsgPutTotalTodayMorning",
        _long("msgPutTotalTodayMorning"),
    ),
    (
        "rocketmq_brokeruntime_commitlogdir_capacity_free",
        "brokerRuntimeCommitLogDirCapacityFree (bytes, from the rounded figure the broker prints)",
        _capacity(1),
    ),
    (
        "rocketmq_brokeruntime_commitlogdir_capacity_total",
        "brokerRuntimeCommitLogDirCapacityTotal (bytes, from the rounded figure the broker prints)",
        _capacity(0),
    ),
    (
        "rocketmq_brokeruntime_commitlog_maxoffset",
        "brokerRuntimeCommitLogMaxOffset",
        _long("commitLogMaxOffset"),
    ),
    (
        "rocketmq_brokeruntime_commitlog_minoffset",
        "brokerRuntimeCommitLogMinOffset",
        _long("commitLogMinOffset"),
    ),
    (
        "rocketmq_brokeruntime_remain_howmanydata_toflush",
        "brokerRuntimeRemainHowManyDataToFlush (the number before the unit, as the Java exporter reads it)",
        _first("remainHowManyDataToFlush"),
    ),
    (
        "rocketmq_brokeruntime_put_latency_99",
        "brokerRuntimePutLatency99 (-1 when the broker does not give it)",
        _double("putLatency99", "-1"),
    ),
    (
        "rocketmq_brokeruntime_put_latency_999",
        "brokerRuntimePutLatency999 (-1 when the broker does not give it)",
        _double("putLatency999", "-1"),
    ),
)

_FAMILIES: tuple[tuple[str, str, list[str]], ...] = (
    (
        "rocketmq_group_diff",
        "GroupDiff (clustering groups: broker offset minus committed offset, "
        "summed over the queues of every answering master; msgModel 1 is CLUSTERING)",
        _GROUP_DIFF,
    ),
    ("rocketmq_group_retrydiff", "GroupRetryDiff (the same, on the group's %RETRY% topic)", _GROUP_DIFF),
    ("rocketmq_group_dlqdiff", "GroupDLQDiff", _GROUP_DIFF),
    (
        "rocketmq_group_count",
        "GroupCount (online consumers; caddr and localaddr join their addresses and client ids with commas)",
        _GROUP_COUNT,
    ),
    ("rocketmq_producer_count", "producer instance counter", _CLUSTER_BROKER_GROUP),
    (
        "rocketmq_producer_offset",
        "TopicOffset (sum of the max offsets of the topic's queues on the broker)",
        _TOPIC,
    ),
    ("rocketmq_topic_retry_offset", "TopicRetryOffset", _TOPIC),
    (
        "rocketmq_topic_dlq_offset",
        "TopicRetryOffset (sic: the DLQ topic's offset; group is the topic without %DLQ%)",
        _CLUSTER_BROKER_GROUP,
    ),
    (
        "rocketmq_producer_tps",
        "TopicPutNums (messages per second over the last minute, rounded to 2 "
        "decimals as the Java exporter does)",
        _TOPIC,
    ),
    (
        "rocketmq_producer_message_size",
        "TopicPutMessageSize (bytes per second over the last minute, rounded to 2 decimals)",
        _TOPIC,
    ),
    (
        "rocketmq_consumer_tps",
        "GroupGetNums (messages per second over the last minute, rounded to 2 decimals)",
        _GROUP_NUMS,
    ),
    (
        "rocketmq_group_consume_tps",
        "GroupConsumeTPS (declared, never filled, as in the Java exporter)",
        _GROUP_NUMS,
    ),
    (
        "rocketmq_consumer_offset",
        "GroupBrokerTotalOffset (sic: the sum of the group's committed offsets "
        "on the broker, as the Java exporter computes it)",
        _GROUP_NUMS,
    ),
    (
        "rocketmq_group_consume_total_offset",
        "GroupConsumeTotalOffset (declared, never filled, as in the Java exporter)",
        _GROUP_NUMS,
    ),
    (
        "rocketmq_consumer_message_size",
        "GroupGetMessageSize (bytes per second over the last minute, rounded to 2 decimals)",
        _GROUP_NUMS,
    ),
    ("rocketmq_send_back_nums", "SendBackNums (messages sent back in the last minute)", _GROUP_NUMS),
    (
        "rocketmq_group_get_latency_by_storetime",
        "GroupGetLatencyByStoreTime (ms: now minus the store "
        "time of the first message not consumed, the largest over the group's queues on the broker)",
        _GROUP_NUMS,
    ),
    ("rocketmq_client_consume_fail_msg_count", "consumerClientFailedMsgCounts", _CLIENT),
    ("rocketmq_client_consume_fail_msg_tps", "consumerClientFailedTPS", _CLIENT),
    ("rocketmq_client_consume_ok_msg_tps", "consumerClientOKTPS", _CLIENT),
    ("rocketmq_client_consume_rt", "consumerClientRT", _CLIENT),
    ("rocketmq_client_consumer_pull_rt", "consumerClientPullRT", _CLIENT),
    ("rocketmq_client_consumer_pull_tps", "consumerClientPullTPS", _CLIENT),
    (
        "rocketmq_broker_tps",
        "BrokerPutNums (messages per second over the last minute, rounded to 2 "
        "decimals; brokerIP is the master's ip:port, as in the Java exporter)",
        _BROKER,
    ),
    (
        "rocketmq_broker_qps",
        "BrokerGetNums (messages per second over the last minute, rounded to 2 "
        "decimals; brokerIP is the master's ip:port)",
        _BROKER,
    ),
    (
        "rocketmq_broker_commitlog_diff",
        "brokerCommitLogDiffGauge (master's commit log max offset minus "
        "the slave's; brokerIP is the slave's ip:port)",
        _BROKER,
    ),
)

EXPORTER_NAMES: tuple[str, ...] = tuple(n for n, _, _ in _FAMILIES) + tuple(
    n for n, _, _ in _RUNTIME_FAMILIES
)
"""Every family name this module gives, in the Java collector's order."""


def exporter_families(s: Scrape) -> Iterator[GaugeMetricFamily]:
    """The scrape as the Java collector's families (answering masters only; the others left out)."""
    from prometheus_client.core import GaugeMetricFamily

    fam = {n: GaugeMetricFamily(n, h, labels=labels) for n, h, labels in _FAMILIES}
    up = [b for b in s.brokers if b.up]
    _consumer(s, up, fam)
    for b in up:
        _per_broker(b, fam)
    _clients(s, fam)
    for name, _, _ in _FAMILIES:
        yield fam[name]
    yield from _runtime(up)


def _consumer(s: Scrape, up: list[BrokerScrape], fam: dict[str, Any]) -> None:
    diffs: dict[tuple[str, str], int] = {}
    for b in up:
        for entry in b.consume.consume_stats_list if b.consume is not None else []:
            for group, stats_list in entry.items():
                for stats in stats_list:
                    for mq, w in stats.offset_table.items():
                        key = (group, mq.topic or "")
                        diffs[key] = diffs.get(key, 0) + (w.broker_offset - w.consumer_offset)
    for (group, topic), diff in diffs.items():
        g = s.groups.get(group)
        if g is None or g.connections is None or g.model != "CLUSTERING":
            continue  # not known in time (left out), or broadcasting (Java gives no diff)
        labels = [group, topic, str(len(g.connections)), _MODEL_ORDINAL[g.model]]
        if topic.startswith(RETRY_GROUP_TOPIC_PREFIX):
            fam["rocketmq_group_retrydiff"].add_metric(labels, float(diff))
        elif topic.startswith(DLQ_GROUP_TOPIC_PREFIX):
            fam["rocketmq_group_dlqdiff"].add_metric(labels, float(diff))
        else:
            fam["rocketmq_group_diff"].add_metric(labels, float(diff))
    for g in s.groups.values():
        if g.connections is not None:
            caddr = ",".join(c.client_addr or "" for c in g.connections)
            local = ",".join(c.client_id or "" for c in g.connections)
            fam["rocketmq_group_count"].add_metric([caddr, local, g.group], float(len(g.connections)))


def _per_broker(b: BrokerScrape, fam: dict[str, Any]) -> None:
    c, n = b.cluster, b.broker
    for group, count in (b.producers or {}).items():
        fam["rocketmq_producer_count"].add_metric([c, n, group], float(count))
    for topic, offset in b.topic_offsets.items():
        if topic.startswith(RETRY_GROUP_TOPIC_PREFIX):
            fam["rocketmq_topic_retry_offset"].add_metric([c, n, topic], float(offset))
        elif topic.startswith(DLQ_GROUP_TOPIC_PREFIX):
            group = topic.replace(DLQ_GROUP_TOPIC_PREFIX, "")
            fam["rocketmq_topic_dlq_offset"].add_metric([c, n, group], float(offset))
        else:
            fam["rocketmq_producer_offset"].add_metric([c, n, topic], float(offset))
    for topic, (put_tps, put_size) in b.topic_put.items():
        fam["rocketmq_producer_tps"].add_metric([c, n, topic], put_tps)
        fam["rocketmq_producer_message_size"].add_metric([c, n, topic], put_size)
    committed: dict[tuple[str, str], int] = {}
    for entry in b.consume.consume_stats_list if b.consume is not None else []:
        for group, stats_list in entry.items():
            for stats in stats_list:
                for mq, w in stats.offset_table.items():
                    key = (mq.topic or "", group)
                    committed[key] = committed.get(key, 0) + w.consumer_offset
    for (topic, group), total in committed.items():
        fam["rocketmq_consumer_offset"].add_metric([c, n, topic, group], float(total))
    for (topic, group), (nums, size, back) in b.group_get.items():
        if nums is not None:
            fam["rocketmq_consumer_tps"].add_metric([c, n, topic, group], nums)
        if size is not None:
            fam["rocketmq_consumer_message_size"].add_metric([c, n, topic, group], size)
        if back is not None:
            fam["rocketmq_send_back_nums"].add_metric([c, n, topic, group], back)
    if b.complete:  # a latency cut short could read lower than it is: all or nothing
        for (topic, group), ms in b.latency_ms.items():
            fam["rocketmq_group_get_latency_by_storetime"].add_metric([c, n, topic, group], float(ms))
    for item, family in ((b.broker_put, "rocketmq_broker_tps"), (b.broker_get, "rocketmq_broker_qps")):
        per_second = minute_figure(item, "tps")
        if per_second is not None:
            fam[family].add_metric([c, b.addr, n], fixed_double(per_second))
    master = _long("commitLogMaxOffset")(b.runtime)
    for addr, offset in b.slave_max_offsets.items():
        if master is not None:
            fam["rocketmq_broker_commitlog_diff"].add_metric([c, addr, n], master - offset)


def _clients(s: Scrape, fam: dict[str, Any]) -> None:
    for g in s.groups.values():
        addrs = {c.client_id: c.client_addr or "" for c in g.connections or []}
        for client_id, info in g.running.items():
            for topic, st in info.status_table.items():
                labels = [addrs.get(client_id, ""), client_id, g.group, topic]
                fam["rocketmq_client_consume_fail_msg_count"].add_metric(
                    labels, float(st.consume_failed_msgs)
                )
                fam["rocketmq_client_consume_fail_msg_tps"].add_metric(labels, st.consume_failed_tps)
                fam["rocketmq_client_consume_ok_msg_tps"].add_metric(labels, st.consume_ok_tps)
                fam["rocketmq_client_consume_rt"].add_metric(labels, st.consume_rt)
                fam["rocketmq_client_consumer_pull_rt"].add_metric(labels, st.pull_rt)
                fam["rocketmq_client_consumer_pull_tps"].add_metric(labels, st.pull_tps)


def _runtime(up: list[BrokerScrape]) -> Iterator[GaugeMetricFamily]:
    from prometheus_client.core import GaugeMetricFamily

    who = [
        (
            b,
            [
                b.cluster,
                b.addr,
                "",
                b.runtime.get("brokerVersionDesc") or "",
                b.runtime.get("bootTimestamp") or "0",
                b.runtime.get("brokerVersion") or "0",
            ],
        )
        for b in up
    ]
    for name, help_, read in _RUNTIME_FAMILIES:
        family = GaugeMetricFamily(name, help_, labels=_RUNTIME)
        for b, labels in who:
            value = read(b.runtime)
            if value is not None:
                family.add_metric(labels, value)
        yield family
