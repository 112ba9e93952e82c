"""Where and how the admin API connects: name servers, credentials, timeouts, TLS, wire identity."""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.protocol.command import DEFAULT_LANGUAGE, DEFAULT_VERSION

__all__ = ["DEFAULT_NAMESRV", "DEFAULT_TIMEOUT", "AdminSettings", "Credentials", "parse_namesrv_list"]

DEFAULT_NAMESRV = "127.0.0.1:9876"
DEFAULT_TIMEOUT = 5.0
"""Seconds per request, as the Java tool's ``DefaultMQAdminExt`` (5000 ms)."""
DEFAULT_CONNECT_TIMEOUT = 3.0
"""Java's ``connectTimeoutMillis``."""


@dataclass(frozen=True, slots=True)
class Credentials:
    """ACL 1.0 keys: every request is signed with them (``AclClientRPCHook``)."""

    access_key: str
    secret_key: str
    security_token: str | None = None

    def __repr__(self) -> str:  # never print a secret by accident
        return f"Credentials(access_key={self.access_key!r}, secret_key='***')"


@dataclass(frozen=True, slots=True)
class AdminSettings:
    """Everything an :class:`~mqadmin.admin.api.MQAdmin` needs to reach a cluster."""

    namesrv_addrs: tuple[str, ...] = (DEFAULT_NAMESRV,)
    timeout: float = DEFAULT_TIMEOUT
    """Seconds each request may take (connect included)."""
    credentials: Credentials | None = None
    tls: bool = False
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    version: int = DEFAULT_VERSION
    """The ``version`` our requests carry: 479 (V5_3_3), as the Java 5.3.3 tool sends."""
    language: str = DEFAULT_LANGUAGE
    namesrv_is_default: bool = False
    """True when nobody named a name server and the built-in default is used (for error hints)."""


def parse_namesrv_list(text: str | None) -> list[str]:
    """Name server addresses from ``host:port;host:port`` (Java) or commas, blanks ignored.

    Like the Java client, a value starting with ``http://`` means "the part after the last slash".
    """
    if text is None:
        return []
    value = text.strip()
    if value.startswith("http://"):
        value = value.rsplit("/", 1)[-1]
    out: list[str] = []
    for part in value.replace(",", ";").split(";"):
        part = part.strip()
        if part and part not in out:
            out.append(part)
    return out
