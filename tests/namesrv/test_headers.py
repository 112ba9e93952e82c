"""The name server's declared headers against Java 5.3.3's classes, and the name rules they apply."""

from __future__ import annotations

import pytest

from mqadmin.protocol.headers import namesrv as h
from mqadmin.protocol.headers.base import HeaderError, RequestHeader
from mqadmin.protocol.headers.namesrv import kvconfig as hkv
from mqadmin.protocol.headers.namesrv import registration as hreg
from mqadmin.protocol.headers.namesrv import route as hr
from mqadmin.protocol.headers.namesrv import topics as htop
from mqadmin.protocol.headers.namesrv import writeperm as hperm

RPC = [("lo", "bool", False), ("ns", "str", False), ("nsd", "bool", False), ("bname", "str", False)]
RPC += [("oway", "bool", False)]

# (Java field, kind, @CFNotNull), in Java declaration order (own fields, then inherited ones)
JAVA: dict[type[RequestHeader], list[tuple[str, str, bool]]] = {
    hkv.PutKVConfigRequestHeader: [("namespace", "str", True), ("key", "str", True), ("value", "str", True)],
    hkv.GetKVConfigRequestHeader: [("namespace", "str", True), ("key", "str", True)],
    hkv.DeleteKVConfigRequestHeader: [("namespace", "str", True), ("key", "str", True)],
    hkv.GetKVListByNamespaceRequestHeader: [("namespace", "str", True)],
    hreg.RegisterBrokerRequestHeader: [
        ("brokerName", "str", True),
        ("brokerAddr", "str", True),
        ("clusterName", "str", True),
        ("haServerAddr", "str", True),
        ("brokerId", "long", True),
        ("heartbeatTimeoutMillis", "long", False),
        ("enableActingMaster", "bool", False),
        ("compressed", "bool", False),
        ("bodyCrc32", "int", False),
    ],
    hreg.UnRegisterBrokerRequestHeader: [
        ("brokerName", "str", True),
        ("brokerAddr", "str", True),
        ("clusterName", "str", True),
        ("brokerId", "long", True),
    ],
    hreg.QueryDataVersionRequestHeader: [
        ("brokerName", "str", True),
        ("brokerAddr", "str", True),
        ("clusterName", "str", True),
        ("brokerId", "long", True),
    ],
    hreg.BrokerHeartbeatRequestHeader: [
        ("clusterName", "str", True),
        ("brokerAddr", "str", True),
        ("brokerName", "str", True),
        ("brokerId", "long", False),
        ("epoch", "int", False),
        ("maxOffset", "long", False),
        ("confirmOffset", "long", False),
        ("heartbeatTimeoutMills", "long", False),
        ("electionPriority", "int", False),
    ],
    hr.GetRouteInfoRequestHeader: [
        ("topic", "str", True),
        ("acceptStandardJsonOnly", "bool", False),
        *RPC,
    ],
    htop.DeleteTopicFromNamesrvRequestHeader: [("topic", "str", True), ("clusterName", "str", False), *RPC],
    htop.RegisterTopicRequestHeader: [("topic", "str", True), *RPC],
    htop.GetTopicsByClusterRequestHeader: [("cluster", "str", True)],
    hreg.GetBrokerMemberGroupRequestHeader: [("clusterName", "str", True), ("brokerName", "str", True)],
    hperm.WipeWritePermOfBrokerRequestHeader: [("brokerName", "str", True)],
    hperm.AddWritePermOfBrokerRequestHeader: [("brokerName", "str", True)],
}


@pytest.mark.parametrize("cls", list(JAVA), ids=lambda c: c.__name__)
def test_fields_are_javas(cls: type[RequestHeader]) -> None:
    assert [(f.java, f.kind, f.required) for f in cls.fields()] == JAVA[cls]


def test_lenient_decode_reads_like_javas_reflective_decoder() -> None:
    ext = {"brokerName": "b", "brokerAddr": "10.0.0.1:10911", "brokerId": "x", "bodyCrc32": "99999999999"}
    got = hreg.RegisterBrokerRequestHeader.decode(ext, lenient=True)
    assert (got.cluster_name, got.broker_id, got.body_crc32, got.compressed) == (None, None, 0, False)
    with pytest.raises(HeaderError, match="the custom field <clusterName> is null"):
        hreg.RegisterBrokerRequestHeader.decode(ext)
    with pytest.raises(HeaderError, match="not host:port"):
        hreg.RegisterBrokerRequestHeader.decode({**ext, "brokerAddr": "10.0.0.1"}, lenient=True)


def test_registration_round_trip() -> None:
    hdr = hreg.RegisterBrokerRequestHeader(
        broker_name="broker-a",
        broker_addr="127.0.0.1:10911",
        cluster_name="DefaultCluster",
        ha_server_addr="127.0.0.1:10912",
        broker_id=0,
        enable_acting_master=False,
        body_crc32=12345,
    )
    ext = hdr.check().to_ext()
    assert ext["compressed"] == "false" and ext["enableActingMaster"] == "false"
    assert "heartbeatTimeoutMillis" not in ext
    assert hreg.RegisterBrokerRequestHeader.decode(ext) == hdr


@pytest.mark.parametrize(
    "topic",
    [
        "TopicTest",
        "%RETRY%" + "g" * 255,  # a retry topic of the longest group
        "%RETRY%group+" + "t" * 127,  # a 5.x pop retry topic
        "rmq_sys_SYNC_BROKER_MEMBER_broker.a",
        "my cluster",  # cluster and broker names are topics too
        "%LMQ%x|y",
    ],
)
def test_route_topics_a_broker_can_hold(topic: str) -> None:
    assert h.route_topic_refusal(topic) is None


@pytest.mark.parametrize("topic", ["", " ", "a/b", "..", "a\\b", "Tnl\n", "a\x00", "t\ud800", "T" * 400])
def test_route_topics_refused(topic: str) -> None:
    assert h.route_topic_refusal(topic) is not None


@pytest.mark.parametrize("addr", ["127.0.0.1:10911", "broker-0.svc.local:10911", "fe80::1:10911", "[::1]:1"])
def test_broker_addresses(addr: str) -> None:
    assert h.broker_addr_refusal(addr) is None


@pytest.mark.parametrize("addr", ["", "host", "host:", ":1", "h:65536", "h:-1", "a b:1", "h:1\n", "h:x"])
def test_broker_addresses_refused(addr: str) -> None:
    assert h.broker_addr_refusal(addr) is not None
