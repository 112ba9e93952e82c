"""Every command the CLI offers, by name: where it lives, its family and its one-line description.

Listing commands (``mqadmin --help``) reads only this table; a command's module is imported when
that command runs, so ``mqadmin topicRoute`` pays for nothing else. Java commands keep the Java
name and the Java 5.3.3 description (``commandDesc()``), and are listed here only once they work.

This table is the one place a command's name, module, family and summary are stated: a command
module defines the command under its registered name (``@java_command`` takes the description from
here) and :func:`define` files it in :data:`DEFINED`, where :func:`mqadmin.cli.main.load_command`
finds it once the module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar


class _Named(Protocol):
    @property
    def name(self) -> str | None: ...


_C = TypeVar("_C", bound=_Named)

__all__ = [
    "BY_LOWER_NAME",
    "BY_NAME",
    "COMMANDS",
    "DEFINED",
    "FAMILIES",
    "FAMILY_TITLES",
    "CommandEntry",
    "define",
    "defined",
    "lookup",
]


@dataclass(slots=True, frozen=True)
class CommandEntry:
    """One command: ``module`` is its dotted path under mqadmin.cli.commands; ``java`` says it is a
    sub-command of the Java ``mqadmin`` (same name, options and output)."""

    name: str
    module: str
    family: str
    summary: str
    java: bool = True


FAMILY_TITLES: dict[str, str] = {
    "topic": "Topic commands",
    "cluster": "Cluster commands",
    "broker": "Broker commands",
    "consumer": "Consumer commands",
    "producer": "Producer commands",
    "message": "Message commands",
    "connection": "Connection commands",
    "offset": "Offset commands",
    "namesrv": "Name server commands",
    "stats": "Statistics commands",
    "export": "Export commands",
    "analytics": "Analytics commands (pip install 'mqadmin[spark]')",
    "acl": "ACL commands",
    "controller": "Controller and HA commands",
    "server": "Servers to run locally",
    "tools": "mqadmin's own commands",
}
FAMILIES: tuple[str, ...] = tuple(FAMILY_TITLES)

COMMANDS: tuple[CommandEntry, ...] = (
    # topic (Java registration order)
    CommandEntry("topicRoute", "topic_route", "topic", "Examine topic route info."),
    CommandEntry("topicClusterList", "topic", "topic", "Get cluster info for topic."),
    CommandEntry("topicList", "topic", "topic", "Fetch all topic list from name server."),
    CommandEntry("allocateMQ", "topic", "topic", "Allocate MQ."),
    # topics, brokers and exports answered by brokers (Java registration order)
    CommandEntry("updateTopic", "topic_admin", "topic", "Update or create topic."),
    CommandEntry("updateTopicList", "topic_admin", "topic", "create or update topic in batch"),
    CommandEntry("deleteTopic", "topic_admin", "topic", "Delete topic from broker and NameServer."),
    CommandEntry("updateTopicPerm", "topic_admin", "topic", "Update topic perm."),
    CommandEntry("topicStatus", "topic_admin", "topic", "Examine topic Status info."),
    CommandEntry("updateOrderConf", "topic_admin", "topic", "Create or update or delete order conf."),
    CommandEntry("updateBrokerConfig", "broker_admin", "broker", "Update broker's config."),
    CommandEntry("brokerStatus", "broker_info", "broker", "Fetch broker runtime status data."),
    CommandEntry("cleanExpiredCQ", "broker_admin", "broker", "Clean expired ConsumeQueue on broker."),
    CommandEntry("deleteExpiredCommitLog", "broker_admin", "broker", "Delete expired CommitLog files."),
    CommandEntry("cleanUnusedTopic", "broker_admin", "broker", "Clean unused topic on broker."),
    CommandEntry(
        "getBrokerConfig", "broker_info", "broker", "Get broker config by cluster or special broker."
    ),
    CommandEntry("exportMetadata", "export", "export", "Export metadata."),
    CommandEntry("exportConfigs", "export", "export", "Export configs."),
    CommandEntry("exportMetrics", "export", "export", "Export metrics."),
    # groups, consumers, producers, offsets and stats answered by brokers (Java registration order)
    CommandEntry("updateSubGroup", "group_admin", "consumer", "Update or create subscription group."),
    CommandEntry(
        "updateSubGroupList", "group_admin", "consumer", "Update or create subscription group in batch"
    ),
    CommandEntry("deleteSubGroup", "group_admin", "consumer", "Delete subscription group from broker."),
    CommandEntry("brokerConsumeStats", "stats_admin", "broker", "Fetch broker consume stats data."),
    CommandEntry(
        "producerConnection",
        "producer_admin",
        "connection",
        "Query producer's socket connection and client version.",
    ),
    CommandEntry(
        "consumerConnection",
        "consumer_status",
        "connection",
        "Query consumer's socket connection, client version and subscription.",
    ),
    CommandEntry("consumerProgress", "consumer_progress", "consumer", "Query consumer's progress, speed."),
    CommandEntry(
        "consumerStatus", "consumer_status", "consumer", "Query consumer's internal data structure."
    ),
    CommandEntry("cloneGroupOffset", "offset_admin", "offset", "Clone offset from other group."),
    CommandEntry(
        "producer", "producer_admin", "producer", "Query producer's instances, connection, status, etc."
    ),
    CommandEntry(
        "resetOffsetByTime",
        "offset_admin",
        "offset",
        "Reset consumer offset by timestamp(without client restart).",
    ),
    CommandEntry(
        "skipAccumulatedMessage",
        "offset_admin",
        "offset",
        "Skip all messages that are accumulated (not consumed) currently.",
    ),
    CommandEntry("statsAll", "stats_admin", "stats", "Topic and Consumer tps stats."),
    CommandEntry(
        "getConsumerConfig", "group_admin", "consumer", "Get consumer config by subscription group name."
    ),
    CommandEntry("queryCq", "offset_admin", "offset", "Query cq command."),
    CommandEntry(
        "resetOffsets",
        "reset_offsets",
        "offset",
        "Reset a group's offsets as kafka-consumer-groups: a plan per queue, applied with --execute.",
        False,
    ),
    CommandEntry(
        "consumer", "consumer_status", "consumer", "Query consumer's connection, status, etc.", False
    ),
    # cluster
    CommandEntry("clusterList", "cluster", "cluster", "List cluster infos."),
    # a cluster as code (ours)
    CommandEntry(
        "manifest", "manifest", "cluster", "Print a cluster's topics, groups and access as a manifest.", False
    ),
    CommandEntry("diff", "manifest", "cluster", "Show what applying manifests would change (exit 1).", False),
    CommandEntry("apply", "manifest", "cluster", "Make a cluster what its manifests declare.", False),
    CommandEntry(
        "doctor", "doctor", "cluster", "Check a cluster's health: findings, why, and what to run.", False
    ),
    # messages (Java registration order), and the two probes that send messages
    CommandEntry("queryMsgById", "message", "message", "Query Message by Id."),
    CommandEntry("queryMsgByKey", "message", "message", "Query Message by Key."),
    CommandEntry("queryMsgByUniqueKey", "message", "message", "Query Message by Unique key."),
    CommandEntry("queryMsgByOffset", "message", "message", "Query Message by offset."),
    CommandEntry("queryMsgTraceById", "message", "message", "Query a message trace."),
    CommandEntry("printMsg", "message_print", "message", "Print Message Detail."),
    CommandEntry("printMsgByQueue", "message_print", "message", "Print Message Detail by queueId."),
    CommandEntry("sendMsgStatus", "message_send", "broker", "Send msg to broker."),
    CommandEntry("checkMsgSendRT", "message_send", "message", "Check message send response time."),
    CommandEntry("clusterRT", "cluster_rt", "cluster", "List All clusters Message Send RT."),
    CommandEntry("sendMessage", "message_send", "message", "Send a message."),
    CommandEntry("consumeMessage", "message_print", "message", "Consume message."),
    CommandEntry(
        "consume", "consume", "message", "Read a topic as kcat -C: a format per message, --follow.", False
    ),
    CommandEntry(
        "produce", "produce", "message", "Send messages from stdin or a file, one a line (kcat -P).", False
    ),
    CommandEntry(
        "decodeMessageId",
        "message",
        "message",
        "Decode message ids: an offset id to its store host and commit-log offset, a unique key to the "
        "producer's ip, pid, time and counter.",
        False,
    ),
    # ACL 2.0 users and policies (5.3.3)
    CommandEntry("createUser", "auth_admin", "acl", "Create user to cluster."),
    CommandEntry("updateUser", "auth_admin", "acl", "Update user to cluster."),
    CommandEntry("deleteUser", "auth_admin", "acl", "Delete user from cluster."),
    CommandEntry("getUser", "auth_admin", "acl", "Get user from cluster."),
    CommandEntry("listUser", "auth_admin", "acl", "List user from cluster."),
    CommandEntry("copyUser", "auth_admin", "acl", "Copy user to cluster."),
    CommandEntry("createAcl", "auth_acl", "acl", "Create acl to cluster."),
    CommandEntry("updateAcl", "auth_acl", "acl", "Update acl to cluster."),
    CommandEntry("deleteAcl", "auth_acl", "acl", "Delete acl from cluster."),
    CommandEntry("getAcl", "auth_acl", "acl", "Get acl from cluster."),
    CommandEntry("listAcl", "auth_acl", "acl", "List acl from cluster."),
    CommandEntry("copyAcl", "auth_acl", "acl", "Copy acl to cluster."),
    # ACL 1.0 (4.9.8)
    CommandEntry("updateAclConfig", "acl_admin", "acl", "Update acl config yaml file in broker"),
    CommandEntry("deleteAclConfig", "acl_admin", "acl", "Delete Acl Config Account in broker"),
    CommandEntry(
        "clusterAclConfigVersion", "acl_admin", "acl", "List all of acl config version information in cluster"
    ),
    CommandEntry(
        "updateGlobalWhiteAddr",
        "acl_admin",
        "acl",
        "Update global white address for acl Config File in broker",
    ),
    # controller and HA (5.3.3)
    CommandEntry("haStatus", "controller_admin", "controller", "Fetch ha runtime status data."),
    CommandEntry(
        "getSyncStateSet", "controller_admin", "controller", "Fetch syncStateSet for target brokers."
    ),
    CommandEntry("getBrokerEpoch", "controller_admin", "controller", "Fetch broker epoch entries."),
    CommandEntry(
        "getControllerMetaData", "controller_admin", "controller", "Get controller cluster's metadata."
    ),
    CommandEntry("getControllerConfig", "controller_admin", "controller", "Get controller config."),
    CommandEntry("updateControllerConfig", "controller_admin", "controller", "Update controller config."),
    CommandEntry("electMaster", "controller_admin", "controller", "Re-elect the specified broker as master."),
    CommandEntry(
        "cleanBrokerMetadata", "controller_admin", "controller", "Clean metadata of broker on controller."
    ),
    # static topics (5.3.3)
    CommandEntry(
        "updateStaticTopic",
        "static_topic_admin",
        "topic",
        "Update or create static topic, which has fixed number of queues.",
    ),
    CommandEntry("remappingStaticTopic", "static_topic_admin", "topic", "Remapping static topic."),
    # broker operations of 5.x: consume mode, brokers in a container, flush/read-ahead, pop records,
    # RocksDB, cold data, compaction log (5.3.3)
    CommandEntry("getColdDataFlowCtrInfo", "cold_data_admin", "broker", "Get cold data flow ctr info."),
    CommandEntry(
        "updateColdDataFlowCtrGroupConfig",
        "cold_data_admin",
        "broker",
        "Add or update cold data flow ctr group config.",
    ),
    CommandEntry(
        "removeColdDataFlowCtrGroupConfig",
        "cold_data_admin",
        "broker",
        "Remove consumer from cold ctr config.",
    ),
    CommandEntry("setConsumeMode", "broker_ops_admin", "consumer", "Set consume message mode. pull/pop etc."),
    CommandEntry("addBroker", "broker_ops_admin", "broker", "Add a broker to specified container."),
    CommandEntry("removeBroker", "broker_ops_admin", "broker", "Remove a broker from specified container."),
    CommandEntry(
        "resetMasterFlushOffset",
        "broker_ops_admin",
        "broker",
        "Reset master flush offset in slave.",
    ),
    CommandEntry(
        "setCommitLogReadAheadMode",
        "broker_ops_admin",
        "broker",
        "Set read ahead mode for all commitlog files.",
    ),
    CommandEntry("exportPopRecord", "broker_ops_admin", "export", "Export pop consumer record"),
    CommandEntry("startMonitoring", "broker_ops_monitor", "consumer", "Start Monitoring."),
    CommandEntry(
        "rocksDBConfigToJson",
        "broker_ops_rocksdb",
        "export",
        "Convert RocksDB kv config (topics/subscriptionGroups/consumerOffsets) to json. [rpc mode] Use "
        "[-n, -c, -b, -t] to send Request to broker ( version >= 5.3.2 ) or [local mode] use "
        "[-p, -t, -j, -e] to load RocksDB. If -e is provided, tools will export json file instead of "
        "std print",
    ),
    CommandEntry(
        "exportMetadataInRocksDB",
        "broker_ops_rocksdb",
        "export",
        "export RocksDB kv config (topics/subscriptionGroups). "
        "Recommend to use [mqadmin rocksDBConfigToJson]",
    ),
    CommandEntry(
        "checkRocksdbCqWriteProgress",
        "broker_ops_rocksdb",
        "offset",
        "check if rocksdb cq is same as file cq",
    ),
    CommandEntry("dumpCompactionLog", "broker_ops_compaction", "message", "Parse compaction log to message."),
    # name server
    CommandEntry("updateKvConfig", "namesrv_admin", "namesrv", "Create or update KV config."),
    CommandEntry("deleteKvConfig", "namesrv_admin", "namesrv", "Delete KV config."),
    CommandEntry(
        "wipeWritePerm",
        "namesrv_admin",
        "namesrv",
        "Wipe write perm of broker in all name server you defined in the -n param.",
    ),
    CommandEntry(
        "addWritePerm",
        "namesrv_admin",
        "namesrv",
        "Add write perm of broker in all name server you defined in the -n param.",
    ),
    CommandEntry("getNamesrvConfig", "namesrv_admin", "namesrv", "Get configs of name server."),
    CommandEntry("updateNamesrvConfig", "namesrv_admin", "namesrv", "Update configs of name server."),
    # servers
    CommandEntry("namesrv", "namesrv", "server", "Run the bundled name server.", False),
    CommandEntry("broker", "broker", "server", "Run the development broker (broker start).", False),
    # mqadmin's own
    CommandEntry(
        "context",
        "context",
        "tools",
        "Manage contexts: named name server, credential and TLS profiles.",
        False,
    ),
    CommandEntry("help", "help", "tools", "Print the help of a command, as 'mqadmin CMD -h'.", False),
    CommandEntry("schema", "schema", "tools", "Print the JSON Schema of a command's --json document.", False),
    CommandEntry("demo", "demo", "tools", "Run mqadmin on the embedded default (loopback only).", False),
    # analytics
    CommandEntry(
        "snapshot",
        "pipeline",
        "analytics",
        "Record offsets, consumer progress and broker stats as Parquet.",
        False,
    ),
    CommandEntry(
        "analyze",
        "pipeline",
        "analytics",
        "Analyze snapshots with Spark: lag, throughput, skew, idle, report.",
        False,
    ),
    CommandEntry(
        "export", "pipeline", "analytics", "Export a topic's messages with Spark (export messages).", False
    ),
)

BY_NAME: dict[str, CommandEntry] = {c.name: c for c in COMMANDS}
BY_LOWER_NAME: dict[str, CommandEntry] = {c.name.lower(): c for c in COMMANDS}


def lookup(name: str) -> CommandEntry | None:
    """The entry for ``name``; Java matches command names ignoring case, so do we."""
    return BY_NAME.get(name) or BY_LOWER_NAME.get(name.lower())


DEFINED: dict[str, object] = {}
"""The command objects (``click.Command``) of the command modules imported so far, by name."""


def define(cmd: _C) -> _C:
    """File a command module's command under its registered name (a decorator, or a call for commands
    made by a factory); a name the table above does not have is a programming error."""
    name = cmd.name or ""
    if name not in BY_NAME:
        raise LookupError(f"command {name!r} is not in mqadmin.cli.registry.COMMANDS")
    DEFINED[name] = cmd
    return cmd


def defined(entry: CommandEntry) -> object | None:
    """What the command module of ``entry`` defined under its name (a declaration or a click
    command), the module imported first: through the import statement's machinery, so that
    ``-X importtime`` sees it."""
    __import__(f"mqadmin.cli.commands.{entry.module}")
    return DEFINED.get(entry.name)
