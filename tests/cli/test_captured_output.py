"""Our ``mqadmin`` against our name server reproduces the Java tool's recorded output.

For each name-server command with a recorded scenario, the installed ``mqadmin`` runs with the
recorded arguments against our name server (``mqadmin namesrv start``) after the broker
registration the real name server had at the time is replayed to it. stdout must equal the Java
``.out`` byte for byte, after masking only what is live or chosen at run time: the ports we listen
on, and for clusterList the ``#Hour`` column (hours since the broker's earliest message).

clusterList and ``topicList -c`` also ask the broker (GET_BROKER_RUNTIME_INFO, QUERY_TOPIC_CONSUME_BY_WHO).
For those, and only for the broker port, a recorded-answer peer (:class:`RecordedBroker`) stands in,
replaying the real 4.9.8 broker's answers from the same captures, because the development broker
does not exist yet. The name server is always ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.cli.peers import RecordedBroker, register_broker, registration_frame
from tests.cli_harness import mask_settings, recorded_run, with_namesrv
from tests.servers import NameServerProcess

V533 = "rocketmq-5.3.3"
V498 = "rocketmq-4.9.8"
JAVA_NAMESRV = {V533: "127.0.0.1:9877", V498: "127.0.0.1:9876"}
JAVA_BROKER = "127.0.0.1:10911"


def unport(text: str, ns: NameServerProcess, version: str, broker: RecordedBroker | None = None) -> str:
    text = text.replace(ns.addr, JAVA_NAMESRV[version])
    if broker is not None:
        text = text.replace(broker.addr, JAVA_BROKER)
    return text


@pytest.fixture(scope="module")
def ns533(namesrv: NameServerProcess) -> NameServerProcess:
    """Our name server holding what the 5.3.3 one held for v01-v11 (the broker's v02 registration)."""
    register_broker(namesrv, registration_frame(f"{V533}/v02_topicRoute"))
    return namesrv


@pytest.fixture(scope="module")
def broker_and_ns(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[NameServerProcess, RecordedBroker]]:
    """A second name server whose broker (as of v18/v19) lives at a recorded-answer peer's address."""
    broker = RecordedBroker([f"{V533}/v01_clusterList", f"{V533}/v19_topicListCluster"])
    ns = NameServerProcess(tmp_path_factory.mktemp("namesrv-b"))
    try:
        register_broker(ns, registration_frame(f"{V533}/v18_getBrokerConfig"), broker.addr)
        yield ns, broker
    finally:
        ns.stop()
        broker.stop()


@pytest.mark.parametrize(
    "scenario",
    [
        f"{V533}/v02_topicRoute",
        f"{V533}/v03_topicRouteList",
        f"{V533}/v04_topicList",
        f"{V533}/v10_topicClusterList",
        f"{V498}/s31_allocateMQ",
    ],
)
def test_read_commands(mqadmin, ns533: NameServerProcess, scenario: str) -> None:  # type: ignore[no-untyped-def]
    args, expected = recorded_run(scenario)
    r = mqadmin(*with_namesrv(args, ns533.addr))
    assert r.code == 0, r.err
    assert r.err == ""
    assert unport(r.out, ns533, V533).encode() == expected


def test_topic_route_missing(mqadmin, ns533: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    args, expected = recorded_run(f"{V533}/v09_topicRouteMissing")
    r = mqadmin(*with_namesrv(args, ns533.addr))
    assert r.raw == expected == b""
    assert r.code == 7
    assert r.err.count("\n") == 1
    assert "CODE: 17 (TOPIC_NOT_EXIST)" in r.err
    assert ns533.addr in r.err
    assert "No topic route info in name server for the topic: NoSuchTopic" in r.err


_MASKED_CONFIG = ("kvConfigPath", "rocketmqHome", "configStorePath", "listenPort")


def _mask_config(text: str) -> str:
    return mask_settings(text, _MASKED_CONFIG, "<masked>")


def test_get_namesrv_config(mqadmin, ns533: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    """Same keys in the same (Properties) order and the same values, but paths and port."""
    args, expected = recorded_run(f"{V533}/v05_getNamesrvConfig")
    r = mqadmin(*with_namesrv(args, ns533.addr))
    assert r.code == 0, r.err
    assert _mask_config(unport(r.out, ns533, V533)) == _mask_config(expected.decode())


def test_kv_config_put_then_delete(mqadmin, ns533: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    for scenario in (f"{V533}/v06_updateKvConfig", f"{V533}/v11_deleteKvConfig"):
        args, expected = recorded_run(scenario)
        r = mqadmin(*with_namesrv(args, ns533.addr))
        assert (r.code, r.err) == (0, "")
        assert r.raw == expected


def test_write_perm_wipe_then_add(mqadmin, ns533: NameServerProcess) -> None:  # type: ignore[no-untyped-def]
    for scenario in (f"{V533}/v07_wipeWritePerm", f"{V533}/v08_addWritePerm"):
        args, expected = recorded_run(scenario)
        r = mqadmin(*with_namesrv(args, ns533.addr))
        assert (r.code, r.err) == (0, "")
        assert unport(r.out, ns533, V533).encode() == expected


_HOUR = re.compile(r"\S+(\s+\S+\s+\S+\s*)$")


def _mask_hour(text: str) -> str:
    lines = text.split("\n")
    return "\n".join(
        [lines[0], *(_HOUR.sub(lambda m: "<hour>" + m.group(1).lstrip(" "), ln) for ln in lines[1:])]
    )


def test_cluster_list(mqadmin, broker_and_ns: tuple[NameServerProcess, RecordedBroker]) -> None:  # type: ignore[no-untyped-def]
    ns, broker = broker_and_ns
    args, expected = recorded_run(f"{V533}/v01_clusterList")
    r = mqadmin(*with_namesrv(args, ns.addr))
    assert (r.code, r.err) == (0, "")
    ours = unport(r.out, ns, V533, broker)
    assert _mask_hour(ours) == _mask_hour(expected.decode())
    assert ours != _mask_hour(ours), "the hour column was not where the mask expects it"


def test_topic_list_cluster(mqadmin, broker_and_ns: tuple[NameServerProcess, RecordedBroker]) -> None:  # type: ignore[no-untyped-def]
    ns, broker = broker_and_ns
    args, expected = recorded_run(f"{V533}/v19_topicListCluster")
    r = mqadmin(*with_namesrv(args, ns.addr))
    assert (r.code, r.err) == (0, "")
    assert unport(r.out, ns, V533, broker).encode() == expected
