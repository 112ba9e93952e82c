"""Processes as /proc shows them: the tests and the benches find a server's workers this way."""

from __future__ import annotations

from pathlib import Path


def children_of(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    kids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.add(int(entry.name))
    return kids
