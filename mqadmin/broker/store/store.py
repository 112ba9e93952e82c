"""``MessageStore``: the broker's view of its commit log, consume queues and key index."""

from __future__ import annotations

import logging
import os
import struct
import time
from collections.abc import Iterable
from pathlib import Path

from mqadmin.broker.store.checkpoint import (
    Checkpoint,
    StoreLock,
    create_abort_marker,
    remove_abort_marker,
)
from mqadmin.broker.store.commitlog import CommitLog
from mqadmin.broker.store.config import StoreConfig
from mqadmin.broker.store.consumequeue import ENTRY, ENTRY_SIZE, ConsumeQueue
from mqadmin.broker.store.index import IndexService
from mqadmin.broker.store.records import (
    LMQ_PREFIX,
    PHYS_OFFSET_POS,
    SCHEDULE_TOPIC,
    TRANS_OP_HALF_TOPIC,
    DispatchInfo,
    delay_tags_code,
    tags_code,
    to_int32,
)
from mqadmin.broker.store.results import (
    GetResult,
    GetStatus,
    PutResult,
    PutStatus,
    QueryResult,
    StoreError,
)
from mqadmin.broker.store.segments import SegmentQueue
from mqadmin.protocol import names
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import java_hash_dict
from mqadmin.protocol.message import MESSAGE_MAGIC_CODE_V2, MessageSysFlag, properties_to_string
from mqadmin.protocol.message_record import MessageExt, body_crc32, encode_message
from mqadmin.protocol.msgid import host_to_bytes

log = logging.getLogger(__name__)

_LONG = struct.Struct(">q")
_PORT = struct.Struct(">i")
_TRAN_MASK = MessageSysFlag.TRANSACTION_ROLLBACK_TYPE
_DISPATCHED_TYPES = (MessageSysFlag.TRANSACTION_NOT_TYPE, MessageSysFlag.TRANSACTION_COMMIT_TYPE)
_MAX_PROPERTIES_LENGTH = 0x7FFF
_RECORD_SLACK = 64 * 1024  # Java's encoder buffer: maxMessageSize + 64 KiB
_MIN_FILTER_BYTES = 16000  # getMessage scans at least this many consume-queue bytes


def is_safe_dir_name(name: str) -> bool:
    """Whether ``name`` can be one directory level under the store: not empty, ``.`` or ``..``, no path
    separator, NUL or lone surrogate, at most 255 bytes. Topics were checked before they were stored;
    this holds for records written before those checks existed too."""
    if names.leaves_directory(name) or "\x00" in name:
        return False
    try:
        return len(name.encode("utf-8")) <= 255
    except UnicodeEncodeError:
        return False


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _total_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * 1024**3


class MessageStore:
    """A single-node store with the file layout and read semantics of Java's ``DefaultMessageStore``.

    Calls come from one thread; nothing here starts threads. Dispatch (consume queue + index) is
    synchronous, so a message is visible to pulls and key queries as soon as its put returns.
    """

    def __init__(self, config: StoreConfig, store_host: str, store_port: int) -> None:
        self.config = config
        self._running = False
        self.rehost(store_host, store_port)
        self.commitlog = CommitLog(
            SegmentQueue(config.commitlog_dir, config.commitlog_file_size, config.flush_sync)
        )
        self.index = IndexService(
            config.index_dir, config.index_hash_slot_num, config.index_num, config.max_msgs_num_batch
        )
        self._cqs: dict[str, dict[int, ConsumeQueue]] = {}
        #: next queue offset per (topic, queue id): Java's ``topicQueueTable``
        self._queue_offsets: dict[tuple[str, int], int] = {}
        self._lock = StoreLock(config.root / "lock")
        self._last_store_ts = 0
        self.master_flushed_offset = 0
        """5.x ``masterFlushedOffset`` (checkpoint @24): set on a slave by RESET_MASTER_FLUSH_OFFSET."""
        self._flushed_at = -1  # commit-log offset at the last flush(); -1 forces the next one
        self._memory_limit = _total_memory() * config.access_message_in_memory_max_ratio // 100
        self.put_message_count = 0
        self.put_message_size = 0
        self.boot_timestamp = 0
        #: None before start; False when the previous run did not shut down cleanly
        self.last_shutdown_clean: bool | None = None
        #: what the last start found and fixed, for logs and tests
        self.recovery_info: dict[str, int] = {}

    def rehost(self, store_host: str, store_port: int) -> None:
        """The store host every message (and message id) says: set before :meth:`start`, when the
        broker has learnt the port it listens on."""
        if self._running:
            raise StoreError("the store host cannot change while the store runs")
        self.store_host = store_host
        self.store_port = store_port
        ip = host_to_bytes(store_host)
        self._store_v6_flag = MessageSysFlag.STOREHOSTADDRESS_V6_FLAG if len(ip) == 16 else 0
        self._id_prefix = (ip + _PORT.pack(store_port)).hex().upper()

    # --- lifecycle ---------------------------------------------------------------------------------

    @property
    def _abort_path(self) -> Path:
        return self.config.root / "abort"

    @property
    def _checkpoint_path(self) -> Path:
        return self.config.root / "checkpoint"

    def start(self) -> None:
        if self._running:
            raise StoreError("the store is already started")
        self.config.root.mkdir(parents=True, exist_ok=True)
        self._lock.acquire()
        try:
            self._load_and_recover()
        except BaseException:
            self._close_files()
            self._lock.release()
            raise
        create_abort_marker(self._abort_path)
        self.boot_timestamp = _now_ms()
        self._running = True

    def _load_and_recover(self) -> None:
        clean = not self._abort_path.exists()
        self.last_shutdown_clean = clean
        checkpoint = Checkpoint.read(self._checkpoint_path)
        self._last_store_ts = checkpoint.physic_msg_timestamp
        self.master_flushed_offset = checkpoint.master_flushed_offset
        self.commitlog.queue.load()
        self.index.load()
        min_phy = self.commitlog.min_offset
        self._load_consume_queues(min_phy)
        start = self._recovery_start(clean, checkpoint)
        if self.config.message_index_enable and self.index.lost:
            start = max(min_phy, 0)  # index files missing or unusable: rebuild it from the whole log
        # pass 1: find the end of valid data, checking every record of the files Java checks (CRCs
        # too with checkCRCOnRecover); pass 2: re-dispatch what queues and index lack
        checked_from = self._check_start(start)
        end = self.commitlog.recover(checked_from, self.config.check_crc_on_recover,
                                     self.config.delay_levels_ms, lambda _info: None,
                                     dispatched_upto=start)  # fmt: skip
        if self.commitlog.stop_reason is not None:
            log.warning("commit log at %s cut at offset %d (%s): the records after it are dropped",
                        self.config.commitlog_dir, end, self.commitlog.stop_reason)  # fmt: skip
        for queues in self._cqs.values():
            for cq in queues.values():
                cq.truncate_beyond(end)
        if self.index.indexed_upto >= end:
            self.index.truncate_from(end)
        dispatched = 0

        def redispatch(info: DispatchInfo) -> None:
            nonlocal dispatched
            dispatched += 1
            self._dispatch(info)

        self.commitlog.replay(min(start, end), self.config.delay_levels_ms, redispatch)
        self._drop_empty_queues()
        self.config.consumequeue_dir.mkdir(parents=True, exist_ok=True)
        if self.config.message_index_enable:
            self.index.ensure_file()
        self._last_store_ts = max(self._last_store_ts, self._newest_store_time())
        self._queue_offsets = {
            (topic, qid): cq.max_offset for topic, queues in self._cqs.items() for qid, cq in queues.items()
        }
        self.recovery_info = {
            "checked_from": checked_from,
            "scan_start": start,
            "end": end,
            "rescanned": dispatched,
        }
        if not clean:
            log.warning("store at %s was not shut down cleanly; recovered to commit-log offset %d "
                        "(%d records re-checked)", self.config.root, end, dispatched)  # fmt: skip

    def _check_start(self, start: int) -> int:
        """Where recovery starts checking records: the start of the third-newest file (4.9.8's
        ``recoverNormally``) or of the file holding ``start`` (5.3.3's), whichever is earlier.

        Records already dispatched are checked again there, so a body damaged on disk since it was
        written is found (with ``checkCRCOnRecover``) instead of being served.
        """
        segs = self.commitlog.queue.segments
        if not segs:
            return start
        holding = self.commitlog.queue.find(start)
        return min(segs[max(0, len(segs) - 3)].start, holding.start if holding is not None else start)

    def _load_consume_queues(self, min_phy: int) -> None:
        self._cqs = {}
        base = self.config.consumequeue_dir
        if not base.is_dir():
            return
        for topic_dir in sorted(base.iterdir()):
            if not topic_dir.is_dir():
                continue
            for qdir in sorted(topic_dir.iterdir()):
                if not qdir.is_dir() or not qdir.name.lstrip("-").isdigit():
                    continue
                cq = ConsumeQueue(
                    qdir,
                    topic_dir.name,
                    int(qdir.name),
                    self.config.cq_entries_per_file,
                    self.config.flush_sync,
                )
                cq.load(min_phy)
                self._cqs.setdefault(topic_dir.name, {})[cq.queue_id] = cq

    def _newest_store_time(self) -> int:
        """Store time of the newest record a consume queue points at (for the checkpoint)."""
        newest = -1
        for queues in self._cqs.values():
            for cq in queues.values():
                if cq.max_offset > cq.min_offset:
                    phy, size, _ = cq.entry_raw(cq.max_offset - 1)
                    newest = max(newest, self.commitlog.pickup_store_timestamp(phy, size))
        return newest

    def _record_ends_at(self, phy: int, size: int) -> bool:
        """Whether a complete record of ``size`` bytes starts at ``phy`` (so phy + size is a boundary)."""
        seg = self.commitlog.queue.find(phy)
        if seg is None or phy + size > seg.end or size <= 0:
            return False
        head = seg.read(phy - seg.start, 36)
        return (
            len(head) == 36
            and _PORT.unpack_from(head, 0)[0] == size
            and _LONG.unpack_from(head, PHYS_OFFSET_POS)[0] == phy
        )

    def _recovery_start(self, clean: bool, checkpoint: Checkpoint) -> int:
        """Where validation and re-dispatch begin: the newest point known to be fully dispatched.

        That is the end of the newest consume-queue entry (Java's reput start), or the checkpoint's
        offset after a clean shutdown (so a topic deleted just before it stays deleted). Without a
        ``consumequeue`` directory everything is re-dispatched; if the candidate is not a record
        boundary, Java's fallback applies: the third-newest file.
        """
        segs = self.commitlog.queue.segments
        if not segs:
            return 0
        last_end = segs[-1].end
        best: tuple[int, int, int] | None = None  # (end, phy, size)
        for queues in self._cqs.values():
            for cq in queues.values():
                if cq.max_physic > 0 and (best is None or cq.max_physic > best[0]):
                    phy, size, _ = cq.entry_raw(cq.max_offset - 1)
                    best = (phy + size, phy, size)
        candidates: list[int] = []
        if best is not None:
            if best[0] <= last_end and self._record_ends_at(best[1], best[2]):
                candidates.append(best[0])
            else:
                return segs[max(0, len(segs) - 3)].start
        queues_kept = self.config.consumequeue_dir.is_dir()
        saved = checkpoint.dispatched_offset
        if 0 <= saved <= last_end:
            if clean and queues_kept:
                candidates.append(saved)
            elif not clean and candidates and saved < candidates[0]:
                # after a crash only what the last flush() made durable is certain (power loss)
                return max(segs[0].start, saved)
        if not candidates:
            return segs[0].start
        return max(segs[0].start, max(candidates))

    def shutdown(self) -> None:
        if not self._running:
            return
        self._running = False
        try:
            self.flush()
            remove_abort_marker(self._abort_path)
        finally:
            self._close_files()
            self._lock.release()

    def flush(self) -> None:
        """fsync everything written and record the point in the checkpoint (Java's flush services).

        Worth calling every second or so: after a crash, recovery re-checks the commit log from
        the last flush on, which also covers consume-queue writes a power failure lost. Nothing
        happens when nothing was written since the last call.
        """
        if self._flushed_at == self.commitlog.max_offset and self._flushed_at >= 0:
            return
        self.commitlog.sync()
        for queues in self._cqs.values():
            for cq in queues.values():
                cq.sync()
        self.index.flush()
        self._write_checkpoint()
        self._flushed_at = self.commitlog.max_offset

    def _write_checkpoint(self) -> None:
        ts = self._last_store_ts
        Checkpoint(ts, ts, ts, self.commitlog.max_offset, self.master_flushed_offset).write(
            self._checkpoint_path
        )

    def set_master_flushed_offset(self, offset: int) -> None:
        """``setMasterFlushedOffset`` (a slave's view of its master's flush point), kept in the
        checkpoint at once."""
        self.master_flushed_offset = offset
        self._write_checkpoint()

    def _close_files(self) -> None:
        self.commitlog.close()
        for queues in self._cqs.values():
            for cq in queues.values():
                cq.close()
        self.index.close()

    @property
    def running(self) -> bool:
        return self._running

    # --- dispatch ----------------------------------------------------------------------------------

    def _queue_for_write(self, topic: str, queue_id: int) -> ConsumeQueue | None:
        """The queue a record is dispatched to; None for a topic that cannot be a directory name."""
        queues = self._cqs.get(topic)
        if queues is None:
            if not is_safe_dir_name(topic):  # defence in depth: no topic makes a path outside the store
                log.error("not dispatching to topic %r: not a usable directory name", topic)
                return None
            queues = self._cqs[topic] = {}
        cq = queues.get(queue_id)
        if cq is None:
            cq = queues[queue_id] = ConsumeQueue(
                self.config.consumequeue_dir / topic / str(queue_id), topic, queue_id,
                self.config.cq_entries_per_file, self.config.flush_sync,
            )  # fmt: skip
        return cq

    def _dispatch(self, info: DispatchInfo) -> None:
        """Index first, then the consume queue: a queue entry implies a complete index for the record."""
        tran = info.sys_flag & _TRAN_MASK
        if self.config.message_index_enable and tran != MessageSysFlag.TRANSACTION_ROLLBACK_TYPE:
            self.index.build(
                info.topic, info.keys, info.uniq_key, info.commit_log_offset, info.store_timestamp
            )
        if tran in _DISPATCHED_TYPES:
            cq = self._queue_for_write(info.topic, info.queue_id)
            if cq is not None:
                cq.put(info.queue_offset, info.commit_log_offset, info.size, info.tags_code)
        self._last_store_ts = info.store_timestamp

    def _drop_empty_queues(self) -> None:
        for topic in list(self._cqs):
            queues = self._cqs[topic]
            for qid in [q for q, cq in queues.items() if cq.queue.last is None]:
                queues.pop(qid).destroy()
            if not queues:
                del self._cqs[topic]

    # --- put ---------------------------------------------------------------------------------------

    def _prepare(self, msg: MessageExt, now: int) -> PutStatus | None:
        """Checks and store-side fields common to single and batch puts; a status means refusal."""
        if len(msg.topic) > names.TOPIC_MAX_LENGTH:
            # 5.3.3 (autoMessageVersionOnTopicLen): a retry topic of up to 255 is a v2 record
            retry = msg.topic.startswith(names.RETRY_GROUP_TOPIC_PREFIX)
            if not retry or len(msg.topic) > names.RETRY_TOPIC_MAX_LENGTH:
                return PutStatus.MESSAGE_ILLEGAL
            msg.magic_code = MESSAGE_MAGIC_CODE_V2
        try:
            body, _ = msg.stored_body()
        except ProtocolError:
            return PutStatus.MESSAGE_ILLEGAL
        if len(body) > self.config.max_message_size:
            return PutStatus.MESSAGE_ILLEGAL
        msg.body_crc = body_crc32(body)
        msg.store_host = self.store_host
        msg.store_port = self.store_port
        flag = msg.sys_flag | self._store_v6_flag
        if ":" in msg.born_host:
            try:
                if len(host_to_bytes(msg.born_host)) == 16:
                    flag |= MessageSysFlag.BORNHOST_V6_FLAG
            except ProtocolError:
                return PutStatus.MESSAGE_ILLEGAL
        msg.sys_flag = flag
        msg.store_timestamp = now
        return None

    def _encode(self, msg: MessageExt) -> bytes | PutStatus:
        try:
            record = encode_message(msg, trailing_separator=False)
        except ProtocolError:
            text = properties_to_string(msg.properties, trailing_separator=False)
            if len(text) > _MAX_PROPERTIES_LENGTH:
                return PutStatus.MESSAGE_ILLEGAL
            if len(text.encode("utf-8", "surrogatepass")) > _MAX_PROPERTIES_LENGTH:
                return PutStatus.PROPERTIES_SIZE_EXCEEDED
            return PutStatus.MESSAGE_ILLEGAL
        if len(record) > self.config.max_message_size + _RECORD_SLACK or not self.commitlog.fits(len(record)):
            return PutStatus.MESSAGE_ILLEGAL
        return record

    def _apply_delay(self, msg: MessageExt) -> PutStatus | None:
        """A delayed message is parked in SCHEDULE_TOPIC_XXXX, queue level-1 (``CommitLog.putMessage``)."""
        if msg.topic == SCHEDULE_TOPIC or "DELAY" not in msg.properties:
            return None
        if msg.sys_flag & _TRAN_MASK not in _DISPATCHED_TYPES:
            return None
        try:
            level = msg.delay_time_level
        except ProtocolError:
            return PutStatus.MESSAGE_ILLEGAL
        if level <= 0:
            return None
        max_level = len(self.config.delay_levels_ms)
        if level > max_level:
            level = max_level
            msg.delay_time_level = level
        props = dict(msg.properties)
        props["REAL_TOPIC"] = msg.topic
        props["REAL_QID"] = str(msg.queue_id)
        msg.properties = java_hash_dict(props)
        msg.topic = SCHEDULE_TOPIC
        msg.queue_id = level - 1
        return None

    def _tags_code(self, msg: MessageExt) -> int:
        props = msg.properties
        if msg.topic == SCHEDULE_TOPIC:
            delivery = delay_tags_code(props, msg.store_timestamp, self.config.delay_levels_ms)
            if delivery is not None:
                return delivery
        return tags_code(props.get("TAGS"))

    def put_message(self, msg: MessageExt, *, apply_delay: bool = True) -> PutResult:
        """Append one message and dispatch it; the message object receives the stored fields.

        Returns once the record is in the OS page cache (fsynced as well with ``flush_sync``).
        ``apply_delay=False`` stores a message that carries ``DELAY`` where it is addressed, as
        Java's schedule service re-puts delivered messages with DELAY still in their bytes.
        """
        if not self._running:
            return PutResult(PutStatus.SERVICE_NOT_AVAILABLE)
        refusal = self._apply_delay(msg) if apply_delay else None
        now = _now_ms()
        if refusal is None:
            refusal = self._prepare(msg, now)
        if refusal is not None:
            return PutResult(refusal)
        tran = msg.sys_flag & _TRAN_MASK
        key = (msg.topic, msg.queue_id)
        dispatched = tran in _DISPATCHED_TYPES
        queue_offset = self._queue_offsets.get(key, 0) if dispatched else 0
        msg.queue_offset = queue_offset
        msg.commit_log_offset = self.commitlog.wrote
        encoded = self._encode(msg)
        if isinstance(encoded, PutStatus):
            return PutResult(encoded)
        record: bytes | bytearray = encoded
        size = len(record)
        try:
            offset = self.commitlog.reserve(size)
        except OSError:
            log.exception("cannot create a commit-log file")
            return PutResult(PutStatus.CREATE_MAPEDFILE_FAILED)
        if offset != msg.commit_log_offset:
            record = bytearray(record)
            _LONG.pack_into(record, PHYS_OFFSET_POS, offset)
            msg.commit_log_offset = offset
        try:
            self.commitlog.write(offset, record, self.config.flush_sync)
        except OSError:
            log.exception("cannot write the commit log")
            return PutResult(PutStatus.UNKNOWN_ERROR)
        msg.store_size = size
        if dispatched:
            self._queue_offsets[key] = queue_offset + 1
        props = msg.properties
        try:
            self._dispatch(
                DispatchInfo(offset, size, msg.topic, msg.queue_id, queue_offset, now, msg.sys_flag,
                             self._tags_code(msg), props.get("KEYS"), props.get("UNIQ_KEY"))
            )  # fmt: skip
        except OSError:
            log.exception("cannot write a consume queue or the index; a restart re-dispatches")
            return PutResult(PutStatus.UNKNOWN_ERROR)
        self.put_message_count += 1
        self.put_message_size += size
        return PutResult(
            PutStatus.PUT_OK, f"{self._id_prefix}{offset:016X}", offset, queue_offset, now, size, 1
        )

    def put_messages(self, msgs: list[MessageExt]) -> PutResult:
        """Append a batch for one topic and queue as consecutive records in one file.

        As in 4.9.8, delayed or transactional batches are MESSAGE_ILLEGAL, and so is a batch whose
        bodies together exceed ``max_message_size``.
        """
        if not self._running:
            return PutResult(PutStatus.SERVICE_NOT_AVAILABLE)
        if not msgs:
            return PutResult(PutStatus.MESSAGE_ILLEGAL)
        topic, queue_id = msgs[0].topic, msgs[0].queue_id
        total_body = 0
        for msg in msgs:
            if msg.topic != topic or msg.queue_id != queue_id:
                return PutResult(PutStatus.MESSAGE_ILLEGAL)
            if msg.sys_flag & _TRAN_MASK != MessageSysFlag.TRANSACTION_NOT_TYPE:
                return PutResult(PutStatus.MESSAGE_ILLEGAL)
            try:
                if msg.delay_time_level > 0:
                    return PutResult(PutStatus.MESSAGE_ILLEGAL)
            except ProtocolError:
                return PutResult(PutStatus.MESSAGE_ILLEGAL)
            total_body += len(msg.body)
        if total_body > self.config.max_message_size:
            return PutResult(PutStatus.MESSAGE_ILLEGAL)
        now = _now_ms()
        key = (topic, queue_id)
        first_queue_offset = self._queue_offsets.get(key, 0)
        tentative = self.commitlog.wrote
        records: list[bytes] = []
        for i, msg in enumerate(msgs):
            refusal = self._prepare(msg, now)
            if refusal is not None:
                return PutResult(refusal)
            msg.queue_offset = first_queue_offset + i
            msg.commit_log_offset = tentative
            record = self._encode(msg)
            if isinstance(record, PutStatus):
                return PutResult(record)
            records.append(record)
            tentative += len(record)
        total = tentative - self.commitlog.wrote
        if not self.commitlog.fits(total):
            return PutResult(PutStatus.MESSAGE_ILLEGAL)
        try:
            offset = self.commitlog.reserve(total)
        except OSError:
            log.exception("cannot create a commit-log file")
            return PutResult(PutStatus.CREATE_MAPEDFILE_FAILED)
        shift = offset - msgs[0].commit_log_offset
        if shift:
            for i, msg in enumerate(msgs):
                msg.commit_log_offset += shift
                patched = bytearray(records[i])
                _LONG.pack_into(patched, PHYS_OFFSET_POS, msg.commit_log_offset)
                records[i] = bytes(patched)
        try:
            self.commitlog.write(offset, b"".join(records), self.config.flush_sync)
        except OSError:
            log.exception("cannot write the commit log")
            return PutResult(PutStatus.UNKNOWN_ERROR)
        self._queue_offsets[key] = first_queue_offset + len(msgs)
        try:
            for msg, record in zip(msgs, records, strict=True):
                msg.store_size = len(record)
                props = msg.properties
                self._dispatch(
                    DispatchInfo(msg.commit_log_offset, len(record), topic, queue_id, msg.queue_offset, now,
                                 msg.sys_flag, self._tags_code(msg), props.get("KEYS"), props.get("UNIQ_KEY"))
                )  # fmt: skip
        except OSError:
            log.exception("cannot write a consume queue or the index; a restart re-dispatches")
            return PutResult(PutStatus.UNKNOWN_ERROR)
        self.put_message_count += len(msgs)
        self.put_message_size += total
        ids = ",".join(f"{self._id_prefix}{m.commit_log_offset:016X}" for m in msgs)
        return PutResult(PutStatus.PUT_OK, ids, offset, first_queue_offset, now, total, len(msgs))

    # --- get ---------------------------------------------------------------------------------------

    def _queue(self, topic: str, queue_id: int) -> ConsumeQueue | None:
        queues = self._cqs.get(topic)
        return queues.get(queue_id) if queues is not None else None

    def get_messages(
        self,
        topic: str,
        queue_id: int,
        offset: int,
        max_msgs: int,
        max_bytes: int = 256 * 1024,
        tag_codes: set[int] | None = None,
    ) -> GetResult:
        """Java ``getMessage``: statuses, the batch limits and ``nextBeginOffset`` rules.

        ``max_bytes`` is maxTransferBytesOnMessageInMemory; ``tag_codes`` None matches everything.
        One call never reads past the end of the consume-queue file holding ``offset``.
        """
        cq = self._queue(topic, queue_id)
        if cq is None:
            return GetResult(GetStatus.NO_MESSAGE_IN_QUEUE, [], 0, 0, 0)
        min_offset = cq.min_offset
        max_offset = cq.max_offset
        if max_offset == 0:
            return GetResult(GetStatus.NO_MESSAGE_IN_QUEUE, [], 0, min_offset, max_offset)
        if offset < min_offset:
            return GetResult(GetStatus.OFFSET_TOO_SMALL, [], min_offset, min_offset, max_offset)
        if offset == max_offset:
            return GetResult(GetStatus.OFFSET_OVERFLOW_ONE, [], offset, min_offset, max_offset)
        if offset > max_offset:
            return GetResult(GetStatus.OFFSET_OVERFLOW_BADLY, [], max_offset, min_offset, max_offset)
        entries = cq.read_from(offset, max(_MIN_FILTER_BYTES, max_msgs * ENTRY_SIZE))
        if entries is None:
            return GetResult(
                GetStatus.OFFSET_FOUND_NULL, [], cq.roll_next_file(offset), min_offset, max_offset
            )

        commitlog = self.commitlog
        max_phy = commitlog.wrote
        memory_limit = self._memory_limit
        cfg = self.config
        status = GetStatus.NO_MATCHED_MESSAGE
        messages: list[bytes] = []
        total = 0
        cold = 0
        scanned = 0
        next_phy_file_start = -1
        max_phy_pulling = 0
        for phy, size, code in ENTRY.iter_unpack(entries):
            max_phy_pulling = phy
            if next_phy_file_start >= 0 and phy < next_phy_file_start:
                scanned += 1
                continue
            if messages:
                if len(messages) >= max_msgs:
                    break
                if max_phy - phy > memory_limit:
                    if total + size > cfg.max_transfer_bytes_in_disk:
                        break
                    if len(messages) > cfg.max_transfer_count_in_disk - 1:
                        break
                else:
                    if total + size > max_bytes:
                        break
                    if len(messages) > cfg.max_transfer_count_in_memory - 1:
                        break
            scanned += 1
            if tag_codes is not None and to_int32(code) not in tag_codes:
                continue
            record = commitlog.read(phy, size)
            if record is None:
                if not messages:
                    status = GetStatus.MESSAGE_WAS_REMOVING
                next_phy_file_start = commitlog.roll_next_file(phy)
                continue
            messages.append(record)
            total += size
            if max_phy - phy > memory_limit:
                cold += size
            status = GetStatus.FOUND
            next_phy_file_start = -1
        return GetResult(
            status,
            messages,
            offset + scanned,
            min_offset,
            max_offset,
            max_phy - max_phy_pulling > memory_limit,
            cold,
        )

    # --- offsets and times -------------------------------------------------------------------------

    def min_offset(self, topic: str, queue_id: int) -> int:
        cq = self._queue(topic, queue_id)
        return cq.min_offset if cq is not None else 0

    def max_offset(self, topic: str, queue_id: int) -> int:
        cq = self._queue(topic, queue_id)
        return cq.max_offset if cq is not None else 0

    def offset_by_time(self, topic: str, queue_id: int, timestamp_ms: int) -> int:
        cq = self._queue(topic, queue_id)
        if cq is None:
            return 0
        return cq.offset_by_time(
            timestamp_ms, self.commitlog.min_offset, self.commitlog.pickup_store_timestamp
        )

    def _entry_store_time(self, cq: ConsumeQueue, cq_offset: int) -> int:
        entry = cq.entry(cq_offset)
        if entry is None:
            return -1
        return self.commitlog.pickup_store_timestamp(entry[0], entry[1])

    def earliest_message_time(self, topic: str, queue_id: int) -> int:
        cq = self._queue(topic, queue_id)
        return -1 if cq is None else self._entry_store_time(cq, cq.min_offset)

    def message_store_time(self, topic: str, queue_id: int, cq_offset: int) -> int:
        cq = self._queue(topic, queue_id)
        return -1 if cq is None else self._entry_store_time(cq, cq_offset)

    def earliest_message_time_all(self) -> int:
        """Java's ``getEarliestMessageTime()``: reads 2 × maxMessageSize from the commit log's start,
        so it is -1 until that much is written in the first file (what a Java broker reports)."""
        return self.commitlog.pickup_store_timestamp(
            self.commitlog.min_offset, 2 * self.config.max_message_size
        )

    # --- lookups -----------------------------------------------------------------------------------

    def look_message(self, commit_log_offset: int) -> bytes | None:
        return self.commitlog.look(commit_log_offset)

    def query_by_key(self, topic: str, key: str, max_num: int, begin_ms: int, end_ms: int) -> QueryResult:
        """``queryMessage``: up to three index rounds, narrowing the end time to the first hit."""
        result = QueryResult()
        last_time = end_ms
        for _ in range(3):
            offsets, last_ts, last_phy = self.index.query(topic, key, max_num, begin_ms, last_time)
            if not offsets:
                break
            offsets.sort()
            result.index_last_update_timestamp = last_ts
            result.index_last_update_phyoffset = last_phy
            for m, off in enumerate(offsets):
                record = self.commitlog.look(off)
                if record is None:
                    continue
                if m == 0:
                    last_time = self.commitlog.pickup_store_timestamp(off, len(record))
                result.messages.append(record)
            if result.messages or last_time < begin_ms:
                break
        return result

    def consume_queue_entries(
        self, topic: str, queue_id: int, index: int, count: int
    ) -> list[tuple[int, int, int]]:
        """Entries from ``index`` to the end of its file, at most ``count`` (QUERY_CONSUME_QUEUE)."""
        cq = self._queue(topic, queue_id)
        if cq is None or count <= 0 or not cq.min_offset <= index < cq.max_offset:
            return []
        raw = cq.read_from(index, count * ENTRY_SIZE)
        return list(ENTRY.iter_unpack(raw)) if raw else []

    def in_cold_area(self, topic: str, queue_id: int, offset: int, hot_ratio: float) -> bool:
        """``isMsgInColdArea``: the record at ``offset`` lies further behind the commit log's end than
        ``hot_ratio`` percent of the machine's memory (``accessMessageInMemoryHotRatio``)."""
        entries = self.consume_queue_entries(topic, queue_id, offset, 1)
        if not entries:
            return False
        return self.commitlog_max_offset - entries[0][0] > _total_memory() * hot_ratio / 100

    def queues(self) -> dict[str, list[int]]:
        return {topic: sorted(queues) for topic, queues in self._cqs.items() if queues}

    # --- housekeeping ------------------------------------------------------------------------------

    def _destroy_topic(self, topic: str) -> None:
        for qid, cq in self._cqs.pop(topic, {}).items():
            cq.destroy()
            self._queue_offsets.pop((topic, qid), None)
        if not is_safe_dir_name(topic):
            return
        try:
            (self.config.consumequeue_dir / topic).rmdir()
        except OSError:
            pass

    def delete_topics(self, topics: Iterable[str]) -> None:
        """Drop the consume queues of these topics (their records stay in the commit log)."""
        for topic in set(topics):
            self._destroy_topic(topic)

    def clean_unused_topics(self, keep: set[str]) -> int:
        """Java ``cleanUnusedTopic``: drop queues of topics not in ``keep`` (system queues survive).
        Returns how many topics were dropped (Java always answers 0)."""
        kept = (SCHEDULE_TOPIC, TRANS_OP_HALF_TOPIC)
        doomed = [t for t in self._cqs if t not in keep and t not in kept and not t.startswith(LMQ_PREFIX)]
        for topic in doomed:
            self._destroy_topic(topic)
        return len(doomed)

    def clean_expired_consume_queues(self) -> None:
        """Java ``cleanExpiredConsumerQueue``: drop queues whose last entry is below the commit log."""
        min_phy = self.commitlog.min_offset
        for topic in list(self._cqs):
            if topic == SCHEDULE_TOPIC:
                continue
            queues = self._cqs[topic]
            for qid in list(queues):
                last = queues[qid].last_entry_end()
                if last != -1 and last < min_phy:
                    queues.pop(qid).destroy()
                    self._queue_offsets.pop((topic, qid), None)
            if not queues:
                self._destroy_topic(topic)

    def delete_expired_files(self, now_ms: int | None = None, force: bool = False) -> int:
        """Delete commit-log files older than ``file_reserved_hours`` (all but the current one with
        ``force``), then the consume-queue and index files wholly below the new start."""
        now = _now_ms() if now_ms is None else now_ms
        deleted = self.commitlog.delete_expired(
            now, self.config.file_reserved_ms, force, self.config.delete_files_batch_max
        )
        if deleted:
            min_phy = self.commitlog.min_offset
            for queues in self._cqs.values():
                for cq in queues.values():
                    cq.delete_expired(min_phy)
            self.index.delete_expired(min_phy)
        return deleted

    # --- figures -----------------------------------------------------------------------------------

    @property
    def commitlog_min_offset(self) -> int:
        return self.commitlog.min_offset

    @property
    def commitlog_max_offset(self) -> int:
        return self.commitlog.max_offset

    @property
    def dispatch_behind_bytes(self) -> int:
        """Always 0: dispatch happens inside the put."""
        return 0

    def disk_ratio(self) -> float:
        """``UtilAll.getDiskPartitionSpaceUsedPercent`` of the commit log's partition; -1 if unknown."""
        path = self.config.commitlog_dir if self.config.commitlog_dir.exists() else self.config.root
        try:
            st = os.statvfs(path)
        except OSError:
            return -1.0
        total = st.f_blocks * st.f_frsize
        free = st.f_bfree * st.f_frsize
        usable = st.f_bavail * st.f_frsize
        used = total - free
        entire = used + usable
        if entire <= 0:
            return -1.0
        result = used * 100 // entire + (1 if used * 100 % entire else 0)
        return result / 100.0
