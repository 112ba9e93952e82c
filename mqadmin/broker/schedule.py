"""Delayed delivery (Java ``ScheduleMessageService``): SCHEDULE_TOPIC_XXXX back to the real topic.

The store parks a message with ``DELAY=L`` in SCHEDULE_TOPIC_XXXX queue L-1, its queue entry's tags
code being the delivery time. This service walks each level's queue from its saved offset and
re-puts every message whose time has come to its ``REAL_TOPIC``/``REAL_QID`` — which is how a
consumer's failed message comes back in ``%RETRY%group`` 10 s later. Offsets persist to
``config/delayOffset.json`` in Java's format.

A message that can never be re-put (a real topic the store refuses, a record too large for the
current ``maxMessageSize``) is skipped with one log line, so it cannot hold up the messages after
it on its level. Any other failure makes that level (only) wait 10 s, as Java's
``DELAY_FOR_A_PERIOD``; its offset stays at the failed message, also across restarts.

One deviation: Java keeps ``DELAY`` in the re-put record's property bytes (it reads the level from
the property map, which it clears); our store reads the level from the same properties it writes,
so ``DELAY`` is dropped from the delivered record.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from mqadmin.broker.config import MessageStoreConfig
from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.broker.services import MessageWriter, now_ms
from mqadmin.broker.store import MessageStore
from mqadmin.broker.topics import SCHEDULE_TOPIC
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.message import check_stored_topic
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered
from mqadmin.protocol.javanum import JavaNumberError, parse_int
from mqadmin.protocol.message import MessageConst
from mqadmin.protocol.message_record import MessageExt, decode_message

__all__ = ["ScheduleService"]

log = logging.getLogger("mqadmin.broker")

_BATCH = 64
_TICK_S = 0.1
RETRY_AFTER_FAILURE_S = 10
"""``ScheduleMessageService.DELAY_FOR_A_PERIOD``: how long a level waits after a failed put."""
_NEVER_STORABLE = frozenset({"MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED"})
"""Put statuses that no retry can change: the message is skipped, not retried."""


class ScheduleService:
    """Per delay level, the next SCHEDULE_TOPIC_XXXX queue offset to deliver."""

    def __init__(
        self, *, store_config: MessageStoreConfig, store: MessageStore, writer: MessageWriter
    ) -> None:
        self.store = store
        self.writer = writer
        self.path = store_config.config_dir / "delayOffset.json"
        self.offsets: dict[int, int] = {}
        self.levels_ms = store_config.delay_levels_ms()
        self._dirty = False
        self._paused_until: dict[int, float] = {}
        self.wakeup = asyncio.Event()

    def load(self) -> None:
        def decode(obj: Any) -> None:
            table = j.obj(obj, "delayOffset").get("offsetTable") or {}
            for k, v in j.obj(table, "offsetTable").items():
                self.offsets[j.numeric_key(k, "level", 1, 1 << 20)] = j.int64(v, "offset")

        load_config_file(self.path, decode)

    def to_json_obj(self) -> dict[str, Any]:
        t = self.offsets
        return {"offsetTable": hash_ordered(t, chm_capacity(len(t), 32))}

    def encode(self) -> str:
        return fastjson.dumps(self.to_json_obj())

    def persist(self) -> None:
        self._dirty = False
        persist_config_file(self.path, pretty_json(self.to_json_obj()))

    def persist_if_dirty(self) -> None:
        if self._dirty:
            self.persist()

    def running_stats(self) -> dict[str, str]:
        """``scheduleMessageOffset_<level>`` = ``delivered,max`` for levels with an offset entry."""
        store = self.store
        return {
            f"scheduleMessageOffset_{level}": f"{off},{store.max_offset(SCHEDULE_TOPIC, level - 1)}"
            for level, off in self.offsets.items()
        }

    async def run(self) -> None:
        """Deliver what is due, every 100 ms (sooner when a delayed message was just stored)."""
        while True:
            try:
                self.deliver_due()
            except Exception:
                log.exception("delivering delayed messages failed")
                await asyncio.sleep(RETRY_AFTER_FAILURE_S)
            try:
                await asyncio.wait_for(self.wakeup.wait(), _TICK_S)
            except TimeoutError:
                pass
            self.wakeup.clear()

    def deliver_due(self) -> int:
        """One pass over every level that is not waiting after a failure; how many were delivered."""
        delivered = 0
        for level in range(1, len(self.levels_ms) + 1):
            until = self._paused_until.get(level)
            if until is not None:
                if time.monotonic() < until:
                    continue
                del self._paused_until[level]
            try:
                delivered += self._deliver_level(level)
            except Exception:
                log.exception(
                    "delivering delayed messages of level %d failed; that level waits %d s",
                    level,
                    RETRY_AFTER_FAILURE_S,
                )
                self._pause(level)
        return delivered

    def _pause(self, level: int) -> None:
        """Java's ``DELAY_FOR_A_PERIOD``: a level whose put failed is tried again 10 s later."""
        self._paused_until[level] = time.monotonic() + RETRY_AFTER_FAILURE_S

    def _deliver_level(self, level: int) -> int:
        store = self.store
        now = now_ms()
        qid = level - 1
        delivered = 0
        offset = self.offsets.get(level, 0)
        max_offset = store.max_offset(SCHEDULE_TOPIC, qid)
        if offset >= max_offset:
            return 0
        offset = max(offset, store.min_offset(SCHEDULE_TOPIC, qid))
        try:
            while offset < max_offset:
                entries = store.consume_queue_entries(SCHEDULE_TOPIC, qid, offset, _BATCH)
                if not entries:
                    break
                for phy, _size, deliver_at in entries:
                    if deliver_at > now:
                        return delivered
                    outcome = self._deliver(phy, level)
                    if outcome is None:  # the store refused for now: this level waits, the others go on
                        self._pause(level)
                        return delivered
                    delivered += outcome
                    offset += 1
        finally:
            if offset != self.offsets.get(level):
                self.offsets[level] = offset
                self._dirty = True
        return delivered

    def _deliver(self, phy: int, level: int) -> bool | None:
        """``messageTimeup``: the parked message, re-put to its real topic and queue.

        True when delivered; False when it never can be (skipped with one log line, so the
        messages after it on its level are delivered); None when the store refused it for now.
        """
        raw = self.store.look_message(phy)
        if raw is None:
            return False
        try:
            parked, _ = decode_message(raw, decompress=False)
        except ProtocolError as e:
            log.warning("skipping an unreadable delayed message at %d: %s", phy, e)
            return False
        props = dict(parked.properties)
        topic = props.get(MessageConst.PROPERTY_REAL_TOPIC)
        try:
            qid = parse_int(props.get(MessageConst.PROPERTY_REAL_QUEUE_ID) or "0")
        except JavaNumberError:
            qid = -1
        bad = check_stored_topic(topic)
        if bad is not None or qid < 0:
            log.error(
                "skipping delayed message %s (level %d, commit-log offset %d): real topic %r queue %r: %s",
                parked.msg_id, level, phy, topic, props.get(MessageConst.PROPERTY_REAL_QUEUE_ID),
                bad or "bad queue id",
            )  # fmt: skip
            return False
        assert topic is not None
        props.pop(MessageConst.PROPERTY_DELAY_TIME_LEVEL, None)
        body, flag = parked.stored_body()
        msg = MessageExt(
            topic=topic,
            flag=parked.flag,
            properties=props,
            body=body,
            queue_id=qid,
            sys_flag=flag,
            born_timestamp=parked.born_timestamp,
            born_host=parked.born_host,
            born_port=parked.born_port,
            reconsume_times=parked.reconsume_times,
        )
        result = self.writer.put_message(msg)
        status = result.status.name
        if status == "PUT_OK":
            return True
        if status in _NEVER_STORABLE:
            log.error(
                "skipping delayed message %s (level %d, offset %d) to %s: the store refuses it: %s",
                parked.msg_id, level, phy, topic, status,
            )  # fmt: skip
            return False
        log.error(
            "delivering delayed message %s to %s failed (%s); level %d waits %d s",
            parked.msg_id, topic, status, level, RETRY_AFTER_FAILURE_S,
        )  # fmt: skip
        return None
