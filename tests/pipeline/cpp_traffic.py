"""Traffic from the Apache RocketMQ C++ client (PyPI ``rocketmq`` 0.4.4) at a known rate, in its own process.

produce NS TOPIC --rate R --seconds S --queues Q
    sends R messages a second for S seconds, message i to queue i % Q (an orderly send with
    that argument), so queues Q and above are never written; prints {"event": "done", "sent": N}
consume NS TOPIC GROUP --seconds S [--stop-after N]
    a push consumer for S seconds, or until it has received N messages; shutting down commits
    its offsets; prints {"event": "done", "received": N}
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time

STOP = threading.Event()


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def produce(args: argparse.Namespace) -> int:
    from rocketmq.client import Message, Producer

    producer = Producer(f"{args.topic}-producer", timeout=10_000)
    producer.set_namesrv_addr(args.namesrv)
    producer.start()
    sent = errors = 0
    start = time.monotonic()
    total = int(args.rate * args.seconds)
    try:
        for i in range(total):
            due = start + i / args.rate
            delay = due - time.monotonic()
            if delay > 0 and STOP.wait(delay):
                break
            msg = Message(args.topic)
            msg.set_keys(f"k{i}")
            msg.set_tags("paced")
            msg.set_body(f"m{i}")
            try:
                producer.send_orderly(msg, i % args.queues)  # the default selector takes arg % queue count
                sent += 1
            except Exception as e:  # reported, the pace goes on
                errors += 1
                emit(event="error", i=i, error=str(e)[:200])
    finally:
        producer.shutdown()
    emit(event="done", sent=sent, errors=errors, seconds=round(time.monotonic() - start, 3))
    return 0


def consume(args: argparse.Namespace) -> int:
    from rocketmq.client import PushConsumer

    received = 0
    lock = threading.Lock()
    enough = threading.Event()

    def on_message(_msg: object) -> None:  # returning normally acknowledges the message
        nonlocal received
        with lock:
            received += 1
            if args.stop_after and received >= args.stop_after:
                enough.set()

    consumer = PushConsumer(args.group)
    consumer.set_namesrv_addr(args.namesrv)
    consumer.subscribe(args.topic, on_message)
    consumer.start()
    deadline = time.monotonic() + args.seconds
    while not enough.is_set() and not STOP.is_set() and time.monotonic() < deadline:
        enough.wait(0.1)
    consumer.shutdown()
    emit(event="done", received=received)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("produce")
    p.add_argument("namesrv")
    p.add_argument("topic")
    p.add_argument("--rate", type=float, required=True)
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--queues", type=int, required=True)
    c = sub.add_parser("consume")
    c.add_argument("namesrv")
    c.add_argument("topic")
    c.add_argument("group")
    c.add_argument("--seconds", type=float, required=True)
    c.add_argument("--stop-after", type=int, default=0)
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: STOP.set())
    return produce(args) if args.cmd == "produce" else consume(args)


if __name__ == "__main__":
    sys.exit(main())
