"""Two clusters of our servers per broker mode (4.9.8 and 5.3.3): a source with two brokers, and an
empty target on a name server of its own (a migration's other end). One pair per module and mode."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings
from mqadmin.protocol.codes import RequestCode
from tests.servers import Cluster

WRITES = frozenset(
    {
        RequestCode.UPDATE_AND_CREATE_TOPIC,
        RequestCode.UPDATE_AND_CREATE_TOPIC_LIST,
        RequestCode.DELETE_TOPIC_IN_BROKER,
        RequestCode.DELETE_TOPIC_IN_NAMESRV,
        RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
        RequestCode.DELETE_SUBSCRIPTIONGROUP,
        RequestCode.PUT_KV_CONFIG,
        RequestCode.DELETE_KV_CONFIG,
        RequestCode.UPDATE_BROKER_CONFIG,
        RequestCode.AUTH_CREATE_USER,
        RequestCode.AUTH_UPDATE_USER,
        RequestCode.AUTH_DELETE_USER,
        RequestCode.AUTH_CREATE_ACL,
        RequestCode.AUTH_UPDATE_ACL,
        RequestCode.AUTH_DELETE_ACL,
    }
)
"""The request codes that change a server's state (what a second apply must not send)."""


def two_brokers(workdir: Path, version: str) -> Cluster:
    props: dict[str, object] = {"rocketmqVersion": version}
    return Cluster(
        workdir, {"a": {"brokerName": "broker-a", **props}, "b": {"brokerName": "broker-b", **props}}
    )


class Pair:
    def __init__(self, version: str, src: Cluster, dst: Cluster) -> None:
        self.version = version
        self.src = src
        self.dst = dst


@pytest.fixture(scope="module", params=["4.9.8", "5.3.3"])
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    root = tmp_path_factory.mktemp(f"manifest-{request.param}")
    src = two_brokers(root / "src", request.param)
    try:
        dst = two_brokers(root / "dst", request.param)
    except BaseException:
        src.stop()
        raise
    try:
        yield Pair(request.param, src, dst)
    finally:
        try:
            dst.stop()
        finally:
            src.stop()


def counted(admin: MQAdmin) -> Counter[int]:
    """Every request the admin sends from now on, by request code (its requests are all built by
    ``core.request``)."""
    sent: Counter[int] = Counter()
    build = admin.core.request

    def request(code: int, *args: Any, **kwargs: Any) -> Any:
        sent[code] += 1
        return build(code, *args, **kwargs)

    admin.core.request = request  # type: ignore[method-assign]
    return sent


def run_admin(ns: str, fn: Any, **settings: Any) -> Any:
    """``fn(admin)`` on a fresh admin client of ``ns``."""

    async def go() -> Any:
        async with MQAdmin(AdminSettings(namesrv_addrs=(ns,), **settings)) as admin:
            return await fn(admin)

    return asyncio.run(go())
