"""Child process of the crash test: puts messages forever, printing each acknowledged one.

Usage: ``python -m tests.broker.store.crash_writer <root> <first-number>``. Every line
``<n> <commit-log offset> <queue offset>`` is printed only after the put returned PUT_OK.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mqadmin.broker.store import MessageStore
from tests.broker.store.support import HOST, PORT, make_msg, small_config

QUEUES = 4
CONFIG = {"commitlog_file_size": 65536, "cq_entries_per_file": 50, "index_num": 4096}


def body_of(n: int) -> bytes:
    return f"crash-{n}-".encode() * (1 + n % 7)


def main() -> None:
    root, n = Path(sys.argv[1]), int(sys.argv[2])
    store = MessageStore(small_config(root, **CONFIG), HOST, PORT)
    store.start()
    out = sys.stdout
    while True:
        if n % 10 == 9:  # a batch of three for one queue
            batch = [make_msg(queue_id=n % QUEUES, body=body_of(n + k), keys=f"k{n + k}") for k in range(3)]
            result = store.put_messages(batch)
            assert result.ok, result
            out.write("".join(f"{n + k} {m.commit_log_offset} {m.queue_offset} {n % QUEUES}\n"
                              for k, m in enumerate(batch)))  # fmt: skip
            out.flush()
            n += 3
            continue
        result = store.put_message(make_msg(queue_id=n % QUEUES, body=body_of(n), keys=f"k{n}"))
        assert result.ok, result
        out.write(f"{n} {result.commit_log_offset} {result.queue_offset} {n % QUEUES}\n")
        out.flush()
        n += 1


if __name__ == "__main__":
    main()
