"""Help texts: the Java wording and layout of every command we have, and the grouped command list."""

from __future__ import annotations

import pytest

from mqadmin.cli.registry import COMMANDS

JAVA_NAMES = [c.name for c in COMMANDS if c.java]


def java_reference() -> dict[str, str]:
    """``mqadmin help CMD`` of the Java 5.3.3 tool, by command (recorded from the real tool)."""
    from tests.cli import java_help_ref

    return java_help_ref.REFERENCE


@pytest.mark.parametrize("name", JAVA_NAMES)
def test_help_block_is_javas(name: str) -> None:
    from click.testing import CliRunner

    from mqadmin.cli.app import cli

    expected = java_reference()[name]
    r = CliRunner().invoke(cli, ["help", name])
    assert r.exit_code == 0
    assert r.output.startswith(expected), r.output
    h = CliRunner().invoke(cli, [name, "-h"])
    assert (h.exit_code, h.output) == (0, r.output)


def test_help_of_the_installed_command(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("help", "topicRoute")
    assert r.code == 0 and r.out.startswith(java_reference()["topicRoute"])
    assert mqadmin("topicRoute", "-h").out == r.out


def test_command_list_groups_every_command(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin()
    assert r.code == 0
    assert r.out == mqadmin("--help").out == mqadmin("help").out
    for c in COMMANDS:
        assert f"   {c.name:<35} {c.summary}\n" in r.out
    assert "Topic commands:\n" in r.out and "Name server commands:\n" in r.out


JAVA_5_3_3 = (
    "updateTopic updateTopicList deleteTopic updateSubGroup updateSubGroupList setConsumeMode deleteSubGroup "
    "updateBrokerConfig updateTopicPerm topicRoute topicStatus topicClusterList addBroker removeBroker "
    "resetMasterFlushOffset brokerStatus queryMsgById queryMsgByKey queryMsgByUniqueKey queryMsgByOffset "
    "queryMsgTraceById printMsg printMsgByQueue sendMsgStatus brokerConsumeStats producerConnection "
    "consumerConnection consumerProgress consumerStatus cloneGroupOffset producer clusterList topicList "
    "updateKvConfig deleteKvConfig wipeWritePerm addWritePerm resetOffsetByTime skipAccumulatedMessage "
    "updateOrderConf cleanExpiredCQ deleteExpiredCommitLog cleanUnusedTopic startMonitoring statsAll "
    "allocateMQ checkMsgSendRT clusterRT getNamesrvConfig updateNamesrvConfig getBrokerConfig "
    "getConsumerConfig queryCq sendMessage consumeMessage updateStaticTopic remappingStaticTopic "
    "exportMetadata exportConfigs exportMetrics exportMetadataInRocksDB exportPopRecord haStatus "
    "getSyncStateSet getBrokerEpoch getControllerMetaData getControllerConfig updateControllerConfig "
    "electMaster cleanBrokerMetadata dumpCompactionLog getColdDataFlowCtrInfo "
    "updateColdDataFlowCtrGroupConfig removeColdDataFlowCtrGroupConfig setCommitLogReadAheadMode createUser "
    "updateUser deleteUser getUser listUser copyUser createAcl updateAcl deleteAcl getAcl listAcl copyAcl "
    "rocksDBConfigToJson checkRocksdbCqWriteProgress"
).split()
"""The commands the Java 5.3.3 ``MQAdminStartup`` registers, in its order."""
JAVA_4_9_8_ONLY = ["updateAclConfig", "deleteAclConfig", "clusterAclConfigVersion", "updateGlobalWhiteAddr"]


def test_every_java_command_exists() -> None:
    """All 89 commands of the Java 5.3.3 tool and the 4 ACL 1.0 ones of 4.9.8, no more, no fewer."""
    assert len(JAVA_5_3_3) == len(set(JAVA_5_3_3)) == 89
    expected = set(JAVA_5_3_3) | set(JAVA_4_9_8_ONLY)
    assert set(JAVA_NAMES) == expected == set(java_reference())


def test_registry_matches_command_definitions() -> None:
    from mqadmin.cli.docmodel import load_command

    for entry in COMMANDS:
        cmd = load_command(entry)
        assert cmd.name == entry.name
        if entry.java:
            assert cmd.desc == entry.summary  # type: ignore[attr-defined]


def test_each_module_defines_what_the_registry_places_in_it() -> None:
    """Imported one after the other in a fresh interpreter, each command module defines exactly the
    commands the registry names for it (no more: a command defined elsewhere would never be found)."""
    import subprocess
    import sys

    code = (
        "import importlib, json\n"
        "from mqadmin.cli.registry import COMMANDS, DEFINED\n"
        "seen = {}\n"
        "for m in dict.fromkeys(c.module for c in COMMANDS):\n"
        "    before = set(DEFINED)\n"
        "    importlib.import_module('mqadmin.cli.commands.' + m)\n"
        "    seen[m] = sorted(set(DEFINED) - before)\n"
        "print(json.dumps(seen))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    import json

    expected: dict[str, list[str]] = {}
    for c in COMMANDS:
        expected.setdefault(c.module, []).append(c.name)
    assert json.loads(p.stdout) == {m: sorted(names) for m, names in expected.items()}


def test_an_unregistered_command_is_refused() -> None:
    import click

    from mqadmin.cli.command import java_command
    from mqadmin.cli.registry import define

    with pytest.raises(LookupError, match="notACommand"):
        java_command("notACommand", [])
    with pytest.raises(LookupError, match="notACommand"):
        define(click.Command("notACommand"))


def test_command_names_ignore_case(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("TOPICROUTE", "-h")
    assert r.code == 0 and r.out.startswith("usage: mqadmin topicRoute ")
