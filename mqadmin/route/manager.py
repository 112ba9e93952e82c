"""The route tables of a name server and everything that reads or changes them.

:class:`RouteInfoManager` holds the tables of Java's ``RouteInfoManager`` (5.3.3) - topic queues,
broker groups, clusters, live brokers, filter servers and 5.x static-topic mappings - and applies
registrations, unregistrations, expiries, channel losses, permission changes and topic deletions
with the Java rules, so that every answer built from them matches a Java name server's, down to
the order of list entries.

It does no I/O and no locking: one caller (the name server's event loop, or an admin tool) owns it.
Notifications Java would send (NOTIFY_MIN_BROKER_ID_CHANGE) are returned for the caller to send.

Where Java leaves debris behind we clean it, as no peer can tell the difference: a live-table entry
whose address no broker group lists any more (a member replaced by another address, or moved by the
slave-to-master switch) is dropped instead of lingering until its channel closes and then forever.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any

from mqadmin.protocol.bodies.cluster import ClusterInfo
from mqadmin.protocol.bodies.route import BrokerData, QueueData, TopicRouteData
from mqadmin.protocol.fastjson import browser_quote, quote
from mqadmin.protocol.javacoll import ChmOrder, JavaHashMap, chm_order, chm_table, hash_set_copy_order
from mqadmin.protocol.perm import PERM_READ, PERM_WRITE
from mqadmin.route.routecache import QUEUE_DATAS_MARK, RouteBodyCache
from mqadmin.route.routesize import (
    ROUTE_ENVELOPE,
    broker_weight,
    filters_weight,
    mappings_weight,
    route_refusal,
)
from mqadmin.route.tables import (
    DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
    MASTER_ID,
    SYNC_BROKER_MEMBER_GROUP_PREFIX,
    TOPIC_SYS_FLAG_UNIT,
    TOPIC_SYS_FLAG_UNIT_SUB,
    BrokerAddrInfo,
    BrokerEntry,
    BrokerLiveInfo,
    DefaultRouteConfig,
    MinBrokerIdChange,
    RegisterResult,
    RouteConfig,
    TopicConfigLike,
    UnregisterRequest,
)

__all__ = ["RefusalSteps", "RegisterSteps", "RouteInfoManager"]

log = logging.getLogger("mqadmin.namesrv.route")

RegisterSteps = Generator[None, None, RegisterResult | None]
"""A registration in slices: each ``next`` applies a chunk of topics; the return value is the result."""
RefusalSteps = Generator[None, None, str | None]
"""A check in slices: each ``next`` looks at a chunk of topics; the return value is the refusal."""

_TOPIC_TABLE = chm_table(1024)  # new ConcurrentHashMap<>(1024)
_BROKER_TABLE = chm_table(128)
_CLUSTER_TABLE = chm_table(32)
_KEY_SET_TABLE = 16  # ConcurrentHashMap.newKeySet()


class _JavaNullPointer(Exception):
    """A step Java would fail with a NullPointerException (caught and logged there, too)."""


def _dv_key(dv: Any) -> tuple[int, int, int] | None:
    """``DataVersion.equals``: state version, timestamp, counter (a 4.x body has state version 0)."""
    if dv is None:
        return None
    return (getattr(dv, "state_version", 0) or 0, dv.timestamp, dv.counter)


def _state_version(dv: Any) -> int:
    return 0 if dv is None else (getattr(dv, "state_version", 0) or 0)


def _java_ms() -> int:
    return int(time.time() * 1000)


class RouteInfoManager:
    """Topic routes, broker groups and broker liveness, updated as brokers come and go.

    ``config`` is read on every operation (``deleteTopicWithBrokerRegistration``,
    ``supportActingMaster``, ``notifyMinBrokerIdChanged``), so a live config change takes effect at
    once; call :meth:`invalidate_routes` after changing ``supportActingMaster``.
    """

    def __init__(
        self,
        config: RouteConfig | None = None,
        *,
        clock_ms: Callable[[], int] = _java_ms,
        route_cache_bytes: int = 16 << 20,
    ) -> None:
        self.config: RouteConfig = config if config is not None else DefaultRouteConfig()
        self._clock_ms = clock_ms
        self.topic_queue_table: dict[str, JavaHashMap[str, QueueData]] = {}
        self.broker_addr_table: dict[str, BrokerEntry] = {}
        self.cluster_addr_table: dict[str, JavaHashMap[str, None]] = {}
        self.broker_live_table: dict[BrokerAddrInfo, BrokerLiveInfo] = {}
        self.filter_server_table: dict[BrokerAddrInfo, list[str]] = {}
        self.topic_queue_mapping_info_table: dict[str, JavaHashMap[str, Any]] = {}
        # Java iteration orders of the ConcurrentHashMap tables
        self._topic_order = ChmOrder(_TOPIC_TABLE)
        self._broker_order = ChmOrder(_BROKER_TABLE)
        self._cluster_order = ChmOrder(_CLUSTER_TABLE)
        self._routes = RouteBodyCache(route_cache_bytes)
        self._cluster_body: bytes | None = None
        self._queue_datas: dict[tuple[str, int, int, int, int], QueueData] = {}
        # broker name -> count of topics gained or lost, to tell whether a table could be missing any
        self._membership: dict[str, int] = {}
        # id of a filter server list -> (the list, its weight in routes); lists are replaced, not changed
        self._filter_weights: dict[int, tuple[list[str], int]] = {}

    # ------------------------------------------------------------------------------ registration

    def register_broker(self, **kwargs: Any) -> RegisterResult | None:
        """Apply a registration at once; see :meth:`register_broker_steps` for the arguments."""
        steps = self.register_broker_steps(**kwargs, chunk=1 << 62)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]

    def register_broker_steps(
        self,
        *,
        cluster_name: str | None,
        broker_addr: str | None,
        broker_name: str | None,
        broker_id: int,
        ha_server_addr: str | None,
        zone_name: str | None = None,
        timeout_millis: int | None = None,
        enable_acting_master: bool | None = None,
        data_version: Any,
        topic_configs: Mapping[str, TopicConfigLike] | None,
        filter_server_list: list[str] | None = None,
        mapping_infos: Mapping[str, Any] | None = None,
        channel: Any = None,
        body_digest: bytes | None = None,
        chunk: int = 2000,
    ) -> RegisterSteps:
        """Java ``registerBroker`` (5.3.3), yielding after every ``chunk`` topics applied.

        ``enable_acting_master`` is None for a 4.x broker (the header field is absent), which turns
        off the 5.x prime-slave rule. ``data_version`` needs ``timestamp``, ``counter`` and
        ``state_version``. Returns None where Java does (a single-topic registration from a member
        not yet registered), else the result. Between slices the tables are consistent: each
        topic's route is either before or after the registration. ``body_digest`` identifies the
        body, so that the member's next identical registration can go through
        :meth:`register_unchanged`.
        """
        result = RegisterResult()
        if cluster_name is None or broker_name is None or broker_addr is None:
            log.warning(
                "register broker without cluster, name or address ignored: %s %s %s",
                cluster_name,
                broker_name,
                broker_addr,
            )
            return result
        displaced: list[str] = []
        news = _TopicNews()
        try:
            # 1. cluster membership
            names = self.cluster_addr_table.get(cluster_name)
            if names is None:
                names = JavaHashMap()
                self.cluster_addr_table[cluster_name] = names
                self._cluster_order.add(cluster_name)
                self._brokers_changed()
            if broker_name not in names:
                names.put(broker_name, None)
                self._brokers_changed()

            # 2. the broker group
            register_first = False
            entry = self.broker_addr_table.get(broker_name)
            if entry is None:
                register_first = True
                entry = BrokerEntry(cluster_name, broker_name)
                self.broker_addr_table[broker_name] = entry
                self._broker_order.add(broker_name)
                self._brokers_changed()

            # 3. 5.x attributes, overwritten on every registration
            old_version_broker = enable_acting_master is None
            acting = (not old_version_broker) and bool(enable_acting_master)
            if entry.enable_acting_master != acting or entry.zone_name != zone_name:
                entry.enable_acting_master = acting
                entry.zone_name = zone_name
                self._brokers_changed()

            addrs = entry.addrs
            prev_min_id = min(addrs) if addrs else 0
            min_id_changed = broker_id < prev_min_id

            # 5. one address, one id: a slave coming back as master loses its slave entry
            stale = [k for k, v in addrs.items() if v == broker_addr and k != broker_id]
            if stale:
                for k in stale:
                    del addrs[k]
                displaced.append(broker_addr)
                self._brokers_changed()

            # 6. a member with a newer state version keeps its id
            old_broker_addr = addrs.get(broker_id)
            if old_broker_addr is not None and old_broker_addr != broker_addr:
                old_live = self.broker_live_table.get((cluster_name, old_broker_addr))
                if old_live is not None and _state_version(old_live.data_version) > _state_version(
                    data_version
                ):
                    log.warning(
                        "registering broker conflicts with the existing one, ignored: cluster %s, broker %s, "
                        "id %d, old addr %s (state version %d), new addr %s (state version %d)",
                        cluster_name,
                        broker_name,
                        broker_id,
                        old_broker_addr,
                        _state_version(old_live.data_version),
                        broker_addr,
                        _state_version(data_version),
                    )
                    self.broker_live_table.pop((cluster_name, broker_addr), None)
                    return result

            # 7. an incremental single-topic registration needs a full one first
            if broker_id not in addrs and topic_configs is not None and len(topic_configs) == 1:
                log.warning(
                    "cannot register topic config %s: broker %s[%d] %s has not registered yet",
                    list(topic_configs),
                    broker_name,
                    broker_id,
                    broker_addr,
                )
                return None

            # 8. the member's address
            old_addr = addrs.put(broker_id, broker_addr)
            if old_addr != broker_addr:
                self._brokers_changed()
                if old_addr:
                    displaced.append(old_addr)
            register_first = register_first or not old_addr

            # 9., 10. topics, from the master (or the 5.x prime slave standing in for it)
            is_master = broker_id == MASTER_ID
            is_prime_slave = not old_version_broker and not is_master and broker_id == min(addrs)
            takes_topics = is_master or is_prime_slave
            if topic_configs is not None and takes_topics:
                mappings = mapping_infos or {}
                if self.config.delete_topic_with_broker_registration and not mappings:
                    kept = set(topic_configs)
                    gone = [
                        t for t, m in self.topic_queue_table.items() if broker_name in m and t not in kept
                    ]
                    for topic in gone:
                        log.info("delete topic %s of broker %s: not in its registration", topic, broker_name)
                        self._remove_queue_data(topic, broker_name)
                changed = self.is_broker_topic_config_changed(cluster_name, broker_addr, data_version)
                apply_all = register_first or changed
                wipe_write = is_prime_slave and entry.enable_acting_master
                table = self.topic_queue_table
                configs: Iterable[TopicConfigLike] = topic_configs.values()
                if self._new_topics(topic_configs) > 1:
                    # new topics enter the table in the order Java iterates the registration's map
                    order = ChmOrder(_KEY_SET_TABLE)
                    for i, topic_key in enumerate(topic_configs, 1):
                        order.add(topic_key)
                        if i % (4 * chunk) == 0:
                            yield
                    configs = [topic_configs[k] for k in order]
                    yield
                looked = 0
                get = table.get
                for tc in configs:
                    name = tc.topic_name
                    if name is None:
                        raise _JavaNullPointer("topic config without a topic name")
                    qmap = get(name)
                    old = None if qmap is None else qmap.get(broker_name)
                    if old is None or apply_all:
                        perm = tc.perm & ~PERM_WRITE if wipe_write else tc.perm
                        rq, wq, flag = tc.read_queue_nums, tc.write_queue_nums, tc.topic_sys_flag
                        if old is None or not (  # a topic whose queues did not change costs nothing more
                            old.perm == perm
                            and old.read_queue_nums == rq
                            and old.write_queue_nums == wq
                            and old.topic_sys_flag == flag
                        ):
                            self._create_and_update_queue_data(name, broker_name, rq, wq, perm, flag, news)
                    looked += 1
                    if looked % chunk == 0:
                        yield
                if apply_all:
                    for topic, info in mappings.items():
                        bname = getattr(info, "bname", None)
                        if bname is None:
                            continue
                        inner = self.topic_queue_mapping_info_table.get(topic)
                        if inner is None:
                            inner = self.topic_queue_mapping_info_table[topic] = JavaHashMap()
                        inner.put(bname, info)
                        self._routes.drop(topic)

            # 11. liveness
            key = (cluster_name, broker_addr)
            previous = self.broker_live_table.get(key)
            self.broker_live_table[key] = BrokerLiveInfo(
                self._clock_ms(),
                DEFAULT_BROKER_CHANNEL_EXPIRED_MS if timeout_millis is None else timeout_millis,
                data_version,
                channel,
                ha_server_addr,
                body_digest,
                self._membership.get(broker_name, 0),
                takes_topics,
                self.config.delete_topic_with_broker_registration,
            )
            if previous is None:
                log.info("new broker registered, %s HAService: %s", key, ha_server_addr)

            # 12. filter servers
            if filter_server_list is not None:
                if not filter_server_list:
                    if self.filter_server_table.pop(key, None) is not None:
                        self._brokers_changed()
                elif self.filter_server_table.get(key) != filter_server_list:
                    self.filter_server_table[key] = list(filter_server_list)
                    self._brokers_changed()

            # 13. a slave learns its master
            if broker_id != MASTER_ID:
                master_addr = addrs.get(MASTER_ID)
                if master_addr is not None:
                    master_live = self.broker_live_table.get((cluster_name, master_addr))
                    if master_live is not None:
                        result.ha_server_addr = master_live.ha_server_addr
                        result.master_addr = master_addr

            # 14. the smallest id moved
            if min_id_changed and self.config.notify_min_broker_id_changed:
                notice = _min_broker_id_notice(addrs, None, self.broker_live_table[key].ha_server_addr)
                if notice is not None:
                    result.notices.append(notice)
        except _JavaNullPointer as e:
            log.error("registerBroker failed: %s", e)
        except Exception:
            log.exception("registerBroker failed")
        finally:
            if displaced:
                self._drop_unreferenced(cluster_name, displaced)
            news.log(broker_name)
        return result

    def register_unchanged(
        self,
        *,
        cluster_name: str | None,
        broker_addr: str | None,
        broker_name: str | None,
        broker_id: int,
        ha_server_addr: str | None,
        zone_name: str | None = None,
        timeout_millis: int | None = None,
        enable_acting_master: bool | None = None,
        body_digest: bytes | None,
        channel: Any = None,
    ) -> RegisterResult | None:
        """A member's periodic registration with the very body of its last one, without decoding it.

        Applies what Java's ``registerBroker`` would: with an unchanged DataVersion only topics
        missing for the group would be taken, and none can be missing when no topic joined or left
        the group since that registration. Returns None when that cannot be vouched for (the group,
        its ids, the member's role or its topics changed): then register it in full.
        """
        if body_digest is None or cluster_name is None or broker_name is None or broker_addr is None:
            return None
        key = (cluster_name, broker_addr)
        live = self.broker_live_table.get(key)
        if live is None or live.body_digest != body_digest:
            return None
        names = self.cluster_addr_table.get(cluster_name)
        entry = self.broker_addr_table.get(broker_name)
        if names is None or broker_name not in names or entry is None:
            return None
        addrs = entry.addrs
        if addrs.get(broker_id) != broker_addr or sum(1 for v in addrs.values() if v == broker_addr) != 1:
            return None
        old_version_broker = enable_acting_master is None
        takes_topics = broker_id == MASTER_ID or (not old_version_broker and broker_id == min(addrs))
        if takes_topics != live.took_topics:
            return None
        deleting = self.config.delete_topic_with_broker_registration
        if takes_topics and (
            self._membership.get(broker_name, 0) != live.topics_epoch or deleting != live.delete_mode
        ):
            return None
        acting = (not old_version_broker) and bool(enable_acting_master)
        if entry.enable_acting_master != acting or entry.zone_name != zone_name:
            entry.enable_acting_master = acting
            entry.zone_name = zone_name
            self._brokers_changed()
        self.broker_live_table[key] = BrokerLiveInfo(
            self._clock_ms(),
            DEFAULT_BROKER_CHANNEL_EXPIRED_MS if timeout_millis is None else timeout_millis,
            live.data_version,
            channel,
            ha_server_addr,
            body_digest,
            live.topics_epoch,
            takes_topics,
            deleting,
        )
        result = RegisterResult()
        if broker_id != MASTER_ID:
            master_addr = addrs.get(MASTER_ID)
            if master_addr is not None:
                master_live = self.broker_live_table.get((cluster_name, master_addr))
                if master_live is not None:
                    result.ha_server_addr = master_live.ha_server_addr
                    result.master_addr = master_addr
        return result

    # ------------------------------------------------------------------------------ route size

    def registration_refusal(self, **kwargs: Any) -> str | None:
        """:meth:`registration_refusal_steps` at once."""
        steps = self.registration_refusal_steps(**kwargs, chunk=1 << 62)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]

    def registration_refusal_steps(
        self,
        *,
        cluster_name: str | None,
        broker_addr: str | None,
        broker_name: str | None,
        broker_id: int,
        zone_name: str | None = None,
        topic_configs: Mapping[str, TopicConfigLike] | None = None,
        filter_server_list: list[str] | None = None,
        mapping_infos: Mapping[str, Any] | None = None,
        chunk: int = 2000,
        **_: Any,
    ) -> RefusalSteps:
        """Why a registration (the arguments of :meth:`register_broker_steps`) must be refused: a
        route it would make larger than a route answer may be (see :mod:`mqadmin.route.routesize`);
        None if it may go ahead. Yields after every ``chunk`` topics looked at.

        Only routes that can grow are summed: the registration's topics that do not list this group
        yet or get a mapping, and, when the group itself grows (a member, a zone, filter servers),
        every topic it is in.
        """
        if cluster_name is None or broker_name is None or broker_addr is None:
            return None
        weights: dict[str, int] = {}
        after = self._weight_after(
            cluster_name, broker_name, broker_addr, broker_id, zone_name, filter_server_list
        )
        grown = after > (self._weight(broker_name, weights) if broker_name in self.broker_addr_table else 0)
        new_mappings = mapping_infos or {}
        table = self.topic_queue_table

        def refusal(topic: str) -> str | None:
            size = ROUTE_ENVELOPE + after
            for name in table.get(topic) or ():
                if name != broker_name:
                    size += self._weight(name, weights)
            mappings = self.topic_queue_mapping_info_table.get(topic)
            size += mappings_weight(mappings, broker_name, new_mappings.get(topic))
            return route_refusal(topic, size)

        # the names the tables will hold (a config's own name, as the registration applies it)
        topics = [tc.topic_name for tc in (topic_configs or {}).values()]
        get = table.get
        empty: Mapping[str, Any] = {}
        looked = 0
        for start in range(0, len(topics), chunk):
            part = topics[start : start + chunk]
            looked += len(part)
            if not grown:  # then a route grows only where the group joins the topic or maps it anew
                part = [t for t in part if broker_name not in get(t, empty) or t in new_mappings]  # type: ignore[arg-type]
            for topic in part:
                if topic is not None and (why := refusal(topic)) is not None:
                    return why
            if looked % chunk == 0:
                yield
        for topic in new_mappings:
            if topic in table and (why := refusal(topic)) is not None:
                return why
        if grown and broker_name in self.broker_addr_table:  # a new group is in no topic yet
            for topic in list(table):
                qmap = table.get(topic)
                if qmap is not None and broker_name in qmap and (why := refusal(topic)) is not None:
                    return why
                looked += 1
                if looked % chunk == 0:
                    yield
        return None

    def topic_registration_refusal(self, topic: str | None, broker_names: Iterable[str | None]) -> str | None:
        """Why REGISTER_TOPIC_IN_NAMESRV may not add these groups to ``topic``: a route over the limit."""
        if topic is None:
            return None
        weights: dict[str, int] = {}
        names = set(self.topic_queue_table.get(topic) or ())
        names.update(n for n in broker_names if n is not None and n in self.broker_addr_table)
        size = ROUTE_ENVELOPE + sum(self._weight(name, weights) for name in names)
        size += mappings_weight(self.topic_queue_mapping_info_table.get(topic))
        return route_refusal(topic, size)

    def route_size_bound(self, topic: str) -> int:
        """The most bytes ``topic``'s route can take now, in either form (what refusals rest on)."""
        weights: dict[str, int] = {}
        size = ROUTE_ENVELOPE + sum(self._weight(n, weights) for n in self.topic_queue_table.get(topic) or ())
        return size + mappings_weight(self.topic_queue_mapping_info_table.get(topic))

    def _filters_weight(self, servers: list[str] | None) -> int:
        """A filter server list's weight, worked out once per list."""
        if not servers:
            return 0
        known = self._filter_weights.get(id(servers))
        if known is not None and known[0] is servers:
            return known[1]
        if len(self._filter_weights) > 2 * len(self.filter_server_table) + 64:
            self._filter_weights.clear()  # lists replaced since
        weight = filters_weight(servers)
        self._filter_weights[id(servers)] = (servers, weight)
        return weight

    def _weight(self, broker_name: str, weights: dict[str, int]) -> int:
        """A group's weight in routes now (remembered in ``weights`` for one check)."""
        weight = weights.get(broker_name)
        if weight is None:
            entry = self.broker_addr_table.get(broker_name)
            weight = 0
            if entry is not None:
                filters = self.filter_server_table
                cluster = entry.cluster
                weight = broker_weight(
                    broker_name,
                    cluster,
                    entry.zone_name,
                    entry.addrs.values(),
                    lambda addr: self._filters_weight(filters.get((cluster, addr))),
                )
            weights[broker_name] = weight
        return weight

    def _weight_after(
        self,
        cluster_name: str,
        broker_name: str,
        broker_addr: str,
        broker_id: int,
        zone_name: str | None,
        filter_server_list: list[str] | None,
    ) -> int:
        """A group's weight in routes once this member's registration is applied."""
        entry = self.broker_addr_table.get(broker_name)
        cluster = entry.cluster if entry is not None else cluster_name
        addrs = {k: v for k, v in entry.addrs.items() if v != broker_addr} if entry is not None else {}
        addrs[broker_id] = broker_addr
        filters = self.filter_server_table

        def filters_of(addr: str) -> int:
            if addr == broker_addr and filter_server_list is not None:
                return filters_weight(filter_server_list)
            return self._filters_weight(filters.get((cluster, addr)))

        return broker_weight(broker_name, cluster, zone_name, addrs.values(), filters_of)

    def _joined(self, broker_name: str | None) -> None:
        """A topic gained or lost a queue of this group."""
        if broker_name is not None:
            self._membership[broker_name] = self._membership.get(broker_name, 0) + 1

    def _new_topics(self, topic_configs: Mapping[str, TopicConfigLike]) -> int:
        """How many topics of a registration the table does not have yet (counting stops at 2)."""
        table = self.topic_queue_table
        new = 0
        for tc in topic_configs.values():
            if tc.topic_name not in table:
                new += 1
                if new > 1:
                    break
        return new

    def _create_and_update_queue_data(
        self, topic: str, broker_name: str, read: int, write: int, perm: int, sys_flag: int, news: _TopicNews
    ) -> None:
        qd = self._queue_data(broker_name, read, write, perm, sys_flag)
        qmap = self.topic_queue_table.get(topic)
        if qmap is None:
            qmap = JavaHashMap()
            qmap.put(broker_name, qd)
            self.topic_queue_table[topic] = qmap
            self._topic_order.add(topic)
            self._routes.drop(topic)
            self._joined(broker_name)
            news.new(topic, qd)
            return
        existing = qmap.get(broker_name)
        if existing is None:
            qmap.put(broker_name, qd)
            self._routes.drop(topic)
            self._joined(broker_name)
        elif existing is not qd:
            news.changed(topic, existing, qd)
            qmap[broker_name] = qd
            self._routes.drop(topic)

    def _queue_data(
        self, broker_name: str | None, read: int, write: int, perm: int, sys_flag: int
    ) -> QueueData:
        """One shared, never mutated QueueData per distinct value: routes of many topics reuse them."""
        key = (broker_name, read, write, perm, sys_flag)
        qd = self._queue_datas.get(key)  # type: ignore[arg-type]
        if qd is None:
            if len(self._queue_datas) >= 1 << 16:
                self._queue_datas.clear()
            qd = QueueData(broker_name, read, write, perm, sys_flag)
            self._queue_datas[key] = qd  # type: ignore[index]
        return qd

    # ------------------------------------------------------------------------------ unregistration

    def unregister_broker(
        self,
        cluster_name: str | None,
        broker_addr: str | None,
        broker_name: str | None,
        broker_id: int | None,
    ) -> list[MinBrokerIdChange]:
        return self.unregister_brokers([UnregisterRequest(cluster_name, broker_addr, broker_name, broker_id)])

    def unregister_brokers(self, requests: Iterable[UnregisterRequest]) -> list[MinBrokerIdChange]:
        """Java ``unRegisterBroker(Set)``: drop members, emptied groups and clusters, then their topics."""
        removed: dict[str | None, None] = {}
        reduced: dict[str | None, None] = {}
        notify: dict[str, str | None] = {}
        for req in requests:
            key = (req.cluster_name, req.broker_addr)
            live = self.broker_live_table.pop(key, None)  # type: ignore[arg-type]
            log.info("unregisterBroker, remove from brokerLiveTable %s, %s", "OK" if live else "Failed", key)
            if self.filter_server_table.pop(key, None) is not None:  # type: ignore[arg-type]
                self._brokers_changed()
            remove_name = False
            entry = self.broker_addr_table.get(req.broker_name) if req.broker_name is not None else None
            if entry is not None:
                min_id_changed = False
                if entry.addrs:
                    if req.broker_id is None:
                        log.error("unregisterBroker without a broker id for %s: skipped", key)
                        continue
                    min_id_changed = req.broker_id == min(entry.addrs)
                gone = [k for k, v in entry.addrs.items() if v == req.broker_addr]
                for k in gone:
                    del entry.addrs[k]
                if gone:
                    self._brokers_changed()
                log.info(
                    "unregisterBroker, remove addr from brokerAddrTable %s, %s",
                    "OK" if gone else "Failed",
                    key,
                )
                if not entry.addrs:
                    del self.broker_addr_table[entry.broker_name]
                    self._broker_order.discard(entry.broker_name)
                    self._brokers_changed()
                    remove_name = True
                    log.info("unregisterBroker, remove name from brokerAddrTable OK, %s", entry.broker_name)
                elif min_id_changed:
                    notify[entry.broker_name] = req.broker_addr
            if remove_name:
                names = (
                    self.cluster_addr_table.get(req.cluster_name) if req.cluster_name is not None else None
                )
                if names is not None:
                    names.pop(req.broker_name, None)  # type: ignore[arg-type]
                    self._brokers_changed()
                    if not names:
                        del self.cluster_addr_table[req.cluster_name]  # type: ignore[arg-type]
                        self._cluster_order.discard(req.cluster_name)
                        log.info(
                            "unregisterBroker, remove cluster from clusterAddrTable %s", req.cluster_name
                        )
                removed[req.broker_name] = None
            else:
                reduced[req.broker_name] = None
        self._clean_topics(removed, reduced)
        notices = []
        if notify and self.config.notify_min_broker_id_changed:
            for name, offline in notify.items():
                entry = self.broker_addr_table.get(name)
                if entry is not None and entry.enable_acting_master:
                    notice = _min_broker_id_notice(entry.addrs, offline, None)
                    if notice is not None:
                        notices.append(notice)
        return notices

    def _clean_topics(self, removed: Mapping[str | None, None], reduced: Mapping[str | None, None]) -> None:
        """Java ``cleanTopicByUnRegisterRequests``: removed groups leave every topic; empty topics go."""
        if not removed and not reduced:
            return
        table = self.topic_queue_table
        for topic in list(table):
            qmap = table[topic]
            changed = False
            for name in removed:
                if qmap.pop(name, None) is not None:  # type: ignore[arg-type]
                    changed = True
                    self._joined(name)
            if not qmap:
                self._remove_topic(topic)
                continue
            for name in reduced:
                qd = qmap.get(name)  # type: ignore[arg-type]
                if qd is None:
                    continue
                entry = self.broker_addr_table.get(name)  # type: ignore[arg-type]
                if entry is not None and entry.enable_acting_master and self._no_master(name):
                    # the master is gone: no writes until one is back
                    wiped = self._queue_data(
                        qd.broker_name,
                        qd.read_queue_nums,
                        qd.write_queue_nums,
                        qd.perm & ~PERM_WRITE,
                        qd.topic_sys_flag,
                    )
                    if wiped is not qd:
                        qmap[name] = wiped  # type: ignore[index]
                        changed = True
            if changed:
                self._routes.drop(topic)

    def _no_master(self, broker_name: str | None) -> bool:
        entry = self.broker_addr_table.get(broker_name) if broker_name is not None else None
        return entry is None or not entry.addrs or min(entry.addrs) > 0

    def _drop_unreferenced(self, cluster_name: str, addrs: Iterable[str]) -> None:
        """Drop live and filter entries of addresses no broker group of the cluster lists any more."""
        for addr in addrs:
            listed = any(
                e.cluster == cluster_name and addr in e.addrs.values()
                for e in self.broker_addr_table.values()
            )
            if listed:
                continue
            key = (cluster_name, addr)
            if self.broker_live_table.pop(key, None) is not None:
                log.info("broker member %s replaced, its live entry dropped", key)
            if self.filter_server_table.pop(key, None) is not None:
                self._brokers_changed()

    # ------------------------------------------------------------------------------ liveness

    def scan_not_active_brokers(
        self, now_ms: int | None = None
    ) -> tuple[list[tuple[BrokerAddrInfo, Any]], list[MinBrokerIdChange]]:
        """Java ``scanNotActiveBroker``: unregister members silent past their timeout.

        Returns the expired ``(key, channel)`` pairs (the caller closes those channels) and the
        notifications to send.
        """
        now = self._clock_ms() if now_ms is None else now_ms
        expired = [
            (key, live.channel)
            for key, live in self.broker_live_table.items()
            if live.last_update_ms + live.timeout_ms < now
        ]
        notices: list[MinBrokerIdChange] = []
        for key, _ in expired:
            timeout = self.broker_live_table[key].timeout_ms if key in self.broker_live_table else 0
            log.warning("The broker channel expired, %s %dms", key, timeout)
            notices += self.on_broker_addr_destroy(key)
        return expired, notices

    def on_channel_destroy(self, channel: Any) -> list[MinBrokerIdChange]:
        """Java ``onChannelDestroy(Channel)``: the first member registered over ``channel`` leaves."""
        if channel is None:
            return []
        for key, live in self.broker_live_table.items():
            if live.channel is channel:
                return self.on_broker_addr_destroy(key)
        return []

    def on_broker_addr_destroy(self, key: BrokerAddrInfo) -> list[MinBrokerIdChange]:
        """Java ``onChannelDestroy(BrokerAddrInfo)``: unregister the member at that address."""
        req = self._setup_unregister(key)
        if req is None:
            # no group lists this address (any more): nothing else refers to the entries
            self.broker_live_table.pop(key, None)
            if self.filter_server_table.pop(key, None) is not None:
                self._brokers_changed()
            return []
        log.info("the broker's channel destroyed, unregister %s", req)
        return self.unregister_brokers([req])

    def _setup_unregister(self, key: BrokerAddrInfo) -> UnregisterRequest | None:
        cluster, addr = key
        for name in self._broker_order:
            entry = self.broker_addr_table[name]
            if entry.cluster != cluster:
                continue
            for broker_id in entry.addrs.java_keys():
                if entry.addrs[broker_id] == addr:
                    return UnregisterRequest(cluster, addr, entry.broker_name, broker_id)
        return None

    def is_broker_topic_config_changed(
        self, cluster_name: str | None, broker_addr: str | None, data_version: Any
    ) -> bool:
        prev = self.broker_live_table.get((cluster_name, broker_addr))  # type: ignore[arg-type]
        return prev is None or data_version is None or _dv_key(prev.data_version) != _dv_key(data_version)

    def query_broker_data_version(self, cluster_name: str | None, broker_addr: str | None) -> Any:
        """The DataVersion the member last registered, or None."""
        live = self.broker_live_table.get((cluster_name, broker_addr))  # type: ignore[arg-type]
        return None if live is None else live.data_version

    def update_broker_timestamp(self, cluster_name: str | None, broker_addr: str | None) -> None:
        live = self.broker_live_table.get((cluster_name, broker_addr))  # type: ignore[arg-type]
        if live is not None:
            live.last_update_ms = self._clock_ms()

    # ------------------------------------------------------------------------------ topic changes

    def wipe_write_perm(self, broker_name: str | None) -> int:
        """Java ``wipeWritePermOfBrokerByLock``: clear the write bit on all the group's topics."""
        return self._set_perms(broker_name, lambda p: p & ~PERM_WRITE)

    def add_write_perm(self, broker_name: str | None) -> int:
        """Java ``addWritePermOfBrokerByLock``: every topic of the group becomes read-write (6)."""
        return self._set_perms(broker_name, lambda p: PERM_READ | PERM_WRITE)

    def _set_perms(self, broker_name: str | None, new_perm: Callable[[int], int]) -> int:
        if broker_name is None:
            return 0
        count = 0
        for topic, qmap in self.topic_queue_table.items():
            qd = qmap.get(broker_name)
            if qd is None:
                continue
            count += 1
            perm = new_perm(qd.perm)
            if perm != qd.perm:
                qmap[broker_name] = self._queue_data(
                    qd.broker_name, qd.read_queue_nums, qd.write_queue_nums, perm, qd.topic_sys_flag
                )
                self._routes.drop(topic)
        return count

    def delete_topic(self, topic: str | None) -> None:
        """Java ``deleteTopic(topic)``: the topic leaves every broker."""
        if topic is not None and topic in self.topic_queue_table:
            self._remove_topic(topic)

    def delete_topic_in_cluster(self, topic: str | None, cluster_name: str | None) -> None:
        """Java ``deleteTopic(topic, cluster)``: the topic leaves the cluster's brokers only."""
        names = self.cluster_addr_table.get(cluster_name) if cluster_name is not None else None
        if not names or topic is None:
            return
        qmap = self.topic_queue_table.get(topic)
        if qmap is None:
            return
        for name in names.java_keys():
            removed = qmap.pop(name, None)
            if removed is not None:
                log.info("deleteTopic, remove one broker's topic %s %s %s", name, topic, removed)
                self._routes.drop(topic)
                self._joined(name)
        if not qmap:
            log.info("deleteTopic, remove the topic all queue %s %s", cluster_name, topic)
            self._remove_topic(topic)

    def register_topic(self, topic: str | None, queue_datas: list[QueueData] | None) -> None:
        """Java ``registerTopic`` (5.x REGISTER_TOPIC_IN_NAMESRV): queues on known brokers only."""
        if not queue_datas or topic is None:
            return
        qmap = self.topic_queue_table.get(topic)
        if qmap is not None:
            for qd in queue_datas:
                if qd.broker_name not in self.broker_addr_table:
                    log.warning("register topic contains illegal broker, %s, %s", topic, qd)
                    return
                if qd.broker_name not in qmap:
                    self._joined(qd.broker_name)
                qmap.put(qd.broker_name, self._copy_queue_data(qd))  # type: ignore[arg-type]
                self._routes.drop(topic)
            log.info("topic route already exist. %s", topic)
            return
        fresh: JavaHashMap[str, QueueData] = JavaHashMap()
        for qd in queue_datas:
            if qd.broker_name not in self.broker_addr_table:
                log.warning("register topic contains illegal broker, %s, %s", topic, qd)
                return
            fresh.put(qd.broker_name, self._copy_queue_data(qd))  # type: ignore[arg-type]
        self.topic_queue_table[topic] = fresh
        for name in fresh:
            self._joined(name)
        self._topic_order.add(topic)
        self._routes.drop(topic)
        log.info("register topic route: %s, %s", topic, queue_datas)

    def _copy_queue_data(self, qd: QueueData) -> QueueData:
        return self._queue_data(
            qd.broker_name, qd.read_queue_nums, qd.write_queue_nums, qd.perm, qd.topic_sys_flag
        )

    def _remove_queue_data(self, topic: str, broker_name: str) -> None:
        qmap = self.topic_queue_table.get(topic)
        if qmap is None:
            return
        if qmap.pop(broker_name, None) is not None:
            self._routes.drop(topic)
            self._joined(broker_name)
        if not qmap:
            self._remove_topic(topic)

    def _remove_topic(self, topic: str) -> None:
        for name in self.topic_queue_table.pop(topic):
            self._joined(name)
        self._topic_order.discard(topic)
        self._routes.drop(topic)

    # ------------------------------------------------------------------------------ routes

    @property
    def route_cache(self) -> RouteBodyCache:
        """The encoded routes; its ``on_drop`` hears of every route that may have changed."""
        return self._routes

    def invalidate_routes(self) -> None:
        """Forget every encoded answer (after a config change that alters routes)."""
        self._brokers_changed()

    def _brokers_changed(self) -> None:
        self._routes.clear()
        self._cluster_body = None

    def pickup_topic_route(self, topic: str | None) -> TopicRouteData | None:
        """Java ``pickupTopicRouteData``: the topic's route (a copy), or None if it has none."""
        route = self._pickup(topic)
        if route is None:
            return None
        route.queue_datas = [q.copy() for q in route.queue_datas or []]
        return route

    def route_body(
        self, topic: str | None, standard: bool, order_topic_conf: str | None = None
    ) -> bytes | None:
        """The encoded route of ``topic`` (standard or legacy JSON), or None if it has none."""
        if topic is None:
            return None
        body = self._routes.get(topic, standard)
        if body is None:
            route = self._pickup(topic)
            if route is None:
                return None
            body = route.encode(standard)
            self._routes.put(topic, standard, body)
        if order_topic_conf is not None:
            i = body.find(QUEUE_DATAS_MARK)
            conf = (browser_quote if standard else quote)(order_topic_conf).encode()
            body = body[:i] + b',"orderTopicConf":' + conf + body[i:]
        return body

    def _pickup(self, topic: str | None) -> TopicRouteData | None:
        qmap = self.topic_queue_table.get(topic) if topic is not None else None
        if qmap is None:
            return None
        queue_datas = qmap.java_values()
        broker_datas: list[BrokerData] = []
        filters: dict[str, list[str]] = {}
        for name in hash_set_copy_order(qmap.java_keys()):
            entry = self.broker_addr_table.get(name)
            if entry is None:
                continue
            addrs = {k: entry.addrs[k] for k in entry.addrs.java_keys()}
            broker_datas.append(
                BrokerData(entry.cluster, name, addrs, entry.zone_name, entry.enable_acting_master)
            )
            if self.filter_server_table:
                for addr in addrs.values():
                    servers = self.filter_server_table.get((entry.cluster, addr))
                    if servers is not None:
                        filters[addr] = list(servers)
        if not broker_datas:
            return None
        mapping = self.topic_queue_mapping_info_table.get(topic)  # type: ignore[arg-type]
        route = TopicRouteData(
            order_topic_conf=None,
            queue_datas=queue_datas,
            broker_datas=broker_datas,
            filter_server_table=filters,
            topic_queue_mapping_by_broker=None if mapping is None else dict(mapping.java_items()),
        )
        if self.config.support_acting_master:
            _appoint_acting_masters(topic, route)  # type: ignore[arg-type]
        return route

    # ------------------------------------------------------------------------------ listings

    def cluster_info(self) -> ClusterInfo:
        """Java ``getAllClusterInfo``: every broker group and the clusters' group names."""
        brokers = {}
        for name in self._broker_order:
            e = self.broker_addr_table[name]
            addrs = {k: e.addrs[k] for k in e.addrs.java_keys()}
            brokers[name] = BrokerData(e.cluster, name, addrs, e.zone_name, e.enable_acting_master)
        clusters = {c: self.cluster_addr_table[c].java_keys() for c in self._cluster_order}
        return ClusterInfo(brokers, clusters)

    def cluster_info_body(self) -> bytes:
        """The GET_BROKER_CLUSTER_INFO body (always the legacy form), kept until a broker changes."""
        body = self._cluster_body
        if body is None:
            body = self._cluster_body = self.cluster_info().encode()
        return body

    def all_topics(self) -> list[str]:
        """Java ``getAllTopicList``: the topics in ``newKeySet`` order."""
        return chm_order(self._topic_order, _KEY_SET_TABLE)

    def topics_by_cluster(self, cluster_name: str | None) -> list[str]:
        """Java ``getTopicsByCluster``: topics with a queue on any group of the cluster."""
        names = self.cluster_addr_table.get(cluster_name) if cluster_name is not None else None
        if names is None:
            return []
        out = ChmOrder(_KEY_SET_TABLE)
        topics = list(self._topic_order)
        table = self.topic_queue_table
        for name in names.java_keys():
            for topic in topics:
                if name in table[topic]:
                    out.add(topic)
        return list(out)

    def system_topics(self) -> tuple[list[str], str | None]:
        """Java ``getSystemTopicList``: cluster and group names, and the first broker address known."""
        out = ChmOrder(_KEY_SET_TABLE)
        for cluster in self._cluster_order:
            out.add(cluster)
            for name in self.cluster_addr_table[cluster].java_keys():
                out.add(name)
        broker_addr = None
        for name in self._broker_order:
            addrs = self.broker_addr_table[name].addrs
            if addrs:
                broker_addr = addrs[addrs.java_keys()[0]]
                break
        return list(out), broker_addr

    def unit_topics(self) -> list[str]:
        """Topics whose first queue data has the UNIT flag."""
        return self._topics_by_flag(lambda f: f & TOPIC_SYS_FLAG_UNIT == TOPIC_SYS_FLAG_UNIT)

    def has_unit_sub_topics(self) -> list[str]:
        """Topics whose first queue data has the UNIT_SUB flag."""
        return self._topics_by_flag(lambda f: f & TOPIC_SYS_FLAG_UNIT_SUB == TOPIC_SYS_FLAG_UNIT_SUB)

    def has_unit_sub_ununit_topics(self) -> list[str]:
        """Topics whose first queue data has UNIT_SUB but not UNIT."""
        return self._topics_by_flag(
            lambda f: f & TOPIC_SYS_FLAG_UNIT == 0 and f & TOPIC_SYS_FLAG_UNIT_SUB == TOPIC_SYS_FLAG_UNIT_SUB
        )

    def _topics_by_flag(self, test: Callable[[int], bool]) -> list[str]:
        out = ChmOrder(_KEY_SET_TABLE)
        for topic in self._topic_order:
            qmap = self.topic_queue_table[topic]
            if qmap and test(qmap[qmap.java_keys()[0]].topic_sys_flag):
                out.add(topic)
        return list(out)

    def broker_member_group(self, cluster_name: str | None, broker_name: str | None) -> dict[int, str]:
        """Java ``getBrokerMemberGroup``: the group's member addresses (empty when unknown)."""
        entry = self.broker_addr_table.get(broker_name) if broker_name is not None else None
        if entry is None:
            return {}
        return {k: entry.addrs[k] for k in entry.addrs.copy_order()}

    def stats(self) -> dict[str, int]:
        """Table sizes, for logs."""
        return {
            "topics": len(self.topic_queue_table),
            "brokers": len(self.broker_addr_table),
            "clusters": len(self.cluster_addr_table),
            "live": len(self.broker_live_table),
            "filterServers": len(self.filter_server_table),
            "cachedRoutes": len(self._routes),
        }


class _TopicNews:
    """What one registration did to topics, logged in two lines at its end: a line per topic (as
    Java logs) cost a large registration more than all of its table work."""

    __slots__ = ("_changed", "_new", "_new_queues")

    def __init__(self) -> None:
        self._new: list[str] = []
        self._new_queues: dict[int, QueueData] = {}  # by id: shared, never changed
        self._changed: list[str] = []

    def new(self, topic: str, qd: QueueData) -> None:
        self._new.append(topic)
        if len(self._new_queues) < _LOGGED_TOPICS:
            self._new_queues[id(qd)] = qd

    def changed(self, topic: str, old: QueueData, new: QueueData) -> None:
        if len(self._changed) < _LOGGED_TOPICS:
            self._changed.append(f"{topic} OLD: {old} NEW: {new}")
        else:
            self._changed.append(topic)

    def log(self, broker_name: str | None) -> None:
        if self._new:
            log.info(
                "new topics registered by %s: %d, %s, queues %s",
                broker_name,
                len(self._new),
                _cut(self._new),
                ", ".join(map(str, self._new_queues.values())),
            )
        if self._changed:
            log.info("topics changed by %s: %d, %s", broker_name, len(self._changed), _cut(self._changed))


_LOGGED_TOPICS = 100
"""Topics a registration's log lines name; the count says how many more there were."""


def _cut(items: list[str]) -> str:
    shown = "; ".join(items[:_LOGGED_TOPICS])
    more = len(items) - _LOGGED_TOPICS
    return shown if more <= 0 else f"{shown}; and {more} more"


def _appoint_acting_masters(topic: str, route: TopicRouteData) -> None:
    """5.x ``supportActingMaster``: a group without master shows its smallest-id slave as id 0.

    Only for groups that enable acting master and whose topic queue is not writeable.
    """
    if topic.startswith(SYNC_BROKER_MEMBER_GROUP_PREFIX):
        return
    brokers = route.broker_datas or []
    queues = route.queue_datas or []
    if not brokers or not queues:
        return
    if not any(b.broker_addrs and MASTER_ID not in b.broker_addrs for b in brokers):
        return
    for b in brokers:
        addrs = b.broker_addrs
        if not addrs or MASTER_ID in addrs or not b.enable_acting_master:
            continue
        for q in queues:
            if q.broker_name == b.broker_name:
                if not q.perm & PERM_WRITE:
                    addr = addrs.pop(min(addrs))
                    addrs[MASTER_ID] = addr
                break


def _min_broker_id_notice(
    addrs: JavaHashMap[int, str], offline_addr: str | None, ha_addr: str | None
) -> MinBrokerIdChange | None:
    """Java ``notifyMinBrokerIdChanged``: whom to tell that the smallest broker id changed."""
    if not addrs:
        return None
    min_id = min(addrs)
    keys = addrs.java_keys()
    if offline_addr is not None or len(addrs) == 1:
        targets = tuple(addrs[k] for k in keys)
    else:
        targets = tuple(addrs[k] for k in keys if k != min_id)
    return MinBrokerIdChange(targets, min_id, addrs.get(min_id), offline_addr, ha_addr)
