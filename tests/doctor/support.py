"""What the doctor tests share: ``mqadmin doctor`` run as a subprocess and its findings read."""

from __future__ import annotations

import json
from typing import Any

from tests.cli_harness import Result, run_mqadmin


class Doctor:
    """``mqadmin doctor -n NS ...`` with a short lag window unless told otherwise."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def run(self, namesrv: str, *args: str, window: float = 1.0, timeout: float = 90) -> Result:
        argv = ["doctor", "-n", namesrv, "--set", f"lag_window={window}", *args]
        return run_mqadmin(argv, self.env, timeout=timeout)

    def json(self, namesrv: str, *args: str, window: float = 1.0) -> tuple[int, dict[str, Any]]:
        r = self.run(namesrv, *args, "--json", window=window)
        return r.code, json.loads(r.out)


def findings(doc: dict[str, Any], check: str) -> list[dict[str, Any]]:
    return [f for f in doc["findings"] if f["check"] == check]
