"""``KVTable``: a string map, for broker runtime stats and name server KV namespaces.

Carried by GET_BROKER_RUNTIME_INFO (28), GET_KVLIST_BY_NAMESPACE (219) and the REGISTER_BROKER
response (the ``ORDER_TOPIC_CONFIG`` namespace). The map is a ``HashMap<String, String>``: the
broker's runtime map is created with capacity 64 but always holds more than 24 entries, so it sits
where a default ``HashMap`` would; the name server's namespace maps are default ``HashMap`` s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies import fieldcheck as j
from mqadmin.protocol.javacoll import java_hash_dict

__all__ = ["KVTable"]


@dataclass(slots=True)
class KVTable(j.JsonBody):
    """``{"table":{...}}``: string keys to string values."""

    table: dict[str, str] | None = field(default_factory=dict)

    @classmethod
    def from_json_obj(cls, obj: Any) -> Self:
        d = j.obj(obj, "KVTable")
        return cls(j.str_map(d.get("table", {}), "table"))

    def to_json_obj(self, standard: bool = False) -> dict[str, Any]:
        if self.table is None:
            return {}
        return {"table": java_hash_dict(self.table)}

    def encode(self, standard: bool = False) -> bytes:
        if self.table is None:
            return b"{}"
        q = fastjson.quote
        table = java_hash_dict(self.table)
        return ('{"table":{' + ",".join([f"{q(k)}:{q(v)}" for k, v in table.items()]) + "}}").encode()
