"""A small reference model of the name server's route tables, written from the spec, not the code.

Plain dicts and sets, no Java orders, no caches: only what a route answer contains. The random
walk in ``test_model_walk`` drives it and :class:`mqadmin.route.RouteInfoManager` with the same
operations and compares their answers after every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WRITE = 2
DEFAULT_TIMEOUT = 120_000

QD = tuple[int, int, int, int]  # read, write, perm, sysflag


@dataclass
class Broker:
    cluster: str
    addrs: dict[int, str] = field(default_factory=dict)
    acting: bool = False


@dataclass
class Live:
    dv: tuple[int, int, int]  # state version, timestamp, counter
    last: int
    timeout: int
    channel: Any


@dataclass
class Model:
    brokers: dict[str, Broker] = field(default_factory=dict)
    clusters: dict[str, set[str]] = field(default_factory=dict)
    live: dict[tuple[str, str], Live] = field(default_factory=dict)
    topics: dict[str, dict[str, QD]] = field(default_factory=dict)
    filters: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    delete_missing_topics: bool = False

    # ---------------------------------------------------------------- registration

    def register(
        self,
        cluster: str,
        addr: str,
        name: str,
        bid: int,
        acting: bool | None,
        dv: tuple[int, int, int],
        table: dict[str, QD],
        timeout: int | None,
        channel: Any,
        now: int,
        filters: list[str] | None = None,
    ) -> dict[str, str] | None:
        self.clusters.setdefault(cluster, set()).add(name)
        first = name not in self.brokers
        broker = self.brokers.setdefault(name, Broker(cluster))
        old_version = acting is None
        broker.acting = bool(acting) and not old_version
        addrs = broker.addrs
        moved: list[str] = []
        for k in [k for k, v in addrs.items() if v == addr and k != bid]:
            del addrs[k]
            moved.append(addr)
        try:
            holder = addrs.get(bid)
            if holder is not None and holder != addr:
                other = self.live.get((cluster, holder))
                if other is not None and other.dv[0] > dv[0]:
                    self.live.pop((cluster, addr), None)
                    return {}
            if bid not in addrs and len(table) == 1:
                return None
            previous = addrs.get(bid)
            addrs[bid] = addr
            if previous and previous != addr:
                moved.append(previous)
            first = first or not previous
            master = bid == 0
            prime = not old_version and not master and bid == min(addrs)
            if master or prime:
                if self.delete_missing_topics:
                    for topic in list(self.topics):
                        if name in self.topics[topic] and topic not in table:
                            del self.topics[topic][name]
                            if not self.topics[topic]:
                                del self.topics[topic]
                known = self.live.get((cluster, addr))
                changed = known is None or known.dv != dv
                for topic, (r, w, perm, flag) in table.items():
                    queues = self.topics.get(topic)
                    if first or changed or not queues or name not in queues:
                        if prime and broker.acting:
                            perm &= ~WRITE
                        self.topics.setdefault(topic, {})[name] = (r, w, perm, flag)
            self.live[(cluster, addr)] = Live(
                dv, now, DEFAULT_TIMEOUT if timeout is None else timeout, channel
            )
            if filters is not None:
                if filters:
                    self.filters[(cluster, addr)] = list(filters)
                else:
                    self.filters.pop((cluster, addr), None)
            out: dict[str, str] = {}
            if bid != 0 and 0 in addrs and (cluster, addrs[0]) in self.live:
                out["masterAddr"] = addrs[0]
            return out
        finally:
            for a in moved:  # addresses no group lists any more leave the live table
                if not any(b.cluster == cluster and a in b.addrs.values() for b in self.brokers.values()):
                    self.live.pop((cluster, a), None)
                    self.filters.pop((cluster, a), None)

    # ---------------------------------------------------------------- leaving

    def unregister(self, cluster: str, addr: str, name: str | None, bid: int | None) -> None:
        self.live.pop((cluster, addr), None)
        self.filters.pop((cluster, addr), None)
        removed = reduced = None
        broker = self.brokers.get(name) if name is not None else None
        if broker is not None:
            for k in [k for k, v in broker.addrs.items() if v == addr]:
                del broker.addrs[k]
            if not broker.addrs:
                del self.brokers[name]  # type: ignore[arg-type]
                names = self.clusters.get(cluster)
                if names is not None:
                    names.discard(name)  # type: ignore[arg-type]
                    if not names:
                        del self.clusters[cluster]
                removed = name
            else:
                reduced = name
        for topic in list(self.topics):
            queues = self.topics[topic]
            if removed is not None:
                queues.pop(removed, None)
            if not queues:
                del self.topics[topic]
                continue
            if reduced is not None and reduced in queues:
                b = self.brokers.get(reduced)
                if b is not None and b.acting and (not b.addrs or min(b.addrs) > 0):
                    r, w, perm, flag = queues[reduced]
                    queues[reduced] = (r, w, perm & ~WRITE, flag)

    def destroy_addr(self, key: tuple[str, str]) -> None:
        cluster, addr = key
        for name, b in self.brokers.items():
            if b.cluster == cluster:
                for bid, a in sorted(b.addrs.items()):
                    if a == addr:
                        self.unregister(cluster, addr, name, bid)
                        return
        self.live.pop(key, None)
        self.filters.pop(key, None)

    def close_channel(self, channel: Any) -> None:
        for key, live in self.live.items():
            if live.channel is channel:
                self.destroy_addr(key)
                return

    def expire(self, now: int) -> None:
        for key in [k for k, v in self.live.items() if v.last + v.timeout < now]:
            self.destroy_addr(key)

    # ---------------------------------------------------------------- admin changes

    def set_perm(self, name: str, wipe: bool) -> int:
        n = 0
        for queues in self.topics.values():
            if name in queues:
                r, w, perm, flag = queues[name]
                queues[name] = (r, w, perm & ~WRITE if wipe else 6, flag)
                n += 1
        return n

    def delete_topic(self, topic: str, cluster: str | None) -> None:
        if cluster is None:
            self.topics.pop(topic, None)
            return
        queues = self.topics.get(topic)
        names = self.clusters.get(cluster)
        if queues is None or not names:
            return
        for n in names:
            queues.pop(n, None)
        if not queues:
            del self.topics[topic]

    def register_topic(self, topic: str, queues: list[tuple[str, QD]]) -> None:
        if not queues:
            return
        if topic in self.topics:
            for name, qd in queues:
                if name not in self.brokers:
                    return
                self.topics[topic][name] = qd
            return
        if all(name in self.brokers for name, _ in queues):
            self.topics[topic] = dict(queues)

    def touch(self, cluster: str, addr: str, now: int) -> None:
        live = self.live.get((cluster, addr))
        if live is not None:
            live.last = now

    # ---------------------------------------------------------------- answers

    def filter_table(self, topic: str) -> dict[str, list[str]]:
        """The route's filterServerTable: filter servers of every member address of its groups."""
        out: dict[str, list[str]] = {}
        for name in self.topics.get(topic, {}):
            b = self.brokers.get(name)
            for a in b.addrs.values() if b else ():
                if (b.cluster, a) in self.filters:  # type: ignore[union-attr]
                    out[a] = self.filters[(b.cluster, a)]  # type: ignore[union-attr]
        return out

    def route(self, topic: str) -> tuple[frozenset[Any], frozenset[Any]] | None:
        queues = self.topics.get(topic)
        if queues is None:
            return None
        brokers = frozenset(
            (b.cluster, name, frozenset(b.addrs.items()), b.acting)
            for name in queues
            if (b := self.brokers.get(name)) is not None
        )
        if not brokers:
            return None
        return frozenset((name, *qd) for name, qd in queues.items()), brokers
