"""The ``rocketmq`` source and sink on a broker with ACL 1.0 (``aclEnable=true``, a ``plain_acl.yml``).

With the account's ``accessKey``/``secretKey`` every request is signed: the sink sends where the
account may publish and the stream reads where it may subscribe. A wrong secret, or no keys at all,
is refused by the broker, and the refusal reaches the user.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mqadmin.admin.settings import Credentials
from mqadmin.admin.signing import AclSigner
from mqadmin.protocol.command import RemotingCommand
from tests.broker.peers import call, create_topic_fields
from tests.servers import BrokerProcess, NameServerProcess

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

ADMIN = Credentials("SparkAdmin1", "SparkAdminSK")
USER = Credentials("SparkUser01", "SparkUserSK1")
PLAIN_ACL = f"""\
accounts:
  - accessKey: {ADMIN.access_key}
    secretKey: {ADMIN.secret_key}
    admin: true
  - accessKey: {USER.access_key}
    secretKey: {USER.secret_key}
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - AclIn=PUB|SUB
      - AclOut=PUB
"""


@dataclass
class Secured:
    namesrv: str
    work: Path


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    work = tmp_path_factory.mktemp("stream-acl")
    home = work / "home"
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "plain_acl.yml").write_text(PLAIN_ACL)
    ns = NameServerProcess(work / "ns")
    broker = None
    try:
        broker = BrokerProcess(work / "broker", ns.addr, aclEnable="true", rocketmqHome=home)
        for topic in ("AclIn", "AclOut"):
            cmd = RemotingCommand.request(
                17, create_topic_fields(topic, readQueueNums="2", writeQueueNums="2")
            )
            AclSigner(ADMIN)(cmd)
            resp = call(broker.addr, cmd)
            assert resp.code == 0, resp.remark
        yield Secured(ns.addr, work)
    finally:
        if broker is not None:
            broker.stop()
        ns.stop()


def keys(who: Credentials) -> dict[str, str]:
    return {"accessKey": who.access_key, "secretKey": who.secret_key}


def write(spark: SparkSession, s: Secured, topic: str, count: int, **options: str) -> None:
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    df = spark.createDataFrame([(f"acl{i}",) for i in range(count)], "body string")
    w = df.write.format("rocketmq").option("namesrv", s.namesrv).option("topic", topic).mode("append")
    for k, v in options.items():
        w = w.option(k, v)
    w.save()


def stream(spark: SparkSession, s: Secured, name: str, **options: str) -> list[dict[str, Any]]:
    reader = spark.readStream.format("rocketmq").option("namesrv", s.namesrv).option("topics", "AclIn")
    for k, v in options.items():
        reader = reader.option(k, v)
    q = (
        reader.option("startingOffsets", "earliest").load()
        .writeStream.format("parquet").option("path", str(s.work / name))
        .option("checkpointLocation", str(s.work / f"{name}-ck")).trigger(availableNow=True).start()
    )  # fmt: skip
    q.awaitTermination(180)
    return [r.asDict() for r in spark.read.parquet(str(s.work / name)).collect()]


def test_signed_sink_and_stream(spark: SparkSession, secured: Secured) -> None:
    write(spark, secured, "AclIn", 30, **keys(USER))
    rows = stream(spark, secured, "signed", **keys(USER))
    assert sorted(r["body"].decode() for r in rows) == sorted(f"acl{i}" for i in range(30))


def test_wrong_secret_and_no_keys_are_refused(spark: SparkSession, secured: Secured) -> None:
    wrong = {"accessKey": USER.access_key, "secretKey": "not-the-secret"}
    with pytest.raises(Exception) as e:
        write(spark, secured, "AclOut", 3, **wrong)
    assert "Check signature failed" in str(e.value)
    with pytest.raises(Exception) as e:
        write(spark, secured, "AclOut", 3)
    assert "No accessKey is configured" in str(e.value)
    with pytest.raises(Exception) as e:
        stream(spark, secured, "unsigned")
    assert "No accessKey is configured" in str(e.value)


def test_a_topic_the_account_may_not_read(spark: SparkSession, secured: Secured) -> None:
    write(spark, secured, "AclOut", 5, **keys(USER))  # PUB only
    from mqadmin.pipeline.stream.datasource import register

    register(spark)
    with pytest.raises(Exception) as e:
        q = (
            spark.readStream.format("rocketmq").option("namesrv", secured.namesrv).option("topics", "AclOut")
            .options(**keys(USER)).option("startingOffsets", "earliest").load()
            .writeStream.format("noop").option("checkpointLocation", str(secured.work / "denied-ck"))
            .trigger(availableNow=True).start()
        )  # fmt: skip
        q.awaitTermination(180)
    assert "No permission" in str(e.value) or "permission" in str(e.value).lower()
