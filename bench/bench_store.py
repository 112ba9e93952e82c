"""Message store speed and footprint: puts and gets per second for 1 KB messages, bytes on disk.

Messages look like a producer's: a 1,024-byte body, TAGS, KEYS, UNIQ_KEY and CLUSTER, spread over
four queues of one topic. Gets pull every queue from offset 0 in batches of 32 (a PULL's worth).
Also timed: sync-flush puts, restart after a clean shutdown, restart after a crash, and a full
rebuild of consume queues and index from the commit log.

    PYTHONPATH=. python bench/bench_store.py [--messages 100000] [--dir /path/on/the/disk/to/test]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from mqadmin.broker.store import MessageStore, StoreConfig
from mqadmin.protocol.message_record import MessageExt
from mqadmin.protocol.msgid import UniqueIdGenerator

TOPIC = "BenchTopic"
QUEUES = 4
BODY = bytes(range(256)) * 4  # 1,024 bytes


def make_messages(n: int) -> list[MessageExt]:
    ids = UniqueIdGenerator("10.0.0.7")
    now = int(time.time() * 1000)
    return [
        MessageExt(
            topic=TOPIC,
            queue_id=i % QUEUES,
            body=BODY,
            properties={
                "KEYS": f"order-{i}",
                "UNIQ_KEY": ids.next_id(),
                "CLUSTER": "DefaultCluster",
                "TAGS": "TagA",
            },
            born_timestamp=now,
            born_host="10.0.0.7",
            born_port=50000,
        )
        for i in range(n)
    ]


def open_store(root: Path, **overrides: object) -> MessageStore:
    store = MessageStore(StoreConfig(root, **overrides), "127.0.0.1", 10911)  # type: ignore[arg-type]
    store.start()
    return store


def disk_usage(root: Path) -> tuple[int, int]:
    """(allocated bytes, apparent bytes) of every file below ``root``; files are sparse."""
    allocated = apparent = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            st = os.stat(os.path.join(dirpath, name))
            allocated += st.st_blocks * 512
            apparent += st.st_size
    return allocated, apparent


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sync-messages", type=int, default=2_000)
    parser.add_argument(
        "--dir", type=Path, default=None, help="where to create the store (default: a temp dir)"
    )
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir))
    try:
        root = base / "store"
        msgs = make_messages(args.messages)
        store = open_store(root)
        elapsed = timed(lambda: [store.put_message(m) for m in msgs])
        print(f"put/s (1 KB, async flush):     {args.messages / elapsed:,.0f}")

        def pull_everything() -> int:
            got = 0
            for q in range(QUEUES):
                offset = 0
                while offset < store.max_offset(TOPIC, q):
                    result = store.get_messages(TOPIC, q, offset, 32)
                    got += len(result.messages)
                    offset = result.next_begin_offset
            return got

        count = 0

        def pull() -> None:
            nonlocal count
            count = pull_everything()

        elapsed = timed(pull)
        print(f"get/s (messages, 32 per pull): {count / elapsed:,.0f}")
        elapsed = timed(
            lambda: [store.query_by_key(TOPIC, f"order-{i}", 32, 0, 2**63 - 1) for i in range(0, 10_000)]
        )
        print(f"query by key/s:                {10_000 / elapsed:,.0f}")
        store.shutdown()
        allocated, apparent = disk_usage(root)
        print(f"messages stored:               {args.messages:,}")
        print(f"on disk, allocated:            {allocated:,} bytes")
        print(f"on disk, apparent (sparse):    {apparent:,} bytes")
        print(f"commit log bytes written:      {store.commitlog_max_offset:,}")

        print(f"start after clean shutdown:    {timed(lambda: open_store(root).shutdown()) * 1000:,.0f} ms")
        crashed = open_store(root)
        crashed._running = False
        crashed._close_files()
        crashed._lock.release()
        print(f"start after a crash:           {timed(lambda: open_store(root).shutdown()) * 1000:,.0f} ms")
        shutil.rmtree(root / "consumequeue")
        shutil.rmtree(root / "index")
        print(f"start rebuilding queues+index: {timed(lambda: open_store(root).shutdown()) * 1000:,.0f} ms")

        sync_root = base / "sync"
        store = open_store(sync_root, flush_sync=True)
        sync_msgs = make_messages(args.sync_messages)
        elapsed = timed(lambda: [store.put_message(m) for m in sync_msgs])
        store.shutdown()
        print(f"put/s (1 KB, sync flush):      {args.sync_messages / elapsed:,.0f}")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
