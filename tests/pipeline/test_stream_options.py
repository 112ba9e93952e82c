"""The stream source's and the sink's options, and the read-limit arithmetic (no network, no Spark).

Each accepted form beside the bad ones it must refuse with a message naming the option.
"""

from __future__ import annotations

import json

import pytest

from mqadmin.pipeline.stream.offsets import cap, flat, nest, total_backlog
from mqadmin.pipeline.stream.options import OptionError, StreamOptions, parse_start
from mqadmin.pipeline.stream.sink import SinkOptions, uniq_key

NS = {"namesrv": "127.0.0.1:9876"}


def test_options_parse() -> None:
    o = StreamOptions.parse(
        {**NS, "topics": "A, B,A", "startingOffsets": "earliest", "maxOffsetsPerTrigger": "100",
         "failOnDataLoss": "false", "subExpression": "TagA || TagB", "group": "G", "maxTriggerDelay": "500ms"}
    )  # fmt: skip
    assert o.topics == ("A", "B") and o.start == "earliest" and o.max_per_trigger == 100
    assert not o.fail_on_data_loss and o.sub_expression == "TagA || TagB" and o.group == "G"
    assert o.max_trigger_delay_s == 0.5
    assert StreamOptions.parse({**NS, "topicPattern": "Ord.*"}).pattern == "Ord.*"
    stamped = StreamOptions.parse({**NS, "topics": "A", "startingTimestamp": "1700000000000"})
    assert stamped.start == 1700000000000
    assert StreamOptions.parse({**NS, "topics": "A", "checkpointLocation": "/x"}).start == "latest"
    assert StreamOptions.parse({**NS, "topics": "A"}).min_partitions is None
    assert StreamOptions.parse({**NS, "topics": "A", "minPartitions": "8"}).min_partitions == 8


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"topics": "A"}, "namesrv"),
        ({**NS}, "exactly one of the options topics"),
        ({**NS, "topics": "A", "topicPattern": "A"}, "exactly one"),
        ({**NS, "topics": " , "}, "topics is empty"),
        ({**NS, "topics": "bad topic!"}, "bad topic!"),
        ({**NS, "topicPattern": "(["}, "not a regular expression"),
        ({**NS, "topics": "A", "startingOffsets": "{nope"}, "is not earliest, latest or JSON"),
        ({**NS, "topics": "A", "startingOffsets": '{"A": {"broker-a": 1}}'}, "is not broker:queueId"),
        ({**NS, "topics": "A", "startingOffsets": '{"A": {"broker-a:0": -7}}'}, "the offset of A"),
        ({**NS, "topics": "A", "startingOffsets": '{"A": {"broker-a:0": "1"}}'}, "the offset of A"),
        ({**NS, "topics": "A", "startingOffsets": '{"B": {"broker-a:0": 1}}'}, "not in option topics"),
        ({**NS, "topics": "A", "startingOffsets": "[1]"}, "startingOffsets JSON must be"),
        ({**NS, "topics": "A", "startingTimestamp": "soon"}, "startingTimestamp"),
        ({**NS, "topics": "A", "startingTimestamp": "1", "startingOffsets": "earliest"}, "not both"),
        ({**NS, "topics": "A", "endingOffsets": "latest"}, "endingOffsets is for batch reads"),
        ({**NS, "topics": "A", "maxOffsetsPerTrigger": "ten"}, "maxoffsetspertrigger must be a whole number"),
        ({**NS, "topics": "A", "minPartitions": "0"}, "minpartitions must be at least 1"),
        ({**NS, "topics": "A", "maxOffsetsPerTrigger": "0"}, "at least 1"),
        ({**NS, "topics": "A", "minOffsetsPerTrigger": "9", "maxOffsetsPerTrigger": "3"}, "is above"),
        ({**NS, "topics": "A", "failOnDataLoss": "yes"}, "true or false"),
        ({**NS, "topics": "A", "maxTriggerDelay": "-1s"}, "maxTriggerDelay"),
        ({**NS, "topics": "A", "group": "bad group!"}, "group"),
        ({**NS, "topics": "A", "accessKey": "ak"}, "accessKey and secretKey go together"),
        ({**NS, "topics": "A", "topicz": "B"}, "unknown option(s) of the rocketmq stream source: topicz"),
        ({"namesrv": "nohost", "topics": "A"}, "is not host:port"),
    ],
)
def test_bad_options_are_named(options: dict[str, str], said: str) -> None:
    with pytest.raises(OptionError) as e:
        StreamOptions.parse(options)
    assert said in str(e.value)


def test_starting_offsets_json() -> None:
    nested = {"A": {"broker-a:0": 5, "broker-b:1": -2}}
    assert parse_start(json.dumps(nested)) == nested
    assert parse_start(None) == "latest"


def test_cap_shares_the_limit_by_backlog() -> None:
    start = {("T", "b:0"): 0, ("T", "b:1"): 10, ("T", "b:2"): 5}
    end = {("T", "b:0"): 100, ("T", "b:1"): 20, ("T", "b:2"): 5}
    cap(start, end, 11)
    assert total_backlog(start, end) == 11
    assert end[("T", "b:0")] - 0 == 10 and end[("T", "b:1")] - 10 == 1 and end[("T", "b:2")] == 5
    unchanged = dict(end)
    cap(start, unchanged, 1000)
    assert unchanged == end


def test_cap_of_one_still_moves() -> None:
    start = {("T", f"b:{i}"): 0 for i in range(8)}
    end = {k: 3 for k in start}
    cap(start, end, 1)
    assert total_backlog(start, end) == 1


def test_offsets_round_trip() -> None:
    nested = {"A": {"b:0": 1, "b:1": 2}, "B": {"c:0": 3}}
    assert nest(flat(nested).items()) == nested


def test_sink_options_and_keys() -> None:
    o = SinkOptions.parse({**NS, "topic": "Out", "batchSize": "64", "maxInFlight": "4", "retries": "0"})
    assert (o.topic, o.batch_size, o.max_in_flight, o.retries) == ("Out", 64, 4, 0)
    k = uniq_key("q", 3, 1, 7)
    assert k == uniq_key("q", 3, 1, 7) and len(k) == 32 and k == k.upper()
    assert len({uniq_key("q", 3, 1, r) for r in range(1000)} | {uniq_key("q", 4, 1, 7)}) == 1001


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"topic": "Out"}, "namesrv"),
        ({**NS, "topic": "Out", "batchsize": "0"}, "batchsize must be at least 1"),
        ({**NS, "topic": "Out", "retries": "-1"}, "retries must be at least 0"),
        ({**NS, "topic": "a b"}, "topic 'a b'"),
        ({**NS, "topic": "Out", "partitions": "3"}, "unknown option(s) of the rocketmq sink: partitions"),
    ],
)
def test_bad_sink_options(options: dict[str, str], said: str) -> None:
    with pytest.raises(OptionError) as e:
        SinkOptions.parse(options)
    assert said in str(e.value)
