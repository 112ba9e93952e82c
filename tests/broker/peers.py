"""Clients of the broker tests: the C++ client and our remoting client, all on loopback (the servers
they talk to are ``tests/servers.py``'s).

- :func:`cpp` runs ``tests/broker/cpp_client.py`` (the C++ client in its own process) and returns
  its JSON lines.
- :func:`call` sends one request with our remoting client and returns the response.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient

__all__ = [
    "MQADMIN",
    "call",
    "cpp",
    "cpp_start",
    "create_topic",
    "create_topic_fields",
]

MQADMIN = str(Path(sys.executable).parent / "mqadmin")
CPP_CLIENT = str(Path(__file__).with_name("cpp_client.py"))


def cpp(*args: str, timeout: float = 120) -> list[dict[str, Any]]:
    """Run the C++ client helper; its JSON lines (a crash of the native library fails the test here)."""
    try:
        proc = subprocess.run(
            [sys.executable, CPP_CLIENT, *args], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else e.stdout or ""
        raise AssertionError(
            f"C++ client {args} did not finish in {timeout} s; output: {out[-600:]}"
        ) from None
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not events or events[-1].get("event") != "done":
        raise AssertionError(f"C++ client {args[0]} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return events


def cpp_start(*args: str) -> subprocess.Popen[str]:
    """The C++ client helper in the background (read its stdout when it ends)."""
    return subprocess.Popen(
        [sys.executable, CPP_CLIENT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def call(addr: str, cmd: RemotingCommand, timeout: float = 10.0) -> RemotingCommand:
    """One request, one response, with our remoting client."""

    async def go() -> RemotingCommand:
        async with RemotingClient() as client:
            return await client.invoke(addr, cmd, timeout)

    return asyncio.run(go())


def create_topic_fields(topic: str, **over: str) -> dict[str, str]:
    """UPDATE_AND_CREATE_TOPIC ext fields as the 5.3.3 tool sends them (see the captures), with
    ``over`` replaced."""
    return {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": "4",
        "writeQueueNums": "4",
        "perm": "6",
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
        "attributes": "",
        "force": "false",
        **over,
    }


def create_topic(addr: str, topic: str, queues: int = 4, perm: int = 6) -> RemotingCommand:
    """UPDATE_AND_CREATE_TOPIC as ``mqadmin updateTopic`` sends it."""
    ext = {
        "topic": topic,
        "defaultTopic": "TBW102",
        "readQueueNums": str(queues),
        "writeQueueNums": str(queues),
        "perm": str(perm),
        "topicFilterType": "SINGLE_TAG",
        "topicSysFlag": "0",
        "order": "false",
    }
    return call(addr, RemotingCommand.request(17, ext))
