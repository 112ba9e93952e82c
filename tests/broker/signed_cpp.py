"""The real C++ client sending with credentials, run in its own process (:mod:`tests.broker.acl_cpp_send`):
the ACL 1.0 and ACL 2.0 tests use it as an independent signing peer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mqadmin.admin.settings import Credentials

CPP_SEND = str(Path(__file__).with_name("acl_cpp_send.py"))


def cpp_send(ns_addr: str, topic: str, count: int, who: Credentials) -> list[dict[str, object]]:
    """Send ``count`` messages signed as ``who``; the events the sender printed (the last is ``done``)."""
    proc = subprocess.run(
        [sys.executable, CPP_SEND, ns_addr, topic, str(count), who.access_key, who.secret_key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and events and events[-1]["event"] == "done", proc.stderr[-2000:]
    return events
