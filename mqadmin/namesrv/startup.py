"""``mqadmin namesrv start``: the name server process, started the way ``mqnamesrv`` starts.

Order of start-up as ``NamesrvStartup``: defaults (port 9876), the ``-c`` properties file, our
port/bind flags, then ``-p`` prints every setting and exits, else the server starts and prints
``The Name Server boot success. serializeType=JSON, address <bind>:<port>`` on stdout. Logs go to
a file (``./namesrv/logs/namesrv.log`` unless told otherwise; Java's is under the home directory)
and warnings also to stderr; stdout carries only what Java prints there. SIGTERM and SIGINT stop
it cleanly (exit 0).
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field
from typing import TextIO

from mqadmin.controller import ControllerStoreError, embedded_config
from mqadmin.javaconfig import JavaBean
from mqadmin.namesrv.config import STORE_DIR_NAME, NamesrvConfig, NettyClientConfig, NettyServerConfig
from mqadmin.namesrv.kvconfig import KVConfigError
from mqadmin.namesrv.server import NamesrvController
from mqadmin.namesrv.workers import default_workers
from mqadmin.protocol.names import bad_text
from mqadmin.remoting.loops import loop_factory, resolve_loop
from mqadmin.servermain import (
    StartupError,
    announce,
    console_lines,
    read_config_file,
    run_until_stopped,
    stop_signals,
)

__all__ = ["DEFAULT_LOG_FILE", "Settings", "StartupError", "load_settings", "print_config_items", "run"]

log = logging.getLogger("mqadmin.namesrv")

DEFAULT_LOG_FILE = os.path.join(STORE_DIR_NAME, "logs", "namesrv.log")
"""Under the working directory, beside ``kvConfig.json`` (Java: ``~/logs/rocketmqlogs``)."""


@dataclass
class Settings:
    """Everything start-up decided before the server runs."""

    namesrv: NamesrvConfig = field(default_factory=NamesrvConfig)
    server: NettyServerConfig = field(default_factory=NettyServerConfig)
    client: NettyClientConfig = field(default_factory=NettyClientConfig)
    file_properties: dict[str, str] | None = None
    config_file: str | None = None
    workers: int = 1
    loop: str = "asyncio"
    log_file: str | None = None


def load_settings(
    config_file: str | None = None, *, listen_port: int | None = None, bind_address: str | None = None
) -> Settings:
    """Defaults, then the ``-c`` file (Java properties), then the flags."""
    s = Settings()
    if config_file is not None:
        props = read_config_file(config_file)
        for k, v in props.items():  # it would be served back by GET_NAMESRV_CONFIG, which must encode
            why = bad_text(k) or bad_text(v)
            if why is not None:
                raise StartupError(f"config file {config_file}: the setting {k!a} {why}")
        for bean in (s.namesrv, s.server, s.client):
            bean.apply(props)
        s.namesrv.config_store_path = config_file
        s.file_properties = props
        s.config_file = config_file
    if listen_port is not None:
        s.server.listen_port = listen_port
    if bind_address is not None:
        s.server.bind_address = bind_address
    return s


def print_config_items(settings: Settings, out: TextIO) -> None:
    """``-p``: every setting, one console-log line each (``<time> INFO main - name=value``)."""
    beans: tuple[JavaBean, ...] = (settings.namesrv, settings.server, settings.client)
    if settings.namesrv.enable_controller_in_namesrv:  # Java prints the controller's settings too
        beans += (embedded_config(settings.file_properties, settings.namesrv.kv_config_path),)
    lines = [line for bean in beans for line in bean.property_lines()]
    out.write("".join(f"{line}\n" for line in console_lines(lines)))
    out.flush()


async def serve(settings: Settings, *, boot_out: TextIO | None = None) -> None:
    """Run until SIGTERM or SIGINT."""
    controller = NamesrvController(
        settings.namesrv,
        settings.server,
        file_properties=settings.file_properties,
        workers=settings.workers,
        worker_loop=settings.loop,
        log_file=settings.log_file,
    )
    for bean in (settings.namesrv, settings.server):
        for line in bean.property_lines():
            log.info("%s", line)
    try:
        await controller.start()
    except (KVConfigError, ControllerStoreError) as e:
        raise StartupError(str(e)) from None
    except OSError as e:
        where = f"{settings.server.bind_address}:{settings.server.listen_port}"
        raise StartupError(f"cannot listen on {where}: {e.strerror or e}") from None
    log.info("serving with %d process(es) on the %s event loop", settings.workers, settings.loop)
    tip = (
        "The Name Server boot success. serializeType=JSON, "
        f"address {settings.server.bind_address}:{settings.server.listen_port}"
    )
    try:
        with stop_signals() as stop:  # before the announcement: its reader may signal at once
            announce(tip, log, boot_out)
            if controller.controller is not None:  # Java's second line with enableControllerInNamesrv
                announce("The ControllerManager boot success. serializeType=JSON", log, boot_out)
            await stop.wait()
        log.info("shutdown requested, stopping the name server")
    finally:
        await controller.shutdown()


def run(
    config_file: str | None = None,
    *,
    print_config: bool = False,
    listen_port: int | None = None,
    bind_address: str | None = None,
    log_file: str | None = DEFAULT_LOG_FILE,
    workers: int | None = None,
    loop: str = "auto",
) -> int:
    """The whole process; returns the exit code.

    ``workers`` processes answer route queries (None: every core but one, at least one); ``loop`` is ``auto``
    (uvloop when installed), ``asyncio`` or ``uvloop``.
    """
    try:
        settings = load_settings(config_file, listen_port=listen_port, bind_address=bind_address)
        try:
            settings.loop = resolve_loop(loop)
        except ValueError as e:
            raise StartupError(str(e)) from None
    except StartupError as e:
        sys.stderr.write(f"mqadmin namesrv: {e}\n")
        return 1
    settings.workers = default_workers() if workers is None else max(1, workers)
    settings.log_file = log_file
    if config_file is not None:
        sys.stdout.write(f"load config properties file OK, {config_file}\n")
    if print_config:
        print_config_items(settings, sys.stdout)
        return 0
    factory = loop_factory(settings.loop)
    return run_until_stopped(lambda: serve(settings), log_file, log, loop_factory=factory)
