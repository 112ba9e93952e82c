"""Delayed delivery (Java ``ScheduleMessageService``): SCHEDULE_TOPIC_XXXX back to the real topic.

The store parks a message with ``DELAY=L`` in SCHEDULE_TOPIC_XXXX queue L-1, its queue entry's tags
code being the delivery time. This service walks each level's queue from its saved offset and
re-puts every message whose time has come to its ``REAL_TOPIC``/``REAL_QID`` — which is how a
consumer's failed message comes back in ``%RETRY%group`` 10 s later. Offsets persist to
``config/delayOffset.json`` in Java's format.

One deviation: Java keeps ``DELAY`` in the re-put record's property bytes (it reads the level from
the property map, which it clears); our store reads the level from the same properties it writes,
so ``DELAY`` is dropped from the delivered record.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.broker.topics import SCHEDULE_TOPIC
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import _json as j
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import chm_capacity, hash_ordered
from mqadmin.protocol.message import MessageConst, MessageExt, decode_message

if TYPE_CHECKING:
    from mqadmin.broker.controller import BrokerController

__all__ = ["ScheduleService"]

log = logging.getLogger("mqadmin.broker")

_BATCH = 64
_TICK_S = 0.1


class ScheduleService:
    """Per delay level, the next SCHEDULE_TOPIC_XXXX queue offset to deliver."""

    def __init__(self, broker: BrokerController, config_dir: Path) -> None:
        self.broker = broker
        self.path = config_dir / "delayOffset.json"
        self.offsets: dict[int, int] = {}
        self.levels_ms = broker.store_config.delay_levels_ms()
        self._dirty = False
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
        store = self.broker.store
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
                await asyncio.sleep(10)
            try:
                await asyncio.wait_for(self.wakeup.wait(), _TICK_S)
            except TimeoutError:
                pass
            self.wakeup.clear()

    def deliver_due(self) -> int:
        """One pass over every level; returns how many messages were delivered."""
        store = self.broker.store
        now = self.broker.now_ms()
        delivered = 0
        for level in range(1, len(self.levels_ms) + 1):
            qid = level - 1
            offset = self.offsets.get(level, 0)
            max_offset = store.max_offset(SCHEDULE_TOPIC, qid)
            if offset >= max_offset:
                continue
            offset = max(offset, store.min_offset(SCHEDULE_TOPIC, qid))
            while offset < max_offset:
                entries = store.consume_queue_entries(SCHEDULE_TOPIC, qid, offset, _BATCH)
                if not entries:
                    break
                stop = False
                for phy, _size, deliver_at in entries:
                    if deliver_at > now:
                        stop = True
                        break
                    outcome = self._deliver(phy)
                    if outcome is None:  # the store refused: try again on a later pass
                        stop = True
                        break
                    delivered += outcome
                    offset += 1
                if stop:
                    break
            if offset != self.offsets.get(level):
                self.offsets[level] = offset
                self._dirty = True
        return delivered

    def _deliver(self, phy: int) -> bool | None:
        """``messageTimeup``: the parked message, re-put to its real topic and queue.

        True when delivered, False when it can never be (skipped), None when the put failed.
        """
        b = self.broker
        raw = b.store.look_message(phy)
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
            qid = int(props.get(MessageConst.PROPERTY_REAL_QUEUE_ID, "0"))
        except ValueError:
            qid = 0
        if not topic:
            log.warning("delayed message at %d has no REAL_TOPIC: dropped", phy)
            return False
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
        result = b.put_message(msg)
        if result.status.name != "PUT_OK":
            log.error("delivering a delayed message to %s failed: %s", topic, result.status.name)
            return None
        return True
