"""``mqadmin context add|use|list|show|remove``: named connection profiles.

A context holds name servers, ACL credentials, a timeout and TLS; ``--context NAME`` or
``MQADMIN_CONTEXT`` picks one for a call, ``context use`` makes one current. The file lives under
the user's config directory (see :mod:`mqadmin.cli.contexts`), readable by the owner only.
"""

from __future__ import annotations

import json
import sys

import click

from mqadmin.cli.common import context_names
from mqadmin.cli.contexts import Context, ContextError, ContextStore
from mqadmin.cli.errors import SettingsError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.registry import define
from mqadmin.cli.secretinput import FROM_INPUT, read_secret

_SETTINGS = {"help_option_names": ["-h", "--help"]}


def _fail(message: str) -> None:
    click.echo(f"mqadmin context: {message}", err=True)
    raise click.exceptions.Exit(ExitCode.ERROR)


def _load() -> ContextStore:
    try:
        return ContextStore.load()
    except ContextError as e:
        _fail(str(e))
        raise AssertionError from None


def _public(c: Context, current: str | None) -> dict[str, object]:
    out: dict[str, object] = {"name": c.name, "current": c.name == current}
    out.update(c.to_json())
    if "secret_key" in out:
        out["secret_key"] = "***"
    return out


@define
@click.group("context", context_settings=_SETTINGS)
def context_group() -> None:
    """Manage contexts: named name server, credential and TLS profiles."""


@context_group.command("add", context_settings=_SETTINGS)
@click.argument("name")
@click.option("-n", "--namesrvAddr", "namesrv", metavar="ADDRS", help="Name servers, 'host:port;host:port'.")
@click.option("--access-key", metavar="KEY", help="ACL access key.")
@click.option(
    "--secret-key",
    metavar="KEY",
    help="ACL secret key; '-' reads it from a prompt (or the first line of stdin), so it stays out of "
    "the shell history. With --access-key alone on a terminal, it is asked for.",
)
@click.option("--timeout", type=float, metavar="SECONDS", help="Seconds each request may take.")
@click.option("--tls/--no-tls", default=False, help="Talk TLS to the cluster.")
@click.option("--description", metavar="TEXT", help="A note to show in 'context list'.")
@click.option(
    "--doctor-set",
    "doctor_limits",
    multiple=True,
    metavar="NAME=VALUE",
    help="A threshold of 'mqadmin doctor' for this cluster (repeat for more; as doctor's --set, which "
    "still wins over it).",
)
@click.option("--use", "make_current", is_flag=True, help="Make it the current context.")
@click.option("--force", is_flag=True, help="Replace a context of the same name.")
def add(
    name: str,
    namesrv: str | None,
    access_key: str | None,
    secret_key: str | None,
    timeout: float | None,
    tls: bool,
    description: str | None,
    doctor_limits: tuple[str, ...],
    make_current: bool,
    force: bool,
) -> None:
    """Create a context."""
    from mqadmin.doctor.limits import LimitError, Limits, with_overrides

    store = _load()
    if name in store.contexts and not force:
        _fail(f"context {name!r} exists (use --force to replace it)")
    if access_key and secret_key is None and sys.stdin is not None and sys.stdin.isatty():
        secret_key = FROM_INPUT
    try:
        secret_key = read_secret(secret_key)
    except SettingsError as e:
        _fail(str(e))
    if bool(access_key) != bool(secret_key):
        _fail("give both --access-key and --secret-key")
    if timeout is not None and not timeout > 0:
        _fail("--timeout must be a positive number of seconds")
    try:
        with_overrides(Limits(), list(doctor_limits))
    except LimitError as e:
        _fail(str(e).replace("--set", "--doctor-set", 1))
    doctor = {k.strip().replace("-", "_"): v.strip() for k, _, v in (p.partition("=") for p in doctor_limits)}
    store.contexts[name] = Context(
        name=name,
        namesrv=namesrv,
        access_key=access_key,
        secret_key=secret_key,
        timeout=timeout,
        tls=tls,
        description=description,
        doctor=doctor or None,
    )
    if make_current or store.current is None:
        store.current = name
    store.save()
    click.echo(f"context {name} saved in {store.path}" + (" (current)" if store.current == name else ""))


@context_group.command("use", context_settings=_SETTINGS)
@click.argument("name", shell_complete=context_names)
def use(name: str) -> None:
    """Make a context the current one."""
    store = _load()
    if name not in store.contexts:
        _fail(f"no context named {name!r}")
    store.current = name
    store.save()
    click.echo(f"current context: {name}")


def _structured(as_json: bool, data: object) -> bool:
    """Write ``data`` when JSON, YAML or tables were asked for, here (``--json``) or before the
    command (``mqadmin --output yaml context list``); False for text."""
    from mqadmin.cli.common import CommonValues
    from mqadmin.cli.output import Output

    common = click.get_current_context().find_object(CommonValues)
    fmt = "json" if as_json else (common.output if common is not None else "text")
    if fmt == "text":
        return False
    Output(fmt).data(data)
    return True


@context_group.command("list", context_settings=_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Names only, one a line.")
def list_contexts(as_json: bool, quiet: bool) -> None:
    """List the contexts; the current one is marked with '*'."""
    store = _load()
    names = sorted(store.contexts)
    if _structured(as_json, [_public(store.contexts[n], store.current) for n in names]):
        return
    if quiet:
        for n in names:
            click.echo(n)
        return
    width = max([len(n) for n in names] + [4])
    click.echo(f"  {'NAME':<{width}}  NAMESRV")
    for n in names:
        c = store.contexts[n]
        mark = "*" if n == store.current else " "
        extra = f"  {c.description}" if c.description else ""
        click.echo(f"{mark} {n:<{width}}  {c.namesrv or '-'}{extra}")


@context_group.command("show", context_settings=_SETTINGS)
@click.argument("name", required=False, shell_complete=context_names)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show(name: str | None, as_json: bool) -> None:
    """Show a context (default: the active one); the secret key is not printed."""
    store = _load()
    try:
        c = store.active(name)
    except ContextError as e:
        _fail(str(e))
        return
    if c is None:
        _fail("no context is active (add one with 'mqadmin context add NAME -n host:port')")
        return
    data = _public(c, store.current)
    if _structured(as_json, data):
        return
    for k, v in data.items():
        click.echo(f"{k}: {json.dumps(v) if isinstance(v, bool) else v}")


@context_group.command("remove", context_settings=_SETTINGS)
@click.argument("name", shell_complete=context_names)
def remove(name: str) -> None:
    """Delete a context."""
    store = _load()
    if name not in store.contexts:
        _fail(f"no context named {name!r}")
    del store.contexts[name]
    if store.current == name:
        store.current = None
    store.save()
    click.echo(f"context {name} removed")
