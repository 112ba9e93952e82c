"""Requests are signed and laid out as the Java 5.3.3 tool writes them (checked on recorded frames)."""

from __future__ import annotations

import pytest

from mqadmin.admin.core import AdminCore
from mqadmin.admin.settings import AdminSettings, Credentials
from mqadmin.admin.signing import AclSigner, ordered_fields
from mqadmin.protocol import frame
from mqadmin.protocol.header import encode_json_header
from mqadmin.protocol.javacoll import java_hash_order
from tests.captures import load_scenario

CREDS = Credentials("rocketmq2", "12345678")
SCENARIOS = [
    "rocketmq-5.3.3/v01_clusterList",
    "rocketmq-5.3.3/v02_topicRoute",
    "rocketmq-5.3.3/v04_topicList",
    "rocketmq-5.3.3/v05_getNamesrvConfig",
    "rocketmq-5.3.3/v06_updateKvConfig",
    "rocketmq-5.3.3/v07_wipeWritePerm",
    "rocketmq-5.3.3/v08_addWritePerm",
    "rocketmq-5.3.3/v11_deleteKvConfig",
    "rocketmq-5.3.3/v19_topicListCluster",
]


def tool_requests():  # type: ignore[no-untyped-def]
    for name in SCENARIOS:
        for f in load_scenario(name):
            if f.dir == "request" and f.header.get("version") == 479:
                yield pytest.param(f, id=f"{name.split('/')[1]}-{f.header['code']}-{f.header['opaque']}")


@pytest.mark.parametrize("recorded", list(tool_requests()))
def test_signed_header_is_byte_identical(recorded) -> None:  # type: ignore[no-untyped-def]
    sent = frame.decode(recorded.frame)
    fields = {k: v for k, v in (sent.ext_fields or {}).items() if k not in ("AccessKey", "Signature")}
    core = AdminCore(AdminSettings(credentials=CREDS), client=object())  # type: ignore[arg-type]
    cmd = core.request(sent.code, dict(fields), sent.body)
    AclSigner(CREDS)(cmd)
    cmd.opaque = sent.opaque
    assert encode_json_header(cmd).decode() == recorded.header_raw


def test_unsigned_fields_in_hash_map_order() -> None:
    fields = {"namespace": "ORDER_TOPIC_CONFIG", "key": "GoldenTopic", "value": "broker-a:4"}
    assert list(ordered_fields(fields) or {}) == java_hash_order(list(fields), 16)
    assert ordered_fields({}) is None
    assert ordered_fields({"a": None}) is None
