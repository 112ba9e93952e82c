"""The options every ``analyze`` command shares arrive as one ``AnalyzeArgs`` (no Spark needed: a
command built with the same decorator records what it was given)."""

from __future__ import annotations

from typing import Any

import click
from click.testing import CliRunner

from mqadmin.pipeline.cli import AnalyzeArgs, analyze_group, analyze_options


def _probe(formats: bool) -> tuple[click.Command, list[Any]]:
    seen: list[Any] = []

    @click.command()
    @analyze_options(formats=formats)
    @click.option("--top", type=int, default=5)
    def probe(args: AnalyzeArgs, top: int) -> None:
        seen.append((args, top))

    return probe, seen


def test_the_shared_options_become_one_object() -> None:
    cmd, seen = _probe(formats=True)
    argv = ["--input", "/snap", "--since", "6h", "--remote", "sc://h:15002", "--all", "--format", "csv"]
    result = CliRunner().invoke(cmd, [*argv, "--out", "/o", "--force", "--json", "--top", "3"])
    assert result.exit_code == 0, result.output
    args, top = seen[0]
    assert args == AnalyzeArgs(
        input_path="/snap",
        since="6h",
        until=None,
        master=None,
        remote="sc://h:15002",
        include_system=True,
        document="json",
        fmt="csv",
        out="/o",
        force=True,
    )
    assert top == 3


def test_without_formats_the_defaults_hold_and_the_command_keeps_its_own_options() -> None:
    cmd, seen = _probe(formats=False)
    result = CliRunner().invoke(cmd, ["--input", "/snap"])
    assert result.exit_code == 0, result.output
    args, top = seen[0]
    assert (args.fmt, args.out, args.force, args.document, top) == ("table", None, False, None, 5)


def test_bad_shared_options_are_usage_errors_before_the_command_runs() -> None:
    cmd, seen = _probe(formats=True)
    runner = CliRunner()
    assert runner.invoke(cmd, ["--since", "1h"]).exit_code == 2  # --input is required
    assert runner.invoke(cmd, ["--input", "/s", "--format", "xml"]).exit_code == 2
    assert runner.invoke(cmd, ["--input", "/s", "--output", "toml"]).exit_code == 2
    no_formats, _ = _probe(formats=False)
    assert runner.invoke(no_formats, ["--input", "/s", "--format", "csv"]).exit_code == 2
    assert seen == []


def test_every_analyze_command_takes_the_shared_options_first() -> None:
    for name, cmd in analyze_group.commands.items():
        names = [p.name for p in cmd.params]
        assert names[:2] == ["json_output", "output"] or "input_path" in names[:8], name
        assert {"input_path", "since", "until", "master", "remote", "include_system"} <= set(names), name
