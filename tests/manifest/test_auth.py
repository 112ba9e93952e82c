"""ACL 2.0 users and policies through the manifest cycle on our 5.3.3 broker with authentication and
authorization on, every request signed as the broker's first (super) user."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml

from mqadmin.admin.settings import Credentials
from mqadmin.manifest.export import password_variable
from tests.broker.test_auth_v2 import ROOT, start_auth_broker
from tests.manifest.helpers import HEAD, apply, changes, export, plan, writes
from tests.servers import BrokerProcess, NameServerProcess

USERS = (
    HEAD
    + """
topics:
  MfAuthTopic: {readQueues: 2, writeQueues: 2}
groups:
  MfAuthGroup: {}
users:
  alice:
    password: ${ALICE_PW}
    userType: Normal
acls:
  User:alice:
    - {resource: "Topic:MfAuthTopic", actions: [Pub], decision: Allow}
    - {resource: "Group:MfAuthGroup", actions: [Sub], sourceIps: [127.0.0.1], decision: Allow}
"""
)
ENV = {"ALICE_PW": "alicePassword1"}


@pytest.fixture(scope="module")
def auth_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    b = start_auth_broker(tmp_path_factory.mktemp("manifest-auth") / "broker", namesrv.addr)
    try:
        yield b
    finally:
        b.stop()


def test_users_and_policies_apply_diff_and_apply_again(
    auth_broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    ns, root = namesrv.addr, Credentials(ROOT.access_key, ROOT.secret_key)
    p, report, _ = apply(ns, USERS, ENV, credentials=root)
    assert report.failed is None, report.error
    kinds = [c.kind for c in p.changes]
    assert kinds.index("user") > kinds.index("group") and kinds.index("acl") > kinds.index("user")
    assert plan(ns, USERS, ENV, credentials=root).changes == []

    p, report, sent = apply(ns, USERS, ENV, credentials=root)
    assert p.changes == [] and writes(sent) == {}

    changed = USERS.replace("actions: [Pub]", "actions: [Pub, Sub]").replace(
        "userType: Normal", "userType: Normal\n    userStatus: disable"
    )
    p = plan(ns, changed, ENV, credentials=root)
    assert changes(p) == {
        ("user", "alice", "update", "broker-a", (("userStatus", "disable"),)),
        ("acl", "User:alice Topic:MfAuthTopic", "update", "broker-a", (("actions", "Pub,Sub"),)),
    }
    _, report, _ = apply(ns, changed, ENV, credentials=root)
    assert report.failed is None
    assert plan(ns, changed, ENV, credentials=root).changes == []

    p = plan(ns, changed, {"ALICE_PW": "another"}, credentials=root)
    assert [(c.kind, dict(c.after)) for c in p.changes] == [("user", {"password": "(changed)"})]

    exported = export(ns, credentials=root)
    assert ENV["ALICE_PW"] not in exported and ROOT.secret_key not in exported
    doc = yaml.safe_load(exported)
    assert doc["users"]["alice"]["password"] == {"secretFrom": {"env": password_variable("alice")}}
    assert {e["resource"] for e in doc["acls"]["User:alice"]} == {"Topic:MfAuthTopic", "Group:MfAuthGroup"}


def test_prune_deletes_a_policy_entry_but_never_the_signing_user(
    auth_broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    ns, root = namesrv.addr, Credentials(ROOT.access_key, ROOT.secret_key)
    _, report, _ = apply(ns, USERS, ENV, credentials=root)
    assert report.failed is None
    fewer = USERS.replace(
        '    - {resource: "Group:MfAuthGroup", actions: [Sub], sourceIps: [127.0.0.1], decision: Allow}\n', ""
    )
    p = plan(ns, fewer, ENV, credentials=root)
    assert p.changes == [] and "acl User:alice Group:MfAuthGroup on broker-a" in p.unmanaged
    p, report, _ = apply(ns, fewer, ENV, credentials=root, prune=True)
    assert report.failed is None
    assert ("acl", "User:alice Group:MfAuthGroup", "delete") in {
        (c.kind, c.name, c.action) for c in report.done
    }
    assert all(c.name != ROOT.access_key for c in p.changes)
    assert plan(ns, fewer, ENV, credentials=root, prune=True).changes == []
