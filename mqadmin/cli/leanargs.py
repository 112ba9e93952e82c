"""The arguments of a Java sub-command read from its declaration, without click: start-up.

``mqadmin topicRoute -n ADDR -t T`` should cost little more than the interpreter, and click alone
costs more than the interpreter does. The spellings read here are the ones the click command takes
(:mod:`mqadmin.cli.clickcommand`), from the same declarations (:class:`~mqadmin.cli.command.CommandSpec`,
:data:`~mqadmin.cli.common.COMMON`): ``-t T``, ``-tT``, ``-t=T``, ``--topic T``, ``--topic=T``, an
unambiguous prefix of a long name, ``-topic T``.

Anything else is declined (None), and click parses it: help, a usage error of any kind (an unknown
or repeated option, a missing value or required option, a bad number, a group broken), positional
words, ``--``, bundled flags, options before the command, a watch (``-i``, ``--count``) and the
commands with a click option of their own. So what is read here reads as click reads it, and what
click refuses click still says. A test holds the two parsers to the same answers.
"""

from __future__ import annotations

from mqadmin.cli.common import (
    COMMON,
    COUNT_PARAM,
    DEADLINE,
    WATCH_COUNT,
    WATCH_INTERVAL,
    WATCH_PARAM,
    CommonValues,
    OurOpt,
    common_values,
)
from mqadmin.cli.javaopts import HELP, JavaOpt, group_refusal
from mqadmin.cli.registry import defined, lookup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from mqadmin.cli.command import CommandSpec

__all__ = ["LeanArgs", "lean_parse", "lean_run"]


class LeanArgs:
    """What a command line gave: the command's parameters, the common options and ``-n``."""

    __slots__ = ("common", "namesrv", "params")

    def __init__(self, params: dict[str, Any], common: CommonValues, namesrv: str | None) -> None:
        self.params = params
        self.common = common
        self.namesrv = namesrv


def _ours(spec: CommandSpec) -> list[OurOpt]:
    """The command's options of ours besides the common ones: its own, a watch's, ``--deadline``."""
    own = [o for o in spec.own if isinstance(o, OurOpt)]
    return [
        *own,
        *((WATCH_INTERVAL, WATCH_COUNT) if spec.watch else ()),
        *((DEADLINE,) if spec.fanout else ()),
    ]


def _spellings(spec: CommandSpec) -> tuple[dict[str, JavaOpt | OurOpt], dict[str, JavaOpt | OurOpt]]:
    """(long spellings, short letters) of the command's options: ``--topic``, ``-topic``, ``--json``,
    ``--no-tls`` and ``t``, ``o``, ``i``; ``-h`` is left out (help is click's)."""
    longs: dict[str, JavaOpt | OurOpt] = {}
    shorts: dict[str, JavaOpt | OurOpt] = {}
    for j in spec.java_opts:
        if j is HELP:
            continue
        longs[f"--{j.long.strip()}"] = j
        if j.short:
            if len(j.short) == 1:
                shorts[j.short] = j
            else:  # commons-cli's ``-bn``: click takes it whole, as a long name
                longs[f"-{j.short}"] = j
            longs[f"-{j.long.strip()}"] = j
    for c in (*COMMON, *_ours(spec)):
        for flag in c.flags:
            if len(flag) == 2:
                shorts.setdefault(flag[1], c)
            else:
                longs[flag] = c
        if c.off_flag:
            longs[c.off_flag] = c
    if "o" not in shorts:
        shorts["o"] = next(c for c in COMMON if c.dest == "output")
    return longs, shorts


def _takes_value(opt: JavaOpt | OurOpt) -> bool:
    return opt.has_arg if isinstance(opt, JavaOpt) else opt.takes_value


def _dest(opt: JavaOpt | OurOpt) -> str:
    return opt.param if isinstance(opt, JavaOpt) else opt.dest


def lean_parse(spec: CommandSpec, args: Sequence[str]) -> LeanArgs | None:
    """The command line ``args`` (after the command's name) as the click command would read it, or
    None where click must parse it (see the module docstring)."""
    if not all(isinstance(o, OurOpt) for o in spec.own):
        return None  # a click option of its own (a callback, a path): click's
    longs, shorts = _spellings(spec)
    given: dict[str, Any] = {}
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        if len(tok) < 2 or not tok.startswith("-") or tok == "--":
            return None
        value: str | None = None
        if tok.startswith("--") or tok.partition("=")[0] in longs:
            name, eq, attached = tok.partition("=")
            if name not in longs and name.startswith("--"):
                name = _unique_prefix(longs, name) or name
            opt = longs.get(name)
            if opt is None:
                return None
            if eq:
                if not _takes_value(opt):
                    return None
                value = attached
            on = not (isinstance(opt, OurOpt) and name == opt.off_flag)
        else:
            opt = shorts.get(tok[1])
            if opt is None:
                return None
            if len(tok) > 2:
                if not _takes_value(opt):
                    return None  # bundled flags: click's
                value = tok[3:] if tok[2] == "=" else tok[2:]
            on = True
        dest = _dest(opt)
        if dest in given or dest in (WATCH_PARAM, COUNT_PARAM):
            return None  # a repeated option: click says what it does; a watch is click's and the loop's
        if _takes_value(opt):
            if value is None:
                if i >= len(args) or (args[i].startswith("-") and len(args[i]) > 1):
                    return None
                value = args[i]
                i += 1
            if isinstance(opt, OurOpt):
                try:
                    given[dest] = opt.convert(value)
                except ValueError:
                    return None
            else:
                given[dest] = value
        else:
            given[dest] = on if isinstance(opt, OurOpt) and opt.kind == "switch" else True
    params: dict[str, Any] = {}
    for j in spec.java_opts:
        if j is HELP:
            continue
        params[j.param] = given.get(j.param, False if not j.has_arg else None)
        if j.must_be_given and params[j.param] is None:
            return None
    if group_refusal(spec.java_opts, params) is not None:
        return None
    for c in (*COMMON, *_ours(spec)):
        if c.dest not in (WATCH_PARAM, COUNT_PARAM) or c in spec.own:  # an unasked watch is no parameter
            params[c.dest] = given.get(c.dest, False if c.kind == "flag" else None)
    common = common_values(params)
    namesrv = params.pop("namesrv", None)
    return LeanArgs(params, common, namesrv)


def _unique_prefix(longs: dict[str, JavaOpt | OurOpt], name: str) -> str | None:
    """The one ``--`` long name that ``name`` begins, if just one does."""
    found = [n for n in longs if n.startswith("--") and n.startswith(name)]
    return found[0] if len(found) == 1 else None


def lean_run(args: Sequence[str]) -> int | None:
    """Run ``mqadmin ARGS`` if its arguments are read here; its exit code, or None for click."""
    entry = lookup(args[0])
    if entry is None:
        return None
    spec = defined(entry)  # a command of ours declared as the Java ones are (consumer) is read here too
    from mqadmin.cli.command import CommandSpec, run_command

    if not isinstance(spec, CommandSpec):
        return None
    got = lean_parse(spec, args[1:])
    if got is None:
        return None
    return run_command(spec.name, spec.func, got.params, got.common, got.namesrv, spec.blocking)
