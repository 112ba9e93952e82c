"""Contexts: named connection profiles (name servers, credentials, timeout, TLS) in one file.

The file is JSON at ``$MQADMIN_CONFIG_DIR/contexts.json`` (default ``$XDG_CONFIG_HOME/mqadmin`` or
``~/.config/mqadmin``), written atomically so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from mqadmin.atomicfile import PathText, write_atomic
from mqadmin.cli.configdir import contexts_path as default_path


class ContextError(Exception):
    """A context that does not exist, or a config file that cannot be read."""


@dataclass(slots=True)
class Context:
    """A named cluster to talk to (name server, credentials, timeout, TLS), as ``mqadmin context``
    stores it; the command line's own options win over it."""

    name: str
    namesrv: str | None = None
    access_key: str | None = None
    secret_key: str | None = None
    timeout: float | None = None
    tls: bool = False
    description: str | None = None
    doctor: dict[str, str] | None = None  # the doctor's thresholds for this cluster: NAME -> VALUE

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None and k != "name"}


@dataclass(slots=True)
class ContextStore:
    """The stored contexts and the current one: one JSON file, written atomically."""

    path: str
    current: str | None = None
    contexts: dict[str, Context] = field(default_factory=dict)

    @classmethod
    def load(cls, path: PathText | None = None) -> ContextStore:
        path = os.fspath(path) if path is not None else default_path()
        if not os.path.exists(path):
            return cls(path)
        try:
            with open(path, encoding="utf-8") as f:
                raw = json.loads(f.read())
        except (OSError, ValueError) as e:
            raise ContextError(f"cannot read {path}: {e}") from None
        known = {f.name for f in fields(Context)}
        store = cls(path, current=raw.get("current"))
        for name, data in (raw.get("contexts") or {}).items():
            store.contexts[name] = Context(name=name, **{k: v for k, v in data.items() if k in known})
        return store

    def save(self) -> None:
        data = {
            "current": self.current,
            "contexts": {n: c.to_json() for n, c in sorted(self.contexts.items())},
        }
        write_atomic(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n", mode=0o600)

    def get(self, name: str) -> Context:
        try:
            return self.contexts[name]
        except KeyError:
            known = ", ".join(sorted(self.contexts)) or "none defined"
            raise ContextError(f"no context named {name!r} (known: {known})") from None

    def active(self, name: str | None = None) -> Context | None:
        """The context asked for by name, else ``MQADMIN_CONTEXT``, else the selected one."""
        name = name or os.environ.get("MQADMIN_CONTEXT") or self.current
        return self.get(name) if name else None
