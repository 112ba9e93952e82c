"""The cold data commands of the 5.3.3 tool against our name server and a broker behaving as 5.3.3:
getColdDataFlowCtrInfo as recorded (x02, the address masked), the update and remove texts with
``-b`` and ``-c``, ``--json``, and the refusals (a bad group or threshold is a usage error and
nothing is sent; a broker that does not answer is one line and a non-zero exit).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

from mqadmin.cli.commands.cold_data_admin import render_info
from tests.cli_harness import Result, recorded_text, unwrap, with_namesrv
from tests.servers import Cluster

Run = Callable[..., Result]


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    cluster = Cluster(tmp_path_factory.mktemp("cold"), rocketmqVersion="5.3.3")
    try:
        yield cluster
    finally:
        cluster.stop()


def test_info_as_recorded(mqadmin: Run, five: Cluster) -> None:
    args, java = recorded_text("rocketmq-5.3.3/x02_getColdDataFlowCtrInfo")
    args = with_namesrv(args, five.ns.addr)
    args[args.index("-b") + 1] = five.broker.addr
    r = mqadmin(*args)
    assert r.code == 0, r.err
    assert r.out.replace(five.broker.addr, "127.0.0.1:10921") == java


def test_update_remove_cluster_and_json(mqadmin: Run, five: Cluster) -> None:
    ns, addr = five.ns.addr, five.broker.addr
    r = mqadmin("updateColdDataFlowCtrGroupConfig", "-n", ns, "-b", addr, "-g", "ColdGroupA", "-v", " 1024 ")
    assert (r.code, r.out, r.err) == (0, f"updateColdDataFlowCtrGroupConfig success, {addr}\n", "")
    r = mqadmin(
        "updateColdDataFlowCtrGroupConfig", "-n", ns, "-c", "DefaultCluster", "-g", "ColdGroupB", "-v", "7"
    )
    assert (r.code, r.out) == (0, f"updateColdDataFlowCtrGroupConfig success, {addr}\n"), r.err

    r = mqadmin("getColdDataFlowCtrInfo", "-n", ns, "-c", "DefaultCluster")
    assert r.code == 0, r.err
    assert r.out == (
        f" ============Master: {addr}============\n"
        "{\n"
        '\t"globalAcc":0,\n'
        '\t"cgColdReadThreshold":3145728,\n'
        '\t"configTable":{\n'
        '\t\t"ColdGroupB":7,\n'
        '\t\t"ColdGroupA":1024\n'
        "\t},\n"
        '\t"globalColdReadThreshold":104857600,\n'
        '\t"runtimeTable":{}\n'
        "}\n"
    )
    r = mqadmin("getColdDataFlowCtrInfo", "-n", ns, "-b", addr, "--json")
    assert unwrap(json.loads(r.out)) == {
        "brokers": [
            {
                "addr": addr,
                "role": "master",
                "ok": True,
                "info": {
                    "runtimeTable": {},
                    "configTable": {"ColdGroupB": 7, "ColdGroupA": 1024},
                    "cgColdReadThreshold": 3145728,
                    "globalColdReadThreshold": 104857600,
                    "globalAcc": 0,
                },
            }
        ]
    }

    r = mqadmin(
        "removeColdDataFlowCtrGroupConfig", "-n", ns, "-c", "DefaultCluster", "-g", "ColdGroupB", "--json"
    )
    expected = {"consumerGroup": "ColdGroupB", "brokers": [{"addr": addr, "ok": True}]}
    assert unwrap(json.loads(r.out)) == expected
    r = mqadmin("removeColdDataFlowCtrGroupConfig", "-n", ns, "-b", addr, "-g", "ColdGroupA")
    assert (r.code, r.out) == (0, f"remove broker cold read threshold success, {addr}\n")
    r = mqadmin("getColdDataFlowCtrInfo", "-n", ns, "-b", addr, "--json")
    assert json.loads(r.out)["brokers"][0]["info"]["configTable"] == {}


def test_runtime_entries_are_printed_with_dates() -> None:
    """The tool's rewrite of each group: the two times as local dates, keys in ``HashMap`` order."""
    body = (
        '{"runtimeTable":{"G1":{"coldAcc":5,"createTimeMills":0,"lastColdReadTimeMills":1000}},'
        '"configTable":{},"cgColdReadThreshold":1,"globalColdReadThreshold":2,"globalAcc":5}'
    )
    data, text = render_info(body)
    assert data["runtimeTable"]["G1"]["coldAcc"] == 5
    import time

    def date(ms: int) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ms / 1000))

    assert (
        '\t"runtimeTable":{\n'
        '\t\t"G1":{\n'
        f'\t\t\t"createTimeFormat":"{date(0)}",\n'
        f'\t\t\t"lastColdReadTimeFormat":"{date(1000)}",\n'
        '\t\t\t"coldAcc":5\n'
        "\t\t}\n"
        "\t}\n"
    ) in text


def test_refusals(mqadmin: Run, five: Cluster) -> None:
    ns, addr = five.ns.addr, five.broker.addr
    for args, why in (
        (
            ["updateColdDataFlowCtrGroupConfig", "-b", addr, "-g", "Bad/Group", "-v", "1"],
            "illegal characters",
        ),
        (
            ["updateColdDataFlowCtrGroupConfig", "-b", addr, "-g", "G", "-v", "lots"],
            "-v takes a whole number",
        ),
        (["updateColdDataFlowCtrGroupConfig", "-b", addr, "-g", "G", "-v", "-5"], "0 or more"),
        (["updateColdDataFlowCtrGroupConfig", "-g", "G", "-v", "5"], "-b"),
        (["removeColdDataFlowCtrGroupConfig", "-b", addr, "-g", " "], "blank"),
        (["getColdDataFlowCtrInfo"], "-b"),
    ):
        r = mqadmin(*args, "-n", ns)
        assert (r.code, r.out) == (2, ""), (args, r.err)
        assert why in r.err.strip().splitlines()[-1], r.err
    r = mqadmin("getColdDataFlowCtrInfo", "-n", ns, "-b", "127.0.0.1:1")
    assert r.code != 0 and r.out == "" and len(r.err.splitlines()) == 1 and "127.0.0.1:1" in r.err, r.err
    r = mqadmin("getColdDataFlowCtrInfo", "-n", ns, "-c", "NoSuchCluster")
    assert r.code != 0 and len(r.err.splitlines()) == 1, r.err
