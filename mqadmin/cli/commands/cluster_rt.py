"""clusterRT: the send RT of every broker of each cluster, round after round, as the Java 5.3.3 tool
prints it (a table, or with ``-p true`` the tlog lines ``time|room|cluster|broker|rt``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError, usage_error
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import java_f, jformat
from mqadmin.cli.javatime import millis_group, now_ms
from mqadmin.cli.optvalues import parse_long
from mqadmin.protocol.javanum import parse_bool
from mqadmin.protocol.message import Message


def _gmt8_now() -> str:
    return (datetime.now(UTC) + timedelta(hours=8)).strftime("%Y-%m-%d %H:%M:%S")


@java_command(
    "clusterRT",
    [
        JavaOpt("a", "amount", "message amount | default 100"),
        JavaOpt("s", "size", "message size | default 128 Byte"),
        JavaOpt("c", "cluster", "cluster name | default display all cluster"),
        JavaOpt("p", "print log", "print as tlog | default false", dest="print_log"),
        JavaOpt("m", "machine room", "machine room name | default noname", dest="machine_room"),
        JavaOpt("i", "interval", "print interval | default 10 seconds"),
    ],
    json_doc='one compact document per line and round: {"round": int, "brokers": [{"cluster": str, '
    '"brokerName": str, "rtMs": float|null, "successCount": int, "failCount": int}]}',
    blocking=False,  # rounds every -i seconds until stopped
)
async def cluster_rt(
    inv: Invocation,
    amount: str | None,
    size: str | None,
    cluster: str | None,
    print_log: str | None,
    machine_room: str | None,
    interval: str | None,
) -> None:
    from mqadmin.admin.producer import Producer
    from mqadmin.protocol.javacoll import java_hash_order

    n = parse_long(amount, "-a", 100, terse=True)
    length = parse_long(size, "-s", 128, terse=True)
    period = parse_long(interval, "-i", 10, terse=True)
    if length < 0 or period < 0:
        raise usage_error("-s and -i take numbers of 0 or more")
    tlog = print_log is not None and parse_bool(print_log.strip())
    room = machine_room.strip() if machine_room is not None else "noname"
    admin = inv.admin
    info = await admin.namesrv.examine_broker_cluster_info()
    table = info.cluster_addr_table or {}
    names = [cluster.strip()] if cluster is not None else java_hash_order(list(table))
    for name in names:
        if name not in table:
            raise CommandError(f"cluster [{name}] not exist")
    producer = Producer(admin, millis_group())
    out = inv.out
    if not tlog:
        out.text(jformat("%-24s  %-24s  %-4s  %-8s  %-8s%n", "#Cluster Name", "#Broker Name", "#RT",
                         "#successCount", "#failCount"))  # fmt: skip
    rounds = 0
    while True:
        rounds += 1
        rows: list[dict[str, Any]] = []
        for name in names:
            for broker in java_hash_order(table[name]):
                msg = Message(topic=broker, body=b"a" * length)
                msg.wait_store_msg_ok = True
                ok = failed = 0
                elapsed = 0
                for i in range(n):
                    start = now_ms()
                    try:
                        await producer.send(msg)
                        ok += 1
                    except Exception:
                        failed += 1
                    if i != 0:
                        elapsed += now_ms() - start
                rt = elapsed / (n - 1) if n != 1 else float("nan")
                rows.append(
                    {"cluster": name, "brokerName": broker, "rtMs": None if n <= 1 else round(rt, 2),
                     "successCount": ok, "failCount": failed}
                )  # fmt: skip
                if out.structured:
                    continue
                if not tlog:
                    out.text(
                        jformat("%-24s  %-24s  %-8s  %-16s  %-16s%n", name, broker, java_f(rt, 2), ok, failed)
                    )
                elif rt != rt:  # NaN: Java's BigDecimal fails here
                    raise usage_error("-p true needs -a of 2 or more (the RT of one send is not defined)")
                else:
                    rounded = Decimal(rt).quantize(Decimal(1), ROUND_HALF_UP)
                    out.text(f"{_gmt8_now()}|{room}|{name}|{broker}|{rounded}\n")
        if out.structured:
            out.data({"round": rounds, "brokers": rows}, compact=True)
            await inv.release_output()  # a round is written when it ends, its brokers named
        import asyncio  # clusterRT runs on the event loop (its declaration): the pause between rounds

        await asyncio.sleep(period)
