"""The name server with ``enableControllerInNamesrv=true`` as a process: Java's second boot line,
``-p`` listing the controller's settings, and a damaged controller table refused at start."""

from __future__ import annotations

import subprocess
from pathlib import Path

from mqadmin.localcluster import mqadmin_argv
from tests.servers import ControllerNameServer


def _config(tmp_path: Path, enabled: bool) -> Path:
    cfg = tmp_path / "namesrv.properties"
    flag = "true" if enabled else "false"
    kv = tmp_path / "kvConfig.json"
    cfg.write_text(f"bindAddress=127.0.0.1\nkvConfigPath={kv}\nenableControllerInNamesrv={flag}\n")
    return cfg


def test_print_config_lists_the_controller_settings_only_when_enabled(tmp_path: Path) -> None:
    def lines(enabled: bool) -> list[str]:
        argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(_config(tmp_path, enabled)), "-p"]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        return [ln.split(" - ", 1)[1] for ln in p.stdout.splitlines() if " - " in ln]

    on = lines(True)
    assert "controllerType=DLedger" in on and "electMasterMaxRetryCount=3" in on
    assert f"controllerStorePath={tmp_path / 'controller'}" in on
    assert f"configStorePath={tmp_path / 'controller' / 'controller.properties'}" in on
    off = lines(False)
    assert "controllerType=DLedger" not in off and len(on) > len(off)


def test_boot_lines_and_a_damaged_table(tmp_path: Path) -> None:
    ns = ControllerNameServer(tmp_path / "ns")
    try:
        proc = ns.server.proc
        assert proc is not None and proc.stdout is not None
        assert proc.stdout.readline() == "The ControllerManager boot success. serializeType=JSON\n"
    finally:
        ns.stop()
    ns.replicas_file.parent.mkdir(exist_ok=True)
    ns.replicas_file.write_text('{"version": 1, "brokerSets": [{"clusterName": 7}]}')
    argv = [*mqadmin_argv(), "namesrv", "start", "-c", str(tmp_path / "ns" / "namesrv.properties")]
    p = subprocess.run(
        [*argv, "--listen-port", "0", "--log-file", ""], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 1 and "boot success" not in p.stdout
    assert "replicas.json is damaged" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
