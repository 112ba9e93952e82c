"""White-list address patterns of ``plain_acl.yml``, matched the way Java's ``RemoteAddressStrategyFactory``
(4.9.8) matches them.

A pattern is one of: blank (matches nothing), ``*`` / ``*.*.*.*`` / ``*:*:*:*:*:*:*:*`` (everything),
one address (``192.168.0.1``, ``::1``), a list (``a,b,c``), a brace list of last parts
(``192.168.1.{1,2}``, ``1050::{1,2}``), or a range with ``*`` and ``a-b`` parts (``192.168.*.*``,
``192.168.1.1-5``, ``1050:0:0:0:5:600:300c:1-200``). A pattern Java refuses raises
:class:`AddressPatternError`. Java's quirks are kept on purpose (e.g. a range is decided by its first
``*`` or ``a-b`` part after the first one), so a file means here what it means to a Java broker.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from mqadmin.protocol.javanum import JavaNumberError, parse_int
from mqadmin.remoting.client import Connection

__all__ = [
    "AddressMatcher",
    "AddressPatternError",
    "address_matcher",
    "connection_host",
    "expand_ip",
    "peer_host",
]

AddressMatcher = Callable[[str], bool]
"""Whether a peer's host (``127.0.0.1``, ``::1``) is inside the pattern."""

_HEX = re.compile(r"[+-]?[0-9a-fA-F]+")


class AddressPatternError(ValueError):
    """A white-list address that Java's factory refuses (the broker does not start with it)."""


def _split(text: str, sep: str) -> list[str]:
    """``StringUtils.split``: adjacent separators count as one, no empty parts."""
    return [part for part in text.split(sep) if part]


def is_ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def expand_ip(address: str, parts: int) -> str:
    """``AclUtils.expandIP``: upper case, ``::`` widened to ``parts`` groups, each group 4 digits.

    An IPv4 address comes back as it went in (it has no ``:`` to work on).
    """
    address = address.upper()
    pad = parts - address.count(":")
    if pad > 0:
        address = address.replace("::", ":" * (pad + 1))
    return ":".join(g if len(g) >= 4 else g.rjust(4, "0") for g in address.split(":"))


def peer_host(remote_addr: str) -> str:
    """The host part of a connection's ``ip:port`` (``[v6]:port``), as Java cuts it at the last ``:``.

    An IPv4-mapped IPv6 peer is given as its IPv4 address, the way Java names it.
    """
    host = remote_addr.rpartition(":")[0] if ":" in remote_addr else remote_addr
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.startswith("::ffff:") or host.startswith("::FFFF:"):
        try:
            mapped = ipaddress.IPv6Address(host).ipv4_mapped
        except ValueError:
            mapped = None
        if mapped is not None:
            return str(mapped)
    return host


_HOST_ATTR = "peer.host"


def connection_host(conn: Connection) -> str:
    """:func:`peer_host` of a connection's peer, worked out once per connection (ACL checks ask it
    on every request)."""
    host = conn.attrs.get(_HOST_ATTR)
    if host is None:
        host = conn.attrs[_HOST_ATTR] = peer_host(conn.remote_addr or conn.addr)
    return str(host)


def _never(host: str) -> bool:
    return False


def _always(host: str) -> bool:
    return True


def address_matcher(pattern: str | None) -> AddressMatcher:
    """The matcher for one ``whiteRemoteAddress`` or ``globalWhiteRemoteAddresses`` entry."""
    if pattern is None or not pattern.strip():
        return _never
    if pattern in ("*", "*.*.*.*", "*:*:*:*:*:*:*:*"):
        return _always
    if pattern.endswith("}"):
        sep = ":" if ":" in pattern else "."
        parts = _split(pattern, sep)
        if sep == "." and len(parts) < 4:
            raise AddressPatternError(f"bad address list {pattern!r}: expected a.b.c.{{x,y}}")
        last = parts[-1] if parts else ""
        if not last.startswith("{"):
            raise AddressPatternError(f"bad address list {pattern!r}: the braces must hold the last part")
        prefix = pattern[: pattern.index("{")]
        return _multiple([prefix + p for p in _split(last[1:-1], ",")])
    if "," in pattern:
        return _multiple(_split(pattern, ","))
    if "*" in pattern or "-" in pattern:
        return _Range(pattern).match
    return _one(pattern)


def _multiple(addresses: list[str]) -> AddressMatcher:
    """``MultipleRemoteAddressStrategy``: any of these exact addresses."""
    allowed: set[str] = set()
    for a in addresses:
        if is_ipv4(a):
            allowed.add(a)
        elif is_ipv6(a):
            allowed.add(expand_ip(a, 8))
        else:
            raise AddressPatternError(f"bad address {a!r}")
    frozen = frozenset(allowed)

    def match(host: str) -> bool:
        return (expand_ip(host, 8) if is_ipv6(host) else host) in frozen

    return match


def _one(address: str) -> AddressMatcher:
    """``OneRemoteAddressStrategy``: this one address (IPv6 in any spelling)."""
    if not (is_ipv4(address) or is_ipv6(address)):
        raise AddressPatternError(f"bad address {address!r}")
    want = expand_ip(address, 8)

    def match(host: str) -> bool:
        return expand_ip(host, 8) == want

    return match


def _parse_dec(text: str) -> int:
    try:
        return parse_int(text)
    except JavaNumberError:
        raise AddressPatternError(f"bad number {text!r} in an address range") from None


def _parse_hex(text: str) -> int:
    if not _HEX.fullmatch(text):
        raise AddressPatternError(f"bad hex number {text!r} in an address range")
    return int(text, 16)


def _in_scope(pattern: str, count: int) -> bool:
    """``AclUtils.isScope(netaddress, index)``: the first ``count`` parts are valid numbers."""
    if ":" in pattern:
        groups = _split(expand_ip(pattern, 8), ":")
        for g in groups[:count]:
            if not _HEX.fullmatch(g) or not 0 <= int(g, 16) <= 0xFFFF:
                return False
        return True
    octets = _split(pattern, ".")
    if len(octets) != 4:
        return False
    return all(0 <= _parse_dec(o.strip()) <= 255 for o in octets[:count])


class _Range:
    """``RangeRemoteAddressStrategy``: a fixed head, then one part inside ``start..end``."""

    __slots__ = ("end", "head", "index", "start")

    def __init__(self, pattern: str) -> None:
        self.head: str | None = None
        self.start = self.end = self.index = 0
        if ":" in pattern:
            self._ipv6(pattern)
        else:
            self._ipv4(pattern)

    def _ipv4(self, pattern: str) -> None:
        parts = _split(pattern, ".")
        if len(parts) < 4:
            raise AddressPatternError(f"bad address range {pattern!r}: expected four parts")
        if any(self._analyse(parts[i], i, 255, _parse_dec) for i in (1, 2, 3)):
            if not _in_scope(pattern, self.index - 1):
                raise AddressPatternError(f"bad address range {pattern!r}")
            self.head = "".join(p.strip() + "." for p in parts[: self.index])

    def _ipv6(self, pattern: str) -> None:
        star, minus = pattern.find("*"), pattern.find("-")
        if star > -1 and star != len(pattern) - 1:
            raise AddressPatternError(f"bad address range {pattern!r}: '*' must come last")
        if minus > -1:
            last = pattern.rfind(":")
            limit = last if star == -1 else pattern.rfind(":", 0, last)
            if minus <= limit:
                raise AddressPatternError(f"bad address range {pattern!r}")
        parts = _split(pattern, ":")
        for i in range(1, len(parts)):
            if self._analyse(parts[i], i, 0xFFFF, _parse_hex):
                if not _in_scope(pattern, self.index - 1):
                    raise AddressPatternError(f"bad address range {pattern!r}")
                self.head = _v6_head(pattern, star > -1, minus > -1)
                self.index = len(_split(self.head, ":"))
                break

    def _analyse(self, part: str, index: int, top: int, parse: Callable[[str], int]) -> bool:
        value = part.strip()
        self.index = index
        if value == "*":
            self.start, self.end = 0, top
        elif "-" in value:
            if value.startswith("-"):
                raise AddressPatternError(f"bad address range part {value!r}")
            bounds = _split(value, "-")
            if len(bounds) < 2:
                raise AddressPatternError(f"bad address range part {value!r}")
            self.start, self.end = parse(bounds[0]), parse(bounds[1])
            if not (0 <= self.start <= self.end <= top):
                raise AddressPatternError(f"bad address range part {value!r}")
        return self.end > 0

    def match(self, host: str) -> bool:
        head = self.head
        if head is None:
            return False
        if is_ipv4(host):
            if not host.startswith(head):
                return False
            if self.index == 3:
                value = host[len(head) :]
            elif self.index == 2:
                value = host[len(head) : host.rfind(".")]
            else:
                value = host[len(head) : host.rfind(".", 0, host.rfind("."))]
            return value.isdigit() and self.start <= int(value) <= self.end
        if is_ipv6(host):
            full = expand_ip(host, 8)
            if not full.startswith(head):
                return False
            value = full[5 * self.index : 5 * self.index + 4]
            return bool(_HEX.fullmatch(value)) and self.start <= int(value, 16) <= self.end
        return False


def _v6_head(pattern: str, star: bool, minus: bool) -> str:
    """``AclUtils.v6ipProcess``: the fixed groups before the ranged one, expanded."""
    if star and minus:
        last = pattern.rfind(":")
        return expand_ip(pattern[: pattern[:last].rfind(":")], 6)
    if not star and not minus:
        return expand_ip(pattern, 8)
    return expand_ip(pattern[: pattern.rfind(":")], 7)
