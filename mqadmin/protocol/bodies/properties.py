"""Java ``Properties`` text, as RocketMQ's ``MixAll`` writes and reads configuration bodies.

GET_BROKER_CONFIG (26), GET_NAMESRV_CONFIG (319), UPDATE_BROKER_CONFIG (25) and
UPDATE_NAMESRV_CONFIG (318) carry a configuration as text.

Writing (``MixAll.properties2String``) is plain ``key + "=" + value + "\\n"`` per entry, with *no*
escaping at all, skipping null values. The order is the ``Properties`` iteration order: since Java 9
a ``Properties`` is backed by ``new ConcurrentHashMap<>(8)``, so entries come out in that map's
bucket order (a 4.9.8 broker's 178 settings sit in a table of 256, its name server's 21 in one of
32). A 5.x ``Configuration`` passes ``isSort=true`` and writes them sorted by key instead (``TreeMap``,
UTF-16 order): the 5.3.3 name server's answer is sorted.

Reading (``MixAll.string2Properties``) turns the text back into bytes with UTF-8 and hands them to
``Properties.load(InputStream)``, which reads ISO-8859-1: a non-ASCII character therefore arrives as
one Latin-1 character per UTF-8 byte, exactly as the Java side sees it (``java_charset=False``
reads UTF-8 instead). ``load`` then applies its own syntax: ``#``/``!`` comment lines, leading
blanks skipped, ``=``, ``:`` or a blank ends the key, a trailing backslash continues the line, and
``\\t \\n \\r \\f \\uXXXX`` escapes; a backslash before any other character stands for that character.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.javacoll import bucket_order, chm_capacity, java_string_sort_key

__all__ = ["properties_order", "properties_store", "properties_to_string", "string_to_properties"]

_PROPERTIES_INITIAL = 8
"""``new Properties()`` backs itself with ``new ConcurrentHashMap<>(8)`` (a table of 16)."""


def properties_order(keys: list[str]) -> list[str]:
    """Iteration order of a ``java.util.Properties`` (Java 9+) holding ``keys`` put in this order."""
    if len(keys) < 2:
        return list(keys)
    return bucket_order(keys, chm_capacity(len(keys), _PROPERTIES_INITIAL))


def properties_to_string(props: Mapping[str, str | None], *, sort: bool = False) -> str:
    """``MixAll.properties2String``: ``key=value\\n`` lines, unescaped; ``sort`` as 5.x configs do."""
    keys = [k for k, v in props.items() if v is not None]
    if sort:
        keys.sort(key=java_string_sort_key)
    else:
        keys = properties_order(keys)
    return "".join([f"{k}={props[k]}\n" for k in keys])


def _store_escape(s: str, *, key: bool) -> str:
    """``Properties.saveConvert`` with ``escUnicode``: what ``store(OutputStream)`` writes."""
    out: list[str] = []
    for i, c in enumerate(s):
        o = ord(c)
        if c == " ":
            out.append("\\ " if (key or i == 0) else " ")
        elif c in "\\=:#!":
            out.append("\\" + c)
        elif c == "\t":
            out.append("\\t")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\f":
            out.append("\\f")
        elif o < 0x20 or o > 0x7E:
            out.append("".join(f"\\u{u:04X}" for u in _utf16(c)))
        else:
            out.append(c)
    return "".join(out)


def _utf16(c: str) -> tuple[int, ...]:
    o = ord(c)
    if o <= 0xFFFF:
        return (o,)
    o -= 0x10000
    return (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF))


def properties_store(props: Mapping[str, str | None], *, sort: bool = True) -> str:
    """A config file as ``Properties.store`` would write it: every entry escaped, one line each.

    Unlike ``properties_to_string`` (Java's unescaped ``properties2String``, kept for wire bodies),
    no value can break out of its line here: a persisted file reads back to exactly ``props``.
    """
    keys = [k for k, v in props.items() if v is not None]
    if sort:
        keys.sort(key=java_string_sort_key)
    return "".join(f"{_store_escape(k, key=True)}={_store_escape(props[k] or '', key=False)}\n" for k in keys)


def string_to_properties(
    data: str | bytes, *, java_charset: bool = True, strict: bool = False
) -> dict[str, str]:
    """``MixAll.string2Properties``: the entries in text order (a later duplicate key wins).

    A malformed ``\\uXXXX`` escape raises :class:`ProtocolError` (Java logs it and returns null), and
    so does text that is not UTF-8 when ``strict`` (Java would read it as U+FFFD).
    """
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        if strict:  # a config update: bytes that are not UTF-8 are refused, not turned into U+FFFD
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ProtocolError(f"properties text is not UTF-8: {e}") from None
        if java_charset:
            # Java decodes the body as UTF-8 first (bad bytes become U+FFFD), then re-encodes it.
            text = raw.decode("utf-8", "replace").encode("utf-8").decode("latin-1")
        else:
            text = raw.decode("utf-8", "replace")
    elif java_charset:
        text = data.encode("utf-8", "replace").decode("latin-1")
    else:
        text = data
    out: dict[str, str] = {}
    for line in _logical_lines(text):
        key, value = _split(line)
        out[_unescape(key)] = _unescape(value)
    return out


_BLANK = " \t\f"
_EOL = "\r\n"


def _logical_lines(text: str) -> Iterator[str]:
    """``Properties.LineReader.readLine``: logical lines, continuation joined, escapes kept."""
    i, n = 0, len(text)
    while True:
        buf: list[str] = []
        skip_blank = True
        appended = False
        backslash = False
        while True:
            if i >= n:
                if buf:
                    yield "".join(buf[:-1] if backslash else buf)
                return
            c = text[i]
            i += 1
            if skip_blank:
                if c in _BLANK or (not appended and c in _EOL):
                    continue
                skip_blank = False
                appended = False
            if not buf and (c == "#" or c == "!"):
                while i < n and text[i] not in _EOL:
                    i += 1
                skip_blank = True
                continue
            if c not in _EOL:
                buf.append(c)
                backslash = (not backslash) if c == "\\" else False
                continue
            if not buf:
                skip_blank = True
                continue
            if i >= n:
                yield "".join(buf[:-1] if backslash else buf)
                return
            if not backslash:
                yield "".join(buf)
                break
            buf.pop()  # the continuation backslash is not part of the line
            skip_blank = True
            appended = True
            backslash = False
            if c == "\r" and text[i] == "\n":
                i += 1


def _split(line: str) -> tuple[str, str]:
    """``Properties.load0``: the key ends at an unescaped ``=``, ``:`` or blank."""
    n = len(line)
    key_len = 0
    value_start = n
    has_sep = False
    backslash = False
    while key_len < n:
        c = line[key_len]
        if (c == "=" or c == ":") and not backslash:
            value_start = key_len + 1
            has_sep = True
            break
        if c in _BLANK and not backslash:
            value_start = key_len + 1
            break
        backslash = (not backslash) if c == "\\" else False
        key_len += 1
    while value_start < n:
        c = line[value_start]
        if c not in _BLANK:
            if not has_sep and (c == "=" or c == ":"):
                has_sep = True
            else:
                break
        value_start += 1
    return line[:key_len], line[value_start:]


_ESCAPED = {"t": "\t", "r": "\r", "n": "\n", "f": "\f"}
_HEX = frozenset("0123456789abcdefABCDEF")


def _unescape(s: str) -> str:
    """``Properties.loadConvert``."""
    if "\\" not in s:
        return s
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        i += 1
        if c != "\\":
            out.append(c)
            continue
        if i >= n:
            break
        c = s[i]
        i += 1
        if c == "u":
            digits = s[i : i + 4]
            if len(digits) < 4 or not all(d in _HEX for d in digits):
                raise ProtocolError("Malformed \\uxxxx encoding in properties text")
            out.append(chr(int(digits, 16)))
            i += 4
        else:
            out.append(_ESCAPED.get(c, c))
    text = "".join(out)
    if not text.isascii() and any("\ud800" <= ch <= "\udfff" for ch in text):
        # \uD83D\uDE00 is one character to Java; join such pairs (lone halves stay as they are)
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text
