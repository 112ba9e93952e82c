"""Moving a cluster's metadata between a 5.3.3 and a 4.9.8 cluster of ours, both ways: the export of
one applied to the other; what the target cannot keep is listed as such, and the rest matches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.manifest.helpers import HEAD, apply, export, plan
from tests.servers import Cluster

SOURCE = (
    HEAD
    + """
topics:
  MfMigTopic: {readQueues: 3, writeQueues: 3}
groups:
  MfMigOrderly: {orderly: true, retryMaxTimes: 7}
  MfMigPlain: {broadcast: false}
"""
)


@pytest.fixture(scope="module")
def clusters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Cluster]]:
    root = tmp_path_factory.mktemp("migrate")
    five = Cluster(root / "five", rocketmqVersion="5.3.3")
    try:
        with Cluster(root / "four", rocketmqVersion="4.9.8") as four:
            yield {"5.x": five, "4.x": four}
    finally:
        five.stop()


def test_a_5x_export_applied_to_4x_lists_what_cannot_carry_over(
    clusters: dict[str, Cluster], tmp_path: Path
) -> None:
    five, four = clusters["5.x"], clusters["4.x"]
    _, report, _ = apply(five.ns_addr, SOURCE)
    assert report.failed is None
    exported = export(five.ns_addr)
    assert yaml.safe_load(exported)["groups"]["MfMigOrderly"]["orderly"] is True
    with_users = exported + "users:\n  alice: {userType: Normal}\n"

    p, report, _ = apply(four.ns_addr, with_users)
    assert report.failed is None and report.done
    assert any(n.startswith("group MfMigOrderly on broker-a: orderly=true") for n in p.notes), p.notes
    assert not any("MfMigPlain" in n for n in p.notes)  # its 5.x settings are the defaults: nothing lost
    assert any(n.startswith("users alice on broker-a") for n in p.notes), p.notes

    again = plan(four.ns_addr, with_users)
    assert again.changes == [] and again.notes == p.notes  # listed every time, never dropped silently
    four_doc = yaml.safe_load(export(four.ns_addr))
    assert four_doc["mode"] == "4.x"
    assert four_doc["groups"]["MfMigOrderly"]["retryMaxTimes"] == 7
    assert "orderly" not in four_doc["groups"]["MfMigOrderly"]
    assert four_doc["topics"]["MfMigTopic"] == {"readQueues": 3, "writeQueues": 3, "perm": 6}


def test_a_4x_export_applies_to_5x_whole(clusters: dict[str, Cluster]) -> None:
    five, four = clusters["5.x"], clusters["4.x"]
    four_only = (
        HEAD
        + "topics:\n  MfFromFour: {readQueues: 5, writeQueues: 5}\ngroups:\n  MfFromFourG: {retryQueues: 2}\n"
    )
    _, report, _ = apply(four.ns_addr, four_only)
    assert report.failed is None
    exported = export(four.ns_addr)
    p, report, _ = apply(five.ns_addr, exported)
    assert report.failed is None and p.notes == []
    assert plan(five.ns_addr, exported).changes == []
