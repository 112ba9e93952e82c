"""The Java tool's help text, as commons-cli's ``HelpFormatter`` lays it out (width 110).

``mqadmin help CMD`` prints exactly what the Java ``mqadmin`` prints for the Java options: the
``usage:`` line (options sorted case-insensitively by key, option groups as ``-b <arg> | -c <arg>``,
wrapped with a 7-space indent), then one line per option with the descriptions aligned.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from mqadmin.cli.javaopts import JavaOpt

__all__ = ["WIDTH", "option_lines", "render_extra_options", "render_help", "usage_line", "wrap"]

WIDTH = 110
_USAGE = "usage: "


def _sort_key(opt: JavaOpt) -> str:
    return opt.key.lower()


def _token(opt: JavaOpt, bracket: bool) -> str:
    name = f"-{opt.short}" if opt.short else f"--{opt.long}"
    text = name + (" <arg>" if opt.has_arg else "")
    return f"[{text}]" if bracket else text


def usage_line(command: str, opts: Sequence[JavaOpt]) -> str:
    """``usage: mqadmin CMD ...`` wrapped as commons-cli does (ends with a newline)."""
    tokens: list[str] = []
    seen_groups: set[str] = set()
    for opt in sorted(opts, key=_sort_key):
        if opt.group is None:
            tokens.append(_token(opt, not opt.required))
            continue
        if opt.group in seen_groups:
            tokens.append("")
            continue
        seen_groups.add(opt.group)
        members = sorted((o for o in opts if o.group == opt.group), key=_sort_key)
        inner = " | ".join(_token(o, False) for o in members)
        tokens.append(inner if opt.group_required else f"[{inner}]")
    text = f"{_USAGE}mqadmin {command} " + " ".join(tokens)
    return wrap(text, len(_USAGE))


def option_lines(opts: Sequence[JavaOpt]) -> str:
    """The option table: prefixes padded to the longest, three spaces, the wrapped description."""
    ordered = sorted(opts, key=_sort_key)
    prefixes = []
    for opt in ordered:
        if opt.short:
            prefix = f" -{opt.short},--{opt.long}"
        else:
            prefix = f"    --{opt.long}"
        if opt.has_arg:
            prefix += " <arg>"
        prefixes.append(prefix)
    width = max((len(p) for p in prefixes), default=0)
    out = []
    for prefix, opt in zip(prefixes, ordered, strict=True):
        line = prefix.ljust(width) + "   " + opt.desc
        out.append(wrap(line, width + 3))
    return "".join(out)


def render_help(command: str, opts: Sequence[JavaOpt]) -> str:
    """The whole Java help block of a command (usage, then options)."""
    return usage_line(command, opts) + option_lines(opts)


def _find_wrap_pos(text: str, width: int, start: int) -> int:
    pos = text.find("\n", start)
    if pos != -1 and pos <= width:
        return pos + 1
    pos = text.find("\t", start)
    if pos != -1 and pos <= width:
        return pos + 1
    if start + width >= len(text):
        return -1
    pos = start + width
    while pos >= start:
        if text[pos] in " \n\r":
            break
        pos -= 1
    if pos > start:
        return pos
    return start + width


def wrap(text: str, indent: int, width: int = WIDTH) -> str:
    """commons-cli ``renderWrappedText``: lines of at most ``width``, continuations indented."""
    out: list[str] = []
    pos = _find_wrap_pos(text, width, 0)
    if pos == -1:
        return text.rstrip() + "\n"
    out.append(text[:pos].rstrip())
    padding = " " * indent
    while True:
        text = padding + text[pos:].strip()
        pos = _find_wrap_pos(text, width, 0)
        if pos == -1:
            out.append(text)
            break
        if len(text) > width and pos == indent - 1:
            pos = width
        out.append(text[:pos].rstrip())
    return "\n".join(out) + "\n"


def render_extra_options(params: Sequence[click.Parameter], extra: Sequence[tuple[str, str]] = ()) -> str:
    """Our own (click) options in the layout of the Java option table; ``extra`` adds (names, text) rows."""
    rows: list[tuple[str, str]] = []
    for p in params:
        if not isinstance(p, click.Option) or p.hidden:
            continue
        shorts = [n for n in p.opts if not n.startswith("--")]
        names = shorts + [n for n in p.opts if n.startswith("--")] + list(p.secondary_opts)
        prefix = "    " + ",".join(names)
        if not p.is_flag and p.metavar:
            prefix += f" {p.metavar}"
        elif not p.is_flag and isinstance(p.type, click.Choice):
            prefix += " " + "|".join(str(c) for c in p.type.choices)
        rows.append((prefix, p.help or ""))
    rows.extend(("    " + names, text) for names, text in extra)
    width = max((len(r[0]) for r in rows), default=0)
    return "".join(wrap(prefix.ljust(width) + "   " + text, width + 3, WIDTH) for prefix, text in rows)
