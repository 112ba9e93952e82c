"""Hostile values given to ``consume``, ``produce`` and ``resetOffsets``: bytes that are not UTF-8,
path segments, control characters, absurd numbers, files that are not what they claim. Each is
refused with a usage error (exit 2, lines that name the command, no traceback) and the cluster
holds what it held before: the topics, every message of the topic, the group's offsets.

``resetOffsets`` is asked to ``--execute --yes`` each time, so a refusal that came too late would
show as changed offsets. Values are passed as bytes, as a shell passes whatever it is given."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_harness import MQADMIN
from tests.operator.conftest import Operator, commit_offsets

TOPIC = "HostileOrders"
GROUP = "HostileGroup"
MESSAGES = 12

Arg = str | bytes


def run(op: Operator, args: list[Arg], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    argv = [MQADMIN.encode(), *(a if isinstance(a, bytes) else a.encode() for a in args)]
    return subprocess.run(argv, input=stdin, capture_output=True, env=op.env, timeout=60)


def state(op: Operator) -> dict[str, Any]:
    topics = op.run("topicList")
    assert topics.code == 0, topics.err
    every = op.run("consume", "-t", TOPIC, "-f", "%p %o %k %T %h %s\\n")
    assert every.code == 0, every.err
    progress = json.loads(op.run("consumerProgress", "-g", GROUP, "-t", TOPIC, "--json").out)
    return {
        "topics": sorted(topics.out.split()),
        "messages": sorted(every.out.splitlines()),
        "offsets": {q["queueId"]: q["consumerOffset"] for q in progress["queues"]},
    }


@pytest.fixture(scope="module")
def prepared(op: Operator) -> tuple[Operator, dict[str, Any]]:
    op.topic(TOPIC, 2)
    sent = op.run("produce", "-t", TOPIC, "-k", "k", stdin=b"".join(b"m%d\n" % i for i in range(MESSAGES)))
    assert sent.code == 0, sent.err
    commit_offsets(op.ns, op.broker, GROUP, TOPIC, {0: 2, 1: 3})
    before = state(op)
    assert len(before["messages"]) == MESSAGES and before["offsets"] == {0: 2, 1: 3}
    return op, before


def files(tmp: Path) -> dict[str, Path]:
    """Rollback files for ``--from-file`` that must all be refused."""
    made = {
        "binary": b"\xff\xfe\x00topic,brokerName,queueId,offset\n",
        "underscore": b"topic,brokerName,queueId,offset\nHostileOrders,broker-a,0,1_0\n",
        "negative": b"topic,brokerName,queueId,offset\nHostileOrders,broker-a,0,-7\n",
        "arabic digit": "HostileOrders,broker-a,0,\u0663\n".encode(),
        "spaces": b"HostileOrders,broker-a,0, 5\n",
        "other topic": b"Other,broker-a,0,1\n",
        "short row": b"HostileOrders,broker-a,0\n",
        "empty": b"",
    }
    out = {}
    for name, data in made.items():
        p = tmp / (name.replace(" ", "_") + ".csv")
        p.write_bytes(data)
        out[name] = p
    return out


LONG = "x" * 300
NOT_UTF8 = b"T\xed\xa0\x80"  # a UTF-8 encoded lone surrogate: Python sees it as surrogate escapes

CONSUME: dict[str, list[Arg]] = {
    "topic not UTF-8": ["-t", NOT_UTF8],
    "topic with a path": ["-t", "../etc"],
    "topic with a slash": ["-t", "a/b"],
    "topic too long": ["-t", LONG],
    "topic blank": ["-t", " "],
    "group not UTF-8": ["-t", TOPIC, "-g", b"G\xff"],
    "group with a path": ["-t", TOPIC, "-g", "../G"],
    "from NaN": ["-t", TOPIC, "--from", "NaN"],
    "from huge number": ["-t", TOPIC, "--from", "9" * 30],
    "from February 30": ["-t", TOPIC, "--from", "2026-02-30T00:00:00Z"],
    "count zero": ["-t", TOPIC, "-c", "0"],
    "count negative": ["-t", TOPIC, "-c", "-1"],
    "count huge": ["-t", TOPIC, "-c", "9" * 40],
    "unknown format token": ["-t", TOPIC, "-f", "%q %s"],
    "format ends in a percent": ["-t", TOPIC, "-f", "%s %"],
}

PRODUCE: dict[str, tuple[list[Arg], bytes]] = {
    "topic with a path": (["-t", "../x"], b"a\n"),
    "topic not UTF-8": (["-t", b"\xff"], b"a\n"),
    "keys that forge a property": (["-t", TOPIC, "-k", "a\x02TAGS\x01evil"], b"a\n"),
    "a property that forges another": (["-t", TOPIC, "-p", "x=a\x02KEYS\x01k"], b"a\n"),
    "tags with a separator": (["-t", TOPIC, "-c", "t\x01"], b"a\n"),
    "property without a value": (["-t", TOPIC, "-p", "noequals"], b"a\n"),
    "a system property": (["-t", TOPIC, "-p", "UNIQ_KEY=x"], b"a\n"),
    "delay negative": (["-t", TOPIC, "-d", "-1"], b"a\n"),
    "delay huge": (["-t", TOPIC, "-d", "9" * 30], b"a\n"),
    "empty delimiter": (["-t", TOPIC, "-D", ""], b"a\n"),
    "fields: body not a string": (["-t", TOPIC, "--fields"], b'{"body": 1}\n'),
    "fields: a property that forges another": (
        ["-t", TOPIC, "--fields"],
        b'{"body": "a", "properties": {"x": "a\\u0002KEYS\\u0001k"}}\n',
    ),
    "fields: not JSON": (["-t", TOPIC, "--fields"], b"\xff\xfe\n"),
    "a body over the limit": (["-t", TOPIC], b"a" * (4 * 1024 * 1024 + 1) + b"\n"),
}

RESET: dict[str, list[Arg]] = {
    "shift not a number": ["--shift-by", "abc"],
    "shift past a long": ["--shift-by", "9" * 30],
    "offset negative": ["--to-offset", "-5"],
    "offset past a long": ["--to-offset", "9223372036854775808"],
    "duration negative": ["--by-duration", "PT-5M"],
    "datetime February 30": ["--to-datetime", "2026-02-30T00:00:00Z"],
    "two targets": ["--to-earliest", "--to-latest"],
    "no target": [],
    "file missing": ["--from-file", "/nonexistent/offsets.csv"],
    "group with a path": ["--to-earliest", "-g", "../G"],
    "topic not UTF-8": ["--to-earliest", "-t", b"\xff"],
}


def refused(p: subprocess.CompletedProcess[bytes], command: str) -> None:
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 2, (p.returncode, err, p.stdout[:300])
    assert p.stdout == b"", p.stdout[:300]
    lines = err.splitlines()
    assert lines and all(ln.startswith(f"mqadmin {command}: ") for ln in lines), err
    assert "Traceback" not in err and "internal error" not in err, err


def refused_all(cases: dict[str, tuple[list[Arg], bytes]], command: str, op: Operator) -> None:
    """Every case refused; the failures of all of them in one message."""
    wrong = []
    for name, (args, stdin) in cases.items():
        try:
            refused(run(op, [command, *args], stdin), command)
        except AssertionError as e:
            wrong.append(f"{name}: {e}")
    assert not wrong, "\n".join(wrong)


def test_consume_refuses(prepared: tuple[Operator, dict[str, Any]]) -> None:
    op, before = prepared
    refused_all({k: (v, b"") for k, v in CONSUME.items()}, "consume", op)
    assert state(op) == before


def test_produce_refuses_and_sends_nothing(prepared: tuple[Operator, dict[str, Any]]) -> None:
    op, before = prepared
    refused_all(PRODUCE, "produce", op)
    assert state(op) == before  # not one of the records was sent


def test_reset_offsets_refuses_even_with_execute(prepared: tuple[Operator, dict[str, Any]]) -> None:
    op, before = prepared
    cases: dict[str, tuple[list[Arg], bytes]] = {}
    for name, args in RESET.items():
        given: list[Arg] = ["--execute", "--yes"]
        if "-g" not in args:
            given += ["-g", GROUP]
        if "-t" not in args:
            given += ["-t", TOPIC]
        cases[name] = ([*given, *args], b"")
    refused_all(cases, "resetOffsets", op)
    assert state(op) == before


def test_reset_offsets_refuses_every_bad_rollback_file(
    prepared: tuple[Operator, dict[str, Any]], tmp_path: Path
) -> None:
    op, before = prepared
    given = ["-g", GROUP, "-t", TOPIC, "--execute", "--yes", "--from-file"]
    refused_all({k: ([*given, str(p)], b"") for k, p in files(tmp_path).items()}, "resetOffsets", op)
    assert state(op) == before


def test_the_good_values_beside_them_do_work(
    prepared: tuple[Operator, dict[str, Any]], tmp_path: Path
) -> None:
    """The refusals above are of the values, not of the commands: the same commands with sound
    values print, send and reset (and put the offsets back from the export)."""
    op, before = prepared
    shown = run(op, ["consume", "-t", TOPIC, "-c", "2", "-f", "%% %p %o %s\\n"])
    assert shown.returncode == 0 and len(shown.stdout.splitlines()) == 2, shown
    assert all(ln.startswith(b"% ") for ln in shown.stdout.splitlines())
    export = tmp_path / "before.csv"
    reset = run(op, ["resetOffsets", "-g", GROUP, "-t", TOPIC, "--to-offset", "1", "--export", str(export)])
    assert reset.returncode == 0, reset.stderr
    assert state(op) == before  # a dry run
    done = run(op, ["resetOffsets", "-g", GROUP, "-t", TOPIC, "--to-offset", "1", "--execute", "--yes"])
    assert done.returncode == 0, done.stderr
    assert state(op)["offsets"] == {0: 1, 1: 1}
    back = run(
        op, ["resetOffsets", "-g", GROUP, "-t", TOPIC, "--from-file", str(export), "--execute", "--yes"]
    )
    assert back.returncode == 0, back.stderr
    assert state(op) == before
