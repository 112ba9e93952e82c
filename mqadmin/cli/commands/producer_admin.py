"""Producers, as the Java 5.3.3 tool shows them: producerConnection and producer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqadmin.admin.consumers import NoConnectionError
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.version import version_name

if TYPE_CHECKING:
    from mqadmin.protocol.bodies.answers import ProducerInfo

# ------------------------------------------------------------------------------------- producers


@java_command(
    "producerConnection",
    [
        JavaOpt("g", "producerGroup", "producer group name", required=True, dest="producer_group"),
        JavaOpt("t", "topic", "topic name", required=True),
    ],
    json_doc='{"group": str, "topic": str, "connections": [{"clientId": str, "clientAddr": str, '
    '"language": str, "version": str}]}',
)
async def producer_connection(inv: Invocation, producer_group: str, topic: str) -> None:
    group, t = group_arg(producer_group), topic_arg(topic)
    try:
        pc = await inv.admin.consumers.examine_producer_connection_info(group, t)
    except NoConnectionError:
        raise CommandError(f"no producer of group {group} is online", ExitCode.REMOTE) from None
    lines, conns = [], []
    for i, c in enumerate(pc.connection_set, 1):
        version = version_name(c.version)
        lines.append(
            f"{i:04d}" + jformat("  %-32s %-22s %-8s %s%n", c.client_id, c.client_addr, c.language, version)
        )
        conns.append(
            {"clientId": c.client_id, "clientAddr": c.client_addr, "language": c.language, "version": version}
        )
    inv.out.emit({"group": group, "topic": t, "connections": conns}, lambda: "".join(lines))


@java_command(
    "producer",
    [JavaOpt("b", "broker", "broker address", required=True)],
    json_doc='{"broker": str, "groups": [{"group": str, "producers": [{"clientId": str, "remoteIP": str, '
    '"language": str, "version": int, "lastUpdateTimestamp": ms}]}]}',
)
async def producer(inv: Invocation, broker: str) -> None:
    addr = broker.strip()
    table = await inv.admin.consumers.get_all_producer_info(addr)
    lines = []
    groups: list[dict[str, Any]] = []
    for group in java_hash_order(list(table)):
        infos = table[group]
        groups.append({"group": group, "producers": [_producer_json(p) for p in infos]})
        if not infos:
            lines.append(f"producer group ({group}) instances are empty\n")
            continue
        for p in infos:
            lines.append(f"producer group ({group}) instance : {_producer_text(p)}\n")
    inv.out.emit({"broker": addr, "groups": groups}, lambda: "".join(lines))


def _producer_text(p: ProducerInfo) -> str:
    """``ProducerInfo.toString`` (sic: no blank after the first comma)."""
    return (
        f"clientId={p.client_id},remoteIP={p.remote_ip}, language={p.language}, "
        f"version={p.version}, lastUpdateTimestamp={p.last_update_timestamp}"
    )


def _producer_json(p: ProducerInfo) -> dict[str, Any]:
    """The fields in ``toString`` order."""
    return {
        "clientId": p.client_id,
        "remoteIP": p.remote_ip,
        "language": p.language,
        "version": p.version,
        "lastUpdateTimestamp": p.last_update_timestamp,
    }
