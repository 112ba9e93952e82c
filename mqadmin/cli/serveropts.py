"""Options of the commands that run our servers (``namesrv start``, ``broker start``), spelled as
``mqnamesrv`` and ``mqbroker`` spell them, with our long forms beside the Java ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from mqadmin.remoting.loops import LOOP_CHOICES

__all__ = [
    "PRINT_CONFIG",
    "bind_address_option",
    "config_file_option",
    "log_file_option",
    "loop_option",
    "namesrv_addr_option",
]

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

PRINT_CONFIG: Decorator = click.option(
    "-p",
    "--printConfigItem",
    "--print-config-item",
    "print_config",
    is_flag=True,
    help="Print all config items",
)


def config_file_option(server: str) -> Decorator:
    """``-c``: the server's config properties file (``server``: "Name server", "Broker")."""
    return click.option(
        "-c",
        "--configFile",
        "--config-file",
        "config_file",
        metavar="FILE",
        help=f"{server} config properties file",
    )


def namesrv_addr_option(note: str = "") -> Decorator:
    """``-n``: the name server list (``note`` follows the example)."""
    return click.option(
        "-n",
        "--namesrvAddr",
        "namesrv_addr",
        metavar="ADDRS",
        help=f"Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'{note}",
    )


def log_file_option(default_name: str, default_dir: str) -> Decorator:
    """``--log-file``: where the server logs; by default ``<default_dir>/<default_name>``."""
    return click.option(
        "--log-file",
        metavar="PATH",
        default=None,
        help=f"Log file (default {default_dir}/{default_name}; empty for stderr only).",
    )


def bind_address_option(key: str = "bindAddress") -> Decorator:
    """``--bind-address``: the address the server listens on (the ``key`` property's override)."""
    return click.option("--bind-address", metavar="ADDR", help=f"Address to listen on (overrides {key}).")


def loop_option(envvar: str | None = None) -> Decorator:
    """``--loop``: the event loop the server runs on (``envvar``, when given, sets the default)."""
    return click.option(
        "--loop",
        "loop_name",
        type=click.Choice(LOOP_CHOICES),
        default="auto",
        show_default=True,
        envvar=envvar,
        show_envvar=envvar is not None,
        help="Event loop: uvloop when installed (auto), or asyncio's own.",
    )
