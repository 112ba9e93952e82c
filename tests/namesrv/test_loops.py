"""``--loop``: the event loop a name server runs on, and how a wrong choice is told."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from mqadmin.remoting.loops import loop_factory, resolve_loop

HAVE_UVLOOP = importlib.util.find_spec("uvloop") is not None


def test_auto_takes_uvloop_when_installed() -> None:
    assert resolve_loop("auto") == ("uvloop" if HAVE_UVLOOP else "asyncio")
    assert resolve_loop("asyncio") == "asyncio"
    assert loop_factory("asyncio") is None


def test_unknown_loop_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event loop 'tokio'"):
        resolve_loop("tokio")


@pytest.mark.skipif(HAVE_UVLOOP, reason="uvloop is installed here")
def test_uvloop_asked_for_but_missing_is_one_line_and_exit_1() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mqadmin.cli.main", "namesrv", "start", "--loop", "uvloop", "--log-file", ""],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stderr == "mqadmin namesrv: the uvloop event loop is not installed (pip install uvloop)\n"
    assert done.stdout == ""


@pytest.mark.skipif(not HAVE_UVLOOP, reason="uvloop is not installed")
def test_uvloop_loop_factory() -> None:
    factory = loop_factory("uvloop")
    assert factory is not None
    loop = factory()
    try:
        assert type(loop).__module__.startswith("uvloop")
    finally:
        loop.close()


@pytest.mark.parametrize("args", [["--loop", "tokio"], ["--workers", "0"], ["--workers", "x"]])
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mqadmin.cli.main", "namesrv", "start", *args, "--log-file", ""],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("mqadmin namesrv start: Invalid value for '--")
    assert done.stderr.count("\n") == 1
