"""``KVTable``: a string map, for broker runtime stats and name server KV namespaces.

Carried by GET_BROKER_RUNTIME_INFO (28), GET_KVLIST_BY_NAMESPACE (219) and the REGISTER_BROKER
response (the ``ORDER_TOPIC_CONFIG`` namespace). The map is a ``HashMap<String, String>``: the
broker's runtime map is created with capacity 64 but always holds more than 24 entries, so it sits
where a default ``HashMap`` would; the name server's namespace maps are default ``HashMap`` s.
"""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.bodies.declared import DeclaredBody, wire
from mqadmin.protocol.javacoll import java_hash_dict

__all__ = ["KVTable"]


@dataclass(slots=True)
class KVTable(DeclaredBody):
    """``{"table":{...}}``: string keys to string values (absent: an empty table)."""

    table: dict[str, str] | None = wire(
        factory=dict, absent={}, read=j.str_map, write=lambda v, _: java_hash_dict(v)
    )
