"""``mqadmin namesrv start``: run the bundled name server in the foreground (Java ``mqnamesrv``)."""

from __future__ import annotations

import sys

import click

from mqadmin.cli.registry import define
from mqadmin.cli.serveropts import (
    PRINT_CONFIG,
    config_file_option,
    log_file_option,
    loop_option,
    namesrv_addr_option,
)


@define
@click.group("namesrv")
def group() -> None:
    """Run the bundled name server."""


@group.command("start")
@config_file_option("Name server")
@PRINT_CONFIG
@namesrv_addr_option(" (accepted, unused).")
@click.option(
    "--listen-port",
    type=click.IntRange(0, 65535),
    help="Port to listen on (overrides listenPort; 0 picks one).",
)
@click.option("--bind-address", metavar="ADDR", help="Address to listen on (overrides bindAddress).")
@log_file_option("namesrv.log", "./namesrv/logs")
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    metavar="N",
    help="Processes answering route queries on the one port (default: every core but one, at least one); "
    "the first also takes registrations and every other request.",
)
@loop_option()
def start(
    config_file: str | None,
    print_config: bool,
    namesrv_addr: str | None,
    listen_port: int | None,
    bind_address: str | None,
    log_file: str | None,
    workers: int | None,
    loop_name: str,
) -> None:
    """Start the name server; stops cleanly on SIGTERM or Ctrl-C.

    \b
    Its files default to ./namesrv/ under the directory it starts in (not the
    home directory): ./namesrv/kvConfig.json (kvConfigPath) and, without -c,
    ./namesrv/namesrv.properties (configStorePath); set either in the -c file.
    """
    from mqadmin.namesrv.startup import DEFAULT_LOG_FILE, run

    code = run(
        config_file,
        print_config=print_config,
        listen_port=listen_port,
        bind_address=bind_address,
        log_file=DEFAULT_LOG_FILE if log_file is None else log_file,
        workers=workers,
        loop=loop_name,
    )
    sys.exit(code)
