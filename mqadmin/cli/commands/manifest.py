"""A cluster as code: ``mqadmin manifest``, ``mqadmin diff -f`` and ``mqadmin apply -f``.

``manifest`` prints a cluster as a manifest (YAML; ``--json`` the same document as JSON). ``diff``
says what an apply of the files would change, per cluster, broker and resource, and exits 0 when the
cluster matches, 1 when it drifts (as ``kubectl diff``). ``apply`` shows that plan, asks on a
terminal (``--yes`` does not), and makes the changes in a safe order, stopping at the first refusal.
The files are read and checked whole (schema, names, secrets) before anything is sent; a refused one
is one line naming the file, the line and why (exit 2). The work is :mod:`mqadmin.manifest`'s; this
module reads the options and prints.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mqadmin.cli.command import java_command
from mqadmin.cli.errors import CommandError, describe, usage_error
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.invocation import Invocation
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.results import Result
from mqadmin.manifest.apply import ApplyReport
from mqadmin.manifest.model import ClusterManifest
from mqadmin.manifest.plan import Plan

_CLUSTER = JavaOpt("c", "clusterName", "the cluster (the manifest's own when left out)", dest="cluster")
_FILES = click.Option(
    ["-f", "--filename", "files"],
    multiple=True,
    required=True,
    metavar="PATH",
    help="A manifest file, or a folder (every .yaml/.yml file in it); several -f are read together.",
)
_PRUNE = click.Option(
    ["--prune"], is_flag=True, help="Delete what the cluster has and the manifests do not name."
)
_SYSTEM = click.Option(
    ["--include-system"], is_flag=True, help="Take the brokers' own topics and the system groups in too."
)


class ManifestDoc(Result):
    """``mqadmin manifest``: the manifest itself (YAML as text, the same document with --json)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc

    def text(self) -> str:
        from mqadmin.manifest.export import to_yaml

        return to_yaml([self.doc])

    def data(self) -> dict[str, Any]:
        return self.doc


class DiffResult(Result):
    """``mqadmin diff``: each cluster's plan; ``drift`` when any has a change."""

    def __init__(self, plans: list[Plan]) -> None:
        self.plans = plans

    @property
    def drift(self) -> bool:
        return any(p.changes for p in self.plans)

    def text(self) -> str:
        return "".join(p.text() for p in self.plans)

    def data(self) -> dict[str, Any]:
        return {"drift": self.drift, "clusters": [p.as_json() for p in self.plans]}


class ApplyResult(Result):
    """``mqadmin apply``: per cluster, its plan and what was done of it."""

    def __init__(self, plans: list[Plan], reports: list[ApplyReport], inv: Invocation, dry_run: bool) -> None:
        self.plans = plans
        self.reports = reports
        self.inv = inv
        self.dry_run = dry_run

    def _error(self, e: BaseException | None) -> str | None:
        return None if e is None else describe(e, self.inv.settings_if_resolved).message

    def text(self) -> str:
        out: list[str] = []
        for i, plan in enumerate(self.plans):
            out.append(plan.text())
            if self.dry_run:
                out.append("  dry run, nothing changed\n")
                continue
            if not self.reports:
                out.append("  nothing changed: the plans have refused changes\n")
                continue
            if i >= len(self.reports):
                out.append("  not applied (an earlier cluster failed)\n")
                continue
            r = self.reports[i]
            out += [f"  done: {c.line()}\n" for c in r.done]
            if r.failed is not None:
                out.append(f"  FAILED: {r.failed.line()}: {self._error(r.error)}\n")
                out += [f"  not done: {c.line()}\n" for c in r.not_done]
            out.append(f"  {len(r.done)} of {len(plan.changes)} change(s) made\n")
        return "".join(out)

    def data(self) -> dict[str, Any]:
        clusters = []
        for i, plan in enumerate(self.plans):
            item = plan.as_json()
            if not self.dry_run and i < len(self.reports):
                item["applied"] = self.reports[i].as_json(self._error)
            clusters.append(item)
        return {"dryRun": self.dry_run, "clusters": clusters}


# ---------------------------------------------------------------------------------------- reading


def _load(files: tuple[str, ...], cluster: str | None) -> list[ClusterManifest]:
    """The manifests, checked whole; refused ones are a usage error (exit 2, nothing sent)."""
    from mqadmin.manifest.loader import ManifestError, load_manifests
    from mqadmin.manifest.schema import SchemaError

    try:
        manifests = load_manifests(files)
    except (ManifestError, SchemaError) as e:
        raise usage_error(str(e)) from None
    if not manifests:
        raise usage_error(f"{', '.join(files)}: no manifest document in it")
    if cluster is not None:
        if len(manifests) > 1:
            raise usage_error(f"-c {cluster}: the files declare {len(manifests)} clusters; -c takes one")
        manifests[0].cluster = cluster
    return manifests


async def _plans(inv: Invocation, manifests: list[ClusterManifest], **flags: Any) -> list[Plan]:
    from mqadmin.manifest.plan import PlanError, make_plan
    from mqadmin.manifest.state import read_state

    creds = inv.settings.credentials
    keep = frozenset({creds.access_key}) if creds is not None else frozenset()
    plans = []
    for m in manifests:
        auth = bool(m.users or m.acls) or flags["prune"]
        acl1 = m.acl1_white is not None or bool(m.acl1_accounts) or flags["prune"]
        state = await read_state(inv.admin, m.cluster, config=bool(m.broker_config), auth=auth, acl1=acl1)
        try:
            plans.append(make_plan(m, state, keep_users=keep, **flags))
        except PlanError as e:
            raise usage_error(str(e)) from None
    return plans


# --------------------------------------------------------------------------------------- commands


@java_command(
    "manifest",
    [_CLUSTER],
    json_doc="the manifest itself (mqadmin schema manifest)",
    own=[
        _SYSTEM,
        click.Option(
            ["--config-key", "config_keys"],
            multiple=True,
            metavar="KEY",
            help="A broker config key to write under brokerConfig (repeat for more).",
        ),
    ],
)
async def manifest(
    inv: Invocation, cluster: str | None, include_system: bool, config_keys: tuple[str, ...]
) -> None:
    from mqadmin.manifest.export import manifest_document
    from mqadmin.manifest.state import read_state

    if cluster is None:
        info = await inv.admin.namesrv.examine_broker_cluster_info()
        names = sorted(info.cluster_addr_table or {})
        if len(names) != 1:
            raise usage_error(f"-c is needed: the name server has {len(names)} clusters ({', '.join(names)})")
        cluster = names[0]
    state = await read_state(inv.admin, cluster, config=bool(config_keys), auth=True, acl1=True)
    inv.out.emit(
        ManifestDoc(manifest_document(state, include_system=include_system, config_keys=config_keys))
    )


@java_command(
    "diff",
    [_CLUSTER],
    json_doc='{"drift": bool, "clusters": [{"cluster": str, "mode": str, "brokerNames": [str], '
    '"changes": [...], "cannotCarryOver": [str], "unmanaged": [str]}]}',
    epilog="Exit 0: the cluster matches; 1: it drifts (the changes are printed).",
    own=[_FILES, _PRUNE, _SYSTEM],
)
async def diff(
    inv: Invocation, cluster: str | None, files: tuple[str, ...], prune: bool, include_system: bool
) -> int:
    manifests = _load(files, cluster)
    # a shrink is shown as apply sees it: refused without --allow-shrink
    result = DiffResult(
        await _plans(inv, manifests, prune=prune, allow_shrink=False, include_system=include_system)
    )
    inv.out.emit(result)
    return ExitCode.ERROR if result.drift else ExitCode.OK


@java_command(
    "apply",
    [_CLUSTER],
    json_doc='{"dryRun": bool, "clusters": [{"cluster": str, ..., "changes": [...], '
    '"applied": {"done": [...], "failed": {...} | null, "notDone": [...]}}]}',
    own=[
        _FILES,
        _PRUNE,
        click.Option(
            ["--allow-shrink"],
            is_flag=True,
            help="Let a topic lose queues (the messages on them are stranded).",
        ),
        _SYSTEM,
        click.Option(
            ["--yes"], is_flag=True, help="Do not ask on a terminal (without one, apply never asks)."
        ),
        click.Option(["--dry-run"], is_flag=True, help="Show the plan; change nothing."),
    ],
)
async def apply(
    inv: Invocation,
    cluster: str | None,
    files: tuple[str, ...],
    prune: bool,
    allow_shrink: bool,
    include_system: bool,
    yes: bool,
    dry_run: bool,
) -> int:
    from mqadmin.manifest.apply import apply_plan

    manifests = _load(files, cluster)
    plans = await _plans(
        inv, manifests, prune=prune, allow_shrink=allow_shrink, include_system=include_system
    )
    if dry_run:
        inv.out.emit(ApplyResult(plans, [], inv, True))
        return ExitCode.OK
    blocked = [c for p in plans for c in p.blocked]
    if blocked:  # nothing is sent: the plan is shown with its refused changes
        inv.out.emit(ApplyResult(plans, [], inv, False))
        inv.say(f"nothing changed: {len(blocked)} change(s) refused ({blocked[0].line()})")
        return ExitCode.ERROR
    if any(p.changes for p in plans):
        _confirm(plans, yes)
    reports: list[ApplyReport] = []
    for plan in plans:
        report = await apply_plan(inv.admin, plan)
        reports.append(report)
        if report.failed is not None:
            break
    inv.out.emit(ApplyResult(plans, reports, inv, False))
    last = reports[-1] if reports else None
    if last is not None and last.failed is not None and last.error is not None:
        rep = describe(last.error, inv.settings_if_resolved)
        inv.say(f"stopped at {last.failed.line()}: {rep.message}")
        return rep.exit_code
    return ExitCode.OK


def _confirm(plans: list[Plan], yes: bool) -> None:
    from mqadmin.cli.safety import on_terminal

    if yes or not on_terminal():
        return
    click.echo("".join(p.text() for p in plans), err=True, nl=False)
    try:
        agreed = click.confirm("Apply these changes?", default=False, err=True)
    except click.Abort:
        agreed = False
    if not agreed:
        raise CommandError("nothing was changed (not confirmed; --yes skips the question)", ExitCode.ERROR)
    sys.stderr.flush()
