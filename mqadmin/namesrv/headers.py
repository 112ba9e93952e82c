"""Request header fields read the way Java's ``decodeCommandCustomHeader`` reads them.

Java fills a header object from the ext fields and swallows every failure: a missing required
field stays null, a number that does not parse keeps the field's default, and a Boolean is true
only for "true" in any case. The name server's answers to odd requests follow from that, so we
read fields the same way instead of rejecting the request.
"""

from __future__ import annotations

import re

__all__ = [
    "EXCEPTION_WHERE",
    "java_bool",
    "java_exception_remark",
    "java_int",
    "java_long",
    "parse_boolean",
]

_DIGITS = re.compile(r"[+-]?[0-9]+")
_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)

EXCEPTION_WHERE = "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor"
"""The class a name server request failure is reported from."""


def _parse(text: str | None, lo: int, hi: int) -> int | None:
    if text is None or not _DIGITS.fullmatch(text):
        return None
    n = int(text)
    return n if lo <= n <= hi else None


def java_long(text: str | None) -> int | None:
    """``Long.parseLong`` of an ext field; None when absent or unparsable (the field stays null)."""
    return _parse(text, *_INT64)


def java_int(text: str | None) -> int | None:
    """``Integer.parseInt`` of an ext field; None when absent or unparsable."""
    return _parse(text, *_INT32)


def parse_boolean(text: str | None) -> bool:
    """``Boolean.parseBoolean``: true only for "true", ignoring case."""
    return text is not None and text.lower() == "true"


def java_bool(text: str | None) -> bool | None:
    """A ``Boolean`` header field: None when absent, else :func:`parse_boolean`."""
    return None if text is None else parse_boolean(text)


def java_exception_remark(exception: str, message: str | None, method: str) -> str:
    """``UtilAll.exceptionSimpleDesc``: ``Throwable.toString()``, then the first stack frame.

    Java names the line of its source file there; we name the method only.
    """
    head = exception if not message else f"{exception}: {message}"
    cls = method.rpartition(".")[0]
    return f"{head}, {method}({cls.rpartition('.')[2]}.java)"
