"""Consume modes (pull or pop) set per topic and group: Java's ``MessageRequestModeManager``.

Kept in ``config/messageRequestMode.json`` in the Java format, written whole on every change (the
old content kept as ``.bak``), loaded at start. Entries are set by SET_MESSAGE_REQUEST_MODE (401)
after the broker checked the topic and the group exist, and read back by
GET_ALL_MESSAGE_REQUEST_MODE (402).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mqadmin.broker.jsonfile import load_config_file, persist_config_file, pretty_json
from mqadmin.protocol.bodies.request_mode import MessageRequestModeWrapper, SetMessageRequestModeRequestBody

__all__ = ["RequestModeManager"]


class RequestModeManager:
    """topic → group → the mode body last set."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / "messageRequestMode.json"
        self.wrapper = MessageRequestModeWrapper()

    def load(self) -> None:
        def decode(obj: Any) -> None:
            self.wrapper = MessageRequestModeWrapper.from_json_obj(obj)

        load_config_file(self.path, decode)

    def get(self, topic: str, group: str) -> SetMessageRequestModeRequestBody | None:
        return self.wrapper.table.get(topic, {}).get(group)

    def set(self, topic: str, group: str, body: SetMessageRequestModeRequestBody) -> bool:
        """Record the mode and persist; whether the file now holds it."""
        self.wrapper.table.setdefault(topic, {})[group] = body
        return persist_config_file(self.path, lambda: pretty_json(self.wrapper.to_json_obj()))

    def encode(self) -> bytes:
        """The table as GET_ALL_MESSAGE_REQUEST_MODE answers it (``encode()``: compact JSON)."""
        return self.wrapper.encode()
