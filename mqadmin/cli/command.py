"""A Java ``mqadmin`` sub-command as declared (:class:`CommandSpec`), and how one runs (:func:`run_command`).

A command module declares the Java options and an ``async`` function; its click command
(:class:`~mqadmin.cli.clickcommand.JavaCommand`):

- accepts what commons-cli accepts: ``-t T``, ``-tT``, ``--topic T``, ``--topic=T``, bundled flags,
  ``-topic T`` (single-dash long names), unambiguous long prefixes (``--top T``) and ``-t=T``;
  stray positional words are ignored with a warning, as Java ignores them;
- prints the Java help block (``mqadmin help CMD``, ``-h``), then our own options;
- resolves the connection settings, runs the function on an event loop with a lazily created
  :class:`~mqadmin.admin.api.MQAdmin`, and turns failures into one stderr line and an exit code.

A command runs without an event loop, on the blocking client (:mod:`mqadmin.remoting.blocking`): the
same code awaiting calls that never suspend, asking several brokers at once on threads
(:meth:`~mqadmin.admin.core.AdminCore.fan_out`). One request needs no loop. A command that needs the
loop itself (a pause between rounds, pulls read ahead, a server) says ``blocking=False``, or a test of
its parameters; a ``-i`` watch always runs on the loop.

This module declares and runs; the click command of a declaration is made when the group loads it
(:mod:`mqadmin.cli.clickcommand`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click

from mqadmin.cli.common import WATCH_PARAM, CommonValues, OurOpt, pop_watch
from mqadmin.cli.errors import CommandError, PartialFailure, describe, exit_code_of
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation, stderr_line
from mqadmin.cli.javaopts import HELP, NAMESRV, JavaOpt
from mqadmin.cli.registry import BY_NAME, define
from mqadmin.protocol import fastjson
from mqadmin.protocol.errors import ProtocolError
from mqadmin.remoting.blocking import run_sync

CommandFunc = Callable[..., Awaitable[ExitCode | int | None]]
Blocking = bool | Callable[[dict[str, Any]], bool]
"""Whether a command runs on the blocking client: always, never, or as its parameters say."""

__all__ = ["CommandSpec", "Invocation", "java_command", "once", "read_json_list", "run_command"]


def once(params: dict[str, Any]) -> bool:
    """``blocking`` of a command whose own ``-i`` repeats it with a pause on the event loop: without
    ``-i`` it runs once, on the blocking client."""
    return params.get("interval") is None


def read_json_list(path_text: str, what: str) -> list[Any]:
    """The JSON array in a file (``-f`` of the batch commands); a missing file, bad JSON or another
    shape is one clear error. ``null`` reads as an empty list."""
    if not os.path.isfile(path_text):
        raise CommandError(f"the file path {path_text} does not exists")  # the Java wording
    try:
        with open(path_text, "rb") as f:
            data = fastjson.loads(f.read())
    except (OSError, ProtocolError) as e:
        raise CommandError(f"{path_text} is not a JSON list of {what}: {e}") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise CommandError(f"{path_text} is not a JSON list of {what}")
    return data


def _configure_logging(debug: bool, on_loop: bool) -> None:
    """Log records on stderr with ``--debug``, nowhere without it: on the event loop (asyncio logs) a
    NullHandler takes them; a run on the blocking client loads nothing that logs."""
    if not (debug or on_loop):
        return
    import logging

    if debug:
        logging.basicConfig(
            level=logging.DEBUG, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
    else:
        logging.getLogger().addHandler(logging.NullHandler())  # nothing on stdout, nothing on stderr


def run_command(
    name: str,
    func: CommandFunc,
    params: dict[str, Any],
    common: CommonValues,
    namesrv: str | None,
    blocking: Blocking = False,
) -> int:
    """Run ``func(inv, **params)`` to completion and return the exit code.

    With ``blocking`` (and no ``-i`` watch, which sleeps on the event loop) it runs on the blocking
    client without a loop; the output, errors and exit codes are the same either way.
    """
    watch = None
    if WATCH_PARAM in params:
        watch = pop_watch(params)
    on_loop = watch is not None or not (blocking(params) if callable(blocking) else blocking)
    _configure_logging(common.debug, on_loop)
    inv = Invocation(name, common, namesrv, blocking=not on_loop)

    async def main() -> ExitCode | int | None:
        try:
            if watch is None:
                try:
                    return await func(inv, **params)
                finally:
                    await inv.release_output()
            from mqadmin.cli.watch import Watch

            interval, count = watch
            return await Watch(inv, interval, count).run(lambda: func(inv, **params))
        finally:
            await inv.close()

    try:
        if on_loop:
            import asyncio  # only a command that needs the loop starts one

            rc = asyncio.run(main())
        else:
            rc = run_sync(main())
    except KeyboardInterrupt:
        stderr_line(f"mqadmin {name}: interrupted")
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.OK
    except PartialFailure as e:
        for exc in e.failures:
            inv.report(exc)
        return exit_code_of(inv.failures, inv.any_success)
    except Exception as exc:
        rep = describe(exc, inv.settings_if_resolved)
        inv.print_error(exc, rep)
        if inv.out.structured:
            try:
                inv.out.data(rep.as_json())
            except BrokenPipeError:
                _silence_stdout()
        return rep.exit_code
    if rc is not None:
        return int(rc)
    if inv.failures:
        return exit_code_of(inv.failures, inv.any_success)
    return ExitCode.OK


def _silence_stdout() -> None:
    """After EPIPE (``mqadmin topicList | head``): no error at interpreter exit."""

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


# -------------------------------------------------------------------------------------- declaring


@dataclass(slots=True, eq=False)
class CommandSpec:
    """A Java sub-command as its module declares it: the click command is made from it when click
    parses (:mod:`mqadmin.cli.clickcommand`).

    ``java_opts``: ``-h``, ``-n`` (unless the command declares its own) and the command's options, in
    Java's order. ``own``: this command's options that the Java tool does not have (``--dry-run``,
    ``--max-lag``), as data, or as click options where click must judge them (a callback, a path).
    Compared by identity: one declaration is one command.
    """

    name: str
    desc: str
    java_opts: tuple[JavaOpt, ...]
    func: CommandFunc
    fanout: bool = False
    json_doc: str = ""
    epilog: str = ""
    own: tuple[OurOpt | click.Option, ...] = ()
    watch: bool = False
    blocking: Blocking = True


def java_command(
    name: str,
    opts: Sequence[JavaOpt] = (),
    *,
    fanout: bool = False,
    json_doc: str = "",
    epilog: str = "",
    own: Sequence[OurOpt | click.Option] = (),
    watch: bool = False,
    blocking: Blocking = True,
) -> Callable[[CommandFunc], CommandSpec]:
    """Decorator: ``@java_command("topicRoute", [...])`` on an async function.

    The description (Java's ``commandDesc()``) is the command's summary in :mod:`mqadmin.cli.registry`,
    and the command is filed there under its name for the loader (:func:`~mqadmin.cli.registry.define`).
    ``own`` are options of ours the Java command does not have; they get their own help section.
    ``watch`` adds ``-i SECONDS``: the command runs again every SECONDS until interrupted.
    ``blocking`` (the default, or a test of the parameters) runs it without an event loop: every await
    of the command is then an admin call (:mod:`mqadmin.remoting.blocking`). ``blocking=False`` is for
    a command that awaits the loop itself (``asyncio.sleep``, tasks, a server).
    A command declaring its own ``-n`` (with ``dest="namesrv"``) replaces the common one, as a
    commons-cli option of the same key does.
    """
    entry = BY_NAME.get(name)
    if entry is None:
        raise LookupError(f"command {name!r} is not in mqadmin.cli.registry.COMMANDS")
    common_n = () if any(o.short == NAMESRV.short for o in opts) else (NAMESRV,)

    def wrap_func(func: CommandFunc) -> CommandSpec:
        spec = CommandSpec(
            name,
            entry.summary,
            (HELP, *common_n, *opts),
            func,
            fanout=fanout,
            json_doc=json_doc,
            epilog=epilog,
            own=tuple(own),
            watch=watch,
            blocking=blocking,
        )
        return define(spec)

    return wrap_func
