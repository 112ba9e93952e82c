"""The Apache RocketMQ C++ client (PyPI ``rocketmq`` 0.4.4) sending with ACL 1.0 credentials.

Run in its own process (a crash of the native library must not take the test runner down):

    acl_cpp_send.py NS TOPIC COUNT ACCESS_KEY SECRET_KEY

The producer signs every request with ``set_session_credentials(ak, sk, "ALIYUN")``. One JSON object
a line on stdout: ``{"event": "sent", "status": "OK", "msg_id": ...}`` or ``{"event": "error",
"error": ...}`` per message, then ``{"event": "done", "sent": N}``.
"""

from __future__ import annotations

import json
import sys


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def main() -> int:
    from rocketmq.client import Message, Producer

    namesrv, topic, count, access_key, secret_key = sys.argv[1:6]
    producer = Producer("AclCppPG", timeout=3000)
    producer.set_namesrv_addr(namesrv)
    producer.set_session_credentials(access_key, secret_key, "ALIYUN")
    producer.start()
    sent = 0
    try:
        for i in range(int(count)):
            msg = Message(topic)
            msg.set_keys(f"acl-key-{i}")
            msg.set_tags("acl")
            msg.set_body(f"acl body {i}")
            try:
                result = producer.send_sync(msg)
            except Exception as e:  # a refused send is what some tests expect
                emit(event="error", i=i, error=str(e)[:600])
                continue
            sent += 1
            emit(event="sent", status=result.status.name, msg_id=result.msg_id, offset=result.offset)
    finally:
        emit(event="done", sent=sent)
        producer.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
