"""Java text conventions: commons-cli help layout, number formatting, fastjson pretty printing."""

from __future__ import annotations

import pytest

from mqadmin.cli.javahelp import render_help
from mqadmin.cli.javaopts import HELP, NAMESRV, JavaOpt
from mqadmin.cli.javatext import (
    Bean,
    JavaSet,
    fastjson_compact,
    fastjson_pretty,
    java_f,
    java_map_string,
    to_float32,
)
from mqadmin.cli.routeview import route_bean
from mqadmin.protocol.bodies.route import TopicRouteData
from tests.captures import captures_dir, pairs

UPDATE_TOPIC = """\
usage: mqadmin updateTopic [-a <arg>] -b <arg> | -c <arg>  [-h] [-n <arg>] [-o <arg>] [-p <arg>] [-r <arg>]
       [-s <arg>] -t <arg> [-u <arg>] [-w <arg>]
 -a,--attributes <arg>       attribute(+a=b,+c=d,-e)
 -b,--brokerAddr <arg>       create topic to which broker
 -c,--clusterName <arg>      create topic to which cluster
 -h,--help                   Print help
 -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'
 -o,--order <arg>            set topic's order(true|false)
 -p,--perm <arg>             set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]
 -r,--readQueueNums <arg>    set read queue nums
 -s,--hasUnitSub <arg>       has unit sub (true|false)
 -t,--topic <arg>            topic name
 -u,--unit <arg>             is unit topic (true|false)
 -w,--writeQueueNums <arg>   set write queue nums
"""

UPDATE_SUB_GROUP_TAIL = """\
 -p,--groupRetryPolicy <arg>               the json string of retry policy ( exp:
                                           {"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max
                                           ":7200000,"multiplier":2}}
                                           {"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,100
                                           00]}} )
"""


def test_option_group_and_wrapped_usage() -> None:
    opts = [
        HELP,
        NAMESRV,
        JavaOpt("b", "brokerAddr", "create topic to which broker", group="bc", group_required=True),
        JavaOpt("c", "clusterName", "create topic to which cluster", group="bc", group_required=True),
        JavaOpt("a", "attributes", "attribute(+a=b,+c=d,-e)"),
        JavaOpt("t", "topic", "topic name", required=True),
        JavaOpt("r", "readQueueNums", "set read queue nums"),
        JavaOpt("w", "writeQueueNums", "set write queue nums"),
        JavaOpt("p", "perm", "set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]"),
        JavaOpt("o", "order", "set topic's order(true|false)"),
        JavaOpt("u", "unit", "is unit topic (true|false)"),
        JavaOpt("s", "hasUnitSub", "has unit sub (true|false)"),
    ]
    assert render_help("updateTopic", opts) == UPDATE_TOPIC


def test_long_description_wraps_like_commons_cli() -> None:
    policy = (
        "the json string of retry policy ( exp: "
        '{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2}} '
        '{"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,10000]}} )'
    )
    opts = [HELP, JavaOpt("w", "whichBrokerWhenConsumeSlowly", "x"), JavaOpt("p", "groupRetryPolicy", policy)]
    text = render_help("updateSubGroup", opts)
    assert UPDATE_SUB_GROUP_TAIL in text


@pytest.mark.parametrize(
    ("x", "n", "width", "expected"),
    [
        (0.125, 2, 0, "0.13"),
        (1.005, 2, 0, "1.01"),
        (0.15, 1, 0, "0.2"),
        (to_float32(0.35), 1, 0, "0.3"),
        (-0.0, 2, 0, "-0.00"),
        (0.29976019184652275, 2, 9, "     0.30"),
        (0.25, 4, 0, "0.2500"),
        (498685.0581, 2, 2, "498685.06"),
        (float("nan"), 2, 0, "NaN"),
        (float("inf"), 2, 0, "Infinity"),
    ],
)
def test_java_float_format(x: float, n: int, width: int, expected: str) -> None:
    assert java_f(x, n, width) == expected


def test_map_to_string_and_compact() -> None:
    assert java_map_string([(0, "a:1"), (1, "b:2")]) == "{0=a:1, 1=b:2}"
    assert java_map_string([]) == "{}"
    assert fastjson_compact(Bean(b=1, a=None, c=JavaSet(["x"]))) == '{"b":1,"c":["x"]}'


def test_pretty_printer_on_the_recorded_route() -> None:
    """The 5.3.3 route answer, decoded and printed, is the Java tool's output (v02)."""
    (_, resp), *_ = [(q, r) for q, r in pairs("rocketmq-5.3.3/v02_topicRoute") if q.header["code"] == 105]
    assert resp is not None
    text = fastjson_pretty(route_bean(TopicRouteData.decode(resp.body))) + "\n"
    assert text.encode() == (captures_dir() / "rocketmq-5.3.3" / "v02_topicRoute.out").read_bytes()


def test_pretty_printer_shapes() -> None:
    assert fastjson_pretty(Bean(a=[], b={}, c=Bean())) == '{\n\t"a":[],\n\t"b":{},\n\t"c":{\n\t\t\n\t}\n}'
    assert fastjson_pretty({1: "x", 2: "y"}) == '{1:"x",2:"y"\n}'
    assert fastjson_pretty(["a"]) == '[\n\t"a"\n]'
