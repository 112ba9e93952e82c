"""The embedded controller: Java's ``ControllerRequestProcessor`` over one node's replica table.

Answers the controller codes (1001-1006, 1009-1013) and the controller side of BROKER_HEARTBEAT
(904) on the server it is installed on, with Java's codes, remarks, headers and bodies. A replica
that stops (its connection closes or its heartbeats stop) and was master triggers an election, as
Java's ``onBrokerInactive`` does; with no other live replica in the sync state set the set is left
without a master and its master epoch moves on.

Every header is read strictly through the declared types of
:mod:`mqadmin.protocol.headers.controller`; a refused request changes nothing. Before a header is
read (and after the server held its body to the declared budget), with ``controllerAuth`` on, the
request must be signed by an admin account of the controller (:mod:`mqadmin.controller.auth`); a
controller heartbeat (904 with a broker id) too, as it decides which replicas count as alive.

Where Java 5.3.3 trusts any peer, ours refuses, whatever the mode:

- moving a replica to another address (1003 for a known id with a new address) without the check
  code it applied with (``registerCheckCode``, sent beside the header) or the admin's signature;
- applying a new broker id other than the set's next one (1013): no id can be taken ahead of time;
- ``isCleanLivingBroker`` (1011) for a replica whose heartbeats have not expired.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mqadmin.controller.auth import ControllerAuth, Refusal
from mqadmin.controller.config import (
    ControllerConfig,
    ControllerConfiguration,
    embedded_config,
    embedded_dir,
)
from mqadmin.controller.heartbeat import HeartbeatTable, ReplicaKey
from mqadmin.controller.replicas import Decision, ReplicaSet, ReplicasStore
from mqadmin.javaconfig import JavaBean
from mqadmin.protocol.bodies.controller import (
    BrokerMemberGroup,
    BrokerReplicasInfo,
    ElectMasterResponseBody,
    ReplicaIdentity,
    ReplicasInfo,
    SyncStateSet,
    decode_name_list,
)
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError, RequestHeader
from mqadmin.protocol.headers.controller import (
    FIRST_BROKER_CONTROLLER_ID,
    AlterSyncStateSetRequestHeader,
    AlterSyncStateSetResponseHeader,
    ApplyBrokerIdRequestHeader,
    ApplyBrokerIdResponseHeader,
    CleanControllerBrokerDataRequestHeader,
    ElectMasterRequestHeader,
    ElectMasterResponseHeader,
    GetMetaDataResponseHeader,
    GetNextBrokerIdRequestHeader,
    GetNextBrokerIdResponseHeader,
    GetReplicaInfoRequestHeader,
    GetReplicaInfoResponseHeader,
    RegisterBrokerToControllerRequestHeader,
    RegisterBrokerToControllerResponseHeader,
)
from mqadmin.protocol.headers.namesrv import broker_addr_refusal
from mqadmin.protocol.headers.namesrv.registration import BrokerHeartbeatRequestHeader
from mqadmin.protocol.javacoll import java_hash_dict, java_hash_order
from mqadmin.protocol.javanum import JavaNumberError, parse_long
from mqadmin.remoting.logthrottle import ThrottledLog
from mqadmin.remoting.server import Connection, RemotingServer

__all__ = ["ControllerProcessor"]

log = logging.getLogger("mqadmin.controller")
_peer_log = ThrottledLog(log)

RC = ResponseCode
NOT_SET = "not set any response code"
"""The remark of ``RemotingCommand.createResponseCommand(null)`` (SYSTEM_ERROR), Java's answer to
a request it has nothing to do with (an empty broker list)."""

Handler = Callable[[Connection, RemotingCommand], RemotingCommand | None]

CHECK_CODE_FIELD = "registerCheckCode"
"""The ext field beside a 1003 header that carries the replica's check code when it moves."""


class ControllerProcessor:
    """One controller node: config, replica table, live replicas and the request handlers."""

    def __init__(
        self,
        config: ControllerConfig,
        server_config: JavaBean,
        store_dir: str | Path,
        file_properties: dict[str, str] | None = None,
    ) -> None:
        config.place_files(store_dir)
        self.config = config
        self.server_config = server_config
        self.configuration = ControllerConfiguration(config, server_config, file_properties)
        self.store = ReplicasStore(config.controller_store_path)
        self.heartbeats = HeartbeatTable()
        self._file_properties = dict(file_properties or {})
        self.auth = ControllerAuth()
        """Read by :meth:`load` (a bad account stops the start there, as a damaged table does)."""
        self._scan: asyncio.Task[None] | None = None
        self._stopped = False

    # ------------------------------------------------------------------------------ life cycle

    def load(self) -> None:
        """Read the account settings and the replica table back (:class:`ControllerStoreError` when
        either cannot be used)."""
        self.auth = ControllerAuth.from_properties(self._file_properties)
        self.store.load()
        if self.auth.warning is not None:
            log.warning("controller: %s", self.auth.warning)
        else:
            n = len(self.auth.accounts)
            log.info(
                "controller: controllerAuth on, requests must be signed by one of %d admin account(s)", n
            )

    def install(self, server: RemotingServer, name_server_heartbeat: Handler | None = None) -> None:
        """Answer the controller codes on ``server``; BROKER_HEARTBEAT also reaches the name server's
        own handler (``name_server_heartbeat``) when one is given, as both share the code."""
        handlers: dict[int, Handler] = {
            RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET: self.alter_sync_state_set,
            RequestCode.CONTROLLER_ELECT_MASTER: self.elect_master,
            RequestCode.CONTROLLER_REGISTER_BROKER: self.register_broker,
            RequestCode.CONTROLLER_GET_REPLICA_INFO: self.get_replica_info,
            RequestCode.CONTROLLER_GET_METADATA_INFO: self.get_metadata,
            RequestCode.CONTROLLER_GET_SYNC_STATE_DATA: self.get_sync_state_data,
            RequestCode.UPDATE_CONTROLLER_CONFIG: self.update_config,
            RequestCode.GET_CONTROLLER_CONFIG: self.get_config,
            RequestCode.CLEAN_BROKER_DATA: self.clean_broker_data,
            RequestCode.CONTROLLER_GET_NEXT_BROKER_ID: self.get_next_broker_id,
            RequestCode.CONTROLLER_APPLY_BROKER_ID: self.apply_broker_id,
        }
        for code, handler in handlers.items():
            server.register_handler(int(code), _guarded(handler, self.admission))
        server.register_handler(
            int(RequestCode.BROKER_HEARTBEAT), self._heartbeat_handler(name_server_heartbeat)
        )
        server.on_close.append(self.channel_closed)

    def start(self) -> None:
        """Start the scan for replicas whose heartbeats stopped (on the running loop)."""
        self._scan = asyncio.get_running_loop().create_task(self._scan_loop())

    def attach(self, server: RemotingServer, name_server_heartbeat: Handler | None = None) -> None:
        """Load, install on ``server`` and start: what a name server does with its embedded controller."""
        self.load()
        self.install(server, name_server_heartbeat)
        self.start()

    @classmethod
    def embedded(
        cls, file_properties: Mapping[str, str] | None, server_config: JavaBean, kv_config_path: str
    ) -> ControllerProcessor:
        """The controller of a name server (:func:`embedded_config`), on its Netty server settings."""
        config = embedded_config(file_properties, kv_config_path)
        return cls(config, server_config, embedded_dir(kv_config_path), dict(file_properties or {}))

    async def stop(self) -> None:
        """Stop watching: connections the stopping server closes are not replicas leaving."""
        self._stopped = True
        if self._scan is not None:
            self._scan.cancel()
            try:
                await self._scan
            except BaseException:
                pass
            self._scan = None

    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(max(self.config.scan_not_active_broker_interval, 100) / 1000)
            try:
                self._inactive(self.heartbeats.expire())
            except Exception:
                log.exception("controller: scan of inactive brokers failed")

    def channel_closed(self, conn: Connection) -> None:
        if self._stopped:
            return
        self._inactive(self.heartbeats.channel_closed(conn))

    def _inactive(self, gone: list[ReplicaKey]) -> None:
        """Java ``onBrokerInactive``: a master that went triggers an election in its set."""
        for cluster, name, broker_id in gone:
            log.info("controller: broker %s/%s id %d is inactive", cluster, name, broker_id)
            rs = self.store.get(name)
            if rs is not None and rs.master_broker_id == broker_id:
                try:
                    d = self._elect(rs, -1, designate=False)
                except HeaderError as e:
                    log.error("controller: re-election in %s failed: %s", name, e.remark)
                    continue
                log.info(
                    "controller: re-election in %s after its master left: code %d %s", name, d.code, d.remark
                )

    # ------------------------------------------------------------------------------ admission

    def admission(self, req: RemotingCommand) -> Refusal | None:
        """Why ``req`` does not reach its handler (auth on: no valid signature of an admin account),
        or None; the server has already held its body to the declared budget."""
        return self.auth.refusal(req)

    # ------------------------------------------------------------------------------ heartbeats

    def _heartbeat_handler(self, name_server: Handler | None) -> Handler:
        def heartbeat(conn: Connection, req: RemotingCommand) -> RemotingCommand | None:
            try:
                h = BrokerHeartbeatRequestHeader.decode(req.ext_fields)
            except HeaderError as e:
                if name_server is not None:  # the name server's own (lenient) reading of 904
                    return name_server(conn, req)
                return req.response(e.code, e.remark)
            if h.broker_id is None:  # a name server heartbeat: not the controller's to check
                if name_server is not None:
                    name_server(conn, req)
                    return req.response(RC.SUCCESS)
                return req.response(RC.CONTROLLER_INVALID_REQUEST, "Heart beat with empty brokerId")
            refused = self.admission(req)
            if refused is not None:  # a replica kept alive decides elections: the admin's to say
                _log_refusal(conn, req, refused[1])
                return req.response(*refused)
            if name_server is not None:
                name_server(conn, req)
            self.heartbeats.on_heartbeat(
                (h.cluster_name, h.broker_name, h.broker_id),
                h.broker_addr,
                conn,
                h.heartbeat_timeout_mills,
                h.epoch,
                h.max_offset,
                h.confirm_offset,
                h.election_priority,
            )
            return req.response(RC.SUCCESS, "Heart beat success")

        return heartbeat

    def _alive(self, rs: ReplicaSet, broker_id: int) -> bool:
        return self.heartbeats.is_alive(rs.cluster_name, rs.broker_name, broker_id)

    # ------------------------------------------------------------------------------ registration

    def get_next_broker_id(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = GetNextBrokerIdRequestHeader.decode(req.ext_fields)
        rs = self.store.get(h.broker_name)
        nxt = FIRST_BROKER_CONTROLLER_ID if rs is None else rs.next_assign_broker_id
        resp = GetNextBrokerIdResponseHeader(h.cluster_name, h.broker_name, nxt)
        return _answer(req, Decision(), resp)

    def apply_broker_id(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = ApplyBrokerIdRequestHeader.decode(req.ext_fields)
        resp = ApplyBrokerIdResponseHeader(h.cluster_name, h.broker_name)
        broker_id, code = h.applied_broker_id, h.register_check_code
        address = code.split(";")[0]
        rs = self.store.get(h.broker_name)
        if rs is None:
            if broker_id != FIRST_BROKER_CONTROLLER_ID:
                remark = (
                    f"Broker-set: {h.broker_name} hasn't been registered in controller, "
                    f"but broker try to apply brokerId: {broker_id}"
                )
                return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_ID_INVALID, remark), resp)
            rs = ReplicaSet(h.cluster_name, h.broker_name)
            rs.add_broker(broker_id, address, code)
            self.store.sets[h.broker_name] = rs
            self._persist_or_undo(lambda: self.store.sets.pop(h.broker_name, None))
            log.info(
                "controller: broker set %s/%s created, id %d at %s",
                h.cluster_name,
                h.broker_name,
                broker_id,
                address,
            )
            return _answer(req, Decision(), resp)
        known = rs.brokers.get(broker_id)
        if known is None and broker_id != rs.next_assign_broker_id:
            remark = (
                f"Fail to apply brokerId: {broker_id} in broker-set: {h.broker_name}, "
                f"the next brokerId to assign is {rs.next_assign_broker_id}"
            )
            return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_ID_INVALID, remark), resp)
        if broker_id >= FIRST_BROKER_CONTROLLER_ID and (known is None or known[1] == code):
            if known is None:
                before = rs.next_assign_broker_id
                rs.add_broker(broker_id, address, code)

                def undo() -> None:
                    rs.brokers.pop(broker_id, None)
                    rs.next_assign_broker_id = before

                self._persist_or_undo(undo)
            return _answer(req, Decision(), resp)
        remark = f"Fail to apply brokerId: {broker_id} in broker-set: {h.broker_name}"
        return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_ID_INVALID, remark), resp)

    def register_broker(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = RegisterBrokerToControllerRequestHeader.decode(req.ext_fields)
        resp = RegisterBrokerToControllerResponseHeader(h.cluster_name, h.broker_name)
        rs = self.store.get(h.broker_name)
        if rs is None:
            remark = f"Broker-set: {h.broker_name} hasn't been registered in controller"
            return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, remark), resp)
        if h.broker_id not in rs.brokers:
            remark = f"BrokerId: {h.broker_id} hasn't been registered in broker-set: {h.broker_name}"
            return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, remark), resp)
        address, check = rs.brokers[h.broker_id]
        if address != h.broker_address:
            refused = self._move_refusal(conn, req, rs, h.broker_id, address, h.broker_address)
            if refused is not None:
                return _answer(req, refused, resp)
        master = rs.master_broker_id
        if master is not None and self._alive(rs, master):
            resp.master_broker_id = master
            resp.master_address = rs.address(master)
            resp.master_epoch = rs.master_epoch
            resp.sync_state_set_epoch = rs.sync_state_set_epoch
        body = SyncStateSet(sorted(rs.sync_state_set), rs.sync_state_set_epoch).encode()
        if address != h.broker_address:
            log.info(
                "controller: broker %s id %d moves from %s to %s",
                rs.broker_name,
                h.broker_id,
                address,
                h.broker_address,
            )
            rs.brokers[h.broker_id] = (h.broker_address, check)
            self._persist_or_undo(lambda: rs.brokers.__setitem__(h.broker_id, (address, check)))
        return _answer(req, Decision(body=body), resp)

    def _move_refusal(
        self, conn: Connection, req: RemotingCommand, rs: ReplicaSet, broker_id: int, old: str, new: str
    ) -> Decision | None:
        """A replica moves to ``new`` only with the check code it applied with (``registerCheckCode``
        beside the header) or, with ``controllerAuth`` on, in a request the admin account signed (its
        admission checked that): else anyone could point its peers, and the next election, at an
        address of their choosing. Java moves it for anyone."""
        if self.auth.enabled:
            return None
        sent = (req.ext_fields or {}).get(CHECK_CODE_FIELD)
        kept = rs.brokers[broker_id][1]
        if sent is not None and hmac.compare_digest(sent.encode("utf-8", "replace"), kept.encode("utf-8")):
            return None
        remark = (
            f"BrokerId: {broker_id} of broker-set: {rs.broker_name} is registered at {old}; moving it to "
            f"{new} needs its registerCheckCode (the one it applied with) or a request signed by the "
            "controller's admin account (controllerAuth)"
        )
        _log_refusal(conn, req, remark)
        return Decision.refuse(RC.NO_PERMISSION, remark)

    # ------------------------------------------------------------------------------ replica state

    def get_replica_info(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = GetReplicaInfoRequestHeader.decode(req.ext_fields)
        rs = self.store.get(h.broker_name)
        resp = GetReplicaInfoResponseHeader()
        if rs is None:
            refused = Decision.refuse(
                RC.CONTROLLER_BROKER_METADATA_NOT_EXIST, "Broker metadata is not existed"
            )
            return _answer(req, refused, resp)
        resp.master_broker_id = rs.master_broker_id
        resp.master_address = rs.address(rs.master_broker_id)
        resp.master_epoch = rs.master_epoch
        body = SyncStateSet(sorted(rs.sync_state_set), rs.sync_state_set_epoch).encode()
        return _answer(req, Decision(body=body), resp)

    def alter_sync_state_set(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = AlterSyncStateSetRequestHeader.decode(req.ext_fields)
        try:
            new = SyncStateSet.decode(req.body or b"")
        except ProtocolError as e:
            raise HeaderError(f"bad SyncStateSet body: {e}") from None
        resp = AlterSyncStateSetResponseHeader()
        rs = self.store.get(h.broker_name)
        fail = RC.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED
        if rs is None:
            return _answer(req, Decision.refuse(fail, "Broker metadata is not existed"), resp)
        ids = set(new.sync_state_set)
        if ids == rs.sync_state_set:
            remark = "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet"
            return _answer(req, Decision.refuse(fail, remark), resp)
        if rs.master_broker_id is None or rs.master_broker_id != h.master_broker_id:
            remark = (
                "Rejecting alter syncStateSet request because the current leader is:"
                f"{{{_jstr(rs.master_broker_id)}}}, not {{{h.master_broker_id}}}"
            )
            return _answer(req, Decision.refuse(RC.CONTROLLER_INVALID_MASTER, remark), resp)
        if h.master_epoch != rs.master_epoch:
            remark = (
                "Rejecting alter syncStateSet request because the current master epoch is:"
                f"{{{rs.master_epoch}}}, not {{{h.master_epoch}}}"
            )
            return _answer(req, Decision.refuse(RC.CONTROLLER_FENCED_MASTER_EPOCH, remark), resp)
        if new.sync_state_set_epoch != rs.sync_state_set_epoch:
            remark = (
                "Rejecting alter syncStateSet request because the current syncStateSet epoch is:"
                f"{{{rs.sync_state_set_epoch}}}, not {{{new.sync_state_set_epoch}}}"
            )
            return _answer(req, Decision.refuse(RC.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, remark), resp)
        for replica in new.sync_state_set:
            if replica not in rs.brokers:
                remark = (
                    f"Rejecting alter syncStateSet request because the replicas {{{replica}}} don't exist"
                )
                return _answer(req, Decision.refuse(RC.CONTROLLER_INVALID_REPLICAS, remark), resp)
            if not self._alive(rs, replica):
                remark = (
                    f"Rejecting alter syncStateSet request because the replicas {{{replica}}} don't alive"
                )
                return _answer(req, Decision.refuse(RC.CONTROLLER_BROKER_NOT_ALIVE, remark), resp)
        if rs.master_broker_id not in ids:
            remark = (
                "Rejecting alter syncStateSet request because the newSyncStateSet don't contains "
                f"origin leader {{{rs.master_broker_id}}}"
            )
            return _answer(req, Decision.refuse(fail, remark), resp)
        old_set, old_epoch = rs.sync_state_set, rs.sync_state_set_epoch
        rs.update_sync_state_set(ids)

        def undo() -> None:
            rs.sync_state_set, rs.sync_state_set_epoch = old_set, old_epoch

        self._persist_or_undo(undo)
        resp.new_sync_state_set_epoch = rs.sync_state_set_epoch
        body = SyncStateSet(sorted(ids), rs.sync_state_set_epoch).encode()
        return _answer(req, Decision(body=body), resp)

    def elect_master(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = ElectMasterRequestHeader.decode(req.ext_fields)
        rs = self.store.get(h.broker_name)
        if rs is None:
            refused = Decision.refuse(
                RC.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, "Broker hasn't been registered"
            )
            return _answer(req, refused, ElectMasterResponseHeader())
        d = self._elect(rs, h.broker_id, designate=h.designate_elect)
        return _answer(req, d, ElectMasterResponseHeader(**d.fields))

    def _elect(self, rs: ReplicaSet, broker_id: int, *, designate: bool) -> Decision:
        """Java ``ReplicasInfoManager.electMaster`` with ``DefaultElectPolicy``, applied at once."""
        old = rs.master_broker_id
        new: int | None = None
        if rs.master_epoch == 0 and broker_id in rs.brokers:  # the set's first election
            new = broker_id
        if new is None:
            prefer = broker_id if designate else None
            new = self._policy(rs, rs.sync_state_set, old, prefer)
            if new is None and self.config.enable_elect_unclean_master:
                new = self._policy(rs, set(rs.brokers), old, prefer)
        if new is not None and new == old:
            remark = (
                f"The old master {old} is still alive, "
                f"not need to elect new master for broker {rs.broker_name}"
            )
            fields = {
                "master_broker_id": old,
                "master_address": rs.address(old),
                "master_epoch": rs.master_epoch,
                "sync_state_set_epoch": rs.sync_state_set_epoch,
            }
            body = ElectMasterResponseBody(None, sorted(rs.sync_state_set)).encode()
            return Decision(RC.CONTROLLER_MASTER_STILL_EXIST, remark, fields, body)
        saved = (rs.master_broker_id, rs.master_epoch, set(rs.sync_state_set), rs.sync_state_set_epoch)

        def undo() -> None:
            rs.master_broker_id, rs.master_epoch, rs.sync_state_set, rs.sync_state_set_epoch = saved

        if new is not None:
            rs.update_master(new)
            rs.update_sync_state_set({new})
            self._persist_or_undo(undo)
            log.info("controller: elected master %d of %s, epoch %d", new, rs.broker_name, rs.master_epoch)
            group = BrokerMemberGroup(
                rs.cluster_name, rs.broker_name, {i: a for i, (a, _) in rs.brokers.items()}
            )
            fields = {
                "master_broker_id": new,
                "master_address": rs.address(new),
                "master_epoch": rs.master_epoch,
                "sync_state_set_epoch": rs.sync_state_set_epoch,
            }
            return Decision(fields=fields, body=ElectMasterResponseBody(group, [new]).encode())
        if broker_id == -1:
            rs.update_master(None)
            self._persist_or_undo(undo)
            return Decision.refuse(
                RC.CONTROLLER_MASTER_NOT_AVAILABLE,
                "Old master has down and failed to elect a new broker master",
            )
        return Decision.refuse(RC.CONTROLLER_ELECT_MASTER_FAILED, "Failed to elect a new master")

    def _policy(
        self, rs: ReplicaSet, candidates: set[int], old: int | None, prefer: int | None
    ) -> int | None:
        """``DefaultElectPolicy.tryElect``: live candidates; the old master, the preferred one, or the
        best by (epoch, max offset) descending and election priority ascending."""
        alive = [i for i in sorted(candidates) if self._alive(rs, i)]
        if not alive:
            return None
        if old in alive and (prefer is None or prefer == old):
            return old
        if prefer is not None:
            return prefer if prefer in alive else None

        def rank(i: int) -> tuple[int, int, int]:
            info = self.heartbeats.info(rs.cluster_name, rs.broker_name, i)
            if info is None:
                return (0, 0, 0)
            return (-info.epoch, -info.max_offset, info.election_priority)

        return min(alive, key=rank)

    def get_sync_state_data(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        if not req.body:
            return req.response(RC.SYSTEM_ERROR, NOT_SET)
        try:
            wanted = decode_name_list(req.body)
        except ProtocolError as e:
            raise HeaderError(f"bad broker name list: {e}") from None
        if not wanted:
            return req.response(RC.SYSTEM_ERROR, NOT_SET)
        info = BrokerReplicasInfo()
        for name in wanted:
            rs = self.store.get(name)
            if rs is None:
                continue
            in_sync: list[ReplicaIdentity] = []
            not_in_sync: list[ReplicaIdentity] = []
            for broker_id in _hash_ids(rs.brokers):
                replica = ReplicaIdentity(
                    name, broker_id, rs.brokers[broker_id][0], self._alive(rs, broker_id)
                )
                (in_sync if broker_id in rs.sync_state_set else not_in_sync).append(replica)
            info.replicas_info_table[name] = ReplicasInfo(
                rs.master_broker_id,
                rs.address(rs.master_broker_id),
                rs.master_epoch,
                rs.sync_state_set_epoch,
                in_sync,
                not_in_sync,
            )
        return req.response(RC.SUCCESS, None, None, info.encode())

    # ------------------------------------------------------------------------------ administration

    def get_metadata(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        """One node, always the leader: at its address in ``controllerDLegerPeers`` when that names
        it, else at the name server's port on the address the asker dialled."""
        peers = self._peers()
        me = self.config.self_id
        addr = peers.get(me) or self._own_address(conn)
        listed = "".join(f"{i}:{a};" for i, a in (peers or {me: addr}).items())
        resp = GetMetaDataResponseHeader(self.config.controller_d_leger_group, me, addr, True, listed)
        return _answer(req, Decision(), resp)

    def _peers(self) -> dict[str, str]:
        """``controllerDLegerPeers`` (``n0-host:port;n1-host:port``); entries not host:port left out."""
        out: dict[str, str] = {}
        for part in (self.config.controller_d_leger_peers or "").split(";"):
            peer_id, sep, addr = part.strip().partition("-")
            if sep and peer_id and broker_addr_refusal(addr) is None:
                out[peer_id] = addr
        return out

    def _own_address(self, conn: Connection) -> str:
        """The name server's port on its bind address, or (bound to all) on the address dialled.
        A request passed on by a worker process arrives on an internal channel: its local host is
        the loopback, the port is still the name server's."""
        port = getattr(self.server_config, "listen_port", 0)
        bind = str(getattr(self.server_config, "bind_address", "") or "")
        host = conn.local_addr.rpartition(":")[0] if bind in ("", "0.0.0.0", "::") else bind
        return f"{host or '127.0.0.1'}:{port}"

    def clean_broker_data(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = CleanControllerBrokerDataRequestHeader.decode(req.ext_fields)
        bad = RC.CONTROLLER_INVALID_CLEAN_BROKER_METADATA
        rs = self.store.get(h.broker_name)
        ids: set[int] | None = None
        text = h.broker_controller_ids_to_clean
        if text is not None and text.strip():
            try:
                ids = {parse_long(s) for s in text.split(";")}
            except JavaNumberError as e:
                remark = (
                    "Please set the option <brokerControllerIdsToClean> according to the format, "
                    f"exception: java.lang.NumberFormatException: {e}"
                )
                return req.response(bad, remark)
        if not h.is_clean_living_broker:
            if ids is None and rs is not None and rs.master_broker_id is not None:
                return req.response(bad, f"Broker {h.broker_name} is still alive, clean up failure")
            if ids is not None and rs is not None:
                for broker_id in ids:  # alive in the set's cluster, whatever cluster the request names
                    if self._alive(rs, broker_id):
                        return req.response(
                            bad, f"Broker [{h.broker_name},  {broker_id}] is still alive, clean up failure"
                        )
        if rs is None:
            return req.response(bad, f"Broker {h.broker_name} is not existed,clean broker data failure.")
        if h.is_clean_living_broker:
            for broker_id in sorted(ids or rs.brokers):
                if self._alive(rs, broker_id):
                    remark = (
                        f"Broker [{h.broker_name},  {broker_id}] is still alive (its heartbeats have not "
                        "expired): isCleanLivingBroker does not clean a live replica, clean up failure"
                    )
                    return req.response(bad, remark)
        if not ids:
            del self.store.sets[rs.broker_name]
            self._persist_or_undo(lambda: self.store.sets.__setitem__(rs.broker_name, rs))
        else:
            saved = (dict(rs.brokers), set(rs.sync_state_set))
            for broker_id in ids:
                rs.brokers.pop(broker_id, None)
                rs.sync_state_set.discard(broker_id)
            gone = not rs.brokers or not rs.sync_state_set
            if gone:
                del self.store.sets[rs.broker_name]

            def undo() -> None:
                rs.brokers, rs.sync_state_set = saved
                self.store.sets[rs.broker_name] = rs

            self._persist_or_undo(undo)
        log.info(
            "controller: broker data of %s cleaned (ids %s)", h.broker_name, sorted(ids) if ids else "all"
        )
        return req.response(RC.SUCCESS)

    def get_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        text = self.configuration.format()
        return req.response(RC.SUCCESS, self.auth.warning, None, text.encode("utf-8") if text else None)

    def update_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        _peer_log.log(logging.INFO, "config call", "controller updateConfig called by %s", conn.addr)
        if req.body is None:
            return req.response(RC.SUCCESS)
        try:
            props = string_to_properties(req.body, strict=True)
        except ProtocolError:
            return req.response(RC.SYSTEM_ERROR, "string2Properties error")
        refusal = self.configuration.refusal(props)
        if refusal is not None:
            _peer_log.warning(
                "config refused", "controller updateConfig from %s refused: %s", conn.addr, refusal[1]
            )
            return req.response(*refusal)
        self.configuration.update(props)
        return req.response(RC.SUCCESS)

    # ------------------------------------------------------------------------------ helpers

    def _persist_or_undo(self, undo: Callable[[], Any]) -> None:
        """Write the table; when it cannot be written the change is undone and the request fails."""
        try:
            self.store.persist()
        except OSError as e:
            undo()
            log.error("controller: cannot persist %s: %s", self.store.path, e)
            raise HeaderError(f"the controller cannot persist its metadata: {e}") from None


def _hash_ids(brokers: dict[int, Any]) -> list[int]:
    return java_hash_order(list(brokers))


def _jstr(v: object) -> str:
    return "null" if v is None else str(v)


def _answer(req: RemotingCommand, d: Decision, header: RequestHeader) -> RemotingCommand:
    """A controller answer: the response header's fields in ``HashMap`` order, then the body."""
    for k, v in d.fields.items():
        setattr(header, k, v)
    ext = java_hash_dict(header.to_ext())
    return req.response(d.code, d.remark, ext or None, d.body)


def _log_refusal(conn: Connection, req: RemotingCommand, remark: str) -> None:
    _peer_log.log(
        logging.INFO, "refused", "controller request %d from %s refused: %s", req.code, conn.addr, remark
    )


def _guarded(handler: Handler, admission: Callable[[RemotingCommand], Refusal | None]) -> Handler:
    """Admission first (the signature); then a refused header (or a table that cannot be
    written) is answered, never raised."""

    def run(conn: Connection, req: RemotingCommand) -> RemotingCommand | None:
        refused = admission(req)
        if refused is not None:
            _log_refusal(conn, req, refused[1])
            return req.response(*refused)
        try:
            return handler(conn, req)
        except HeaderError as e:
            _log_refusal(conn, req, e.remark)
            return req.response(e.code, e.remark)

    return run
