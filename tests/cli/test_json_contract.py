"""The JSON contract (``mqadmin/v1``): every command's real ``--json`` document validates against its
published schema (``mqadmin schema CMD``, draft 2020-12, checked with ``jsonschema``), and no schema
changes without a new ``apiVersion``.

The documents come from the installed ``mqadmin`` run against our name server and development broker
with a producer (a C++ client's messages, our producer heartbeat) and consumers (a C++ push consumer
online, a group with committed offsets, a consumer heartbeat) on loopback. Besides its schema, each
document is walked for the rules a schema states per member only: rates rounded to 2 places, no
number sent as a string outside the maps that hold a server's text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from mqadmin.cli import schemas
from mqadmin.cli.output import API_VERSION
from mqadmin.cli.registry import COMMANDS
from tests.admin_group_offset.servers import Cluster, HeartbeatClient, OnlineConsumer, consume, produce
from tests.cli_harness import MQADMIN, Result, run_mqadmin

PINNED_API_VERSION = "mqadmin/v1"
"""The version the digests below belong to. A schema changed: bump API_VERSION (and the ``$id``s),
then pin the new digests here beside it."""

TOPIC, GROUP, ONLINE, HB_GROUP, PRODUCER = (
    "ContractTopic",
    "ContractGroup",
    "ContractOnline",
    "ContractHB",
    "ContractPG",
)

# (case id, command and arguments); {ns} and {broker} are filled in. Read-only ones run at once;
# WRITES run one after the other, in this order.
READS: list[tuple[str, list[str]]] = [
    ("topicRoute", ["topicRoute", "-t", TOPIC]),
    ("topicClusterList", ["topicClusterList", "-t", TOPIC]),
    ("topicList", ["topicList"]),
    ("topicList-c", ["topicList", "-c"]),
    ("allocateMQ", ["allocateMQ", "-t", TOPIC, "-i", "127.0.0.1@1,127.0.0.1@2"]),
    ("topicStatus", ["topicStatus", "-t", TOPIC]),
    ("brokerStatus-b", ["brokerStatus", "-b", "{broker}"]),
    ("brokerStatus-c", ["brokerStatus", "-c", "DefaultCluster"]),
    ("getBrokerConfig-b", ["getBrokerConfig", "-b", "{broker}"]),
    ("getBrokerConfig-c", ["getBrokerConfig", "-c", "DefaultCluster"]),
    ("clusterList", ["clusterList"]),
    ("clusterList-m", ["clusterList", "-m"]),
    ("brokerConsumeStats", ["brokerConsumeStats", "-b", "{broker}"]),
    ("producerConnection", ["producerConnection", "-g", PRODUCER, "-t", TOPIC]),
    ("consumerConnection", ["consumerConnection", "-g", ONLINE]),
    ("consumerProgress", ["consumerProgress"]),
    ("consumerProgress-g", ["consumerProgress", "-g", GROUP]),
    ("consumerStatus", ["consumerStatus", "-g", ONLINE]),
    ("consumer", ["consumer", "-g", ONLINE]),
    ("producer", ["producer", "-b", "{broker}"]),
    ("statsAll", ["statsAll"]),
    ("getConsumerConfig", ["getConsumerConfig", "-g", GROUP]),
    ("queryCq", ["queryCq", "-t", TOPIC, "-q", "0", "-i", "0", "-c", "2"]),
    ("printMsg", ["printMsg", "-t", TOPIC]),
    ("printMsgByQueue", ["printMsgByQueue", "-t", TOPIC, "-a", "broker-a", "-i", "0"]),
    ("queryMsgByOffset", ["queryMsgByOffset", "-t", TOPIC, "-b", "broker-a", "-i", "0", "-o", "0"]),
    ("getNamesrvConfig", ["getNamesrvConfig"]),
    ("haStatus", ["haStatus", "-b", "{broker}"]),
    ("exportConfigs", ["exportConfigs", "-c", "DefaultCluster", "-f", "{tmp}/configs"]),
    ("exportMetadata", ["exportMetadata", "-c", "DefaultCluster", "-f", "{tmp}/metadata"]),
    ("decodeMessageId", ["decodeMessageId", "-i", "7F00000100002A9F0000000000000000"]),
    ("consumeMessage", ["consumeMessage", "-t", TOPIC, "-c", "2"]),
]
WRITES: list[tuple[str, list[str]]] = [
    ("updateTopic", ["updateTopic", "-c", "DefaultCluster", "-t", "ContractNew"]),
    ("updateTopicPerm", ["updateTopicPerm", "-c", "DefaultCluster", "-t", "ContractNew", "-p", "6"]),
    ("deleteTopic", ["deleteTopic", "-c", "DefaultCluster", "-t", "ContractNew"]),
    ("updateSubGroup", ["updateSubGroup", "-c", "DefaultCluster", "-g", "ContractNewGroup"]),
    ("deleteSubGroup", ["deleteSubGroup", "-c", "DefaultCluster", "-g", "ContractNewGroup"]),
    ("cloneGroupOffset", ["cloneGroupOffset", "-s", GROUP, "-d", "ContractClone", "-t", TOPIC]),
    ("resetOffsetByTime", ["resetOffsetByTime", "-g", "ContractClone", "-t", TOPIC, "-s", "now"]),
    ("skipAccumulatedMessage", ["skipAccumulatedMessage", "-g", "ContractClone", "-t", TOPIC, "-c", "DefaultCluster"]),  # noqa: E501
    ("sendMessage", ["sendMessage", "-t", TOPIC, "-p", "hello"]),
    ("sendMsgStatus", ["sendMsgStatus", "-b", "broker-a", "-c", "2"]),
    ("checkMsgSendRT", ["checkMsgSendRT", "-t", TOPIC, "-a", "3"]),
    ("updateKvConfig", ["updateKvConfig", "-s", "NS", "-k", "K", "-v", "V"]),
    ("deleteKvConfig", ["deleteKvConfig", "-s", "NS", "-k", "K"]),
    ("wipeWritePerm", ["wipeWritePerm", "-b", "broker-none"]),
    ("addWritePerm", ["addWritePerm", "-b", "broker-a"]),
    ("updateNamesrvConfig", ["updateNamesrvConfig", "-k", "clusterTest", "-v", "false"]),
    ("updateBrokerConfig", ["updateBrokerConfig", "-b", "{broker}", "-k", "maxMessageSize", "-v", "4194304"]),
    ("cleanUnusedTopic", ["cleanUnusedTopic", "-b", "{broker}"]),
    ("cleanExpiredCQ", ["cleanExpiredCQ", "-b", "{broker}"]),
    ("deleteExpiredCommitLog", ["deleteExpiredCommitLog", "-b", "{broker}"]),
]  # fmt: skip
CASES = [*READS, *WRITES]

NOT_DOCUMENTS = {"namesrv", "broker", "help", "demo", "schema", "context", "snapshot", "analyze", "export"}
"""Registry entries that print no ``--json`` document of the CLI's own (servers, help, the Spark jobs)."""

DATA_MAPS = {"config", "properties", "brokerAddrs", "commitLogDiskRatios", "result", "attributes"}
"""Members whose keys and values are a server's or a user's text (config entries, message properties)."""

_NUMBER_TEXT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
_TEXT_MEMBERS = {"body", "key", "keys", "value", "msgId", "offsetMsgId", "uniqKey", "tags", "topic", "group"}
"""Members that hold text a user chose (a key of "7" is text)."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Result]]:
    """Every case's ``--json`` run against one cluster with producers and consumers online."""
    root = tmp_path_factory.mktemp("contract")
    c = Cluster(root)
    online: OnlineConsumer | None = None
    hb: HeartbeatClient | None = None
    try:
        c.create_topic(TOPIC, 4)
        produce(c.namesrv, TOPIC, 12)
        consume(c.namesrv, TOPIC, GROUP, 12)
        produce(c.namesrv, TOPIC, 4)
        online = OnlineConsumer(c.namesrv, TOPIC, ONLINE, 16)
        hb = HeartbeatClient(c.addr, "127.0.0.1@contract", (PRODUCER,), ((HB_GROUP, TOPIC),))
        online.wait_received(16)
        fill = {"ns": c.namesrv, "broker": c.addr, "tmp": str(root)}

        def run(args: list[str]) -> Result:
            argv = [a.format(**fill) for a in args]
            return run_mqadmin([argv[0], "-n", c.namesrv, *argv[1:], "--json"], c.env, timeout=60, cwd=c.cwd)

        with ThreadPoolExecutor(4) as pool:
            results = dict(zip([k for k, _ in READS], pool.map(run, [a for _, a in READS]), strict=True))
        results.update((k, run(a)) for k, a in WRITES)
        samples = os.environ.get("MQADMIN_CONTRACT_SAMPLES")  # drafts of new schemas start from these
        if samples:
            for k, r in results.items():
                (Path(samples) / f"{k}.json").write_text(r.out)
        yield results
    finally:
        if hb is not None:
            hb.close()
        if online is not None:
            online.stop()
        c.stop()


def registry() -> Registry[Any]:
    return Registry().with_resources(
        (schemas.load(n)["$id"], Resource.from_contents(schemas.load(n))) for n in schemas.names()
    )


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schemas.load(name), registry=registry())


def documents(r: Result) -> list[Any]:
    """The document, or each line of a stream."""
    try:
        return [json.loads(r.out)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in r.out.splitlines() if line.strip()]


def contract_breaks(value: Any, path: str = "$", in_map: bool = False) -> list[str]:
    """What breaks the rules a schema cannot state member by member."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{path}.{k}"
            if k.endswith("Tps") and isinstance(v, float) and round(v, 2) != v:
                found.append(f"{p}: {v} is not rounded to 2 places")
            if (k.endswith(("Mills", "TimeStamp")) and not in_map) or k == "hours":
                found.append(f"{p}: a time or duration not named ...Timestamp / ...Ms")
            if isinstance(v, str) and not in_map and k not in _TEXT_MEMBERS and _NUMBER_TEXT.fullmatch(v):
                found.append(f"{p}: the number {v!r} as a string")
            found += contract_breaks(v, p, in_map=k in DATA_MAPS)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += contract_breaks(v, f"{path}[{i}]")
    return found


# ------------------------------------------------------------------------------------------ schemas


def test_every_schema_is_a_valid_draft_2020_12_schema_with_its_id() -> None:
    for name in schemas.names():
        schema = schemas.load(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        assert schema["$id"] == schemas.ID_PREFIX + name, name


def test_every_command_printing_a_document_has_a_schema() -> None:
    expected = {c.name for c in COMMANDS if c.name not in NOT_DOCUMENTS}
    assert expected - set(schemas.names()) == set()
    assert set(schemas.names()) - expected - {"common"} == set()


def test_schemas_do_not_change_without_a_new_api_version() -> None:
    """A digest of every schema file, pinned beside the version they make up."""
    digests = {n: hashlib.sha256(schemas.path_of(n).read_bytes()).hexdigest()[:16] for n in schemas.names()}
    assert API_VERSION == schemas.API_VERSION == PINNED_API_VERSION
    changed = {n for n in set(digests) | set(PINNED) if digests.get(n) != PINNED.get(n)}
    assert not changed, (
        f"schemas changed under {API_VERSION}: {sorted(changed)}; a published schema does not change: "
        f"make a new apiVersion, then pin: {json.dumps(digests, indent=1)}"
    )


# ------------------------------------------------------------------------------ live documents


@pytest.mark.parametrize("case", [k for k, _ in CASES])
def test_live_document_validates(live: dict[str, Result], case: str) -> None:
    r = live[case]
    assert r.code == 0, (case, r.code, r.err)
    command = dict(CASES)[case][0]
    v = validator(command)
    for doc in documents(r):
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
        assert next(iter(doc)) == "apiVersion" and doc["apiVersion"] == API_VERSION
        assert contract_breaks(doc) == []


def test_every_broker_item_names_its_broker(live: dict[str, Result]) -> None:
    """The development broker is known to the name server: no null in who it is."""
    seen = 0
    for case, r in live.items():
        for doc in documents(r):
            for item in _broker_items(doc):
                seen += 1
                assert (item["cluster"], item["brokerName"], item["brokerId"]) == (
                    "DefaultCluster",
                    "broker-a",
                    0,
                ), (
                    case,
                    item,
                )
    assert seen > 10


def _broker_items(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "brokers" and isinstance(v, list):
                yield from (b for b in v if isinstance(b, dict))
            yield from _broker_items(v)
    elif isinstance(value, list):
        for v in value:
            yield from _broker_items(v)


def test_seen_cluster_list_numbers_and_times(live: dict[str, Result]) -> None:
    """clusterList: queue sizes and waits are numbers, no ``hours`` from a broker's -1, putTps/getTps."""
    (b,) = json.loads(live["clusterList"].out)["brokers"]
    assert isinstance(b["sendThreadPoolQueueSize"], int) and isinstance(b["pageCacheLockTimeMs"], int)
    assert "hours" not in b and "inTps" not in b
    assert b["earliestMessageTimestamp"] is None or b["earliestMessageTimestamp"] > 1_600_000_000_000
    assert isinstance(b["putTps"], float) and isinstance(b["getTps"], float)


def test_seen_broker_status_values_and_windows(live: dict[str, Result]) -> None:
    (b,) = json.loads(live["brokerStatus-b"].out)["brokers"]
    assert (b["brokerName"], b["role"]) == ("broker-a", "master")
    stats = b["stats"]
    assert isinstance(stats["bootTimestamp"], int) and stats["bootTimestamp"] > 1_600_000_000_000
    assert "putTps" not in stats and {"put10sTps", "put1mTps", "put10mTps"} <= set(stats)
    assert isinstance(stats["msgPutTotalTodayNow"], int) and stats["msgPutTotalTodayNow"] >= 16
    assert stats["earliestMessageTimestamp"] is None or stats["earliestMessageTimestamp"] > 0


def test_seen_broker_config_values_are_typed(live: dict[str, Result]) -> None:
    (b,) = json.loads(live["getBrokerConfig-b"].out)["brokers"]
    config = b["config"]
    assert config["brokerId"] == 0 and config["autoCreateTopicEnable"] in (True, False)
    assert isinstance(config["brokerIP1"], str) and (b["brokerName"], b["role"]) == ("broker-a", "master")


def test_seen_tps_keys_are_one_vocabulary(live: dict[str, Result]) -> None:
    """putTps for messages written, getTps for messages read from a broker, consumeTps for a group."""
    keys: set[str] = set()

    def collect(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k.endswith("Tps") and not k.endswith(("10sTps", "1mTps", "10mTps")):
                    keys.add(k)
                collect(x)
        elif isinstance(v, list):
            for x in v:
                collect(x)

    for case in ("clusterList", "statsAll", "consumerProgress", "consumerProgress-g", "topicStatus"):
        collect(json.loads(live[case].out))
    assert keys <= {"putTps", "getTps", "consumeTps", "enqueueTps", "dequeueTps", "pullTps"}, keys


def test_error_document_validates(live: dict[str, Result], tmp_path: Path) -> None:
    """A failure prints the error document of the convention (and its line on stderr)."""
    ns = json.loads(live["getNamesrvConfig"].out)["nameServers"][0]["addr"]
    r = run_mqadmin(["topicRoute", "-n", ns, "-t", "NoSuchContractTopic", "--json"], _env(tmp_path))
    assert r.code == 7
    doc = json.loads(r.out)
    jsonschema.Draft202012Validator(
        {"$ref": schemas.ID_PREFIX + "common#/$defs/errorDocument"}, registry=registry()
    ).validate(doc)
    assert doc["error"]["exitCode"] == 7


def test_watch_lines_each_carry_a_timestamp(live: dict[str, Result], tmp_path: Path) -> None:
    """-i with --json: one document a line, each with apiVersion and the time of its round."""
    ns = json.loads(live["getNamesrvConfig"].out)["nameServers"][0]["addr"]
    p = subprocess.Popen(
        [MQADMIN, "topicStatus", "-n", ns, "-t", TOPIC, "-i", "0.2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
    )
    assert p.stdout is not None
    lines = [p.stdout.readline() for _ in range(2)]
    p.stdout.close()  # a closed reader ends the watch, exit 0 (test_exit_codes_contract)
    assert p.wait(5) == 0
    v = validator("topicStatus")
    stream = jsonschema.Draft202012Validator(
        {"$ref": schemas.ID_PREFIX + "common#/$defs/streamLine"}, registry=registry()
    )
    stamps = []
    for line in lines:
        doc = json.loads(line)
        v.validate(doc)
        stream.validate(doc)
        stamps.append(doc["timestamp"])
    assert stamps[0] <= stamps[1] <= time.time() * 1000


def test_print_msg_json_lines_each_carry_a_timestamp(live: dict[str, Result], tmp_path: Path) -> None:
    ns = json.loads(live["getNamesrvConfig"].out)["nameServers"][0]["addr"]
    r = run_mqadmin(["printMsg", "-n", ns, "-t", TOPIC, "--json-lines"], _env(tmp_path))
    assert r.code == 0, r.err
    lines = [json.loads(x) for x in r.out.splitlines()]
    assert len(lines) >= 16
    assert all(d["apiVersion"] == API_VERSION and d["timestamp"] > 0 for d in lines)


def _env(tmp_path: Path) -> dict[str, str]:
    from tests.cli_harness import clean_env

    return clean_env(tmp_path / "home", tmp_path / "config")


# ------------------------------------------------------------------------------ mqadmin schema


def test_schema_command_prints_the_shipped_files(tmp_path: Path) -> None:
    """As published: self-contained, the error document allowed (tests/operator checks both)."""
    env = _env(tmp_path)
    listed = run_mqadmin(["schema"], env)
    assert listed.code == 0 and listed.out.splitlines() == schemas.names()
    one = run_mqadmin(["schema", "clusterlist"], env)  # names ignore case, as commands do
    assert one.code == 0 and json.loads(one.out) == schemas.published("clusterList")
    assert json.loads(run_mqadmin(["schema", "common"], env).out) == schemas.load("common")
    every = run_mqadmin(["schema", "--all"], env)
    assert json.loads(every.out)["brokerStatus"] == schemas.published("brokerStatus")
    missing = run_mqadmin(["schema", "noSuchCommand"], env)
    assert (missing.code, missing.out) == (2, "") and "mqadmin schema" in missing.err
    for hostile in ("../schemas/common", "../../pyproject", "a\udcffb", "x" * 5000, "common/"):
        r = run_mqadmin(["schema", hostile], env)
        assert (r.code, r.out) == (2, "") and "no schema for" in r.err, (hostile, r.err)


def test_other_commands_do_not_load_the_schemas(tmp_path: Path) -> None:
    """Start-up: the schema files and their loader are for ``mqadmin schema`` and the tests only."""
    env = {**_env(tmp_path), "PYTHONPROFILEIMPORTTIME": "1"}
    r = run_mqadmin(["topicRoute", "-n", "127.0.0.1:1", "-t", "T", "--json"], env)
    modules = {ln.rsplit("|", 1)[1].strip() for ln in r.err.splitlines() if ln.startswith("import time:")}
    assert "mqadmin.cli.output" in modules
    assert not {m for m in modules if m.startswith(("mqadmin.cli.schemas", "jsonschema", "rich"))}


def test_man_page_points_to_the_schemas() -> None:
    page = (Path(__file__).resolve().parents[2] / "man" / "mqadmin.1").read_text()
    assert "mqadmin schema" in page and "mqadmin/v1" in page


PINNED: dict[str, str] = {  # schema name: the first 16 hex digits of its file's SHA-256
    "common": "e0e93b79f2f32928",
    "addBroker": "e277e6d20a724904",
    "addWritePerm": "59ea9034ea02bcfb",
    "allocateMQ": "3c1e645a563a8066",
    "apply": "7703f1584189166e",
    "brokerConsumeStats": "797b2a3ebc26a4ac",
    "brokerStatus": "69effb454226c238",
    "checkMsgSendRT": "f8e899634fee7d89",
    "checkRocksdbCqWriteProgress": "b33f63aa91482ff8",
    "cleanBrokerMetadata": "dde8e07f69d6ac18",
    "cleanExpiredCQ": "33ddb8504d768a31",
    "cleanUnusedTopic": "75d55c69ed8f9deb",
    "cloneGroupOffset": "761870e2acb4fa09",
    "clusterAclConfigVersion": "f03d8d01081f4f37",
    "clusterList": "65a20159934ae8f7",
    "clusterRT": "93d461d0126ffebe",
    "consume": "38efa4a8f48a772b",
    "consumeMessage": "a61fde29818db4a9",
    "consumer": "3991260f3b786253",
    "consumerConnection": "075a37e9c128b60e",
    "consumerProgress": "d895df32c20ced84",
    "consumerStatus": "fa162d1e4373986a",
    "copyAcl": "e8f177ea8aa8fb96",
    "copyUser": "34c6080d00903400",
    "createAcl": "85bb8e90222e74a4",
    "createUser": "94cc9e8767fc7e1d",
    "decodeMessageId": "4c907438113b6675",
    "deleteAcl": "7efcb341a4d7f8c8",
    "deleteAclConfig": "135eaa576771a4f2",
    "deleteExpiredCommitLog": "aecc3c9f4e3ecb0e",
    "deleteKvConfig": "4f77ea45fb3eb973",
    "deleteSubGroup": "550469ed38ae9741",
    "deleteTopic": "dfe99aac4e6ce299",
    "deleteUser": "5cde3a0c46b4812f",
    "diff": "e6d751082bf9171d",
    "doctor": "c57359ecacde82a7",
    "dumpCompactionLog": "d2d037cdac6cff06",
    "electMaster": "af959d30410159a8",
    "exportConfigs": "0b31129bb33f7f6f",
    "exportMetadata": "4f7df1b25b8383f8",
    "exportMetadataInRocksDB": "17bd87528cdfc646",
    "exportMetrics": "97ceda0cb4f944ef",
    "exportPopRecord": "e8030f3fed143bfa",
    "getAcl": "d55e33625ef84437",
    "getBrokerConfig": "223f656d2694b1cc",
    "getBrokerEpoch": "953fa59097127b22",
    "getColdDataFlowCtrInfo": "08080f49de9e916d",
    "getConsumerConfig": "0b5962bbb60105cc",
    "getControllerConfig": "e3c51d5447f30fad",
    "getControllerMetaData": "f7357e492aa523c3",
    "getNamesrvConfig": "8eb4513aa8c7d00b",
    "getSyncStateSet": "f5f7619167597ad8",
    "getUser": "8e6bcfc03dc09eaa",
    "haStatus": "7e28804a5111e857",
    "listAcl": "589f4b1ea447a762",
    "listUser": "bc751fb13b5fe144",
    "manifest": "d7d2431fa10c84ba",
    "printMsg": "9d48fa78ab4ca921",
    "printMsgByQueue": "aee9ef2cfad480fc",
    "producer": "873a7484a82d5c64",
    "produce": "24a9de9b0c0911b3",
    "producerConnection": "ce3d2842b3bedbf8",
    "queryCq": "e7f39472010f63c2",
    "queryMsgById": "a4c827d7ff2777c6",
    "queryMsgByKey": "0d5658e6330c97d4",
    "queryMsgByOffset": "0ec8cad584e020a0",
    "queryMsgByUniqueKey": "52b6d0d72d3603b3",
    "queryMsgTraceById": "fbe81da35e8c20da",
    "remappingStaticTopic": "cd687f0ee75c5b73",
    "removeBroker": "9040cb6adbbd17fa",
    "removeColdDataFlowCtrGroupConfig": "82cae51ab3dd5b8f",
    "resetMasterFlushOffset": "c986973f697e2ce0",
    "resetOffsets": "577a519b125cd54f",
    "resetOffsetByTime": "8a16fbfb8cd16df4",
    "rocksDBConfigToJson": "e0ef81e42ebbf9bf",
    "sendMessage": "d5c60cb679e36cea",
    "sendMsgStatus": "fad1612f836a30cd",
    "setCommitLogReadAheadMode": "a4a43aec603bf70e",
    "setConsumeMode": "0adfd55fd164064f",
    "skipAccumulatedMessage": "6ae2007afe499d9b",
    "startMonitoring": "7db1cb765b6372c6",
    "statsAll": "9d994fbb9e1cac95",
    "topicClusterList": "230c56d55771b3c6",
    "topicList": "bb0e9ce3b6e6783e",
    "topicRoute": "33cc25ce2b02cba8",
    "topicStatus": "1dc1976200ee8c3b",
    "updateAcl": "c2ff88ed34544f0b",
    "updateAclConfig": "8552b9b7af419c0d",
    "updateBrokerConfig": "9d1f1d0384eaa68a",
    "updateColdDataFlowCtrGroupConfig": "e03ea26783b92d90",
    "updateControllerConfig": "c99907919f6d54c7",
    "updateGlobalWhiteAddr": "68e4fa9a6404adc7",
    "updateKvConfig": "25e6c56f550ae8de",
    "updateNamesrvConfig": "f5be7f1495ab24dd",
    "updateOrderConf": "c82a5f90fe923e1a",
    "updateStaticTopic": "495b8db48debc172",
    "updateSubGroup": "1234e05474b7f41d",
    "updateSubGroupList": "3f37daff29c8b82b",
    "updateTopic": "4ebab2268994d233",
    "updateTopicList": "7b5b00d4989bd19e",
    "updateTopicPerm": "d479246b2a37951b",
    "updateUser": "4e1d8c8b3d2a6a98",
    "wipeWritePerm": "55e5536bacca22fe",
}


def test_elect_master_document_fits_its_schema() -> None:
    """electMaster's member addresses are ``brokerAddrs`` (Java's name): ``brokers`` is the fan-out
    list of every document, and an object there could never validate."""
    doc = {
        "apiVersion": API_VERSION,
        "clusterName": "DefaultCluster",
        "brokerName": "broker-a",
        "masterBrokerId": 1,
        "masterAddress": "127.0.0.1:10911",
        "masterEpoch": 2,
        "syncStateSetEpoch": 3,
        "brokerAddrs": {"1": "127.0.0.1:10911", "2": "127.0.0.1:10921"},
    }
    v = validator("electMaster")
    assert list(v.iter_errors(doc)) == []
    assert list(v.iter_errors({**doc, "brokers": doc["brokerAddrs"]})) != []
