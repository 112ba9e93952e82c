"""Our servers as real processes on loopback, for every test folder, on ports picked at run time.

One wrapper per kind of server, all over :class:`~mqadmin.localcluster.ServerProcess` (which starts
a process, waits for its boot line and stops it: SIGTERM, then SIGKILL):

- :class:`NameServerProcess`: ``mqadmin namesrv start``. Its port is its own choice (read from the
  boot line) unless ``port`` is given: a server that must come back at the same address after a
  restart takes a fixed one.
- :class:`ControllerNameServer`: a name server with its embedded HA controller
  (``enableControllerInNamesrv``), always on a fixed port (brokers and tools keep its address).
- :class:`BrokerProcess`: ``mqadmin broker start -c FILE`` (``DefaultCluster``/``broker-a`` unless
  told otherwise) on a port picked up front, so a restart comes back at the same address;
  :func:`controller_broker` is one in controller mode under a :class:`ControllerNameServer`.
- :class:`Cluster`: a name server and one broker, or the brokers it is given, stopped together (the
  brokers first: they unregister), also when one of them cannot start; more join with
  :meth:`Cluster.add_broker`. Folders subclass it only to add the clients their tests use.

Left outside on purpose: tests of a server's own defaults (``HOME`` apart from the working
directory, no config beyond what the test writes: ``broker/test_bind.py``,
``namesrv/test_hostile_requests.py``) and of the process itself (signals, workers, start-up
refusals), which start it by hand.

The root ``tests/conftest.py`` exposes them as fixtures: ``namesrv`` (one per test module) and
``broker_factory`` (brokers of one test on that name server). A folder whose tests share more state
(one cluster for a module or a session) builds it from :class:`Cluster` in its own conftest.
"""

from __future__ import annotations

import socket
import subprocess
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

from mqadmin.localcluster import BROKER_BOOT, NS_BOOT, ServerProcess, free_port, mqadmin_argv

__all__ = [
    "BrokerProcess",
    "Cluster",
    "ControllerNameServer",
    "NameServerProcess",
    "controller_broker",
    "free_port",
    "kill_leftovers",
]


def _properties(path: Path, settings: dict[str, object]) -> Path:
    path.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    return path


_MADE: weakref.WeakSet[_Served] = weakref.WeakSet()


def kill_leftovers(among: Sequence[_Served] | None = None) -> int:
    """``kill -9`` every server made here (or ``among`` them) that still runs: one a test that failed
    between starting it and the ``try`` that stops it left behind; how many there were. Called when
    the test session ends."""
    left = [s for s in (list(_MADE) if among is None else among) if s.alive]
    for s in left:
        s.kill()
    return len(left)


class _Served:
    """What both wrappers offer over their :class:`ServerProcess` and log file."""

    server: ServerProcess
    log_file: Path

    def __new__(cls, *args: object, **kwargs: object) -> _Served:
        made = super().__new__(cls)
        _MADE.add(made)
        return made

    @property
    def proc(self) -> subprocess.Popen[str] | None:
        return self.server.proc

    @property
    def alive(self) -> bool:
        return self.server.alive

    @property
    def stderr_path(self) -> Path | None:
        return self.server.stderr_path

    def log(self) -> str:
        return self.log_file.read_text(errors="replace") if self.log_file.exists() else ""

    def kill(self) -> None:
        """``kill -9``."""
        self.server.kill()


class NameServerProcess(_Served):
    """``mqadmin namesrv start [ARGS]`` on 127.0.0.1 with its files (config, KV store, log) under
    ``workdir``.

    ``props`` are more ``namesrv.properties`` settings; ``port`` fixes the listening port (else the
    server picks one and says which in its boot line); ``nofile`` lowers its file descriptor limit."""

    def __init__(
        self,
        workdir: Path,
        port: int | None = None,
        args: Sequence[str] = (),
        nofile: int | None = None,
        **props: object,
    ) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.fixed_port = port
        self.port = port or 0
        self.addr = f"127.0.0.1:{self.port}"
        self.log_file = workdir / "ns.log"
        settings: dict[str, object] = {
            "bindAddress": "127.0.0.1",
            "rocketmqHome": workdir,
            "kvConfigPath": workdir / "kvConfig.json",
            **props,
        }
        self.config = _properties(workdir / "namesrv.properties", settings)
        argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(self.config)]
        argv += ["--listen-port", str(self.port), "--log-file", str(self.log_file), *args]
        self.server = ServerProcess("name server", argv, workdir, NS_BOOT, nofile=nofile)
        self._sockets: list[socket.socket] = []
        self.start()

    def start(self) -> None:
        """Start (or restart) the process; a fixed port comes back, a chosen one may change."""
        m = self.server.start()
        self.port = int(m.group(2))
        self.addr = f"127.0.0.1:{self.port}"

    def stop(self, timeout: float = 10) -> int | None:
        """Close the connections kept open for it, then SIGTERM and wait."""
        for s in self._sockets:
            s.close()
        self._sockets.clear()
        return self.server.stop(timeout)

    def keep(self, sock: socket.socket) -> None:
        """Hold a connection open until :meth:`stop` (a name server drops a broker whose channel closes)."""
        self._sockets.append(sock)


class ControllerNameServer(NameServerProcess):
    """A name server with its embedded controller, on a fixed port (a restart keeps the address)."""

    def __init__(self, workdir: Path, **props: object) -> None:
        settings: dict[str, object] = {
            "enableControllerInNamesrv": "true",
            # the name server and its controller both read it (Java too): silent replicas found in time
            "scanNotActiveBrokerInterval": 500,
            **props,
        }
        super().__init__(workdir, free_port(), **settings)

    @property
    def replicas_file(self) -> Path:
        return self.workdir / "controller" / "replicas.json"


class BrokerProcess(_Served):
    """``mqadmin broker start -c FILE [ARGS]`` registering with ``namesrv``; ``props`` are more (or
    other) ``broker.properties`` settings; ``nofile`` lowers its file descriptor limit."""

    def __init__(
        self,
        workdir: Path,
        namesrv: str,
        port: int | None = None,
        args: Sequence[str] = (),
        nofile: int | None = None,
        **props: object,
    ) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.fixed_port = port
        self.port = port or free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.log_file = workdir / "broker.log"
        settings: dict[str, object] = {
            "brokerClusterName": "DefaultCluster",
            "brokerName": "broker-a",
            "brokerIP1": "127.0.0.1",
            "brokerIP2": "127.0.0.1",
            "listenPort": self.port,
            "namesrvAddr": namesrv,
            "storePathRootDir": workdir / "store",
            **props,
        }
        self._settings = settings
        self.config = _properties(workdir / "broker.properties", settings)
        argv = [*mqadmin_argv(), "broker", "start", "-c", str(self.config), "--log-file", str(self.log_file)]
        argv += args
        self.server = ServerProcess("broker", argv, workdir, BROKER_BOOT, nofile=nofile)
        self.boot_line = ""
        self.start()

    def start(self) -> None:
        """Start (or restart) the process. A port picked here was free a moment before the broker
        binds it; when another process took it meanwhile (another test run on the machine), the
        broker moves to another port, twice at most. A fixed port's failure is the caller's."""
        for attempt in range(3):
            try:
                m = self.server.start()
                break
            except RuntimeError as e:
                if self.fixed_port is not None or attempt == 2 or "Address already in use" not in str(e):
                    raise
                self.port = free_port()
                self.addr = f"127.0.0.1:{self.port}"
                self._settings["listenPort"] = self.port
                _properties(self.config, self._settings)
        self.boot_line = m.group(0)
        assert m.group(2) == self.addr, m.group(0)

    def stop(self) -> int | None:
        """SIGTERM and wait: a clean shutdown (offsets persisted, unregistered)."""
        return self.server.stop()


def controller_broker(workdir: Path, controller: ControllerNameServer, **props: object) -> BrokerProcess:
    """Our broker (``DefaultCluster``/``broker-a``) in controller mode with ``controller`` as its
    controller and name server.

    A broker that stops is seen gone when its connection closes (directly, or passed on by a name
    server worker), well before its heartbeats would time out (10 s)."""
    settings: dict[str, object] = {"enableControllerMode": "true", "controllerAddr": controller.addr, **props}
    return BrokerProcess(workdir, controller.addr, None, **settings)


class Cluster:
    """Our name server and its brokers under ``workdir``: one broker (``DefaultCluster``/``broker-a``
    unless ``broker_props`` say otherwise, files under ``workdir/broker``), or those of ``brokers``
    (folder -> properties, in order); more join with :meth:`add_broker`. :attr:`broker` is the first."""

    def __init__(
        self,
        workdir: Path,
        brokers: Mapping[str, Mapping[str, object]] | None = None,
        **broker_props: object,
    ) -> None:
        if brokers is not None and not brokers:
            raise ValueError("a cluster has at least one broker")
        self.workdir = workdir
        self.ns = NameServerProcess(workdir / "namesrv")
        self.brokers: list[BrokerProcess] = []
        try:
            for folder, props in (brokers or {"broker": broker_props}).items():
                self.add_broker(folder, **props)
        except BaseException:
            self.stop()
            raise
        self.broker = self.brokers[0]

    @property
    def ns_addr(self) -> str:
        return self.ns.addr

    @property
    def broker_addr(self) -> str:
        return self.broker.addr

    def add_broker(self, folder: str, **props: object) -> BrokerProcess:
        """One more broker on this name server, files under ``workdir/folder``."""
        broker = BrokerProcess(self.workdir / folder, self.ns.addr, **props)
        self.brokers.append(broker)
        return broker

    def stop(self) -> None:
        """The brokers first (they unregister), then the name server, whatever fails on the way."""
        try:
            for broker in reversed(self.brokers):
                try:
                    broker.stop()
                finally:
                    broker.kill()
        finally:
            self.ns.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
