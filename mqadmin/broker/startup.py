"""``mqadmin broker start``: the broker process, started the way ``mqbroker`` starts.

Order as ``BrokerStartup``: defaults (listen port 10911), the ``-c`` properties file applied to
every config object, ``-n`` over ``namesrvAddr``, then the fixed overrides (a master has id 0, HA
port = listen port + 1). ``-p``/``-m`` print the settings in the Java console-log format and exit;
otherwise the broker starts and prints Java's ``The broker[...] boot success...`` line on stdout,
the only thing it ever writes there. Logs go to a file (``~/logs/rocketmqlogs/broker.log`` unless
told otherwise) and to stderr. SIGTERM and SIGINT stop it cleanly: offsets persisted, unregistered
from every name server, store closed (exit 0).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TextIO

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.controller import BrokerController
from mqadmin.broker.store import StoreError
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.errors import ProtocolError

__all__ = ["DEFAULT_LOG_FILE", "StartupError", "load_settings", "run", "serve"]

log = logging.getLogger("mqadmin.broker")

DEFAULT_LOG_FILE = os.path.join("~", "logs", "rocketmqlogs", "broker.log")
_LOG_FORMAT = "%(asctime)s %(levelname)-5s %(threadName)s - %(message)s"


class StartupError(Exception):
    """The broker cannot start (bad config file, bad name server list, port taken, store locked)."""


def load_settings(config_file: str | None = None, namesrv_addr: str | None = None) -> BrokerSettings:
    """Defaults, then the ``-c`` file (Java properties), then ``-n``, then the fixed overrides."""
    s = BrokerSettings()
    if config_file is not None:
        try:
            raw = Path(config_file).read_bytes()
        except OSError as e:
            raise StartupError(f"cannot read config file {config_file}: {e.strerror or e}") from None
        try:
            props = string_to_properties(raw.decode("latin-1"), java_charset=False)
        except ProtocolError as e:
            raise StartupError(f"config file {config_file}: {e}") from None
        s.apply(props)
        s.file_properties = props
        s.config_path = config_file
    if namesrv_addr is not None:
        s.broker.namesrv_addr = namesrv_addr
    for addr in s.broker.namesrv_list:
        host, _, port = addr.rpartition(":")
        if not host or not port.isdigit():
            raise StartupError(
                f"The Name Server Address[{s.broker.namesrv_addr}] illegal, please set it as follows, "
                '"127.0.0.1:9876;192.168.0.1:9876"'
            )
    s.fix_up()
    return s


def setup_logging(log_file: str | None) -> logging.Handler | None:
    """INFO and up to the log file, WARNING and up to stderr; returns the file handler."""
    root = logging.getLogger("mqadmin")
    root.setLevel(logging.INFO)
    formatter = logging.Formatter(_LOG_FORMAT)
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.WARNING if log_file else logging.INFO)
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


def boot_tip(settings: BrokerSettings) -> str:
    """What ``BrokerStartup.start`` prints once the broker serves."""
    b = settings.broker
    tip = f"The broker[{b.broker_name}, {settings.broker_addr}] boot success. serializeType=JSON"
    if b.namesrv_addr is not None:
        tip += f" and name server is {b.namesrv_addr}"
    return tip


async def serve(settings: BrokerSettings, *, boot_out: TextIO | None = None) -> None:
    """Run until SIGTERM or SIGINT."""
    for line in settings.print_lines():
        log.info("%s", line)
    controller = BrokerController(settings)
    try:
        await controller.start()
    except StoreError as e:
        raise StartupError(f"the message store cannot start: {e}") from None
    except OSError as e:
        raise StartupError(
            f"cannot listen on port {settings.server.listen_port}: {e.strerror or e}"
        ) from None
    tip = boot_tip(settings)
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
        log.info("shutdown requested, stopping the broker")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        await controller.shutdown()


def run(
    config_file: str | None = None,
    *,
    namesrv_addr: str | None = None,
    print_config: bool = False,
    print_important: bool = False,
    log_file: str | None = DEFAULT_LOG_FILE,
) -> int:
    """The whole process; returns the exit code."""
    try:
        settings = load_settings(config_file, namesrv_addr)
    except StartupError as e:
        sys.stderr.write(f"mqadmin broker: {e}\n")
        return 1
    if print_config or print_important:
        for line in settings.console_lines(important_only=print_important and not print_config):
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
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
