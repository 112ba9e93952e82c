"""What getNamesrvConfig and getControllerConfig print: each server's ``Properties`` under a
``============ADDR============`` banner (the servers in the order of Java's ``HashMap<>(4)`` of their
answers, each server's keys in ``Properties`` order), and the failure of the servers that did not
answer (exit 6 when others did).
"""

from __future__ import annotations

from typing import Any

from mqadmin.admin.fanout import FanOutResult
from mqadmin.cli.command import Invocation
from mqadmin.cli.errors import PartialFailure
from mqadmin.cli.javatext import jformat
from mqadmin.protocol.javacoll import java_hash_order, properties_order

__all__ = ["emit_server_configs", "properties_text", "raise_if_failed"]


def properties_text(props: dict[str, str]) -> str:
    """The config lines as Java prints a ``Properties``: ``%-50s=  %s`` in its iteration order."""
    return "".join(jformat("%-50s=  %s\n", k, props[k]) for k in properties_order(list(props)))


def raise_if_failed(inv: Invocation, result: FanOutResult[str, Any]) -> None:
    """The servers that failed, as one failure (``inv.any_success`` when others answered)."""
    failed = [result.errors[a] for a in result.order if a in result.errors]
    if failed:
        inv.any_success = len(failed) < len(result.order)
        raise PartialFailure(failed)


def emit_server_configs(inv: Invocation, result: FanOutResult[str, dict[str, str]]) -> None:
    """Each answering server's config (as data: ``{addr: {key: value}}``, keys sorted), then the failures."""
    addrs = java_hash_order([a for a in result.order if a in result.results], 4)
    if inv.out.structured:
        inv.out.data({a: dict(sorted(result.results[a].items())) for a in addrs})
    else:
        banners = (f"============{a}============\n" + properties_text(result.results[a]) for a in addrs)
        inv.out.text("".join(banners))
    raise_if_failed(inv, result)
