"""The command a mistyped name was probably meant to be (``clusterLits`` -> ``clusterList``)."""

from __future__ import annotations

import difflib

from mqadmin.cli.registry import COMMANDS

__all__ = ["no_such_command"]


def _nearest(name: str) -> list[str]:
    """The closest names; only the best one when it is clearly closer than the next."""
    by_lower = {c.name.lower(): c.name for c in COMMANDS}
    low = name.lower()
    close = difflib.get_close_matches(low, list(by_lower), n=3, cutoff=0.6)
    if len(close) > 1:
        ratios = [difflib.SequenceMatcher(None, low, c).ratio() for c in close]
        if ratios[0] - ratios[1] >= 0.05:
            close = close[:1]
    return [by_lower[c] for c in close]


def no_such_command(name: str) -> str:
    """The one-line message for an unknown command name, with the nearest commands when there are any."""
    near = _nearest(name)
    if not near:
        return f"no such command '{name}'; 'mqadmin --help' lists them"
    if len(near) == 1:
        return f"no such command '{name}'; did you mean '{near[0]}'?"
    return f"no such command '{name}'; did you mean one of: {', '.join(near)}?"
