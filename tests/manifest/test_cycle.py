"""Export, apply, diff and apply again against our name server and brokers, in both broker modes.

The source cluster gets its resources from a seed manifest; its export applied to an empty cluster
makes the same state (the diff of the two is empty, their exports equal); a changed manifest's plan
lists exactly the changes; a second apply sends no write (counted at the admin client); shrinking
and pruning are refused without their flags; a broker's refusal stops an apply, which says what it
did and did not do.
"""

from __future__ import annotations

import pytest
import yaml

from tests.manifest.conftest import Pair
from tests.manifest.helpers import HEAD, apply, changes, export, plan, writes

SEED = (
    HEAD
    + """
topics:
  MfOrders: {readQueues: 8, writeQueues: 8}
  MfOnlyA: {readQueues: 2, writeQueues: 2, perm: 6, brokers: [broker-a]}
  MfUneven:
    readQueues: 4
    writeQueues: 4
    perBroker:
      broker-b: {readQueues: 6, writeQueues: 6}
groups:
  MfGroup: {retryMaxTimes: 3, broadcast: false}
  MfOnlyB: {retryQueues: 2, brokers: [broker-b]}
orderConfigs:
  MfOrders: "broker-a:8;broker-b:8"
"""
)


def _seeded(pair: Pair) -> None:
    _, report, _ = apply(pair.src.ns_addr, SEED)
    assert report.failed is None, report.error


def test_export_applied_to_an_empty_cluster_makes_the_same_state(pair: Pair) -> None:
    _seeded(pair)
    exported = export(pair.src.ns_addr)
    doc = yaml.safe_load(exported)
    assert doc["topics"]["MfOnlyA"]["brokers"] == ["broker-a"]
    assert doc["topics"]["MfUneven"]["perBroker"] == {"broker-b": {"readQueues": 6, "writeQueues": 6}}
    assert doc["groups"]["MfOnlyB"]["brokers"] == ["broker-b"]
    assert doc["orderConfigs"]["MfOrders"] == "broker-a:8;broker-b:8"
    assert doc["mode"] == ("5.x" if pair.version == "5.3.3" else "4.x")

    p, report, _ = apply(pair.dst.ns_addr, exported)
    assert report.failed is None and p.changes and len(report.done) == len(p.changes)
    again = plan(pair.dst.ns_addr, exported)
    assert again.changes == []
    assert export(pair.dst.ns_addr) == exported


def test_a_changed_manifest_diffs_as_exactly_its_changes_then_applies_to_no_diff(pair: Pair) -> None:
    _seeded(pair)
    changed = (
        SEED.replace(
            "MfOrders: {readQueues: 8, writeQueues: 8}", "MfOrders: {readQueues: 12, writeQueues: 12}"
        )
        .replace("retryMaxTimes: 3", "retryMaxTimes: 5")
        .replace("groups:\n", "  MfNew: {readQueues: 1, writeQueues: 1}\ngroups:\n")
    )
    p = plan(pair.src.ns_addr, changed)
    expected: set[tuple[object, ...]] = set()
    for b in ("broker-a", "broker-b"):
        expected.add(("topic", "MfOrders", "update", b, (("readQueues", 12), ("writeQueues", 12))))
        expected.add(("group", "MfGroup", "update", b, (("retryMaxTimes", 5),)))
        expected.add(("topic", "MfNew", "create", b, (("perm", 6), ("readQueues", 1), ("writeQueues", 1))))
    assert changes(p) == expected
    assert [c.kind for c in p.changes] == sorted((c.kind for c in p.changes), key=["topic", "group"].index)
    _, report, _ = apply(pair.src.ns_addr, changed)
    assert report.failed is None and len(report.done) == 6
    assert plan(pair.src.ns_addr, changed).changes == []
    _, report, _ = apply(pair.src.ns_addr, SEED, allow_shrink=True)  # back, for the other tests
    assert report.failed is None


def test_a_second_apply_sends_no_write(pair: Pair) -> None:
    _seeded(pair)
    p, report, sent = apply(pair.src.ns_addr, SEED)
    assert p.changes == [] and report.done == []
    assert writes(sent) == {}
    assert sent  # it did read the cluster


def test_shrink_is_refused_without_allow_shrink_and_nothing_is_sent(pair: Pair) -> None:
    _seeded(pair)
    shrunk = SEED.replace(
        "MfOrders: {readQueues: 8, writeQueues: 8}", "MfOrders: {readQueues: 4, writeQueues: 4}"
    )
    shrunk = shrunk.replace("  MfOnlyA:", "  MfGrow: {readQueues: 1, writeQueues: 1}\n  MfOnlyA:")
    p, report, sent = apply(pair.src.ns_addr, shrunk)
    assert {c.name for c in p.blocked} == {"MfOrders"} and all(
        "--allow-shrink" in (c.blocked or "") for c in p.blocked
    )
    assert report.done == [] and report.failed is None and writes(sent) == {}
    assert any(c.name == "MfGrow" for c in plan(pair.src.ns_addr, shrunk).changes)  # not created either

    p, report, _ = apply(pair.src.ns_addr, shrunk, allow_shrink=True)
    assert report.failed is None and {c.name for c in report.done} == {"MfOrders", "MfGrow"}
    _, report, _ = apply(pair.src.ns_addr, SEED, allow_shrink=True, prune=True)
    assert report.failed is None


def test_prune_is_needed_to_delete(pair: Pair) -> None:
    _seeded(pair)
    _, report, _ = apply(pair.src.ns_addr, SEED.replace("groups:\n", "  MfDoomed: {}\ngroups:\n"))
    assert report.failed is None
    p, report, sent = apply(pair.src.ns_addr, SEED)
    assert p.changes == [] and writes(sent) == {}
    assert {"topic MfDoomed on broker-a", "topic MfDoomed on broker-b"} <= set(p.unmanaged)

    p, report, sent = apply(pair.src.ns_addr, SEED, prune=True)
    assert report.failed is None
    deleted = {(c.kind, c.name, c.broker) for c in report.done}
    assert deleted == {
        ("topic", "MfDoomed", "broker-a"),
        ("topic", "MfDoomed", "broker-b"),
        ("topic", "MfDoomed", None),
    }
    assert plan(pair.src.ns_addr, SEED, prune=True).changes == []


def test_a_refusal_mid_apply_reports_what_was_and_was_not_done(pair: Pair) -> None:
    _seeded(pair)
    text = SEED.replace("topics:\n", "topics:\n  MfFirst: {}\n  TBW102: {perm: 6}\n").replace(
        "groups:\n", "groups:\n  MfLater: {}\n"
    )
    p, report, _ = apply(pair.src.ns_addr, text, include_system=True)
    assert report.failed is not None
    assert (report.failed.kind, report.failed.name, report.failed.broker) == ("topic", "TBW102", "broker-a")
    assert [(c.name, c.broker) for c in report.done] == [("MfFirst", "broker-a")]
    assert ("MfLater", "broker-a") in [(c.name, c.broker) for c in report.not_done]
    assert len(report.done) + 1 + len(report.not_done) == len(p.changes)
    left = {(c.name, c.broker) for c in plan(pair.src.ns_addr, text, include_system=True).changes}
    assert ("MfFirst", "broker-a") not in left and ("MfFirst", "broker-b") in left  # done stays done


def test_a_broker_the_cluster_lacks_is_refused_before_anything_is_sent(pair: Pair) -> None:
    from mqadmin.manifest.plan import PlanError

    for body in ("  MfX: {brokers: [broker-z]}\n", "  MfX:\n    perBroker: {broker-z: {readQueues: 2}}\n"):
        with pytest.raises(
            PlanError, match="names broker broker-z, which cluster DefaultCluster does not have"
        ):
            plan(pair.src.ns_addr, HEAD + "topics:\n" + body)
