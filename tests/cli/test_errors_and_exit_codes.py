"""Exit codes, the one-line errors on stderr and ``--json`` for success, remote error, connection
refused, timeout, unknown option and missing argument; partial failure and failover of name servers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mqadmin.localcluster import free_port
from tests.cli.peers import SilentPeer, register_broker, registration_frame
from tests.servers import NameServerProcess


@pytest.fixture(scope="module")
def ns(namesrv: NameServerProcess) -> NameServerProcess:
    register_broker(namesrv, registration_frame("rocketmq-5.3.3/v02_topicRoute"))
    return namesrv


@pytest.fixture(scope="module")
def silent() -> Iterator[SilentPeer]:
    peer = SilentPeer()
    yield peer
    peer.stop()


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_success(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute", "-n", ns.addr, "-t", "GoldenTopic")
    assert (r.code, r.err) == (0, "")
    j = mqadmin("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--json")
    assert (j.code, j.err) == (0, "")
    data = json.loads(j.out)
    assert data["brokerDatas"][0]["brokerAddrs"] == {"0": "127.0.0.1:10911"}
    assert data["queueDatas"][0]["writeQueueNums"] == 4
    y = mqadmin("topicRoute", "-n", ns.addr, "-t", "GoldenTopic", "--output", "yaml")
    assert y.code == 0 and y.out.startswith("---\napiVersion: mqadmin/v1\nbrokerDatas:\n")


def test_remote_error(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute", "-n", ns.addr, "-t", "NoSuchTopic")
    assert (r.code, r.out) == (7, "")
    line = one_line(r.err)
    assert line.startswith("mqadmin topicRoute: CODE: 17 (TOPIC_NOT_EXIST) from name server " + ns.addr)
    assert "No topic route info in name server for the topic: NoSuchTopic" in line
    assert "mqadmin updateTopic" in line  # says what to do
    j = mqadmin("topicRoute", "-n", ns.addr, "-t", "NoSuchTopic", "--json")
    assert j.code == 7
    err = json.loads(j.out)["error"]
    assert err["kind"] == "remote" and err["code"] == 17 and err["codeName"] == "TOPIC_NOT_EXIST"
    assert err["addr"] == ns.addr and err["exitCode"] == 7


def test_connection_refused(mqadmin) -> None:  # type: ignore[no-untyped-def]
    addr = f"127.0.0.1:{free_port()}"
    r = mqadmin("topicRoute", "-n", addr, "-t", "T")
    assert (r.code, r.out) == (4, "")
    line = one_line(r.err)
    assert f"connect to {addr} failed: Connection refused" in line
    assert "name server running" in line
    j = mqadmin("topicRoute", "-n", addr, "-t", "T", "--json")
    assert j.code == 4 and json.loads(j.out)["error"]["kind"] == "unreachable"


def test_missing_namesrv_address_says_what_to_do(mqadmin, base_env) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("clusterList", "--timeout", "2")
    if r.code == 0:
        pytest.skip("something answers on 127.0.0.1:9876 here")
    assert r.code == 4
    line = one_line(r.err)
    assert "no name server address was given" in line and "NAMESRV_ADDR" in line and "-n" in line


def test_timeout(mqadmin, silent: SilentPeer) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute", "-n", silent.addr, "-t", "T", "--timeout", "0.3")
    assert (r.code, r.out) == (5, "")
    line = one_line(r.err)
    assert silent.addr in line and "GET_ROUTEINFO_BY_TOPIC (105)" in line and "0.3 s" in line
    j = mqadmin("topicRoute", "-n", silent.addr, "-t", "T", "--timeout", "0.3", "--json")
    assert j.code == 5 and json.loads(j.out)["error"]["kind"] == "timeout"


def test_unknown_option(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute", "-t", "T", "--bogus")
    assert (r.code, r.out) == (2, "")
    assert r.err == "mqadmin topicRoute: No such option '--bogus'; see 'mqadmin topicRoute -h'\n"
    j = mqadmin("topicRoute", "-t", "T", "--bogus", "--json")
    assert j.code == 2 and json.loads(j.out)["error"]["kind"] == "usage"


def test_missing_argument(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute")
    assert (r.code, r.out) == (2, "")
    assert (
        r.err
        == "mqadmin topicRoute: Missing option '-t' / '--topic' / '-topic'; see 'mqadmin topicRoute -h'\n"
    )
    r = mqadmin("topicRoute", "-t")
    assert (r.code, r.out) == (2, "")
    assert r.err == "mqadmin topicRoute: Option '-t' requires an argument; see 'mqadmin topicRoute -h'\n"
    j = mqadmin("topicRoute", "--json")
    assert j.code == 2 and json.loads(j.out)["error"]["kind"] == "usage"


def test_unknown_command(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("noSuchCommand")
    assert (r.code, r.out) == (2, "")
    assert r.err == "mqadmin: no such command 'noSuchCommand'; 'mqadmin --help' lists them\n"
    for typo, meant in (("clusterLits", "clusterList"), ("updateTopc", "updateTopic"), ("ctx", "context")):
        r = mqadmin(typo)
        assert (r.code, r.out) == (2, "")
        assert r.err == f"mqadmin: no such command '{typo}'; did you mean '{meant}'?\n"
    r = mqadmin("help", "brokerstats")
    assert (r.code, r.err) == (
        2,
        "mqadmin help: no such command 'brokerstats'; did you mean 'brokerStatus'?\n",
    )
    r = mqadmin("context", "add")
    assert (r.code, r.err) == (
        2,
        "mqadmin context add: Missing argument 'NAME'; see 'mqadmin context add -h'\n",
    )


def test_failover_to_next_name_server(mqadmin, ns: NameServerProcess, silent: SilentPeer) -> None:  # type: ignore[no-untyped-def]
    dead = f"127.0.0.1:{free_port()}"
    r = mqadmin(
        "topicClusterList", "-n", f"{dead};{silent.addr},{ns.addr}", "-t", "GoldenTopic", "--timeout", "0.5"
    )
    assert (r.code, r.out, r.err) == (0, "DefaultCluster\n", "")


def test_all_name_servers_down(mqadmin) -> None:  # type: ignore[no-untyped-def]
    a, b = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    r = mqadmin("topicList", "-n", f"{a};{b}")
    assert r.code == 4
    line = one_line(r.err)
    assert a in line and b in line


def test_partial_failure_of_fan_out(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    dead = f"127.0.0.1:{free_port()}"
    r = mqadmin("addWritePerm", "-n", f"{ns.addr};{dead}", "-b", "broker-a")
    assert r.code == 6
    ok, failed = r.out.splitlines()
    assert ok.startswith(f"add write perm of broker[broker-a] in name server[{ns.addr}] OK, ")
    assert failed == f"add write perm of broker[broker-a] in name server[{dead}] Failed"
    assert dead in one_line(r.err)
    j = mqadmin("addWritePerm", "-n", f"{ns.addr};{dead}", "-b", "broker-a", "--json")
    assert j.code == 6
    data = json.loads(j.out)
    assert [x["ok"] for x in data["results"]] == [True, False]


def test_kv_fan_out_partial_prints_nothing(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    dead = f"127.0.0.1:{free_port()}"
    r = mqadmin("updateKvConfig", "-n", f"{ns.addr};{dead}", "-s", "NS", "-k", "k", "-v", "v")
    assert (r.code, r.out) == (6, "")
    assert dead in one_line(r.err)


def test_debug_shows_traceback(mqadmin) -> None:  # type: ignore[no-untyped-def]
    addr = f"127.0.0.1:{free_port()}"
    r = mqadmin("topicRoute", "-n", addr, "-t", "T", "--debug")
    assert r.code == 4 and "Traceback" in r.err and r.out == ""


def test_bad_interval_is_a_usage_error(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("clusterList", "-n", ns.addr, "-i", "x")
    assert (r.code, r.out) == (2, "")


def test_update_namesrv_config(mqadmin, ns: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("updateNamesrvConfig", "-n", ns.addr, "-k", "orderMessageEnable", "-v", " true ")
    assert (r.code, r.err) == (0, "")
    assert r.out == f"update name server config success![{ns.addr}]\norderMessageEnable : true\n"
    shown = mqadmin("getNamesrvConfig", "-n", ns.addr, "--json")
    (server,) = json.loads(shown.out)["nameServers"]
    assert server["addr"] == ns.addr and server["config"]["orderMessageEnable"] is True
    r = mqadmin("updateNamesrvConfig", "-n", ns.addr, "-k", "kvConfigPath", "-v", "/elsewhere")
    assert (r.code, r.out) == (3, "")
    line = one_line(r.err)
    assert "CODE: 16 (NO_PERMISSION)" in line and "Can not update config in black list." in line
    assert "configBlackList" in line


@pytest.mark.parametrize(
    "spelling",
    [["-tT"], ["--topic=T"], ["-topic", "T"], ["--top", "T"], ["-t=T"], ["-lt", "T"], ["-t", "T", "stray"]],
)
def test_java_option_spellings(mqadmin, spelling: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Parsed as the Java tool parses them (here the request then fails to connect: exit 4, not 2)."""
    r = mqadmin("topicRoute", "-n", f"127.0.0.1:{free_port()}", *spelling, "--json")
    assert r.code == 4, r.err


def test_ambiguous_long_prefix(mqadmin) -> None:  # type: ignore[no-untyped-def]
    r = mqadmin("topicRoute", "--t", "T")
    assert r.code == 2 and "Ambiguous option: '--t'" in r.err
