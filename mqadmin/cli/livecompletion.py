"""Values of topic, consumer group and cluster options on TAB, asked of the name server.

Every command's options carry these completers (:func:`live_completer`); they run only in a process
that completes (:mod:`mqadmin.cli.completion`), within :data:`LIVE_BUDGET`, with the name server the
command being typed would use.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import click

from mqadmin.admin.api import MQAdmin
from mqadmin.cli.common import CommonValues, common_values
from mqadmin.cli.connection import resolve_settings

__all__ = ["LIVE_BUDGET", "live_completer", "names_of"]

LIVE_BUDGET = 0.3
"""Seconds a TAB may wait for the name server."""

TOPIC_OPTIONS = frozenset({"topic", "topicName", "traceTopic"})
GROUP_OPTIONS = frozenset({"groupName", "consumerGroup", "group", "consumer"})
CLUSTER_OPTIONS = frozenset({"cluster", "clusterName"})
_RETRY = "%RETRY%"


def _settings(ctx: click.Context) -> Any:
    """The connection settings the command being typed would use, with the live budget as timeout."""

    params = dict(ctx.params)
    namesrv = params.pop("namesrv", None)
    common = common_values(params, ctx.find_object(CommonValues))
    if common.secret_key is not None and common.secret_key.strip() == "-":
        common.access_key = common.secret_key = None  # never read stdin or prompt on a TAB
    settings = resolve_settings(namesrv if isinstance(namesrv, str) else None, common)
    return dataclasses.replace(settings, timeout=LIVE_BUDGET, connect_timeout=LIVE_BUDGET)


async def _fetch(kind: str, settings: Any) -> list[str]:
    async with MQAdmin(settings) as admin:
        if kind == "cluster":
            info = await admin.namesrv.examine_broker_cluster_info()
            return sorted(info.cluster_addr_table or {})
        topics = await admin.namesrv.fetch_all_topic_list()
    if kind == "group":
        return sorted({t[len(_RETRY) :].split("+", 1)[0] for t in topics if t.startswith(_RETRY)})
    return sorted(topics)


def names_of(kind: str, ctx: click.Context) -> list[str]:
    """Topic, group or cluster names from the name server; empty when it does not answer in time."""
    import asyncio  # the live lookup is bounded with wait_for on a loop of its own

    try:
        settings = _settings(ctx)

        async def bounded() -> list[str]:
            return await asyncio.wait_for(_fetch(kind, settings), LIVE_BUDGET)

        return asyncio.run(bounded())
    except Exception:  # no suggestion is the only sensible answer on a TAB
        return []


def live_completer(long_name: str) -> Callable[[click.Context, click.Parameter, str], list[str]] | None:
    """The completer for a Java option by its long name, or None when its values are not names."""
    name = long_name.strip()
    if name in TOPIC_OPTIONS:
        kind = "topic"
    elif name in GROUP_OPTIONS:
        kind = "group"
    elif name in CLUSTER_OPTIONS:
        kind = "cluster"
    else:
        return None

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        found = names_of(kind, ctx)
        if kind == "topic" and not incomplete.startswith("%"):
            found = [t for t in found if not t.startswith(("%RETRY%", "%DLQ%"))]
        return [n for n in found if n.startswith(incomplete)]

    return complete
