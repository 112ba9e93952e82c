"""``mqadmin snapshot``: record every cluster's offsets, consumer progress and broker stats, per run.

Each run is collected by :mod:`mqadmin.pipeline.collector` through a
:class:`~mqadmin.admin.api.MQAdmin` and written by :mod:`mqadmin.pipeline.writer`; one
summary line per run goes to stdout, each missing broker or call to stderr. Needs pyarrow, not Spark.

A name no request may carry (a group named ``""`` on a Java broker) is skipped, as Java's tools skip
it: one note per name on stderr and in the run's manifest (``<out>/_manifests/...``), and the run
still exits 0 when nothing else was missed.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Any

import click

from mqadmin.admin.settings import AdminSettings
from mqadmin.pipeline.clitools import (
    EXIT_INTERRUPTED,
    EXIT_PARTIAL,
    EXIT_TIMEOUT,
    EXIT_UNREACHABLE,
    INSTALL_HINT,
    SettingsResolver,
    default_settings,
    fail,
    first_line,
)
from mqadmin.pipeline.structured import document_format, epoch_ms, print_document, structured_options

if TYPE_CHECKING:
    from mqadmin.pipeline.collector import Snapshot

__all__ = ["snapshot_cmd", "snapshot_command"]


def _summary(snap: Snapshot, where: str) -> str:
    missing = len(snap.missing_brokers)
    brokers = f"{snap.brokers} brokers" + (f" ({missing} missing)" if missing else "")
    return (
        f"{snap.run_time.strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3]}Z  {brokers}  "
        f"queues {len(snap.queue_offsets)}  group rows {len(snap.group_offsets)}  "
        f"stats {len(snap.broker_stats)}  missing {len(snap.missing)}  skipped {len(snap.skipped)}  "
        f"{snap.elapsed:.2f}s  -> {where}"
    )


def _document(snap: Snapshot, where: str) -> dict[str, Any]:
    """One run as a document (``--json``/``--output``): the summary line's figures, every miss."""
    return {
        "runTime": epoch_ms(snap.run_time),
        "out": where,
        "brokers": snap.brokers,
        "missingBrokers": snap.missing_brokers,
        "queueOffsets": len(snap.queue_offsets),
        "groupOffsets": len(snap.group_offsets),
        "brokerStats": len(snap.broker_stats),
        "missing": [
            {
                "what": r["what"],
                "target": r["target"],
                "broker": r["broker"],
                "brokerAddr": r["broker_addr"],
                "error": r["error"],
            }
            for r in snap.missing
        ],
        "skipped": [
            {
                "what": r["what"],
                "target": r["target"],
                "broker": r["broker"],
                "brokerAddr": r["broker_addr"],
                "reason": r["reason"],
            }
            for r in snap.skipped
        ],
        "elapsedMs": round(snap.elapsed * 1000),
    }


_MAX_WARNINGS = 20


def _warn_missing(snap: Snapshot) -> None:
    """One stderr line per missing broker or call (the first few; then how many more)."""
    for r in snap.missing[:_MAX_WARNINGS]:
        where = r["broker"] or "name server"
        if r["broker_addr"]:
            where += f" ({r['broker_addr']})"
        what = r["what"] + (f" {r['target']}" if r["target"] else "")
        click.echo(f"mqadmin snapshot: missing {what} from {where}: {r['error']}", err=True)
    if len(snap.missing) > _MAX_WARNINGS:
        more = len(snap.missing) - _MAX_WARNINGS
        click.echo(f"mqadmin snapshot: ... and {more} more (see the missing table)", err=True)


def _note_skipped(snap: Snapshot) -> None:
    """One stderr line per name skipped on purpose (the first few; the manifest has them all)."""
    for r in snap.skipped[:_MAX_WARNINGS]:
        where = r["broker"] or "name server"
        click.echo(
            f"mqadmin snapshot: note: skipped {r['what']} {r['target']!r} of {where}: {r['reason']}", err=True
        )
    if len(snap.skipped) > _MAX_WARNINGS:
        more = len(snap.skipped) - _MAX_WARNINGS
        click.echo(f"mqadmin snapshot: ... and {more} more skipped (see the run's manifest)", err=True)


def _write(out: str, snap: Snapshot) -> None:
    """The run's tables, then its manifest (the run document, naming the table files)."""
    from mqadmin.pipeline.layout import new_run_id
    from mqadmin.pipeline.writer import write_manifest, write_run

    run_id = new_run_id()
    files = write_run(out, snap.run_time, snap.tables(), run_id)
    doc = {**_document(snap, out), "runId": run_id, "files": {t: str(p) for t, p in files.items()}}
    write_manifest(out, snap.run_time, run_id, doc)


async def _snapshots(
    settings: AdminSettings,
    out: str,
    interval: float,
    count: int,
    deadline: float,
    concurrency: int,
    document: str | None = None,
) -> int:
    from mqadmin.admin.api import MQAdmin
    from mqadmin.pipeline.collector import AdminSource, CollectorError, collect_snapshot

    loop = asyncio.get_running_loop()
    worst = 0
    started = loop.time()
    i = 0
    async with MQAdmin(settings) as admin:
        while count <= 0 or i < count:
            if i:
                await asyncio.sleep(max(0.0, started + i * interval - loop.time()))
            i += 1
            try:
                snap = await collect_snapshot(AdminSource(admin), deadline=deadline, concurrency=concurrency)
            except CollectorError as e:
                click.echo(f"mqadmin snapshot: {e}", err=True)
                worst = max(worst, EXIT_TIMEOUT if e.timed_out else EXIT_UNREACHABLE)
                continue
            await asyncio.to_thread(_write, out, snap)
            if document is None:
                click.echo(_summary(snap, out))
            else:
                print_document(document, _document(snap, out), compact=count != 1)
            if snap.skipped:
                _note_skipped(snap)
            if snap.missing:
                _warn_missing(snap)
                worst = max(worst, EXIT_PARTIAL)
    return worst


def snapshot_command(resolve: SettingsResolver | None = None) -> click.Command:
    """The ``snapshot`` command; ``resolve`` turns ``-n``/``--timeout`` into settings (contexts, ACL, TLS)."""
    resolver = resolve or default_settings

    @click.command(
        "snapshot",
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog="With --json or --output json|yaml (here or before the command), one document per run "
        "instead of its line (one line each when --count is not 1): {runTime (epoch ms), out, brokers, "
        "missingBrokers, queueOffsets, groupOffsets, brokerStats (row counts), missing [{what, target, "
        "broker, brokerAddr, error}], skipped [{what, target, broker, brokerAddr, reason}] (names no "
        'request may carry, such as a group named "" that a Java broker keeps: not asked about, as '
        "Java's tools do not ask; not a failure), elapsedMs}. Each run also leaves that document, with "
        "its runId and files, as <out>/_manifests/date=DAY/run-STAMP-ID.json.",
    )
    @click.option(
        "--out", "out", required=True, metavar="DIR", help="Snapshot root directory (created if needed)."
    )
    @click.option(
        "--interval",
        type=click.FloatRange(min=0.0),
        default=60.0,
        show_default=True,
        metavar="S",
        help="Seconds between the starts of two runs.",
    )
    @click.option(
        "--count",
        type=click.IntRange(min=0),
        default=1,
        show_default=True,
        metavar="N",
        help="Number of runs; 0 runs until interrupted.",
    )
    @click.option(
        "-n",
        "--namesrvAddr",
        "namesrv",
        metavar="ADDRS",
        help="Name servers, host:port;host:port (default NAMESRV_ADDR, else 127.0.0.1:9876).",
    )
    @click.option(
        "--timeout",
        type=click.FloatRange(min=0.001),
        metavar="SECONDS",
        help="Seconds each request may take (default 5).",
    )
    @click.option(
        "--deadline",
        type=click.FloatRange(min=0.001),
        metavar="SECONDS",
        help="Seconds a whole run may take; what is not answered by then is recorded as missing "
        "(default: the smaller of the interval and 30, at least 3 x --timeout).",
    )
    @click.option(
        "--concurrency",
        type=click.IntRange(min=1),
        default=32,
        show_default=True,
        help="Requests in flight at once.",
    )
    @structured_options
    def snapshot_cmd(
        out: str,
        interval: float,
        count: int,
        namesrv: str | None,
        timeout: float | None,
        deadline: float | None,
        concurrency: int,
        json_output: bool,
        output: str | None,
    ) -> None:
        """Record offsets, consumer progress and broker stats of every cluster as Parquet, per run."""
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            fail("mqadmin snapshot", f"pyarrow is not installed. Install it with: {INSTALL_HINT}")
        if count == 0 and interval <= 0:
            raise click.UsageError("--count 0 (run until interrupted) needs an --interval above 0")
        try:
            settings = resolver(namesrv, timeout)
        except Exception as e:
            fail("mqadmin snapshot", first_line(e), exc=e)
        document = document_format(json_output, output)
        if deadline is None:
            deadline = max(min(interval, 30.0) if interval > 0 else 30.0, 3 * settings.timeout)
        try:
            rc = asyncio.run(_snapshots(settings, out, interval, count, deadline, concurrency, document))
        except KeyboardInterrupt:
            fail("mqadmin snapshot", "interrupted", EXIT_INTERRUPTED)
        except OSError as e:
            fail("mqadmin snapshot", f"cannot write under {out}: {first_line(e)}", exc=e)
        sys.exit(rc)

    return snapshot_cmd


snapshot_cmd = snapshot_command()
