"""Command headers in both RocketMQ serializations: fastjson JSON and the ROCKETMQ binary layout.

A decoded header re-encodes to the very bytes it came from: JSON written by Java (fastjson) and by
the C++ client (jsoncpp) differ in small ways, and the command remembers which one it was.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any

import orjson

from mqadmin.protocol.codes import LanguageCode
from mqadmin.protocol.command import HeaderStyle, RemotingCommand, SerializeType
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.fastjson import quote
from mqadmin.protocol.names import bad_text

_fast_loads: Callable[[bytes], Any] | None = orjson.loads
"""The reader tried first: orjson, in about a third of json's time (json stays the one that decides);
None reads with json alone."""


def read_headers_fast() -> None:
    """Read JSON headers with orjson first again (the default)."""
    global _fast_loads
    _fast_loads = orjson.loads


_LANG_BY_CODE = {lc.value: lc.name for lc in LanguageCode}
_CODE_BY_LANG = {lc.name: lc.value for lc in LanguageCode}


# ------------------------------------------------------------------------------------------------ JSON


def encode_json_header(cmd: RemotingCommand) -> bytes:
    """The JSON header as the peer that made ``cmd`` writes it (fastjson unless told otherwise)."""
    cpp = cmd.style is HeaderStyle.JSONCPP
    parts = [f'{{"code":{cmd.code}']
    ext = cmd.ext_fields
    if ext is not None:
        numeric = cmd.numeric_ext
        items = []
        for k, v in ext.items():
            if v is None:
                continue
            items.append(f"{quote(k)}:{v if k in numeric else quote(v)}")
        parts.append(',"extFields":{' + ",".join(items) + "}")
    parts.append(f',"flag":{cmd.flag},"language":"{cmd.language}","opaque":{cmd.opaque}')
    if cmd.remark is not None or cpp:
        parts.append(f',"remark":{quote(cmd.remark or "")}')
    if not cpp:
        parts.append(f',"serializeTypeCurrentRPC":"{cmd.serialize_type.value}"')
    parts.append(f',"version":{cmd.version}}}')
    if cpp:
        parts.append("\n")
    return "".join(parts).encode("utf-8")


class _NotSure(Exception):
    """orjson's reading may differ from json's here (a float: orjson turns integers past 64 bits into
    floats)."""


def decode_json_header(data: bytes) -> RemotingCommand:
    """Parse a JSON header; anything that is not a header object raises :class:`ProtocolError`.

    orjson reads it first; whatever orjson refuses (a BOM, lone surrogates, NaN, ...), any header it
    reads that is refused, and any number it reads as a float go to json, whose reading and
    refusals are the ones that count.
    """
    if _fast_loads is not None:
        try:
            return _json_header(_fast_loads(data), data, fast=True)
        except (ValueError, _NotSure, ProtocolError):
            pass
    try:
        h = _json_loads(data)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"header is not JSON: {e}") from None
    return _json_header(h, data, fast=False)


def _json_loads(data: bytes) -> Any:
    """json's reading of a header (the one that decides)."""
    return json.loads(data)


def _json_header(h: object, data: bytes, *, fast: bool) -> RemotingCommand:
    if not isinstance(h, dict):
        raise ProtocolError("header is not a JSON object")
    try:
        code = _int(h.get("code", 0), "code")
        ext_raw = h.get("extFields")
        ext: dict[str, str] | None = None
        numeric: set[str] = set()
        if ext_raw is not None:
            if not isinstance(ext_raw, dict):
                raise ProtocolError("extFields is not an object")
            ext = {}
            for k, v in ext_raw.items():
                if isinstance(v, str):
                    ext[k] = v
                elif v is None:
                    continue
                elif isinstance(v, bool):
                    ext[k] = "true" if v else "false"
                    numeric.add(k)
                elif isinstance(v, int | float):
                    if fast and isinstance(v, float):
                        raise _NotSure
                    ext[k] = str(v)
                    numeric.add(k)
                else:
                    raise ProtocolError(f"extFields.{k} is not a scalar")
        language = h.get("language", "JAVA")
        if isinstance(language, int) and not isinstance(language, bool):
            language = _LANG_BY_CODE.get(language, "OTHER")
        if not isinstance(language, str):
            raise ProtocolError("language is not a string")
        remark = h.get("remark")
        if remark is not None and not isinstance(remark, str):
            raise ProtocolError("remark is not a string")
        cpp = "serializeTypeCurrentRPC" not in h
        # what orjson reads holds no lone surrogate (it refuses them), and a NUL only as an escape;
        # json also reads surrogates written as raw UTF-8 bytes, so its readings are always checked
        bad = _bad_header_text(ext, remark) if not fast or b"\\u0000" in data else None
        return RemotingCommand(
            code=code,
            opaque=_int(h.get("opaque", 0), "opaque"),
            flag=_int(h.get("flag", 0), "flag"),
            language=language,
            version=_int(h.get("version", 0), "version"),
            remark=remark,
            ext_fields=ext,
            serialize_type=SerializeType.JSON,
            style=HeaderStyle.JSONCPP if cpp else HeaderStyle.FASTJSON,
            numeric_ext=frozenset(numeric),
            bad_text=bad,
        )
    except ProtocolError:
        raise
    except (TypeError, ValueError, AttributeError) as e:
        raise ProtocolError(f"bad header field: {e}") from None


def _int(v: object, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ProtocolError(f"header {name} is not an integer")
    if not -(1 << 31) <= v < (1 << 31):
        raise ProtocolError(f"header {name} out of int range")
    return v


# ---------------------------------------------------------------------------------------------- ROCKETMQ

_FIXED = struct.Struct(">hBhii")  # code, language, version, opaque, flag


def encode_binary_header(cmd: RemotingCommand) -> bytes:
    """The ROCKETMQ layout: fixed fields, int-length remark, int-length ext-field block."""
    out = bytearray(
        _FIXED.pack(
            _short(cmd.code),
            _CODE_BY_LANG.get(cmd.language, LanguageCode.OTHER.value),
            _short(cmd.version),
            cmd.opaque,
            cmd.flag,
        )
    )
    remark = (cmd.remark or "").encode("utf-8")
    out += struct.pack(">i", len(remark)) + remark
    ext = bytearray()
    for k, v in (cmd.ext_fields or {}).items():
        if v is None:
            continue
        kb, vb = k.encode("utf-8"), v.encode("utf-8")
        ext += struct.pack(">H", len(kb)) + kb + struct.pack(">i", len(vb)) + vb
    out += struct.pack(">i", len(ext)) + ext
    return bytes(out)


def _short(v: int) -> int:
    """Java writes the low 16 bits of an int code or version into a short."""
    v &= 0xFFFF
    return v - 0x10000 if v >= 0x8000 else v


def decode_binary_header(data: bytes) -> RemotingCommand:
    """Parse the ROCKETMQ layout; lengths that overrun the header raise :class:`ProtocolError`."""
    n = len(data)
    if n < _FIXED.size + 8:
        raise ProtocolError("binary header too short")
    code, lang, version, opaque, flag = _FIXED.unpack_from(data, 0)
    pos = _FIXED.size
    remark_len = struct.unpack_from(">i", data, pos)[0]
    pos += 4
    if remark_len < 0 or pos + remark_len + 4 > n:
        raise ProtocolError("binary header remark overruns the header")
    remark = _utf8(data[pos : pos + remark_len]) if remark_len else None
    pos += remark_len
    ext_len = struct.unpack_from(">i", data, pos)[0]
    pos += 4
    if ext_len < 0 or pos + ext_len != n:
        raise ProtocolError("binary header ext fields length does not match the header")
    ext: dict[str, str] | None = None
    if ext_len:
        ext = {}
        end = pos + ext_len
        while pos < end:
            if pos + 2 > end:
                raise ProtocolError("binary header ext key truncated")
            klen = struct.unpack_from(">H", data, pos)[0]
            pos += 2
            if pos + klen + 4 > end:
                raise ProtocolError("binary header ext key overruns")
            key = _utf8(data[pos : pos + klen])
            pos += klen
            vlen = struct.unpack_from(">i", data, pos)[0]
            pos += 4
            if vlen < 0 or pos + vlen > end:
                raise ProtocolError("binary header ext value overruns")
            ext[key] = _utf8(data[pos : pos + vlen])
            pos += vlen
    return RemotingCommand(
        code=code,
        opaque=opaque,
        flag=flag,
        bad_text=_bad_header_text(ext, remark),
        language=_LANG_BY_CODE.get(lang, "OTHER"),
        version=version,
        remark=remark,
        ext_fields=ext,
        serialize_type=SerializeType.ROCKETMQ,
    )


def _bad_header_text(ext: dict[str, str] | None, remark: str | None) -> str | None:
    """Where a decoded header holds text that cannot be kept (lone surrogate, NUL), or None."""
    if remark is not None and (why := bad_text(remark)) is not None:
        return f"the header remark {why}"
    for k, v in (ext or {}).items():
        if (why := bad_text(k)) is not None:
            return f"a header field name {why}"
        if (why := bad_text(v)) is not None:
            return f"the header field {k} {why}"
    return None


def _utf8(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("binary header string is not UTF-8") from None
