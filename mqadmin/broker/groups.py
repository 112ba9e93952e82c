"""Consumer-group settings (Java ``SubscriptionGroupManager``), persisted as ``subscriptionGroup.json``.

Seven groups always exist; a lookup of a missing group creates it with the defaults when
``autoCreateSubscriptionGroup`` is on (or the group is a ``CID_RMQ_SYS_`` one), bumping the version
and persisting, exactly as heartbeats, pulls and unregistrations on a Java broker do; as in Java
5.3.3, a name that breaks the group rules is never auto-created (the lookup finds nothing).
A failed persist is logged once and retried by the next change (see :mod:`.jsonfile`). Inside
:meth:`GroupManager.batched` (a heartbeat naming many groups) the file is written once, at the end.

The file is read as a Java broker reads it: a group named ``""`` is kept, and a name escaped with a
lone surrogate (``\\ud800``, which Java reads as it stands) loads with ``?`` in its place, the form in
which a Java broker sends it and writes it back (``String.getBytes(UTF_8)``); the other groups of
the file are never lost over one such name.

A group is kept in the form it was given: a 5.x tool's body (with ``consumeMessageOrderly``,
``groupRetryPolicy``, ``attributes``...) keeps those fields, with 5.x defaults for the ones it left
out, so reading the group back shows what was set; a 4.x body stays the nine classic fields.
"""

from __future__ import annotations

import logging
import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from mqadmin.broker.jsonfile import Coalesced, load_config_file, persist_config_file, pretty_json
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.group import SubscriptionGroupConfig, SubscriptionGroupWrapper

__all__ = ["BUILTIN_GROUPS", "GroupManager"]

log = logging.getLogger("mqadmin.broker")

BUILTIN_GROUPS = (
    "TOOLS_CONSUMER",
    "FILTERSRV_CONSUMER",
    "SELF_TEST_C_GROUP",
    "CID_ONS-HTTP-PROXY",
    "CID_ONSAPI_PULL",
    "CID_ONSAPI_PERMISSION",
    "CID_ONSAPI_OWNER",
)

SYS_GROUP_PREFIX = "CID_RMQ_SYS_"


class GroupManager:
    """Subscription group configs by name, in insertion order."""

    def __init__(self, config_dir: Path, auto_create: bool) -> None:
        self.path = config_dir / "subscriptionGroup.json"
        self.auto_create = auto_create
        self.table: dict[str, SubscriptionGroupConfig] = {
            name: SubscriptionGroupConfig(group_name=name) for name in BUILTIN_GROUPS
        }
        self.data_version = DataVersion()
        self._writes = Coalesced()

    def load(self) -> None:
        def decode(obj: Any) -> None:
            w = SubscriptionGroupWrapper.from_json_obj(obj)
            for name, cfg in (w.subscription_group_table or {}).items():
                self.table[name] = _as_stored(cfg)
            if w.data_version is not None:
                self.data_version = DataVersion(w.data_version.timestamp, w.data_version.counter)

        load_config_file(self.path, decode, parse=_loads_as_java)

    def wrapper(self) -> SubscriptionGroupWrapper:
        return SubscriptionGroupWrapper(dict(self.table), self.data_version)

    def encode(self, pretty: bool = False) -> str:
        w = self.wrapper()
        return pretty_json(w.to_json_obj()) if pretty else w.encode().decode()

    def persist(self) -> bool:
        return persist_config_file(self.path, lambda: self.encode(pretty=True))

    def _changed(self) -> None:
        self.data_version.next_version()
        self._writes.ask(self.persist)

    def batched(self) -> AbstractContextManager[None]:
        """Changes made inside are written once, when the outermost block ends (whatever ends it)."""
        return self._writes.batch()

    def get(self, group: str) -> SubscriptionGroupConfig | None:
        """The group's config, without creating it."""
        return self.table.get(group)

    def find(self, group: str) -> SubscriptionGroupConfig | None:
        """``findSubscriptionGroupConfig``: the config, auto-created with defaults when allowed."""
        cfg = self.table.get(group)
        if cfg is None and (self.auto_create or group.startswith(SYS_GROUP_PREFIX)):
            if names.check_group(group) is not None:
                return None
            cfg = SubscriptionGroupConfig(group_name=group)
            self.table[group] = cfg
            log.info("auto create a subscription group %r", group)
            self._changed()
        return cfg

    def update(self, cfg: SubscriptionGroupConfig) -> None:
        """UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: replace the entry, in the body's 4.x or 5.x form.

        The caller checked the config (``check_subscription_group``); an illegal name raises here.
        """
        name = cfg.group_name or ""
        why = names.check_group(name)
        if why is not None:
            raise ValueError(why)
        old = name in self.table
        self.table[name] = _as_stored(cfg)
        log.info("%s subscription group %r", "update" if old else "create new", name)
        self._changed()

    def delete(self, group: str) -> bool:
        if self.table.pop(group, None) is None:
            log.warning("delete subscription group failed, %r does not exist", group)
            return False
        log.info("delete subscription group OK, %r", group)
        self._changed()
        return True


# a surrogate pair (kept), a lone surrogate (replaced), or any other escape (kept, an escaped backslash
# among them, so that the "u" after it is not read as an escape)
_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    r"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
    r"|\\."
)


def _java_escape(m: re.Match[str]) -> str:
    text = m.group(0)
    return "?" if len(text) == 6 and text[1] == "u" else text


def _loads_as_java(text: str) -> object:
    """The file's JSON with each escaped lone surrogate read as ``?`` (see the module docstring)."""
    if "\\u" in text:
        text = _ESCAPE.sub(_java_escape, text)
    return fastjson.loads(text)


def _is_5x(cfg: SubscriptionGroupConfig) -> bool:
    """Whether the body carried any property only 5.x has (a 4.x body leaves them all unset)."""
    return any(
        v is not None
        for v in (
            cfg.consume_message_orderly,
            cfg.group_retry_policy,
            cfg.group_sys_flag,
            cfg.consume_timeout_minute,
            cfg.subscription_data_set,
            cfg.attributes,
        )
    )


def _as_stored(cfg: SubscriptionGroupConfig) -> SubscriptionGroupConfig:
    """A 5.x body as a 5.x broker holds it (unset 5.x fields at their defaults), else the 4.x form."""
    return cfg.as_5x() if _is_5x(cfg) else _as_4x(cfg)


def _as_4x(cfg: SubscriptionGroupConfig) -> SubscriptionGroupConfig:
    """A 4.9.8 broker's ``SubscriptionGroupConfig`` has only the nine classic fields."""
    return SubscriptionGroupConfig(
        group_name=cfg.group_name,
        consume_enable=cfg.consume_enable,
        consume_from_min_enable=cfg.consume_from_min_enable,
        consume_broadcast_enable=cfg.consume_broadcast_enable,
        retry_queue_nums=cfg.retry_queue_nums,
        retry_max_times=cfg.retry_max_times,
        broker_id=cfg.broker_id,
        which_broker_when_consume_slowly=cfg.which_broker_when_consume_slowly,
        notify_consumer_ids_changed_enable=cfg.notify_consumer_ids_changed_enable,
    )
