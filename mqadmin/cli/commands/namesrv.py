"""``mqadmin namesrv start``: run the bundled name server in the foreground (Java ``mqnamesrv``)."""

from __future__ import annotations

import sys

import click

COMMANDS: dict[str, click.Command] = {}


@click.group("namesrv")
def group() -> None:
    """Run the bundled name server."""


@group.command("start")
@click.option(
    "-c",
    "--configFile",
    "--config-file",
    "config_file",
    metavar="FILE",
    help="Name server config properties file",
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
    "-n",
    "--namesrvAddr",
    "namesrv_addr",
    metavar="ADDRS",
    help="Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876' (accepted, unused).",
)
@click.option(
    "--listen-port",
    type=click.IntRange(0, 65535),
    help="Port to listen on (overrides listenPort; 0 picks one).",
)
@click.option("--bind-address", metavar="ADDR", help="Address to listen on (overrides bindAddress).")
@click.option(
    "--log-file",
    metavar="PATH",
    default=None,
    help="Log file (default ~/logs/rocketmqlogs/namesrv.log; empty for stderr only).",
)
def start(
    config_file: str | None,
    print_config: bool,
    namesrv_addr: str | None,
    listen_port: int | None,
    bind_address: str | None,
    log_file: str | None,
) -> None:
    """Start the name server; stops cleanly on SIGTERM or Ctrl-C."""
    from mqadmin.namesrv.startup import DEFAULT_LOG_FILE, run

    code = run(
        config_file,
        print_config=print_config,
        listen_port=listen_port,
        bind_address=bind_address,
        log_file=DEFAULT_LOG_FILE if log_file is None else log_file,
    )
    sys.exit(code)


COMMANDS["namesrv"] = group
