"""Small pieces of the admin API and the CLI plumbing, in process."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import pytest

from mqadmin.admin.allocate import allocate_averagely
from mqadmin.admin.core import AdminCore
from mqadmin.admin.errors import DeadlineError
from mqadmin.admin.fanout import fan_out
from mqadmin.admin.messages import subscribe_queues
from mqadmin.admin.settings import AdminSettings, parse_namesrv_list
from mqadmin.cli.toolsyml import parse_flat_yaml, read_tools_yml
from mqadmin.cli.yamlout import dump_yaml
from mqadmin.protocol.bodies.message_queue import MessageQueue
from mqadmin.protocol.bodies.route import QueueData, TopicRouteData


def test_namesrv_list_forms() -> None:
    assert parse_namesrv_list("a:1;b:2") == ["a:1", "b:2"]
    assert parse_namesrv_list(" a:1 , b:2;;a:1 ") == ["a:1", "b:2"]
    assert parse_namesrv_list("http://host/path/a:1") == ["a:1"]
    assert parse_namesrv_list("") == [] and parse_namesrv_list(None) == []


def _mqs(n: int) -> list[MessageQueue]:
    return [MessageQueue("T", "b", i) for i in range(n)]


@pytest.mark.parametrize(
    ("n", "cids", "expected"),
    [
        (4, ["a", "b"], {"a": [0, 1], "b": [2, 3]}),
        (5, ["a", "b"], {"a": [0, 1, 2], "b": [3, 4]}),
        (2, ["a", "b", "c"], {"a": [0], "b": [1], "c": []}),
        (7, ["a", "b", "c"], {"a": [0, 1, 2], "b": [3, 4], "c": [5, 6]}),
    ],
)
def test_allocate_averagely(n: int, cids: list[str], expected: dict[str, list[int]]) -> None:
    mqs = _mqs(n)
    got = {c: [q.queue_id for q in allocate_averagely(c, mqs, cids)] for c in cids}
    assert got == expected
    assert allocate_averagely("zz", mqs, cids) == []
    with pytest.raises(ValueError, match="currentCID is empty"):
        allocate_averagely("", mqs, cids)
    with pytest.raises(ValueError, match="mqAll is null or mqAll empty"):
        allocate_averagely("a", [], cids)


def test_subscribe_queues_hash_set_order_and_readable_only() -> None:
    route = TopicRouteData(
        queue_datas=[QueueData("broker-a", 4, 4, 6), QueueData("broker-b", 2, 2, 2)],  # b: write only
    )
    ids = [q.queue_id for q in subscribe_queues("GoldenTopic", route)]
    assert ids == [0, 2, 1, 3]  # the order Java's HashSet<MessageQueue> gives (s31)


def test_fan_out_deadline_and_errors() -> None:
    async def call(k: int) -> int:
        if k == 1:
            raise ValueError("boom")
        if k == 2:
            await asyncio.sleep(10)
        return k * 10

    result = asyncio.run(fan_out([0, 1, 2, 0], call, deadline=0.2))
    assert result.order == [0, 1, 2]
    assert result.results == {0: 0}
    assert isinstance(result.errors[1], ValueError)
    assert isinstance(result.errors[2], DeadlineError)
    assert result.failed and not result.all_failed


def test_tls_context_is_made_when_asked() -> None:
    core = AdminCore(AdminSettings(tls=True))
    assert isinstance(core.client._ssl, ssl.SSLContext)  # type: ignore[attr-defined]
    assert core.client._ssl.verify_mode == ssl.CERT_NONE  # type: ignore[attr-defined]


def test_tools_yml(tmp_path: Path) -> None:
    assert parse_flat_yaml("# c\naccessKey: rocketmq2\nsecretKey: 12345678 # note\nlist:\n  - x\n") == {
        "accessKey": "rocketmq2",
        "secretKey": "12345678",
        "list": "",
    }
    f = tmp_path / "tools.yml"
    f.write_text("accessKey: 'a b'\nsecretKey: \"s\"\n")
    assert read_tools_yml(f) == ("a b", "s")
    f.write_text("accessKey: a\nsecretKey:\n")
    assert read_tools_yml(f) is None
    assert read_tools_yml(tmp_path / "missing.yml") is None


def test_yaml_output() -> None:
    assert dump_yaml({"a": [1, "x: y"], "b": {}, "c": None, "d": "true"}) == (
        "---\na:\n- 1\n- 'x: y'\nb: {}\nc: null\nd: 'true'\n"
    )


def test_running_info_reads_a_cpp_clients_unsigned_longs() -> None:
    """The C++ client sends uninitialised fields as unsigned 64-bit text: read as Java's signed long of
    the same bits, and the rest of the report stays readable; text that is no number is still refused."""
    from mqadmin.protocol.bodies.consumption import _long
    from mqadmin.protocol.errors import ProtocolError

    assert _long("11529351726658387200", "lastLockTimestamp") == 11529351726658387200 - (1 << 64)
    assert _long("18446744073709551615", "x") == -1
    assert _long("93950660723784", "x") == 93950660723784 and _long(7, "x") == 7
    for bad in ("18446744073709551616", "12ab", "-18446744073709551615", ""):
        with pytest.raises(ProtocolError):
            _long(bad, "x")
