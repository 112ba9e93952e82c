"""``mqadmin broker start``: run the development broker in the foreground (Java ``mqbroker``)."""

from __future__ import annotations

import sys

import click

COMMANDS: dict[str, click.Command] = {}


@click.group("broker")
def group() -> None:
    """Run the development broker."""


@group.command("start")
@click.option(
    "-c", "--configFile", "--config-file", "config_file", metavar="FILE", help="Broker config properties file"
)
@click.option(
    "-n",
    "--namesrvAddr",
    "namesrv_addr",
    metavar="ADDRS",
    help="Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'",
)
@click.option(
    "-p",
    "--printConfigItem",
    "--print-config-item",
    "print_config",
    is_flag=True,
    help="Print all config items",
)
@click.option(
    "-m",
    "--printImportantConfig",
    "--print-important-config",
    "print_important",
    is_flag=True,
    help="Print important config items",
)
@click.option(
    "--log-file",
    metavar="PATH",
    default=None,
    help="Log file (default ~/logs/rocketmqlogs/broker.log; empty for stderr only).",
)
def start(
    config_file: str | None,
    namesrv_addr: str | None,
    print_config: bool,
    print_important: bool,
    log_file: str | None,
) -> None:
    """Start the broker; stops cleanly (unregistering from the name servers) on SIGTERM or Ctrl-C."""
    from mqadmin.broker.startup import DEFAULT_LOG_FILE, run

    code = run(
        config_file,
        namesrv_addr=namesrv_addr,
        print_config=print_config,
        print_important=print_important,
        log_file=DEFAULT_LOG_FILE if log_file is None else log_file,
    )
    sys.exit(code)


COMMANDS["broker"] = group
