"""updateStaticTopic and remappingStaticTopic refuse bad input in one line before they connect.

The name server given (port 1) refuses connections: a command that tried to connect would exit 4
(unreachable) instead of the code asserted here. The commands against real servers are in
``tests/broker/test_static_topic.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_harness import clean_env, run_mqadmin

NOWHERE = ["-n", "127.0.0.1:1"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return clean_env(tmp_path / "home", tmp_path / "cfg")


def _one_line(err: str, needle: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["-b", "a", "-t", "T", "-qn", "x"], 2, "-qn takes a whole number"),
        (["-b", "a", "-t", "T", "-qn", "0"], 2, "1 to 1024 queues"),
        (["-b", "a", "-t", "T", "-qn", "1025"], 2, "1 to 1024 queues"),
        (["-b", "a", "-t", "bad topic", "-qn", "2"], 2, "illegal characters"),
        (["-t", "T", "-qn", "2"], 2, "one of -c, -b"),
        (["-b", "a", "-t", "T"], 2, "-qn"),
        (["-b", "a", "-t", "T", "-qn", "2", "-mf", "/no/such/plan"], 1, "cannot read the mapping file"),
    ],
)
def test_update_static_topic_refuses_before_connecting(
    env: dict[str, str], args: list[str], code: int, needle: str
) -> None:
    r = run_mqadmin(["updateStaticTopic", *NOWHERE, *args], env)
    assert r.code == code and r.out == "", (r.code, r.out, r.err)
    _one_line(r.err, needle)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"x":', "bad JSON"),
        ("[]", "not a JSON object"),
        ('{"topic":"T","brokerConfigMap":{}}', "The mapping holds no broker"),
        (
            '{"topic":"T","brokerConfigMap":{"a":{"topicName":"T"}}}',
            "Mapping info should not be null in broker a",
        ),
        (
            '{"topic":"T","brokerConfigMap":{"a":{"topicName":"T","mappingDetail":'
            '{"topic":"T","bname":"a","epoch":5,"totalQueues":2,"hostedQueues":'
            '{0:[{"bname":"a","gen":0,"queueId":0,"logicOffset":0}]}}}}}',
            "does not match the real hosted queues 2 != 1",
        ),
    ],
)
def test_a_plan_file_that_cannot_be_used_is_one_line(
    env: dict[str, str], tmp_path: Path, text: str, needle: str
) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(text)
    for cmd in (["updateStaticTopic", "-qn", "2"], ["remappingStaticTopic"]):
        r = run_mqadmin([*cmd, *NOWHERE, "-b", "a", "-t", "T", "-mf", str(plan)], env)
        assert r.code == 1 and r.out == "", (cmd, r.code, r.out, r.err)
        _one_line(r.err, needle)


def test_the_help_is_the_java_tools(env: dict[str, str]) -> None:
    r = run_mqadmin(["remappingStaticTopic", "-h"], env)
    assert r.code == 0
    assert r.out.startswith(
        "usage: mqadmin remappingStaticTopic -b <arg> | -c <arg>  [-fr <arg>] [-h] [-mf <arg>] [-n <arg>] "
        "-t <arg>\n"
        " -b,--brokers <arg>         remapping static topic to brokers, comma separated\n"
        " -c,--clusters <arg>        remapping static topic to clusters, comma separated\n"
        " -fr,--forceReplace <arg>   Force replace the old mapping\n"
    )
