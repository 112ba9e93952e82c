"""The C++ client helper retries a send only for the client's own connection-table race, which its
log names; every other failure stays an error the tests see."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.broker.cpp_client import LOCK_MISS, ClientLog, lost_the_lock_race

NO_ROUTE = RuntimeError("No route info of this topic: T,error:-1")


@pytest.fixture
def log(tmp_path: Path) -> ClientLog:
    log = ClientLog()
    log.path = str(tmp_path / "client.log")
    Path(log.path).write_text(f"[old](error):GetTransport of:127.0.0.1:1 {LOCK_MISS}\n")
    log.mark()
    return log


def append(log: ClientLog, line: str) -> None:
    with open(log.path, "a") as f:
        f.write(line + "\n")


def test_a_lock_miss_logged_during_the_send_is_the_race(log: ClientLog) -> None:
    append(log, f"[now](error):GetTransport of:127.0.0.1:2 {LOCK_MISS}[CreateTransport:297]")
    assert lost_the_lock_race(NO_ROUTE, log)


def test_a_lock_miss_from_before_the_send_is_not(log: ClientLog) -> None:
    append(log, "[now](error):send failed of times:1,brokerName:broker-a")
    assert not lost_the_lock_race(NO_ROUTE, log)


def test_another_error_is_never_retried(log: ClientLog) -> None:
    append(log, f"[now](error):GetTransport of:127.0.0.1:2 {LOCK_MISS}")
    assert not lost_the_lock_race(RuntimeError("send timeout"), log)


def test_a_missing_log_is_no_race(tmp_path: Path) -> None:
    log = ClientLog()
    log.path = str(tmp_path / "absent.log")
    log.mark()
    assert not lost_the_lock_race(NO_ROUTE, log)
