"""The broker's JSON config files: fastjson's pretty format, and Java's persist/load discipline.

``topics.json``, ``subscriptionGroup.json``, ``consumerOffset.json`` and ``delayOffset.json`` are
written by ``ConfigManager.persist`` as fastjson ``PrettyFormat`` text: TAB indentation, no space
after the colon, each string-keyed member on its own line, no trailing newline. Maps keyed by
numbers put their entries on one line and close on the next. Every write replaces the file whole
(the previous content kept as ``.bak``); loading falls back to ``.bak`` when the file is missing,
empty or unreadable, as Java's ``ConfigManager.load`` does.

A write that fails (a full disk, a read-only directory, text that cannot be encoded) never raises:
it is logged once, the file keeps its last good content, and every later persist tries again (and
says so once it works again). Periodic flushes and the shutdown therefore always run to their end.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mqadmin.atomicfile import write_atomic
from mqadmin.protocol import fastjson
from mqadmin.protocol.errors import ProtocolError

__all__ = ["Coalesced", "load_config_file", "persist_config_file", "pretty_json"]

log = logging.getLogger("mqadmin.broker")


class Coalesced:
    """Actions (a file write, a registration) asked for inside :meth:`batch` run once each when the
    outermost batch ends, whatever ends it; outside a batch they run at once. So one request that
    creates many groups or retry topics writes each file once and registers once."""

    def __init__(self) -> None:
        self._depth = 0
        self._due: dict[Callable[[], object], None] = {}

    def ask(self, action: Callable[[], object]) -> None:
        if self._depth:
            self._due[action] = None  # a bound method asked twice is one entry
        else:
            action()

    @contextmanager
    def batch(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                due, self._due = self._due, {}
                for action in due:
                    action()


def pretty_json(value: Any) -> str:
    """fastjson ``toJSONString(value, PrettyFormat)``."""
    out: list[str] = []
    _write(value, 0, out)
    return "".join(out)


def _write(v: Any, level: int, out: list[str]) -> None:
    if hasattr(v, "to_json_obj"):
        v = v.to_json_obj()
    if isinstance(v, Mapping):
        items = [(k, x) for k, x in v.items() if x is not None]
        if not items:
            out.append("{}")
            return
        out.append("{")
        string_keys = all(isinstance(k, str) for k, _ in items)
        inner = "\n" + "\t" * (level + 1)
        for i, (k, x) in enumerate(items):
            if i:
                out.append(",")
            if string_keys:
                out.append(inner)
            out.append(fastjson.dumps({k: 0})[1:-3])  # the key exactly as the compact writer puts it
            out.append(":")
            _write(x, level + 1, out)
        out.append("\n" + "\t" * level + "}")
    elif isinstance(v, list | tuple):
        if not v:
            out.append("[]")
            return
        out.append("[")
        inner = "\n" + "\t" * (level + 1)
        for i, x in enumerate(v):
            if i:
                out.append(",")
            out.append(inner)
            _write(x, level + 1, out)
        out.append("\n" + "\t" * level + "]")
    else:
        out.append(fastjson.dumps(v))


_failing: set[Path] = set()
"""Files whose latest persist failed (each failure streak is logged once)."""


def persist_config_file(path: Path, text: str | Callable[[], str]) -> bool:
    """``MixAll.string2File``: keep the old content as ``.bak``, then replace the file atomically.

    ``text`` may be a function making it, so that a failure to encode is handled like a failure to
    write. Returns whether the file now holds the text; never raises (see the module docstring).
    """
    try:
        data = (text() if callable(text) else text).encode("utf-8")
        if path.is_file():
            old = path.read_bytes()
            if old:
                write_atomic(path.with_name(path.name + ".bak"), old)
        write_atomic(path, data)
    except Exception as e:  # a persist must never stop its caller
        if path not in _failing:
            _failing.add(path)
            log.error("persist %s failed (kept its last good content; retried on every persist): %s", path, e)
        return False
    if path in _failing:
        _failing.discard(path)
        log.warning("persist %s works again", path)
    return True


def load_config_file(
    path: Path, decode: Callable[[Any], None], parse: Callable[[str], Any] = fastjson.loads
) -> bool:
    """``ConfigManager.load``: decode the file, else its ``.bak``; False when neither is usable.

    ``parse`` turns the text into JSON values (a manager may read what Java writes more leniently)."""
    for p in (path, path.with_name(path.name + ".bak")):
        try:
            text = p.read_text("utf-8")
        except FileNotFoundError:
            continue
        except OSError as e:
            log.error("cannot read %s: %s", p, e)
            continue
        if not text.strip():
            continue
        try:
            decode(parse(text))
        except (ProtocolError, ValueError, TypeError, KeyError) as e:
            log.error("cannot parse %s: %s", p, e)
            continue
        log.info("loaded %s", p)
        return True
    return False
