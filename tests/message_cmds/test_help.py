"""Help texts of the message commands: the Java 5.3.3 wording and layout, option spellings Java accepts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mqadmin.cli.app import cli
from mqadmin.cli.registry import lookup
from tests.cli.java_help_ref import REFERENCE as JAVA_HELP

# The Java 5.3.3 ``mqadmin help CMD`` output of the message commands.
REFERENCE = {
    name: JAVA_HELP[name]
    for name in (
        "queryMsgById",
        "queryMsgByKey",
        "queryMsgByUniqueKey",
        "queryMsgByOffset",
        "queryMsgTraceById",
        "printMsg",
        "printMsgByQueue",
        "sendMsgStatus",
        "checkMsgSendRT",
        "clusterRT",
        "sendMessage",
        "consumeMessage",
    )
}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_help_block_is_javas(name: str) -> None:
    entry = lookup(name)
    assert entry is not None and entry.java
    r = CliRunner().invoke(cli, ["help", name])
    assert r.exit_code == 0
    assert r.output.startswith(REFERENCE[name]), r.output
    h = CliRunner().invoke(cli, [name, "-h"])
    assert (h.exit_code, h.output) == (0, r.output)


def test_alias_and_case() -> None:
    """Java also answers to ``QueryMsgTraceById`` (its alias) and to any case."""
    for word in ("QueryMsgTraceById", "PRINTMSG"):
        r = CliRunner().invoke(cli, [word, "-h"])
        assert r.exit_code == 0 and r.output.startswith("usage: mqadmin ")


def test_decode_message_id_is_ours() -> None:
    """Java has the class but never registers it; ours is listed as an mqadmin extra."""
    entry = lookup("decodeMessageId")
    assert entry is not None and not entry.java
    r = CliRunner().invoke(cli, ["decodeMessageId", "-h"])
    assert r.exit_code == 0 and "-i,--messageId <arg>" in r.output
