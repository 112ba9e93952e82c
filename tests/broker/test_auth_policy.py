"""ACL 2.0 policy evaluation and its parts, in process: resource texts (``Resource.of``), addresses
(``IPAddressUtils``), which request needs what (``DefaultAuthorizationContextBuilder``), and the
decision of :class:`~mqadmin.broker.auth.guard.AuthGuard` on the cases of Java's
``AuthorizationEvaluatorTest`` (the most specific matching entry decides, DENY first among equals,
the Default policy only when no Custom entry matches, super users pass).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mqadmin.broker.auth import AuthConfigError, init_users
from mqadmin.broker.auth.contexts import request_contexts
from mqadmin.broker.auth.guard import AuthGuard
from mqadmin.broker.auth.model import Acl, Policy, PolicyEntry, User, acl_from_info
from mqadmin.broker.auth.store import AuthRefused, AuthStore
from mqadmin.broker.config import AuthConfig
from mqadmin.protocol.bodies.auth import (
    AclInfo,
    ResourceKey,
    UserInfo,
    ip_in_range,
    is_valid_ip_or_cidr,
    parse_resource,
)
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("*", ResourceKey("Any", None, "ANY")),
        ("Topic:*", ResourceKey("Topic", None, "ANY")),
        ("topic:Orders", ResourceKey("Topic", "Orders", "LITERAL")),
        ("GROUP:G*", ResourceKey("Group", "G", "PREFIXED")),
        ("Topic:a*b*", ResourceKey("Topic", "a", "PREFIXED")),
        ("Cluster:DefaultCluster", ResourceKey("Cluster", "DefaultCluster", "LITERAL")),
        ("Topic:*abc", ResourceKey("Topic", "*abc", "LITERAL")),
        ("Topyc:T", None),
        ("", None),
        ("  ", None),
    ],
)
def test_resource_texts_read_as_java_reads_them(text: str, key: ResourceKey | None) -> None:
    assert parse_resource(text) == key
    if (
        key is not None
        and key.type != "Any"
        and "a*b" not in text
        and "topic:" not in text
        and "GROUP" not in text
    ):
        assert key.key == text


def test_addresses() -> None:
    for good in ("127.0.0.1", "10.0.0.0/8", "::1", "fe80::/10", "192.168.0.0/+24"):
        assert is_valid_ip_or_cidr(good), good
    for bad in ("300.1.1.1", "01.2.3.4", "10.0.0.0/33", "10.0.0.0/8/8", "host.example", "", "::1/129"):
        assert not is_valid_ip_or_cidr(bad), bad
    assert ip_in_range("192.168.0.7", "192.168.0.0/24")
    assert not ip_in_range("192.168.1.7", "192.168.0.0/24")
    assert ip_in_range("127.0.0.1", "127.0.0.1") and not ip_in_range("127.0.0.2", "127.0.0.1")
    assert not ip_in_range("::1", "127.0.0.0/8")


def ctx(code: int, ext: dict[str, str], body: bytes | None = None) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (c.resource.key, c.actions) for c in request_contexts(RemotingCommand.request(code, ext, body), "C1")
    ]


def test_what_requests_need() -> None:
    assert ctx(RequestCode.SEND_MESSAGE_V2, {"a": "PG", "b": "T"}) == [("Topic:T", ("Pub",))]
    # a retry or DLQ topic is its group's, whatever group the request names (Java: the named group)
    assert ctx(RequestCode.SEND_MESSAGE_V2, {"a": "PG", "b": "%RETRY%CG"}) == [("Group:CG", ("Sub",))]
    assert ctx(RequestCode.SEND_MESSAGE_V2, {"a": "PG", "b": "%DLQ%CG"}) == [("Group:CG", ("Sub",))]
    assert ctx(RequestCode.PULL_MESSAGE, {"topic": "%RETRY%VG", "consumerGroup": "CG"}) == [
        ("Group:VG", ("Sub",)),
        ("Group:CG", ("Sub",)),
    ]
    assert ctx(RequestCode.SEND_MESSAGE, {"topic": "%RETRY%CG"}) == [("Group:CG", ("Sub",))]
    assert ctx(RequestCode.PULL_MESSAGE, {"topic": "T", "consumerGroup": "CG"}) == [
        ("Topic:T", ("Sub",)),
        ("Group:CG", ("Sub",)),
    ]
    assert ctx(RequestCode.PULL_MESSAGE, {"topic": "%RETRY%CG", "consumerGroup": "CG"}) == [
        ("Group:CG", ("Sub",))
    ]
    assert ctx(RequestCode.UPDATE_CONSUMER_OFFSET, {"topic": "T", "consumerGroup": "CG"}) == [
        ("Topic:T", ("Sub", "Update")),
        ("Group:CG", ("Sub", "Update")),
    ]
    heartbeat = json.dumps(
        {
            "clientID": "c",
            "consumerDataSet": [
                {"groupName": "CG", "subscriptionDataSet": [{"topic": "T1"}, {"topic": "%RETRY%CG"}]}
            ],
            "producerDataSet": [{"groupName": "PG"}],
        }
    ).encode()
    assert ctx(RequestCode.HEART_BEAT, {"x": "1"}, heartbeat) == [
        ("Group:CG", ("Sub",)),
        ("Topic:T1", ("Sub",)),
    ]
    assert ctx(RequestCode.UPDATE_AND_CREATE_TOPIC, {"topic": "T"}) == [("Topic:T", ("Create",))]
    assert ctx(RequestCode.GET_CONSUME_STATS, {"consumerGroup": "CG", "topicList": "A;B"}) == [
        ("Group:CG", ("Get",)),
        ("Topic:A", ("Get",)),
        ("Topic:B", ("Get",)),
    ]
    assert ctx(RequestCode.AUTH_CREATE_USER, {"username": "u"}) == []  # an operator's: a super user only
    # broker-wide state, and a resource request that names nothing: the cluster (Java: not checked)
    assert ctx(RequestCode.GET_BROKER_CONFIG, {"x": "1"}) == [("Cluster:C1", ("Get",))]
    assert ctx(RequestCode.UPDATE_AND_CREATE_TOPIC, {}) == [("Cluster:C1", ("Create",))]


@pytest.fixture
def store(tmp_path: Path) -> AuthStore:
    s = AuthStore(tmp_path)
    s.create_user(User("test", "test"))
    s.create_user(User("boss", "boss", "Super"))
    return s


def guard(store: AuthStore) -> AuthGuard:
    return AuthGuard(AuthConfig(authorization_enabled=True), store, "C1")


def allowed(
    store: AuthStore, who: str | None, code: int, ext: dict[str, str], ip: str = "192.168.0.1"
) -> bool:
    cmd = RemotingCommand.request(code, {**ext, **({"AccessKey": who} if who else {})})
    try:
        guard(store).authorize(cmd, ip)
    except AuthRefused:
        return False
    return True


def put(
    store: AuthStore,
    resource: str,
    actions: str,
    decision: str,
    ips: list[str] | None = None,
    policy_type: str | None = None,
) -> None:
    info = AclInfo.of("User:test", [resource], actions.split(","), ips, decision)
    assert info.policies is not None
    info.policies[0].policy_type = policy_type
    store.put_acl(acl_from_info(info))


def pub(store: AuthStore, topic: str, ip: str = "192.168.0.1", who: str = "test") -> bool:
    return allowed(store, who, RequestCode.SEND_MESSAGE, {"topic": topic}, ip)


def test_the_most_specific_entry_decides(store: AuthStore) -> None:
    """``AuthorizationEvaluatorTest.evaluate5``."""
    put(store, "*", "Pub,Sub", "Allow", ["192.168.0.0/24"])
    put(store, "Topic:*", "Pub,Sub", "Deny", ["192.168.0.0/24"])
    put(store, "Topic:test*", "Pub,Sub", "Allow", ["192.168.0.0/24"])
    put(store, "Topic:test-1", "Pub,Sub", "Deny", ["192.168.0.0/24"])
    assert not pub(store, "test-1")
    assert pub(store, "test-2")
    assert not pub(store, "abc")
    assert allowed(store, "test", RequestCode.GET_CONSUMER_LIST_BY_GROUP, {"consumerGroup": "test-2"})
    assert not pub(store, "test-2", ip="10.10.0.1")  # no entry for that address
    assert pub(store, "test-2", who="boss")  # a super user needs no policy
    assert not allowed(store, None, RequestCode.SEND_MESSAGE, {"topic": "test-2"})
    assert not allowed(store, "nobody", RequestCode.SEND_MESSAGE, {"topic": "test-2"})


def test_longer_prefix_and_deny_among_equals(store: AuthStore) -> None:
    put(store, "Topic:te*", "Pub", "Deny")
    put(store, "Topic:test*", "Pub", "Allow")
    assert pub(store, "test-1") and not pub(store, "tea")
    # the same resource in the Default policy is consulted only when no Custom entry matches
    put(store, "Topic:other", "Pub", "Allow", policy_type="Default")
    assert pub(store, "other")
    put(store, "Topic:oth*", "Sub", "Allow")  # a Custom entry, but not for Pub: Default still decides
    assert pub(store, "other")
    put(store, "Topic:other", "Pub", "Deny")  # now a Custom entry matches and decides
    assert not pub(store, "other")


def test_entries_are_merged_by_policy_type_and_resource(store: AuthStore) -> None:
    put(store, "Topic:A", "Pub", "Allow")
    put(store, "Topic:B", "Sub", "Allow")
    put(store, "Topic:A", "Sub,Get", "Deny", ["10.0.0.1"])
    acl = store.acls["User:test"]
    assert [
        (p.policy_type, [(e.resource.key if e.resource else None, e.actions, e.decision) for e in p.entries])
        for p in acl.policies
    ] == [("Custom", [("Topic:A", ["Sub", "Get"], "Deny"), ("Topic:B", ["Sub"], "Allow")])]
    store.delete_acl("test", None, ResourceKey("Topic", "A", "LITERAL"))
    assert [e.resource for e in store.acls["User:test"].policies[0].entries] == [
        ResourceKey("Topic", "B", "LITERAL")
    ]
    store.delete_acl("test", None, ResourceKey("Topic", "B", "LITERAL"))  # the last entry: the ACL goes
    assert "User:test" not in store.acls
    again = AuthStore(store.dir.parent)
    again.load()
    assert set(again.users) == {"test", "boss"} and again.acls == {}


def test_stored_shapes_read_back(store: AuthStore) -> None:
    put(store, "Group:G*", "Sub,All", "Allow", ["::1"])
    again = AuthStore(store.dir.parent)
    again.load()
    assert again.acls == store.acls
    assert again.users == store.users
    assert again.acls["User:test"] == Acl(
        "test",
        [
            Policy(
                "Custom",
                [PolicyEntry(ResourceKey("Group", "G", "PREFIXED"), ["Sub", "All"], ["::1"], "Allow")],
            )
        ],
    )
    assert UserInfo("a", "b", "Normal", "enable").encode() == (
        b'{"password":"b","userStatus":"enable","userType":"Normal","username":"a"}'
    )
    assert AclInfo.of("User:a", ["Topic:T"], ["Pub"], ["1.2.3.4"], "Allow").encode() == (
        b'{"policies":[{"entries":[{"actions":["Pub"],"decision":"Allow","resource":"Topic:T",'
        b'"sourceIps":["1.2.3.4"]}]}],"subject":"User:a"}'
    )


def test_configured_super_users(tmp_path: Path) -> None:
    s = AuthStore(tmp_path)
    config = AuthConfig(
        init_authentication_user='{"username":"root","password":"rootPw"}',
        inner_client_authentication_credentials='{"accessKey":"inner","secretKey":"innerSk"}',
    )
    init_users(config, s)
    assert s.users["root"] == User("root", "rootPw", "Super", "enable")
    assert s.users["inner"].is_super
    s.update_user(User("root", "changed"))
    init_users(config, s)  # an existing user is left as it is
    assert s.users["root"].password == "changed"
    for bad in ("not json", '{"username":"x"}', "[]"):
        with pytest.raises(AuthConfigError):
            init_users(AuthConfig(init_authentication_user=bad), AuthStore(tmp_path / "other"))


def test_whitelisted_codes_skip_the_checks(store: AuthStore) -> None:
    config = AuthConfig(authentication_enabled=True, authentication_whitelist="26, 34")
    g = AuthGuard(config, store, "C1")

    conn: Any = SimpleNamespace(attrs={}, remote_addr="127.0.0.1:5000", addr="127.0.0.1:5000")
    g.check(conn, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG, None))
    with pytest.raises(AuthRefused, match=r"username cannot be null\."):
        g.check(conn, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO, None))
