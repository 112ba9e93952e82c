"""Option values the commands read as numbers, and the -b/-c target a broker command needs.

One copy of each for every command family; a bad value is a usage error (exit 2, one line naming
the option) raised before any request is sent.
"""

from __future__ import annotations

from mqadmin.cli.errors import usage_error
from mqadmin.protocol import javanum

__all__ = ["in_range", "need_target", "parse_int", "parse_long"]


def parse_long(
    value: str | None, option: str, default: int | None = None, *, bits: int = 64, terse: bool = False
) -> int:
    """``Long.parseLong`` (``Integer.parseInt`` with ``bits=32``) of an option's trimmed value, or
    ``default`` when the option is absent; a bad value is a usage error.

    The error says "-x takes a whole number, not 'v'"; ``terse`` is the message commands' wording
    ("takes a number", and "takes a 32-bit number" for a long that is not an int).
    """
    if value is None:
        if default is None:
            raise TypeError(f"{option} has no value and no default")
        return default
    try:
        n = javanum.parse_long(value.strip())
    except javanum.JavaNumberError:
        raise usage_error(
            f"{option} takes {'a number' if terse else 'a whole number'}, not {value!r}"
        ) from None
    if bits == 32 and not javanum.INT_MIN <= n <= javanum.INT_MAX:
        raise usage_error(f"{option} takes {'a 32-bit number' if terse else 'a whole number'}, not {value!r}")
    return n


def parse_int(value: str | None, option: str, default: int | None = None, *, terse: bool = False) -> int:
    """``Integer.parseInt`` of an option's trimmed value (see :func:`parse_long`)."""
    return parse_long(value, option, default, bits=32, terse=terse)


def in_range(value: int, option: str, lo: int, hi: int | None = None) -> int:
    """``value`` if ``lo <= value`` (``<= hi`` too when given); else a usage error naming the bounds."""
    if value < lo or (hi is not None and value > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f"of {lo} or more"
        raise usage_error(f"{option} takes a whole number {bound}, not {value}")
    return value


def need_target(broker: str | None, cluster: str | None) -> None:
    """What a command acting on a broker (``-b``) or on a cluster's brokers (``-c``) needs: one of them."""
    if broker is None and cluster is None:
        raise usage_error("give the broker with -b ADDR or the cluster with -c NAME")
