"""Every request the recorded tools and clients sent to the Java broker, replayed against ours.

All scenarios of ``../shared/captures`` (4.9.8 and 5.3.3 tools, the C++ client) in file order,
after creating the topics the recorded broker already had. Each answer must match the recorded
one in response code, header members, extFields names, remark, and the kind and top-level members
of its body. The one deliberate difference: GET_TOPIC_CONFIG (351), which a 4.9.8 broker does not
support, is answered as a 5.x broker answers it, so that the 5.3.3 ``topicStatus`` works.
"""

from __future__ import annotations

import asyncio
import json
import struct
from pathlib import Path

from mqadmin.protocol import fastjson, frame
from tests.broker.inproc import running
from tests.captures import pairs, scenarios

BROKER_PORT = 10911
RECORDED_TOPICS = (
    ("GoldenTopic", 4),
    ("GoldenTopic5", 4),
    ("GoldenTopic2", 4),
    ("CppTopic", 2),
    ("T1", 4),
    ("LoadTopic", 8),
)
#: remarks that carry live values (addresses, paths) in either broker
_LIVE_REMARK_CODES = {11}


def _header(raw: bytes) -> dict:
    (mark,) = struct.unpack_from(">i", raw, 4)
    return json.loads(raw[8 : 8 + (mark & 0xFFFFFF)])


def test_recorded_requests_get_java_shaped_answers(tmp_path: Path) -> None:
    async def go() -> list[str]:
        problems: list[str] = []
        checked = 0
        async with running(tmp_path) as env:
            for topic, queues in RECORDED_TOPICS:
                assert (await env.create_topic(topic, queues)).code == 0
            for path in scenarios():
                name = f"{path.parent.name}/{path.name}"
                for req, resp in pairs(name):
                    if req.server_port != BROKER_PORT or req.wire != "c2s" or resp is None:
                        continue
                    code = req.header["code"]
                    answer = await env.client.invoke(env.addr, frame.decode(req.frame), 10)
                    ours, theirs = _header(frame.encode(answer)), resp.header
                    if code == 351:  # answered like a 5.x broker (documented deviation)
                        assert (
                            ours["code"] == 0
                            and json.loads(answer.body)["topicName"] == req.header["extFields"]["topic"]
                        )
                        continue
                    where = f"{name} code {code}"
                    if ours["code"] != theirs["code"]:
                        problems.append(
                            f"{where}: code {ours['code']} != {theirs['code']} ({ours.get('remark')!r})"
                        )
                    if set(ours) != set(theirs):
                        problems.append(f"{where}: header members {sorted(set(ours) ^ set(theirs))}")
                    if set(ours.get("extFields") or {}) != set(theirs.get("extFields") or {}):
                        problems.append(f"{where}: extFields {sorted(ours.get('extFields') or {})}")
                    if code not in _LIVE_REMARK_CODES and ours.get("remark") != theirs.get("remark"):
                        problems.append(f"{where}: remark {ours.get('remark')!r} != {theirs.get('remark')!r}")
                    if bool(answer.body) != bool(resp.body):
                        problems.append(f"{where}: body present {bool(answer.body)}")
                    elif resp.body and code not in (11, 12, 26, 33):
                        a, b = fastjson.loads(answer.body), fastjson.loads(resp.body)
                        if type(a) is not type(b) or (isinstance(a, dict) and set(a) != set(b)):
                            problems.append(
                                f"{where}: body members {sorted(a) if isinstance(a, dict) else a}"
                            )
                    checked += 1
        assert checked >= 100, checked
        return problems

    assert asyncio.run(go()) == []
