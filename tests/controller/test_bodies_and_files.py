"""Controller and HA bodies against the recorded frames, strict decoding, and the broker's files of
controller mode (``epochFileCheckpoint``, ``brokerIdentity``) and its refusal of a bad controller."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path
from typing import Any

import pytest

from mqadmin.broker.ha import EpochFile
from mqadmin.localcluster import free_port, mqadmin_argv
from mqadmin.protocol import frame
from mqadmin.protocol.bodies.controller import (
    LONG_MAX,
    BrokerMemberGroup,
    BrokerReplicasInfo,
    ElectMasterResponseBody,
    EpochEntry,
    EpochEntryCache,
    HAConnectionRuntimeInfo,
    HARuntimeInfo,
    ReplicaIdentity,
    ReplicasInfo,
    SyncStateSet,
)
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from tests.captures import pairs


def test_recorded_ha_status_body_decodes_and_encodes_byte_exact() -> None:
    found = [
        (q, r)
        for q, r in pairs("rocketmq-5.3.3/x01_haStatus")
        if q.header["code"] == RequestCode.GET_BROKER_HA_STATUS
    ]
    assert found
    _, resp = found[0]
    assert resp is not None
    answer = frame.decode(resp.frame)
    info = HARuntimeInfo.decode(answer.body or b"")
    assert (info.master, info.master_commit_log_max_offset, info.ha_connection_info) == (True, 259, [])
    assert info.encode() == answer.body


SAMPLES: list[Any] = [
    SyncStateSet([1, 2, 3], 7),
    BrokerReplicasInfo(
        {
            "b": ReplicasInfo(
                1,
                "h:1",
                2,
                3,
                [ReplicaIdentity("b", 1, "h:1", True)],
                [ReplicaIdentity("b", 2, "h:2", False)],
            ),
            "a": ReplicasInfo(None, None, 0, 0, [], []),
        }
    ),
    ElectMasterResponseBody(BrokerMemberGroup("c", "b", {1: "h:1", 2: "h:2"}), [1]),
    ElectMasterResponseBody(None, []),
    EpochEntryCache("c", "b", 0, [EpochEntry(1, 0, 10), EpochEntry(3, 10, LONG_MAX)], 99),
    HARuntimeInfo(True, 5, 1, [HAConnectionRuntimeInfo("h:3", 4, 1, True, 2048, 0)]),
]


@pytest.mark.parametrize("body", SAMPLES, ids=lambda b: type(b).__name__)
def test_bodies_round_trip(body: Any) -> None:
    again = type(body).decode(body.encode())
    assert again == body  # every field read back (comparing encodings alone misses a dropped one)
    assert again.encode() == body.encode()


def test_a_set_is_written_in_javas_order() -> None:
    assert SyncStateSet([3, 1, 2], 7).encode() == b'{"syncStateSet":[1,2,3],"syncStateSetEpoch":7}'


@pytest.mark.parametrize(
    ("cls", "raw"),
    [
        (SyncStateSet, b'{"syncStateSet":["one"],"syncStateSetEpoch":1}'),
        (SyncStateSet, b'{"syncStateSetEpoch":4294967296}'),
        (BrokerReplicasInfo, b'{"replicasInfoTable":{"a":{"inSyncReplicas":[null]}}}'),
        (ElectMasterResponseBody, b'{"brokerMemberGroup":{"brokerAddrs":{"x":"h:1"}}}'),
        (EpochEntryCache, b'{"epochList":[{"epoch":"one"}]}'),
        (HARuntimeInfo, b'{"master":"yes"}'),
        (HARuntimeInfo, b"[]"),
        (HARuntimeInfo, b"\xff"),
    ],
)
def test_bodies_refuse_what_java_types_cannot_hold(cls: Any, raw: bytes) -> None:
    with pytest.raises(ProtocolError):
        cls.decode(raw)


def test_epoch_file_is_java_checkpoint_format(tmp_path: Path) -> None:
    f = EpochFile(tmp_path / "epochFileCheckpoint")
    assert f.begin(1, 0) and f.begin(3, 259) and not f.begin(2, 300)
    text = (tmp_path / "epochFileCheckpoint").read_text()
    lines = "1-0\n3-259\n"
    assert text == f"2\n{zlib.crc32(lines.encode()) & 0x7FFFFFFF}\n{lines}"
    again = EpochFile(tmp_path / "epochFileCheckpoint")
    again.load()
    assert again.entries == [EpochEntry(1, 0, 259), EpochEntry(3, 259, LONG_MAX)]
    (tmp_path / "epochFileCheckpoint").write_text(text.replace("3-259", "3-260"))
    with pytest.raises(ValueError, match="damaged"):
        EpochFile(tmp_path / "epochFileCheckpoint").load()


def start_broker(tmp_path: Path, props: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``mqadmin broker start`` of broker-a (store under ``tmp_path``) with ``props`` added."""
    settings = {
        "brokerName": "broker-a",
        "brokerIP1": "127.0.0.1",
        "listenPort": str(free_port()),
        "storePathRootDir": str(tmp_path / "store"),
        **props,
    }
    cfg = tmp_path / "broker.properties"
    cfg.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    return subprocess.run(
        [*mqadmin_argv(), "broker", "start", "-c", str(cfg), "--log-file", ""],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )


@pytest.mark.parametrize(
    ("props", "words"),
    [
        ({"enableControllerMode": "true"}, "needs controllerAddr"),
        ({"enableControllerMode": "true", "controllerAddr": "nohost"}, "not host:port"),
    ],
)
def test_broker_refuses_to_start_with_a_bad_controller(
    tmp_path: Path, props: dict[str, str], words: str
) -> None:
    p = start_broker(tmp_path, props)
    assert p.returncode == 1 and "boot success" not in p.stdout
    assert words in p.stderr, p.stderr


def test_broker_refuses_an_identity_of_another_set(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "brokerIdentity").write_text("OtherCluster#broker-a#1")
    p = start_broker(tmp_path, {"enableControllerMode": "true", "controllerAddr": f"127.0.0.1:{free_port()}"})
    assert p.returncode == 1 and "belongs to another broker set" in p.stderr, p.stderr
