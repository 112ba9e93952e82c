"""The ACL 2.0 commands (createUser ... copyAcl) run as ``mqadmin`` subprocesses against our name
server and two of our brokers (``rocketmqVersion=5.3.3``, ``broker-a`` and ``broker-b`` of
``DefaultCluster``): the Java 5.3.3 text (its format strings, written out here independently),
``-b`` and ``-c``, filters, copies between the brokers, ``--json``, exit codes, and policies refused
before anything is sent (nothing is written on the broker).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import servers
from tests.cli_harness import Result, clean_env, run_mqadmin, unwrap
from tests.servers import BrokerProcess

CLUSTER = "DefaultCluster"


class Cluster(servers.Cluster):
    """Two 5.3.3 brokers, ``broker-a`` (:attr:`a`) and ``broker-b`` (:attr:`b`), on our name server."""

    def __init__(self, root: Path) -> None:
        super().__init__(
            root, {name: {"rocketmqVersion": "5.3.3", "brokerName": f"broker-{name}"} for name in "ab"}
        )
        self.a, self.b = self.brokers
        self.env = clean_env(root / "home", root / "cfg")

    def run(self, *args: str) -> Result:
        return run_mqadmin([*args, "-n", self.ns.addr], self.env)


@pytest.fixture(scope="module")
def cl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("auth-cli"))
    try:
        yield c
    finally:
        c.stop()


def user_line(*cols: Any) -> str:
    """``%-16s  %-22s  %-22s  %-22s%n``."""
    return f"{cols[0]:<16}  {cols[1]:<22}  {cols[2]:<22}  {cols[3]:<22}\n"


def acl_line(*cols: Any) -> str:
    """``%-16s  %-10s  %-22s  %-20s  %-24s  %-10s%n``."""
    widths = (16, 10, 22, 20, 24, 10)
    return "  ".join(f"{c:<{w}}" for c, w in zip(cols, widths, strict=True)) + "\n"


USER_HEAD = user_line("#UserName", "#Password", "#UserType", "#UserStatus")
ACL_HEAD = acl_line("#Subject", "#PolicyType", "#Resource", "#Actions", "#SourceIp", "#Decision")


def ok(r: Result) -> str:
    assert r.code == 0 and r.err == "", (r.code, r.err)
    return r.out


def auth_files(b: BrokerProcess) -> tuple[bytes, bytes]:
    d = b.workdir / "store" / "config" / "auth"
    return tuple(p.read_bytes() if p.exists() else b"" for p in (d / "users.json", d / "acls.json"))  # type: ignore[return-value]


# ---------------------------------------------------------------------------------- users


def test_users_on_one_broker_and_on_the_cluster(cl: Cluster) -> None:
    a, b = cl.a.addr, cl.b.addr
    assert (
        ok(cl.run("createUser", "-b", a, "-u", "carol", "-p", "carolPw")) == f"create user to {a} success.\n"
    )
    out = ok(cl.run("createUser", "-c", CLUSTER, "-u", "dave", "-p", "davePw", "-t", "super"))
    assert sorted(out.splitlines()) == sorted(
        [f"create user to {a} success.", f"create user to {b} success."]
    )

    assert ok(cl.run("getUser", "-b", a, "-u", "carol")) == USER_HEAD + user_line(
        "carol", "carolPw", "Normal", "enable"
    )
    assert ok(cl.run("getUser", "-c", CLUSTER, "-u", "dave")) == USER_HEAD + user_line(
        "dave", "davePw", "Super", "enable"
    )

    assert (
        ok(cl.run("updateUser", "-b", a, "-u", "carol", "-s", "DISABLE")) == f"update user to {a} success.\n"
    )
    assert ok(cl.run("updateUser", "-b", a, "-u", "carol", "-p", "newPw")) == f"update user to {a} success.\n"
    assert ok(cl.run("listUser", "-b", a, "-f", "aro")) == USER_HEAD + user_line(
        "carol", "newPw", "Normal", "disable"
    )
    assert ok(cl.run("listUser", "-b", a, "-f", "nobody-has-this")) == ""
    listed = ok(cl.run("listUser", "-c", CLUSTER, "-f", "dave"))
    assert listed.startswith(USER_HEAD + user_line("dave", "davePw", "Super", "enable") + "get user from ")
    assert listed.endswith(" success.\n")

    data = json.loads(ok(cl.run("listUser", "-b", a, "--json")))
    assert data["addr"] == a
    assert [u["username"] for u in data["users"]] == ["carol", "dave"]
    assert data["users"][0] == {
        "username": "carol",
        "password": "newPw",
        "userType": "Normal",
        "userStatus": "disable",
    }

    assert ok(cl.run("deleteUser", "-b", a, "-u", "carol")) == f"delete user to {a} success.\n"
    r = cl.run("getUser", "-b", a, "-u", "carol")  # Java prints nothing; we say so on stderr, exit 1
    assert (r.code, r.out) == (1, "") and f"no user carol on {a}" in r.err
    again = cl.run("deleteUser", "-b", a, "-u", "carol")  # Java's line, then exit 7: it was not there
    assert (again.code, again.out) == (7, f"delete user to {a} success.\n")


def test_user_failures(cl: Cluster) -> None:
    a = cl.a.addr
    r = cl.run("updateUser", "-b", a, "-u", "ghost", "-p", "x")
    assert r.code == 3 and r.out == ""
    assert len(r.err.splitlines()) == 1
    assert f"CODE: 16 (NO_PERMISSION) from server {a}: The user is not exist" in r.err
    assert "credentials" not in r.err  # the user asked for is missing, not the caller's keys
    ok(cl.run("createUser", "-b", a, "-u", "erin", "-p", "erinPw"))
    r = cl.run("createUser", "-b", a, "-u", "erin", "-p", "again")
    assert r.code == 3 and "The user is existed" in r.err
    r = cl.run("createUser", "-c", CLUSTER, "-u", "erin", "-p", "erinPw")  # on broker-b only
    assert r.code == 6 and r.out == f"create user to {cl.b.addr} success.\n", (r.code, r.out, r.err)
    assert len(r.err.splitlines()) == 1 and a in r.err and "The user is existed" in r.err

    before = auth_files(cl.a)
    for args in (
        # values the broker would refuse or silently change, refused before any request
        ["createUser", "-b", a, "-u", "frank", "-p", "pw", "-t", "Root"],  # Java would make a Normal user
        ["createUser", "-b", a, "-u", " ", "-p", "pw"],
        ["createUser", "-b", a, "-u", "frank", "-p", "  "],
        ["updateUser", "-b", a, "-u", "erin", "-s", "paused"],
        # command lines commons-cli refuses too
        ["updateUser", "-b", a, "-u", "erin", "-p", "x", "-t", "Super"],  # one change at a time, as Java
        ["createUser", "-u", "frank", "-p", "pw"],  # neither -b nor -c
        ["createUser", "-b", a, "-c", CLUSTER, "-u", "frank", "-p", "pw"],
        ["createUser", "-b", a, "-u", "frank"],
    ):
        r = cl.run(*args)
        assert r.code == 2 and r.out == "" and len(r.err.splitlines()) == 1, (args, r.code, r.err)
    assert auth_files(cl.a) == before


# ---------------------------------------------------------------------------------- ACLs


def test_acls_create_update_get_list_delete(cl: Cluster) -> None:
    a = cl.a.addr
    ok(cl.run("createUser", "-c", CLUSTER, "-u", "gina", "-p", "ginaPw"))
    ok(cl.run("createUser", "-b", a, "-u", "hank", "-p", "hankPw"))
    out = ok(
        cl.run(
            "createAcl",
            "-b",
            a,
            "-s",
            "User:gina",
            "-r",
            "Topic:Orders, Group:G*",
            "-a",
            "Pub,Sub",
            "-d",
            "Allow",
            "-i",
            "127.0.0.1,10.0.0.0/8",
        )
    )
    assert out == f"create acl to {a} success.\n"
    ok(cl.run("updateAcl", "-b", a, "-s", "User:gina", "-r", "Topic:*", "-a", "Get,List", "-d", "deny"))
    ok(cl.run("createAcl", "-b", a, "-s", "User:hank", "-r", "*", "-a", "All", "-d", "Allow"))

    gina = [
        acl_line("User:gina", "Custom", "Topic:Orders", "[Pub, Sub]", "[127.0.0.1, 10.0.0.0/8]", "Allow"),
        acl_line("User:gina", "Custom", "Group:G*", "[Pub, Sub]", "[127.0.0.1, 10.0.0.0/8]", "Allow"),
        acl_line("User:gina", "Custom", "Topic:*", "[Get, List]", "null", "Deny"),
    ]
    hank = [acl_line("User:hank", "Custom", "*", "[All]", "null", "Allow")]
    assert ok(cl.run("getAcl", "-b", a, "-s", "User:gina")) == ACL_HEAD + "".join(gina)
    assert ok(cl.run("listAcl", "-b", a)) == ACL_HEAD + "".join(gina + hank)
    assert ok(cl.run("listAcl", "-b", a, "-s", "hank")) == ACL_HEAD + "".join(hank)
    assert ok(cl.run("listAcl", "-b", a, "-r", "Topic")) == ACL_HEAD + gina[0] + gina[2]
    assert ok(cl.run("listAcl", "-b", a, "-r", "Nothing")) == ""
    # -c: every master is asked; broker-b has no ACL, so only broker-a's table is printed
    assert ok(cl.run("listAcl", "-c", CLUSTER, "-s", "gina")) == ACL_HEAD + "".join(gina)

    data = unwrap(json.loads(ok(cl.run("getAcl", "-b", a, "-s", "User:hank", "--json"))))
    assert data == {
        "brokers": [
            {
                "addr": a,
                "ok": True,
                "acl": {
                    "subject": "User:hank",
                    "policies": [
                        {
                            "policyType": "Custom",
                            "entries": [
                                {"resource": "*", "actions": ["All"], "sourceIps": None, "decision": "Allow"}
                            ],
                        }
                    ],
                },
            }
        ]
    }

    assert (
        ok(cl.run("deleteAcl", "-b", a, "-s", "User:gina", "-r", "Topic:*"))
        == f"delete acl to {a} success.\n"
    )
    assert ok(cl.run("getAcl", "-b", a, "-s", "User:gina")) == ACL_HEAD + gina[0] + gina[1]
    ok(cl.run("deleteUser", "-b", a, "-u", "hank"))  # its ACL goes with it
    assert "User:hank" not in ok(cl.run("listAcl", "-b", a))
    ok(cl.run("deleteAcl", "-b", a, "-s", "User:gina"))
    r = cl.run("getAcl", "-b", a, "-s", "User:gina")  # Java prints nothing; we say so, exit 1
    assert (r.code, r.out) == (1, "") and "no ACL of that subject" in r.err
    r = cl.run("deleteAcl", "-b", a, "-s", "User:gina")  # deleting what is not there: exit 7
    assert r.code == 7 and "The acl is not exist." in r.err


MALFORMED = [
    (["-r", "Topyc:T", "-a", "Pub", "-d", "Allow"], "bad resource 'Topyc:T'"),
    (["-r", "Topic:", "-a", "Pub", "-d", "Allow"], "bad resource 'Topic:'"),
    (["-r", "Topic:T", "-a", "Pub,Publish", "-d", "Allow"], "unknown action 'Publish'"),
    (["-r", "Topic:T", "-a", "Any", "-d", "Allow"], "unknown action 'Any'"),
    (["-r", "Topic:T", "-a", "Pub", "-d", "Perhaps"], "unknown decision 'Perhaps'"),
    (["-r", "Topic:T", "-a", "Pub", "-d", "Allow", "-i", "10.0.0.300"], "bad source address '10.0.0.300'"),
    (["-r", "Topic:T", "-a", "Pub", "-d", "Allow", "-i", "10.0.0.0/40"], "bad source address '10.0.0.0/40'"),
]


def test_a_malformed_policy_is_refused_before_sending(cl: Cluster) -> None:
    ok(cl.run("createUser", "-b", cl.a.addr, "-u", "ivy", "-p", "ivyPw"))
    before = auth_files(cl.a)
    cases = [("createAcl", "User:ivy", args, problem) for args, problem in MALFORMED]
    cases += [
        ("updateAcl", "User:ivy", MALFORMED[0][0], MALFORMED[0][1]),
        ("createAcl", "ivy", ["-r", "Topic:T", "-a", "Pub", "-d", "Allow"], "bad subject 'ivy'"),
        ("updateAcl", "Group:ivy", ["-r", "Topic:T", "-a", "Pub", "-d", "Allow"], "bad subject 'Group:ivy'"),
    ]
    for cmd, subject, args, problem in cases:
        r = cl.run(cmd, "-b", cl.a.addr, "-s", subject, *args)
        assert (r.code, r.out) == (2, ""), (cmd, args, r.code, r.err)
        assert len(r.err.splitlines()) == 1 and problem in r.err, r.err
    assert auth_files(cl.a) == before


def test_an_acl_for_an_unknown_user_is_refused_by_the_broker(cl: Cluster) -> None:
    before = auth_files(cl.a)
    r = cl.run("createAcl", "-b", cl.a.addr, "-s", "User:nobody", "-r", "Topic:T", "-a", "Pub", "-d", "Allow")
    assert r.code == 3 and r.out == ""
    assert "CODE: 16 (NO_PERMISSION)" in r.err and "The subject of User:nobody is not exist." in r.err
    r = cl.run("getAcl", "-b", cl.a.addr, "-s", "User:nobody")
    assert r.code == 3 and "The subject is not exist." in r.err
    assert auth_files(cl.a) == before


# ---------------------------------------------------------------------------------- copies


def test_copy_users_and_acls_between_brokers(cl: Cluster) -> None:
    a, b = cl.a.addr, cl.b.addr
    for name in ("kim", "lee"):
        ok(cl.run("createUser", "-b", a, "-u", name, "-p", f"{name}Pw"))
        ok(
            cl.run(
                "createAcl", "-b", a, "-s", f"User:{name}", "-r", f"Topic:{name}T", "-a", "Pub", "-d", "Allow"
            )
        )
    ok(cl.run("createUser", "-b", b, "-u", "lee", "-p", "oldPw"))

    out = ok(cl.run("copyUser", "-f", a, "-t", b, "-u", "kim,lee,missing"))
    assert out == f"copy user of kim from {a} to {b} success.\ncopy user of lee from {a} to {b} success.\n"
    assert ok(cl.run("getUser", "-b", b, "-u", "lee")) == USER_HEAD + user_line(
        "lee", "leePw", "Normal", "enable"
    )

    out = ok(cl.run("copyAcl", "-f", a, "-t", b, "-s", "User:kim,User:lee"))
    assert (
        out
        == f"copy acl of User:kim from {a} to {b} success.\ncopy acl of User:lee from {a} to {b} success.\n"
    )
    assert ok(cl.run("getAcl", "-b", b, "-s", "User:kim")) == ok(cl.run("getAcl", "-b", a, "-s", "User:kim"))

    # without a list: everything (users of a the target lacks are created, the others updated)
    data = json.loads(ok(cl.run("copyUser", "-f", a, "-t", b, "--json")))
    assert data["from"] == a and data["to"] == b
    assert {u["username"]: u["action"] for u in data["users"]}["kim"] == "updated"
    assert sorted(json.loads(auth_files(cl.b)[0])) == sorted(json.loads(auth_files(cl.a)[0]))
