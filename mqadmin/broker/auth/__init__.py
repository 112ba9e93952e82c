"""ACL 2.0 (5.3) on the development broker: users, ACL policies, and their enforcement.

- :mod:`~mqadmin.broker.auth.model`: users and ACLs in Java's stored JSON shapes;
- :mod:`~mqadmin.broker.auth.store`: their durable files and Java's metadata-manager rules;
- :mod:`~mqadmin.broker.auth.contexts`: which resources and actions a request needs;
- :mod:`~mqadmin.broker.auth.guard`: authentication and authorization before every handler.

The admin requests (3001-3010) are answered by :mod:`mqadmin.broker.processors.auth`. The users and
ACLs are always this broker's own files: a Java broker gets that with ``authenticationMetadataProvider``
/ ``authorizationMetadataProvider`` set to the ``Local...MetadataProvider`` classes (without them it
answers every auth request with an error); the provider and strategy settings are not read here.
"""

from __future__ import annotations

from mqadmin.broker.acl.accounts import AclConfigError
from mqadmin.broker.auth.guard import AuthGuard
from mqadmin.broker.auth.model import SUPER, User
from mqadmin.broker.auth.store import AuthStore
from mqadmin.broker.config import AuthConfig, BrokerSettings
from mqadmin.broker.version import BrokerVersion
from mqadmin.protocol import fastjson
from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.errors import ProtocolError

__all__ = ["AuthConfigError", "AuthGuard", "AuthStore", "init_users", "inner_signer", "start_auth"]


class AuthConfigError(AclConfigError):
    """``initAuthenticationUser`` or ``innerClientAuthenticationCredentials`` cannot be used."""


def _super_user(text: str, name_key: str, secret_key: str, what: str) -> User:
    try:
        obj = fastjson.loads(text)
    except ProtocolError as e:
        raise AuthConfigError(f"{what} is not JSON: {e}") from None
    name = obj.get(name_key) if isinstance(obj, dict) else None
    secret = obj.get(secret_key) if isinstance(obj, dict) else None
    if not isinstance(name, str) or not name.strip() or not isinstance(secret, str) or not secret.strip():
        raise AuthConfigError(f'{what} must be {{"{name_key}":"...","{secret_key}":"..."}}')
    return User(name, secret, SUPER)


def init_users(config: AuthConfig, store: AuthStore) -> None:
    """``AuthenticationMetadataManagerImpl.initUser``: the configured super users, created if missing."""
    wanted = []
    if config.init_authentication_user and config.init_authentication_user.strip():
        wanted.append(
            _super_user(config.init_authentication_user, "username", "password", "initAuthenticationUser")
        )
    creds = config.inner_client_authentication_credentials
    if creds and creds.strip():
        wanted.append(_super_user(creds, "accessKey", "secretKey", "innerClientAuthenticationCredentials"))
    for user in wanted:
        if user.username not in store.users:
            store.create_user(user)


def start_auth(store: AuthStore, settings: BrokerSettings, version: BrokerVersion) -> AuthGuard:
    """Load the broker's users and ACLs and return the ACL 2.0 checks (enabled for a 5.x broker with
    ``authenticationEnabled``/``authorizationEnabled`` in its ``-c`` file).
    :class:`AuthConfigError` if a configured super user cannot be made."""
    store.load()
    config = AuthConfig.of(settings.file_properties) if version.five_x else AuthConfig()
    init_users(config, store)
    return AuthGuard(config, store, settings.broker.broker_cluster_name)


def inner_signer(settings: BrokerSettings, version: BrokerVersion) -> RequestSigner | None:
    """What signs this broker's own requests to other brokers (a static topic's forwarded pulls and
    offsets): ``innerClientAuthenticationCredentials`` when authentication is on, as Java's broker
    signs its ``RpcClient`` requests; None when there is nothing to sign with."""
    if not version.five_x:
        return None
    config = AuthConfig.of(settings.file_properties)
    creds = config.inner_client_authentication_credentials
    if not config.authentication_enabled or not creds or not creds.strip():
        return None
    user = _super_user(creds, "accessKey", "secretKey", "innerClientAuthenticationCredentials")
    return RequestSigner(user.username, user.password or "")
