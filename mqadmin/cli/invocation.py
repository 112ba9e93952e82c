"""One run of a command (:class:`Invocation`): its output, settings, admin client and failures.

A command function gets it as its first argument (:func:`~mqadmin.cli.command.run_command` makes it);
a watch (:mod:`mqadmin.cli.watch`) runs the same invocation round after round.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.errors import DeadlineError
from mqadmin.admin.fanout import FanOutResult
from mqadmin.admin.settings import AdminSettings, parse_namesrv_list
from mqadmin.cli.common import CommonValues
from mqadmin.cli.connection import context_in_use, resolve_settings
from mqadmin.cli.contexts import Context
from mqadmin.cli.errors import ErrorReport, describe
from mqadmin.cli.output import Output

__all__ = ["Invocation", "stderr_line"]


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
            self._settings = resolve_settings(self._namesrv_opt, self.common)
        return self._settings

    @property
    def settings_if_resolved(self) -> AdminSettings | None:
        return self._settings

    @property
    def admin(self) -> MQAdmin:
        if self._admin is None:
            self._admin = MQAdmin(self.settings, blocking=self.blocking)
        return self._admin

    def context(self) -> Context | None:
        """The context whose settings apply to this run (its own name servers are the ones used)."""
        return context_in_use(self._namesrv_opt, self.common)

    @property
    def namesrv_given(self) -> list[str] | None:
        """The ``-n`` list as given (Java uses it unshuffled for getNamesrvConfig/updateNamesrvConfig)."""
        if self._namesrv_opt is None or not self._namesrv_opt.strip():
            return None
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
        stderr_line(f"mqadmin {self.name}: {message}")

    def warn(self, message: str) -> None:
        self.say(f"warning: {message}")

    def print_error(self, exc: BaseException, rep: ErrorReport) -> None:
        if self.common.debug:
            import traceback  # --debug only

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


def stderr_line(line: str) -> None:
    """One line on stderr (a warning, a failure, a note)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
