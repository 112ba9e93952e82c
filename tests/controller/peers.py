"""A name server with its embedded controller on a fixed port (so it can restart at the same
address) and a broker in controller mode pointed at it, as real processes on loopback."""

from __future__ import annotations

from pathlib import Path

from mqadmin.localcluster import NS_BOOT, ServerProcess, free_port, mqadmin_argv
from tests.broker.peers import BrokerProcess

__all__ = ["ControllerNameServer", "controller_broker"]


class ControllerNameServer:
    """``mqadmin namesrv start`` with ``enableControllerInNamesrv=true``; files under ``workdir``."""

    def __init__(self, workdir: Path, **props: object) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.port = free_port()
        self.addr = f"127.0.0.1:{self.port}"
        settings: dict[str, object] = {
            "bindAddress": "127.0.0.1",
            "kvConfigPath": workdir / "kvConfig.json",
            "enableControllerInNamesrv": "true",
            # the name server and its controller both read it (Java too): silent replicas found in time
            "scanNotActiveBrokerInterval": 500,
        }
        settings.update(props)
        config = workdir / "namesrv.properties"
        config.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
        argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(config), "--listen-port", str(self.port)]
        argv += ["--log-file", str(workdir / "ns.log")]
        self.server = ServerProcess("name server", argv, workdir, NS_BOOT)
        self.start()

    @property
    def replicas_file(self) -> Path:
        return self.workdir / "controller" / "replicas.json"

    def start(self) -> None:
        self.server.start()

    def stop(self) -> int | None:
        return self.server.stop(10)

    @property
    def alive(self) -> bool:
        return self.server.alive


def controller_broker(workdir: Path, ns: ControllerNameServer, **props: object) -> BrokerProcess:
    """Our broker (``DefaultCluster``/``broker-a``) in controller mode with ``ns`` as its controller.

    A broker that stops is seen gone when its connection closes (directly, or passed on by a name
    server worker), well before its heartbeats would time out (10 s)."""
    settings: dict[str, object] = {"enableControllerMode": "true", "controllerAddr": ns.addr}
    settings.update(props)
    return BrokerProcess(workdir, ns.addr, None, **settings)
