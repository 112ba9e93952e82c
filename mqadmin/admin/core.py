"""The transport side of the admin API: requests, name server failover, broker calls, fan-out.

Name server calls without a target go to the current name server; when it cannot be reached
(connect failure, timeout, connection lost) the next one of the list is tried, and the one that
answered stays current for later calls, as the Java client does. An error *answer* is not retried:
it is the cluster's answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Container, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from mqadmin.admin import fanout
from mqadmin.admin.errors import NameServersUnavailableError, is_unreachable
from mqadmin.admin.fanout import FanOutResult
from mqadmin.admin.fieldorder import ordered_fields
from mqadmin.admin.settings import AdminSettings
from mqadmin.protocol.bodybudget import over_budget
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.headers.base import HeaderError, RequestHeader
from mqadmin.remoting.blocking import BlockingClient
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

if TYPE_CHECKING:  # each imported where used: asyncio (the async client), ssl (--tls), hashing (credentials)
    import ssl

    from mqadmin.admin.signing import AclSigner
    from mqadmin.remoting.client import RemotingClient

T = TypeVar("T")

__all__ = ["AdminCore", "Fields"]

Fields = RequestHeader | dict[str, str | None] | None
"""A request's header: a declared one (preferred), or loose fields in Java declaration order."""

SUCCESS = 0


def _client_tls() -> ssl.SSLContext:
    """TLS as the Java client does by default (``tls.client.authServer=false``): no server check."""
    import ssl

    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


_DONE: Any = object()


class AdminCore:
    """Requests to name servers and brokers over one :class:`BlockingClient` (``blocking=True``: a
    command, which runs without an event loop), or over a :class:`RemotingClient` (a command that
    needs the loop, the exporter, the servers' own admin calls).

    On the blocking client every method runs to its end without suspending (drive it with
    :func:`mqadmin.remoting.blocking.run_sync`): the same request building and answer parsing serve
    both, and :meth:`fan_out` runs its calls on threads instead of tasks.

    Use as ``async with``; the connections close at the end.
    """

    def __init__(
        self,
        settings: AdminSettings,
        client: RemotingClient | BlockingClient | None = None,
        *,
        blocking: bool = False,
    ) -> None:
        self.settings = settings
        self._signer: AclSigner | None = None
        if settings.credentials:
            from mqadmin.admin.signing import AclSigner  # brings hashlib and hmac

            self._signer = AclSigner(settings.credentials)
        if client is None:
            options: dict[str, Any] = {
                "connect_timeout": min(settings.connect_timeout, settings.timeout),
                "ssl": _client_tls() if settings.tls else None,
                "rpc_hooks": [self._signer] if self._signer else (),
            }
            if blocking:
                client = BlockingClient(**options)
            else:
                from mqadmin.remoting.client import RemotingClient  # brings asyncio

                client = RemotingClient(**options)
        self.client: RemotingClient | BlockingClient = client
        self._current = 0

    @property
    def blocking(self) -> bool:
        """True on the blocking client: no event loop runs, none may be awaited."""
        return isinstance(self.client, BlockingClient)

    async def __aenter__(self) -> AdminCore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.client.close()

    @property
    def namesrv_addrs(self) -> tuple[str, ...]:
        return self.settings.namesrv_addrs

    # ------------------------------------------------------------------------------ requests

    def request(self, code: int, fields: Fields = None, body: bytes | None = None) -> RemotingCommand:
        """A request as the Java tool builds it; ``fields`` in the header class's declaration order.

        A declared header is checked first (names and required fields, as the server will check
        them): a bad one raises :class:`HeaderError` and nothing is sent. So is a body over the
        budget the request registry declares for ``code`` (our servers would refuse it unread).
        """
        if isinstance(fields, RequestHeader):
            fields = dict(fields.check().to_ext())
        size = 0 if body is None else len(body)
        most = over_budget(code, size)
        if most is not None:
            over = f"a body of {size} bytes is over the {most} bytes declared for it"
            raise HeaderError(f"request code {code}: {over}")
        if self._signer is not None:
            ext = {k: v for k, v in (fields or {}).items() if v is not None} or None
        else:
            ext = ordered_fields(fields)
        return RemotingCommand.request(
            code, ext, body, language=self.settings.language, version=self.settings.version
        )

    async def invoke(
        self,
        addr: str,
        code: int,
        fields: Fields = None,
        body: bytes | None = None,
        *,
        timeout: float | None = None,
        ok: Container[int] = (SUCCESS,),
    ) -> RemotingCommand:
        """One request to ``addr``; an answer whose code is not in ``ok`` raises RemoteCommandError."""
        cmd = self.request(code, fields, body)
        return await self.client.call(addr, cmd, self._timeout(timeout), ok_codes=ok)

    async def invoke_namesrv(
        self,
        code: int,
        fields: Fields = None,
        body: bytes | None = None,
        *,
        timeout: float | None = None,
        ok: Container[int] = (SUCCESS,),
    ) -> tuple[str, RemotingCommand]:
        """A request any name server can answer; returns (the address that answered, the answer)."""
        addrs = self.namesrv_addrs
        failures: list[tuple[str, RemotingError]] = []
        for step in range(len(addrs)):
            index = (self._current + step) % len(addrs)
            addr = addrs[index]
            try:
                resp = await self.invoke(addr, code, fields, body, timeout=timeout, ok=ok)
            except RemoteCommandError:
                self._current = index
                raise
            except RemotingError as e:
                if not is_unreachable(e):
                    raise
                failures.append((addr, e))
                continue
            self._current = index
            return addr, resp
        if len(failures) == 1:
            raise failures[0][1]
        raise NameServersUnavailableError(failures)

    async def invoke_each_namesrv(
        self,
        code: int,
        fields: Fields = None,
        body: bytes | None = None,
        *,
        addrs: Iterable[str] | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
    ) -> FanOutResult[str, RemotingCommand]:
        """The same request to every name server (all at once), results in list order."""
        targets = list(self.namesrv_addrs if addrs is None else addrs)

        def call(addr: str) -> Awaitable[RemotingCommand]:
            return self.invoke(addr, code, fields, body, timeout=timeout)

        return await self.fan_out(targets, call, deadline=deadline, code=code)

    async def fan_out(
        self,
        keys: Iterable[T],
        call: Callable[[T], Awaitable[Any]],
        *,
        deadline: float | None = None,
        limit: int = 32,
        code: int | None = None,
        addr_of: Callable[[T], str] | None = None,
    ) -> FanOutResult[T, Any]:
        """``call(key)`` for every key, concurrently, stopping at ``deadline`` seconds from now."""
        run = fanout.fan_out_threads if self.blocking else fanout.fan_out
        return await run(
            keys,
            call,
            deadline=self.default_deadline() if deadline is None else deadline,
            limit=limit,
            code=code,
            addr_of=addr_of,
        )

    async def gather(self, *calls: Awaitable[Any]) -> list[Any]:
        """The results of ``calls`` in order: all at once on the event loop (``asyncio.gather``), one
        after the other on the blocking client (for a few calls to one broker; calls to many brokers
        are a :meth:`fan_out`, on threads there). The first failure is raised either way."""
        if not self.blocking:
            import asyncio

            return list(await asyncio.gather(*calls))
        results: list[Any] = []
        pending = list(calls)
        try:
            for i, call in enumerate(pending):
                results.append(await call)
                pending[i] = _DONE
        finally:
            for call in pending:  # not started after a failure: closed, never awaited
                close = getattr(call, "close", None)
                if call is not _DONE and close is not None:
                    close()
        return results

    def default_deadline(self) -> float:
        """A fan-out waits for its slowest call at most this long: a few request timeouts."""
        return self.settings.timeout * 3

    def _timeout(self, timeout: float | None) -> float:
        return self.settings.timeout if timeout is None else timeout
