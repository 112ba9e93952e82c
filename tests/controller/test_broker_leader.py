"""A broker in controller mode with several controller addresses finds the leader as a 5.3.3
broker does (CONTROLLER_GET_METADATA_INFO): a controller that cannot be reached is passed over, a
follower's answer names the leader, and the broker is elected there."""

from __future__ import annotations

import time
from pathlib import Path

from mqadmin.localcluster import free_port
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from tests.cli.peers import _ThreadServer
from tests.cli_harness import with_admin
from tests.servers import ControllerNameServer, controller_broker


class Follower(_ThreadServer):
    """A controller that is not the leader: it names ``leader`` and takes heartbeats."""

    def __init__(self, leader: str) -> None:
        self.leader = leader
        super().__init__()

    def answer(self, cmd: RemotingCommand) -> RemotingCommand | None:
        self.requests.append(cmd)
        if cmd.code == RequestCode.CONTROLLER_GET_METADATA_INFO:
            ext = {"controllerLeaderId": "n0", "controllerLeaderAddress": self.leader, "isLeader": "false"}
            return cmd.response(ResponseCode.SUCCESS, None, ext)
        if cmd.code == RequestCode.BROKER_HEARTBEAT:
            return cmd.response(ResponseCode.SUCCESS, "Heart beat success")
        return cmd.response(ResponseCode.CONTROLLER_NOT_LEADER, "not the leader")


def test_broker_finds_the_leader_through_a_follower(tmp_path: Path) -> None:
    ns = ControllerNameServer(tmp_path / "ns")
    follower = Follower(ns.addr)
    dead = f"127.0.0.1:{free_port()}"
    broker = controller_broker(tmp_path / "broker", ns, controllerAddr=f"{dead};{follower.addr}")
    try:
        info = with_admin(
            ns.addr, lambda admin: admin.controller.get_in_sync_state_data(ns.addr, ["broker-a"])
        )
        replicas = info.replicas_info_table["broker-a"]
        assert (replicas.master_broker_id, replicas.master_epoch) == (1, 1)
        deadline = time.monotonic() + 5  # heartbeats go every second to every controller
        while RequestCode.BROKER_HEARTBEAT not in {c.code for c in follower.requests}:
            assert time.monotonic() < deadline, [c.code for c in follower.requests]
            time.sleep(0.1)
        codes = {c.code for c in follower.requests}
        assert RequestCode.CONTROLLER_ELECT_MASTER not in codes  # elections go to the leader only
    finally:
        broker.stop()
        follower.stop()
        ns.stop()
