"""Remarks of the name server's failures, written as Java writes them.

Java answers a request whose handler threw with ``UtilAll.exceptionSimpleDesc`` of the exception;
the few answers of that kind that clients see (a registration without a broker id, a body that
does not parse) carry the same text here. Header fields themselves are read by the declared
headers of :mod:`mqadmin.protocol.headers.namesrv`.
"""

from __future__ import annotations

__all__ = ["EXCEPTION_WHERE", "java_exception_remark"]

EXCEPTION_WHERE = "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor"
"""The class a name server request failure is reported from."""


def java_exception_remark(exception: str, message: str | None, method: str) -> str:
    """``UtilAll.exceptionSimpleDesc``: ``Throwable.toString()``, then the first stack frame.

    Java names the line of its source file there; we name the method only.
    """
    head = exception if not message else f"{exception}: {message}"
    cls = method.rpartition(".")[0]
    return f"{head}, {method}({cls.rpartition('.')[2]}.java)"
