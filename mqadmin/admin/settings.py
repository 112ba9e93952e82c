"""Where and how the admin API connects: name servers, credentials, timeouts, TLS, wire identity."""

from __future__ import annotations

from mqadmin.protocol.command import DEFAULT_LANGUAGE, DEFAULT_VERSION
from mqadmin.record import FrozenRecord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["DEFAULT_NAMESRV", "DEFAULT_TIMEOUT", "AdminSettings", "Credentials", "parse_namesrv_list"]

DEFAULT_NAMESRV = "127.0.0.1:9876"
DEFAULT_TIMEOUT = 5.0
"""Seconds per request, as the Java tool's ``DefaultMQAdminExt`` (5000 ms)."""
DEFAULT_CONNECT_TIMEOUT = 3.0
"""Java's ``connectTimeoutMillis``."""

_set = object.__setattr__


class _Frozen(FrozenRecord):
    """A :class:`~mqadmin.record.FrozenRecord` that is also read-only, as the frozen dataclasses these
    were: assigning a field raises, and a copy is made by ``with_``. ``__match_args__`` lists the
    fields in the constructor's order (the record's fields: the repr's, and pickling's)."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return self.__class__, tuple(getattr(self, name) for name in self.__match_args__)


class Credentials(_Frozen):
    """ACL 1.0 keys: every request is signed with them (``AclClientRPCHook``)."""

    __slots__ = ("access_key", "secret_key", "security_token")
    __match_args__ = ("access_key", "secret_key", "security_token")

    access_key: str
    secret_key: str
    security_token: str | None

    def __init__(self, access_key: str, secret_key: str, security_token: str | None = None) -> None:
        _set(self, "access_key", access_key)
        _set(self, "secret_key", secret_key)
        _set(self, "security_token", security_token)

    def __repr__(self) -> str:  # never print a secret by accident
        return f"Credentials(access_key={self.access_key!r}, secret_key='***')"


class AdminSettings(_Frozen):
    """Everything an :class:`~mqadmin.admin.api.MQAdmin` needs to reach a cluster.

    ``timeout``: seconds each request may take (connect included). ``version``: the ``version`` our
    requests carry, 479 (V5_3_3), as the Java 5.3.3 tool sends. ``namesrv_is_default``: True when
    nobody named a name server and the built-in default is used (for error hints).
    """

    __slots__ = (
        "connect_timeout",
        "credentials",
        "language",
        "namesrv_addrs",
        "namesrv_is_default",
        "timeout",
        "tls",
        "version",
    )
    __match_args__ = (
        "namesrv_addrs",
        "timeout",
        "credentials",
        "tls",
        "connect_timeout",
        "version",
        "language",
        "namesrv_is_default",
    )

    namesrv_addrs: tuple[str, ...]
    timeout: float
    credentials: Credentials | None
    tls: bool
    connect_timeout: float
    version: int
    language: str
    namesrv_is_default: bool

    def __init__(
        self,
        namesrv_addrs: tuple[str, ...] = (DEFAULT_NAMESRV,),
        timeout: float = DEFAULT_TIMEOUT,
        credentials: Credentials | None = None,
        tls: bool = False,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        version: int = DEFAULT_VERSION,
        language: str = DEFAULT_LANGUAGE,
        namesrv_is_default: bool = False,
    ) -> None:
        _set(self, "namesrv_addrs", namesrv_addrs)
        _set(self, "timeout", timeout)
        _set(self, "credentials", credentials)
        _set(self, "tls", tls)
        _set(self, "connect_timeout", connect_timeout)
        _set(self, "version", version)
        _set(self, "language", language)
        _set(self, "namesrv_is_default", namesrv_is_default)


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
