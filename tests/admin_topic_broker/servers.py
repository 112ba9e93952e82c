"""What the topic/broker/export command tests run against, and how they look at the result.

- :class:`Cluster`: our name server and our development broker as real processes on loopback
  (``tests/servers.py`` starts them), with the installed ``mqadmin`` run against them.
- :class:`LegacyBrokerProxy`: a stand-in for a 4.x broker. It is a real
  :class:`~mqadmin.remoting.server.RemotingServer` that forwards every request to the development
  broker, except the 5.x-only requests GET_TOPIC_CONFIG (351) and UPDATE_AND_CREATE_TOPIC_LIST (18),
  which it answers as a 4.9.8 broker does: REQUEST_CODE_NOT_SUPPORTED with the remark
  ``" request type 351 not supported"``. The development broker itself answers 351 like a 5.x
  broker and cannot be made to refuse it, so this proxy is how the 4.x fallback is exercised.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from mqadmin.protocol import frame
from mqadmin.protocol.command import RemotingCommand
from tests import servers
from tests.cli_harness import Result, clean_env, run_mqadmin, with_admin

T = TypeVar("T")

JAVA_BROKER = "127.0.0.1:10911"
LEGACY_ONLY_MISSING = (351, 18)
"""Requests a 4.9.8 broker does not know (GET_TOPIC_CONFIG, UPDATE_AND_CREATE_TOPIC_LIST)."""


def mqadmin_env(root: Path) -> dict[str, str]:
    """An environment with no name server, context or credentials of the machine running the tests."""
    return clean_env(root / "rocketmq-home", root / "mqadmin-config")


def run(env: dict[str, str], *args: str, timeout: float = 30) -> Result:
    return run_mqadmin(list(args), env, timeout=timeout)


class Cluster(servers.Cluster):
    """``DefaultCluster``/``broker-a``: our name server and our broker, started for a test module."""

    def __init__(self, workdir: Path, env: dict[str, str], **broker_props: object) -> None:
        super().__init__(workdir, **broker_props)
        self.env = env

    def mqadmin(self, *args: str) -> Result:
        """The installed ``mqadmin`` with ``-n`` pointing at this cluster's name server."""
        return run(self.env, args[0], "-n", self.ns_addr, *args[1:])

    def admin(self, call: Callable[[Any], Awaitable[T]]) -> T:
        """One admin API call from the test process (to check what a command did)."""
        return with_admin(self.ns_addr, call)

    def java_view(self, text: str) -> str:
        """Our output with our run-time broker address where the Java broker's was."""
        return text.replace(self.broker_addr, JAVA_BROKER)


class LegacyBrokerProxy:
    """A 4.x broker's face on the development broker (see the module docstring); own thread and loop."""

    def __init__(self, target: str, missing: Iterable[int] = LEGACY_ONLY_MISSING) -> None:
        self.target = target
        self.missing = frozenset(missing)
        self.seen: list[int] = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.addr = ""

        def serve() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self._start())
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        if not ready.wait(10):
            raise RuntimeError("proxy did not start")

    async def _start(self) -> None:
        from mqadmin.remoting.client import RemotingClient
        from mqadmin.remoting.server import RemotingServer

        self.client = RemotingClient()
        self.server = RemotingServer()
        for code in self.missing:
            self.server.register_handler(code, self._refuse)
        self.server.register_default_handler(self._forward)
        port = await self.server.start("127.0.0.1", 0)
        self.addr = f"127.0.0.1:{port}"

    def _refuse(self, conn: object, cmd: RemotingCommand) -> RemotingCommand:
        self.seen.append(cmd.code)
        resp = cmd.response(3, f" request type {cmd.code} not supported")
        resp.version = 409
        return resp

    async def _forward(self, conn: object, cmd: RemotingCommand) -> RemotingCommand:
        self.seen.append(cmd.code)
        copy = frame.decode(frame.encode(cmd))  # the upstream call gets its own opaque
        return await self.client.invoke(self.target, copy, 10.0)

    def stop(self) -> None:
        async def close() -> None:
            await self.server.stop(1.0)
            await self.client.close()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# ------------------------------------------------------------------------------------- captures


def as_533_topic_config(java_498: str) -> str:
    """A 4.9.8 tool's ``updateTopic`` output as the 5.3.3 tool prints it for the same state.

    The two differ by the release, not by the state: 5.3.3's ``TopicConfig.toString`` ends with
    ``, attributes={}]`` and the line ends with a newline (4.9.8 prints neither). Nothing else is
    touched, so everything else must still be equal byte for byte.
    """
    assert java_498.count("order=false]") == 1 and not java_498.endswith("\n")
    return java_498.replace("order=false]", "order=false, attributes={}]") + "\n"
