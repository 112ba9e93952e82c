"""Shell completion by click's own machinery: the shell asks ``mqadmin`` itself on every TAB.

The scripts for bash, zsh and fish (``_MQADMIN_COMPLETE=bash_source mqadmin``, written into
``completions/`` by ``gen_docs``) only forward the words typed; commands, options and choices come
from the command definitions of the installed version, so they cannot go stale. Values of topic,
consumer group and cluster options (``-t``, ``-g``, ``-c``...) are asked of the name server when it
answers within 300 ms (the one ``-n``, the context or ``NAMESRV_ADDR`` names, as for the command);
otherwise there is simply no suggestion.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import click
from click.shell_completion import BashComplete, CompletionItem, add_completion_class

from mqadmin.admin.api import MQAdmin
from mqadmin.cli.common import CommonValues, common_values
from mqadmin.cli.connection import resolve_settings
from mqadmin.cli.registry import COMMANDS

__all__ = [
    "LIVE_BUDGET",
    "PROG",
    "command_items",
    "join_broken_words",
    "live_completer",
    "names_of",
    "register_shells",
]

PROG = "mqadmin"
COMPLETE_VAR = "_MQADMIN_COMPLETE"
LIVE_BUDGET = 0.3
"""Seconds a TAB may wait for the name server."""

TOPIC_OPTIONS = frozenset({"topic", "topicName", "traceTopic"})
GROUP_OPTIONS = frozenset({"groupName", "consumerGroup", "group", "consumer"})
CLUSTER_OPTIONS = frozenset({"cluster", "clusterName"})
_RETRY = "%RETRY%"


_BASH_BREAKS = (":", ";", "=")
"""Characters bash's COMP_WORDBREAKS splits words at: ``127.0.0.1:9876`` arrives as three words."""


def join_broken_words(words: list[str]) -> list[str]:
    """The words as typed: ``["-n", "a", ":", "9876"]`` back to ``["-n", "a:9876"]``."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in _BASH_BREAKS and out and i + 1 < len(words):
            out[-1] += w + words[i + 1]
            i += 2
            continue
        out.append(w)
        i += 1
    return out


def register_shells() -> None:
    """Use our bash completion class (it rejoins words bash split at ``:``, ``;`` and ``=``)."""

    class _Bash(BashComplete):
        def get_completion_args(self) -> tuple[list[str], str]:
            args, incomplete = super().get_completion_args()
            return join_broken_words(args), incomplete

    add_completion_class(_Bash, "bash")


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


def command_items(incomplete: str) -> list[CompletionItem]:
    """Command names from the registry (no command module is imported), with their summaries."""

    return [CompletionItem(c.name, help=c.summary) for c in COMMANDS if c.name.startswith(incomplete)]
