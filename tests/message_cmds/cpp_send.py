"""Sends messages with the Apache RocketMQ C++ client (PyPI ``rocketmq`` 0.4.4), in its own process.

Usage: ``cpp_send.py NAMESRV SPEC_JSON``. SPEC_JSON is a list of sends, each
``{"topic": T, "tags": str?, "keys": str?, "props": {k: v}?, "body": str | {"repeat": str, "times": n},
"batch": [<same fields>]?}``. Prints one JSON line per send: ``{"status", "msg_id", "offset"}`` and a
final ``{"event": "done"}``; a crash of the native library fails the caller, not the test runner.
"""

from __future__ import annotations

import json
import sys


def _body(spec: dict) -> bytes:
    body = spec.get("body", "")
    if isinstance(body, dict):
        body = body["repeat"] * int(body["times"])
    return body.encode("utf-8")


def _message(msg_cls: type, spec: dict, topic: str) -> object:
    msg = msg_cls(topic)
    if spec.get("tags"):
        msg.set_tags(spec["tags"])
    if spec.get("keys"):
        msg.set_keys(spec["keys"])
    for k, v in (spec.get("props") or {}).items():
        msg.set_property(k, v)
    msg.set_body(_body(spec))
    return msg


def main() -> int:
    from rocketmq.client import Message, Producer

    namesrv, specs = sys.argv[1], json.loads(sys.argv[2])
    producer = Producer("CppMsgCmdsPG", timeout=5000)
    producer.set_namesrv_addr(namesrv)
    producer.start()
    try:
        for spec in specs:
            topic = spec["topic"]
            if "batch" in spec:
                result = producer.send_batch([_message(Message, s, topic) for s in spec["batch"]])
            else:
                result = producer.send_sync(_message(Message, spec, topic))
            sys.stdout.write(
                json.dumps({"status": result.status.name, "msg_id": result.msg_id, "offset": result.offset})
                + "\n"
            )
            sys.stdout.flush()
    finally:
        producer.shutdown()
    sys.stdout.write(json.dumps({"event": "done"}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
