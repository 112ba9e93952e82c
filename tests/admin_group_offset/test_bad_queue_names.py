"""The queue offset calls refuse a bad topic before anything is sent: not even the route is asked."""

from __future__ import annotations

import asyncio
import socket

import pytest

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.headers.base import HeaderError

BAD_TOPICS = ["bad/topic", "../../T", "T\x00", "T\ud800", "T" * 128, ""]


def _silent_port() -> tuple[socket.socket, str]:
    """A listening socket that never answers: a request sent to it would time out, not fail fast."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return sock, f"127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize("topic", BAD_TOPICS)
@pytest.mark.parametrize("call", ["min_offset", "max_offset", "search_offset"])
def test_bad_topic_refused_before_any_request(topic: str, call: str) -> None:
    sock, addr = _silent_port()

    async def run() -> None:
        async with MQAdmin(AdminSettings(namesrv_addrs=(addr,), timeout=5)) as admin:
            mq = MessageQueue(topic, "broker-a", 0)
            args = (mq, 1_700_000_000_000) if call == "search_offset" else (mq,)
            with pytest.raises(HeaderError):
                await asyncio.wait_for(getattr(admin.messages, call)(*args), 2)

    try:
        asyncio.run(run())
        sock.settimeout(0.2)
        with pytest.raises(TimeoutError):
            sock.accept()  # nobody connected: the name server was never asked for the route
    finally:
        sock.close()
