"""The Java help text of each command, and the options we add (``--dry-run``) kept out of it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mqadmin.cli.app import cli
from tests.cli.java_help_ref import REFERENCE as JAVA_HELP

# The Java 5.3.3 ``mqadmin help CMD`` output of the group, consumer, offset and stats commands.
REFERENCE = {
    name: JAVA_HELP[name]
    for name in (
        "updateSubGroup",
        "updateSubGroupList",
        "deleteSubGroup",
        "getConsumerConfig",
        "consumerProgress",
        "consumerStatus",
        "consumerConnection",
        "producerConnection",
        "brokerConsumeStats",
        "statsAll",
        "producer",
        "resetOffsetByTime",
        "skipAccumulatedMessage",
        "cloneGroupOffset",
        "queryCq",
    )
}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_help_block_is_javas(name: str) -> None:
    h = CliRunner().invoke(cli, [name, "-h"])
    assert h.exit_code == 0
    assert h.output.startswith(REFERENCE[name]), h.output


def test_dry_run_is_listed_with_our_own_options() -> None:
    text = CliRunner().invoke(cli, ["resetOffsetByTime", "-h"]).output
    own, common = text.split("Options of this command (not in the Java tool):", 1)[1].split(
        "Options of mqadmin (any command):", 1
    )
    assert (
        text.startswith(REFERENCE["resetOffsetByTime"]) and "--dry-run" not in REFERENCE["resetOffsetByTime"]
    )
    assert "    --dry-run " in own and "--dry-run" not in common


def test_consumer_command_help() -> None:
    text = CliRunner().invoke(cli, ["consumer", "-h"]).output
    assert text.startswith("usage: mqadmin consumer -g <arg> [-h] [-i <arg>] [-n <arg>] [-s]\n")
    assert "Not registered in the Java tool" in text
