"""The message queries import nothing heavy, and print what the installed tool prints.

In a bare interpreter (no site, only this source tree on the path), ``queryMsgByKey``,
``queryMsgById``, ``queryMsgByUniqueKey``, ``queryMsgByOffset`` and ``decodeMessageId`` against our
name server and broker import none of typing, dataclasses, re, enum, json, datetime, pathlib,
collections, functools, threading, ... -- at module level or inside functions on the path they take:
a found message's detail block (body file, times, properties, tracks) and, with ``--json``, its
document. (``--json`` itself writes the document with :mod:`json`, for every command: there they
import nothing ``topicRoute --json`` does not.) What they print is what ``mqadmin`` installed in
the environment prints.
"""

from __future__ import annotations

import gc
import json
import time

import pytest

from mqadmin.cli.commands.message import DecodedIds, PushedDirectly
from mqadmin.cli.errors import CommandError
from mqadmin.protocol.message import MessageExt
from tests.bare import heavy_in, run_mqadmin_bare
from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.support import Cluster

#: Beside the lean rule's list: modules these commands have no reason to load.
MORE = ("ipaddress", "random", "base64", "pathlib", "codecs_ext")


def bare(cluster: Cluster, *args: str) -> tuple[int, str, set[str]]:
    """Exit code, stdout and every module ``mqadmin ARGS`` imported in a bare interpreter."""
    run = run_mqadmin_bare(list(args), cluster.env)
    return run.code, run.out, run.modules


def _commands(cluster: Cluster, state: Sent) -> list[list[str]]:
    ns = ["-n", cluster.ns.addr]
    found = cluster.mqadmin("queryMsgByUniqueKey", *ns, "-t", TOPIC, "-i", state.ids["cpp"], "--json")
    assert found.code == 0, found.err
    offset_id = json.loads(found.out)["messages"][0]["offsetMsgId"]
    return [
        ["queryMsgByKey", *ns, "-t", TOPIC, "-k", "ck1"],
        ["queryMsgById", *ns, "-t", TOPIC, "-i", offset_id],
        ["queryMsgById", *ns, "-t", TOPIC, "-i", offset_id, "-f", "UTF-8"],
        ["queryMsgByUniqueKey", *ns, "-t", TOPIC, "-i", state.ids["big"]],
        ["queryMsgByUniqueKey", *ns, "-t", TOPIC, "-i", state.ids["cpp"], "-a"],
        ["queryMsgByOffset", *ns, "-t", TOPIC, "-b", "broker-a", "-i", "3", "-o", "1"],
        ["decodeMessageId", "-i", f"{offset_id},{state.ids['ours']}"],
    ]


@pytest.mark.parametrize("structured", [False, True], ids=["text", "json"])
def test_queries_import_nothing_heavy_and_print_as_installed(
    cluster: Cluster, state: Sent, structured: bool
) -> None:
    allowed: set[str] = set()
    if structured:  # what writing any --json document costs
        code, _, names = bare(cluster, "topicRoute", "-n", cluster.ns.addr, "-t", TOPIC, "--json")
        assert code == 0
        allowed = set(heavy_in(names))
        assert "json" in allowed and "mqadmin.protocol.message" not in names
    for args in _commands(cluster, state):
        if structured:
            args = [*args, "--json"]
        code, out, names = bare(cluster, *args)
        assert code == 0, (args, out)
        assert "mqadmin.protocol.message" in names or args[0] == "decodeMessageId"
        assert sorted(set(heavy_in(names, *MORE)) - allowed) == [], args
        installed = cluster.mqadmin(*args)
        assert (code, out) == (installed.code, installed.out), args
        if structured:
            doc = json.loads(out)
            assert doc.get("messages") or doc.get("message") or doc.get("ids"), args
        else:
            assert out.strip(), args


# ------------------------------------------------------------------ the records, without a cluster


def test_answers_are_records_as_the_dataclasses_were() -> None:
    from mqadmin.admin.messages import MessageTrack, PullResult, QueryResult

    one, two = PullResult("FOUND", 1, 0, 2), PullResult("FOUND", 1, 0, 2)
    one.messages.append(MessageExt(topic="t"))
    assert two.messages == [] and one != two and one == PullResult("FOUND", 1, 0, 2, [MessageExt(topic="t")])
    q = QueryResult([], 5)
    assert (q.failures, q.brokers, q == QueryResult([], 5, [], []), q != QueryResult([], 6)) == (
        [],
        [],
        True,
        True,
    )
    assert repr(q) == "QueryResult(messages=[], index_last_update_timestamp=5, failures=[], brokers=[])"
    track = MessageTrack("G")
    assert str(track) == "MessageTrack [consumerGroup=G, trackType=UNKNOWN, exceptionDesc=null]"
    assert track.to_json() == {"consumerGroup": "G", "trackType": "UNKNOWN", "exceptionDesc": None}
    assert track == MessageTrack("G", "UNKNOWN", None) != MessageTrack("G", "PULL")
    for value in (one, q, track):
        with pytest.raises(TypeError):
            hash(value)
    assert DecodedIds([{"a": 1}]) == DecodedIds([{"a": 1}]) != DecodedIds([])
    assert PushedDirectly("X", 1) == PushedDirectly("X", 1) and hash(PushedDirectly("X", 1)) == hash(
        PushedDirectly("X", 1)
    )


def test_cluster_addresses_live_as_long_as_their_admin() -> None:
    from mqadmin.admin import messages

    class Admin:  # any object that can be weakly referred to
        pass

    first, second = Admin(), Admin()
    messages._cluster_addrs(first)[("b", True)] = "1.2.3.4:10911"
    assert messages._cluster_addrs(first) == {("b", True): "1.2.3.4:10911"}
    assert messages._cluster_addrs(second) == {}
    key = id(first)
    del first
    gc.collect()
    assert key not in messages._CLUSTER_ADDRS and id(second) in messages._CLUSTER_ADDRS


def test_time_arguments_and_property_order() -> None:
    from mqadmin.cli.commands.message_text import PROPERTIES_CAPACITY, parse_time_arg, properties_string
    from mqadmin.protocol.javacoll import java_hash_order, remembered_hash_order

    assert parse_time_arg(" 1700000000000 ", "-b") == 1700000000000
    assert parse_time_arg("+12", "-b") == 12 and parse_time_arg("-12", "-b") == -12
    assert parse_time_arg("\u0661\u0662", "-b") == 12  # re's \d took any decimal digit, as int() does
    local = int(time.mktime((2024, 1, 31, 13, 45, 0, 0, 0, -1))) * 1000 + 7
    assert parse_time_arg("2024-01-31#13:45:00:007", "-b") == local
    assert parse_time_arg("2023-13-31#13:45:00:007", "-b") == local  # month 13 rolls over
    for bad in ("", "+", "1 2", "\u00b2", "2024-01-31"):
        with pytest.raises(CommandError):
            parse_time_arg(bad, "-b")
    props = {"KEYS": "k", "TAGS": "t", "UNIQ_KEY": "U", "a": "b"}
    assert properties_string(props) == properties_string(dict(reversed(props.items())))
    order = remembered_hash_order(tuple(props), PROPERTIES_CAPACITY)
    assert order is remembered_hash_order(tuple(props), PROPERTIES_CAPACITY)  # remembered
    assert remembered_hash_order(tuple(props), 16) == tuple(java_hash_order(tuple(props), 16))
