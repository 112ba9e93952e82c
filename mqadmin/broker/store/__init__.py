"""The development broker's durable message store, laid out on disk like Java's ``DefaultMessageStore``.

Under ``StoreConfig.root``::

    commitlog/<20-digit start offset>               records in the Java layout, files of commitlog_file_size
    consumequeue/<topic>/<queueId>/<20-digit start>  20-byte entries (offset, size, tags hash code)
    index/<yyyyMMddHHmmssSSS>                       Java IndexFile format (keys and UNIQ_KEY as topic#key)
    checkpoint  abort  lock

Durability: a put returns after ``pwrite`` of the record, so it survives ``kill -9`` of the process;
with ``flush_sync`` it is also fsynced (power loss). Consume queues and the index are written right
after the record (no dispatch thread). On start, records from a point known to be fully dispatched
are validated (size, magic, offset, body CRC) and re-dispatched where queues or index lack them,
and a torn or corrupt tail is cut off (the rest of its file zeroed, later files deleted). That
point is the newest consume-queue entry after a crash (or the last ``flush()`` if older, which
covers queue writes a power failure lost) and the checkpoint after a clean shutdown. Deleting
``consumequeue/`` or ``index/`` rebuilds them from the whole commit log on the next start. The
broker should call ``flush()`` about every second, as Java's flush services run.

Threading: no threads; the broker calls the store from its event-loop thread.

Additions to the interface the broker was promised:

* ``StoreConfig``: index sizes, ``message_index_enable``, ``max_msgs_num_batch``,
  ``check_crc_on_recover``, ``message_delay_level``, the disk transfer limits,
  ``access_message_in_memory_max_ratio``, ``delete_files_batch_max``; the ``*_dir`` properties.
* ``StoreError`` (lock held, foreign file sizes); ``PutResult.ok``; ``GetResult.body_size``.
* ``MessageStore.flush()`` (fsync everything; Java's flush services), ``running``,
  ``last_shutdown_clean``, ``recovery_info``, ``boot_timestamp``.
* ``put_message`` handles ``DELAY`` like Java's ``CommitLog.putMessage``: the record goes to
  ``SCHEDULE_TOPIC_XXXX`` queue level-1 with ``REAL_TOPIC``/``REAL_QID`` added (unless the topic is
  already SCHEDULE_TOPIC_XXXX), and its queue entry's tags code is the delivery time. Delivering
  delayed messages back to their topic (``ScheduleMessageService``) is not part of the store;
  ``put_message(msg, apply_delay=False)`` stores a delivered message with DELAY kept, as Java does.
* ``put_message`` / ``put_messages`` set the stored fields on the given ``MessageExt`` objects
  (queue and commit-log offsets, store time and host, body CRC, V6 flags, ``store_size``).
  Properties are written in the dict's order without a trailing separator (4.x style); a
  ``MessageExt`` decoded from bytes keeps its original property bytes if left unchanged.

Differences from Java worth knowing: ``commitlog_file_size`` defaults to 64 MiB (Java: 1 GiB);
``commitlog_min_offset`` is -1 while no file exists (as Java); ``earliest_message_time_all`` is -1
until 2 × ``max_message_size`` bytes are written (as Java); ``clean_unused_topics`` returns the
number of topics dropped (Java: 0); filler entries never count as a queue's min offset.
"""

from mqadmin.broker.store.config import StoreConfig
from mqadmin.broker.store.results import (
    GetResult,
    GetStatus,
    PutResult,
    PutStatus,
    QueryResult,
    StoreError,
)
from mqadmin.broker.store.store import MessageStore

__all__ = [
    "GetResult",
    "GetStatus",
    "MessageStore",
    "PutResult",
    "PutStatus",
    "QueryResult",
    "StoreConfig",
    "StoreError",
]
