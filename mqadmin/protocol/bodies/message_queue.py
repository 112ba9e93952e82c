"""``MessageQueue``: (topic, broker name, queue id), the key of the offset and stats tables.

fastjson writes a map keyed by ``MessageQueue`` with the whole object as the key,
``{{"brokerName":"broker-a","queueId":0,"topic":"T"}:{...}}``; :mod:`mqadmin.protocol.fastjson`
reads such a key as an :class:`~mqadmin.protocol.fastjson.ObjectKey`, which converts to and from
this type. The Java ``hashCode`` is here too, since those tables iterate in hash order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.fastjson import ObjectKey
from mqadmin.protocol.javacoll import java_string_sort_key, objects_hash, string_hash

__all__ = ["MessageQueue", "queue_key"]


@dataclass(slots=True, frozen=True)
class MessageQueue:
    """A queue of a topic on a broker. Sorts by topic, then broker name, then queue id (Python
    string order; :meth:`java_sort_key` is Java's).

    The key of every offset and stats table: hash and equality are written out, as the dataclass
    made them, for speed. Never change one once made (it is hashed).
    """

    topic: str | None = None
    broker_name: str | None = None
    queue_id: int = 0

    def _key(self) -> tuple[str | None, str | None, int]:
        return (self.topic, self.broker_name, self.queue_id)

    def __hash__(self) -> int:
        return hash((self.topic, self.broker_name, self.queue_id))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MessageQueue)
        return (
            self.queue_id == other.queue_id
            and self.topic == other.topic
            and self.broker_name == other.broker_name
        )

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MessageQueue)
        return self._key() < other._key()  # type: ignore[operator]  # None fields raise, as before

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MessageQueue)
        return self._key() <= other._key()  # type: ignore[operator]

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MessageQueue)
        return self._key() > other._key()  # type: ignore[operator]

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MessageQueue)
        return self._key() >= other._key()  # type: ignore[operator]

    def __repr__(self) -> str:
        names = f"topic={self.topic!r}, broker_name={self.broker_name!r}"
        return f"MessageQueue({names}, queue_id={self.queue_id!r})"

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.broker_name is not None:
            out["brokerName"] = self.broker_name
        out["queueId"] = self.queue_id
        if self.topic is not None:
            out["topic"] = self.topic
        return out

    def to_object_key(self) -> ObjectKey:
        return ObjectKey(self.to_json_obj())

    @classmethod
    def from_json_obj(cls, obj: Any, what: str = "MessageQueue") -> Self:
        """From an object, an :class:`ObjectKey`, or the JSON text a standard-form key holds."""
        if type(obj) is str:
            try:
                obj = fastjson.loads(obj)
            except ProtocolError:
                raise ProtocolError(f"{what} key is not a message queue") from None
        if isinstance(obj, ObjectKey):
            obj = dict(obj)
        d = j.obj(obj, what)
        return cls(
            j.opt_str(d.get("topic"), f"{what}.topic"),
            j.opt_str(d.get("brokerName"), f"{what}.brokerName"),
            j.int32(d.get("queueId"), f"{what}.queueId"),
        )

    @classmethod
    def from_object_key(cls, key: ObjectKey) -> Self:
        return cls.from_json_obj(key)

    def java_sort_key(self) -> tuple[bytes, bytes, int]:
        """``MessageQueue.compareTo``: topic, broker name (Java string order), queue id."""
        return (
            java_string_sort_key(self.topic or ""),
            java_string_sort_key(self.broker_name or ""),
            self.queue_id,
        )

    def java_hash(self) -> int:
        """``MessageQueue.hashCode()`` as an unsigned 32-bit value."""
        bn = 0 if self.broker_name is None else string_hash(self.broker_name)
        t = 0 if self.topic is None else string_hash(self.topic)
        return objects_hash([bn, self.queue_id & 0xFFFFFFFF, t])

    def __str__(self) -> str:
        return f"MessageQueue [topic={self.topic}, brokerName={self.broker_name}, queueId={self.queue_id}]"


def queue_key(mq: MessageQueue) -> tuple[str, str, int]:
    """A queue's place in documents: topic, broker name, queue id (the Java text sorts by
    ``MessageQueue.compareTo``, UTF-16 order, which its renderer applies itself)."""
    return (mq.topic or "", mq.broker_name or "", mq.queue_id)
