"""``mqadmin resetOffsets``: kafka-consumer-groups' resets on offsets a C++ consumer committed, a dry
run by default, an export to roll back from, and what a time means beside ``resetOffsetByTime``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema

from tests.operator.conftest import Operator, cpp_consume, cpp_produce

TOPIC = "ResetOrders"
GROUP = "ResetGroup"


def committed(op: Operator) -> dict[int, int]:
    doc = json.loads(op.run("consumerProgress", "-g", GROUP, "-t", TOPIC, "--json").out)
    return {q["queueId"]: q["consumerOffset"] for q in doc["queues"]}


def reset(op: Operator, *args: str) -> dict[str, object]:
    r = op.run("resetOffsets", "-g", GROUP, "-t", TOPIC, *args, "--json")
    assert r.code == 0, r.err
    doc: dict[str, object] = json.loads(r.out)
    return doc


def test_plans_change_nothing_and_execute_applies_them(op: Operator, tmp_path: Path) -> None:
    op.topic(TOPIC, 2)
    cpp_produce(op.ns, TOPIC, 40)
    cpp_consume(op.ns, TOPIC, GROUP, 40)  # the C++ consumer committed everything: no lag
    time.sleep(1.1)
    cut = int(time.time() * 1000)
    time.sleep(0.1)
    cpp_produce(op.ns, TOPIC, 10, prefix="late")
    before = committed(op)
    schema = json.loads(op.run("schema", "resetOffsets").out)

    plan = reset(op, "--to-earliest")
    jsonschema.validate(plan, schema)
    assert plan["dryRun"] is True and committed(op) == before  # a plan changes nothing
    queues = plan["queues"]
    assert isinstance(queues, list)
    maxes = {q["queueId"]: q["maxOffset"] for q in queues}
    assert sum(maxes.values()) == 50 and all(q["newOffset"] == 0 for q in queues)
    assert {q["queueId"]: q["currentOffset"] for q in queues} == before

    text = op.run("resetOffsets", "-g", GROUP, "-t", TOPIC, "--shift-by", "-3")
    assert text.code == 0 and text.out.startswith("dry run, nothing changed (--execute applies it)")

    export = tmp_path / "before.csv"
    done = reset(op, "--shift-by", "-3", "--export", str(export), "--execute")
    assert done["dryRun"] is False
    assert committed(op) == {q: max(0, off - 3) for q, off in before.items()}
    assert export.read_text().splitlines()[0] == "topic,brokerName,queueId,offset"

    reset(op, "--to-datetime", str(cut), "--execute")  # the first message at or after the cut
    late = sum(maxes.values()) - sum(committed(op).values())
    assert late == 10, committed(op)
    reset(op, "--by-duration", "PT1H", "--execute")  # an hour back: everything again
    assert sum(committed(op).values()) == 0
    reset(op, "--to-latest", "--execute")
    assert committed(op) == maxes
    reset(op, "--to-offset", "5", "--execute")
    assert committed(op) == {q: 5 for q in maxes}

    reset(op, "--from-file", str(export), "--execute")  # the roll-back
    assert committed(op) == before


def test_now_is_the_end_of_each_queue(op: Operator) -> None:
    """A Java 5.3.3 broker answers a search for a time after every message with the max offset
    (BoundaryType.LOWER); a 4.9.8 broker, and our development broker that follows it, with the last
    message (one short). resetOffsets means 5.3.3's whatever the broker: now is the end."""
    plan = reset(op, "--to-datetime", "now")
    queues = plan["queues"]
    assert isinstance(queues, list)
    assert all(q["newOffset"] == q["maxOffset"] and q["lagAfter"] == 0 for q in queues)
    java_like = op.run("resetOffsetByTime", "-g", GROUP, "-t", TOPIC, "-s", "now", "--dry-run", "--json")
    assert java_like.code == 0, java_like.err
    rows = json.loads(java_like.out)["queues"]
    assert all(r["timestampOffset"] == r["brokerOffset"] - 1 for r in rows)  # the 4.9.8 answer


def test_bad_resets_are_usage_errors(op: Operator, tmp_path: Path) -> None:
    cases = [
        ((), "give exactly one of"),
        (("--to-earliest", "--to-latest"), "given: --to-earliest, --to-latest"),
        (("--by-duration", "soon"), "--by-duration takes a duration"),
        (("--to-datetime", "tomorrow"), "--to-datetime takes now"),
        (("--from-file", str(tmp_path / "missing.csv")), "--from-file"),
    ]
    for args, text in cases:
        r = op.run("resetOffsets", "-g", GROUP, "-t", TOPIC, *args)
        assert (r.code, r.out) == (2, ""), (args, r.err)
        assert text in r.err and len(r.err.splitlines()) == 1, r.err
    other = tmp_path / "other.csv"
    other.write_text("topic,brokerName,queueId,offset\nOtherTopic,broker-a,0,1\n")
    r = op.run("resetOffsets", "-g", GROUP, "-t", TOPIC, "--from-file", str(other))
    assert r.code == 2 and "topic 'OtherTopic'" in r.err
