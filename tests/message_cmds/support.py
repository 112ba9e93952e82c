"""Helpers of the message-command tests: run ``mqadmin``, set state up with real sends, mask live values.

- :func:`run` runs the installed ``mqadmin`` as a subprocess (time zone UTC, as the captures).
- :class:`Cluster` is our name server and development broker as processes (``tests.broker.peers``).
- :func:`cpp_send` sends with the Apache RocketMQ C++ client in its own process (``cpp_send.py``).
- :func:`with_admin` runs a coroutine with an :class:`MQAdmin` of our own (our producer, raw requests).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from tests.broker.peers import BrokerProcess, NameServerProcess, create_topic

MQADMIN = str(Path(sys.executable).parent / "mqadmin")
CPP_SEND = str(Path(__file__).with_name("cpp_send.py"))
T = TypeVar("T")


@dataclass
class Result:
    code: int
    out: str
    err: str
    raw: bytes


def run(env: dict[str, str], *args: str, timeout: float = 30) -> Result:
    p = subprocess.run([MQADMIN, *args], capture_output=True, env=env, timeout=timeout)
    return Result(
        p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.stdout
    )


def base_env(workdir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MQADMIN_", "NAMESRV_ADDR", "ROCKETMQ_")) and k != "XDG_CONFIG_HOME"
    }
    (workdir / "home").mkdir(parents=True, exist_ok=True)
    env["ROCKETMQ_HOME"] = str(workdir / "home")
    env["MQADMIN_CONFIG_DIR"] = str(workdir / "config")
    env["TZ"] = "UTC"
    return env


class Cluster:
    """Our name server and one development broker (``DefaultCluster``/``broker-a``)."""

    def __init__(self, workdir: Path, **broker_props: object) -> None:
        self.ns = NameServerProcess(workdir / "ns")
        try:
            self.broker = BrokerProcess(workdir / "broker", self.ns.addr, **broker_props)
        except Exception:
            self.ns.stop()
            raise
        self.env = base_env(workdir)

    def stop(self) -> None:
        self.broker.stop()
        if self.broker.alive:
            self.broker.kill()
        self.ns.stop()

    def mqadmin(self, *args: str, timeout: float = 30) -> Result:
        return run(self.env, *args, timeout=timeout)

    def create_topic(self, topic: str, queues: int = 4) -> None:
        """UPDATE_AND_CREATE_TOPIC on the broker, then wait until the name server routes it."""
        resp = create_topic(self.broker.addr, topic, queues)
        assert resp.code == 0, resp.remark
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            r = self.mqadmin("topicRoute", "-n", self.ns.addr, "-t", topic)
            if r.code == 0:
                return
            time.sleep(0.2)
            create_topic(self.broker.addr, topic, queues)
        raise AssertionError(f"the name server never routed {topic}")


def with_admin(ns_addr: str, fn: Callable[[MQAdmin], Awaitable[T]], timeout: float = 10) -> T:
    async def go() -> T:
        admin = MQAdmin(AdminSettings(namesrv_addrs=(ns_addr,), timeout=timeout))
        try:
            return await fn(admin)
        finally:
            await admin.close()

    return asyncio.run(go())


def cpp_send(ns_addr: str, specs: list[dict[str, Any]], timeout: float = 60) -> list[dict[str, Any]]:
    """Send with the C++ client; one result (status, msg_id, offset) per spec."""
    proc = subprocess.run(
        [sys.executable, CPP_SEND, ns_addr, json.dumps(specs)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines or lines[-1].get("event") != "done":
        raise AssertionError(f"C++ send failed ({proc.returncode}): {proc.stderr[-2000:]}")
    results = lines[:-1]
    assert len(results) == len(specs) and all(r["status"] == "OK" for r in results), results
    return results


# ---------------------------------------------------------------------------------------- masking

_ID = re.compile(r"\b(?:[0-9A-F]{56}|[0-9A-F]{32})\b")


def mask_ids(text: str) -> str:
    """Message ids (unique keys and offset ids of either address width) are live values."""
    return _ID.sub("<ID>", text)
