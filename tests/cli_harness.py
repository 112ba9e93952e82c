"""The installed ``mqadmin`` as the command tests run it (the servers it talks to are
``tests/servers.py``'s).

- :func:`run_mqadmin` runs it as a subprocess and returns a :class:`Result`;
- :func:`clean_env` is an environment without the name server, context or credentials of the
  machine running the tests;
- :func:`with_admin` runs a coroutine with an :class:`~mqadmin.admin.api.MQAdmin` of the test process;
- :func:`recorded_run` / :func:`recorded_text`: a run of the Java tool recorded in the captures (its
  arguments and its stdout), to run ours the same way (:func:`with_namesrv`) and compare.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tests.captures import captures_dir

T = TypeVar("T")

MQADMIN = str(Path(sys.executable).parent / "mqadmin")


@dataclass
class Result:
    code: int
    out: str
    err: str
    raw: bytes = b""
    """stdout as bytes."""


def interruptible() -> None:
    """A child's ``preexec_fn``: Ctrl-C (SIGINT) works in it even when the suite runs as a background
    job, whose shell started it with SIGINT ignored (a process keeps an ignored SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_mqadmin(
    args: list[str],
    env: dict[str, str],
    *,
    timeout: float = 30,
    cwd: Path | None = None,
    errors: str = "strict",
) -> Result:
    """``mqadmin ARGS``; its output decoded as UTF-8 (``errors`` as in ``bytes.decode``)."""
    p = subprocess.run([MQADMIN, *args], capture_output=True, env=env, cwd=cwd, timeout=timeout)
    return Result(p.returncode, p.stdout.decode("utf-8", errors), p.stderr.decode("utf-8", errors), p.stdout)


def clean_env(rocketmq_home: Path, config_dir: Path, *, tz: str | None = "UTC") -> dict[str, str]:
    """This process's environment without ``MQADMIN_*``, ``NAMESRV_ADDR``, ``ROCKETMQ_*`` and the XDG
    config folder, with its own ``ROCKETMQ_HOME`` (created), ``MQADMIN_CONFIG_DIR`` and ``TMPDIR`` (in
    the config folder); ``TZ`` as the captures were made (UTC) unless ``tz`` is None."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MQADMIN_", "NAMESRV_ADDR", "ROCKETMQ_"))
        and k not in ("XDG_CONFIG_HOME", "PYTHONDONTWRITEBYTECODE")  # bytecode caches make each run faster
    }
    rocketmq_home.mkdir(parents=True, exist_ok=True)
    env["ROCKETMQ_HOME"] = str(rocketmq_home)
    env["MQADMIN_CONFIG_DIR"] = str(config_dir)
    # files a command leaves in the temporary folder (the static-topic plans, as Java) stay in the test's
    (config_dir / "tmp").mkdir(parents=True, exist_ok=True)
    env["TMPDIR"] = str(config_dir / "tmp")
    if tz is not None:
        env["TZ"] = tz
    return env


def with_admin(ns_addr: str, fn: Callable[[Any], Awaitable[T]], **settings: Any) -> T:
    """``fn(admin)`` with an :class:`~mqadmin.admin.api.MQAdmin` on ``ns_addr`` (``settings``: more
    :class:`~mqadmin.admin.settings.AdminSettings` fields), closed afterwards."""
    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.settings import AdminSettings

    async def go() -> T:
        async with MQAdmin(AdminSettings(namesrv_addrs=(ns_addr,), **settings)) as admin:
            return await fn(admin)

    return asyncio.run(go())


def recorded_run(scenario: str) -> tuple[list[str], bytes]:
    """The Java tool's arguments (``<scenario>.cmd``) and its stdout (``<scenario>.out``)."""
    base = captures_dir() / scenario
    args = shlex.split(base.with_suffix(".cmd").read_text().strip())
    return args, base.with_suffix(".out").read_bytes()


def recorded_text(scenario: str, *, namesrv: bool = True) -> tuple[list[str], str]:
    """:func:`recorded_run` with the stdout as text; ``namesrv=False`` leaves ``-n ADDR`` out."""
    args, out = recorded_run(scenario)
    if not namesrv:
        i = args.index("-n")
        del args[i : i + 2]
    return args, out.decode("utf-8")


def mask_settings(text: str, keys: Collection[str], mark: str) -> str:
    """Settings as the Java tool lists them (``%-50s=  %s``), the values of ``keys`` replaced by
    ``mark`` (paths and ports that cannot be the recorded ones)."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.split(" ", 1)[0] in keys:
            line = line[:53] + mark + "\n"
        out.append(line)
    return "".join(out)


def with_namesrv(args: list[str], addr: str) -> list[str]:
    """Recorded arguments with our name server's address after ``-n``."""
    out = list(args)
    out[out.index("-n") + 1] = addr
    return out


BROKER_IDENTITY = ("cluster", "brokerName", "brokerId")


def unwrap(doc: Any) -> Any:
    """A JSON-contract document as the data a test expects: its ``apiVersion`` checked and left out,
    and each ``brokers`` item's identity checked (every key present, the broker named) and left out
    but for its ``addr``."""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            if k == "apiVersion":
                assert v == "mqadmin/v1", v
                continue
            if k == "brokers" and isinstance(v, list):
                items = []
                for item in v:
                    assert all(key in item for key in (*BROKER_IDENTITY, "addr")), item
                    assert item["brokerName"], item
                    items.append(unwrap({x: y for x, y in item.items() if x not in BROKER_IDENTITY}))
                out[k] = items
            else:
                out[k] = unwrap(v)
        return out
    if isinstance(doc, list):
        return [unwrap(v) for v in doc]
    return doc
