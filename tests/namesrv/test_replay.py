"""Every name server request recorded from real RocketMQ, replayed against ours, answers compared.

Two runs, one per recorded name server, each on a fresh name server of ours:

* 5.3.3 (port 9877): the broker's registrations of ``r01_brokerRestart`` first (they are how the
  broker joined that name server), then ``v01`` to ``v27`` in order. Every answer must equal the
  recorded one byte for byte (GET_NAMESRV_CONFIG: the lines of the paths and port we cannot share
  are masked).
* 4.9.8 (port 9876), judged by 5.3.3 behaviour, which is what we implement. The scenarios run in
  the order they happened, told by the broker's DataVersion counter in the registrations: ``s01``
  to ``s30`` (counters up to 6), ``r01`` (the restart at counter 7: TBW102 has perm 7 again from
  ``s31`` on), ``s31`` to ``s38``, then ``c01`` (counter 9). Two registrations happened while
  nothing was recording, and are rebuilt from the recorded ones: the broker's first one (the
  ``s03`` table without GoldenTopic, which ``s03`` creates) and the one that brought CppTopic
  before ``c01`` (the ``c01`` table without the retry topic its consumer creates).
  Where a 4.9.8 name server answers differently from a 5.3.3 one, the recorded answer is turned
  into the 5.3.3 one before comparing: the version field says 479; the TOPIC_NOT_EXIST remark has
  5.3.3's FAQ address; every BrokerData has ``"enableActingMaster":false``; topic lists are
  compared as sets (4.9.8 lists a HashSet, 5.3.3 a ConcurrentHashMap key set); the config text is
  5.3.3's (sorted, 40 settings), so the 21 recorded 4.9.8 settings must be among them.

Broker requests (103, 104) go over one connection that stays open, as the broker's did; every
other recorded connection gets its own. Requests are sent in recorded order, each after the
answer to the previous one; oneway requests must get no answer.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from pathlib import Path

from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.frame import encode
from tests.captures import Frame, captures_dir, load_scenario
from tests.namesrv.support import Reply, Wire, namesrv, run

URL_498 = "http://rocketmq.apache.org/docs/faq/"
URL_533 = "https://rocketmq.apache.org/docs/bestPractice/06FAQ"
MASKED_CONFIG = ("listenPort", "kvConfigPath", "configStorePath", "rocketmqHome")


def _names(version: str, prefix: str) -> list[str]:
    return sorted(p.stem for p in (captures_dir() / f"rocketmq-{version}").glob(f"{prefix}*.jsonl"))


def _order_498() -> list[str]:
    s = _names("4.9.8", "s")
    at = s.index("s31_allocateMQ")
    return [*s[:at], "r01_brokerRestart", *s[at:], "c01_cppClient"]


def _order_533() -> list[str]:
    return ["r01_brokerRestart", *_names("5.3.3", "v")]


def _scenario(name: str, port: int) -> list[Frame]:
    version = "4.9.8" if name[0] in "rcs" else "5.3.3"
    return [f for f in load_scenario(f"rocketmq-{version}/{name}") if f.server_port == port]


def _response_to(frames: list[Frame], i: int) -> Frame | None:
    req = frames[i]
    for g in frames[i + 1 :]:
        if (
            g.dir == "response"
            and g.stream == req.stream
            and g.header.get("opaque") == req.header.get("opaque")
        ):
            return g
    return None


def _rebuilt_registration(name: str, opaque: int, drop: str, counter: int) -> RemotingCommand:
    """A recorded registration with one topic taken out and an earlier DataVersion counter."""
    frames = _scenario(name, 9876)
    req = next(f for f in frames if f.header["code"] == 103 and f.header["opaque"] == opaque)
    body = json.loads(req.body)
    wrapper = body["topicConfigSerializeWrapper"]
    del wrapper["topicConfigTable"][drop]
    wrapper["dataVersion"]["counter"] = counter
    raw = json.dumps(body, separators=(",", ":")).encode()
    ext = dict(req.header["extFields"])
    ext["bodyCrc32"] = str(zlib.crc32(raw) & 0x7FFFFFFF)
    return RemotingCommand(code=103, opaque=900000 + counter, version=409, ext_fields=ext, body=raw)


_ACTING = re.compile(rb'("cluster":"(?:[^"\\]|\\.)*")}')


def _as_533(req: Frame, resp: Frame) -> tuple[str, bytes, str]:
    """The 5.3.3 answer to a request a 4.9.8 name server answered with ``resp``; and how to compare."""
    header = resp.header_raw.replace('"version":409}', '"version":479}').replace(URL_498, URL_533)
    body = resp.body
    code = req.header["code"]
    kind = "bytes"
    if code in (105, 106) and resp.header["code"] == 0:
        body = _ACTING.sub(rb'\1,"enableActingMaster":false}', body)
        kind = "adjusted"
    elif code == 206:
        kind = "set"
    elif code == 319:
        kind = "config"
    elif header != resp.header_raw:
        kind = "adjusted"
    return header, body, kind


def _config_lines(body: bytes) -> dict[str, str]:
    return dict(line.split("=", 1) for line in body.decode().splitlines())


def _compare(req: Frame, got: Reply, expected_header: str, expected_body: bytes, kind: str) -> None:
    what = f"{req.scenario} request {req.header['code']} opaque {req.header['opaque']}"
    assert got.header_raw == expected_header, what
    if kind == "set":
        want = json.loads(expected_body)
        have = json.loads(got.body)
        assert sorted(have["topicList"]) == sorted(want["topicList"]), what
        assert len(have["topicList"]) == len(set(have["topicList"])), what
    elif kind == "config":
        want, have = _config_lines(expected_body), _config_lines(got.body)
        for key, value in want.items():
            assert key in have, f"{what}: {key} missing"
            if key not in MASKED_CONFIG:
                assert have[key] == value, f"{what}: {key}"
        if req.scenario.startswith("rocketmq-5.3.3"):
            assert list(have) == list(want), what  # same keys, same (sorted) order
    else:
        assert got.body == expected_body, f"{what}: {got.body[:300]!r} != {expected_body[:300]!r}"


async def _replay(
    tmp_path: Path, port_recorded: int, order: list[str], counts: Counter[str], **settings: object
) -> None:
    v498 = port_recorded == 9876
    async with namesrv(tmp_path, **settings) as ctl:
        broker = await Wire.open(ctl.port)
        conns: dict[tuple[str, int], Wire] = {}
        try:
            if v498:  # the broker's first registration, from before the recording
                reply = await broker.call(_rebuilt_registration("s03_updateTopic", 108, "GoldenTopic", 3))
                assert reply.code == 0
            for name in order:
                if v498 and name == "c01_cppClient":  # the registration that brought CppTopic
                    reply = await broker.call(_rebuilt_registration(name, 34, "%RETRY%CppGoldenCG", 8))
                    assert reply.code == 0
                frames = _scenario(name, port_recorded)
                for i, req in enumerate(frames):
                    if req.dir != "request":
                        continue
                    code = req.header["code"]
                    if code in (103, 104):
                        conn = broker
                    else:
                        key = (name, req.stream)
                        if key not in conns:
                            conns[key] = await Wire.open(ctl.port)
                        conn = conns[key]
                    counts["requests"] += 1
                    await conn.send(req.frame)
                    resp = _response_to(frames, i)
                    if req.header.get("flag", 0) & 2:
                        assert resp is None
                        counts["oneway (no answer)"] += 1
                        continue
                    assert resp is not None, f"{name}: no recorded answer to {req.header}"
                    got = await conn.recv_opaque(req.header["opaque"])
                    if v498:
                        header, body, kind = _as_533(req, resp)
                    else:
                        header, body = resp.header_raw, resp.body
                        kind = "config" if code == 319 else "bytes"
                    _compare(req, got, header, body, kind)
                    counts[
                        {
                            "bytes": "byte-equal",
                            "adjusted": "byte-equal to the 5.3.3 form",
                            "set": "equal as a set",
                            "config": "equal, paths and port masked",
                        }[kind]
                    ] += 1
            # a oneway request must not have been answered: nothing arrives on the broker connection
            probe = RemotingCommand(code=106, opaque=999999, version=479)
            reply = await broker.call(encode(probe))
            assert reply.header["opaque"] == 999999 and not broker._early
        finally:
            await broker.close()
            for w in conns.values():
                await w.close()


def test_replay_5_3_3_captures(tmp_path: Path) -> None:
    counts: Counter[str] = Counter()
    run(
        _replay(
            tmp_path,
            9877,
            _order_533(),
            counts,
            rocketmq_home="/opt/rocketmq-5.3.3",
            file_properties={"rocketmqHome": "/opt/rocketmq-5.3.3", "bindAddress": "127.0.0.1"},
        )
    )
    print("\n5.3.3 name server replay:", dict(counts))
    assert counts == {
        "requests": 79,
        "byte-equal": 77,
        "equal, paths and port masked": 1,
        "oneway (no answer)": 1,
    }


def test_replay_4_9_8_captures_as_5_3_3(tmp_path: Path) -> None:
    counts: Counter[str] = Counter()
    run(_replay(tmp_path, 9876, _order_498(), counts, rocketmq_home="/opt/rocketmq-4.9.8"))
    print("\n4.9.8 name server replay (judged as 5.3.3):", dict(counts))
    assert counts == {
        "requests": 127,
        "byte-equal to the 5.3.3 form": 122,
        "equal as a set": 3,
        "equal, paths and port masked": 1,
        "oneway (no answer)": 1,
    }
