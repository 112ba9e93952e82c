"""The Apache RocketMQ C++ client (PyPI ``rocketmq`` 0.4.4) consuming with ACL credentials.

Run in its own process (a crash of the native library must not take the test runner down):

    acl_cpp_consume.py NS TOPIC GROUP EXPECT TIMEOUT_S ACCESS_KEY SECRET_KEY

A push consumer signs every request (heartbeat, pull, offsets) with
``set_session_credentials(ak, sk, "ALIYUN")``. One JSON object a line on stdout: ``{"event": "recv",
"body": ...}`` per message, then ``{"event": "done", "received": N}`` once EXPECT messages came or
TIMEOUT_S passed.
"""

from __future__ import annotations

import json
import sys
import threading
import time


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def main() -> int:
    from rocketmq.client import PushConsumer

    namesrv, topic, group, expect, timeout, access_key, secret_key = sys.argv[1:8]
    bodies: set[str] = set()
    lock = threading.Lock()
    enough = threading.Event()

    def on_message(msg: object) -> None:
        body = msg.body.decode("utf-8", "replace")  # type: ignore[attr-defined]
        with lock:
            if body not in bodies:
                bodies.add(body)
                emit(event="recv", body=body)
            if len(bodies) >= int(expect):
                enough.set()

    consumer = PushConsumer(group)
    consumer.set_namesrv_addr(namesrv)
    consumer.set_session_credentials(access_key, secret_key, "ALIYUN")
    consumer.subscribe(topic, on_message)
    consumer.start()
    try:
        deadline = time.monotonic() + float(timeout)
        while not enough.is_set() and time.monotonic() < deadline:
            enough.wait(0.2)
    finally:
        consumer.shutdown()
        emit(event="done", received=len(bodies))
    return 0


if __name__ == "__main__":
    sys.exit(main())
