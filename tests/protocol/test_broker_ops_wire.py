"""Bodies and headers of the 5.x broker operations against the recorded frames, and their decoders on
hostile input (our error, never another exception).

x04_setConsumeMode's request body is what our admin client writes, byte for byte; the answers our
broker gives (CHECK_ROCKSDB_CQ_WRITE_PROGRESS, GET_ALL_MESSAGE_REQUEST_MODE) are fastjson's text of
Java's classes; x03_exportPopRecord's answer has the remark our broker gives.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqadmin.protocol.bodies.request_mode import (
    CheckRocksdbCqWriteResult,
    MessageRequestModeWrapper,
    SetMessageRequestModeRequestBody,
)
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.broker_ops import (
    CheckRocksdbCqWriteProgressRequestHeader,
    ExportRocksDBConfigToJsonRequestHeader,
    RemoveBrokerRequestHeader,
    ResetMasterFlushOffsetHeader,
    config_types,
)
from tests.captures import load_scenario

V533 = "rocketmq-5.3.3"


def test_set_consume_mode_body_is_the_recorded_one() -> None:
    sent = next(f for f in load_scenario(f"{V533}/x04_setConsumeMode") if f.header.get("code") == 401)
    ours = SetMessageRequestModeRequestBody("GoldenTopic5", "G5", "POP", 2).encode()
    assert ours == sent.body
    assert SetMessageRequestModeRequestBody.decode(sent.body) == SetMessageRequestModeRequestBody(
        "GoldenTopic5", "G5", "POP", 2
    )


def test_pop_record_answer_remark() -> None:
    frames = load_scenario(f"{V533}/x03_exportPopRecord")
    req = next(f for f in frames if f.header.get("code") == 200056)
    resp = next(
        f
        for f in frames
        if f.dir == "response" and f.stream == req.stream and f.header["opaque"] == req.header["opaque"]
    )
    assert (resp.header["code"], resp.header["remark"]) == (0, "not set any response code")


def test_answers_as_fastjson_writes_them() -> None:
    assert CheckRocksdbCqWriteResult(2).encode() == b'{"checkStatus":2}'
    assert CheckRocksdbCqWriteResult(1, "x").encode() == b'{"checkResult":"x","checkStatus":1}'
    table = MessageRequestModeWrapper({"T": {"G": SetMessageRequestModeRequestBody("T", "G", "PULL", 0)}})
    text = (
        b'{"messageRequestModeMap":{"T":{"G":{"consumerGroup":"G","mode":"PULL","popShareQueueNum":0,'
        b'"topic":"T"}}}}'
    )
    assert table.encode() == text
    assert MessageRequestModeWrapper.decode(text) == table
    assert MessageRequestModeWrapper.decode(b"{}") == MessageRequestModeWrapper()


def test_headers_as_java_sends_them() -> None:
    assert ResetMasterFlushOffsetHeader(master_flush_offset=7).to_ext() == {"masterFlushOffset": "7"}
    hdr = RemoveBrokerRequestHeader(broker_name="b", broker_cluster_name="c", broker_id=1)
    assert hdr.to_ext() == {"brokerName": "b", "brokerClusterName": "c", "brokerId": "1"}
    assert config_types(" Topics ;consumerOffsets;;") == ["topics", "consumerOffsets"]
    with pytest.raises(ValueError, match="Unknown config type: tables"):
        config_types("tables")
    with pytest.raises(HeaderError):
        ExportRocksDBConfigToJsonRequestHeader.decode({"configType": "topics;tables"})
    assert CheckRocksdbCqWriteProgressRequestHeader.decode({"topic": ""}).check_store_time == 0
    with pytest.raises(HeaderError):
        CheckRocksdbCqWriteProgressRequestHeader.decode({"topic": "a/b"})


_SET = SetMessageRequestModeRequestBody.decode
_ALL = MessageRequestModeWrapper.decode


@pytest.mark.parametrize(
    ("decode", "body"),
    [
        (_SET, b'{"topic":"T","consumerGroup":"G","mode":"PUSH"}'),
        (_SET, b'{"topic":"T","consumerGroup":"G","popShareQueueNum":2147483648}'),
        (_SET, b'{"topic":1,"consumerGroup":"G"}'),
        (_SET, b"[]"),
        (_SET, b""),
        (_ALL, b'{"messageRequestModeMap":{"T":{"G":{"mode":"POP","popShareQueueNum":"x"}}}}'),
        (_ALL, b'{"messageRequestModeMap":{"T":[]}}'),
        (_ALL, b'{"messageRequestModeMap":7}'),
    ],
)
def test_bad_bodies_refused(decode, body: bytes) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProtocolError):
        decode(body)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=100).map(str.encode))
def test_decoders_raise_only_our_error(data: bytes) -> None:
    for decode in (
        SetMessageRequestModeRequestBody.decode,
        MessageRequestModeWrapper.decode,
        CheckRocksdbCqWriteResult.decode,
    ):
        try:
            decode(data)
        except ProtocolError:
            pass
