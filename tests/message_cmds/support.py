"""Helpers of the message-command tests: run ``mqadmin``, set state up with real sends, mask live values.

- :func:`run` runs the installed ``mqadmin`` as a subprocess (time zone UTC, as the captures).
- :class:`Cluster` is our name server and development broker as processes (``tests.servers``).
- :func:`cpp_send` sends with the Apache RocketMQ C++ client in its own process (``cpp_send.py``).
- :func:`with_admin` runs a coroutine with an :class:`MQAdmin` of our own (our producer, raw requests).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from tests import cli_harness as harness
from tests import servers
from tests.broker.peers import create_topic
from tests.cli_harness import Result, clean_env, run_mqadmin

CPP_SEND = str(Path(__file__).with_name("cpp_send.py"))


def run(env: dict[str, str], *args: str, timeout: float = 30) -> Result:
    return run_mqadmin(list(args), env, timeout=timeout, errors="replace")


def base_env(workdir: Path) -> dict[str, str]:
    return clean_env(workdir / "home", workdir / "config")


class Cluster(servers.Cluster):
    """Our name server and one development broker (``DefaultCluster``/``broker-a``)."""

    def __init__(self, workdir: Path, **broker_props: object) -> None:
        super().__init__(workdir, **broker_props)
        self.env = base_env(workdir)

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


with_admin = partial(harness.with_admin, timeout=10)
"""``with_admin(ns_addr, fn)``: ``fn(admin)`` with requests that may take 10 s."""


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
