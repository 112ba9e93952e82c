"""``mqadmin broker start``: the broker process, started the way ``mqbroker`` starts.

Order as ``BrokerStartup``: defaults (listen port 10911), the ``-c`` properties file applied to
every config object, ``-n`` over ``namesrvAddr``, then the fixed overrides (a master has id 0, HA
port = listen port + 1). ``-p``/``-m`` print the settings in the Java console-log format and exit;
otherwise the broker starts and prints Java's ``The broker[...] boot success...`` line on stdout,
the only thing it ever writes there. It listens on ``bindAddress`` (``--bind-address``; every
interface by default, as 5.3.3). Nothing goes to the home directory: the store root defaults to
``./store`` (Java: ``~/store``) and the log file to ``logs/broker.log`` under the store root, beside
its ``config`` (Java: ``~/logs/rocketmqlogs``); stderr gets the warnings. SIGTERM and SIGINT stop it
cleanly: offsets persisted, unregistered from every name server, store closed (exit 0).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import TextIO

from mqadmin.broker.acl.accounts import AclConfigError
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.server import BrokerController
from mqadmin.broker.store import StoreError
from mqadmin.broker.version import broker_version
from mqadmin.remoting.loops import loop_factory
from mqadmin.servermain import (
    StartupError,
    announce,
    console_lines,
    read_config_file,
    run_until_stopped,
    stop_signals,
)

__all__ = ["DEFAULT_BIND_ADDRESS", "StartupError", "default_log_file", "load_settings", "run", "serve"]

log = logging.getLogger("mqadmin.broker")

#: 5.3.3's ``NettyServerConfig.bindAddress`` default: every interface.
DEFAULT_BIND_ADDRESS = "0.0.0.0"


def default_log_file(settings: BrokerSettings) -> str:
    """``logs/broker.log`` under the store root."""
    return os.path.join(settings.store.store_path_root_dir, "logs", "broker.log")


def load_settings(
    config_file: str | None = None, namesrv_addr: str | None = None, *, bind_address: str | None = None
) -> BrokerSettings:
    """Defaults, then the ``-c`` file (Java properties), then ``-n`` and ``--bind-address``, then the
    fixed overrides. The store root defaults to ``store`` in the working directory."""
    s = BrokerSettings()
    s.store.store_path_root_dir = os.path.abspath("store")
    if config_file is not None:
        props = read_config_file(config_file)
        try:
            broker_version(props)  # rocketmqVersion: a version this broker can behave as
        except ValueError as e:
            raise StartupError(str(e)) from None
        s.apply(props)
        s.file_properties = props
        s.config_path = config_file
    if namesrv_addr is not None:
        s.broker.namesrv_addr = namesrv_addr
    if bind_address is not None:
        s.server.bind_address = bind_address
    for addr in s.broker.namesrv_list:
        host, _, port = addr.rpartition(":")
        if not host or not port.isdigit():
            raise StartupError(
                f"The Name Server Address[{s.broker.namesrv_addr}] illegal, please set it as follows, "
                '"127.0.0.1:9876;192.168.0.1:9876"'
            )
    s.fix_up()
    return s


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
    running = type(asyncio.get_running_loop())
    log.info("event loop: %s.%s", running.__module__, running.__qualname__)
    bind = settings.server.bind_address or DEFAULT_BIND_ADDRESS
    controller = BrokerController(settings, bind_address=bind)
    try:
        await controller.start()
    except StoreError as e:
        raise StartupError(f"the message store cannot start: {e}") from None
    except AclConfigError as e:  # aclEnable=true with an ACL file that cannot be used
        raise StartupError(str(e)) from None
    except OSError as e:
        raise StartupError(
            f"cannot listen on {bind}:{settings.server.listen_port}: {e.strerror or e}"
        ) from None
    try:
        with stop_signals() as stop:  # before the announcement: its reader may signal at once
            announce(boot_tip(settings), log, boot_out)
            await stop.wait()
        log.info("shutdown requested, stopping the broker")
    finally:
        await controller.shutdown()


def run(
    config_file: str | None = None,
    *,
    namesrv_addr: str | None = None,
    bind_address: str | None = None,
    print_config: bool = False,
    print_important: bool = False,
    log_file: str | None = None,
    loop: str = "auto",
) -> int:
    """The whole process; returns the exit code. ``log_file`` None: :func:`default_log_file`; empty:
    stderr only. ``loop``: ``auto`` (uvloop when installed), ``asyncio`` or ``uvloop``."""
    try:
        settings = load_settings(config_file, namesrv_addr, bind_address=bind_address)
        try:
            factory = loop_factory(loop)
        except ValueError as e:
            raise StartupError(str(e)) from None
    except StartupError as e:
        sys.stderr.write(f"mqadmin broker: {e}\n")
        return 1
    if print_config or print_important:
        lines = settings.print_lines(important_only=print_important and not print_config)
        sys.stdout.write("".join(f"{line}\n" for line in console_lines(lines)))
        sys.stdout.flush()
        return 0
    if log_file is None:
        log_file = default_log_file(settings)
    return run_until_stopped(
        lambda: serve(settings),
        log_file,
        log,
        logging.WARNING if log_file else logging.INFO,
        loop_factory=factory,
    )
