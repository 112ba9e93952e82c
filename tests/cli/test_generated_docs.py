"""The committed completions and man page are what the command definitions generate now."""

from __future__ import annotations

import subprocess

from mqadmin.cli.gen_docs import ROOT, generated_files, stale_files


def test_committed_files_are_current() -> None:
    stale = stale_files()
    assert stale == [], f"out of date: {stale}; run: python -m mqadmin.cli.gen_docs"


def test_every_command_and_option_completes() -> None:
    """The scripts ask mqadmin itself, so what completes is what the definitions hold now."""
    from click.shell_completion import ShellComplete

    from mqadmin.cli.app import cli
    from mqadmin.cli.docmodel import load_specs

    def offered(args: list[str], incomplete: str) -> set[str]:
        comp = ShellComplete(cli, {}, "mqadmin", "_MQADMIN_COMPLETE")
        return {item.value for item in comp.get_completions(args, incomplete)}

    specs = load_specs()
    assert offered([], "") == {spec.name for spec in specs}
    files = generated_files()
    for spec in specs:
        assert f"\\fB{spec.name}\\fR" in files["man/mqadmin.1"]
        if spec.subcommands:
            continue
        names = offered([spec.name], "-")
        for opt in spec.options:
            for name in opt.names:
                assert name in names, (spec.name, name)
        assert not any(n.startswith("-") and not n.startswith("--") and len(n) > 2 for n in names)


def test_bash_script_parses() -> None:
    subprocess.run(["bash", "-n", str(ROOT / "completions" / "mqadmin.bash")], check=True)


def test_man_page_has_the_sections() -> None:
    text = generated_files()["man/mqadmin.1"]
    for section in (
        "NAME",
        "SYNOPSIS",
        "COMMANDS",
        "OPTIONS",
        "CONTEXTS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "EXAMPLES",
    ):
        assert f".SH {section}" in text
    for code in ("0", "2", "3", "4", "5", "6", "7", "8"):
        assert f".TP\n\\fB{code}\\fR" in text


def test_synopsis_is_whole_with_our_own_options() -> None:
    """Each Java command's SYNOPSIS holds every option (the help wraps its usage line at 110 columns;
    the page once showed only the first line of it) and the command's own options."""
    from mqadmin.cli.docmodel import load_specs
    from mqadmin.cli.gen_man import esc

    # roff's unbreakable space keeps an option with its value: read it as a space here
    lines = generated_files()["man/mqadmin.1"].replace("\\ ", " ").splitlines()
    for spec in load_specs():
        if spec.java is None:
            continue
        head = esc(f"mqadmin {spec.name} ")
        synopsis = next(ln for ln in lines if ln.startswith(head))  # (EXAMPLES come later)
        for o in spec.java.java_opts:
            token = f"-{o.short}" if o.short else f"--{o.long}"
            assert esc(token) in synopsis, (spec.name, token)
        for p in spec.java.own_params:
            assert esc(p.opts[0]) in synopsis, (spec.name, p.opts)
    assert any(ln.endswith(esc("[--dry-run]")) for ln in lines)
    assert any(esc("[--max-lag N] [--stuck-after SECONDS]") in ln for ln in lines)


def test_own_commands_share_one_help_layout() -> None:
    from click.testing import CliRunner

    from mqadmin.cli.app import cli

    for args, usage in (
        (["context", "-h"], "usage: mqadmin context [options] COMMAND [ARGS]..."),
        (["context", "add", "-h"], "usage: mqadmin context add [options] NAME"),
        (["namesrv", "start", "-h"], "usage: mqadmin namesrv start [options]"),
        (["topicRoute", "-h"], "usage: mqadmin topicRoute [-h] [-l] [-n <arg>] -t <arg>"),
    ):
        text = CliRunner().invoke(cli, args).output
        assert text.startswith(usage + "\n"), (args, text[:200])
        assert all(len(line) <= 110 for line in text.splitlines()), args
    add = CliRunner().invoke(cli, ["context", "add", "-h"]).output
    assert "\n    --access-key KEY   " in add  # options four spaces in, three before the text
