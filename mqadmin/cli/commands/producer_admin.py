"""Producers, as the Java 5.3.3 tool shows them: producerConnection and producer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.nameargs import group_arg, topic_arg
from mqadmin.cli.results import Result
from mqadmin.protocol.bodies.answers import ProducerInfo
from mqadmin.protocol.bodies.connection import Connection
from mqadmin.protocol.javacoll import java_hash_order
from mqadmin.protocol.version import version_name

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
    from mqadmin.admin.connections import NoConnectionError

    group, t = group_arg(producer_group), topic_arg(topic)
    try:
        pc = await inv.admin.producers.examine_producer_connection_info(group, t)
    except NoConnectionError:
        raise CommandError(f"no producer of group {group} is online", ExitCode.REMOTE) from None
    inv.out.emit(ProducerConnections(group, t, list(pc.connection_set)))


@dataclass(slots=True, frozen=True)
class ProducerConnections(Result):
    """producerConnection: the group's producers online for the topic, numbered as Java numbers them."""

    group: str
    topic: str
    connections: list[Connection]

    def text(self) -> str:
        return "".join(
            f"{i:04d}"
            + jformat(
                "  %-32s %-22s %-8s %s%n", c.client_id, c.client_addr, c.language, version_name(c.version)
            )
            for i, c in enumerate(self.connections, 1)
        )

    def data(self) -> dict[str, Any]:
        conns = [
            {"clientId": c.client_id, "clientAddr": c.client_addr, "language": c.language}
            | {"version": version_name(c.version)}
            for c in self.connections
        ]
        return {"group": self.group, "topic": self.topic, "connections": conns}


@java_command(
    "producer",
    [JavaOpt("b", "broker", "broker address", required=True)],
    json_doc='{"broker": str, "groups": [{"group": str, "producers": [{"clientId": str, "remoteIP": str, '
    '"language": str, "version": int, "lastUpdateTimestamp": ms}]}]}',
)
async def producer(inv: Invocation, broker: str) -> None:
    addr = broker.strip()
    inv.out.emit(Producers(addr, await inv.admin.producers.get_all_producer_info(addr)))


@dataclass(slots=True, frozen=True)
class Producers(Result):
    """producer: every producer group the broker knows, with its instances (Java prints the groups
    in ``HashMap`` order; the document sorts them)."""

    broker: str
    table: dict[str, list[ProducerInfo]]

    def text(self) -> str:
        lines = []
        for group in java_hash_order(list(self.table)):
            infos = self.table[group]
            if not infos:
                lines.append(f"producer group ({group}) instances are empty\n")
            lines.extend(f"producer group ({group}) instance : {_producer_text(p)}\n" for p in infos)
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        groups = [
            {"group": g, "producers": [_producer_json(p) for p in self.table[g]]} for g in sorted(self.table)
        ]
        return {"broker": self.broker, "groups": groups}


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
