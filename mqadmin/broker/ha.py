"""Controller mode and HA of the development broker (Java ``ReplicasManager`` and the HA runtime).

With ``enableControllerMode=true`` and ``controllerAddr`` in the ``-c`` file (5.3.3 ``BrokerConfig``
settings; this 4.9.8-shaped broker keeps them out of its own config objects, so GET_BROKER_CONFIG
lists them as the file's keys), the broker joins its controller the way a 5.3.3 broker does:

1. heartbeat (BROKER_HEARTBEAT, 904) to every controller of ``controllerAddr`` (``;``-separated)
   every ``brokerHeartbeatInterval`` ms with its controller id, last epoch and commit-log max
   offset, and find the leader (CONTROLLER_GET_METADATA_INFO, 1005) for what follows;
2. without an identity yet: CONTROLLER_GET_NEXT_BROKER_ID (1012), then CONTROLLER_APPLY_BROKER_ID
   (1013) with the check code ``<address>;<millis>``, kept in ``brokerIdentity-temp`` until applied
   and in ``brokerIdentity`` (``cluster#broker#id``) after;
3. CONTROLLER_REGISTER_BROKER (1003); with no live master, CONTROLLER_ELECT_MASTER (1002) for itself;
4. as master of a new epoch: an epoch entry starting at the commit-log max offset, kept in
   ``epochFileCheckpoint`` (Java's checkpoint format: count, CRC32, ``epoch-startOffset`` lines).

It is always the only replica (no slaves connect to this broker), so it answers
GET_BROKER_HA_STATUS (907) in every mode as a master with no slaves, and GET_BROKER_EPOCH_CACHE
(1007) in controller mode with its epochs. What the controller answers is read through the
declared controller headers; a controller that cannot be reached is retried every second.

With ``innerClientAuthenticationCredentials`` (``{"accessKey":..,"secretKey":..}``) in the ``-c``
file, every controller request is signed with them (ACL 1.0 signature), as a 5.3.3 broker signs what
its ``BrokerOuterAPI`` sends: what a controller with ``controllerAuth`` asks of a replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from mqadmin.atomicfile import write_atomic
from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.store import MessageStore
from mqadmin.javaconfig import JavaBean, java_field
from mqadmin.protocol import fastjson, names
from mqadmin.protocol.acl import RequestSigner
from mqadmin.protocol.bodies.controller import (
    LONG_MAX,
    EpochEntry,
    EpochEntryCache,
    HAClientRuntimeInfo,
    HARuntimeInfo,
)
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError, RequestHeader
from mqadmin.protocol.headers.controller import (
    ApplyBrokerIdRequestHeader,
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
from mqadmin.remoting.client import RemotingClient
from mqadmin.remoting.logthrottle import ThrottledLog
from mqadmin.servermain import StartupError

__all__ = ["ControllerModeConfig", "EpochFile", "ReplicasManager"]

log = logging.getLogger("mqadmin.broker")
_ctl_log = ThrottledLog(log, burst=3, interval=60.0)

EPOCH_FILE = "epochFileCheckpoint"
IDENTITY_FILE = "brokerIdentity"
_TIMEOUT_S = 3.0


@dataclass
class ControllerModeConfig(JavaBean):
    """The 5.3.3 ``BrokerConfig`` fields of controller mode."""

    broker_heartbeat_interval: int = 1000
    enable_controller_mode: bool = False
    controller_addr: str = ""
    fetch_controller_addr_by_dns_lookup: bool = False
    sync_broker_metadata_period: int = java_field(5000, kind="long")
    check_sync_state_set_period: int = java_field(5000, kind="long")
    sync_controller_metadata_period: int = java_field(10000, kind="long")
    controller_heart_beat_timeout_mills: int = java_field(10000, kind="long")
    broker_election_priority: int = 2**31 - 1

    @property
    def controller_addrs(self) -> list[str]:
        return [a.strip() for a in self.controller_addr.split(";") if a.strip()]


def _inner_signer(props: dict[str, str]) -> RequestSigner | None:
    """What signs the controller requests: ``innerClientAuthenticationCredentials`` when it holds both
    keys (Java's ``BrokerOuterAPI.newAclRPCHook``), else nothing; JSON that does not parse stops the start."""
    text = props.get("innerClientAuthenticationCredentials") or ""
    if not text.strip():
        return None
    try:
        creds = fastjson.loads(text)
    except ProtocolError as e:
        raise StartupError(f"innerClientAuthenticationCredentials is not JSON: {e}") from None
    ak = creds.get("accessKey") if isinstance(creds, dict) else None
    sk = creds.get("secretKey") if isinstance(creds, dict) else None
    if not isinstance(ak, str) or not ak.strip() or not isinstance(sk, str) or not sk.strip():
        return None
    return RequestSigner(ak, sk)


class EpochFile:
    """The broker's master epochs (Java ``EpochFileCache`` over a ``CheckpointFile``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: list[EpochEntry] = []

    def load(self) -> None:
        """Read the epochs back; a damaged file stops the broker (epochs decide who has what)."""
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return
        lines = text.splitlines()
        try:
            count, crc = int(lines[0]), int(lines[1])
            body = "".join(line + "\n" for line in lines[2:])
            entries = []
            for line in lines[2:]:
                epoch, _, start = line.partition("-")
                entries.append(EpochEntry(int(epoch), int(start)))
        except (IndexError, ValueError):
            raise ValueError(f"{self.path} is damaged") from None
        if count != len(entries) or (crc != 0 and crc != zlib.crc32(body.encode()) & 0x7FFFFFFF):
            raise ValueError(f"{self.path} is damaged (count or CRC32 differs)")
        for prev, nxt in itertools.pairwise(entries):
            prev.end_offset = nxt.start_offset
        self.entries = entries

    def persist(self) -> None:
        body = "".join(f"{e.epoch}-{e.start_offset}\n" for e in self.entries)
        crc = zlib.crc32(body.encode()) & 0x7FFFFFFF
        write_atomic(self.path, f"{len(self.entries)}\n{crc}\n{body}")

    @property
    def last_epoch(self) -> int:
        return self.entries[-1].epoch if self.entries else 0

    def begin(self, epoch: int, start_offset: int) -> bool:
        """A new master epoch from ``start_offset`` on; False (nothing changes) if not newer."""
        if epoch <= self.last_epoch:
            return False
        if self.entries:
            self.entries[-1].end_offset = start_offset
        self.entries.append(EpochEntry(epoch, start_offset, LONG_MAX))
        self.persist()
        return True


class ReplicasManager:
    """The broker's side of controller mode (see the module docstring)."""

    def __init__(self, settings: BrokerSettings, store: MessageStore) -> None:
        self.settings = settings
        self.store = store
        self.config = ControllerModeConfig()
        self.config.apply(settings.file_properties)
        root = Path(settings.store.store_path_root_dir)
        self.epochs = EpochFile(root / EPOCH_FILE)
        self.identity_path = root / IDENTITY_FILE
        self.controller_id: int | None = None
        self.master_epoch = 0
        self.is_master = False
        self.client: RemotingClient | None = None
        self._task: asyncio.Task[None] | None = None
        self._next_sync = 0.0
        self._leader: str | None = None
        self.signer: RequestSigner | None = None
        if self.enabled:
            self._check_and_load()

    def _check_and_load(self) -> None:
        """A controller address to dial, and the epochs and identity on disk readable: or no start."""
        if not self.config.controller_addrs:
            raise StartupError("enableControllerMode=true needs controllerAddr (host:port of a controller)")
        for addr in self.config.controller_addrs:
            why = broker_addr_refusal(addr, "controller address")
            if why is not None:
                raise StartupError(f"controllerAddr: {why}")
        try:
            self.epochs.load()
            self.controller_id = self._read_identity()
        except (OSError, ValueError) as e:
            raise StartupError(f"controller mode: {e}") from None
        self.signer = _inner_signer(self.settings.file_properties)

    @property
    def enabled(self) -> bool:
        return self.config.enable_controller_mode

    # ------------------------------------------------------------------------------ answers

    def ha_runtime_info(self) -> HARuntimeInfo:
        """GET_BROKER_HA_STATUS: a master with its commit-log max offset and no slaves; a broker set
        up as SLAVE says so, with no master connected (this broker replicates from nobody)."""
        offset = self.store.commitlog_max_offset
        if self.settings.store.broker_role == "SLAVE" and not self.enabled:
            return HARuntimeInfo(False, 0, 0, [], HAClientRuntimeInfo(max_offset=offset))
        return HARuntimeInfo(True, offset, 0)

    def epoch_cache(self) -> EpochEntryCache:
        b = self.settings.broker
        entries = [EpochEntry(e.epoch, e.start_offset, e.end_offset) for e in self.epochs.entries]
        offset = self.store.commitlog_max_offset
        return EpochEntryCache(b.broker_cluster_name, b.broker_name, b.broker_id, entries, offset)

    # ------------------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Load the epochs and identity; join the controller (first try inline, then every second)."""
        if not self.enabled:
            return
        hooks = [self.signer] if self.signer is not None else []
        self.client = RemotingClient(connect_timeout=_TIMEOUT_S, rpc_hooks=hooks)
        await self._round()
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        if self.client is not None:
            await self.client.close()  # the controller sees the replica go at once
            self.client = None

    async def _loop(self) -> None:
        period = max(self.config.broker_heartbeat_interval, 100) / 1000
        while True:
            await asyncio.sleep(period)
            await self._round()

    async def _round(self) -> None:
        """Heartbeat every controller; join (register, elect) through the leader while not master."""
        addr = self._leader or self.config.controller_addrs[0]
        try:
            if self.controller_id is not None:
                await self._heartbeat_all()
            if self._leader is None:
                addr = self._leader = await self._find_leader()
            if self.is_master and time.monotonic() >= self._next_sync:
                await self._sync(addr)
            if not self.is_master:
                await self._join(addr)
        except HeaderError as e:
            if e.code == ResponseCode.CONTROLLER_NOT_LEADER:
                self._leader = None
            _ctl_log.warning("controller", "controller %s refused: code %d %s", addr, e.code, e.remark)
        except Exception as e:
            self._leader = None  # asked again next round
            _ctl_log.warning("controller", "controller %s: %s", addr, e)

    async def _find_leader(self) -> str:
        """``updateControllerMetadata``: the controller that says it leads (at the address it was
        reached at), else the leader another one names."""
        named: str | None = None
        for addr in self.config.controller_addrs:
            try:
                assert self.client is not None
                req = RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO, None)
                resp = await self.client.invoke(addr, req, _TIMEOUT_S)
                meta = GetMetaDataResponseHeader.decode(resp.ext_fields, lenient=True)
            except Exception as e:
                _ctl_log.warning("metadata", "controller %s: no metadata: %s", addr, e)
                continue
            if resp.code != ResponseCode.SUCCESS:
                continue
            if meta.is_leader:
                return addr
            leader = meta.controller_leader_address
            if named is None and leader and broker_addr_refusal(leader) is None:
                named = leader
        if named is None:
            raise HeaderError("no controller names a leader", ResponseCode.CONTROLLER_NOT_LEADER)
        return named

    async def _heartbeat_all(self) -> None:
        for addr in self.config.controller_addrs:
            try:
                await self._heartbeat(addr)
            except Exception as e:
                _ctl_log.warning("heartbeat", "heartbeat to controller %s failed: %s", addr, e)

    # ------------------------------------------------------------------------------ requests

    async def _call(
        self, addr: str, code: int, header: RequestHeader, ok: tuple[int, ...] = (ResponseCode.SUCCESS,)
    ) -> RemotingCommand:
        assert self.client is not None
        req = RemotingCommand.request(code, header.check().to_ext())
        resp = await self.client.invoke(addr, req, _TIMEOUT_S)
        if resp.code not in ok:
            raise HeaderError(resp.remark or "", resp.code)
        return resp

    async def _heartbeat(self, addr: str) -> None:
        b = self.settings.broker
        header = BrokerHeartbeatRequestHeader(
            cluster_name=b.broker_cluster_name,
            broker_addr=self.settings.broker_addr,
            broker_name=b.broker_name,
            broker_id=self.controller_id,
            epoch=self.epochs.last_epoch,
            max_offset=self.store.commitlog_max_offset,
            confirm_offset=self.store.commitlog_max_offset,
            heartbeat_timeout_mills=self.config.controller_heart_beat_timeout_mills,
            election_priority=self.config.broker_election_priority,
        )
        await self._call(addr, RequestCode.BROKER_HEARTBEAT, header)

    async def _join(self, addr: str) -> None:
        b = self.settings.broker
        cluster, name, me = b.broker_cluster_name, b.broker_name, self.settings.broker_addr
        if self.controller_id is None:
            resp = await self._call(
                addr, RequestCode.CONTROLLER_GET_NEXT_BROKER_ID, GetNextBrokerIdRequestHeader(cluster, name)
            )
            nxt = GetNextBrokerIdResponseHeader.decode(resp.ext_fields).next_broker_id
            if nxt is None:
                raise HeaderError("the controller gave no next broker id")
            check = f"{me};{time.time_ns() // 1_000_000}"
            temp = self.identity_path.with_name(IDENTITY_FILE + "-temp")
            write_atomic(temp, f"{cluster}#{name}#{nxt}#{check}")
            apply = ApplyBrokerIdRequestHeader(cluster, name, nxt, check)
            await self._call(addr, RequestCode.CONTROLLER_APPLY_BROKER_ID, apply)
            write_atomic(self.identity_path, f"{cluster}#{name}#{nxt}")
            temp.unlink(missing_ok=True)
            self.controller_id = nxt
            log.info("broker %s got controller id %d from %s", name, nxt, addr)
            await self._heartbeat(addr)
        header = RegisterBrokerToControllerRequestHeader(
            cluster, name, self.controller_id, me, time.time_ns() // 1_000_000
        )
        need = ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED
        resp = await self._call(addr, RequestCode.CONTROLLER_REGISTER_BROKER, header, ok=(0, need))
        if resp.code == need:  # the controller forgot this set (cleanBrokerMetadata): apply again
            log.warning(
                "controller %s does not know broker %s id %s: applying again", addr, name, self.controller_id
            )
            self.identity_path.unlink(missing_ok=True)
            self.controller_id = None
            return
        reg = RegisterBrokerToControllerResponseHeader.decode(resp.ext_fields, lenient=True)
        if reg.master_broker_id is not None and reg.master_epoch is not None:
            self._role(reg.master_broker_id, reg.master_epoch)
            return
        elect = ElectMasterRequestHeader(
            cluster, name, self.controller_id, False, time.time_ns() // 1_000_000
        )
        still = ResponseCode.CONTROLLER_MASTER_STILL_EXIST
        resp = await self._call(addr, RequestCode.CONTROLLER_ELECT_MASTER, elect, ok=(0, still))
        got = ElectMasterResponseHeader.decode(resp.ext_fields, lenient=True)
        if got.master_broker_id is not None and got.master_epoch is not None:
            self._role(got.master_broker_id, got.master_epoch)

    async def _sync(self, addr: str) -> None:
        """``syncControllerMetadata``: still the master of the same epoch? Else join again."""
        self._next_sync = time.monotonic() + max(self.config.sync_controller_metadata_period, 1000) / 1000
        header = GetReplicaInfoRequestHeader(self.settings.broker.broker_name)
        gone = ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST
        resp = await self._call(addr, RequestCode.CONTROLLER_GET_REPLICA_INFO, header, ok=(0, gone))
        info = GetReplicaInfoResponseHeader.decode(resp.ext_fields, lenient=True)
        if (
            resp.code == gone
            or info.master_broker_id != self.controller_id
            or info.master_epoch != self.master_epoch
        ):
            log.warning(
                "broker %s is no longer master of epoch %d: joining again",
                header.broker_name,
                self.master_epoch,
            )
            self.is_master = False

    def _role(self, master: int, epoch: int) -> None:
        if master != self.controller_id:
            _ctl_log.warning(
                "role", "controller names replica %d master of epoch %d: not this broker", master, epoch
            )
            return
        if self.epochs.begin(epoch, self.store.commitlog_max_offset):
            log.info("broker %s is master of epoch %d", self.settings.broker.broker_name, epoch)
        self.master_epoch = max(self.master_epoch, epoch)
        self.is_master = True

    def _read_identity(self) -> int | None:
        """``brokerIdentity`` (``cluster#broker#id``) when it belongs to this broker's set."""
        try:
            text = self.identity_path.read_text("utf-8").strip()
        except FileNotFoundError:
            return None
        parts = text.split("#")
        b = self.settings.broker
        if len(parts) != 3 or parts[0] != b.broker_cluster_name or parts[1] != b.broker_name:
            raise ValueError(f"{self.identity_path} belongs to another broker set: {text[:200]!r}")
        if names.bad_text(parts[2], controls=True) is not None or not parts[2].isdigit():
            raise ValueError(f"{self.identity_path} is damaged")
        return int(parts[2])
