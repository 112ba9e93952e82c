"""``mqadmin broker start``: run the development broker in the foreground (Java ``mqbroker``)."""

from __future__ import annotations

import sys

import click

from mqadmin.cli.registry import define
from mqadmin.cli.serveropts import (
    PRINT_CONFIG,
    bind_address_option,
    config_file_option,
    log_file_option,
    loop_option,
    namesrv_addr_option,
)

#: ``--loop``'s default when set (a whole test run or deployment on one loop without new arguments).
LOOP_ENVVAR = "MQADMIN_BROKER_LOOP"


@define
@click.group("broker")
def group() -> None:
    """Run the development broker."""


@group.command("start")
@config_file_option("Broker")
@namesrv_addr_option()
@PRINT_CONFIG
@click.option(
    "-m",
    "--printImportantConfig",
    "--print-important-config",
    "print_important",
    is_flag=True,
    help="Print important config items",
)
@bind_address_option()
@log_file_option("broker.log", "<storePathRootDir>/logs")
@loop_option(LOOP_ENVVAR)
def start(
    config_file: str | None,
    namesrv_addr: str | None,
    print_config: bool,
    print_important: bool,
    bind_address: str | None,
    log_file: str | None,
    loop_name: str,
) -> None:
    """Start the broker; stops cleanly (unregistering from the name servers) on SIGTERM or Ctrl-C."""
    from mqadmin.broker.startup import run

    code = run(
        config_file,
        namesrv_addr=namesrv_addr,
        bind_address=bind_address,
        print_config=print_config,
        print_important=print_important,
        log_file=log_file,
        loop=loop_name,
    )
    sys.exit(code)
