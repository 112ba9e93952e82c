"""Export commands: exportMetadata, exportConfigs, exportMetrics.

Each writes one JSON file in the Java 5.3.3 tool's format (fastjson's pretty printer with tabs, the
Java map orders, no trailing newline) and prints ``export <path> success``. Files are replaced
atomically: a reader sees the old file or the new one, never half of one. The brokers of a cluster
are asked all at once.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import click

from mqadmin.atomicfile import write_atomic
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import Bean, JavaSet, fastjson_pretty
from mqadmin.cli.results import Plain
from mqadmin.protocol.javacoll import concurrent_hash_order, java_hash_dict, java_hash_order, properties_order

if TYPE_CHECKING:
    from mqadmin.admin.api import MQAdmin
    from mqadmin.protocol.bodies.dataversion import DataVersion
    from mqadmin.protocol.bodies.group import SubscriptionGroupConfig
    from mqadmin.protocol.bodies.topic import TopicConfig


DEFAULT_DIR = "/tmp/rocketmq/export"
TOOL_VERSION = "V5_3_3"
"""``MQVersion.getVersionDesc(CURRENT_VERSION)`` of the tool we speak as."""


def _dir(file_path: str | None) -> str:
    return DEFAULT_DIR if file_path is None else file_path.strip()


def _write(path: str, value: Any) -> None:
    """``MixAll.string2FileNotSafe(JSON.toJSONString(value, true), path)``, but atomic."""
    try:
        write_atomic(path, fastjson_pretty(value))
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None


# ------------------------------------------------------------------------------------- beans (5.3.3)


def data_version_bean(dv: DataVersion | None) -> Bean | None:
    """The 5.3.3 client's ``DataVersion`` bean, as the declaration views it."""
    from mqadmin.protocol.bodies.declared import java_view

    return None if dv is None else java_view(dv, Bean, Bean)  # type: ignore[no-any-return]


def topic_config_bean(tc: TopicConfig) -> Bean:
    """The 5.3.3 client's ``TopicConfig`` bean, as the declaration views it."""
    from mqadmin.protocol.bodies.declared import java_view

    return java_view(tc, Bean, Bean)  # type: ignore[no-any-return]


def _bean_tree(v: Any) -> Any:
    """Nested property maps of a bean (as ``to_json_obj`` gives them) as beans."""
    if isinstance(v, dict):
        return Bean({k: _bean_tree(x) for k, x in v.items()})
    return v


def group_bean(g: SubscriptionGroupConfig) -> Bean:
    """A group as the 5.3.3 client's ``SubscriptionGroupConfig`` bean (5.x properties at their defaults)."""
    obj = g.as_5x().to_json_obj()
    out = Bean(obj)
    grp = obj.get("groupRetryPolicy")
    if grp is not None:
        policy = Bean({k: _bean_tree(x) for k, x in grp.items()})
        cus = policy.get("customizedRetryPolicy")
        if isinstance(cus, Bean) and isinstance(cus.get("next"), list):
            cus["next"] = JavaSet(cus["next"])  # a long[]: fastjson writes it on one line
        out["groupRetryPolicy"] = policy
    subs = obj.get("subscriptionDataSet")
    if subs is not None:
        out["subscriptionDataSet"] = JavaSet([Bean(s) for s in subs])
    return out


# ------------------------------------------------------------------------------------- exportMetadata


def _askable_tables(
    inv: Invocation, topics: dict[str, TopicConfig] | None, groups: dict[str, SubscriptionGroupConfig] | None
) -> None:
    """Drop, with a warning each, the entries whose name no request may carry (a group named ``""``
    that a Java broker keeps): no tool could create them from the file (Java exports them anyway)."""
    from mqadmin.admin.tablenames import askable_groups, askable_topics

    for table, split in ((topics, askable_topics), (groups, askable_groups)):
        if table is None:
            continue
        _, skipped = split(list(table))
        for name in skipped:
            inv.warn(name.note())
            del table[name.name]


@java_command(
    "exportMetadata",
    [
        JavaOpt("c", "clusterName", "choose a cluster to export", dest="cluster_name"),
        JavaOpt("b", "brokerAddr", "choose a broker to export", dest="broker_addr"),
        JavaOpt(
            "f", "filePath", "export metadata.json path | default /tmp/rocketmq/export", dest="file_path"
        ),
        JavaOpt("t", "topic", "only export topic metadata", has_arg=False),
        JavaOpt(
            "g", "subscriptionGroup", "only export subscriptionGroup metadata", has_arg=False, dest="group"
        ),
        JavaOpt("s", "specialTopic", "need retryTopic and dlqTopic", has_arg=False, dest="special"),
    ],
    fanout=True,
    json_doc='{"path": str, "topics": int?, "groups": int?, "brokers": [str], "errors": [...]?} (how many '
    "topics and groups the file holds, and the brokers they came from)",
    epilog="With -b, one of -t (topic.json) or -g (subscriptionGroup.json); with -c, metadata.json "
    "holds both unless -t or -g narrows it. Retry and DLQ topics only with -s. A topic or group whose "
    'name no tool could create again (a group named "" that a Java broker keeps) is left out, with '
    "a warning.",
    blocking=False,  # asks each broker's tables at once on the loop
)
async def export_metadata(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    file_path: str | None,
    topic: bool,
    group: bool,
    special: bool,
) -> None:
    admin = inv.admin
    directory = _dir(file_path)
    if broker_addr is not None:
        addr = broker_addr.strip()
        if topic:
            path = directory + "/topic.json"
            wrapper = await admin.topics.get_user_topic_config(addr, special)
            table = wrapper.topic_config_table or {}
            _askable_tables(inv, table, None)
            _write(
                path,
                Bean(
                    dataVersion=data_version_bean(wrapper.data_version),
                    topicConfigTable={k: topic_config_bean(v) for k, v in table.items()},
                ),
            )
            data = {"path": path, "topics": len(table), "brokers": [addr]}
        elif group:
            path = directory + "/subscriptionGroup.json"
            groups = await admin.groups.get_user_subscription_group(addr)
            gtable = groups.subscription_group_table or {}
            _askable_tables(inv, None, gtable)
            ordered = {k: group_bean(gtable[k]) for k in concurrent_hash_order(list(gtable))}
            _write(
                path,
                Bean(dataVersion=data_version_bean(groups.data_version), subscriptionGroupTable=ordered),
            )
            data = {"path": path, "groups": len(gtable), "brokers": [addr]}
        else:
            raise CommandError("with -b, give -t to export topics or -g to export groups", ExitCode.USAGE)
        inv.out.emit(Plain(data, f"export {path} success"))
        return
    if cluster_name is None:
        raise CommandError("give the cluster with -c NAME or the broker with -b ADDR", ExitCode.USAGE)

    masters = await admin.brokers.fetch_master_addrs(cluster_name.strip())

    async def both(addr: str) -> tuple[Any, Any]:
        return await asyncio.gather(
            admin.topics.get_user_topic_config(addr, special), admin.groups.get_user_subscription_group(addr)
        )

    result = await admin.core.fan_out(masters, both, deadline=inv.deadline)
    # a master that did not answer is left out of the file, named on stderr and in "brokers" (exit 6)
    answered, _ = inv.tally(result)
    if result.all_failed:
        return
    topics: dict[str, TopicConfig] = {}
    groups_merged: dict[str, SubscriptionGroupConfig] = {}
    for addr in answered:
        wrapper, gw = result.results[addr]
        for name, tc in (wrapper.topic_config_table or {}).items():
            prev = topics.get(name)
            if prev is not None:
                tc.write_queue_nums += prev.write_queue_nums
                tc.read_queue_nums += prev.read_queue_nums
            topics[name] = tc
        gtable = gw.subscription_group_table or {}
        for name in concurrent_hash_order(list(gtable)):
            cfg = gtable[name]
            prev_g = groups_merged.get(name)
            if prev_g is not None:
                cfg.retry_queue_nums += prev_g.retry_queue_nums
            groups_merged[name] = cfg
    _askable_tables(inv, topics, groups_merged)
    content: dict[str, Any] = {}
    data = {"brokers": list(answered)}
    if topic:
        content["topicConfigTable"] = {k: topic_config_bean(topics[k]) for k in java_hash_order(list(topics))}
        path = directory + "/topic.json"
        data["topics"] = len(topics)
    elif group:
        content["subscriptionGroupTable"] = {
            k: group_bean(groups_merged[k]) for k in java_hash_order(list(groups_merged))
        }
        path = directory + "/subscriptionGroup.json"
        data["groups"] = len(groups_merged)
    else:
        content["topicConfigTable"] = {k: topic_config_bean(topics[k]) for k in java_hash_order(list(topics))}
        content["subscriptionGroupTable"] = {
            k: group_bean(groups_merged[k]) for k in java_hash_order(list(groups_merged))
        }
        path = directory + "/metadata.json"
        data["topics"] = len(topics)
        data["groups"] = len(groups_merged)
    content["exportTime"] = int(time.time() * 1000)
    _write(path, java_hash_dict(content))
    inv.out.emit(Plain({"path": path, **data}, f"export {path} success\n", inv.error_list()))


# ------------------------------------------------------------------------------------- exportConfigs

_CONFIG_KEYS = (
    "brokerClusterName",
    "brokerId",
    "brokerName",
    "brokerRole",
    "fileReservedTime",
    "filterServerNums",
    "flushDiskType",
    "maxMessageSize",
    "messageDelayLevel",
    "msgTraceTopicName",
    "slaveReadEnable",
    "traceOn",
    "traceTopicEnable",
    "useTLS",
    "autoCreateTopicEnable",
    "autoCreateSubscriptionGroup",
)
"""The broker settings ``exportConfigs`` keeps, in the order it copies them."""


def _cluster_opt(enforced: bool = True) -> JavaOpt:
    return JavaOpt(
        "c",
        "clusterName",
        "choose a cluster to export",
        required=True,
        dest="cluster_name",
        enforced=enforced,
    )


_CLUSTER_OPT = _cluster_opt()


@java_command(
    "exportConfigs",
    [
        _CLUSTER_OPT,
        JavaOpt("f", "filePath", "export configs.json path | default /tmp/rocketmq/export", dest="file_path"),
    ],
    fanout=True,
    json_doc='{"path": str, "clusterScale": {"namesrvSize": int, "masterBrokerSize": int, '
    '"slaveBrokerSize": int}, "brokers": [str] (the masters whose configs are in the file), '
    '"errors": [...]?}',
)
async def export_configs(inv: Invocation, cluster_name: str, file_path: str | None) -> None:
    from mqadmin.admin.brokers import NO_MASTER

    admin = inv.admin
    path = _dir(file_path) + "/configs.json"
    groups = await admin.brokers.fetch_master_slave_map(cluster_name.strip())
    masters = [m for m in groups if m != NO_MASTER]
    if NO_MASTER in groups:
        inv.warn("broker groups without a master are left out")
    result = await admin.core.fan_out(masters, admin.brokers.get_broker_config, deadline=inv.deadline)
    answered, _ = inv.tally(result)  # a broker that did not answer is left out of the file: exit 6
    if result.all_failed:
        return
    broker_configs: dict[str, dict[str, str]] = {}
    slave_size = 0
    for master in answered:
        props = result.results[master]
        slave_size += len(groups[master])
        subset = [k for k in _CONFIG_KEYS if props.get(k) is not None]
        broker_configs[props.get("brokerName", "null")] = {k: props[k] for k in properties_order(subset)}
    scale = {
        "namesrvSize": len(admin.core.namesrv_addrs),
        "masterBrokerSize": len(masters),
        "slaveBrokerSize": slave_size,
    }
    _write(
        path,
        java_hash_dict(
            {"brokerConfigs": java_hash_dict(broker_configs), "clusterScale": java_hash_dict(scale)}
        ),
    )
    doc = {"path": path, "clusterScale": scale, "brokers": list(answered)}
    inv.out.emit(Plain(doc, f"export {path} success", inv.error_list()))


# ------------------------------------------------------------------------------------- exportMetrics


def _first_double(value: str | None) -> float:
    """``Double.parseDouble(value.split(" ")[0])`` of a TPS field (0.0 when the broker lacks it)."""
    if not value:
        return 0.0
    try:
        return float(value.split(" ")[0])
    except ValueError:
        return 0.0


def _long(table: dict[str, str], key: str) -> int:
    try:
        return int(table.get(key) or 0)
    except ValueError:
        return 0


def _day_sum(stats: dict[str, Any] | None) -> int:
    """``StatsAllSubCommand.compute24HourSum``: the day's sum, else the hour's, else the minute's."""
    if stats is None:
        return 0
    for window in ("statsDay", "statsHour"):
        s = int((stats.get(window) or {}).get("sum") or 0)
        if s != 0:
            return s
    return int((stats.get("statsMinute") or {}).get("sum") or 0)


def _minute_tps(stats: dict[str, Any] | None) -> float:
    if stats is None:
        return 0.0
    return float((stats.get("statsMinute") or {}).get("tps") or 0.0)


async def _broker_metrics(admin: MQAdmin, addr: str) -> dict[str, Any]:
    """What ``exportMetrics`` gathers from one master (runtimeEnv, runtimeQuota, runtimeVersion)."""
    table, props, groups, topics, trans, schedule = await asyncio.gather(
        admin.broker.fetch_broker_runtime_stats(addr),
        admin.brokers.get_broker_config(addr),
        admin.groups.get_user_subscription_group(addr),
        admin.topics.get_user_topic_config(addr, False),
        admin.brokers.view_broker_stats_data(addr, "TOPIC_PUT_NUMS", "RMQ_SYS_TRANS_HALF_TOPIC"),
        admin.brokers.view_broker_stats_data(addr, "TOPIC_PUT_NUMS", "SCHEDULE_TOPIC_XXXX"),
    )
    # 5.x brokers spell it getTransferredTps, 4.x getTransferedTps (the Java 5.3.3 tool fails there)
    out_tps_text = table.get("getTransferredTps", table.get("getTransferedTps"))
    tps = {
        "normalInTps": _first_double(table.get("putTps")),
        "normalOutTps": _first_double(out_tps_text),
        "transInTps": _minute_tps(trans),
        "scheduleInTps": _minute_tps(schedule),
    }
    one_day = {
        "normalOneDayInNum": _long(table, "msgPutTotalTodayMorning")
        - _long(table, "msgPutTotalYesterdayMorning"),
        "normalOneDayOutNum": _long(table, "msgGetTotalTodayMorning")
        - _long(table, "msgGetTotalYesterdayMorning"),
        "transOneDayInNum": _day_sum(trans),
        "scheduleOneDayInNum": _day_sum(schedule),
    }
    group_names = [g.group_name or k for k, g in (groups.subscription_group_table or {}).items()]
    versions = await asyncio.gather(
        *(admin.brokers.fetch_consumer_client_versions(g) for g in group_names), return_exceptions=True
    )
    from mqadmin.protocol.version import version_name

    client_info: list[str] = []
    for found in versions:
        if isinstance(found, BaseException):
            continue  # Java skips groups without an online consumer
        client_info.extend(f"{lang}%{version_name(v)}" for lang, v in found)
    quota = {
        "diskRatio": java_hash_dict(
            {
                "commitLogDiskRatio": table.get("commitLogDiskRatio"),
                "consumeQueueDiskRatio": table.get("consumeQueueDiskRatio"),
            }
        ),
        "tps": java_hash_dict(tps),
        "oneDayNum": java_hash_dict(one_day),
        "messageAverageSize": table.get("putMessageAverageSize"),
        "topicSize": len(topics.topic_config_table or {}),
        "groupSize": len(groups.subscription_group_table or {}),
    }
    env = {
        "cpuNum": props.get("clientCallbackExecutorThreads"),
        "totalMemKBytes": table.get("totalMemKBytes"),
    }
    version = {"rocketmqVersion": TOOL_VERSION, "clientInfo": JavaSet(java_hash_order(client_info))}
    return {
        "report": java_hash_dict(
            {
                "runtimeEnv": java_hash_dict(env),
                "runtimeQuota": java_hash_dict(quota),
                "runtimeVersion": java_hash_dict(version),
            }
        ),
        "tps": tps,
        "oneDay": one_day,
    }


_FORMAT = click.Option(
    ["--format", "metrics_format"],
    type=click.Choice(["json", "prometheus"]),
    default="json",
    help="json: Java's metrics.json (the default). prometheus: one scrape in the Prometheus text format "
    "(names by --metrics-names), on stdout (or as metrics.prom under -f); without -c, every cluster.",
)
_NAMES = click.Option(
    ["--metrics-names", "metrics_names"],
    type=click.Choice(["exporter", "ours", "both"]),
    default="exporter",
    help="Metric names of --format prometheus and --listen: exporter (the default) those of "
    "apache/rocketmq-exporter, so its Grafana dashboards and alert rules work unchanged; ours; or both. "
    "rocketmq_broker_up, rocketmq_namesrv_up, rocketmq_consumer_lag, rocketmq_scrape_duration_seconds and "
    "rocketmq_exporter_build_info are always there.",
)
_SCRAPE_TIMEOUT = click.Option(
    ["--scrape-timeout", "scrape_timeout"],
    type=click.FloatRange(min=0.1, max=600),
    default=10.0,
    metavar="SECONDS",
    help="Seconds a scrape may take when the scraper does not say (Prometheus sends "
    "X-Prometheus-Scrape-Timeout-Seconds; a margin is kept from it); a master not answered by then is "
    "rocketmq_broker_up 0. Default 10; --format prometheus uses --deadline when given.",
)


def _listen_address(ctx: click.Context, param: click.Parameter, text: str | None) -> tuple[str, int] | None:
    """``[HOST:]PORT`` (``[::1]:9100`` for IPv6) as (host, port); a usage error otherwise."""
    if text is None:
        return None
    host, sep, port_text = text.strip().rpartition(":")
    host = host.strip("[]") if sep else "127.0.0.1"
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise click.BadParameter(f"not a [HOST:]PORT: {text!r}", ctx, param)
    return host, int(port_text)


_LISTEN = click.Option(
    ["--listen", "listen"],
    metavar="[HOST:]PORT",
    default=None,
    callback=_listen_address,
    help="Serve /metrics in the Prometheus format on HOST:PORT (default host 127.0.0.1), asking every "
    "master of the cluster (of every cluster without -c) on each scrape, until SIGINT or SIGTERM; "
    "/-/healthy answers without asking. Without --web-config there is no authentication: on 0.0.0.0 or "
    "another non-loopback address, anyone who can reach the port reads the cluster's broker addresses, "
    "topics, groups and lag.",
)
_CACHE_INTERVAL = click.Option(
    ["--cache-interval", "cache_interval"],
    type=click.FloatRange(min=0.5, max=3600),
    default=None,
    metavar="SECONDS",
    help="With --listen: ask the cluster once every SECONDS in the background (each sample within "
    "--scrape-timeout or SECONDS, the smaller) and answer every scrape at once with the newest complete "
    "sample, so several Prometheus servers scraping one exporter cost one collection per interval. The "
    "page is then up to one interval old; a master that stops answering is rocketmq_broker_up 0 in the "
    "first sample started after it stopped (on the page within two intervals). Default: a new sample "
    "per scrape.",
)
_WEB_CONFIG = click.Option(
    ["--web-config", "web_config"],
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="With --listen: TLS and basic auth from FILE, in the format of Prometheus' exporter-toolkit "
    "(node_exporter's --web.config.file): tls_server_config (cert_file, key_file, client_auth_type, "
    "client_ca_file, min_version, max_version; paths relative to FILE) and basic_auth_users (user: "
    "bcrypt hash). Read once at start; another key is refused.",
)


_DOCTOR_INTERVAL = click.Option(
    ["--doctor-interval", "doctor_interval"],
    type=click.FloatRange(min=5, max=86400),
    default=None,
    metavar="SECONDS",
    help="With --listen: run mqadmin doctor's checks every SECONDS in the background and give the newest "
    "run's findings on every page: rocketmq_doctor_findings (check, severity), rocketmq_doctor_finding "
    "(check, severity, resource), rocketmq_doctor_check_up (check) and "
    "rocketmq_doctor_last_run_timestamp_seconds.",
)


@java_command(
    "exportMetrics",
    [
        _cluster_opt(enforced=False),  # Java's -c is required; here only for metrics.json
        JavaOpt("f", "filePath", "export metrics.json path | default /tmp/rocketmq/export", dest="file_path"),
    ],
    fanout=True,
    json_doc='{"path": str, "brokers": [str], "totalTps": {"totalNormalInTps": num, '
    '"totalNormalOutTps": num, "totalTransInTps": num, "totalScheduleInTps": num}, '
    '"totalOneDayNum": {"normalOneDayInNum": int, '
    '"normalOneDayOutNum": int, "transOneDayInNum": int, "scheduleOneDayInNum": int}} '
    "(with --format prometheus: the exposition text itself, or "
    '{"path": str} when written under -f)',
    epilog="--format prometheus and --listen give the metric names, labels and values of "
    "apache/rocketmq-exporter (rocketmq_group_diff, rocketmq_broker_tps, rocketmq_brokeruntime_*, ...; "
    "see the README's Monitoring section), or ours with --metrics-names ours: rocketmq_broker_put_tps, "
    "rocketmq_broker_get_tps, rocketmq_broker_commitlog_disk_ratio, "
    "rocketmq_broker_consumequeue_disk_ratio, rocketmq_broker_messages_put_today, "
    "rocketmq_broker_messages_got_today, rocketmq_broker_commitlog_max_offset (labels cluster, broker, "
    "addr), rocketmq_consumer_last_timestamp_seconds (cluster, broker, group, topic, queue_id), "
    "rocketmq_consumer_group_lag (cluster, group, topic), rocketmq_consumer_tps (cluster, broker, group, "
    "topic). Always: rocketmq_broker_up (cluster, broker, addr), rocketmq_namesrv_up, "
    "rocketmq_consumer_lag (cluster, broker, group, topic, queue_id), rocketmq_scrape_duration_seconds, "
    "rocketmq_exporter_build_info, and rocketmq_exporter_target_error (cluster, broker, addr, reason: "
    "timeout, refused, auth or protocol) for each target not read; --listen says on stderr each time a "
    "target goes down (and why) or comes back. A master that does not answer within the deadline is "
    "rocketmq_broker_up 0 with its other series absent; --format prometheus then still prints the page "
    "and exits 6. It exits 7 when -c names a cluster the name server does not know (a cluster whose "
    "last broker left is gone), and 4 or 5 when the name server cannot be reached or does not answer "
    "(the page, with rocketmq_namesrv_up 0, is still printed). --listen answers 200 with such a page "
    "on every scrape, within the scrape's deadline.",
    own=[_FORMAT, _LISTEN, _NAMES, _SCRAPE_TIMEOUT, _CACHE_INTERVAL, _WEB_CONFIG, _DOCTOR_INTERVAL],
    blocking=False,  # a scrape asks every broker at once; --listen serves
)
async def export_metrics(
    inv: Invocation,
    cluster_name: str | None,
    file_path: str | None,
    metrics_format: str,
    listen: tuple[str, int] | None,
    metrics_names: str,
    scrape_timeout: float,
    cache_interval: float | None,
    web_config: str | None,
    doctor_interval: float | None,
) -> None:
    wanted = cluster_name.strip() if cluster_name is not None else None
    if listen is not None:
        await _serve_metrics(
            inv, wanted, listen, metrics_names, scrape_timeout, cache_interval, web_config, doctor_interval
        )
        return
    if cache_interval is not None or web_config is not None or doctor_interval is not None:
        from mqadmin.cli.errors import usage_error

        raise usage_error("--cache-interval, --web-config and --doctor-interval go with --listen")
    if metrics_format == "prometheus":
        await _prometheus_once(inv, wanted, file_path, metrics_names, scrape_timeout)
        return
    if wanted is None:  # -c is optional for the Prometheus page only
        from mqadmin.cli.errors import usage_error

        raise usage_error("Missing option '-c' / '--clusterName' / '-clusterName'")
    cluster = wanted
    admin = inv.admin
    path = _dir(file_path) + "/metrics.json"
    info = await admin.namesrv.examine_broker_cluster_info()
    names = (info.cluster_addr_table or {}).get(cluster)
    if names is None:
        from mqadmin.admin.brokers import ClusterNotFoundError

        raise ClusterNotFoundError(cluster)
    masters: dict[str, str] = {}
    for name in java_hash_order(names):
        bd = (info.broker_addr_table or {}).get(name)
        if bd is None:
            continue
        addr = (bd.broker_addrs or {}).get(0)
        if addr is None:
            inv.warn(f"broker {name} has no master; left out")
            continue
        masters[name] = addr
    result = await admin.core.fan_out(
        list(masters),
        lambda n: _broker_metrics(admin, masters[n]),
        deadline=inv.deadline,
        addr_of=lambda n: masters[n],
    )
    for name in result.order:  # a master that did not answer is left out of the file (exit 6)
        if name in result.errors:
            inv.report(result.errors[name])
    if result.all_failed:
        return
    inv.any_success = True
    total_tps = {
        "totalNormalInTps": 0.0,
        "totalNormalOutTps": 0.0,
        "totalTransInTps": 0.0,
        "totalScheduleInTps": 0.0,
    }
    total_day = {
        "normalOneDayInNum": 0,
        "normalOneDayOutNum": 0,
        "transOneDayInNum": 0,
        "scheduleOneDayInNum": 0,
    }
    report: dict[str, Any] = {}
    for name in (n for n in masters if n in result.results):
        got = result.results[name]
        report[name] = got["report"]
        for key, src in (
            ("totalNormalInTps", "normalInTps"),
            ("totalNormalOutTps", "normalOutTps"),
            ("totalTransInTps", "transInTps"),
            ("totalScheduleInTps", "scheduleInTps"),
        ):
            total_tps[key] += got["tps"][src]
        for key in total_day:
            total_day[key] += got["oneDay"][key]
    content = java_hash_dict(
        {
            "evaluateReport": java_hash_dict(report),
            "totalData": java_hash_dict(
                {"totalTps": java_hash_dict(total_tps), "totalOneDayNum": java_hash_dict(total_day)}
            ),
        }
    )
    _write(path, content)
    data = {
        "path": path,
        "brokers": [masters[n] for n in masters if n in result.results],
        "totalTps": total_tps,
        "totalOneDayNum": total_day,
    }
    inv.out.emit(Plain(data, f"export {path} success", inv.error_list()))


async def _prometheus_once(
    inv: Invocation, cluster: str | None, file_path: str | None, names: str, scrape_timeout: float
) -> None:
    from mqadmin.exporter.collect import scrape
    from mqadmin.exporter.server import exposition

    budget = inv.common.deadline if inv.common.deadline is not None else scrape_timeout
    sample = await scrape(inv.admin, cluster, budget, full=names != "ours")
    if sample.cluster_missing is not None:
        raise CommandError(
            f"cluster {cluster!r} not found: the name server knows no broker of it ('mqadmin clusterList' "
            "lists the clusters)",
            ExitCode.NOT_FOUND,
        )
    for exc in sample.errors:
        inv.report(exc)
    inv.any_success = sample.namesrv_up  # a master down is partial (6); the name server down is not
    text = exposition(sample, names)
    if file_path is None:
        inv.out.raw(text)
        return
    path = _dir(file_path) + "/metrics.prom"
    try:
        write_atomic(path, text)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    inv.out.emit(Plain({"path": path}, f"export {path} success"))


async def _serve_metrics(
    inv: Invocation,
    cluster: str | None,
    listen: tuple[str, int],
    names: str,
    scrape_timeout: float,
    cache_interval: float | None,
    web_config: str | None,
    doctor_interval: float | None,
) -> None:
    import signal

    from mqadmin.exporter.cache import SampleCache
    from mqadmin.exporter.collect import Scrape, scrape
    from mqadmin.exporter.doctor import DoctorRunner
    from mqadmin.exporter.server import serve
    from mqadmin.exporter.targets import TargetStates
    from mqadmin.exporter.webconfig import WebConfigError, load_web_config

    host, port = listen
    admin = inv.admin
    try:
        web = load_web_config(web_config) if web_config is not None else None
    except WebConfigError as e:
        raise CommandError(f"--web-config {e}") from None

    states = TargetStates(lambda line: click.echo(line, err=True), ";".join(admin.core.namesrv_addrs))

    async def take(budget: float) -> Scrape:  # on this loop, with this command's admin client
        sample = await scrape(admin, cluster, budget, full=names != "ours")
        states.update(sample)  # a line on stderr when a target goes down (and why) or comes back
        return sample

    cache = SampleCache(take, cache_interval, scrape_timeout) if cache_interval is not None else None
    doctor = DoctorRunner(admin, cluster, doctor_interval) if doctor_interval is not None else None
    try:
        server = await serve(
            host,
            port,
            cache.take if cache is not None else take,
            names=names,
            scrape_timeout=scrape_timeout,
            web=web,
            extra=doctor.families if doctor is not None else None,
        )
    except OSError as e:
        raise CommandError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    if cache is not None:
        cache.start()
    if doctor is not None:
        doctor.start()
    scheme = "https" if web is not None and web.tls is not None else "http"
    click.echo(f"mqadmin exportMetrics: serving {scheme}://{host}:{port}/metrics", err=True)
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, done.set)
    try:
        await done.wait()
    finally:
        if cache is not None:
            await cache.stop()
        if doctor is not None:
            await doctor.stop()
        await server.stop()
    inv.any_success = True
