"""Header and frame codec speed: operations per second for the sans-IO protocol layer.

Headers: a small request (GET_ROUTEINFO_BY_TOPIC), a wide one (PULL_MESSAGE, 15 ext fields) and
a bare response, each in JSON and ROCKETMQ serialization; the same two requests' typed headers
read from and written to ext fields (``decode``, ``check`` + ``to_ext``). Frames: a stream of whole
frames fed to :class:`FrameDecoder` in socket-sized chunks. Route bodies: a TopicRouteData of one and of three
brokers, encoded in the standard and the legacy form and decoded.

    PYTHONPATH=. python bench/bench_codec.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.protocol.frame import FrameDecoder, encode
from mqadmin.protocol.header import (
    decode_binary_header,
    decode_json_header,
    encode_binary_header,
    encode_json_header,
)


def sample_commands() -> dict[str, RemotingCommand]:
    route = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "TopicTest"})
    pull = RemotingCommand.request(
        RequestCode.PULL_MESSAGE,
        {
            "consumerGroup": "please_rename_unique_group_name",
            "topic": "TopicTest",
            "queueId": "3",
            "queueOffset": "123456",
            "maxMsgNums": "32",
            "sysFlag": "3",
            "commitOffset": "123400",
            "suspendTimeoutMillis": "15000",
            "subscription": "*",
            "subVersion": "1718000000000",
            "expressionType": "TAG",
            "maxMsgBytes": "2147483647",
            "bname": "broker-a",
            "lo": "true",
            "AccessKey": "rocketmq2",
        },
    )
    response = route.response(0)
    return {"route request": route, "pull request": pull, "response": response}


def in_serialization(cmd: RemotingCommand, st: SerializeType) -> RemotingCommand:
    """The same command in another header serialization."""
    return RemotingCommand(
        code=cmd.code,
        opaque=cmd.opaque,
        flag=cmd.flag,
        language=cmd.language,
        version=cmd.version,
        remark=cmd.remark,
        ext_fields=cmd.ext_fields,
        body=cmd.body,
        serialize_type=st,
    )


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``fn``, timed in batches until ``seconds`` have passed."""
    batch = 1000
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(batch):
            fn()
        calls += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args()
    t = args.seconds

    print("headers (operations/second)")
    for name, cmd in sample_commands().items():
        js = encode_json_header(cmd)
        binary_cmd = in_serialization(cmd, SerializeType.ROCKETMQ)
        bn = encode_binary_header(binary_cmd)
        print(
            f"  {name:14s} JSON     encode {rate(lambda c=cmd: encode_json_header(c), t):10.0f}"
            f"   decode {rate(lambda b=js: decode_json_header(b), t):10.0f}   ({len(js)} bytes)"
        )
        print(
            f"  {name:14s} ROCKETMQ encode {rate(lambda c=binary_cmd: encode_binary_header(c), t):10.0f}"
            f"   decode {rate(lambda b=bn: decode_binary_header(b), t):10.0f}   ({len(bn)} bytes)"
        )

    bench_typed_headers(t)

    print("frames (frames/second: encode, and decode through FrameDecoder.feed in 64 KiB chunks)")
    for name, base in sample_commands().items():
        for st in (SerializeType.JSON, SerializeType.ROCKETMQ):
            cmd = in_serialization(base, st)
            frame = encode(cmd)
            count = max(1, (1 << 20) // len(frame))  # about 1 MiB of frames per pass
            stream = frame * count
            chunks = [stream[i : i + 65536] for i in range(0, len(stream), 65536)]

            def feed_all(chunks: list[bytes] = chunks, count: int = count) -> None:
                decoder = FrameDecoder()
                n = 0
                for chunk in chunks:
                    n += len(decoder.feed(chunk))
                assert n == count

            decoded = rate_passes(feed_all, t) * count
            encoded = rate(lambda c=cmd: encode(c), t)
            print(
                f"  {name:14s} {st.value:8s} encode {encoded:10.0f}   decode {decoded:10.0f}"
                f"   ({len(frame)} bytes)"
            )
    bench_routes(t)


def bench_typed_headers(t: float) -> None:
    from mqadmin.protocol.headers.message import PullMessageRequestHeader
    from mqadmin.protocol.headers.namesrv.route import GetRouteInfoRequestHeader

    print("typed headers (operations/second)")
    samples = sample_commands()
    for name, kind in (
        ("route request", GetRouteInfoRequestHeader),
        ("pull request", PullMessageRequestHeader),
    ):
        ext = {k: v for k, v in (samples[name].ext_fields or {}).items() if k != "AccessKey"}
        header = kind.decode(ext)
        assert header.to_ext() == ext, (header.to_ext(), ext)
        print(
            f"  {name:14s} decode {rate(lambda e=ext, k=kind: k.decode(e), t):10.0f}"
            f"   check+to_ext {rate(lambda h=header: h.check().to_ext(), t):10.0f}   ({len(ext)} fields)"
        )


def sample_routes() -> dict[str, object]:
    from mqadmin.protocol.bodies import BrokerData, QueueData, TopicRouteData

    def route(brokers: int) -> TopicRouteData:
        names = [f"broker-{chr(97 + i)}" for i in range(brokers)]
        return TopicRouteData(
            broker_datas=[
                BrokerData(
                    cluster="DefaultCluster",
                    broker_name=n,
                    broker_addrs={0: f"10.0.0.{i + 1}:10911", 1: f"10.0.1.{i + 1}:10911"},
                )
                for i, n in enumerate(names)
            ],
            queue_datas=[
                QueueData(broker_name=n, read_queue_nums=8, write_queue_nums=8, perm=6, topic_sys_flag=0)
                for n in names
            ],
            filter_server_table={},
        )

    return {"route, 1 broker": route(1), "route, 3 brokers": route(3)}


def bench_routes(t: float) -> None:
    from mqadmin.protocol.bodies import TopicRouteData

    print("route bodies (operations/second)")
    for name, r in sample_routes().items():
        std = r.encode(True)  # type: ignore[attr-defined]
        legacy = r.encode(False)  # type: ignore[attr-defined]
        print(
            f"  {name:17s} encode standard {rate(lambda r=r: r.encode(True), t):9.0f}"  # type: ignore[attr-defined]
            f"   legacy {rate(lambda r=r: r.encode(False), t):9.0f}"  # type: ignore[attr-defined]
            f"   decode {rate(lambda b=std: TopicRouteData.decode(b), t):9.0f}"
            f"   legacy decode {rate(lambda b=legacy: TopicRouteData.decode(b), t):9.0f}   ({len(std)} bytes)"
        )


def rate_passes(fn: Callable[[], object], seconds: float) -> float:
    """Like :func:`rate` for calls that are themselves long (one pass over a whole stream)."""
    calls = 0
    start = time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


if __name__ == "__main__":
    main()
