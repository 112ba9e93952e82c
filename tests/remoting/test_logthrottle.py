"""The throttle on log lines a peer can cause: a burst per kind and interval, then a count."""

from __future__ import annotations

import logging

import pytest

from mqadmin.remoting import logthrottle
from mqadmin.remoting.logthrottle import ThrottledLog


def test_burst_per_kind_then_the_count_goes_with_the_next_line(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    monkeypatch.setattr(logthrottle.time, "monotonic", lambda: now[0])
    throttled = ThrottledLog(logging.getLogger("test.throttle"), burst=3, interval=10.0)
    with caplog.at_level(logging.WARNING, "test.throttle"):
        written = [throttled.warning("flood", "line %d", i) for i in range(10)]
        assert written == [True] * 3 + [False] * 7
        assert throttled.warning("other", "another kind") is True  # kinds do not share a budget
        now[0] += 10.0
        assert throttled.warning("flood", "line %d", 10) is True
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["line 0", "line 1", "line 2", "another kind", "line 10 (7 more since the last report)"]
