"""RocksDB commands of 5.x: rocksDBConfigToJson, exportMetadataInRocksDB, checkRocksdbCqWriteProgress.

The request modes ask brokers (EXPORT_ROCKSDB_CONFIG_TO_JSON, CHECK_ROCKSDB_CQ_WRITE_PROGRESS) and
print what the Java 5.3.3 tool prints; unlike Java, ``-c`` addresses only the brokers of that cluster
(Java sends to every broker the name server knows, whatever its cluster). The local modes read a
broker's RocksDB config store, which needs a RocksDB binding; this installation has none, so a
path that exists is answered as Java answers a store it cannot open (``RocksDB load error, ...``)
and the exit code is 1. A path that does not exist gets Java's ``... path is invalid.`` and exit 1.
Nothing is ever written by these commands here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.optvalues import parse_long
from mqadmin.cli.registry import BY_NAME
from mqadmin.cli.results import Errors, Plain, Result, with_errors
from mqadmin.protocol import names

NO_BINDING = "this installation has no RocksDB binding to read it with"
INVALID_TYPE = "Invalid configType: {} please input topics/subscriptionGroups/consumerOffsets "


def _config_types(text: str | None) -> list[str]:
    """``-t`` as Java's ``ConfigType.fromString`` reads it; absent: every type."""
    from mqadmin.protocol.headers.broker_ops import CONFIG_TYPES, config_types

    if text is None:
        return list(CONFIG_TYPES)
    try:
        return config_types(text.strip())
    except ValueError:
        raise usage_error(INVALID_TYPE.format(text.strip()).rstrip()) from None


def _java_failure(inv: Invocation, java_text: str, why: str, code: ExitCode = ExitCode.NOT_FOUND) -> ExitCode:
    """A failure Java reports on stdout (and exits 0 after): its text on stdout, ``why`` on stderr,
    exit ``code``; in structured output, an error document."""
    if inv.out.structured:
        raise CommandError(why, code)
    inv.out.text(java_text)
    inv.warn(why)
    return code


def _local_path(text: str, option: str) -> str:
    """A path option checked before use: one line of text, no NUL."""
    path = text.strip()
    if "\0" in path or "\n" in path or "\r" in path:
        raise usage_error(f"{option} is not a usable path")
    return path


async def _cluster_masters(inv: Invocation, cluster: str) -> list[tuple[str, str]] | None:
    """(brokerName, master address) of the cluster's brokers in Java's order; None: no such cluster."""
    from mqadmin.protocol.bodies.route import MASTER_ID
    from mqadmin.protocol.javacoll import java_hash_order

    info = await inv.admin.namesrv.examine_broker_cluster_info()
    members = (info.cluster_addr_table or {}).get(cluster)
    if members is None:
        return None
    table = info.broker_addr_table or {}
    out: list[tuple[str, str]] = []
    for name in java_hash_order(list(table)):
        if name not in members:
            continue
        addr = (table[name].broker_addrs or {}).get(MASTER_ID)
        if addr is None:
            inv.warn(f"broker {name} has no master: skipped")
            continue
        out.append((name, addr))
    return out


# ----------------------------------------------------------------------------- rocksDBConfigToJson


@java_command(
    "rocksDBConfigToJson",
    [
        JavaOpt(
            "t",
            "configType",
            "Name of kv config, e.g. topics/subscriptionGroups/consumerOffsets. Required in local mode "
            "and default all in rpc mode.",
            dest="config_type",
        ),
        JavaOpt(
            "p", "configPath", "[local mode] Absolute path to the metadata config directory", dest="path"
        ),
        JavaOpt(
            "e",
            "exportFile",
            "[local mode] Absolute file path for exporting, auto backup existing file, not directory. If "
            "exportFile is provided, will export Json file and ignore [-j].",
            dest="export_file",
        ),
        JavaOpt(
            "j",
            "jsonEnable",
            "[local mode] Json format enable, Default: true. If exportFile is provided, will export Json "
            "file and ignore [-j].",
            dest="json_enable",
        ),
        JavaOpt(
            "n",
            "nameserverAddr",
            "[rpc mode] nameserverAddr. If nameserverAddr and clusterName are provided, will ignore "
            "[-p, -e, -j, -b] args",
            dest="namesrv",
        ),
        JavaOpt(
            "c",
            "cluster",
            "[rpc mode] Cluster name. If nameserverAddr and clusterName are provided, will ignore "
            "[-p, -e, -j, -b] args",
            dest="cluster",
        ),
        JavaOpt(
            "b",
            "brokerAddr",
            "[rpc mode] Broker address. If brokerAddr is provided, will ignore [-p, -e, -j] args",
            dest="broker_addr",
        ),
    ],
    fanout=True,
    json_doc='{"mode": "rpc", "configTypes": [str], "brokers": [{"brokerName": str?, "addr": str, '
    '"ok": bool, "error": str?}], "errors": [...]?} (local mode fails without a RocksDB binding)',
)
async def rocksdb_config_to_json(
    inv: Invocation,
    config_type: str | None,
    path: str | None,
    export_file: str | None,
    json_enable: str | None,
    cluster: str | None,
    broker_addr: str | None,
) -> ExitCode | None:
    types = _config_types(config_type)
    out = inv.out
    if inv.namesrv_given is not None:
        if cluster is None:
            raise usage_error("rpc mode Invalid args, please input cluster")
        name = cluster.strip()
        why = names.check_name("cluster", name)
        if why is not None:
            raise usage_error(why)
        head = "Use [rpc mode] call all brokers in cluster to export to json file \n"
        targets = await _cluster_masters(inv, name)
        if targets is None:
            return _java_failure(inv, head + "clusterAddrTable is empty", f"no cluster {name!r}")
        return await _export_rpc(inv, head, types, targets)
    if broker_addr is not None:
        head = "Use [rpc mode] call broker to export to json file \n"
        return await _export_rpc(inv, head, types, [(None, broker_addr.strip())])
    if path is not None:
        head = "Use [local mode] load rocksdb to print or export file \n"
        if config_type is None:
            raise usage_error("local mode Invalid args, please input configType")
        p = _local_path(path, "-p")
        if export_file is not None:
            _local_path(export_file, "-e")
        if not p or not os.path.exists(p):
            return _java_failure(inv, head + "Rocksdb path is invalid.\n", f"no such path: {p!r}")
        store = os.path.join(p, types[0])
        raise CommandError(f"cannot load the RocksDB at {store}: {NO_BINDING}")
    if out.structured:
        raise usage_error("give -n and -c, or -b (rpc mode), or -p and -t (local mode)")
    out.text(BY_NAME[inv.name].summary + "\n")
    return ExitCode.USAGE


async def _export_rpc(
    inv: Invocation, head: str, types: list[str], targets: Sequence[tuple[str | None, str]]
) -> ExitCode | None:
    admin = inv.admin
    addrs = [a for _, a in targets]
    done, rows = await inv.on_each(addrs, lambda a: admin.broker_ops.export_rocksdb_config_to_json(a, types))
    row_of = {r["addr"]: r for r in rows}
    brokers = [{**({"brokerName": n} if n else {}), **row_of[a]} for n, a in targets]
    text = head + ("broker export done." if len(done) == len(addrs) else "")
    data = {"mode": "rpc", "configTypes": types, "brokers": brokers}
    inv.out.emit(Plain(data, text, inv.error_list()))
    return None


# ------------------------------------------------------------------------- exportMetadataInRocksDB


@java_command(
    "exportMetadataInRocksDB",
    [
        JavaOpt("p", "path", "Absolute path for the metadata directory", required=True),
        JavaOpt(
            "t",
            "configType",
            "Name of kv config, e.g. topics/subscriptionGroups",
            required=True,
            dest="config_type",
        ),
        JavaOpt("j", "jsonEnable", "Json format enable, Default: false", dest="json_enable"),
    ],
    json_doc="(fails without a RocksDB binding: no JSON shape)",
)
async def export_metadata_in_rocksdb(
    inv: Invocation, path: str, config_type: str, json_enable: str | None
) -> ExitCode:
    p = _local_path(path, "-p")
    if not p or not os.path.exists(p):
        return _java_failure(inv, "RocksDB path is invalid.\n", f"no such path: {p!r}")
    store = (p if p.endswith("/") else p + "/") + config_type.strip()
    why = f"cannot load the RocksDB at {store}: {NO_BINDING}"
    return _java_failure(inv, f"RocksDB load error, path={store}\n", why, ExitCode.ERROR)


# --------------------------------------------------------------------- checkRocksdbCqWriteProgress


@java_command(
    "checkRocksdbCqWriteProgress",
    [
        JavaOpt("c", "cluster", "cluster name", required=True),
        JavaOpt("n", "nameserverAddr", "nameserverAddr", required=True, dest="namesrv"),
        JavaOpt("t", "topic", "topic name"),
        JavaOpt("cf", "checkFrom", "check from time", dest="check_from"),
    ],
    fanout=True,
    json_doc='{"cluster": str, "topic": str, "checkFrom": int, "brokers": [{"brokerName": str, "addr": str, '
    '"ok": bool, "checkStatus": int?, "checkResult": str|null?, "error": str?}], "errors": [...]?} '
    "(checkStatus: 0 ok, 1 not ok, 2 in progress, 3 error)",
)
async def check_rocksdb_cq_write_progress(
    inv: Invocation, cluster: str, topic: str | None, check_from: str | None
) -> ExitCode | None:
    name = cluster.strip()
    why = names.check_name("cluster", name)
    if why is not None:
        raise usage_error(why)
    t = (topic or "").strip()
    if t:
        why = names.check_topic(t)
        if why is not None:
            raise usage_error(why)
    if check_from is not None:
        since = parse_long(check_from, "-cf")
    else:  # Java's default: 30 days back
        since = int(time.time() * 1000) - 30 * 86_400_000
    targets = await _cluster_masters(inv, name)
    base: dict[str, Any] = {"cluster": name, "topic": t, "checkFrom": since}
    if targets is None:
        return _java_failure(inv, "clusterAddrTable is empty", f"no cluster {name!r}")
    admin = inv.admin
    results, rows = await inv.on_each(
        [a for _, a in targets], lambda a: admin.broker_ops.check_rocksdb_cq_write_progress(a, t, since)
    )
    row_of = {r["addr"]: r for r in rows}
    brokers: list[dict[str, Any]] = []
    for broker, addr in targets:
        row: dict[str, Any] = {"brokerName": broker, **row_of[addr]}
        result = results.get(addr)
        if result is not None:
            row["checkStatus"] = result.check_status
            row["checkResult"] = result.check_result
        brokers.append(row)
    inv.out.emit(CqWriteProgress(base, brokers, inv.error_list()))
    return None


@dataclass(slots=True, frozen=True)
class CqWriteProgress(Result):
    """checkRocksdbCqWriteProgress: per master, the check's status (Java prints only what answered)."""

    doc: dict[str, Any]
    brokers: list[dict[str, Any]]
    errors: Errors

    def text(self) -> str:
        from mqadmin.protocol.bodies.request_mode import CHECK_ERROR

        lines = []
        for row in (r for r in self.brokers if "checkStatus" in r):
            if row["checkStatus"] == CHECK_ERROR:
                text = "null" if row["checkResult"] is None else row["checkResult"]
                lines.append(f"{row['brokerName']} check error, please check log... errInfo: {text}")
            else:
                lines.append(
                    f"{row['brokerName']} check doing, please wait and get the result from log... \n"
                )
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        return with_errors({**self.doc, "brokers": self.brokers}, self.errors)
