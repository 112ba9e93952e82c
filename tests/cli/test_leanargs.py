"""The lean parser reads a command line as the click command reads it, or leaves it to click.

For every Java sub-command, command lines made of its options (every spelling commons-cli and click
take, with common options, repeats, bundles, stray words and hostile values mixed in) are read by
both parsers: where the lean one answers, its parameters, common values and ``-n`` are the ones the
click command gets; where it declines, click decides (a usage error, help, a watch). Plain command
lines must not be declined: the start-up saving is real only if the lean parser answers them.
"""

from __future__ import annotations

from typing import Any

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqadmin.cli.app import load_command
from mqadmin.cli.clickcommand import JavaCommand
from mqadmin.cli.command import WATCH_PARAM, CommandSpec
from mqadmin.cli.common import (
    COMMON,
    DEADLINE,
    WATCH_COUNT,
    WATCH_INTERVAL,
    CommonValues,
    OurOpt,
    common_values,
)
from mqadmin.cli.javaopts import HELP
from mqadmin.cli.leanargs import lean_parse
from mqadmin.cli.registry import COMMANDS, DEFINED, defined

JAVA = [e for e in COMMANDS if isinstance(defined(e), CommandSpec)]
"""Every command declared as the Java tool's are: its sub-commands and ours made the same way
(``consumer``, ``decodeMessageId``), which the lean parser reads too."""


def spec_and_command(name: str) -> tuple[CommandSpec, JavaCommand]:
    entry = next(e for e in JAVA if e.name == name)
    cmd = load_command(entry)
    assert isinstance(cmd, JavaCommand)
    spec = DEFINED[name]
    assert isinstance(spec, CommandSpec) and cmd.spec is spec
    return spec, cmd


def click_reads(cmd: JavaCommand, args: list[str]) -> tuple[dict[str, Any], CommonValues, str | None] | None:
    """What the click command hands the command function, or None for a usage error or help."""
    try:
        ctx = cmd.make_context(cmd.name or "", list(args))
    except (click.UsageError, click.exceptions.Exit):
        return None
    if ctx.args:
        return None  # stray words: the lean parser declines them
    params = dict(ctx.params)
    common = common_values(params)
    namesrv = params.pop("namesrv", None)
    if WATCH_PARAM in params and params[WATCH_PARAM] is None:  # no watch asked: run_command drops both
        params.pop(WATCH_PARAM, None)
        params.pop("watch_count", None)
    return params, common, namesrv


def check_same(name: str, args: list[str]) -> bool:
    """Both parsers agree on ``args``; True if the lean one answered."""
    spec, cmd = spec_and_command(name)
    lean = lean_parse(spec, args)
    if lean is None:
        return False
    clicked = click_reads(cmd, args)
    assert clicked is not None, f"lean parser read {args!r} that click refuses"
    params, common, namesrv = clicked
    # NaN is read alike by both (float("nan")) but is not equal to itself: compared by repr
    assert lean.params == params or repr(lean.params) == repr(params), args
    assert lean.common == common or repr(lean.common) == repr(common), args
    assert lean.namesrv == namesrv, args
    return True


PLAIN = [
    ("topicRoute", ["-n", "127.0.0.1:9876", "-t", "T"]),
    ("topicRoute", ["-t", "T", "-l", "--json"]),
    ("topicRoute", ["--topic=T", "--namesrvAddr", "a:1;b:2", "-o", "yaml"]),
    ("topicRoute", ["-tT", "-n=a:1", "--output=json", "--timeout", "2.5"]),
    ("topicRoute", ["-topic", "T", "--time", "3", "--no-tls", "--debug"]),
    ("topicRoute", ["--top", "T", "-o", "table", "--wide", "--no-headers", "--sort-by", "brokerName"]),
    ("topicRoute", ["-t", "", "--access-key", "ak", "--secret-key", "-"]),
    ("topicClusterList", ["-t", "T", "--context", "prod", "--tls"]),
    ("topicStatus", ["-t", "T", "-c", "DefaultCluster", "--json"]),
    ("topicList", ["-c", "--json"]),
    ("updateTopic", ["-c", "C", "-t", "T", "-r", "8", "-w", "8", "-p", "6"]),
    ("brokerStatus", ["-b", "127.0.0.1:10911", "--deadline", "3"]),
]


@pytest.mark.parametrize(("name", "args"), PLAIN, ids=[f"{n} {' '.join(a)}" for n, a in PLAIN])
def test_plain_command_lines_are_read_without_click_as_click_reads_them(name: str, args: list[str]) -> None:
    assert check_same(name, args), f"declined: {args!r}"


DECLINED = [
    ("topicRoute", ["-h"]),
    ("topicRoute", ["--help"]),
    ("topicRoute", []),  # -t is required: click says so
    ("topicRoute", ["-t"]),  # no value
    ("topicRoute", ["-t", "T", "-t", "U"]),  # repeated
    ("topicRoute", ["-t", "T", "stray"]),
    ("topicRoute", ["-t", "T", "--"]),
    ("topicRoute", ["-t", "T", "--nope"]),
    ("topicRoute", ["-t", "T", "--timeout", "soon"]),
    ("topicRoute", ["-t", "T", "--output", "xml"]),
    ("topicRoute", ["-t", "T", "--json=yes"]),
    ("topicRoute", ["-t", "T", "-lx"]),  # bundled flags
    ("topicRoute", ["-t", "T", "--t", "x"]),  # ambiguous prefix
    ("topicRoute", ["-t", "-x"]),  # a value that looks like an option
    ("topicStatus", ["-t", "T", "-i", "1"]),  # a watch
    ("topicStatus", ["-t", "T", "--count", "1"]),
    ("topicRoute", ["-t", "T", "--deadline", "3"]),  # not a fan-out command
]


@pytest.mark.parametrize(("name", "args"), DECLINED, ids=[f"{n} {' '.join(a)}" for n, a in DECLINED])
def test_what_click_must_judge_is_left_to_click(name: str, args: list[str]) -> None:
    spec, _ = spec_and_command(name)
    assert lean_parse(spec, args) is None


def test_a_command_with_a_click_option_of_its_own_is_left_to_click() -> None:
    spec, _ = spec_and_command("exportMetrics")
    assert any(isinstance(o, click.Option) for o in spec.own)
    assert lean_parse(spec, []) is None


def test_options_of_ours_declared_as_data_are_read_too() -> None:
    assert check_same("consumerProgress", ["-g", "G", "--max-lag", "10", "--stuck-after", "2.5"])
    assert check_same("deleteTopic", ["-t", "T", "-c", "C", "--dry-run", "--yes"])
    assert check_same("clusterList", ["-m"])
    assert lean_parse(spec_and_command("consumerProgress")[0], ["-g", "G", "--max-lag", "x"]) is None
    assert lean_parse(spec_and_command("clusterList")[0], ["--count", "2"]) is None  # a watch


def _spellings(spec: CommandSpec) -> list[str]:
    out: list[str] = []
    for o in spec.java_opts:
        if o is HELP:
            continue
        out.append(f"--{o.long.strip()}")
        if o.short:
            out += [f"-{o.short}", f"-{o.long.strip()}"]
    ours = [o for o in spec.own if isinstance(o, OurOpt)]
    for c in (*COMMON, *ours, *((WATCH_INTERVAL, WATCH_COUNT) if spec.watch else ()), DEADLINE):
        out += list(c.flags)
        if c.off_flag:
            out.append(c.off_flag)
    return out


VALUES = st.one_of(
    st.sampled_from(["T", "127.0.0.1:9876", "json", "yaml", "table", "2", "0.5", "", "-", "-x", "a=b", "--"]),
    st.sampled_from(["T\x00", "\udcff", "../../etc", "1e999", "nan", "-1", "0", "99999999999999999999999"]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6),
)
LEAN_NAMES = [e.name for e in JAVA]


def _spelled(draw: st.DrawFn, flag: str, value: str, takes_value: bool) -> list[str]:
    """``flag`` (with ``value`` if it takes one) in one of the ways a user may type it."""
    how = draw(st.integers(0, 4))
    if not takes_value:
        return [flag] if how else [flag, value]  # sometimes a stray word after a flag
    if how == 1:
        return [f"{flag}={value}"]
    if how == 2 and len(flag) == 2:
        return [flag + value]
    if how == 3 and flag.startswith("--") and len(flag) > 4:
        return [flag[: draw(st.integers(3, len(flag)))], value]
    return [flag, value]


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A command's required options (mostly), then other options and words in any order."""
    name = draw(st.sampled_from(LEAN_NAMES))
    spec, _ = spec_and_command(name)
    parts: list[list[str]] = []
    groups: set[str] = set()
    for o in spec.java_opts:
        wanted = o.must_be_given or (o.group_required and o.group not in groups)
        if not wanted or draw(st.integers(0, 9)) == 0:
            continue
        if o.group:
            groups.add(o.group)
        flag = draw(
            st.sampled_from([f"-{o.short}", f"--{o.long.strip()}"] if o.short else [f"--{o.long.strip()}"])
        )
        parts.append(_spelled(draw, flag, draw(VALUES), o.has_arg))
    spelled = _spellings(spec)
    for _ in range(draw(st.integers(0, 4))):
        flag = draw(st.sampled_from(spelled))
        takes = not any((flag in c.flags and not c.takes_value) or flag == c.off_flag for c in COMMON)
        parts.append(_spelled(draw, flag, draw(VALUES), takes))
    order = draw(st.permutations(range(len(parts))))
    return name, [tok for i in order for tok in parts[i]]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command_lines())
def test_any_command_line_is_read_as_click_reads_it_or_left_to_click(line: tuple[str, list[str]]) -> None:
    name, args = line
    spec, _ = spec_and_command(name)
    if any(isinstance(o, click.Option) for o in spec.own):
        assert lean_parse(spec, args) is None
        return
    check_same(name, args)


def test_most_java_commands_take_the_lean_path() -> None:
    """The commands with no click option of their own: most of them, topicRoute's family among them."""
    lean = []
    for e in JAVA:
        spec, _ = spec_and_command(e.name)
        if all(isinstance(o, OurOpt) for o in spec.own):
            lean.append(e.name)
    assert {"topicRoute", "topicClusterList", "topicStatus", "topicList"} <= set(lean)
    assert len(lean) > len(JAVA) // 2
