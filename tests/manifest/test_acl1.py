"""ACL 1.0 accounts and global white addresses through the manifest cycle on our 4.9.8 broker with
``aclEnable=true``, signed with the file's admin account; on a cluster without ACL 1.0 they are
listed as what cannot carry over."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml

from mqadmin.admin.settings import Credentials
from mqadmin.manifest.export import secret_key_variable
from tests.broker.test_acl import start_acl_broker
from tests.manifest.helpers import HEAD, apply, changes, export, plan, writes
from tests.servers import BrokerProcess, NameServerProcess

ADMIN = Credentials("AdminAK01", "AdminSK01")
ACL_FILE = """\
globalWhiteRemoteAddresses:
  - 10.9.9.9
accounts:
  - accessKey: AdminAK01
    secretKey: AdminSK01
    admin: true
"""
MANIFEST = (
    HEAD
    + """
acl1:
  globalWhiteAddrs: [10.9.9.9, 10.8.8.*]
  accounts:
    AdminAK01: {admin: true}
    AppAK0001:
      secretKey: ${APP_SK}
      defaultTopicPerm: DENY
      topicPerms: [MfTopic=PUB]
"""
)
ENV = {"APP_SK": "AppSecret01"}


@pytest.fixture(scope="module")
def acl_broker(
    tmp_path_factory: pytest.TempPathFactory, namesrv: NameServerProcess
) -> Iterator[BrokerProcess]:
    b = start_acl_broker(tmp_path_factory.mktemp("manifest-acl1"), namesrv.addr, ACL_FILE)
    try:
        yield b
    finally:
        b.stop()


def test_accounts_and_white_addresses_apply_diff_and_apply_again(
    acl_broker: BrokerProcess, namesrv: NameServerProcess
) -> None:
    ns = namesrv.addr
    p = plan(ns, MANIFEST, ENV, credentials=ADMIN)
    assert {(c.kind, c.name, c.action) for c in p.changes} == {
        ("acl1WhiteList", "globalWhiteAddrs", "update"),
        ("acl1Account", "AppAK0001", "create"),
    }
    _, report, _ = apply(ns, MANIFEST, ENV, credentials=ADMIN)
    assert report.failed is None, report.error
    p, report, sent = apply(ns, MANIFEST, ENV, credentials=ADMIN)
    assert p.changes == [] and writes(sent) == {}

    changed = MANIFEST.replace("topicPerms: [MfTopic=PUB]", "topicPerms: [MfTopic=PUB|SUB]")
    assert changes(plan(ns, changed, ENV, credentials=ADMIN)) == {
        ("acl1Account", "AppAK0001", "update", "broker-a", (("topicPerms", ("MfTopic=PUB|SUB",)),)),
    }
    secret = plan(ns, MANIFEST, {"APP_SK": "OtherSecret1"}, credentials=ADMIN)
    assert [dict(c.after) for c in secret.changes] == [{"secretKey": "(changed)"}]

    exported = export(ns, credentials=ADMIN)
    assert "AppSecret01" not in exported and "AdminSK01" not in exported
    doc = yaml.safe_load(exported)["acl1"]
    assert set(doc["globalWhiteAddrs"]) == {"10.9.9.9", "10.8.8.*"}
    assert doc["accounts"]["AppAK0001"]["secretKey"] == {
        "secretFrom": {"env": secret_key_variable("AppAK0001")}
    }
    assert doc["accounts"]["AppAK0001"]["topicPerms"] == ["MfTopic=PUB"]

    fewer = MANIFEST.replace(
        "    AppAK0001:\n      secretKey: ${APP_SK}\n"
        "      defaultTopicPerm: DENY\n      topicPerms: [MfTopic=PUB]\n",
        "",
    )
    p = plan(ns, fewer, ENV, credentials=ADMIN)
    assert p.changes == [] and "acl1Account AppAK0001 on broker-a" in p.unmanaged
    _, report, _ = apply(ns, fewer, ENV, credentials=ADMIN, prune=True)
    assert report.failed is None
    assert {(c.kind, c.name, c.action) for c in report.done if c.kind == "acl1Account"} == {
        ("acl1Account", "AppAK0001", "delete")
    }


def test_on_a_cluster_without_acl1_they_cannot_carry_over(tmp_path_factory: pytest.TempPathFactory) -> None:
    from tests.servers import Cluster

    with Cluster(tmp_path_factory.mktemp("no-acl1")) as c:
        p = plan(c.ns_addr, MANIFEST, ENV)
        assert p.changes == []
        assert p.notes == ["ACL 1.0 accounts and white addresses on broker-a (ACL 1.0 is not on there)"]
