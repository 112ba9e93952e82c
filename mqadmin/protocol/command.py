"""The remoting command: one request or response as RocketMQ puts it on the wire.

The header carries code, language, version, opaque, flag, remark and string ext fields; the body is
opaque bytes whose meaning depends on the code. A command is a plain value: encoding lives in
:mod:`mqadmin.protocol.header` and :mod:`mqadmin.protocol.frame`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import StrEnum

FLAG_RESPONSE = 0x1
FLAG_ONEWAY = 0x2

DEFAULT_LANGUAGE = "JAVA"
DEFAULT_VERSION = 479  # MQVersion V5_3_3: what the Java 5.3.3 tools send

_opaques = itertools.count(1)


def next_opaque() -> int:
    """A process-wide request id, wrapping like Java's AtomicInteger."""
    n = next(_opaques) & 0xFFFFFFFF
    return n - (1 << 32) if n >= (1 << 31) else n


class SerializeType(StrEnum):
    """How a header is serialized: fastjson JSON or the compact ROCKETMQ binary layout.

    Each member is the string of its name (what a JSON header's ``serializeTypeCurrentRPC`` says),
    with :attr:`code` the frame's serialize byte.
    """

    JSON = "JSON"
    ROCKETMQ = "ROCKETMQ"

    @property
    def code(self) -> int:
        """The top byte of the frame's second int32."""
        return _SERIALIZE_CODES[self]


_SERIALIZE_CODES = {SerializeType.JSON: 0, SerializeType.ROCKETMQ: 1}


class HeaderStyle(StrEnum):
    """Which writer produced a JSON header, so a decoded header re-encodes to the same bytes.

    FASTJSON is the Java side (sorted keys, ``serializeTypeCurrentRPC``); JSONCPP is the C++ client
    (sorted keys, ``remark`` always present, numeric ext values unquoted, trailing newline).
    """

    FASTJSON = "fastjson"
    JSONCPP = "jsoncpp"


@dataclass(slots=True)
class RemotingCommand:
    """A request or response; ``ext_fields`` values are always strings, as Java sees them.

    Equality compares every field; the repr lists the fields in their wire order.
    """

    code: int
    opaque: int = 0
    flag: int = 0
    language: str = DEFAULT_LANGUAGE
    version: int = DEFAULT_VERSION
    remark: str | None = None
    ext_fields: dict[str, str] | None = None
    body: bytes | None = None
    serialize_type: SerializeType = SerializeType.JSON
    style: HeaderStyle = HeaderStyle.FASTJSON
    numeric_ext: frozenset[str] = frozenset()
    """Ext field names that the peer wrote as JSON numbers (C++ client); only re-encoding cares."""
    bad_text: str | None = None
    """Why this request's header text cannot be kept (a lone surrogate or NUL in a field), set by
    the decoder; a server answers such a request with an error before any handler sees it."""

    @classmethod
    def request(
        cls,
        code: int,
        ext_fields: dict[str, str] | None = None,
        body: bytes | None = None,
        *,
        oneway: bool = False,
        language: str = DEFAULT_LANGUAGE,
        version: int = DEFAULT_VERSION,
    ) -> RemotingCommand:
        """A new request with a fresh opaque."""
        return cls(
            code=code,
            opaque=next_opaque(),
            flag=FLAG_ONEWAY if oneway else 0,
            language=language,
            version=version,
            ext_fields=ext_fields,
            body=body,
        )

    def response(
        self,
        code: int = 0,
        remark: str | None = None,
        ext_fields: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> RemotingCommand:
        """The answer to this request: same opaque and serialization, response flag set."""
        return RemotingCommand(
            code=code,
            opaque=self.opaque,
            flag=FLAG_RESPONSE,
            language=DEFAULT_LANGUAGE,
            version=DEFAULT_VERSION,  # Java answers with its own version, not the caller's
            remark=remark,
            ext_fields=ext_fields,
            body=body,
            serialize_type=self.serialize_type,
        )

    @property
    def is_response(self) -> bool:
        return bool(self.flag & FLAG_RESPONSE)

    @property
    def is_oneway(self) -> bool:
        return bool(self.flag & FLAG_ONEWAY)

    def ext(self, name: str, default: str | None = None) -> str | None:
        """One ext field, or ``default`` when absent."""
        if self.ext_fields is None:
            return default
        return self.ext_fields.get(name, default)
