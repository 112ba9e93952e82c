"""A C++ push consumer (PyPI ``rocketmq`` 0.4.4) that takes ``--delay`` seconds per message, on one
thread: a group that is busy and behind, as an operator sees one in production.

    slow_consumer.py NS TOPIC GROUP --delay 0.1 --seconds 30

Prints ``{"event": "recv", "queue_id": q, "queue_offset": o}`` per message, and ``{"event": "done",
"received": n}`` after ``--seconds``, when it shuts down (which commits its offsets).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time


def main() -> int:
    from rocketmq.client import PushConsumer

    p = argparse.ArgumentParser()
    p.add_argument("namesrv")
    p.add_argument("topic")
    p.add_argument("group")
    p.add_argument("--delay", type=float, default=0.1)
    p.add_argument("--seconds", type=float, default=30.0)
    args = p.parse_args()
    count = [0]
    lock = threading.Lock()

    def on_message(msg: object) -> None:
        time.sleep(args.delay)
        with lock:
            count[0] += 1
            line = {"event": "recv", "queue_id": msg.queue_id, "queue_offset": msg.queue_offset}  # type: ignore[attr-defined]
            sys.stdout.write(json.dumps(line) + "\n")
            sys.stdout.flush()

    consumer = PushConsumer(args.group)
    consumer.set_namesrv_addr(args.namesrv)
    consumer.set_thread_count(1)
    consumer.set_message_batch_max_size(1)
    consumer.subscribe(args.topic, on_message, "*")
    consumer.start()
    try:
        time.sleep(args.seconds)
    finally:
        consumer.shutdown()
        sys.stdout.write(json.dumps({"event": "done", "received": count[0]}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
