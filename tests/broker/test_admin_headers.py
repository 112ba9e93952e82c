"""The topic and broker-admin headers against Java 5.3.3's classes, and the checks they carry."""

from __future__ import annotations

import pytest

from mqadmin.protocol.bodies.topic import TopicConfig
from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.configentry import config_entry_refusal, is_path_key
from mqadmin.protocol.headers import broker as hb
from mqadmin.protocol.headers import topic as ht
from mqadmin.protocol.headers.base import HeaderError, RequestHeader
from tests.broker.peers import create_topic_fields

RPC = [("ns", "str", False), ("nsd", "bool", False), ("bname", "str", False), ("oway", "bool", False)]
TOPIC_RPC = [("lo", "bool", False), *RPC]

# (Java field, kind, @CFNotNull), own fields in Java declaration order, then the inherited ones
JAVA: dict[type[RequestHeader], list[tuple[str, str, bool]]] = {
    ht.CreateTopicRequestHeader: [
        ("topic", "str", True),
        ("defaultTopic", "str", True),
        ("readQueueNums", "int", True),
        ("writeQueueNums", "int", True),
        ("perm", "int", True),
        ("topicFilterType", "str", True),
        ("topicSysFlag", "int", False),
        ("order", "bool", True),
        ("attributes", "str", False),
        ("force", "bool", False),
        *TOPIC_RPC,
    ],
    ht.CreateTopicListRequestHeader: RPC,
    ht.DeleteTopicRequestHeader: [("topic", "str", True), *TOPIC_RPC],
    ht.GetTopicStatsInfoRequestHeader: [("topic", "str", True), *TOPIC_RPC],
    ht.GetTopicConfigRequestHeader: [("topic", "str", True), *TOPIC_RPC],
    # Java: no @CFNotNull; a missing topic is refused here (Java fails with a NullPointerException)
    ht.QueryConsumeQueueRequestHeader: [
        ("topic", "str", True),
        ("queueId", "int", False),
        ("index", "long", False),
        ("count", "int", False),
        ("consumerGroup", "str", False),
        *TOPIC_RPC,
    ],
    hb.ViewBrokerStatsDataRequestHeader: [("statsName", "str", True), ("statsKey", "str", True)],
}


@pytest.mark.parametrize("cls", list(JAVA), ids=lambda c: c.__name__)
def test_fields_are_javas(cls: type[RequestHeader]) -> None:
    assert [(f.java, f.kind, f.required) for f in cls.fields()] == JAVA[cls]


CREATE = create_topic_fields("GoldenTopic5")
"""The ext fields of the 5.3.3 tool's UPDATE_AND_CREATE_TOPIC in the captures."""


def test_create_topic_round_trip() -> None:
    h = ht.CreateTopicRequestHeader.decode(CREATE)
    assert (h.topic, h.read_queue_nums, h.order, h.force) == ("GoldenTopic5", 4, False, False)
    assert h.attributes == "" and h.topic_sys_flag == 0
    assert h.check().to_ext() == CREATE and h.refusal() is None


def test_create_topic_from_config_is_what_the_java_tool_sends() -> None:
    """One conversion per side: the admin client's header from a TopicConfig is the captured frame's."""
    config = TopicConfig("GoldenTopic5", 4, 4, 6, attributes={})
    h = ht.CreateTopicRequestHeader.from_config(config).check()
    assert h.to_ext() == CREATE
    plain = ht.CreateTopicRequestHeader.from_config(TopicConfig("T4", 8, 8, 6, order=True), "TBW102")
    assert plain.attributes is None and plain.force is None  # a 4.x tool sends neither
    assert plain.to_ext()["order"] == "true" and "attributes" not in plain.to_ext()
    attrs = TopicConfig("T5", 1, 1, 6, attributes={"+message.type": "NORMAL", "-old": ""})
    h5 = ht.CreateTopicRequestHeader.from_config(attrs, force=True)
    assert sorted(h5.attributes.split(",")) == ["+message.type=NORMAL", "-old"] and h5.force is True


def test_create_topic_to_config_keeps_what_java_keeps() -> None:
    """The broker's side: the numbers, the filter type and the flag; order and attributes are not kept."""
    h = ht.CreateTopicRequestHeader.decode(
        {**CREATE, "order": "true", "attributes": "+message.type=NORMAL", "topicSysFlag": "3"}
    )
    assert h.to_config() == TopicConfig("GoldenTopic5", 4, 4, 6, "SINGLE_TAG", 3)
    absent = {k: v for k, v in CREATE.items() if k != "topicSysFlag"}
    assert ht.CreateTopicRequestHeader.decode(absent).to_config().topic_sys_flag == 0


@pytest.mark.parametrize(
    ("config", "text"),
    [
        (TopicConfig("Bad/Name", 4, 4, 6), "illegal characters"),
        (TopicConfig("T", 0, 4, 6), "readQueueNums 0 is out of range"),
        (TopicConfig("T", 4, 4, 9), "topicPermission value: 9 is invalid."),
        (TopicConfig("T", 4, 4, 6, attributes={"+message.type": "MIXED"}), "MIXED message type"),
        (TopicConfig(None, 4, 4, 6), "topic"),
    ],
)
def test_create_topic_from_a_bad_config_is_refused_before_sending(config: TopicConfig, text: str) -> None:
    with pytest.raises(HeaderError) as e:
        ht.CreateTopicRequestHeader.from_config(config).check()
    assert text in e.value.remark


@pytest.mark.parametrize(
    ("over", "code", "text"),
    [
        ({"topic": "Tnl\n"}, ResponseCode.SYSTEM_ERROR, "illegal characters"),
        ({"topic": "a" * 128}, ResponseCode.SYSTEM_ERROR, "longer than topic max length"),
        ({"readQueueNums": "x"}, ResponseCode.SYSTEM_ERROR, 'For input string: "x"'),
        ({"writeQueueNums": "99999999999"}, ResponseCode.SYSTEM_ERROR, "NumberFormatException"),
    ],
)
def test_create_topic_decode_refuses(over: dict[str, str], code: int, text: str) -> None:
    with pytest.raises(HeaderError) as e:
        ht.CreateTopicRequestHeader.decode({**CREATE, **over})
    assert e.value.code == code and text in e.value.remark


@pytest.mark.parametrize(
    ("over", "text"),
    [
        ({"readQueueNums": "-5", "writeQueueNums": "-5"}, "readQueueNums -5 is out of range"),
        ({"readQueueNums": "99999999"}, "readQueueNums 99999999 is out of range"),
        ({"writeQueueNums": "1025"}, "writeQueueNums 1025 is out of range"),
        ({"perm": "8"}, "topicPermission value: 8 is invalid."),
        ({"topicFilterType": "single_tag"}, "No enum constant org.apache.rocketmq.common.TopicFilterType"),
        ({"topicSysFlag": "-1"}, "topicSysFlag value: -1 is invalid."),
        ({"attributes": "+message.type=MIXED"}, "MIXED message type is not supported."),
        ({"attributes": "+a=1,+a=2"}, "key duplication"),
        ({"attributes": "x"}, "delete attribute format is wrong"),
    ],
)
def test_create_topic_numbers_are_checked_on_both_sides(over: dict[str, str], text: str) -> None:
    h = ht.CreateTopicRequestHeader.decode({**CREATE, **over})  # Java's decode takes them ...
    assert text in (h.refusal() or "")  # ... the broker refuses them
    with pytest.raises(HeaderError) as e:  # and the admin client never sends them
        h.check()
    assert e.value.code == ResponseCode.INVALID_PARAMETER and text in e.value.remark


def test_limits() -> None:
    for n in (1, 8, ht.QUEUE_NUMS_MAX):
        assert ht.queue_nums_refusal("readQueueNums", n) is None
    assert ht.topic_config_refusal(1, 1024, 7, "MULTI_TAG", 3) is None
    assert ht.topic_config_refusal(1, 1, 0, None, None) is None


def test_delete_topic_takes_a_long_legal_name_but_no_path() -> None:
    assert ht.DeleteTopicRequestHeader.decode({"topic": "%RETRY%" + "g" * 125}).topic.startswith("%RETRY%")
    for bad in ("../../x", "", " ", "a b"):
        with pytest.raises(HeaderError):
            ht.DeleteTopicRequestHeader.decode({"topic": bad})
        with pytest.raises(HeaderError):
            ht.DeleteTopicRequestHeader(topic=bad).check()


def test_query_consume_queue_defaults_like_java() -> None:
    h = ht.QueryConsumeQueueRequestHeader.decode({"topic": "T"})
    assert (h.queue_id, h.index, h.count, h.consumer_group) == (0, 0, 0, None)


@pytest.mark.parametrize(
    ("key", "value", "text"),
    [
        ("msgTraceTopicName", "RMQ_SYS_TRACE_TOPIC\nconfigBlackList=nothing", "line break"),
        ("a", "b\rc", "line break"),
        ("a", "b\x00", "NUL"),
        ("a", "\ud800", "lone surrogate"),
        ("", "x", "blank"),
        ("a=b", "x", "not a property name"),
        ("a b", "x", "not a property name"),
        ("#a", "x", "not a property name"),
        ("a\nb", "x", "control character"),
    ],
)
def test_config_entries(key: str, value: str, text: str) -> None:
    assert text in (config_entry_refusal(key, value) or "")


def test_config_entries_that_are_fine() -> None:
    for key, value in (("maxMessageSize", "1024"), ("regionId", "a=b: c #d !e \\f\tg"), ("x", "")):
        assert config_entry_refusal(key, value) is None


def test_path_keys_of_both_servers() -> None:
    """One rule names the settings that point at files for the broker and the name server alike."""
    for key in ("storePathRootDir", "kvConfigPath", "configStorePath", "rocketmqHome", "tls.server.keyPath",
                "readOnlyCommitLogStorePaths", "logDir", "backupFolder", "someStoreFile"):  # fmt: skip
        assert is_path_key(key), key
    for key in ("flushLeastPagesWhenWarmMapedFile", "brokerName", "listenPort", "orderMessageEnable"):
        assert not is_path_key(key), key


def test_name_server_values_hold_no_control_character() -> None:
    assert config_entry_refusal("productEnvName", "a\tb") is None
    assert "control character" in (config_entry_refusal("productEnvName", "a\tb", value_controls=True) or "")
