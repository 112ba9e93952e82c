"""Every request a 5.3.3 name server answers, answered as it does (codes, remarks, ext fields, bodies).

Java splits these over ``DefaultRequestProcessor`` and ``ClientRequestProcessor`` (105 only); here
each code has one handler. Route queries, listings and KV reads run inline as the frame is decoded.
Changes to the route tables are serialized: a large registration is applied a slice at a time
under a write lock, so queries keep being answered while it runs, and any other change that
arrives meanwhile waits for the lock instead of cutting into it.

Headers are read with the declared types of :mod:`mqadmin.protocol.headers.namesrv`, leniently as
Java's reflective decoder reads them (a missing field is null), and their names are checked on the
way in: a name that the tables could not hold or send back (a control character, a path separator,
a bad broker address) is refused with a clean error before anything changes, and so is a
registration whose body names such a topic. GET_ROUTEINFO_BY_TOPIC is read and decided by
:mod:`mqadmin.namesrv.routequery` (the same decision the fast path and the workers ask): a topic
the tables cannot hold is simply not found there.

Codes nobody handles are answered by the remoting server with REQUEST_CODE_NOT_SUPPORTED and
Java's remark (`` request type N not supported``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Container
from typing import Any

from mqadmin.namesrv.config import Configuration, NamesrvConfig
from mqadmin.namesrv.kvconfig import NAMESPACE_ORDER_TOPIC_CONFIG, KVConfigManager
from mqadmin.namesrv.remarks import EXCEPTION_WHERE, java_exception_remark
from mqadmin.namesrv.routequery import ZONE_NAME, RouteQuery, RouteTables, answer, response
from mqadmin.protocol import names
from mqadmin.protocol.bodies.controller import BrokerMemberGroup, GetBrokerMemberGroupResponseBody
from mqadmin.protocol.bodies.dataversion import DataVersion
from mqadmin.protocol.bodies.properties import string_to_properties
from mqadmin.protocol.bodies.register import (
    NonStandardJsonRefused,
    RegisterBodyRefused,
    RegisterBrokerBody,
    RegisterBudget,
    register_budget,
)
from mqadmin.protocol.bodies.route import TopicRouteData
from mqadmin.protocol.bodies.topic import TopicConfigSerializeWrapper
from mqadmin.protocol.bodies.topic_list import TopicList
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.configentry import config_entry_refusal, protected_key
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.base import HeaderError
from mqadmin.protocol.headers.namesrv import broker_addr_refusal, route_topic_refusal
from mqadmin.protocol.headers.namesrv.kvconfig import (
    DeleteKVConfigRequestHeader,
    GetKVConfigRequestHeader,
    GetKVListByNamespaceRequestHeader,
    PutKVConfigRequestHeader,
)
from mqadmin.protocol.headers.namesrv.registration import (
    BrokerHeartbeatRequestHeader,
    GetBrokerMemberGroupRequestHeader,
    QueryDataVersionRequestHeader,
    RegisterBrokerRequestHeader,
    UnRegisterBrokerRequestHeader,
)
from mqadmin.protocol.headers.namesrv.topics import (
    DeleteTopicFromNamesrvRequestHeader,
    GetTopicsByClusterRequestHeader,
    RegisterTopicRequestHeader,
)
from mqadmin.protocol.headers.namesrv.writeperm import (
    AddWritePermOfBrokerRequestHeader,
    WipeWritePermOfBrokerRequestHeader,
)
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.version import V5_0_0
from mqadmin.remoting.server import Connection, RemotingServer
from mqadmin.route import MinBrokerIdChange, RouteInfoManager

__all__ = ["LARGE_REGISTRATION", "NamesrvProcessor"]

log = logging.getLogger("mqadmin.namesrv")

SUCCESS = ResponseCode.SUCCESS
SYSTEM_ERROR = ResponseCode.SYSTEM_ERROR
NO_PERMISSION = ResponseCode.NO_PERMISSION
QUERY_NOT_FOUND = ResponseCode.QUERY_NOT_FOUND

V3_0_11 = 37
"""From this version on a registration body is a ``RegisterBrokerBody``; before, a bare wrapper."""

LARGE_REGISTRATION = 64 * 1024
"""Registration bodies from this size on are applied in slices, between other requests."""
DIGEST_FROM = 4096
"""Registration bodies from this size on are remembered by digest (to skip identical ones)."""
_SLICE_TOPICS = 500
_CHECK_TOPICS = 8192
"""Topics of a registration whose route size is checked in one loop turn (about a millisecond)."""
OFF_LOOP_BODY = 4 << 20
"""Registration bodies from this size on (and every compressed one) are decoded in a thread: standard
JSON decodes at about 40 MB/s, so a smaller one holds the loop 100 ms at most. Decoding in a thread
costs route queries more than that while it runs (the GIL), so smaller bodies stay on the loop."""
INLINE_NON_STANDARD = 128 << 10
"""Non-standard JSON a body decoded on the loop may hold (70 ms of the Python parser at its slowest);
one holding more is decoded again in a thread, with the whole budget."""

_ALWAYS_BLACK = ("configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome")
_NEVER_REMOTE = frozenset({"enableControllerInNamesrv"})
"""Keys that decide what the server serves at its next start (the embedded controller)."""
"""Keys 5.3.3 refuses to update whatever ``configBlackList`` says (``initConfigBlackList``)."""

Handler = Callable[
    [Connection, RemotingCommand], "Awaitable[RemotingCommand | None] | RemotingCommand | None"
]


def _jstr(v: object) -> str:
    """Java string concatenation: null prints as ``null``."""
    return "null" if v is None else str(v)


def _json_exception_remark(e: Exception) -> str:
    """What Java answers when fastjson cannot parse a body: the JSONException and where it came from."""
    return java_exception_remark(
        "com.alibaba.fastjson.JSONException", str(e), "com.alibaba.fastjson.JSON.parseObject"
    )


def _zero_version() -> DataVersion:
    """The data version of a registration without one."""
    return DataVersion(timestamp=0, counter=0, state_version=0)


class _OffLoop(Exception):
    """A body too costly to decode on the loop after all."""


class _Failure(Exception):
    """A request Java fails with an exception: SYSTEM_ERROR, the exception's text, no ext fields."""

    def __init__(self, remark: str) -> None:
        super().__init__(remark)
        self.remark = remark


class NamesrvProcessor:
    """The request handlers of one name server, over its route tables, KV store and config."""

    def __init__(
        self,
        routes: RouteInfoManager,
        kv: KVConfigManager,
        config: NamesrvConfig,
        configuration: Configuration,
        *,
        notify: Callable[[list[MinBrokerIdChange]], None] | None = None,
    ) -> None:
        self.routes = routes
        self.kv = kv
        self.config = config
        self.configuration = configuration
        self._notify = notify or (lambda notices: None)
        self.tables = RouteTables(routes, kv, config)
        self._lock: asyncio.Lock | None = None
        listed = config.config_black_list.split(";")
        self.black_list = frozenset(_ALWAYS_BLACK) | frozenset(k for k in listed if k)

    def handlers(self) -> dict[int, Handler]:
        return {
            RequestCode.PUT_KV_CONFIG: self.put_kv_config,
            RequestCode.GET_KV_CONFIG: self.get_kv_config,
            RequestCode.DELETE_KV_CONFIG: self.delete_kv_config,
            RequestCode.REGISTER_BROKER: self.register_broker,
            RequestCode.UNREGISTER_BROKER: self.unregister_broker,
            RequestCode.GET_ROUTEINFO_BY_TOPIC: self.get_route_info_by_topic,
            RequestCode.GET_BROKER_CLUSTER_INFO: self.get_broker_cluster_info,
            RequestCode.WIPE_WRITE_PERM_OF_BROKER: self.wipe_write_perm_of_broker,
            RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER: self.get_all_topic_list,
            RequestCode.DELETE_TOPIC_IN_NAMESRV: self.delete_topic_in_namesrv,
            RequestCode.REGISTER_TOPIC_IN_NAMESRV: self.register_topic_in_namesrv,
            RequestCode.GET_KVLIST_BY_NAMESPACE: self.get_kv_list_by_namespace,
            RequestCode.GET_TOPICS_BY_CLUSTER: self.get_topics_by_cluster,
            RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS: self.get_system_topic_list,
            RequestCode.GET_UNIT_TOPIC_LIST: self.get_unit_topic_list,
            RequestCode.GET_HAS_UNIT_SUB_TOPIC_LIST: self.get_has_unit_sub_topic_list,
            RequestCode.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST: self.get_has_unit_sub_ununit_topic_list,
            RequestCode.UPDATE_NAMESRV_CONFIG: self.update_namesrv_config,
            RequestCode.GET_NAMESRV_CONFIG: self.get_namesrv_config,
            RequestCode.QUERY_DATA_VERSION: self.query_data_version,
            RequestCode.ADD_WRITE_PERM_OF_BROKER: self.add_write_perm_of_broker,
            RequestCode.GET_BROKER_MEMBER_GROUP: self.get_broker_member_group,
            RequestCode.BROKER_HEARTBEAT: self.broker_heartbeat,
        }

    def install(self, server: RemotingServer) -> None:
        for code, handler in self.handlers().items():
            server.register_handler(int(code), handler)

    # ------------------------------------------------------------------------------ serialized writes

    @property
    def write_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def run_write(self, fn: Callable[[], object]) -> Any:
        """Run a table change now, or after the change in progress (a sliced registration).

        Requests that change the tables go through here, and so do changes that are not requests
        (channel loss, expiry): each waits its turn.
        """
        if not self.write_lock.locked():
            return fn()
        return self._run_after_lock(fn)

    async def _run_after_lock(self, fn: Callable[[], object]) -> object:
        async with self.write_lock:
            return fn()

    # ------------------------------------------------------------------------------ KV config

    def put_kv_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = PutKVConfigRequestHeader.decode(req.ext_fields, lenient=True)
        if h.namespace is None or h.key is None:
            return req.response(SYSTEM_ERROR, "namespace or key is null")
        refusal = self.kv.put_refusal(h.namespace, h.key, h.value)
        if refusal is not None:
            raise HeaderError(f"put KV config refused: {refusal}")
        self.kv.put(h.namespace, h.key, h.value)
        return req.response(SUCCESS)

    def get_kv_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = GetKVConfigRequestHeader.decode(req.ext_fields, lenient=True)
        namespace, key = h.namespace, h.key
        value = self.kv.get(namespace, key)
        if value is not None:
            return req.response(SUCCESS, ext_fields={"value": value})
        return req.response(
            QUERY_NOT_FOUND, f"No config item, Namespace: {_jstr(namespace)} Key: {_jstr(key)}", ext_fields={}
        )

    def delete_kv_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = DeleteKVConfigRequestHeader.decode(req.ext_fields, lenient=True)
        self.kv.delete(h.namespace, h.key)
        return req.response(SUCCESS)

    def get_kv_list_by_namespace(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        namespace = GetKVListByNamespaceRequestHeader.decode(req.ext_fields, lenient=True).namespace
        body = self.kv.kv_list_body(namespace)
        if body is not None:
            return req.response(SUCCESS, body=body)
        return req.response(QUERY_NOT_FOUND, f"No config item, Namespace: {_jstr(namespace)}")

    # ------------------------------------------------------------------------------ routes

    def get_route_info_by_topic(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        """GET_ROUTEINFO_BY_TOPIC, as :func:`~mqadmin.namesrv.routequery.answer` decides it over the
        tables. Any text can be looked up: the tables only hold topics that passed
        :func:`route_topic_refusal`, so any other is answered as unknown."""
        return response(req, answer(RouteQuery.of_request(req), self.tables))

    def get_broker_cluster_info(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        return req.response(SUCCESS, body=self.routes.cluster_info_body())

    def get_broker_member_group(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = GetBrokerMemberGroupRequestHeader.decode(req.ext_fields, lenient=True)
        cluster, name = h.cluster_name, h.broker_name
        group = BrokerMemberGroup(cluster, name, self.routes.broker_member_group(cluster, name))
        body = GetBrokerMemberGroupResponseBody(group).encode()
        # Java never replaces the default remark of createResponseCommand(null) here
        return req.response(SUCCESS, "not set any response code", body=body)

    # ------------------------------------------------------------------------------ topic lists

    def _topic_list(
        self, req: RemotingCommand, topics: list[str], broker_addr: str | None = None
    ) -> RemotingCommand:
        return req.response(SUCCESS, body=TopicList(topics, broker_addr, concurrent=True).encode())

    def get_all_topic_list(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        log.info("getAllTopicListFromNameserver %s enable %s", conn.addr, self.config.enable_all_topic_list)
        if not self.config.enable_all_topic_list:
            return req.response(SYSTEM_ERROR, "disable")
        return self._topic_list(req, self.routes.all_topics())

    def _listed_topics(self, req: RemotingCommand, topics: Callable[[], list[str]]) -> RemotingCommand:
        """A topic list that ``enableTopicList`` may switch off."""
        if not self.config.enable_topic_list:
            return req.response(SYSTEM_ERROR, "disable")
        return self._topic_list(req, topics())

    def get_topics_by_cluster(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        def topics() -> list[str]:  # Java reads the header only when topic lists are enabled
            cluster = GetTopicsByClusterRequestHeader.decode(req.ext_fields, lenient=True).cluster
            return self.routes.topics_by_cluster(cluster)

        return self._listed_topics(req, topics)

    def get_system_topic_list(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        topics, broker_addr = self.routes.system_topics()
        return self._topic_list(req, topics, broker_addr)

    def get_unit_topic_list(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        return self._listed_topics(req, self.routes.unit_topics)

    def get_has_unit_sub_topic_list(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        return self._listed_topics(req, self.routes.has_unit_sub_topics)

    def get_has_unit_sub_ununit_topic_list(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        return self._listed_topics(req, self.routes.has_unit_sub_ununit_topics)

    # ------------------------------------------------------------------------------ broker registration

    def register_broker(self, conn: Connection, req: RemotingCommand) -> Any:
        """REGISTER_BROKER: small bodies at once, large ones one at a time between other requests.

        A large registration (or a compressed one, which may inflate to megabytes) is decoded in a
        thread and checked and applied in slices, each in a loop turn of its own, so route queries
        are answered in between. A member re-sending the very body of its last registration (every
        30 s, typically) is applied without decoding it again. A registration that would make a
        route larger than a route answer may be is refused before anything changes.
        """
        ext = req.ext_fields
        if (
            len(req.body or b"") >= LARGE_REGISTRATION
            or self.write_lock.locked()
            or (ext is not None and parse_bool(ext.get("compressed")))
        ):
            return self._register_sliced(conn, req)
        checked = self._register_checks(conn, req)
        if isinstance(checked, RemotingCommand):
            return checked
        header, compressed = checked
        try:
            args = self._register_body(req, compressed, known=self.routes.topic_queue_table)
        except _Failure as f:
            return req.response(SYSTEM_ERROR, f.remark)
        refusal = self.routes.registration_refusal(**header, **args)
        if refusal is not None:
            raise HeaderError(f"register broker refused: {refusal}")
        return self._registered(req, self.routes.register_broker(**header, **args))

    def _register_checks(
        self, conn: Connection, req: RemotingCommand
    ) -> tuple[dict[str, Any], bool] | RemotingCommand:
        """The names, the body checksum and the broker id, then the header's arguments and whether
        the body is compressed; or the answer already: an error, or the result of a member
        re-sending the body of its last registration. A bad name raises :class:`HeaderError`."""
        h = RegisterBrokerRequestHeader.decode(req.ext_fields, lenient=True)
        zone = (req.ext_fields or {}).get(ZONE_NAME)
        if zone is not None and (why := names.check_name("zone", zone)) is not None:
            raise HeaderError(why)
        crc = h.body_crc32 or 0
        if crc != 0:
            actual = zlib.crc32(req.body) & 0x7FFFFFFF if req.body else 0
            if actual != crc:
                log.warning("receive registerBroker request,crc32 not match,from %s", conn.addr)
                return req.response(SYSTEM_ERROR, "crc32 not match", ext_fields={})
        if h.broker_id is None:
            return req.response(
                SYSTEM_ERROR,
                java_exception_remark(
                    "java.lang.NullPointerException", None, f"{EXCEPTION_WHERE}.registerBroker"
                ),
            )
        header = self._register_header(conn, req, h, zone)
        unchanged = self.routes.register_unchanged(**header)
        if unchanged is not None:
            return self._registered(req, unchanged)
        return header, h.compressed

    async def _register_sliced(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        async with self.write_lock:
            await asyncio.sleep(0)  # let the requests read with this one be answered first
            checked = self._register_checks(conn, req)
            if isinstance(checked, RemotingCommand):
                return checked
            header, compressed = checked
            started = time.perf_counter()
            try:
                args = await self._register_body_sliced(req, compressed)
            except _Failure as f:
                return req.response(SYSTEM_ERROR, f.remark)
            decoded = time.perf_counter()
            size, req.body = len(req.body or b""), None  # the decoded table is all we need now
            checks = self.routes.registration_refusal_steps(**header, **args, chunk=_CHECK_TOPICS)
            while True:
                try:
                    next(checks)
                except StopIteration as done:
                    if done.value is not None:
                        raise HeaderError(f"register broker refused: {done.value}") from None
                    break
                await asyncio.sleep(0)
            steps = self.routes.register_broker_steps(**header, **args, chunk=_SLICE_TOPICS)
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    result = done.value
                    break
                await asyncio.sleep(0)
            log.info(
                "registration of %s (%d bytes) decoded in %.1f ms, applied in %.1f ms",
                header["broker_addr"],
                size,
                (decoded - started) * 1000,
                (time.perf_counter() - decoded) * 1000,
            )
            return self._registered(req, result)

    async def _register_body_sliced(self, req: RemotingCommand, compressed: bool) -> dict[str, Any]:
        """:meth:`_register_body` on the loop when that is quick, else in a thread (it touches no
        table): a compressed body may inflate to megabytes, a large one take the Python parser."""
        known = self.routes.topic_queue_table
        if not compressed and len(req.body or b"") < OFF_LOOP_BODY:
            budget = register_budget()
            inline = RegisterBudget(budget.inflated, budget.filter_servers, INLINE_NON_STANDARD)
            try:
                return self._register_body(req, compressed, inline, known=known)
            except _OffLoop:
                pass
        return await asyncio.to_thread(self._register_body, req, compressed, known=known)

    @staticmethod
    def _register_header(
        conn: Connection, req: RemotingCommand, h: RegisterBrokerRequestHeader, zone: str | None
    ) -> dict[str, Any]:
        """The header-borne arguments of a registration, and the digest of its body."""
        body = req.body or b""
        digest = None
        if len(body) >= DIGEST_FROM:
            layout = f"{h.compressed}:{req.version >= V3_0_11}:{req.version >= V5_0_0}:"
            digest = hashlib.sha256(layout.encode() + body).digest()
        return {
            "cluster_name": h.cluster_name,
            "broker_addr": h.broker_addr,
            "broker_name": h.broker_name,
            "broker_id": h.broker_id,
            "ha_server_addr": h.ha_server_addr,
            "zone_name": zone,
            "timeout_millis": h.heartbeat_timeout_millis,
            "enable_acting_master": h.enable_acting_master,
            "body_digest": digest,
            "channel": conn,
        }

    @staticmethod
    def _register_body(
        req: RemotingCommand,
        compressed: bool,
        budget: RegisterBudget | None = None,
        *,
        known: Container[object] = (),
    ) -> dict[str, Any]:
        """The body-borne arguments of a registration; :class:`_Failure` if the body is bad, and
        :class:`HeaderError` if it names a topic or filter server the tables cannot hold or goes
        over the REGISTER_BROKER budget (runs in a thread for a large body: it changes no table,
        and only looks names up in ``known``, the topics already checked)."""
        body = req.body
        filters: list[str] | None = None
        if req.version >= V3_0_11:
            if body:
                try:
                    rb = RegisterBrokerBody.decode(
                        body, compressed=compressed, broker_version=req.version, budget=budget
                    )
                except NonStandardJsonRefused as e:
                    if budget is not None:  # a trial on the loop: decode it again in a thread
                        raise _OffLoop from None
                    raise HeaderError(str(e)) from None
                except RegisterBodyRefused as e:
                    raise HeaderError(str(e)) from None
                except (ProtocolError, ValueError, TypeError) as e:
                    raise _Failure(
                        java_exception_remark(
                            "org.apache.rocketmq.remoting.exception.RemotingCommandException",
                            "Failed to decode RegisterBrokerBody",
                            f"{EXCEPTION_WHERE}.extractRegisterBrokerBodyFromRequest",
                        )
                    ) from e
                wrapper = rb.topic_config_serialize_wrapper
                filters = rb.filter_server_list
            else:
                wrapper = TopicConfigSerializeWrapper({}, _zero_version())
                filters = []
        elif body:
            try:
                wrapper = TopicConfigSerializeWrapper.decode(body)
            except (ProtocolError, ValueError, TypeError) as e:
                raise _Failure(_json_exception_remark(e)) from e
        else:
            wrapper = TopicConfigSerializeWrapper({}, _zero_version())
        mapping_infos = getattr(wrapper, "topic_queue_mapping_info_map", None)
        _check_registered_names(wrapper.topic_config_table, mapping_infos, filters, known)
        return {
            "data_version": wrapper.data_version or _zero_version(),
            "topic_configs": wrapper.topic_config_table,
            "filter_server_list": filters,
            "mapping_infos": mapping_infos,
        }

    def _registered(self, req: RemotingCommand, result: Any) -> RemotingCommand:
        if result is None:
            return req.response(SYSTEM_ERROR, "register broker failed", ext_fields={})
        ext: dict[str, str] = {}
        if result.ha_server_addr is not None:  # RegisterBrokerResponseHeader: HashMap order
            ext["haServerAddr"] = result.ha_server_addr
        if result.master_addr is not None:
            ext["masterAddr"] = result.master_addr
        if result.notices:
            self._notify(result.notices)
        body = None
        if self.config.return_order_topic_config_to_broker:
            body = self.kv.kv_list_body(NAMESPACE_ORDER_TOPIC_CONFIG)
        return req.response(SUCCESS, ext_fields=ext, body=body)

    def unregister_broker(self, conn: Connection, req: RemotingCommand) -> Any:
        h = UnRegisterBrokerRequestHeader.decode(req.ext_fields, lenient=True)  # refused now, not in turn
        return self.run_write(lambda: self._unregister_broker(req, h))

    def _unregister_broker(self, req: RemotingCommand, h: UnRegisterBrokerRequestHeader) -> RemotingCommand:
        notices = self.routes.unregister_broker(h.cluster_name, h.broker_addr, h.broker_name, h.broker_id)
        if notices:
            self._notify(notices)
        return req.response(SUCCESS)

    def query_data_version(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = QueryDataVersionRequestHeader.decode(req.ext_fields, lenient=True)
        cluster, addr = h.cluster_name, h.broker_addr
        dv = None
        if req.body:
            try:
                dv = DataVersion.decode(req.body)
            except (ProtocolError, ValueError, TypeError) as e:
                return req.response(SYSTEM_ERROR, _json_exception_remark(e))
        changed = self.routes.is_broker_topic_config_changed(cluster, addr, dv)
        self.routes.update_broker_timestamp(cluster, addr)
        stored = self.routes.query_broker_data_version(cluster, addr)
        body = None
        if stored is not None:  # the 5.x DataVersion always has a stateVersion
            body = DataVersion(stored.timestamp, stored.counter, stored.state_version or 0).encode()
        return req.response(SUCCESS, ext_fields={"changed": "true" if changed else "false"}, body=body)

    def broker_heartbeat(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        h = BrokerHeartbeatRequestHeader.decode(req.ext_fields, lenient=True)
        self.routes.update_broker_timestamp(h.cluster_name, h.broker_addr)
        return req.response(SUCCESS)

    # ------------------------------------------------------------------------------ topic changes

    def wipe_write_perm_of_broker(self, conn: Connection, req: RemotingCommand) -> Any:
        name = WipeWritePermOfBrokerRequestHeader.decode(req.ext_fields, lenient=True).broker_name
        return self._change_write_perm(conn, req, name, self.routes.wipe_write_perm, "wipe")

    def add_write_perm_of_broker(self, conn: Connection, req: RemotingCommand) -> Any:
        name = AddWritePermOfBrokerRequestHeader.decode(req.ext_fields, lenient=True).broker_name
        return self._change_write_perm(conn, req, name, self.routes.add_write_perm, "add")

    def _change_write_perm(
        self,
        conn: Connection,
        req: RemotingCommand,
        name: str | None,
        change: Callable[[str | None], int],
        verb: str,
    ) -> Any:
        """WIPE/ADD_WRITE_PERM_OF_BROKER: the broker's queues changed, and their count answered."""

        def apply() -> RemotingCommand:
            count = change(name)
            log.info("%s write perm of broker[%s], client: %s, %d", verb, name, conn.addr, count)
            return req.response(SUCCESS, ext_fields={f"{verb}TopicCount": str(count)})

        return self.run_write(apply)

    def delete_topic_in_namesrv(self, conn: Connection, req: RemotingCommand) -> Any:
        h = DeleteTopicFromNamesrvRequestHeader.decode(req.ext_fields, lenient=True)
        topic, cluster = h.topic, h.cluster_name

        def delete() -> RemotingCommand:
            if cluster:
                self.routes.delete_topic_in_cluster(topic, cluster)
            else:
                self.routes.delete_topic(topic)
            return req.response(SUCCESS)

        return self.run_write(delete)

    def register_topic_in_namesrv(self, conn: Connection, req: RemotingCommand) -> Any:
        topic = RegisterTopicRequestHeader.decode(req.ext_fields, lenient=True).topic
        route = None
        if req.body:
            try:
                route = TopicRouteData.decode(req.body)
            except (ProtocolError, ValueError, TypeError) as e:
                return req.response(SYSTEM_ERROR, _json_exception_remark(e))

        def register() -> RemotingCommand:
            if route is not None and route.queue_datas:
                names = [q.broker_name for q in route.queue_datas]
                refusal = self.routes.topic_registration_refusal(topic, names)
                if refusal is not None:
                    log.warning("register topic %s refused from %s: %s", topic, conn.addr, refusal)
                    return req.response(SYSTEM_ERROR, f"register topic refused: {refusal}")
                self.routes.register_topic(topic, route.queue_datas)
            return req.response(SUCCESS)

        return self.run_write(register)

    # ------------------------------------------------------------------------------ name server config

    def update_namesrv_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        """UPDATE_NAMESRV_CONFIG: Java's black list, plus every auth, credential, path, address and
        controller-switch key (:func:`protected_key`: one update could otherwise switch the controller's
        auth off or move the server, persisted for the next start), then no line break or control
        character in a key or value; only then changed and persisted."""
        log.info("updateConfig called by %s", conn.addr)
        if req.body is None:
            return req.response(SUCCESS)
        try:
            props = string_to_properties(req.body, strict=True)
        except ProtocolError:
            log.error("updateConfig string2Properties error %r", req.body[:200])
            return req.response(SYSTEM_ERROR, "string2Properties error")
        if any(k in self.black_list or k in _NEVER_REMOTE or protected_key(k) is not None for k in props):
            return req.response(NO_PERMISSION, "Can not update config in black list.")
        refusal = next(
            (why for k, v in props.items() if (why := config_entry_refusal(k, v, value_controls=True))),
            None,
        )
        if refusal is not None:
            log.warning("updateConfig refused from %s: %s", conn.addr, refusal)
            return req.response(SYSTEM_ERROR, refusal)
        self.configuration.update(props)
        self.routes.invalidate_routes()  # supportActingMaster may have changed
        return req.response(SUCCESS)

    def get_namesrv_config(self, conn: Connection, req: RemotingCommand) -> RemotingCommand:
        text = self.configuration.format(masked=True)
        return req.response(SUCCESS, body=text.encode("utf-8") if text.strip() else None)


def _check_registered_names(
    topic_configs: dict[str, Any] | None,
    mapping_infos: object,
    filters: list[str] | None,
    known: Container[object] = (),
) -> None:
    """Refuse a registration whose body names a topic or filter server the tables cannot hold.

    ``known`` holds names checked before (the route table: every topic it holds passed these
    checks on its way in), so a broker re-sending its few thousand names every 30 seconds has
    them checked once, not on every registration.
    """
    table = topic_configs or {}
    for name in [k for k in table if k not in known]:
        why = route_topic_refusal(name) if isinstance(name, str) else "a topic name is not text"
        if why is not None:
            raise HeaderError(f"register broker refused: {why}")
    for name, tc in table.items():
        own = getattr(tc, "topic_name", None)
        if own is not None and own != name and own not in known:
            why = route_topic_refusal(own) if isinstance(own, str) else "a topic name is not text"
            if why is not None:
                raise HeaderError(f"register broker refused: {why}")
    if isinstance(mapping_infos, dict):
        for name in mapping_infos:
            if name in known:
                continue
            why = route_topic_refusal(name) if isinstance(name, str) else "a topic name is not text"
            if why is not None:
                raise HeaderError(f"register broker refused: {why}")
    for addr in filters or ():
        why = (
            broker_addr_refusal(addr, "filter server address")
            if isinstance(addr, str)
            else "a filter server address is not text"
        )
        if why is not None:
            raise HeaderError(f"register broker refused: {why}")
