"""The access checks on our broker with ACL 1.0 on: the stock accounts (documented keys) are found, an
ACL file of one's own is not; a broker with ACL off beside it is found."""

from __future__ import annotations

from pathlib import Path

from tests.broker.test_acl import PLAIN_ACL, STOCK_PLAIN_ACL, start_acl_broker
from tests.doctor.support import Doctor, findings
from tests.servers import BrokerProcess, NameServerProcess


def test_documented_default_keys_and_acl_off_beside_acl_on(tmp_path: Path, doctor: Doctor) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    stock = start_acl_broker(tmp_path / "stock", ns.addr, STOCK_PLAIN_ACL)
    open_one: BrokerProcess | None = None
    try:
        keys = ("--access-key", "rocketmq2", "--secret-key", "12345678")  # the stock admin account
        code, doc = doctor.json(ns.addr, "--check", "default-keys", "--check", "acl-differs", *keys)
        assert code == 8, doc
        found = findings(doc, "default-keys")
        assert [(f["resource"], f["evidence"]["accessKey"]) for f in found] == [
            ("broker broker-a", "RocketMQ"),
            ("broker broker-a", "rocketmq2"),
        ]
        assert found[0]["command"] == f"mqadmin deleteAclConfig -b {stock.addr} -a RocketMQ"
        assert findings(doc, "acl-differs") == []
        open_one = BrokerProcess(tmp_path / "open", ns.addr, brokerName="broker-open")
        code, doc = doctor.json(ns.addr, "--check", "acl-differs", *keys)
        assert code == 8, doc
        (off,) = findings(doc, "acl-differs")
        assert off["resource"] == "broker broker-open" and off["evidence"]["aclOn"] == ["broker-a"]
    finally:
        for b in (open_one, stock):
            if b is not None:
                b.stop()
        ns.stop()


def test_an_acl_file_of_ones_own_has_no_default_keys(tmp_path: Path, doctor: Doctor) -> None:
    ns = NameServerProcess(tmp_path / "ns")
    broker = start_acl_broker(tmp_path / "own", ns.addr, PLAIN_ACL)
    try:
        keys = ("--access-key", "AdminAK01", "--secret-key", "AdminSK01")
        code, doc = doctor.json(ns.addr, "--check", "default-keys", *keys)
        assert (code, doc["findings"]) == (0, []), doc
        assert doc["checks"] == [
            {
                "check": "default-keys",
                "status": "ok",
                "findings": 0,
                "error": None,
                "durationMs": doc["checks"][0]["durationMs"],
            }
        ]
    finally:
        broker.stop()
        ns.stop()
