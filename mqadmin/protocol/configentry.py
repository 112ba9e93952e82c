"""What a remote config update may carry: one home for the rules of UPDATE_BROKER_CONFIG (25) and
UPDATE_NAMESRV_CONFIG (318), used by the admin client before sending and by both servers before
changing anything.

Java writes both updates as unescaped ``key=value`` lines (``MixAll.properties2String``) and
persists them the same way, so a line break in a value adds a line of its own choosing to the
server's config file; and a setting naming a file or a directory lets a remote peer point the
server's reads and writes elsewhere. :func:`config_entry_refusal` refuses the first,
:func:`is_path_key` names the second (servers add it to their black list).

Beyond paths, :func:`protected_key` names every setting no remote update may change, whoever sends
it: authentication and ACL switches and credentials (an update could switch them off and persist
that), paths, and the addresses and ports a server listens on or connects to (an update could point
it at a listener of the sender's choosing). Java's ``configBlackList`` is only the floor of this.
:func:`is_secret_key` and :func:`masked_value` say which values a config listing never shows.
"""

from __future__ import annotations

import re

from mqadmin.protocol import names

__all__ = [
    "ADDRESS_KEYS",
    "PATH_KEYS",
    "SECRET_MASK",
    "config_entry_refusal",
    "is_path_key",
    "is_secret_key",
    "masked_value",
    "protected_key",
]

PATH_KEYS = frozenset(
    {
        "brokerConfigPath",
        "rocketmqHome",
        "storePathRootDir",
        "storePathCommitLog",
        "storePathDLedgerCommitLog",
        "storePathEpochFile",
        "storePathBrokerIdentity",
        "readOnlyCommitLogStorePaths",
        "configStorePath",
        "controllerStorePath",
        "kvConfigPath",
    }
)
"""Every key of a 4.9.8 or 5.3.3 broker, name server or controller that names a file or directory."""

_NOT_PATHS = frozenset({"flushLeastPagesWhenWarmMapedFile"})
"""Java settings whose names end in ``File`` but that hold a number."""

_PATH_WORDS = frozenset({"path", "paths", "dir", "dirs", "directory", "home", "folder"})

_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_KEY_BREAKERS = re.compile(r"[\s=:\\]|^[#!]")
"""What ends a key in Properties.load (blank, '=' or ':'), starts a comment or escapes."""
_SECRET_IN_VALUE = re.compile(r"""(?i)["']?(password|secretkey|secret_key)["']?\s*[:=]""")


def is_path_key(key: str) -> bool:
    """A setting naming a file or directory: one of :data:`PATH_KEYS`, or any other key (of a ``-c``
    file, ``tls.server.keyPath``...) with ``Path``, ``Dir``, ``Home`` or ``Folder`` as a word, or
    ending in ``File``."""
    if key in PATH_KEYS:
        return True
    if key in _NOT_PATHS:
        return False
    words = _words(key)
    return bool(words) and (words[-1] == "file" or any(w in _PATH_WORDS for w in words))


ADDRESS_KEYS = frozenset(
    {
        "namesrvAddr",
        "brokerIP1",
        "brokerIP2",
        "bindAddress",
        "listenPort",
        "haListenPort",
        "haMasterAddress",
        "controllerAddr",
        "fetchNamesrvAddrByAddressServer",
        "fetchNameSrvAddrByDnsLookup",
        "fetchControllerAddrByDnsLookup",
        "rmqAddressServerDomain",
        "rmqAddressServerSubGroup",
        "dLegerPeers",
        "metricsGrpcExporterTarget",
        "metricsGrpcExporterHeader",
        "metricsPromExporterHost",
        "metricsPromExporterPort",
        "socksProxyConfig",
        "enableControllerMode",
    }
)
"""Settings of a 4.9.8 or 5.3.3 broker, name server or controller that choose an address a server
listens on or connects to, or how it finds one (the word rule of :func:`protected_key` finds most
of them; this list is the reference)."""

_ADDRESS_WORDS = frozenset({"addr", "addrs", "address", "ip", "host", "port", "peers", "domain", "proxy"})
_AUTH_WORDS = frozenset({"acl", "credential", "credentials", "password", "passwd", "secret", "token"})
_SECRET_WORDS = frozenset({"password", "passwd", "secret", "credential", "credentials", "token"})
_SECRET_KEYS = frozenset(
    {"initAuthenticationUser", "innerClientAuthenticationCredentials", "metricsGrpcExporterHeader"}
)
_CODE_KEYS = frozenset({"messageStorePlugIn"})
"""Java settings naming classes a broker loads at start."""

SECRET_MASK = "******"
"""What a config listing shows instead of a credential."""


def _words(key: str) -> list[str]:
    return [w.lower() for w in _CAMEL_WORD.findall(key)]


def is_secret_key(key: str) -> bool:
    """A setting whose value is a credential: a password, a secret or access key, credentials, a
    token, the super user created at start, or headers sent with exported metrics."""
    if key in _SECRET_KEYS:
        return True
    low = key.lower()
    if "secretkey" in low or "accesskey" in low or "privatekey" in low:
        return True
    return any(w in _SECRET_WORDS for w in _words(key))


def masked_value(key: str, value: str) -> str:
    """``value`` as a config listing shows it: :data:`SECRET_MASK` for a credential (by its key, or
    a value that carries a password or secret key whatever its key), else unchanged."""
    if value and (is_secret_key(key) or _SECRET_IN_VALUE.search(value)):
        return SECRET_MASK
    return value


def protected_key(key: str) -> str | None:
    """Why no remote update may change ``key`` (``auth``, ``path``, ``address``, ``code``), or None.

    ``auth``: authentication, authorization and ACL settings, credentials, TLS (a key starting with
    ``authentication``/``authorization``/``acl``, holding ``auth``, ``init...User``,
    ``innerClient...``, a secret); ``path``: :func:`is_path_key`; ``address``: :data:`ADDRESS_KEYS`
    and any key with an address, host, port or peers word; ``code``: a class to load.
    """
    low = key.lower()
    words = _words(key)
    if (
        "auth" in low
        or low.startswith(("acl", "tls.", "innerclient"))
        or low == "usetls"
        or (low.startswith("init") and low.endswith("user"))
        or is_secret_key(key)
        or any(w in _AUTH_WORDS for w in words)
    ):
        return "auth"
    if is_path_key(key):
        return "path"
    if key in ADDRESS_KEYS or "rmqaddressserver" in low or any(w in _ADDRESS_WORDS for w in words):
        return "address"
    if key in _CODE_KEYS or low.endswith(("provider", "plugin")):
        return "code"
    return None


def config_entry_refusal(key: str, value: str, *, value_controls: bool = False) -> str | None:
    """Why ``key=value`` cannot be one config entry, or None.

    A key is a Java field name: not blank, no control character, nothing that would end it or
    start a comment. A value is text on one line without NUL or lone surrogates (and without any
    control character when ``value_controls``: the name server's settings hold none).
    """
    if not key or not key.strip():
        return "a config key is blank"
    why = names.bad_text(key, controls=True)
    if why is not None:
        return f"the config key {key!r} {why}"
    if _KEY_BREAKERS.search(key):
        return f"the config key {key!r} is not a property name"
    if "\r" in value or "\n" in value:
        return f"the value of config {key} contains a line break"
    why = names.bad_text(value, controls=value_controls)
    if why is not None:
        return f"the value of config {key} {why}"
    return None
