"""Remoting round trips over loopback: requests per second and latency percentiles.

Starts a :class:`RemotingServer` with an echo handler (in a child process by default, so client and
server do not share one CPU) and drives it with one :class:`RemotingClient` keeping N requests in
flight on one connection. Prints one line per in-flight level.

    python bench/bench_remoting.py                      # N = 1, 10, 100, 1000
    python bench/bench_remoting.py -n 100 --requests 200000 --async-handler --same-process
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import time

from mqadmin.protocol.command import RemotingCommand, SerializeType
from mqadmin.remoting.client import Connection, RemotingClient
from mqadmin.remoting.server import RemotingServer

ECHO = 30001
BODY = b'{"topic":"BenchTopic","queueId":0}'


def sync_echo(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    return cmd.response(0, ext_fields=cmd.ext_fields, body=cmd.body)


async def async_echo(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    return cmd.response(0, ext_fields=cmd.ext_fields, body=cmd.body)


async def make_server(async_handler: bool) -> RemotingServer:
    server = RemotingServer(idle_timeout=None)
    server.register_handler(ECHO, async_echo if async_handler else sync_echo)
    await server.start("127.0.0.1", 0)
    return server


def serve_in_child(async_handler: bool, port_out: mp.connection.Connection) -> None:
    async def main() -> None:
        server = await make_server(async_handler)
        port_out.send(server.port)
        await asyncio.Event().wait()

    asyncio.run(main())


async def drive(addr: str, inflight: int, total: int, rocketmq: bool) -> tuple[float, list[float]]:
    """Run ``total`` calls with ``inflight`` concurrent callers; (seconds, per-call latencies)."""
    latencies: list[float] = []
    remaining = total
    ext = {"topic": "BenchTopic", "consumerGroup": "BenchGroup", "queueId": "0"}

    async with RemotingClient() as client:
        await client.invoke(addr, RemotingCommand.request(ECHO), 5.0)  # connect outside the clock

        async def worker() -> None:
            nonlocal remaining
            clock = time.perf_counter
            while remaining > 0:
                remaining -= 1
                cmd = RemotingCommand.request(ECHO, dict(ext), BODY)
                if rocketmq:
                    cmd.serialize_type = SerializeType.ROCKETMQ
                t0 = clock()
                await client.invoke(addr, cmd, 10.0)
                latencies.append(clock() - t0)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(inflight)))
        elapsed = time.perf_counter() - start
    return elapsed, latencies


def percentile(sorted_values: list[float], p: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


async def run(args: argparse.Namespace) -> None:
    server: RemotingServer | None = None
    child: mp.Process | None = None
    if args.same_process:
        server = await make_server(args.async_handler)
        port = server.port
    else:
        recv, send = mp.Pipe(duplex=False)
        child = mp.Process(target=serve_in_child, args=(args.async_handler, send), daemon=True)
        child.start()
        port = recv.recv()
    addr = f"127.0.0.1:{port}"
    mode = "same process" if args.same_process else "server in child process"
    handler = "async" if args.async_handler else "sync"
    serialization = "ROCKETMQ" if args.rocketmq else "JSON"
    print(f"remoting echo over loopback ({mode}, {handler} handler, {serialization} headers)")
    try:
        for inflight in args.inflight:
            total = max(args.requests, inflight * 20)
            elapsed, lat = await drive(addr, inflight, total, args.rocketmq)
            lat.sort()
            print(
                f"in-flight {inflight:5d}: {total / elapsed:9.0f} req/s   "
                f"p50 {percentile(lat, 0.50) * 1e3:7.3f} ms   p99 {percentile(lat, 0.99) * 1e3:7.3f} ms   "
                f"mean {statistics.fmean(lat) * 1e3:7.3f} ms   ({total} calls)"
            )
    finally:
        if server is not None:
            await server.stop()
        if child is not None:
            child.terminate()
            child.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--inflight", type=int, nargs="+", default=[1, 10, 100, 1000])
    parser.add_argument("--requests", type=int, default=50_000, help="calls per in-flight level")
    parser.add_argument("--async-handler", action="store_true", help="async def handler (a task per call)")
    parser.add_argument("--same-process", action="store_true", help="server on the client's event loop")
    parser.add_argument("--rocketmq", action="store_true", help="ROCKETMQ binary headers instead of JSON")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
