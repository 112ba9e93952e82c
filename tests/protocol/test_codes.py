"""Codes and versions against the Java sources (pinned here) and the recorded traffic."""

from __future__ import annotations

import hashlib

import pytest

from mqadmin.protocol import version
from mqadmin.protocol.codes import (
    LanguageCode,
    RequestCode,
    ResponseCode,
    language_from_code,
    language_from_name,
    request_codes,
    request_name,
    response_codes,
    response_name,
)
from mqadmin.protocol.command import SerializeType
from tests.captures import all_frames


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()


# sha256 of the sorted "NAME=value" lines read from the Java sources: RequestCode of 5.3.3 plus the
# 4.9.8 ones plus GET_BROKER_CLUSTER_ACL_CONFIG=54 (163 names); ResponseCode and
# RemotingSysResponseCode of 5.3.3 and 4.9.8 (69 names, 66 values).
REQUEST_DIGEST = "86a0895874e31a69468d730301d08ce9024cfb4f1b2845fd51ad60d4bea0e83d"
RESPONSE_DIGEST = "cbbc0273426601b4cea8d5819da094480b8405512ceafae8663f68581f975c70"
# sha256 of the 613 MQVersion.Version names in enum order, one a line (same in 4.9.8 and 5.3.3).
VERSION_DIGEST = "da7ded6f1e0eec1834b7a9eac4439316446132f5338817bf0e6e485ed79d92a2"


def test_request_codes_match_java() -> None:
    members = request_codes()
    assert len(members) == 163
    assert len(set(members.values())) == 163  # no two Java request names share a value
    assert _digest([f"{n}={m}" for n, m in members.items()]) == REQUEST_DIGEST
    assert all(getattr(RequestCode, n) == m for n, m in members.items())


def test_response_codes_match_java() -> None:
    members = response_codes()
    assert len(members) == 69
    assert len(set(members.values())) == 66
    assert _digest([f"{n}={m}" for n, m in members.items()]) == RESPONSE_DIGEST
    assert all(getattr(ResponseCode, n) == m for n, m in members.items())


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SEND_MESSAGE", 10),
        ("PULL_MESSAGE", 11),
        ("UPDATE_AND_CREATE_TOPIC", 17),
        ("HEART_BEAT", 34),
        ("NOTIFY_CONSUMER_IDS_CHANGED", 40),
        ("UPDATE_AND_CREATE_ACL_CONFIG", 50),
        ("DELETE_ACL_CONFIG", 51),
        ("GET_BROKER_CLUSTER_ACL_INFO", 52),
        ("UPDATE_GLOBAL_WHITE_ADDRS_CONFIG", 53),
        ("GET_BROKER_CLUSTER_ACL_CONFIG", 54),
        ("PUT_KV_CONFIG", 100),
        ("REGISTER_BROKER", 103),
        ("UNREGISTER_BROKER", 104),
        ("GET_ROUTEINFO_BY_TOPIC", 105),
        ("GET_BROKER_CLUSTER_INFO", 106),
        ("WIPE_WRITE_PERM_OF_BROKER", 205),
        ("QUERY_TOPIC_CONSUME_BY_WHO", 300),
        ("ADD_WRITE_PERM_OF_BROKER", 327),
        ("GET_TOPIC_CONFIG", 351),
        ("BROKER_CLOSE_CHANNEL_REQUEST", 1014),
        ("AUTH_LIST_ACL", 3010),
        ("POP_MESSAGE", 200050),
        ("BATCH_ACK_MESSAGE", 200151),
    ],
)
def test_request_spot_checks(name: str, value: int) -> None:
    assert request_codes()[name] == getattr(RequestCode, name) == value
    assert request_name(value) == name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SUCCESS", 0),
        ("SYSTEM_ERROR", 1),
        ("SYSTEM_BUSY", 2),
        ("REQUEST_CODE_NOT_SUPPORTED", 3),
        ("TRANSACTION_FAILED", 4),
        ("FLUSH_DISK_TIMEOUT", 10),
        ("TOPIC_NOT_EXIST", 17),
        ("PULL_NOT_FOUND", 19),
        ("QUERY_NOT_FOUND", 22),
        ("SUBSCRIPTION_GROUP_NOT_EXIST", 26),
        ("INVALID_PARAMETER", 29),
        ("CONSUMER_NOT_ONLINE", 206),
        ("FLOW_CONTROL", 215),
        ("RPC_TIME_OUT", -1006),
        ("GO_AWAY", 1500),
        ("CONTROLLER_ALTER_SYNC_STATE_SET_FAILED", 2013),
        ("POLICY_NOT_EXIST", 3002),
    ],
)
def test_response_spot_checks(name: str, value: int) -> None:
    assert response_codes()[name] == getattr(ResponseCode, name) == value
    assert response_name(value) == name


def test_response_aliases_follow_the_peer_version() -> None:
    assert ResponseCode.UPDATE_AND_CREATE_ACL_CONFIG_FAILED == ResponseCode.POLLING_FULL
    assert ResponseCode.DELETE_ACL_CONFIG_FAILED == ResponseCode.POLLING_TIMEOUT
    assert ResponseCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED == ResponseCode.BROKER_NOT_EXIST
    assert response_name(209) == "POLLING_FULL"
    assert response_name(209, version.V5_3_3) == "POLLING_FULL"
    assert response_name(209, version.V4_9_8) == "UPDATE_AND_CREATE_ACL_CONFIG_FAILED"
    assert response_name(211, version.V4_9_8) == "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED"
    assert response_name(17, version.V4_9_8) == "TOPIC_NOT_EXIST"


@pytest.mark.parametrize("code", [-7, 5, 16_000, 99_999, 2**40])
def test_unknown_codes_never_raise(code: int) -> None:
    assert request_name(code) == str(code)
    assert response_name(code) == str(code)
    assert response_name(code, version.V4_9_8) == str(code)


def test_every_recorded_code_has_a_name() -> None:
    requests: set[int] = set()
    responses: set[int] = set()
    for frame in all_frames():
        (requests if frame.dir == "request" else responses).add(frame.header["code"])
    assert len(requests) > 30
    assert {0, 1, 3, 17} <= responses
    for code in requests:
        assert request_name(code) != str(code), code
    for code in responses:
        assert response_name(code) != str(code), code


def test_recorded_languages_versions_and_serialization() -> None:
    seen: set[tuple[LanguageCode, str]] = set()
    for frame in all_frames():
        header = frame.header
        language = language_from_name(header["language"])
        assert language.name == header["language"]
        seen.add((language, version.version_name(header["version"])))
        assert SerializeType[frame.serialize].name == frame.serialize
    assert (LanguageCode.JAVA, "V4_9_8") in seen
    assert (LanguageCode.JAVA, "V5_3_3") in seen
    assert (LanguageCode.CPP, "V3_1_8") in seen  # the C++ client 1.0.1 sends version 63


def test_language_codes() -> None:
    java_order = "JAVA CPP DOTNET PYTHON DELPHI ERLANG RUBY OTHER HTTP GO PHP OMS RUST NODE_JS".split()
    assert [(m.name, int(m)) for m in LanguageCode] == [(name, i) for i, name in enumerate(java_order)]
    assert language_from_name("GO") is LanguageCode.GO
    assert language_from_name("python") is LanguageCode.PYTHON
    assert language_from_name("COBOL") is LanguageCode.OTHER
    assert language_from_name("") is LanguageCode.OTHER
    assert language_from_code(1) is LanguageCode.CPP
    assert language_from_code(200) is LanguageCode.OTHER
    assert LanguageCode.from_code(13) is LanguageCode.NODE_JS


def test_serialize_type() -> None:
    assert (SerializeType.JSON.code, SerializeType.ROCKETMQ.code) == (0, 1)
    assert [m.value for m in SerializeType] == ["JSON", "ROCKETMQ"]


def test_version_enum_matches_java() -> None:
    assert len(version.NAMES) == 613
    assert hashlib.sha256("\n".join(version.NAMES).encode()).hexdigest() == VERSION_DIGEST
    assert version.NAMES[0] == "V3_0_0_SNAPSHOT"
    assert version.NAMES[-1] == "HIGHER_VERSION"


def test_version_ordinals() -> None:
    assert version.V4_9_8 == 409
    assert version.V5_3_3 == 479
    assert version.CURRENT == 479
    assert version.V5_0_0_SNAPSHOT == 412
    assert version.HIGHER_VERSION == 612
    assert version.version_name(409) == "V4_9_8"
    assert version.version_name(479) == "V5_3_3"
    assert version.version_name(15) == "V3_0_0_FINAL"
    assert version.version_name(399) == "V4_9_3"
    assert version.version_name(612) == "HIGHER_VERSION"
    assert version.version_name(10_000) == "HIGHER_VERSION"  # Java clamps past the end
    assert version.version_name(-1) == "-1"
    assert version.version_ordinal("V4_9_8") == 409
    assert version.version_ordinal("4.9.8") == 409
    assert version.version_ordinal("5.3.3") == 479
    assert version.version_ordinal("v5.0.0-SNAPSHOT") == 412
    assert version.version_ordinal("HIGHER_VERSION") == 612
    for ordinal, name in enumerate(version.NAMES):
        assert version.version_ordinal(name) == ordinal
        assert version.version_name(ordinal) == name


@pytest.mark.parametrize("bad", ["", "4.9", "6.0.0", "V9_9_9", "latest"])
def test_version_ordinal_rejects_unknown(bad: str) -> None:
    with pytest.raises(ValueError):
        version.version_ordinal(bad)
