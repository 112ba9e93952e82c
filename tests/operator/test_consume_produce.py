"""``mqadmin produce`` and ``mqadmin consume`` as kcat -P and -C: through shell pipes, with formats,
starting points, a group's commits, and ends that are quiet (``| head``, Ctrl-C)."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import time
from pathlib import Path

import jsonschema

from tests.cli_harness import MQADMIN, interruptible
from tests.operator.conftest import Operator

TOPIC = "PipeOrders"


def shell(op: Operator, script: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``script`` in bash with ``mqadmin`` the installed one, pipefail on."""
    full = f'set -o pipefail; mqadmin() {{ {shlex.quote(MQADMIN)} "$@"; }}; {script}'
    return subprocess.run(["bash", "-c", full], capture_output=True, text=True, env=op.env, timeout=timeout)


def test_produce_from_a_file_then_consume_through_head(op: Operator, tmp_path: Path) -> None:
    op.topic(TOPIC, 2)
    lines = tmp_path / "orders.txt"
    lines.write_text("".join(f"order-{i}\n" for i in range(50)))
    sent = shell(op, f"mqadmin produce -t {TOPIC} -k batch1 -c created < {shlex.quote(str(lines))}")
    assert (sent.returncode, sent.stdout, sent.stderr) == (0, f"sent 50 message(s) to {TOPIC}\n", "")

    head = shell(op, f"mqadmin consume -t {TOPIC} -f '%t %p %o %k %T %s\\n' | head -n 3")
    assert head.returncode == 0, head.stderr  # the reader left after 3 lines: consume ended, exit 0
    assert head.stderr == ""
    rows = [ln.split(" ") for ln in head.stdout.splitlines()]
    assert len(rows) == 3 and all(r[0] == TOPIC and r[3:5] == ["batch1", "created"] for r in rows)
    assert [r[2] for r in rows] == ["0", "1", "2"]  # one queue after the other, from the earliest

    every = op.run("consume", "-t", TOPIC)
    assert every.code == 0, every.err
    assert sorted(every.out.splitlines()) == sorted(f"order-{i}" for i in range(50))


def test_follow_through_head_ends_when_the_reader_goes(op: Operator) -> None:
    op.topic("FollowOrders", 2)
    assert op.run("produce", "-t", "FollowOrders", stdin=b"a\nb\nc\n").code == 0
    started = time.monotonic()
    r = shell(op, "mqadmin consume -t FollowOrders --from earliest --follow | head -n 2", timeout=30)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 2, r
    assert time.monotonic() - started < 15
    # a follower sees what is sent while it waits
    p = subprocess.Popen(
        [MQADMIN, "consume", "-t", "FollowOrders", "--from", "latest", "--follow", "-f", "%s\\n"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=op.env,
        preexec_fn=interruptible,
    )
    try:
        time.sleep(2)
        assert op.run("produce", "-t", "FollowOrders", stdin=b"late\n").code == 0
        assert p.stdout is not None
        assert p.stdout.readline() == b"late\n"
        p.send_signal(signal.SIGINT)  # Ctrl-C: one line, no traceback
        assert p.wait(15) == 130
        assert p.stderr is not None
        assert p.stderr.read().decode() == "mqadmin consume: interrupted\n"
    finally:
        p.kill()
        p.wait(10)


def test_starting_points_formats_and_json(op: Operator) -> None:
    op.topic("FromOrders", 1)
    before = op.run("produce", "-t", "FromOrders", stdin=b"old1\nold2\nold3\n")
    assert before.code == 0
    time.sleep(1.1)
    cut = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "+00:00"
    time.sleep(1.1)
    assert op.run("produce", "-t", "FromOrders", stdin=b"new1\nnew2\n").code == 0
    assert op.run("consume", "-t", "FromOrders", "--from", "-2").out == "new1\nnew2\n"
    assert op.run("consume", "-t", "FromOrders", "--from", cut).out == "new1\nnew2\n"
    assert op.run("consume", "-t", "FromOrders", "--from", "latest").out == ""
    assert op.run("consume", "-t", "FromOrders", "-c", "2").out == "old1\nold2\n"
    r = op.run("consume", "-t", "FromOrders", "-f", "%p|%o|%b|100%%|%d\\t%s\\n", "-c", "1")
    queue, offset, broker, pct, rest = r.out.split("|")
    stamp, body = rest.rstrip("\n").split("\t")
    assert (queue, offset, broker, pct, body) == ("0", "0", "broker-a", "100%", "old1")
    assert abs(int(stamp) - time.time() * 1000) < 60_000
    schema = json.loads(op.run("schema", "consume").out)
    lines = op.run("consume", "-t", "FromOrders", "--json").out.splitlines()
    assert len(lines) == 5
    for line in lines:
        jsonschema.validate(json.loads(line), schema)
    bad = op.run("consume", "-t", "FromOrders", "--from", "yesterday")
    assert bad.code == 2 and bad.out == "" and "--from takes now" in bad.err


def test_fields_delimiters_keys_and_properties(op: Operator) -> None:
    op.topic("FieldOrders", 1)
    records = [
        {"body": "first", "keys": "K1", "tags": "paid", "properties": {"region": "eu"}},
        {"body": "second", "delayLevel": 0},
    ]
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    r = op.run("produce", "-t", "FieldOrders", "--fields", "-c", "default", "--json", stdin=data)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    jsonschema.validate(doc, json.loads(op.run("schema", "produce").out))
    assert doc["sent"] == 2 and len({m["msgId"] for m in doc["messages"]}) == 2
    out = op.run("consume", "-t", "FieldOrders", "-f", "%k;%T;%s;%h\\n").out.splitlines()
    assert out[0].startswith("K1;paid;first;") and "region=eu" in out[0]
    assert out[1].startswith(";default;second;")
    r = op.run("produce", "-t", "FieldOrders", "-D", "|", "-K", "=", "-p", "src=pipe", stdin=b"k9=x|y")
    assert r.code == 0 and r.out == "sent 2 message(s) to FieldOrders\n", r.err
    tail = op.run("consume", "-t", "FieldOrders", "--from", "-2", "-f", "%k:%s:%h\\n").out.splitlines()
    assert tail[0].startswith("k9:x:") and tail[1].startswith(":y:") and all("src=pipe" in t for t in tail)
    bad = op.run("produce", "-t", "FieldOrders", "--fields", stdin=b'{"body": 1}\n')
    assert bad.code == 2 and 'record 1: a JSON object with a "body" string' in bad.err


def test_a_group_commits_what_was_printed(op: Operator) -> None:
    op.topic("GroupOrders", 2)
    assert op.run("produce", "-t", "GroupOrders", stdin=b"".join(b"m%d\n" % i for i in range(10))).code == 0
    first = op.run("consume", "-t", "GroupOrders", "-g", "ReaderGroup", "-c", "4")
    assert first.code == 0 and len(first.out.splitlines()) == 4, first.err
    rest = op.run("consume", "-t", "GroupOrders", "-g", "ReaderGroup")  # on from the group's offsets
    assert sorted(first.out.splitlines() + rest.out.splitlines()) == sorted(f"m{i}" for i in range(10))
    progress = json.loads(op.run("consumerProgress", "-g", "ReaderGroup", "-t", "GroupOrders", "--json").out)
    assert progress["diffTotal"] == 0
    assert op.run("consume", "-t", "GroupOrders", "-g", "ReaderGroup").out == ""
