"""The README's first command: ``mqadmin demo`` runs a real local session and leaves nothing behind."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

MQADMIN = str(Path(sys.executable).parent / "mqadmin")


def _children_named(pattern: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if re.search(pattern, line)]


def test_demo_runs_real_commands_and_stops_everything(tmp_path: Path) -> None:
    keep = tmp_path / "demo"
    r = subprocess.run([MQADMIN, "demo", "--keep", str(keep)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    out = r.stdout
    ns = re.search(r"# name server (127\.0\.0\.1:\d+), broker (127\.0\.0\.1:\d+)", out)
    assert ns, out[:2000]
    # the topic was created on the broker and is in the route the name server serves
    assert f"$ mqadmin updateTopic -n {ns.group(1)} -c DemoCluster -t DemoTopic" in out
    assert re.search(r'"brokerName":"demo-broker",\s+"perm":6,\s+"readQueueNums":4', out)
    # three messages sent, all acknowledged, and all three consumed with their bodies
    assert out.count("SEND_OK") == 3
    consumed = re.findall(r"consumed queue=\d+ offset=\d+ keys=key(\d) 'hello from the demo #(\d)'", out)
    assert sorted(consumed) == [("1", "1"), ("2", "2"), ("3", "3")]
    # the group caught up: no message left behind
    assert "Consume Diff Total: 0" in out
    # the cluster as code: the manifest holds the demo's topic and group, and the cluster matches it
    assert re.search(r"apiVersion: mqadmin/v1\n(.*\n)*topics:\n  DemoTopic:\n    readQueues: 4", out)
    assert "\n  DemoGroup:\n" in out
    assert re.search(r"cluster DemoCluster \(.*\)\n  0 change\(s\)", out)
    # the doctor ran every check and found nothing wrong
    assert re.search(r"doctor: healthy: no findings from \d+ checks", out)
    # the store the broker wrote holds the messages; everything is stopped
    assert list((keep / "store" / "commitlog").iterdir())
    assert "# stopped; nothing left running" in out
    assert not _children_named(re.escape(str(keep)))
