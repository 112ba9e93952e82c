"""Request header fields read the way Java's ``decodeCommandCustomHeader`` reads them.

Java fills a header object from the ext fields and swallows every failure: a missing required
field stays null, a number that does not parse keeps the field's default, and a Boolean is true
only for "true" in any case. The name server's answers to odd requests follow from that, so we
read fields the same way instead of rejecting the request.
"""

from __future__ import annotations

from mqadmin.javaconfig import parse_java_integer

__all__ = [
    "EXCEPTION_WHERE",
    "java_bool",
    "java_exception_remark",
    "java_int",
    "java_long",
    "parse_boolean",
]

EXCEPTION_WHERE = "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor"
"""The class a name server request failure is reported from."""


def _parse(text: str | None, kind: str) -> int | None:
    if text is None:
        return None
    try:
        return parse_java_integer(text, kind)
    except ValueError:
        return None


def java_long(text: str | None) -> int | None:
    """``Long.parseLong`` of an ext field; None when absent or unparsable (the field stays null)."""
    return _parse(text, "long")


def java_int(text: str | None) -> int | None:
    """``Integer.parseInt`` of an ext field; None when absent or unparsable."""
    return _parse(text, "int")


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
