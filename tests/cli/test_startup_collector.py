"""The cyclic garbage collector around a command line (:func:`mqadmin.cli.main.main`): off while
start-up loads the modules, on (with what start-up made frozen) by the time the command runs, so a
server, a watch loop or a long fan-out started from the CLI collects as any Python program does;
on again after a line that loads no command (a usage error, ``--help``)."""

from __future__ import annotations

import json
import subprocess
import sys

from mqadmin.localcluster import free_port

PROBE = """
import gc, json, sys
import mqadmin.cli.command as command

seen = {}
run_command = command.run_command

def spy(*args, **kwargs):
    seen["enabled"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count()
    return run_command(*args, **kwargs)

command.run_command = spy
import mqadmin.cli.clickcommand as clickcommand
clickcommand.run_command = spy
from mqadmin.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as e:
    seen["code"] = e.code
seen["after"] = gc.isenabled()
print(json.dumps(seen))
"""


def probe(*args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_a_command_runs_with_the_collector_on_and_start_up_frozen() -> None:
    seen = probe("topicRoute", "-n", f"127.0.0.1:{free_port()}", "-t", "T")  # nobody listens there
    assert seen["enabled"] is True
    assert isinstance(seen["frozen"], int) and seen["frozen"] > 10_000  # the modules and classes
    assert seen["code"] != 0 and seen["after"] is True


def test_a_usage_error_leaves_the_collector_on() -> None:
    seen = probe("updateTopic", "--no-such-option")
    assert "enabled" not in seen  # no command ran
    assert seen["code"] == 2 and seen["after"] is True
