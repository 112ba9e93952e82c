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

This module declares and runs; it does not import click. The click command of a declaration is made
when click parses it (:mod:`mqadmin.cli.clickcommand`).
"""

from __future__ import annotations

import sys

from mqadmin.cli.common import WATCH_PARAM, CommonValues, OurOpt
from mqadmin.cli.errors import CommandError, ErrorReport, PartialFailure, describe, exit_code_of
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import HELP, NAMESRV, JavaOpt
from mqadmin.cli.output import Output
from mqadmin.cli.registry import BY_NAME, define

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from typing import Any

    import click

    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.fanout import FanOutResult
    from mqadmin.admin.settings import AdminSettings

    CommandFunc = Callable[..., Awaitable[ExitCode | int | None]]
    Blocking = bool | Callable[[dict[str, Any]], bool]
    """Whether a command runs on the blocking client: always, never, or as its parameters say."""

__all__ = ["CommandSpec", "Invocation", "java_command", "once", "read_json_list", "run_command"]


def once(params: dict[str, Any]) -> bool:
    """``blocking`` of a command whose own ``-i`` repeats it with a pause on the event loop: without
    ``-i`` it runs once, on the blocking client."""
    return params.get("interval") is None


class Invocation:
    """One run of a command: its output, settings, admin client (made on first use) and failures."""

    def __init__(
        self, name: str, common: CommonValues, namesrv_opt: str | None, *, blocking: bool = False
    ) -> None:
        self.name = name
        self.blocking = blocking
        """No event loop runs: the admin client is the blocking one (:mod:`mqadmin.remoting.blocking`)."""
        self.common = common
        self.out = Output(common.output, view=common.view)
        self.out.hold = True  # broker items are completed with their names before they are written
        self._namesrv_opt = namesrv_opt
        self._settings: AdminSettings | None = None
        self._admin: MQAdmin | None = None
        self.failures: list[BaseException] = []
        self._reported: set[str] = set()
        self.any_success = False
        self._who: dict[str, dict[str, Any]] | None = None

    @property
    def settings(self) -> AdminSettings:
        if self._settings is None:
            from mqadmin.cli.connection import resolve_settings

            self._settings = resolve_settings(self._namesrv_opt, self.common)
        return self._settings

    @property
    def settings_if_resolved(self) -> AdminSettings | None:
        return self._settings

    @property
    def admin(self) -> MQAdmin:
        if self._admin is None:
            from mqadmin.admin.api import MQAdmin

            self._admin = MQAdmin(self.settings, blocking=self.blocking)
        return self._admin

    @property
    def namesrv_given(self) -> list[str] | None:
        """The ``-n`` list as given (Java uses it unshuffled for getNamesrvConfig/updateNamesrvConfig)."""
        if self._namesrv_opt is None or not self._namesrv_opt.strip():
            return None
        from mqadmin.admin.settings import parse_namesrv_list

        return parse_namesrv_list(self._namesrv_opt)

    @property
    def deadline(self) -> float:
        if self.common.deadline is not None:
            return self.common.deadline
        return self.settings.timeout * 3

    def report(self, exc: BaseException) -> ErrorReport:
        """Print one failure (of several) on stderr and remember it for the exit code."""
        self.failures.append(exc)
        rep = describe(exc, self._settings)
        self._reported.add(_failure_key(rep))
        self.print_error(exc, rep)
        return rep

    def report_once(self, exc: BaseException) -> None:
        """:meth:`report`, unless the same failure was reported already: a server that cannot be reached
        or does not answer fails every request sent to it, and one line says so."""
        if _failure_key(describe(exc, self._settings)) in self._reported:
            return
        self.report(exc)

    def report_cut_off(self, result: FanOutResult[Any, Any], what: str) -> set[Any]:
        """The keys of a fan-out over names (topics, groups) that the deadline cut off, said in one line
        ("no answer from 13 topics (A, B, ...) before the 3 s deadline"); returns those keys."""
        from mqadmin.admin.errors import DeadlineError

        cut = [k for k in result.order if isinstance(result.errors.get(k), DeadlineError)]
        if cut:
            shown = ", ".join(str(k) for k in cut[:5]) + (f" and {len(cut) - 5} more" if len(cut) > 5 else "")
            first = result.errors[cut[0]]
            assert isinstance(first, DeadlineError)
            self.report(DeadlineError(f"{len(cut)} {what} ({shown})", first.timeout, first.request_code))
        return set(cut)

    def error_list(self) -> list[dict[str, Any]]:
        """The failures so far as JSON objects (for the ``errors`` member of structured output)."""
        return [describe(e, self._settings).as_json()["error"] for e in self.failures]

    def add_errors(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` with the failures so far as its ``errors`` member, if there are any."""
        if self.failures:
            data["errors"] = self.error_list()
        return data

    def tally(self, result: FanOutResult[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A fan-out over addresses, accounted for: the values of the calls that worked ({addr: value},
        in the order asked) and a JSON row per address (``addr``, ``ok``, ``error``); each failure is
        reported as it is met."""
        done: dict[str, Any] = {}
        rows: list[dict[str, Any]] = []
        for addr in result.order:
            if addr in result.results:
                done[addr] = result.results[addr]
                self.any_success = True
                rows.append({"addr": addr, "ok": True})
            else:
                rep = self.report(result.errors[addr])
                rows.append({"addr": addr, "ok": False, "error": rep.message})
        return done, rows

    async def on_each(
        self, addrs: Sequence[str], call: Callable[[str], Awaitable[Any]]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``call(addr)`` on every address at once, within the deadline, :meth:`tally`-ed (the rows
        of a ``brokers`` list are named when written: :meth:`release_output`)."""
        return self.tally(await self.admin.core.fan_out(addrs, call, deadline=self.deadline))

    async def broker_items(self, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` (each with an ``addr``) as broker items of the JSON contract: ``cluster``,
        ``brokerName``, ``brokerId`` and ``addr`` first, from the name server's cluster table (null
        for an address it does not list), then the row's own members."""
        who = await self._broker_identities()
        out: list[dict[str, Any]] = []
        for row in rows:
            addr = row.get("addr")
            ident = who.get(addr) if isinstance(addr, str) else None
            item: dict[str, Any] = dict(ident or {"cluster": None, "brokerName": None, "brokerId": None})
            item["addr"] = addr
            item.update((k, v) for k, v in row.items() if k not in item or item[k] is None)
            out.append(item)
        return out

    async def broker_item(self, addr: str, **members: Any) -> dict[str, Any]:
        """One broker item (:meth:`broker_items`) for ``addr`` with ``members``."""
        return (await self.broker_items([{"addr": addr, **members}]))[0]

    async def _broker_identities(self) -> dict[str, dict[str, Any]]:
        """addr -> cluster, broker name and id, asked of the name server once per run (empty when
        it cannot say: the items then carry nulls, the command's answer is not lost for it)."""
        if self._who is None:
            self._who = {}
            try:
                info = await self.admin.namesrv.examine_broker_cluster_info()
            except Exception:
                return self._who
            cluster_of = {b: c for c, names in (info.cluster_addr_table or {}).items() for b in names}
            for name, data in (info.broker_addr_table or {}).items():
                cluster = data.cluster or cluster_of.get(name)
                for bid, a in (data.broker_addrs or {}).items():
                    self._who[a] = {"cluster": cluster, "brokerName": name, "brokerId": int(bid)}
        return self._who

    def say(self, message: str) -> None:
        """One line on stderr, after the command's name (``mqadmin topicRoute: ...``)."""
        _say(f"mqadmin {self.name}: {message}")

    def warn(self, message: str) -> None:
        self.say(f"warning: {message}")

    def print_error(self, exc: BaseException, rep: ErrorReport) -> None:
        if self.common.debug:
            import traceback

            traceback.print_exception(exc, file=sys.stderr)
        self.say(rep.message)

    async def release_output(self) -> None:
        """Write what the output held back, its broker items named (:meth:`Output.release`)."""
        if self.out.holding:
            self.out.release(await self._broker_identities())

    async def close(self) -> None:
        if self._admin is not None:
            self._note_default_namesrv()
            await self._admin.close()

    def _note_default_namesrv(self) -> None:
        """Say on stderr when the silent 127.0.0.1:9876 fallback was the name server talked to."""
        settings = self._settings
        if settings is None or not settings.namesrv_is_default or self._admin is None:
            return
        addr = settings.namesrv_addrs[0]
        if addr in self._admin.core.client.connections:
            self.say(f"note: used the default name server {addr} (no -n, NAMESRV_ADDR or context was given)")


def _failure_key(rep: ErrorReport) -> str:
    """What makes two failures the same one for :meth:`Invocation.report_once`."""
    if rep.kind in ("timeout", "unreachable") and rep.details.get("addr"):
        return f"{rep.kind} {rep.details['addr']}"
    return rep.message


def read_json_list(path_text: str, what: str) -> list[Any]:
    """The JSON array in a file (``-f`` of the batch commands); a missing file, bad JSON or another
    shape is one clear error. ``null`` reads as an empty list."""
    from pathlib import Path

    from mqadmin.protocol import fastjson
    from mqadmin.protocol.errors import ProtocolError

    path = Path(path_text)
    if not path.is_file():
        raise CommandError(f"the file path {path_text} does not exists")  # the Java wording
    try:
        data = fastjson.loads(path.read_bytes())
    except (OSError, ProtocolError) as e:
        raise CommandError(f"{path_text} is not a JSON list of {what}: {e}") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise CommandError(f"{path_text} is not a JSON list of {what}")
    return data


def _configure_logging(debug: bool, on_loop: bool) -> None:
    """Log lines on stderr with ``--debug``, else none at all. Without a loop and ``--debug``
    logging is not even imported: no module such a command loads logs anything."""
    if not (debug or on_loop or "logging" in sys.modules):
        return
    import logging

    root = logging.getLogger()
    if debug:
        logging.basicConfig(
            level=logging.DEBUG, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
    else:
        root.addHandler(logging.NullHandler())  # nothing on stdout, nothing on stderr unless --debug


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
        from mqadmin.cli.watch import pop_watch

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

            return await Watch(inv, watch.interval, watch.count).run(lambda: func(inv, **params))
        finally:
            await inv.close()

    try:
        if on_loop:
            import asyncio

            rc = asyncio.run(main())
        else:
            from mqadmin.remoting.blocking import run_sync

            rc = run_sync(main())
    except KeyboardInterrupt:
        _say(f"mqadmin {name}: interrupted")
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


def _say(line: str) -> None:
    """One line on stderr (a warning, a failure, a note)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _silence_stdout() -> None:
    """After EPIPE (``mqadmin topicList | head``): no error at interpreter exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


# -------------------------------------------------------------------------------------- declaring


class CommandSpec:
    """A Java sub-command as its module declares it: the click command is made from it when click
    parses (:mod:`mqadmin.cli.clickcommand`).

    ``java_opts``: ``-h``, ``-n`` (unless the command declares its own) and the command's options, in
    Java's order. ``own``: this command's options that the Java tool does not have (``--dry-run``,
    ``--max-lag``), as data, or as click options where click must judge them (a callback, a path).
    Compared by identity: one declaration is one command.
    """

    __slots__ = (
        "blocking",
        "desc",
        "epilog",
        "fanout",
        "func",
        "java_opts",
        "json_doc",
        "name",
        "own",
        "watch",
    )

    def __init__(
        self,
        name: str,
        desc: str,
        java_opts: tuple[JavaOpt, ...],
        func: CommandFunc,
        fanout: bool = False,
        json_doc: str = "",
        epilog: str = "",
        own: tuple[OurOpt | click.Option, ...] = (),
        watch: bool = False,
        blocking: Blocking = True,
    ) -> None:
        self.name = name
        self.desc = desc
        self.java_opts = java_opts
        self.func = func
        self.fanout = fanout
        self.json_doc = json_doc
        self.epilog = epilog
        self.own = own
        self.watch = watch
        self.blocking = blocking


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
