"""Which cluster a command talks to and how: name servers, credentials, timeout, TLS.

Name servers: ``-n`` (``host:port;host:port``, commas too), else the context named by
``--context``, else ``NAMESRV_ADDR``, else the context of ``MQADMIN_CONTEXT`` or the current one,
else 127.0.0.1:9876. Credentials: ``--access-key``/``--secret-key``, else ``MQADMIN_ACCESS_KEY``/
``MQADMIN_SECRET_KEY``, else the context, else ``$ROCKETMQ_HOME/conf/tools.yml`` (as the Java tool).
``--secret-key -`` reads the secret key from a prompt (or the first line of stdin) instead of argv.
Timeout: ``--timeout``, else the context, else ``MQADMIN_TIMEOUT``, else 5 s. TLS: ``--tls``/
``--no-tls``, else the context, else ``MQADMIN_TLS``.

A context is a unit, as in kubectl: its keys, timeout and TLS apply only when its name servers are
the ones used (named with ``--context``, or the current context when neither ``-n`` nor
``NAMESRV_ADDR`` is given), so credentials never go to a cluster outside it.
"""

from __future__ import annotations

import os

from mqadmin.admin.settings import (
    DEFAULT_NAMESRV,
    DEFAULT_TIMEOUT,
    AdminSettings,
    Credentials,
    parse_namesrv_list,
)
from mqadmin.cli.common import CommonValues
from mqadmin.cli.configdir import contexts_path
from mqadmin.cli.contexts import Context, ContextError, ContextStore
from mqadmin.cli.errors import CommandError, SettingsError, malformed_addr
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.secretinput import read_secret
from mqadmin.cli.toolsyml import read_tools_yml

__all__ = ["resolve_settings"]


def _truthy(value: str | None) -> bool | None:
    if value is None or value.strip() == "":
        return None
    return value.strip().lower() in ("1", "true", "yes", "on")


def _load_context(name: str | None) -> Context | None:
    if not (name or os.environ.get("MQADMIN_CONTEXT")) and not os.path.exists(contexts_path()):
        return None  # none asked for, none defined: the store is not read
    try:
        store = ContextStore.load()
        return store.active(name)
    except ContextError as e:
        raise SettingsError(str(e)) from None


def _name_servers(namesrv_opt: str | None, common: CommonValues) -> tuple[list[str], str, Context | None]:
    """The name servers a run uses, where they came from, and the context that applies to it.

    A context is a unit: its keys, timeout, TLS and doctor thresholds go only to its own name servers
    (and their brokers), never to an address given by ``-n`` or ``NAMESRV_ADDR``.
    """
    env = os.environ
    ctx = _load_context(common.context)
    explicit_ctx = common.context is not None
    addrs: list[str] = []
    from_ctx = False
    where = "-n"
    if namesrv_opt is not None and namesrv_opt.strip():
        addrs = parse_namesrv_list(namesrv_opt)
    elif explicit_ctx and ctx is not None and ctx.namesrv:
        addrs, where = parse_namesrv_list(ctx.namesrv), f"context {ctx.name}"
    elif env.get("NAMESRV_ADDR", "").strip():
        addrs, where = parse_namesrv_list(env["NAMESRV_ADDR"]), "NAMESRV_ADDR"
    elif ctx is not None and ctx.namesrv:
        addrs, where = parse_namesrv_list(ctx.namesrv), f"context {ctx.name}"
        from_ctx = True
    return addrs, where, ctx if explicit_ctx or from_ctx else None


def context_in_use(namesrv_opt: str | None, common: CommonValues) -> Context | None:
    """The context whose settings apply to this run (see :func:`_name_servers`), if any."""
    return _name_servers(namesrv_opt, common)[2]


def resolve_settings(namesrv_opt: str | None, common: CommonValues) -> AdminSettings:
    """The :class:`AdminSettings` for one command run."""
    env = os.environ
    addrs, where, ctx = _name_servers(namesrv_opt, common)
    is_default = False
    if not addrs:
        addrs = [DEFAULT_NAMESRV]
        is_default = True
    for addr in addrs:
        why = malformed_addr(addr)
        if why is not None:  # nothing is sent: a typing mistake, not an unreachable server
            raise CommandError(f"{where}: {why}", ExitCode.USAGE)

    credentials = _credentials(common, ctx)

    timeout = common.timeout
    if timeout is None and ctx is not None and ctx.timeout is not None:
        timeout = float(ctx.timeout)
    if timeout is None and env.get("MQADMIN_TIMEOUT", "").strip():
        try:
            timeout = float(env["MQADMIN_TIMEOUT"])
        except ValueError:
            raise SettingsError(
                f"MQADMIN_TIMEOUT is not a number of seconds: {env['MQADMIN_TIMEOUT']!r}"
            ) from None
    if timeout is None:
        timeout = DEFAULT_TIMEOUT
    if not timeout > 0:  # a value no call can wait for: nothing is sent
        raise CommandError(
            f"the timeout must be a positive number of seconds, not {timeout:g}", ExitCode.USAGE
        )

    tls = common.tls
    if tls is None and ctx is not None and ctx.tls:
        tls = True
    if tls is None:
        tls = bool(_truthy(env.get("MQADMIN_TLS")))

    return AdminSettings(
        namesrv_addrs=tuple(addrs),
        timeout=timeout,
        credentials=credentials,
        tls=tls,
        namesrv_is_default=is_default,
    )


def _credentials(common: CommonValues, ctx: Context | None) -> Credentials | None:
    env = os.environ
    secret = read_secret(common.secret_key) if common.access_key or common.secret_key else None
    sources: list[tuple[str, str | None, str | None]] = [
        ("--access-key/--secret-key", common.access_key, secret),
        (
            "MQADMIN_ACCESS_KEY/MQADMIN_SECRET_KEY",
            env.get("MQADMIN_ACCESS_KEY"),
            env.get("MQADMIN_SECRET_KEY"),
        ),
    ]
    if ctx is not None:
        sources.append((f"context {ctx.name}", ctx.access_key, ctx.secret_key))
    for where, ak, sk in sources:
        ak = ak.strip() if ak else None
        sk = sk.strip() if sk else None
        if ak and sk:
            return Credentials(ak, sk)
        if ak or sk:
            raise SettingsError(f"{where}: give both the access key and the secret key")
    pair = read_tools_yml()
    if pair is not None:
        return Credentials(*pair)
    return None
