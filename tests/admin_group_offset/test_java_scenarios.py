"""Every recorded Java scenario of the group, consumer, offset and stats commands, replayed on our servers.

The module builds, with real operations and in the order the Java run made them, the state each
scenario saw (groups created, messages sent by the C++ producer, consumed by the C++ push consumer),
runs our ``mqadmin`` with the recorded arguments, and compares stdout with the Java ``.out``. The
broker address is written back as the recorded one; a mask covers only values that are live or
chosen at run time, named in each test (TPS, offsets the C++ producer spreads at random, times).

Three kinds of scenario are not compared byte for byte, each on purpose:

- 4.9.8 runs whose output the 5.3.3 tool (our reference) prints differently (s13, s28, s34): our
  output must equal the 5.3.3 recording of the same command (v15, v23, v22) and contain everything
  the 4.9.8 one printed that 5.3.3 still prints;
- failures where we deliberately do better than Java (s18/v27: ``consumerProgress -g`` of a group
  without a ``%RETRY%`` topic shows it instead of failing): our documented behaviour is asserted;
- failures where Java's stdout is empty (s29, s30, s37, s38): stdout must be empty too, the exit
  code non-zero and stderr one line saying why.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from tests.admin_group_offset.servers import JAVA_BROKER, Cluster, HeartbeatClient
from tests.cli_harness import recorded_text

V498 = "rocketmq-4.9.8"
V533 = "rocketmq-5.3.3"


def run(cluster: Cluster, scenario: str) -> tuple[str, str, int, str]:
    """(our stdout with the Java broker address, the Java stdout, our exit code, our stderr)."""
    args, expected = recorded_text(scenario, namesrv=False)
    r = cluster.mqadmin(*(cluster.addr if a == JAVA_BROKER else a for a in args))
    return cluster.java(r.out), expected, r.code, r.err


def mask(text: str, spans: list[tuple[int, int | None]], skip_lines: int = 1) -> str:
    """Blank the given column spans of every line after the first ``skip_lines`` (the header)."""
    out = []
    for n, line in enumerate(text.split("\n")):
        if n >= skip_lines and line.strip():
            chars = list(line)
            for start, end in spans:
                stop = len(chars) if end is None else min(end, len(chars))
                for k in range(start, stop):
                    chars[k] = "#"
            line = "".join(chars)
        out.append(line)
    return "\n".join(out)


def java_fields(text: str) -> dict[str, str]:
    """``k=v`` pairs of a one-level Java ``toString`` (4.9.8 ``Name [k=v, ...]``)."""
    body = text[text.index("[") + 1 : text.rindex("]")]
    return dict(part.split("=", 1) for part in body.split(", "))


@pytest.fixture(scope="module")
def golden(cluster: Cluster) -> Iterator[Cluster]:
    """GoldenTopic (4 queues, 2 messages), GoldenTopic5 (4 queues, 1 message), as s03-s15 and v12-v16 made."""
    cluster.create_topic("GoldenTopic", 4)
    cluster.create_topic("GoldenTopic5", 4)
    cluster.produce("GoldenTopic", 2)
    cluster.produce("GoldenTopic5", 1)
    yield cluster


# ------------------------------------------------------------------------------------------ groups


def test_update_sub_group_v15_and_s13(golden: Cluster) -> None:
    ours, expected, code, err = run(golden, f"{V533}/v15_updateSubGroup")
    assert (code, err) == (0, "")
    assert ours == expected
    assert golden.groups_on_broker()["GoldenGroup5"]["consumeFromMinEnable"] is False

    ours, expected_498, code, err = run(golden, f"{V498}/s13_updateSubGroup")
    assert (code, err) == (0, "")
    assert ours == expected.replace("GoldenGroup5", "GoldenGroup")  # the 5.3.3 text of the same command
    first, config = ours.split("\n", 1)
    assert first == expected_498.split("\n", 1)[0]
    ours_fields = dict(re.findall(r"(\w+)=([^,{}]*(?:\{[^}]*\})?[^,{}]*)(?:, |\}$)", config))
    assert java_fields(expected_498.split("\n", 1)[1]).items() <= ours_fields.items()
    group = golden.groups_on_broker()["GoldenGroup"]
    assert (group["consumeBroadcastEnable"], group["retryMaxTimes"]) == (False, 16)


def test_get_consumer_config_v22_and_s34(golden: Cluster) -> None:
    ours, expected, code, err = run(golden, f"{V533}/v22_getConsumerConfig")
    assert (code, err) == (0, "")
    assert ours == expected

    ours, expected_498, code, _ = run(golden, f"{V498}/s34_getConsumerConfig")
    assert code == 0
    assert ours == expected.replace("GoldenGroup5", "GoldenGroup")
    assert set(expected_498.splitlines()) <= set(
        ours.splitlines()
    )  # the 4.9.8 tool prints 9 of the 15 fields


def test_consumer_progress_of_group_without_retry_topic_s18_v27(golden: Cluster) -> None:
    """Java fails with code 17 (no ``%RETRY%GoldenGroup``); we show the group, no queue: it never consumed."""
    for scenario in (f"{V498}/s18_consumerProgress", f"{V533}/v27_consumerProgressGroup"):
        ours, expected, code, err = run(golden, scenario)
        assert expected == ""
        assert code == 0
        assert ours.startswith("#Topic ") and ours.count("\n") == 5
        assert ours.endswith("\nConsume TPS: 0.00\nConsume Diff Total: 0\nConsume Inflight Total: 0\n")
        assert err.count("\n") == 1 and "GoldenGroup has no committed offset" in err and "%RETRY%" in err


def test_consumer_connection_of_group_never_online_s29(golden: Cluster) -> None:
    ours, expected, code, err = run(golden, f"{V498}/s29_consumerConnection")
    assert ours == expected == ""
    assert code == 3
    assert err.count("\n") == 1 and "%RETRY%GoldenGroup" in err and "no consumer of group GoldenGroup" in err


def test_producer_connection_of_group_not_online_s30(golden: Cluster) -> None:
    ours, expected, code, err = run(golden, f"{V498}/s30_producerConnection")
    assert ours == expected == ""
    assert code == 3
    assert err.count("\n") == 1 and "the producer group[PG] not exist" in err and golden.addr in err


@pytest.mark.parametrize("scenario", ["s37_resetOffsetByTime", "s38_skipAccumulatedMessage"])
def test_reset_of_group_without_offsets_s37_s38(golden: Cluster, scenario: str) -> None:
    ours, expected, code, err = run(golden, f"{V498}/{scenario}")
    assert ours == expected == ""
    assert code == 7  # not found: the one exit code for an unknown topic, group or message
    assert err.count("\n") == 1 and "THe consumer group <GoldenGroup> not exist" in err
    assert all(golden.committed("GoldenGroup", "GoldenTopic", q) == -1 for q in range(4))


def test_broker_consume_stats_before_any_consumption_s23(golden: Cluster) -> None:
    ours, expected, code, err = run(golden, f"{V498}/s23_brokerConsumeStats")
    assert (code, err) == (0, "")
    assert ours == expected


def test_delete_sub_group_v23_and_s28(golden: Cluster) -> None:
    """The group goes, and with -c its %RETRY% and %DLQ% topics go from the broker and the name server."""
    assert golden.mqadmin("updateSubGroup", "-c", "DefaultCluster", "-g", "GoldenGroup2").code == 0
    golden.create_topic("%DLQ%GoldenGroup2", 1)
    client = HeartbeatClient(
        golden.addr, "hb@GoldenGroup2", consumer_groups=(("GoldenGroup2", "GoldenTopic"),)
    )
    client.close()
    deadline = time.monotonic() + 10
    while not golden.in_route("%RETRY%GoldenGroup2") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert golden.in_route("%RETRY%GoldenGroup2") and golden.in_route("%DLQ%GoldenGroup2")

    ours, expected, code, err = run(golden, f"{V498}/s28_deleteSubGroup")
    assert (code, err) == (0, "")
    assert ours == expected.split("\n", 1)[0] + "\n"  # 5.3.3 no longer prints the topic deletions
    assert "GoldenGroup2" not in golden.groups_on_broker()
    for topic in ("%RETRY%GoldenGroup2", "%DLQ%GoldenGroup2"):
        assert topic not in golden.topic_names_on_broker()
        assert not golden.in_route(topic)

    ours, expected, code, err = run(golden, f"{V533}/v23_deleteSubGroup")
    assert (code, err) == (0, "")
    assert ours == expected
    assert "GoldenGroup5" not in golden.groups_on_broker()


# ------------------------------------------------------------------------------------------ after c01


@pytest.fixture(scope="module")
def consumed(golden: Cluster) -> Cluster:
    """c01: the C++ client sent 3 messages to CppTopic and consumed them as CppGoldenCG, then left."""
    golden.create_topic("CppTopic", 2)
    golden.produce("CppTopic", 3)
    golden.consume("CppTopic", "CppGoldenCG", 3)
    return golden


def test_consumer_progress_of_all_groups_v17(consumed: Cluster) -> None:
    """Masked: the #TPS column (the broker's live rate; the Java run got 0 from a failed request)."""
    ours, expected, code, err = run(consumed, f"{V533}/v17_consumerProgress")
    assert (code, err) == (0, "")
    assert mask(ours, [(122, 129)]) == mask(expected, [(122, 129)])
    assert ours.split("\n")[1].split()[:3] == ["CppGoldenCG", "0", "OFFLINE"]


def test_broker_consume_stats_after_consumption_v24(consumed: Cluster) -> None:
    """Masked: the offsets (the C++ producer picks the first queue at random) and #LastTime."""
    ours, expected, code, err = run(consumed, f"{V533}/v24_brokerConsumeStats")
    assert (code, err) == (0, "")
    spans: list[tuple[int, int | None]] = [(172, 192), (194, 214), (238, None)]
    assert mask(ours, spans) == mask(expected, spans)
    rows = ours.split("\n")[1:3]
    offsets = sorted(int(r.split()[4]) for r in rows)
    assert offsets == [1, 2] and all(r.split()[4] == r.split()[5] for r in rows)
    assert all(
        consumed.committed("CppGoldenCG", "CppTopic", q) == consumed.max_offset("CppTopic", q) for q in (0, 1)
    )


@pytest.mark.parametrize(("scenario", "sent"), [(f"{V498}/s22_statsAll", 2), (f"{V533}/v20_statsAll", 1)])
def test_stats_all_of_topic_without_consumer_s22_v20(golden: Cluster, scenario: str, sent: int) -> None:
    """Masked: #InTPS (live). #InMsg24Hour is the count of messages sent, once the broker sampled it."""
    deadline = time.monotonic() + 25
    while True:
        ours, expected, code, err = run(golden, scenario)
        assert (code, err) == (0, "")
        if ours.split("\n")[1].split()[-2] == str(sent) or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert mask(ours, [(144, 155)]) == mask(expected, [(144, 155)])
