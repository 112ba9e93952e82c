"""The name server's key-value store: namespaces of string settings, kept in ``kvConfig.json``.

Java's ``KVConfigManager``: the only namespace the name server itself reads is
``ORDER_TOPIC_CONFIG`` (topic -> ``brokerName:queueNums;...`` for ordered topics), returned to
brokers on registration and to clients in routes when ``orderMessageEnable`` is on. The file has
Java's format, ``{"configTable":{"<namespace>":{"<key>":"<value>"}}}`` in HashMap order, so a Java
name server can take it over (and we can take over its file). Every change rewrites it atomically,
keeping the previous content as ``kvConfig.json.bak`` as Java does.

Unlike Java's, the store is bounded (the PUT_KV_CONFIG budget of the request registry): a value's
size, the entries of a namespace and of the whole store, and the store's bytes, so that the file
stays small enough to rewrite on every change and any namespace's list fits one answer frame.
Values are logged cut short.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mqadmin.atomicfile import write_atomic
from mqadmin.protocol import fastjson
from mqadmin.protocol.bodies.kv import KVTable
from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import MAX_FRAME
from mqadmin.protocol.javacoll import JavaHashMap
from mqadmin.protocol.requests import limit

__all__ = [
    "LOGGED_VALUE_CHARS",
    "MAX_STORE_BYTES",
    "NAMESPACE_ORDER_TOPIC_CONFIG",
    "KVConfigError",
    "KVConfigManager",
]

log = logging.getLogger("mqadmin.namesrv")

NAMESPACE_ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG"

MAX_STORE_BYTES = MAX_FRAME - (1 << 20)
"""The most the store's namespaces, keys and values may take together (UTF-8 bytes): a namespace's
list must fit one answer frame, and the file is rewritten on every change."""
LOGGED_VALUE_CHARS = 200
"""How much of a value a log line shows."""


def _shown(value: str | None) -> str | None:
    """A value as a log line shows it: cut short, with its full length."""
    if value is None or len(value) <= LOGGED_VALUE_CHARS:
        return value
    return f"{value[:LOGGED_VALUE_CHARS]}... ({len(value)} chars)"


def _utf8_len(s: str | None) -> int:
    return 0 if s is None else len(s.encode("utf-8", "surrogatepass"))


class KVConfigError(Exception):
    """``kvConfig.json`` exists but is not a KV config file (Java refuses to start then)."""


class KVConfigManager:
    """Namespaces of key-value pairs, persisted at ``path`` after every change."""

    def __init__(
        self,
        path: str | Path,
        *,
        max_value_bytes: int | None = None,
        max_entries: int | None = None,
        max_store_bytes: int = MAX_STORE_BYTES,
    ) -> None:
        self.path = Path(path)
        self.config_table: JavaHashMap[str, JavaHashMap[str, str | None]] = JavaHashMap()
        code = RequestCode.PUT_KV_CONFIG
        self.max_value_bytes = limit(code, "valueBytes") if max_value_bytes is None else max_value_bytes
        self.max_entries = limit(code, "entries") if max_entries is None else max_entries
        self.max_store_bytes = max_store_bytes

    def load(self) -> None:
        """Read the file if there is one; an empty file is nothing, a broken one an error."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as e:
            raise KVConfigError(f"cannot read {self.path}: {e}") from None
        if not raw.strip():
            return
        try:
            data = fastjson.loads(raw)
        except ProtocolError as e:
            raise KVConfigError(f"{self.path} is not JSON: {e}") from None
        if data is None:
            return
        table = data.get("configTable") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(table, dict | None):
            raise KVConfigError(f"{self.path} is not a KV config file")
        for namespace, entries in (table or {}).items():
            if not isinstance(namespace, str) or not isinstance(entries, dict | None):
                raise KVConfigError(f"{self.path}: bad namespace {namespace!r}")
            kv: JavaHashMap[str, str | None] = JavaHashMap()
            for k, v in (entries or {}).items():
                if not isinstance(k, str) or not isinstance(v, str | None):
                    raise KVConfigError(f"{self.path}: bad entry {k!r} in {namespace}")
                if v is not None:
                    kv.put(k, v)
            self.config_table.put(namespace, kv)
        log.info("load KV config table OK, %d namespaces", len(self.config_table))

    def put_refusal(self, namespace: str, key: str, value: str | None) -> str | None:
        """Why putting this entry would take the store over its budget, or None (a value replacing
        another counts only its growth)."""
        size = _utf8_len(value)
        if size > self.max_value_bytes:
            return f"the value is {size} bytes, over the {self.max_value_bytes} byte limit (valueBytes)"
        kv = self.config_table.get(namespace)
        old = kv.get(key) if kv is not None else None
        if kv is None or key not in kv:
            most = self.max_entries
            if kv is None and len(self.config_table) >= most:
                return f"the store holds {most} namespaces, the limit (entries)"
            if kv is not None and len(kv) >= most:
                return f"namespace {_shown(namespace)} holds {most} entries, the limit (entries)"
            if self.entry_count() >= most:
                return f"the store holds {most} entries, the limit (entries)"
            size += _utf8_len(key) + (_utf8_len(namespace) if kv is None else 0)
        else:
            size -= _utf8_len(old)
        if size > 0 and self.store_bytes() + size > self.max_store_bytes:
            return f"the store would take more than {self.max_store_bytes} bytes, the limit"
        return None

    def entry_count(self) -> int:
        """Keys in every namespace."""
        return sum(len(kv) for kv in self.config_table.values())

    def store_bytes(self) -> int:
        """UTF-8 bytes of every namespace, key and value."""
        total = 0
        for namespace, kv in self.config_table.items():
            total += _utf8_len(namespace)
            for k, v in kv.items():
                total += _utf8_len(k) + _utf8_len(v)
        return total

    def put(self, namespace: str, key: str, value: str | None) -> None:
        kv = self.config_table.get(namespace)
        if kv is None:
            kv = JavaHashMap()
            self.config_table.put(namespace, kv)
            log.info("putKVConfig create new Namespace %s", namespace)
        prev = kv.put(key, value)
        if prev is not None:
            log.info(
                "putKVConfig update config item, Namespace: %s Key: %s Value: %s",
                namespace,
                key,
                _shown(value),
            )
        else:
            log.info(
                "putKVConfig create new config item, Namespace: %s Key: %s Value: %s",
                namespace,
                key,
                _shown(value),
            )
        self.persist()

    def delete(self, namespace: str | None, key: str | None) -> None:
        """Remove a key (the namespace stays, even empty); persists even when nothing changed."""
        kv = self.config_table.get(namespace) if namespace is not None else None
        if kv is not None and key is not None:
            value = kv.pop(key, None)
            log.info(
                "deleteKVConfig delete a config item, Namespace: %s Key: %s Value: %s",
                namespace,
                key,
                _shown(value),
            )
        self.persist()

    def get(self, namespace: str | None, key: str | None) -> str | None:
        kv = self.config_table.get(namespace) if namespace is not None else None
        if kv is None or key is None:
            return None
        return kv.get(key)

    def has_namespace(self, namespace: str | None) -> bool:
        return namespace is not None and namespace in self.config_table

    def kv_list_body(self, namespace: str | None) -> bytes | None:
        """``{"table":{...}}`` of a namespace, or None when it does not exist."""
        kv = self.config_table.get(namespace) if namespace is not None else None
        if kv is None:
            return None
        return KVTable({k: v for k, v in kv.java_items() if v is not None}).encode()

    def to_json(self) -> str:
        """The file content: compact fastjson of ``KVConfigSerializeWrapper``, Java map orders."""
        table = {ns: {k: v for k, v in kv.java_items()} for ns, kv in self.config_table.java_items()}
        return fastjson.dumps({"configTable": table})

    def persist(self) -> None:
        try:
            if self.path.is_file():
                write_atomic(self.path.with_name(self.path.name + ".bak"), self.path.read_bytes())
            write_atomic(self.path, self.to_json())
        except OSError as e:
            log.error("persist kvconfig to %s failed: %s", self.path, e)
