"""Real peers for the group and offset command tests, all over loopback.

- :class:`Cluster`: our name server and development broker as processes (``tests.servers``),
  and the installed ``mqadmin`` run against them as a subprocess.
- :func:`produce` / :func:`consume`: the Apache RocketMQ C++ client sending and consuming (a consume
  run ends when it has what it expects; its shutdown commits the offsets).
- :class:`OnlineConsumer`: a C++ push consumer kept running in the background.
- :class:`HeartbeatClient`: our own client keeping a producer or consumer group registered on the
  broker (a HEART_BEAT on a connection held open), for connection and producer listings.
- :func:`request`: one request with our remoting client, to set up or check state directly.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from mqadmin.protocol import fastjson
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import RemotingClient
from tests import servers
from tests.broker.peers import call, cpp, cpp_start
from tests.cli_harness import Result, clean_env, run_mqadmin

JAVA_BROKER = "127.0.0.1:10911"


class Cluster(servers.Cluster):
    """A name server and a broker (cluster ``DefaultCluster``, broker ``broker-a``) of our own."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        home = workdir / "home"
        (home / "conf").mkdir(parents=True, exist_ok=True)
        self.cwd = workdir / "cwd"
        self.cwd.mkdir(exist_ok=True)
        self.env = clean_env(home, workdir / "config")

    @property
    def namesrv(self) -> str:
        return self.ns.addr

    @property
    def addr(self) -> str:
        return self.broker.addr

    def mqadmin(self, *args: str, timeout: float = 60) -> Result:
        """``mqadmin ARGS -n <our name server>`` (``-n`` added unless given)."""
        argv = list(args)
        if "-n" not in argv and argv and not argv[0].startswith("-"):
            argv[1:1] = ["-n", self.namesrv]
        return run_mqadmin(argv, self.env, timeout=timeout, cwd=self.cwd)

    def json(self, *args: str) -> Any:
        r = self.mqadmin(*args, "--json")
        assert r.code == 0, (r.code, r.err)
        return json.loads(r.out)

    def java(self, text: str) -> str:
        """Our output with our broker's address written as the recorded Java broker's."""
        return text.replace(self.addr, JAVA_BROKER)

    # ---------------------------------------------------------------- state, set up and read directly

    def request(
        self, code: int, fields: dict[str, str] | None = None, body: bytes | None = None
    ) -> RemotingCommand:
        return call(self.addr, RemotingCommand.request(code, fields, body))

    def create_topic(self, topic: str, queues: int = 4) -> None:
        r = self.mqadmin("updateTopic", "-b", self.addr, "-t", topic, "-r", str(queues), "-w", str(queues))
        assert r.code == 0, r.err

    def topic_names_on_broker(self) -> set[str]:
        resp = self.request(21)
        return set(fastjson.loads(resp.body or b"{}").get("topicConfigTable", {}))

    def groups_on_broker(self) -> dict[str, Any]:
        resp = self.request(201)
        return dict(fastjson.loads(resp.body or b"{}").get("subscriptionGroupTable", {}))

    def committed(self, group: str, topic: str, queue_id: int) -> int:
        """The group's committed offset on one queue, from the broker's offset table (-1: none)."""
        resp = self.request(43)
        table = fastjson.loads(resp.body or b"{}").get("offsetTable", {})
        return int(table.get(f"{topic}@{group}", {}).get(queue_id, -1))

    def commit(self, group: str, topic: str, queue_id: int, offset: int) -> None:
        fields = {
            "consumerGroup": group,
            "topic": topic,
            "queueId": str(queue_id),
            "commitOffset": str(offset),
        }
        assert self.request(15, fields).code == 0

    def max_offset(self, topic: str, queue_id: int) -> int:
        resp = self.request(30, {"topic": topic, "queueId": str(queue_id)})
        return int((resp.ext_fields or {})["offset"])

    def search_offset(self, topic: str, queue_id: int, timestamp: int) -> int:
        resp = self.request(29, {"topic": topic, "queueId": str(queue_id), "timestamp": str(timestamp)})
        return int((resp.ext_fields or {})["offset"])

    def in_route(self, topic: str) -> bool:
        resp = call(self.namesrv, RemotingCommand.request(105, {"topic": topic}))
        return resp.code == 0

    def produce(self, topic: str, count: int, group: str = "CppTestPG") -> list[dict[str, Any]]:
        return produce(self.namesrv, topic, count, group)

    def consume(self, topic: str, group: str, expect: int) -> list[dict[str, Any]]:
        return consume(self.namesrv, topic, group, expect)


def produce(namesrv: str, topic: str, count: int, group: str = "CppTestPG") -> list[dict[str, Any]]:
    """Send ``count`` messages with the C++ producer; the sent events."""
    events = cpp("produce", namesrv, topic, str(count), "--group", group)
    sent = [e for e in events if e.get("event") == "sent"]
    assert len(sent) == count, events[-3:]
    return sent


def consume(namesrv: str, topic: str, group: str, expect: int) -> list[dict[str, Any]]:
    """Consume until ``expect`` messages came, then shut down (committing the offsets)."""
    events = cpp(
        "consume", namesrv, topic, group, "--expect", str(expect), "--timeout", "40", "--idle", "0.5"
    )
    got = [e for e in events if e.get("event") == "recv"]
    assert len({(e["msg_id"], e["body"]) for e in got}) >= expect, events[-3:]
    return got


class OnlineConsumer:
    """A C++ push consumer running in the background until :meth:`stop`."""

    def __init__(self, namesrv: str, topic: str, group: str, expect: int) -> None:
        self.proc = cpp_start(
            "consume", namesrv, topic, group, "--expect", str(expect), "--timeout", "120", "--idle", "110"
        )
        self._lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.append(line)

    def received(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in list(self._lines) if x.startswith("{") and '"recv"' in x]

    def wait_received(self, n: int, timeout: float = 30) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.received()
            if len(got) >= n:
                return got
            time.sleep(0.1)
        raise AssertionError(f"the consumer received {len(self.received())} messages, not {n}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class HeartbeatClient:
    """Our client registering producer and consumer groups on the broker, for as long as it lives."""

    def __init__(
        self,
        broker: str,
        client_id: str,
        producer_groups: tuple[str, ...] = (),
        consumer_groups: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        body = {
            "clientID": client_id,
            "producerDataSet": [{"groupName": g} for g in producer_groups],
            "consumerDataSet": [
                {
                    "groupName": g,
                    "consumeType": "CONSUME_PASSIVELY",
                    "messageModel": "CLUSTERING",
                    "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                    "unitMode": False,
                    "subscriptionDataSet": [
                        {"topic": t, "subString": "*", "tagsSet": [], "codeSet": [], "subVersion": 1}
                    ],
                }
                for g, t in consumer_groups
            ],
        }
        self.client = RemotingClient()
        cmd = RemotingCommand.request(34, None, json.dumps(body).encode())
        resp = asyncio.run_coroutine_threadsafe(self.client.invoke(broker, cmd, 10.0), self.loop).result(15)
        assert resp.code == 0, resp.remark

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.client.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
