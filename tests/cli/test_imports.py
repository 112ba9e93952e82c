"""A command's module is imported only when that command runs (the click group loads it lazily), and a
command that asks a server imports none of the packages only other parts use: Spark, Arrow, rich, the
broker and the name server.

Checked on the installed ``mqadmin`` with ``PYTHONPROFILEIMPORTTIME``, which lists every module the
process imported (the address refuses connections: the request path is still taken in full).
"""

from __future__ import annotations

import pytest

from mqadmin.cli.registry import COMMANDS
from mqadmin.localcluster import free_port

ELSEWHERE = ("pyspark", "pyarrow", "rich", "mqadmin.broker", "mqadmin.namesrv")
COMMAND_MODULES = {f"mqadmin.cli.commands.{c.module}" for c in COMMANDS}


def imported(mqadmin, args: list[str], env: dict[str, str] | None = None) -> set[str]:  # type: ignore[no-untyped-def]
    r = mqadmin(*args, env={**(env or {}), "PYTHONPROFILEIMPORTTIME": "1"})
    names = {
        ln.rsplit("|", 1)[1].strip()
        for ln in r.err.splitlines()
        if ln.startswith("import time:") and "|" in ln
    }
    assert names, r.err
    return names


@pytest.mark.parametrize(
    "args", [["topicRoute", "-t", "T"], ["clusterList"], ["consumerProgress", "-g", "G"]], ids=lambda a: a[0]
)
def test_a_command_imports_its_own_module_and_nothing_it_does_not_use(mqadmin, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    own = next(f"mqadmin.cli.commands.{c.module}" for c in COMMANDS if c.name == args[0])
    names = imported(mqadmin, [args[0], "-n", f"127.0.0.1:{free_port()}", *args[1:]])
    assert sorted(names & COMMAND_MODULES) == [own]
    assert sorted(m for m in names if any(m == p or m.startswith(p + ".") for p in ELSEWHERE)) == []


def test_listing_commands_imports_no_command_module(mqadmin) -> None:  # type: ignore[no-untyped-def]
    names = imported(mqadmin, ["--help"])
    assert not [m for m in names if m.startswith("mqadmin.cli.commands.")]


ONLY_WITH_OPTIONS = ("ssl", "asyncio", "hmac")  # --tls; the event loop (-i, --stuck-after); credentials


@pytest.mark.parametrize(
    "args", [["topicRoute", "-t", "T"], ["consumerProgress", "-g", "G"]], ids=lambda a: a[0]
)
def test_a_plain_request_loads_no_tls_event_loop_or_signer(mqadmin, tmp_path, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    """TLS, the event loop and ACL signing are imported by what needs them (--tls, a watch or
    --stuck-after, credentials in tools.yml), not by every request."""
    target = [args[0], "-n", f"127.0.0.1:{free_port()}", *args[1:]]
    no_credentials = {"ROCKETMQ_HOME": str(tmp_path)}
    names = imported(mqadmin, target, no_credentials)
    assert sorted(n for n in names if n.split(".")[0] in ONLY_WITH_OPTIONS) == []
    assert "ssl" in imported(mqadmin, [*target, "--tls"], no_credentials)
    assert "hmac" in imported(mqadmin, target)  # the test home's tools.yml holds an account
