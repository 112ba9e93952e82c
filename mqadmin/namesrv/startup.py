"""``mqadmin namesrv start``: the name server process, started the way ``mqnamesrv`` starts.

Order of start-up as ``NamesrvStartup``: defaults (port 9876), the ``-c`` properties file, our
port/bind flags, then ``-p`` prints every setting and exits, else the server starts and prints
``The Name Server boot success. serializeType=JSON, address <bind>:<port>`` on stdout. Logs go to
a file (Java's ``~/logs/rocketmqlogs/namesrv.log`` unless told otherwise) and warnings also to
stderr; stdout carries only what Java prints there. SIGTERM and SIGINT stop it cleanly (exit 0).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import TextIO

from mqadmin.namesrv.config import (
    JavaBean,
    NamesrvConfig,
    NettyClientConfig,
    NettyServerConfig,
    apply_properties,
    java_value,
)
from mqadmin.namesrv.controller import NamesrvController
from mqadmin.namesrv.kvconfig import KVConfigError
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.errors import ProtocolError

__all__ = ["DEFAULT_LOG_FILE", "Settings", "StartupError", "load_settings", "print_config_items", "run"]

log = logging.getLogger("mqadmin.namesrv")

DEFAULT_LOG_FILE = os.path.join("~", "logs", "rocketmqlogs", "namesrv.log")
_GMT8 = timezone(timedelta(hours=8))
_LOG_FORMAT = "%(asctime)s %(levelname)-5s %(threadName)s - %(message)s"


class StartupError(Exception):
    """The name server cannot start (bad config file, port taken, broken kvConfig.json)."""


@dataclass
class Settings:
    """Everything start-up decided before the server runs."""

    namesrv: NamesrvConfig = field(default_factory=NamesrvConfig)
    server: NettyServerConfig = field(default_factory=NettyServerConfig)
    client: NettyClientConfig = field(default_factory=NettyClientConfig)
    file_properties: dict[str, str] | None = None
    config_file: str | None = None


def load_settings(
    config_file: str | None = None, *, listen_port: int | None = None, bind_address: str | None = None
) -> Settings:
    """Defaults, then the ``-c`` file (Java properties), then the flags."""
    s = Settings()
    if config_file is not None:
        try:
            raw = Path(config_file).read_bytes()
        except OSError as e:
            raise StartupError(f"cannot read config file {config_file}: {e.strerror or e}") from None
        try:
            # Properties.load(InputStream) reads ISO-8859-1
            props = string_to_properties(raw.decode("latin-1"), java_charset=False)
        except ProtocolError as e:
            raise StartupError(f"config file {config_file}: {e}") from None
        for bean in (s.namesrv, s.server, s.client):
            apply_properties(props, bean)
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
    stamp = datetime.now(UTC).astimezone(_GMT8).strftime("%Y-%m-%d %H:%M:%S")
    beans: tuple[JavaBean, ...] = (settings.namesrv, settings.server, settings.client)
    for bean in beans:
        for name, value in bean.java_items():
            out.write(f"{stamp} INFO main - {name}={java_value(value) or ''}\n")
    out.flush()


def setup_logging(log_file: str | None) -> logging.Handler | None:
    """INFO and up to the log file, WARNING and up to stderr; returns the file handler."""
    root = logging.getLogger("mqadmin")
    root.setLevel(logging.INFO)
    formatter = logging.Formatter(_LOG_FORMAT)
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.WARNING)
    err.setFormatter(formatter)
    root.addHandler(err)
    if not log_file:
        return None
    path = Path(os.path.expanduser(log_file))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as e:
        root.warning("cannot open log file %s (%s): logging to stderr only", path, e.strerror or e)
        return None
    handler.setLevel(logging.INFO)
    handler.setFormatter(formatter)
    root.addHandler(handler)
    return handler


async def serve(settings: Settings, *, boot_out: TextIO | None = None) -> None:
    """Run until SIGTERM or SIGINT."""
    controller = NamesrvController(
        settings.namesrv, settings.server, file_properties=settings.file_properties
    )
    for bean in (settings.namesrv, settings.server):
        for name, value in bean.java_items():
            log.info("%s=%s", name, java_value(value) or "")
    try:
        await controller.start()
    except KVConfigError as e:
        raise StartupError(str(e)) from None
    except OSError as e:
        where = f"{settings.server.bind_address}:{settings.server.listen_port}"
        raise StartupError(f"cannot listen on {where}: {e.strerror or e}") from None
    tip = (
        "The Name Server boot success. serializeType=JSON, "
        f"address {settings.server.bind_address}:{settings.server.listen_port}"
    )
    log.info(tip)
    out = boot_out or sys.stdout
    out.write(tip + "\n")
    out.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
        log.info("shutdown requested, stopping the name server")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        await controller.shutdown()


def run(
    config_file: str | None = None,
    *,
    print_config: bool = False,
    listen_port: int | None = None,
    bind_address: str | None = None,
    log_file: str | None = DEFAULT_LOG_FILE,
) -> int:
    """The whole process; returns the exit code."""
    try:
        settings = load_settings(config_file, listen_port=listen_port, bind_address=bind_address)
    except StartupError as e:
        sys.stderr.write(f"mqadmin namesrv: {e}\n")
        return 1
    if config_file is not None:
        sys.stdout.write(f"load config properties file OK, {config_file}\n")
    if print_config:
        print_config_items(settings, sys.stdout)
        return 0
    handler = setup_logging(log_file)
    try:
        asyncio.run(serve(settings))
    except StartupError as e:
        log.error("%s", e)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        if handler is not None:
            handler.close()
    return 0
