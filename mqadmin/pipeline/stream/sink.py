"""``df.write`` / ``df.writeStream.format("rocketmq")``: rows sent as messages, at least once.

Columns: ``body`` (binary or string, required), ``topic`` (else option ``topic``), and optional
``tags``, ``keys`` (a string, keys separated by spaces, or an array of strings), ``properties``
(map of strings), ``queueId`` (the n-th writable queue of the topic, brokers in name order: the
queue id on a one-broker topic) and ``delayLevel``. Other columns are ignored. A topic without a
route is sent as a Java producer sends it (through ``TBW102``: created where the broker allows it).

Each task sends its rows in SEND_BATCH_MESSAGE requests of up to ``batchSize`` messages per queue
(one SEND_MESSAGE_V2 for a message with a delay level, which a batch may not hold), at most
``maxInFlight`` requests at once, retrying an answer Java's producer retries (SYSTEM_ERROR 1,
SYSTEM_BUSY 2, SERVICE_NOT_AVAILABLE 14, TOPIC_NOT_EXIST 17, ...), no answer in ``timeout`` and a
lost connection up to ``retries`` times, after a growing pause; then the task fails with a
:class:`SinkError` naming the topic, the queue, the broker and its last answer (an answer no retry
changes fails at once). What a broker acknowledged is stored; a request it stored but could not
acknowledge (it died, or the answer came too late) is sent again. A task that fails is run again by
Spark, and a micro-batch that fails is replayed: messages may then be stored twice. Every message
carries a ``UNIQ_KEY`` made from (query id, batch id, partition, row number), so a replay writes
the same keys and a consumer can drop the duplicates (the key is the ``msg_id`` the ``rocketmq``
source reads).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import (
    DataSourceArrowWriter,
    DataSourceStreamArrowWriter,
    WriterCommitMessage,
)

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.errors import AdminError
from mqadmin.admin.producer import RETRY_CODES, MessageCheckError, Producer
from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.datasource_options import (
    SINK_NAMES,
    OptionError,
    admin_settings,
    int_option,
    known_options,
)
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.message import Message, MessageConst
from mqadmin.protocol.names import check_group, check_topic
from mqadmin.remoting.errors import RemoteCommandError, RemotingError

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

__all__ = [
    "RocketMQBatchWriter", "RocketMQStreamWriter", "SinkError", "SinkOptions", "SinkSent", "key_prefix",
    "send_rows", "uniq_key",
]  # fmt: skip

log = logging.getLogger(__name__)

DEFAULT_PRODUCER_GROUP = "SPARK_ROCKETMQ_SINK"
_BATCH_BYTES = 1024 * 1024
_COLUMNS = {
    "topic": ("string",),
    "body": ("binary", "string"),
    "tags": ("string",),
    "keys": ("string", "array<string>"),
    "properties": ("map<string,string>",),
    "queueId": ("int", "bigint", "smallint", "tinyint"),
    "delayLevel": ("int", "bigint", "smallint", "tinyint"),
}


class SinkError(RuntimeError):
    """Messages the sink could not have stored: the retries are spent, or the answer is lasting."""


@dataclass(frozen=True, slots=True)
class SinkOptions:
    settings: AdminSettings
    topic: str | None = None
    batch_size: int = 256
    max_in_flight: int = 8
    retries: int = 3
    producer_group: str = DEFAULT_PRODUCER_GROUP
    write_id: str | None = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> SinkOptions:
        opts = known_options(options, SINK_NAMES, "rocketmq sink")
        topic = (opts.get("topic") or "").strip() or None
        if topic is not None and (why := check_topic(topic)) is not None:
            raise OptionError(f"topic {topic!r}: {why}")
        group = opts.get("producergroup") or DEFAULT_PRODUCER_GROUP
        if (why := check_group(group)) is not None:
            raise OptionError(f"producerGroup {group!r}: {why}")
        return cls(
            settings=admin_settings(opts),
            topic=topic,
            batch_size=min(int_option(opts, "batchsize", 1) or 256, 4096),
            max_in_flight=int_option(opts, "maxinflight", 1) or 8,
            retries=int_option(opts, "retries", 0) if "retries" in opts else 3,  # type: ignore[arg-type]
            producer_group=group,
            write_id=opts.get("writeid") or None,
        )


def check_schema(schema: StructType, options: SinkOptions) -> None:
    """Refuse, before any task, columns the sink cannot send (named, with the types it takes)."""
    fields = {f.name: f.dataType.simpleString() for f in schema.fields}
    if "body" not in fields:
        raise OptionError(
            f"the rocketmq sink needs a column body (binary or string); columns: {', '.join(fields)}"
        )
    if "topic" not in fields and options.topic is None:
        raise OptionError("the rocketmq sink needs a column topic or the option topic")
    for name, types in _COLUMNS.items():
        got = fields.get(name)
        if got is not None and got not in types:
            raise OptionError(f"column {name} is {got}; the rocketmq sink takes {' or '.join(types)}")


def key_prefix(write_id: str, batch_id: int, partition: int) -> str:
    """16 hex digits naming one task's write: (query or write id, batch id, partition)."""
    seed = f"{write_id}/{batch_id}/{partition}".encode()
    return hashlib.blake2b(seed, digest_size=8).hexdigest().upper()


def uniq_key(write_id: str, batch_id: int, partition: int, row: int) -> str:
    """The ``UNIQ_KEY`` of a row: 32 upper-case hex digits (:func:`key_prefix`, then the row number),
    the same every time the row is written."""
    return f"{key_prefix(write_id, batch_id, partition)}{row:016X}"


@dataclass
class SinkSent(WriterCommitMessage):
    partition: int
    messages: int
    requests: int
    retries: int


class _Send:
    """One task's sending: queues per topic, batches, the in-flight bound and the retries."""

    def __init__(self, admin: MQAdmin, options: SinkOptions) -> None:
        self.options = options
        self.producer = Producer(admin, options.producer_group, send_timeout=options.settings.timeout)
        self.gate = asyncio.Semaphore(options.max_in_flight)
        self.tasks: set[asyncio.Task[None]] = set()
        self.errors: list[BaseException] = []
        self.requests = 0
        self.retried = 0
        self._rr = itertools.count()
        self._queues: dict[str, list[MessageQueue]] = {}

    async def queues(self, topic: str) -> list[MessageQueue]:
        """The topic's writable queues (asked once per task)."""
        queues = self._queues.get(topic)
        if queues is None:
            queues = self._queues[topic] = list((await self.producer.publish_info(topic)).queues)
        return queues

    async def queue_at(self, topic: str, index: int) -> MessageQueue:
        queues = await self.queues(topic)
        if not 0 <= index < len(queues):
            raise MessageCheckError(
                f"queueId {index} is not a writable queue of {topic} (it has {len(queues)})"
            )
        return queues[index]

    async def next_queue(self, topic: str) -> MessageQueue:
        """Round robin over the topic's queues, one batch each."""
        queues = await self.queues(topic)
        return queues[next(self._rr) % len(queues)]

    async def submit_batch(self, msgs: list[Message], index: int | None) -> None:
        """Send ``msgs`` (one topic) to queue ``index``, or to the next queue in turn."""
        topic = msgs[0].topic
        await self.submit(
            msgs, await (self.next_queue(topic) if index is None else self.queue_at(topic, index))
        )

    async def submit(self, msgs: list[Message], queue: MessageQueue) -> None:
        if self.errors:
            raise self.errors[0]
        await self.gate.acquire()
        if self.errors:  # one failed while this waited for its place: send no more
            self.gate.release()
            raise self.errors[0]
        task = asyncio.ensure_future(self._send(msgs, queue))
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        self.gate.release()
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(task.exception())  # type: ignore[arg-type]

    async def _send(self, msgs: list[Message], queue: MessageQueue) -> None:
        tries = self.options.retries + 1
        for attempt in range(tries):
            self.requests += 1
            try:
                if len(msgs) == 1:
                    await self.producer.send(msgs[0], queue)
                else:
                    await self.producer.send_batch(msgs, queue)
                return
            except RemoteCommandError as e:
                if e.code not in RETRY_CODES:
                    raise self._failed(msgs, queue, attempt + 1, e) from None
                if attempt == self.options.retries:
                    raise self._failed(msgs, queue, tries, e) from None
            except (TimeoutError, RemotingError) as e:
                if attempt == self.options.retries:
                    raise self._failed(msgs, queue, tries, e) from None
            self.retried += 1
            await asyncio.sleep(min(0.05 * 2**attempt, 1.0))

    @staticmethod
    def _failed(msgs: list[Message], queue: MessageQueue, tries: int, e: BaseException) -> SinkError:
        what = str(e) or f"no answer ({type(e).__name__})"
        return SinkError(
            f"rocketmq sink: {len(msgs)} message(s) to {queue.topic} {queue.broker_name}:{queue.queue_id} "
            f"not stored after {tries} attempt(s): {what}"
        )

    async def finish(self) -> None:
        while self.tasks:
            await asyncio.wait(set(self.tasks))
        if self.errors:
            raise self.errors[0]


def _rows(batch: pa.RecordBatch, default_topic: str | None) -> Iterator[tuple[Any, ...]]:
    names = set(batch.schema.names)
    n = batch.num_rows

    def col(name: str) -> list[Any]:
        return batch.column(name).to_pylist() if name in names else [None] * n

    topics = col("topic") if "topic" in names else [default_topic] * n
    return zip(topics, col("body"), col("tags"), col("keys"), col("properties"), col("queueId"),
               col("delayLevel"), strict=True)  # fmt: skip


def _message(topic: Any, body: Any, tags: Any, keys: Any, props: Any, delay: Any, key: str) -> Message:
    topic = topic or ""
    if isinstance(body, str):
        body = body.encode("utf-8")
    msg = Message(topic, body=body or b"")
    if props:
        for k, v in props:
            if k and v is not None:
                msg.put_user_property(k, v)
    if tags:
        msg.tags = tags
    if keys:
        msg.keys = keys if isinstance(keys, str) else [k for k in keys if k]
    if delay:
        msg.delay_time_level = int(delay)
    msg.properties[MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX] = key
    return msg


async def send_rows(
    options: SinkOptions, batches: Iterator[pa.RecordBatch], write_id: str, batch_id: int, partition: int
) -> SinkSent:
    """Send every row of ``batches``; returns what was sent (raises on the first lasting failure)."""
    async with MQAdmin(options.settings) as admin:
        send = _Send(admin, options)
        prefix = key_prefix(write_id, batch_id, partition)
        open_batches: dict[tuple[str, int | None], tuple[list[Message], int]] = {}
        row = 0
        try:
            for batch in batches:
                for topic, body, tags, keys, props, qid, delay in _rows(batch, options.topic):
                    msg = _message(topic, body, tags, keys, props, delay, f"{prefix}{row:016X}")
                    row += 1
                    if not msg.topic:
                        raise MessageCheckError(
                            f"row {row - 1} has no topic (column topic is null, no option topic)"
                        )
                    index = None if qid is None else int(qid)
                    if delay:  # a batch may not hold a delayed message
                        queue = await (
                            send.next_queue(msg.topic) if index is None else send.queue_at(msg.topic, index)
                        )
                        await send.submit([msg], queue)
                        continue
                    where = (msg.topic, index)
                    msgs, size = open_batches.get(where) or ([], 0)
                    msgs.append(msg)
                    size += len(msg.body) + 64
                    if len(msgs) >= options.batch_size or size >= _BATCH_BYTES:
                        del open_batches[where]
                        await send.submit_batch(msgs, index)
                    else:
                        open_batches[where] = (msgs, size)
            for (_, index), (msgs, _) in open_batches.items():
                await send.submit_batch(msgs, index)
            await send.finish()
        except BaseException:
            for task in list(send.tasks):
                task.cancel()
            raise
    return SinkSent(partition, row, send.requests, send.retried)


def _run_task(
    options: SinkOptions, batches: Iterator[pa.RecordBatch], write_id: str, batch_id: int
) -> SinkSent:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    partition = ctx.partitionId() if ctx is not None else 0
    if ctx is not None:  # a streaming query: its id (kept across restarts) and the micro-batch's id
        write_id = ctx.getLocalProperty("sql.streaming.queryId") or write_id
        batch_id = int(ctx.getLocalProperty("streaming.sql.batchId") or batch_id)
    try:
        return asyncio.run(send_rows(options, batches, write_id, batch_id, partition))
    except (MessageCheckError, AdminError) as e:
        raise ValueError(f"rocketmq sink: {e}") from None


class RocketMQBatchWriter(DataSourceArrowWriter):
    """``df.write.format("rocketmq")``: ``writeId`` (default: one per write) seeds the keys."""

    def __init__(self, options: SinkOptions) -> None:
        self.options = options
        self.write_id = options.write_id or uuid.uuid4().hex

    def write(self, iterator: Iterator[pa.RecordBatch]) -> SinkSent:
        return _run_task(self.options, iterator, self.write_id, 0)

    def commit(self, messages: Sequence[WriterCommitMessage | None]) -> None:
        _log_sent(messages, "write")


class RocketMQStreamWriter(DataSourceStreamArrowWriter):
    """``df.writeStream.format("rocketmq")``: the keys are seeded by the query's id and batch id."""

    def __init__(self, options: SinkOptions) -> None:
        self.options = options

    def write(self, iterator: Iterator[pa.RecordBatch]) -> SinkSent:
        return _run_task(self.options, iterator, self.options.write_id or "stream", 0)

    def commit(self, messages: Sequence[WriterCommitMessage | None], batchId: int) -> None:
        _log_sent(messages, f"batch {batchId}")

    def abort(self, messages: Sequence[WriterCommitMessage | None], batchId: int) -> None:
        log.warning("rocketmq sink: batch %d aborted; what its tasks sent stays (at least once)", batchId)


def _log_sent(messages: Sequence[WriterCommitMessage | None], what: str) -> None:
    sent = [m for m in messages if isinstance(m, SinkSent)]
    log.info(
        "rocketmq sink: %s sent %d messages in %d requests (%d retried)",
        what, sum(m.messages for m in sent), sum(m.requests for m in sent), sum(m.retries for m in sent),
    )  # fmt: skip
