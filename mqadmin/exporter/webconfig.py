"""``exportMetrics --web-config FILE``: TLS and basic auth in the format of Prometheus' exporter-toolkit.

The file is the one ``node_exporter --web.config.file`` reads, so one file serves every exporter of a
host::

    tls_server_config:
      cert_file: server.crt        # relative paths are read from the file's own directory
      key_file: server.key
      client_auth_type: RequireAndVerifyClientCert   # optional, with client_ca_file
      client_ca_file: ca.crt
      min_version: TLS12           # the default, as in exporter-toolkit
    basic_auth_users:
      prometheus: $2y$10$...       # bcrypt hashes only (htpasswd -nBC 10 "" | tr -d ':\\n')

A key this module does not implement (cipher suites, curve preferences, allowed SANs, ...) is refused
at start rather than silently ignored: each one tightens security, and a scraper configured for it
would otherwise be served without it. The file is read once, at start.

A password check costs a bcrypt hash (tens of milliseconds at cost 10). It runs on a thread, one at a
time, and its outcome is remembered (as exporter-toolkit does), so a scraper's repeated scrapes cost
one check; a crowd of wrong passwords queues behind :data:`MAX_WAITING` checks and past that is
refused unchecked, so it cannot hold the listener's connections for long.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import ssl
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["BasicAuth", "WebConfig", "WebConfigError", "load_web_config"]

#: Checks waiting for their turn at most; a further one is refused without hashing.
MAX_WAITING = 8
#: Outcomes of checks remembered, keyed by a digest of user, hash and password.
_CACHE_SIZE = 1024
#: What an unknown user's password is checked against, so that a wrong user takes as long as a wrong
#: password (exporter-toolkit does the same); a bcrypt hash of a random string, cost 10.
_DUMMY_HASH = b"$2b$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi"

_TLS_KEYS = frozenset(
    {"cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version", "max_version"}
)
_TOP_KEYS = frozenset({"tls_server_config", "basic_auth_users", "http_server_config"})
_CLIENT_AUTH = {
    "NoClientCert": ssl.CERT_NONE,
    "VerifyClientCertIfGiven": ssl.CERT_OPTIONAL,
    "RequireAndVerifyClientCert": ssl.CERT_REQUIRED,
}
_VERSIONS = {
    "TLS10": ssl.TLSVersion.TLSv1,
    "TLS11": ssl.TLSVersion.TLSv1_1,
    "TLS12": ssl.TLSVersion.TLSv1_2,
    "TLS13": ssl.TLSVersion.TLSv1_3,
}


class WebConfigError(ValueError):
    """The web config file cannot be used; the message names the file and the key."""


@dataclass(slots=True)
class WebConfig:
    tls: ssl.SSLContext | None = None
    auth: BasicAuth | None = None


class BasicAuth:
    """HTTP basic auth against bcrypt hashes, checked on a thread, outcomes remembered."""

    def __init__(self, users: dict[str, bytes]) -> None:
        self._users = users
        self._cache: OrderedDict[bytes, bool] = OrderedDict()
        self._lock = asyncio.Lock()
        self._waiting = 0

    async def allows(self, authorization: str | None) -> bool:
        """True when ``authorization`` (the header's value) names a user with the right password."""
        given = _credentials(authorization)
        if given is None:
            return False
        user, password = given
        known = user in self._users
        hashed = self._users.get(user, _DUMMY_HASH)
        key = hashlib.sha256(b"\0".join((user.encode(), hashed, password))).digest()
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key] and known
        if self._waiting >= MAX_WAITING:
            return False  # a crowd of checks: refused unhashed, and not remembered
        self._waiting += 1
        try:
            async with self._lock:
                ok = await asyncio.to_thread(_checkpw, password, hashed)
        finally:
            self._waiting -= 1
        self._cache[key] = ok
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return ok and known


def _checkpw(password: bytes, hashed: bytes) -> bool:
    import bcrypt

    try:
        return bool(bcrypt.checkpw(password, hashed))
    except ValueError:  # not a bcrypt hash (refused at load; kept safe here)
        return False


def _credentials(authorization: str | None) -> tuple[str, bytes] | None:
    """(user, password) of a ``Basic`` authorization header; None when it is absent or malformed."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        raw = base64.b64decode(token.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None
    user, sep, password = raw.partition(b":")
    if not sep:
        return None
    try:
        return user.decode("utf-8"), password
    except UnicodeDecodeError:
        return None


def load_web_config(path: str) -> WebConfig:
    """Read and check ``path``; :class:`WebConfigError` says what is wrong with it."""
    import yaml

    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise WebConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise WebConfigError(f"{path}: not YAML: {e}") from None
    if data is None:
        return WebConfig()
    table = _mapping(path, "the file", data)
    _only(path, "the file", table, _TOP_KEYS)
    http = _mapping(path, "http_server_config", table.get("http_server_config") or {})
    _only(path, "http_server_config", http, frozenset({"http2"}))  # we answer HTTP/1.0 either way
    config = WebConfig()
    tls = table.get("tls_server_config")
    if tls is not None:
        config.tls = _tls(path, file.parent, _mapping(path, "tls_server_config", tls))
    users = table.get("basic_auth_users")
    if users is not None:
        table_users = _users(path, _mapping(path, "basic_auth_users", users))
        config.auth = BasicAuth(table_users) if table_users else None  # none listed: no auth, as there
    return config


def _mapping(path: str, where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise WebConfigError(f"{path}: {where} must be a mapping of names to values")
    return value


def _only(path: str, where: str, table: dict[str, Any], known: frozenset[str]) -> None:
    extra = sorted(set(table) - known)
    if extra:
        raise WebConfigError(
            f"{path}: {where}: {', '.join(extra)} not supported here (known: {', '.join(sorted(known))})"
        )


def _text(path: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise WebConfigError(f"{path}: {key} must be a non-empty string")
    return value


def _tls(path: str, base: Path, t: dict[str, Any]) -> ssl.SSLContext:
    _only(path, "tls_server_config", t, _TLS_KEYS)
    for key in ("cert_file", "key_file"):
        if not t.get(key):
            raise WebConfigError(f"{path}: tls_server_config: missing {key}")
    cert = base / _text(path, "cert_file", t["cert_file"])
    key_file = base / _text(path, "key_file", t["key_file"])
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(cert, key_file)
    except (OSError, ssl.SSLError) as e:
        raise WebConfigError(f"{path}: cannot load {cert} and {key_file}: {e}") from None
    auth_type = t.get("client_auth_type") or "NoClientCert"
    if auth_type not in _CLIENT_AUTH:
        raise WebConfigError(
            f"{path}: client_auth_type {auth_type!r} not supported here (one of {', '.join(_CLIENT_AUTH)})"
        )
    ctx.verify_mode = _CLIENT_AUTH[auth_type]
    ca = t.get("client_ca_file")
    if ca:
        try:
            ctx.load_verify_locations(base / _text(path, "client_ca_file", ca))
        except (OSError, ssl.SSLError) as e:
            raise WebConfigError(f"{path}: cannot load client_ca_file {ca}: {e}") from None
    elif ctx.verify_mode != ssl.CERT_NONE:
        raise WebConfigError(f"{path}: client_auth_type {auth_type} needs client_ca_file")
    for key, attr, default in (
        ("min_version", "minimum_version", "TLS12"),
        ("max_version", "maximum_version", None),
    ):
        name = t.get(key) or default
        if name is None:
            continue
        if name not in _VERSIONS:
            raise WebConfigError(f"{path}: {key} {name!r} is not one of {', '.join(_VERSIONS)}")
        setattr(ctx, attr, _VERSIONS[name])
    return ctx


def _users(path: str, users: dict[str, Any]) -> dict[str, bytes]:
    if not users:
        return {}
    try:
        import bcrypt  # noqa: F401
    except ImportError:
        raise WebConfigError(
            f"{path}: basic_auth_users needs the bcrypt package (pip install bcrypt)"
        ) from None
    out: dict[str, bytes] = {}
    for user, hashed in users.items():
        text = _text(path, f"basic_auth_users: {user}", hashed)
        if not text.startswith(("$2a$", "$2b$", "$2y$")) or len(text) != 60:
            raise WebConfigError(f"{path}: basic_auth_users: {user}: not a bcrypt hash")
        out[user] = text.encode("ascii", "replace")
    return out
