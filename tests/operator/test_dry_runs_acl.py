"""``--dry-run`` on the ACL commands that create or change: ACL 2.0's createUser, updateUser,
copyUser, createAcl, updateAcl and copyAcl against two of our 5.3.3 brokers with authentication and
authorization on, ACL 1.0's updateAclConfig and updateGlobalWhiteAddr against our broker with
``aclEnable``. The plan in text and JSON (valid against the command's published schema), no
password or secret key from the command line in it, nothing changed on the brokers (their files
byte for byte); then the real runs, which change them; and the question on a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import servers
from tests.broker.test_auth_v2 import ROOT
from tests.cli.test_acl1_commands import Acl
from tests.cli.test_safe_destructive import on_pty
from tests.cli_harness import Result, clean_env, run_mqadmin
from tests.operator.dryrun import planned
from tests.servers import BrokerProcess

CLUSTER = "DefaultCluster"
PASSWORD = "Pl4nnedPassw0rd"
NEW_PASSWORD = "N3wPl4nnedPassw0rd"
SECRET_KEY = "Pl4nnedSecretKey"
SECRETS = (PASSWORD, NEW_PASSWORD, SECRET_KEY, ROOT.secret_key, "AdminSK01")
"""What no plan may show: the secrets given on the command lines below, and the callers' own."""


class Auth:
    """Our name server and two 5.3.3 brokers, ``broker-a`` (:attr:`a`) and ``broker-b`` (:attr:`b`),
    with ACL 2.0 on; ``mqadmin`` signs as the super user the brokers start with."""

    def __init__(self, root: Path) -> None:
        props = {
            "rocketmqVersion": "5.3.3",
            "authenticationEnabled": "true",
            "authorizationEnabled": "true",
            "initAuthenticationUser": json.dumps({"username": ROOT.access_key, "password": ROOT.secret_key}),
        }
        self.cluster = servers.Cluster(root, {n: {**props, "brokerName": f"broker-{n}"} for n in "ab"})
        self.a, self.b = self.cluster.brokers
        self.env = clean_env(root / "home", root / "cfg")

    def run(self, *args: str) -> Result:
        keys = ["--access-key", ROOT.access_key, "--secret-key", ROOT.secret_key]
        return run_mqadmin([*args, "-n", self.cluster.ns.addr, *keys], self.env)

    def ok(self, *args: str) -> str:
        r = self.run(*args)
        assert r.code == 0, (args, r.code, r.err)
        return r.out

    def state(self) -> list[bytes]:
        """The users and ACL files of both brokers."""
        return [_auth_file(b, name) for b in (self.a, self.b) for name in ("users.json", "acls.json")]


def _auth_file(b: BrokerProcess, name: str) -> bytes:
    path = b.workdir / "store" / "config" / "auth" / name
    return path.read_bytes() if path.exists() else b""


@pytest.fixture(scope="module")
def auth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Auth]:
    c = Auth(tmp_path_factory.mktemp("dry-acl2"))
    try:
        c.ok("createUser", "-c", CLUSTER, "-u", "frank", "-p", "frankPw1")
        c.ok("createAcl", "-c", CLUSTER, "-s", "User:frank", "-r", "Topic:Seeded", "-a", "Pub", "-d", "Allow")
        c.ok("createUser", "-b", c.a.addr, "-u", "grace", "-p", "gracePw1")  # on broker-a only
        yield c
    finally:
        c.cluster.stop()


@pytest.fixture(scope="module")
def acl1(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Acl]:
    a = Acl(tmp_path_factory.mktemp("dry-acl1"))
    try:
        yield a
    finally:
        a.cluster.stop()


AUTH_CASES = {
    "createUser": ["-c", CLUSTER, "-u", "erin", "-p", PASSWORD, "-t", "Normal"],
    "updateUser": ["-c", CLUSTER, "-u", "frank", "-p", NEW_PASSWORD],
    "createAcl": ["-c", CLUSTER, "-s", "User:frank", "-r", "Topic:Planned", "-a", "Pub", "-d", "Allow"],
    "updateAcl": ["-c", CLUSTER, "-s", "User:frank", "-r", "Topic:Seeded", "-a", "Pub,Sub", "-d", "Deny"],
    "copyUser": ["-f", "{a}", "-t", "{b}"],
    "copyAcl": ["-f", "{a}", "-t", "{b}", "-s", "User:frank"],
}
ACL1_CASES = {
    "updateAclConfig": [
        "-c",
        CLUSTER,
        "-a",
        "PlannedAK1",
        "-s",
        SECRET_KEY,
        "-t",
        "TopicPub=PUB",
        "-m",
        "false",
    ],
    "updateGlobalWhiteAddr": ["-c", CLUSTER, "-g", "10.10.103.*,127.0.0.2"],
}


def dry_run(run: Callable[..., Result], env: dict[str, str], command: str, args: list[str]) -> dict[str, Any]:
    """The plan as text, then as JSON valid against the command's schema; neither shows a secret."""
    text, r, doc = planned(run, env, command, args)
    for secret in SECRETS:
        assert secret not in text.out + text.err + r.out + r.err, (command, secret)
    assert doc["dryRun"] is True and doc["plan"], doc
    return doc


@pytest.mark.parametrize("command", list(AUTH_CASES))
def test_an_acl_2_dry_run_plans_and_changes_nothing(auth: Auth, command: str) -> None:
    args = [x.format(a=auth.a.addr, b=auth.b.addr) for x in AUTH_CASES[command]]
    before = auth.state()
    dry_run(auth.run, auth.env, command, args)
    assert auth.state() == before


@pytest.mark.parametrize("command", list(ACL1_CASES))
def test_an_acl_1_dry_run_plans_and_changes_nothing(acl1: Acl, command: str) -> None:
    before = acl1.file.read_bytes()
    dry_run(acl1.run, acl1.env, command, ACL1_CASES[command])
    assert acl1.file.read_bytes() == before


def test_the_acl_2_plans_say_what_would_change(auth: Auth) -> None:
    a, b = auth.a.addr, auth.b.addr
    out = auth.ok("createUser", "-c", CLUSTER, "-u", "grace", "-p", PASSWORD, "--dry-run")
    assert f"broker {a}: user grace is there already, the broker refuses to create it\n" in out
    assert f"broker {b}: create user grace (Normal, password ******)\n" in out
    doc = json.loads(auth.ok("createUser", "-b", a, "-u", "erin", "-p", PASSWORD, "--dry-run", "--json"))
    assert doc["user"]["password"] == "******" and doc["brokers"][0]["ok"] is None

    out = auth.ok("updateUser", "-b", b, "-u", "frank", "-s", "disable", "--dry-run")
    assert f"broker {b}: update user frank: userStatus enable -> disable\n" in out
    out = auth.ok("updateUser", "-b", b, "-u", "grace", "-t", "Super", "--dry-run")
    assert f"broker {b}: no user grace, the broker refuses to update it\n" in out

    args = [
        "-s",
        "User:frank",
        "-r",
        "Topic:Seeded,Group:G1",
        "-a",
        "Pub,Sub",
        "-d",
        "Deny",
        "-i",
        "10.0.0.0/8",
    ]
    out = auth.ok("updateAcl", "-b", a, *args, "--dry-run")
    assert (
        f"broker {a}: update the ACL of User:frank: Topic:Seeded [Pub] Allow -> [Pub, Sub] Deny from "
        "[10.0.0.0/8]; Group:G1 (new) [Pub, Sub] Deny from [10.0.0.0/8]\n"
    ) in out
    out = auth.ok(
        "createAcl", "-b", a, "-s", "User:grace", "-r", "Topic:T", "-a", "Sub", "-d", "Allow", "--dry-run"
    )
    assert f"broker {a}: create the ACL of User:grace: Topic:T [Sub] Allow\n" in out
    out = auth.ok(
        "createAcl", "-b", b, "-s", "User:grace", "-r", "Topic:T", "-a", "Sub", "-d", "Allow", "--dry-run"
    )
    assert f"broker {b}: no user grace, the broker refuses the ACL of User:grace\n" in out

    out = auth.ok("copyUser", "-f", a, "-t", b, "-u", "grace,frank,nobody", "--dry-run")
    assert out == (
        f"dry run, nothing changed: copy users from [{a}] to [{b}]\n"
        f"  broker {a}: no user nobody, nothing to copy\n"
        f"  broker {b}: create user grace as on {a}\n"
        f"  broker {b}: update user frank as on {a}\n"
    )
    doc = json.loads(auth.ok("copyAcl", "-f", a, "-t", b, "-s", "User:frank", "--dry-run", "--json"))
    assert doc["acls"] == [{"subject": "User:frank", "action": "updated"}]


def test_the_acl_1_plans_say_what_would_change(acl1: Acl) -> None:
    r = acl1.run(
        "updateAclConfig", "-b", acl1.addr, "-a", "UserAK001", "-s", SECRET_KEY, "-i", "PUB", "--dry-run"
    )
    assert r.code == 0, r.err
    assert (
        f"broker {acl1.addr}: update the account UserAK001: "
        "secretKey ******, admin false, defaultTopicPerm PUB\n"
    ) in r.out
    r = acl1.run(
        "updateAclConfig", "-b", acl1.addr, "-a", "PlannedAK2", "-s", SECRET_KEY, "--dry-run", "--json"
    )
    doc = json.loads(r.out)
    assert doc["plan"][0]["action"] == "create the account PlannedAK2: secretKey ******, admin false"
    assert SECRET_KEY not in r.out
    r = acl1.run("updateGlobalWhiteAddr", "-b", acl1.addr, "-g", "10.0.0.*", "--dry-run")
    assert (
        f"broker {acl1.addr}: set the global white addresses to [10.0.0.*] "
        "(all its ACL files have [127.0.0.2] now)\n"
    ) in r.out


def test_the_acl_2_commands_change_without_dry_run(auth: Auth) -> None:
    """Without a terminal nothing is asked and each command does what the Java tool does."""
    a, b = auth.a.addr, auth.b.addr

    def user(addr: str, name: str) -> list[str]:
        return auth.ok("getUser", "-b", addr, "-u", name).splitlines()[1].split()

    def resources(addr: str, subject: str) -> dict[str, str]:
        doc = json.loads(auth.ok("getAcl", "-b", addr, "-s", subject, "--json"))
        entries = [e for p in doc["brokers"][0]["acl"]["policies"] for e in p["entries"]]
        return {e["resource"]: e["decision"] for e in entries}

    out = auth.ok("createUser", "-c", CLUSTER, "-u", "erin", "-p", PASSWORD)
    assert sorted(out.splitlines()) == sorted(
        [f"create user to {a} success.", f"create user to {b} success."]
    )
    assert user(b, "erin") == ["erin", PASSWORD, "Normal", "enable"]

    assert (
        auth.ok("updateUser", "-b", b, "-u", "frank", "-p", NEW_PASSWORD) == f"update user to {b} success.\n"
    )
    assert user(b, "frank")[1] == NEW_PASSWORD and user(a, "frank")[1] == "frankPw1"

    acl = ["-s", "User:frank", "-r", "Topic:Planned", "-a", "Pub", "-d", "Allow"]
    assert auth.ok("createAcl", "-b", a, *acl) == f"create acl to {a} success.\n"
    assert "Topic:Planned" in resources(a, "User:frank") and "Topic:Planned" not in resources(b, "User:frank")
    out = auth.ok("copyAcl", "-f", a, "-t", b, "-s", "User:frank")
    assert out == f"copy acl of User:frank from {a} to {b} success.\n"
    assert resources(b, "User:frank") == resources(a, "User:frank")

    seeded = ["-s", "User:frank", "-r", "Topic:Seeded", "-a", "Pub,Sub", "-d", "Deny"]
    auth.ok("updateAcl", "-c", CLUSTER, *seeded)
    assert resources(a, "User:frank")["Topic:Seeded"] == resources(b, "User:frank")["Topic:Seeded"] == "Deny"

    out = auth.ok("copyUser", "-f", a, "-t", b, "-u", "grace")
    assert out == f"copy user of grace from {a} to {b} success.\n"
    assert user(b, "grace") == ["grace", "gracePw1", "Normal", "enable"]


def test_the_acl_1_commands_change_without_dry_run(acl1: Acl) -> None:
    r = acl1.run("updateAclConfig", *ACL1_CASES["updateAclConfig"])
    assert r.code == 0 and r.out.startswith(f"create or update plain access config to {acl1.addr} success.\n")
    accounts = yaml.safe_load(acl1.file.read_text())["accounts"]
    assert [x["secretKey"] for x in accounts if x["accessKey"] == "PlannedAK1"] == [SECRET_KEY]
    r = acl1.run("updateGlobalWhiteAddr", *ACL1_CASES["updateGlobalWhiteAddr"])
    assert (r.code, r.out) == (0, f"update global white remote addresses to {acl1.addr} success.\n")
    assert yaml.safe_load(acl1.file.read_text())["globalWhiteRemoteAddresses"] == ["10.10.103.*", "127.0.0.2"]


def test_bad_input_is_refused_before_anything_is_sent(auth: Auth, acl1: Acl) -> None:
    before, plain = auth.state(), acl1.file.read_bytes()
    for args in (
        ["createUser", "-c", CLUSTER, "-u", "zed", "-p", PASSWORD, "-t", "Emperor"],
        ["updateUser", "-c", CLUSTER, "-u", "frank", "-s", "asleep"],
        ["createAcl", "-c", CLUSTER, "-s", "User:frank", "-r", "Topic:X", "-a", "Fly", "-d", "Allow"],
        ["updateAcl", "-c", CLUSTER, "-s", "frank", "-r", "Topic:X", "-a", "Pub", "-d", "Allow"],
    ):
        for extra in ([], ["--dry-run"]):
            r = auth.run(*args, *extra)
            assert (r.code, r.out) == (2, ""), (args, extra, r.err)
    r = acl1.run(
        "updateAclConfig", "-c", CLUSTER, "-a", "PlannedAK3", "-s", SECRET_KEY, "-m", "maybe", "--dry-run"
    )
    assert (r.code, r.out) == (2, ""), r.err
    assert auth.state() == before and acl1.file.read_bytes() == plain


def test_a_terminal_is_asked_and_the_plan_hides_the_password(auth: Auth) -> None:
    keys = ["--access-key", ROOT.access_key, "--secret-key", ROOT.secret_key]
    args = ["createUser", "-b", auth.a.addr, "-u", "hank", "-p", PASSWORD, "-n", auth.cluster.ns.addr, *keys]
    before = auth.state()
    code, screen = on_pty(args, auth.env, "n")
    assert code == 1, screen
    assert f"broker {auth.a.addr}: create user hank (Normal, password ******)\n" in screen
    assert "nothing was changed (not confirmed" in screen and PASSWORD not in screen
    assert auth.state() == before

    code, screen = on_pty(args, auth.env, "y")
    assert code == 0, screen
    assert "Go ahead? [y/N]" in screen and f"create user to {auth.a.addr} success." in screen
    assert PASSWORD not in screen
    assert auth.ok("getUser", "-b", auth.a.addr, "-u", "hank").splitlines()[1].split()[1] == PASSWORD

    code, screen = on_pty([*args[:4], "ivy", *args[5:], "--yes"], auth.env, None)
    assert code == 0 and "Go ahead?" not in screen, screen
