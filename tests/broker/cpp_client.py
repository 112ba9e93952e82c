"""The Apache RocketMQ C++ client (PyPI ``rocketmq`` 0.4.4) driven from the command line.

Run in its own process so that a crash in the native library cannot take the test runner down.
Prints one JSON object per line on stdout:

    produce NS TOPIC COUNT [--group G] [--size BYTES] [--tag T]
        {"event": "sent", "body": "m0", "status": "OK", "msg_id": "...", "offset": 0}
        {"event": "error", "i": 7, "error": "..."}           (a send that raised)
        {"event": "retry", "i": 7, "error": "..."}           (see below)
        {"event": "done", "sent": 1000, "seconds": 1.23}
    consume NS TOPIC GROUP --expect N --timeout S [--idle S] [--expression TAGS]
        {"event": "recv", "msg_id": "...", "body": "...", "queue_id": 0, "queue_offset": 3}
        {"event": "done", "received": 1000}

``consume`` stops after ``--expect`` distinct messages (id and body: the C++ client's ids repeat
across producer processes) followed by ``--idle`` quiet seconds (to catch
duplicates), or at ``--timeout``; then it shuts the consumer down, which commits its offsets.

A send is retried (once per message, reported as ``retry``) only when the client's own log shows
the one race of its own that we know: while another of its threads holds the connection table to
open a connection (the start-up heartbeat to a second broker of the route), ``CreateTransport``
gives up its try-lock at once ("get timed_mutex timeout") and the send ends as "No route info".
Any other failure is an ``error``, and so is this one a second time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


LOCK_MISS = "get timed_mutex timeout"
"""What the C++ client logs when ``CreateTransport`` did not get its connection table's lock."""


class ClientLog:
    """The C++ client's log of this process (``~/logs/rocketmq-cpp/<pid>_rocketmq-cpp.log.0``): what it
    wrote since :meth:`mark`."""

    def __init__(self) -> None:
        self.path = os.path.expanduser(f"~/logs/rocketmq-cpp/{os.getpid()}_rocketmq-cpp.log.0")
        self.offset = 0

    def mark(self) -> None:
        try:
            self.offset = os.path.getsize(self.path)
        except OSError:
            self.offset = 0

    def since_mark(self) -> str:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                text = f.read()
        except OSError:
            return ""
        return text.decode("utf-8", "replace")


def lost_the_lock_race(error: Exception, log: ClientLog) -> bool:
    """Whether this send failed because the client missed its own connection-table lock."""
    return "No route info" in str(error) and LOCK_MISS in log.since_mark()


def produce(args: argparse.Namespace) -> int:
    from rocketmq.client import Message, Producer

    producer = Producer(args.group, timeout=args.send_timeout)
    producer.set_namesrv_addr(args.namesrv)
    producer.start()
    filler = "x" * max(0, args.size)
    started = time.monotonic()
    sent = 0
    log = ClientLog()
    try:
        for i in range(args.count):
            msg = Message(args.topic)
            msg.set_keys(f"key-{args.prefix}{i}")
            msg.set_tags(args.tag)
            body = f"{args.prefix}{i}"
            msg.set_body(f"{body}|{filler}" if args.size else body)
            log.mark()
            try:
                try:
                    result = producer.send_sync(msg)
                except Exception as e:
                    if not lost_the_lock_race(e, log):
                        raise
                    emit(event="retry", i=i, error=str(e)[:300])
                    time.sleep(0.2)
                    result = producer.send_sync(msg)
            except Exception as e:  # a failed send is reported, the run goes on
                emit(event="error", i=i, error=str(e)[:300])
                continue
            sent += 1
            if not args.quiet:
                emit(
                    event="sent",
                    body=body,
                    status=result.status.name,
                    msg_id=result.msg_id,
                    offset=result.offset,
                )
    finally:
        elapsed = time.monotonic() - started
        emit(event="done", sent=sent, seconds=elapsed)
        producer.shutdown()
    return 0


def consume(args: argparse.Namespace) -> int:
    from rocketmq.client import PushConsumer

    lock = threading.Lock()
    seen: set[tuple[str, str]] = set()
    last = [time.monotonic()]

    def on_message(msg: object) -> None:
        msg_id = msg.id  # type: ignore[attr-defined]
        body = msg.body.decode("utf-8", "replace").split("|", 1)[0]  # type: ignore[attr-defined]
        with lock:
            seen.add((msg_id, body))
            last[0] = time.monotonic()
        emit(
            event="recv",
            msg_id=msg_id,
            body=body,
            queue_id=msg.queue_id,  # type: ignore[attr-defined]
            queue_offset=msg.queue_offset,  # type: ignore[attr-defined]
        )

    consumer = PushConsumer(args.group)
    consumer.set_namesrv_addr(args.namesrv)
    consumer.subscribe(args.topic, on_message, args.expression)
    consumer.start()
    deadline = time.monotonic() + args.timeout
    try:
        while time.monotonic() < deadline:
            time.sleep(0.1)
            with lock:
                enough = len(seen) >= args.expect
                quiet = time.monotonic() - last[0]
            if enough and quiet >= args.idle:
                break
    finally:
        consumer.shutdown()
        emit(event="done", received=len(seen))
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("produce")
    pp.add_argument("namesrv")
    pp.add_argument("topic")
    pp.add_argument("count", type=int)
    pp.add_argument("--group", default="CppTestPG")
    pp.add_argument("--size", type=int, default=0)
    pp.add_argument("--tag", default="tagA")
    pp.add_argument("--prefix", default="m")
    pp.add_argument("--send-timeout", type=int, default=3000)
    pp.add_argument("--quiet", action="store_true")
    pc = sub.add_parser("consume")
    pc.add_argument("namesrv")
    pc.add_argument("topic")
    pc.add_argument("group")
    pc.add_argument("--expect", type=int, default=0)
    pc.add_argument("--timeout", type=float, default=60.0)
    pc.add_argument("--idle", type=float, default=2.0)
    pc.add_argument("--expression", default="*")
    args = p.parse_args()
    return produce(args) if args.cmd == "produce" else consume(args)


if __name__ == "__main__":
    sys.exit(main())
