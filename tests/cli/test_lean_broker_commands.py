"""The broker, name-server, producer, auth, ACL, cold-data and broker-ops commands on the lean rule.

- each of their modules, imported alone by a bare interpreter (``-I -S``, only this source tree on
  the path), imports none of :data:`~mqadmin.cli.main.HEAVY_MODULES`;
- their results and :mod:`mqadmin.cli.brokertargets`' values, records now, compare, hash and print
  as the frozen dataclasses they were;
- against our real name server and broker, ``brokerStatus -b``, ``getBrokerConfig -b``,
  ``getNamesrvConfig`` and ``updateKvConfig`` run by a bare interpreter print their answer and import
  nothing heavy (with ``--json``: nothing but what ``json`` itself brings).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mqadmin.cli.main import HEAVY_MODULES
from tests.admin_group_offset.servers import Cluster
from tests.bare import heavy_in, run_bare, run_mqadmin_bare

MODULES = [
    "mqadmin.cli.brokertargets",
    "mqadmin.cli.authargs",
    "mqadmin.cli.commands.broker_admin",
    "mqadmin.cli.commands.namesrv_admin",
    "mqadmin.cli.commands.producer_admin",
    "mqadmin.cli.commands.auth_admin",
    "mqadmin.cli.commands.auth_acl",
    "mqadmin.cli.commands.acl_admin",
    "mqadmin.cli.commands.cold_data_admin",
    "mqadmin.cli.commands.broker_ops_admin",
    "mqadmin.cli.commands.broker_ops_rocksdb",
    "mqadmin.cli.commands.broker_ops_compaction",
]


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_nothing_heavy(module: str) -> None:
    _, names = run_bare(f"import {module}")
    assert module in names
    assert not heavy_in(names), f"{module} imported {heavy_in(names)}"


def test_broker_targets_compare_and_hash_as_the_frozen_dataclasses_did() -> None:
    from mqadmin.cli.brokertargets import Changed, Member

    m = Member("a:1", "slave", "m:1", "banner\n")
    assert m == Member("a:1", "slave", "m:1", "banner\n")
    assert m != Member("a:1", "slave", "m:2", "banner\n")
    assert hash(m) == hash(Member("a:1", "slave", "m:1", "banner\n"))
    assert len({m, Member("a:1", "slave", "m:1", "banner\n")}) == 1
    assert repr(m) == "Member(addr='a:1', role='slave', master='m:1', banner='banner\\n')"
    assert m.with_(role="master", master=None) == Member("a:1", "master", None, "banner\n")

    rows = [{"addr": "a:1", "ok": True}, {"addr": "b:1", "ok": False}]
    c = Changed(rows, "done %s\n", {"k": "v"})
    assert c.tail == "" and c.errors == []
    assert c.errors is not Changed(rows, "done %s\n", {"k": "v"}).errors  # a fresh list each time
    assert c == Changed(rows, "done %s\n", {"k": "v"}, "", [])
    assert c != Changed(rows, "done %s\n", {"k": "v"}, "!")
    assert repr(c) == (
        "Changed(brokers=[{'addr': 'a:1', 'ok': True}, {'addr': 'b:1', 'ok': False}], "
        "line='done %s\\n', doc={'k': 'v'}, tail='', errors=[])"
    )
    with pytest.raises(TypeError):
        hash(c)  # it holds lists: a frozen dataclass's hash failed the same way
    assert c.text() == "done a:1\n"
    assert c.with_(tail="end\n").text() == "done a:1\nend\n"
    assert c.with_(errors=[{"error": "x"}]).data() == {
        "k": "v",
        "brokers": rows,
        "errors": [{"error": "x"}],
    }


def test_command_results_keep_their_fields_order_and_defaults() -> None:
    from mqadmin.cli.commands.auth_admin import Users
    from mqadmin.cli.commands.broker_admin import BrokerConfigs, BrokerStatus
    from mqadmin.cli.commands.namesrv_admin import NamesrvConfigs, WritePermChanged
    from mqadmin.cli.commands.producer_admin import Producers

    s = BrokerStatus([{"addr": "a:1", "ok": True}], {"a:1": {"k": "v"}})
    assert s.one is False and s.errors == []
    assert s == BrokerStatus([{"addr": "a:1", "ok": True}], {"a:1": {"k": "v"}}, False, [])
    assert s != s.with_(one=True)
    assert s.text() == "a:1                      k                               : v\n"
    assert s.with_(one=True).text() == "k".ljust(32) + ": v\n"
    assert (
        repr(BrokerConfigs(None, [], {})) == "BrokerConfigs(groups=None, brokers=[], configs={}, errors=[])"
    )
    assert repr(NamesrvConfigs({}, [])) == "NamesrvConfigs(configs={}, errors=[])"
    w = WritePermChanged("b", "wipe", [{"nameServer": "n:1", "ok": True, "topicCount": 3}])
    assert w.text() == "wipe write perm of broker[b] in name server[n:1] OK, 3\n"
    assert Users("a:1", []) == Users("a:1", [], "", False) != Users("a:1", [], "", True)
    with pytest.raises(TypeError):
        hash(Producers("a:1", {}))  # a dict field: unhashable, as the frozen dataclass was


# ---------------------------------------------------------------------------- run by a bare interpreter


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("leanbroker"))
    try:
        yield c
    finally:
        c.stop()


def bare_main(cluster: Cluster, *args: str) -> tuple[int, str, str, set[str]]:
    """Exit code, stdout, stderr and the modules imported by ``mqadmin ARGS`` run bare."""
    run = run_mqadmin_bare(list(args), cluster.env, cluster.cwd, timeout=30)
    return run.code, run.out, run.err, run.modules


BROKER = "<broker>"

COMMANDS = [
    ["brokerStatus", "-b", BROKER],
    ["getBrokerConfig", "-b", BROKER],
    ["getNamesrvConfig"],
    ["updateKvConfig", "-s", "LEAN_NS", "-k", "leanKey", "-v", "leanValue"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_command_run_bare_imports_nothing_heavy(cluster: Cluster, args: list[str], as_json: bool) -> None:
    argv = [a.replace(BROKER, cluster.addr) for a in args]
    code, out, err, names = bare_main(
        cluster, argv[0], "-n", cluster.namesrv, *argv[1:], *(["--json"] if as_json else [])
    )
    assert code == 0, err
    assert "mqadmin.remoting.blocking" in names  # the request was sent from this process
    allowed: set[str] = set()
    if as_json:
        doc = json.loads(out)
        assert doc, out
        _, allowed = run_bare("import json")  # the document is written by json, with what it imports
        assert "json" in allowed
    else:
        assert out.strip(), "the command printed its answer"
    heavy = sorted(n for n in names - allowed if n.split(".")[0] in HEAVY_MODULES)
    assert not heavy, f"{argv[0]} imported {heavy}"


def test_text_answers_are_those_of_the_installed_tool(cluster: Cluster) -> None:
    """The bare interpreter's text is the installed ``mqadmin``'s, byte for byte (the same code on
    another start-up), for the commands whose answer does not move between two calls."""
    for args in (["getBrokerConfig", "-b", cluster.addr], ["getNamesrvConfig"]):
        code, out, err, _ = bare_main(cluster, args[0], "-n", cluster.namesrv, *args[1:])
        r = cluster.mqadmin(*args)
        assert (code, out) == (r.code, r.out), err
        assert f"============{args[2] if len(args) > 2 else cluster.namesrv}============\n" in out
