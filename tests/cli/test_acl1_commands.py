"""The ACL 1.0 commands of the 4.9.8 tool, run as the installed ``mqadmin`` against our name server and
a broker process with ``aclEnable=true``: Java's text, ``--json``, exit codes, ``-b`` and ``-c``.

An account made with updateAclConfig can send with the signed ``sendMessage`` at once and cannot
after deleteAclConfig; clusterAclConfigVersion prints Java's table; updateGlobalWhiteAddr writes the
list. Refusals (bad perm text, short key, bad address pattern, a caller that is not an admin) are
one line on stderr naming the broker and Java's response code, a non-zero exit, and
``plain_acl.yml`` unchanged byte for byte. No Java run of these commands was recorded; the text
follows the 4.9.8 sources (``tools/.../command/acl``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.broker.test_acl import PLAIN_ACL
from tests.cli_harness import Result, clean_env, run_mqadmin, unwrap
from tests.servers import Cluster

ADMIN_KEYS = ["--access-key", "AdminAK01", "--secret-key", "AdminSK01"]
USER_KEYS = ["--access-key", "UserAK001", "--secret-key", "UserSK001"]


class Acl:
    """Our cluster with ACL on, and ``mqadmin`` with the admin's keys (or others)."""

    def __init__(self, workdir: Path) -> None:
        self.home = workdir / "home"
        (self.home / "conf").mkdir(parents=True)
        self.file = self.home / "conf" / "plain_acl.yml"
        self.file.write_text(PLAIN_ACL)
        self.cluster = Cluster(workdir / "c", aclEnable="true", rocketmqHome=self.home)
        self.env = clean_env(workdir / "cli-home", workdir / "cli-cfg")
        self.ns = self.cluster.ns.addr
        self.addr = self.cluster.broker.addr

    def run(self, *args: str, keys: list[str] = ADMIN_KEYS) -> Result:
        return run_mqadmin([*args, "-n", self.ns, *keys], self.env)


@pytest.fixture(scope="module")
def acl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Acl]:
    a = Acl(tmp_path_factory.mktemp("acl1"))
    try:
        r = a.run("updateTopic", "-b", a.addr, "-t", "AclCliTopic")
        assert r.code == 0, r.err
        yield a
    finally:
        a.cluster.stop()


def send(acl: Acl, ak: str, sk: str) -> Result:
    return acl.run(
        "sendMessage", "-t", "AclCliTopic", "-p", "hello", keys=["--access-key", ak, "--secret-key", sk]
    )


def test_update_then_send_then_delete(acl: Acl) -> None:
    assert send(acl, "CliAcct001", "CliSecret01").code != 0

    r = acl.run(
        "updateAclConfig",
        "-b",
        acl.addr,
        "-a",
        "CliAcct001",
        "-s",
        "CliSecret01",
        "-t",
        "AclCliTopic=PUB,OtherTopic=DENY",
        "-i",
        "DENY",
        "-u",
        "SUB",
        "-m",
        "false",
    )
    assert r.code == 0, r.err
    assert r.err == ""
    assert r.out == (
        f"create or update plain access config to {acl.addr} success.\n"
        "PlainAccessConfig{accessKey='CliAcct001', whiteRemoteAddress='null', admin=false, "
        "defaultTopicPerm='DENY', defaultGroupPerm='SUB', topicPerms=[AclCliTopic=PUB, OtherTopic=DENY], "
        "groupPerms=null}"
    )
    sent = send(acl, "CliAcct001", "CliSecret01")
    assert sent.code == 0, sent.err
    assert "SEND_OK" in sent.out

    r = acl.run("deleteAclConfig", "-b", acl.addr, "-a", "CliAcct001")
    assert r.code == 0, r.err
    assert (
        r.out
        == f"delete plain access config account from {acl.addr} success.\naccount's accesskey is:CliAcct001"
    )
    refused = send(acl, "CliAcct001", "CliSecret01")
    assert refused.code != 0 and "No acl config for CliAcct001" in refused.err, refused.err


def test_cluster_fan_out_and_json(acl: Acl) -> None:
    r = acl.run("updateAclConfig", "-c", "DefaultCluster", "-a", "CliAcct002", "-s", "CliSecret02", "--json")
    assert r.code == 0, r.err
    data = unwrap(json.loads(r.out))
    assert data == {
        "accessKey": "CliAcct002",
        "config": {
            "accessKey": "CliAcct002",
            "whiteRemoteAddress": None,
            "admin": False,
            "defaultTopicPerm": None,
            "defaultGroupPerm": None,
            "topicPerms": None,
            "groupPerms": None,
        },
        "brokers": [{"addr": acl.addr, "ok": True}],
    }
    assert "CliSecret02" not in r.out
    r = acl.run("deleteAclConfig", "-c", "DefaultCluster", "-a", "CliAcct002", "--json")
    assert r.code == 0, r.err
    expected = {"accessKey": "CliAcct002", "brokers": [{"addr": acl.addr, "ok": True}]}
    assert unwrap(json.loads(r.out)) == expected
    r = acl.run("deleteAclConfig", "-c", "DefaultCluster", "-a", "CliAcct002")
    assert r.code != 0 and r.out == ""


def test_cluster_acl_config_version(acl: Acl) -> None:
    before = yaml.safe_load(acl.file.read_text()) or {}
    counter = (before.get("dataVersion") or [{"counter": 0}])[0]["counter"]
    row = re.escape(f"{'DefaultCluster':<16}  {'broker-a':<22}  {acl.addr:<22}  {acl.file!s:<20}  ")
    row += re.escape(f"{counter!s:<22}  ") + r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {3}\n"

    r = acl.run("clusterAclConfigVersion", "-b", acl.addr)
    assert r.code == 0, r.err
    assert re.fullmatch(row + re.escape("get broker's plain access config version success.\n"), r.out), r.out

    r = acl.run("clusterAclConfigVersion", "-c", "DefaultCluster")
    assert r.code == 0, r.err
    header = (
        "#Cluster Name     #Broker Name            #Broker Addr            #AclFilePath          "
        "#AclConfigVersionNum    #AclLastUpdateTime    \n"
    )
    assert r.out.startswith(header)
    assert re.fullmatch(
        row + re.escape("get cluster's plain access config version success.\n"), r.out[len(header) :]
    )

    r = acl.run("clusterAclConfigVersion", "-b", acl.addr, "--json")
    files = json.loads(r.out)["brokers"][0]["files"]
    assert [(f["path"], f["counter"]) for f in files] == [(str(acl.file), counter)]


def test_update_global_white_addr(acl: Acl) -> None:
    r = acl.run("updateGlobalWhiteAddr", "-b", acl.addr, "-g", "127.0.0.2,10.10.103.*")
    assert r.code == 0, r.err
    assert r.out == f"update global white remote addresses to {acl.addr} success.\n"
    assert yaml.safe_load(acl.file.read_text())["globalWhiteRemoteAddresses"] == ["127.0.0.2", "10.10.103.*"]
    r = acl.run(
        "updateGlobalWhiteAddr", "-c", "DefaultCluster", "-g", "127.0.0.2", "-p", str(acl.file), "--json"
    )
    assert r.code == 0, r.err
    assert unwrap(json.loads(r.out)) == {
        "globalWhiteRemoteAddresses": ["127.0.0.2"],
        "aclFileFullPath": str(acl.file),
        "brokers": [{"addr": acl.addr, "ok": True}],
    }
    assert yaml.safe_load(acl.file.read_text())["globalWhiteRemoteAddresses"] == ["127.0.0.2"]


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (
            ["updateAclConfig", "-a", "CliAcct003", "-s", "CliSecret03", "-t", "AclCliTopic=WRITE"],
            209,
            "Parse resource permission error for AclCliTopic=WRITE. The expected permissions are",
        ),
        (
            ["updateAclConfig", "-a", "CliAcct003", "-s", "short"],
            209,
            "The accessKey=CliAcct003 and secretKey=short cannot be null and length should longer than 6",
        ),
        (
            ["updateAclConfig", "-a", "CliAcct003", "-s", "CliSecret03", "-w", "192.168.1.300"],
            209,
            "is not an address pattern",
        ),
        (["updateGlobalWhiteAddr", "-g", "10.0.0.1,1.2.3"], 211, "is not an address pattern"),
        (
            ["updateGlobalWhiteAddr", "-g", "10.0.0.1", "-p", "/etc/hosts"],
            211,
            "The globalWhiteAddresses[10.0.0.1] has been updated failed.",
        ),
        (
            ["deleteAclConfig", "-a", "NoSuchAcct1"],
            210,
            "The accesskey[NoSuchAcct1] corresponding to accessConfig has been deleted failed.",
        ),
    ],
)
def test_refusals_are_one_line_with_javas_code(acl: Acl, args: list[str], code: int, text: str) -> None:
    before = acl.file.read_bytes()
    r = acl.run(*args, "-b", acl.addr)
    assert r.code != 0 and r.out == ""
    assert len(r.err.splitlines()) == 1, r.err
    assert f"CODE: {code} " in r.err and acl.addr in r.err and text in r.err, r.err
    assert "credentials" not in r.err  # the account is wrong, not the caller's keys
    assert acl.file.read_bytes() == before


def test_a_caller_who_is_not_admin_is_refused(acl: Acl) -> None:
    before = acl.file.read_bytes()
    for args in (
        ["updateAclConfig", "-a", "UserAK001", "-s", "UserSK001", "-m", "true"],
        ["deleteAclConfig", "-a", "AdminAK01"],
        ["updateGlobalWhiteAddr", "-g", "*"],
    ):
        r = acl.run(*args, "-b", acl.addr, keys=USER_KEYS)
        assert r.code != 0 and len(r.err.splitlines()) == 1, r.err
        assert "CODE: 16 " in r.err and "Need admin permission for request code=5" in r.err, r.err
        r = acl.run(*args, "-b", acl.addr, keys=[])
        assert "CODE: 16 " in r.err and "No accessKey is configured" in r.err, r.err
    assert acl.file.read_bytes() == before


def test_usage_errors(acl: Acl) -> None:
    """Exit 2 and nothing sent; the last line says what is wrong (click's usage block comes first)."""
    before = acl.file.read_bytes()
    for args, why in (
        (["updateAclConfig", "-b", acl.addr, "-s", "CliSecret03"], "Missing option '-a'"),
        (["updateAclConfig", "-a", "CliAcct003", "-s", "CliSecret03"], "-b"),
        (
            ["updateAclConfig", "-b", acl.addr, "-a", "CliAcct003", "-s", "CliSecret03", "-m", "yes"],
            "-m takes true or false, not 'yes'",
        ),
        (["deleteAclConfig", "-b", acl.addr], "Missing option '-a'"),
        (["updateGlobalWhiteAddr", "-b", acl.addr], "Missing option '-g'"),
        (["clusterAclConfigVersion"], "-b"),
    ):
        r = acl.run(*args)
        assert r.code == 2 and r.out == "", (args, r.code, r.err)
        assert why in r.err.strip().splitlines()[-1], r.err
    assert acl.file.read_bytes() == before
