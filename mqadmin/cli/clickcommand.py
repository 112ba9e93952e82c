"""``JavaCommand``: the click command of a declared Java sub-command (:class:`~.command.CommandSpec`).

It accepts what commons-cli accepts: ``-t T``, ``-tT``, ``--topic T``, ``--topic=T``, bundled flags,
``-topic T`` (single-dash long names), unambiguous long prefixes (``--top T``) and ``-t=T``; stray
positional words are ignored with a warning, as Java ignores them. It prints the Java help block
(``mqadmin help CMD``, ``-h``), then our own options, and runs the declared function
(:func:`~mqadmin.cli.command.run_command`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from mqadmin.cli.command import CommandSpec, run_command
from mqadmin.cli.common import (
    WATCH_COUNT,
    WATCH_INTERVAL,
    CommonValues,
    OurOpt,
    common_options,
    common_values,
    deadline_option,
)
from mqadmin.cli.javahelp import render_extra_options, render_help, usage_line
from mqadmin.cli.javaopts import HELP, JavaOpt, group_refusal
from mqadmin.cli.livecompletion import live_completer

__all__ = ["JavaCommand", "click_command"]

_BUILT: dict[CommandSpec, JavaCommand] = {}
"""Each declaration's click command (a declaration hashes by identity)."""


def click_command(spec: CommandSpec) -> JavaCommand:
    """The click command of ``spec``, made once per process."""
    cmd = _BUILT.get(spec)
    if cmd is None:
        cmd = _BUILT[spec] = JavaCommand(spec)
    return cmd


def _click_option(opt: JavaOpt) -> click.Option:
    names = [*opt.flags]
    if opt.short:
        names.append(f"-{opt.long.strip()}")  # commons-cli also takes the long name after one dash
    names.append(opt.param)
    if opt.has_arg:
        return click.Option(
            names,
            required=opt.must_be_given,
            metavar="<arg>",
            help=opt.desc,
            shell_complete=live_completer(opt.long),  # topic, group and cluster names on TAB
        )
    return click.Option(names, is_flag=True, default=False, help=opt.desc)


def _takes_value(opt: click.Option | None) -> bool:
    """Whether ``opt`` reads the next word as its value (a flag or a count does not)."""
    return opt is not None and not opt.is_flag and not opt.count


def _expand_args(args: list[str], params: Sequence[click.Parameter]) -> list[str]:
    """Java spellings click does not take (long-name prefixes, ``-t=VALUE``), and each short option
    given as the long name it stands for.

    click tries every option word as a long name first; a miss builds a "no such option" error with
    spelling suggestions (difflib over every long name) before it is tried as a short one. Naming
    the option as click will resolve it skips that on every ``-n NS`` (about 3 ms a command line). A
    short option with its value missing is left as typed, so click's error names it as typed.
    """
    longs: dict[str, click.Option] = {}
    shorts: dict[str, tuple[click.Option, str | None]] = {}
    for p in params:
        if not isinstance(p, click.Option):
            continue
        for names in (p.opts, p.secondary_opts):  # a flag's "--x/--no-x" halves stay apart
            long_name = next((n for n in names if n.startswith("--")), None)
            for name in names:
                if name.startswith("--"):
                    longs[name[2:]] = p
                elif len(name) == 2:
                    shorts[name[1]] = (p, long_name)
    out: list[str] = []
    expect_value = False
    for i, tok in enumerate(args):
        if tok == "--":
            out.extend(args[i:])
            break
        if expect_value:
            out.append(tok)
            expect_value = False
            continue
        if tok.startswith("--") and len(tok) > 2:
            name, eq, value = tok[2:].partition("=")
            opt = longs.get(name)
            if opt is None:
                matches = sorted({n for n in longs if n.startswith(name)}, key=str.lower)
                if len(matches) == 1:
                    name = matches[0]
                    opt = longs[name]
                    tok = f"--{name}{eq}{value}"
                elif len(matches) > 1:
                    could = ", ".join(f"'{m}'" for m in matches)
                    raise click.UsageError(f"Ambiguous option: '--{name}'  (could be: {could})")
            out.append(tok)
            expect_value = not eq and _takes_value(opt)
            continue
        if tok.startswith("-") and len(tok) >= 2 and tok[1] != "-":
            opt, long_name = shorts.get(tok[1], (None, None))
            takes_value = _takes_value(opt)
            if takes_value and len(tok) > 2 and tok[2] == "=":
                out.extend([long_name or tok[:2], tok[3:]])
                continue
            if opt is not None and len(tok) == 2:
                expect_value = takes_value
                if long_name is not None and (not takes_value or i + 1 < len(args)):
                    tok = long_name
            out.append(tok)
            continue
        out.append(tok)
    return out


class JavaCommand(click.Command):
    """A Java ``mqadmin`` sub-command (see the module docstring), made from its declaration."""

    def __init__(self, spec: CommandSpec) -> None:
        self.spec = spec
        params: list[click.Parameter] = [_click_option(o) for o in spec.java_opts if o is not HELP]
        own = [*spec.own, *((WATCH_INTERVAL, WATCH_COUNT) if spec.watch else ())]
        self.own_params: list[click.Parameter] = [
            o.click_option() if isinstance(o, OurOpt) else o for o in own
        ]
        """This command's options that the Java tool does not have (``--dry-run``, ``--max-lag``)."""
        short_o = not any(o.short == "o" for o in spec.java_opts)  # -o: --output, unless Java's
        self.extra_params: list[click.Parameter] = list(common_options(short_output=short_o))
        if spec.fanout:
            self.extra_params.append(deadline_option())
        super().__init__(
            spec.name,
            params=params + self.own_params + self.extra_params,
            help=spec.desc,
            short_help=spec.desc,
            epilog=spec.epilog or None,
            context_settings={"help_option_names": ["-h", "--help"], "allow_extra_args": True},
        )

    @property
    def java_opts(self) -> tuple[JavaOpt, ...]:
        return self.spec.java_opts

    @property
    def desc(self) -> str:
        return self.spec.desc

    @property
    def json_doc(self) -> str:
        return self.spec.json_doc

    # help ---------------------------------------------------------------------------------------

    def java_help(self) -> str:
        """Exactly what the Java tool prints for ``mqadmin help <name>``."""
        return render_help(self.name or "", self.java_opts)

    def get_usage(self, ctx: click.Context) -> str:
        return usage_line(self.name or "", self.java_opts).rstrip("\n")

    def get_help(self, ctx: click.Context) -> str:
        text = self.java_help() + "\n" + self.desc + "\n"
        if self.epilog:
            text += "\n" + self.epilog.strip() + "\n"
        if self.own_params:
            own = render_extra_options(self.own_params)
            text += "\nOptions of this command (not in the Java tool):\n" + own
        text += "\nOptions of mqadmin (any command):\n" + render_extra_options(self.extra_params)
        return text.rstrip("\n")

    # parsing ------------------------------------------------------------------------------------

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = _expand_args(list(args), self.get_params(ctx))
        rest = super().parse_args(ctx, args)
        if not ctx.resilient_parsing:  # completion and "mqadmin help CMD" parse without checks
            wrong = group_refusal(self.java_opts, ctx.params)
            if wrong:
                raise click.UsageError(wrong)
        return rest

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[Any]:
        """Option names as the Java help shows them: ``-t`` and ``--topic``, not ``-topic`` too."""
        return [
            item
            for item in super().shell_complete(ctx, incomplete)
            if not (item.value.startswith("-") and not item.value.startswith("--") and len(item.value) > 2)
        ]

    # running ------------------------------------------------------------------------------------

    def invoke(self, ctx: click.Context) -> int:
        params = dict(ctx.params)
        common = common_values(params, ctx.find_object(CommonValues))
        namesrv = params.pop("namesrv", None)
        if ctx.args:
            click.echo(
                f"mqadmin {self.name}: warning: ignoring extra arguments: {' '.join(ctx.args)}", err=True
            )
        return run_command(self.name or "", self.spec.func, params, common, namesrv, self.spec.blocking)
