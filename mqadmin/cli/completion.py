"""Shell completion by click's own machinery: the shell asks ``mqadmin`` itself on every TAB.

The scripts for bash, zsh and fish (``_MQADMIN_COMPLETE=bash_source mqadmin``, written into
``completions/`` by ``gen_docs``) only forward the words typed; commands, options and choices come
from the command definitions of the installed version, so they cannot go stale. Values of topic,
consumer group and cluster options (``-t``, ``-g``, ``-c``...) are asked of the name server when it
answers within 300 ms (the one ``-n``, the context or ``NAMESRV_ADDR`` names, as for the command);
otherwise there is simply no suggestion (:mod:`mqadmin.cli.livecompletion`).

This module is the shells' side, imported only by a process that completes.
"""

from __future__ import annotations

from click.shell_completion import BashComplete, CompletionItem, add_completion_class

from mqadmin.cli.registry import COMMANDS

__all__ = ["COMPLETE_VAR", "PROG", "command_items", "join_broken_words", "register_shells"]

PROG = "mqadmin"
COMPLETE_VAR = "_MQADMIN_COMPLETE"


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


def command_items(incomplete: str) -> list[CompletionItem]:
    """Command names from the registry (no command module is imported), with their summaries."""

    return [CompletionItem(c.name, help=c.summary) for c in COMMANDS if c.name.startswith(incomplete)]
