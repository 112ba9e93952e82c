"""ACL 2.0 policy commands of the Java 5.3.3 tool: createAcl, updateAcl, deleteAcl, getAcl, listAcl and
copyAcl (the user commands are in :mod:`.auth_admin`, what both share in :mod:`mqadmin.cli.authargs`).

Text output is the 5.3.3 tool's: ``create acl to ADDR success.`` per broker, the policy table
(``%-16s  %-10s  %-22s  %-20s  %-24s  %-10s``, one line per entry, lists as Java's ``List.toString``)
and ``copy acl of SUBJECT from A to B success.``. A policy the broker would refuse or silently change
(an unknown action or decision, a bad resource, subject or address) is refused before any request
(exit 2). getAcl and listAcl ask every master of a ``-c`` cluster at once; a subject without an ACL
prints nothing, as in Java, and getAcl then exits 1 with a line on stderr.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.cli.authargs import (
    change,
    copy_between,
    copy_doc,
    copy_opts,
    nowhere,
    read_addrs,
    read_opts,
    split_list,
    targets_opts,
    trim,
)
from mqadmin.cli.brokertargets import BROKERS_DOC, all_members, change_each, target_opts
from mqadmin.cli.command import CommandSpec, Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import java_list_string, jformat
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.cli.safety import (
    Step,
    confirm,
    failed,
    not_found,
    on_any,
    probe,
    safety_options,
    show_plan,
    unknown,
)
from mqadmin.protocol.bodies.auth import AclInfo

ACL_FORMAT = "%-16s  %-10s  %-22s  %-20s  %-24s  %-10s%n"

_ACL_DOC = (
    '{"subject": str, "policies": [{"policyType": str, "entries": [{"resource": str, '
    '"actions": [str], "sourceIps": [str]|null, "decision": str}]}]}'
)


def _acl_rows(acls: list[AclInfo]) -> str:
    """``printAcl``: one line per entry, the subject alone when it has no policy."""
    out = [jformat(ACL_FORMAT, "#Subject", "#PolicyType", "#Resource", "#Actions", "#SourceIp", "#Decision")]
    for acl in acls:
        if not acl.policies:
            out.append(jformat(ACL_FORMAT, acl.subject, "", "", "", "", ""))
            continue
        for p in acl.policies:
            for e in p.entries or []:
                out.append(
                    jformat(
                        ACL_FORMAT,
                        acl.subject,
                        p.policy_type,
                        e.resource,
                        java_list_string(e.actions),
                        java_list_string(e.source_ips),
                        e.decision,
                    )
                )
    return "".join(out)


# ------------------------------------------------------------------------------------------- ACLs


def _put_acl_command(verb: str, ip_first: bool) -> CommandSpec:
    """createAcl or updateAcl: the same options (``-i`` and ``-d`` in the Java command's order) and the
    same checked policy, sent to the broker or every member of the cluster."""
    source_ip = JavaOpt("i", "sourceIp", f"the sourceIps of acl to {verb}", dest="source_ip")
    decision = JavaOpt("d", "decision", f"the decision of acl to {verb}", required=True)

    @java_command(
        f"{verb}Acl",
        [
            *targets_opts("acl", verb),
            JavaOpt("s", "subject", f"the subject of acl to {verb}.", required=True),
            JavaOpt("r", "resources", f"the resources of acl to {verb}", required=True),
            JavaOpt("a", "actions", f"the actions of acl to {verb}", required=True),
            *((source_ip, decision) if ip_first else (decision, source_ip)),
        ],
        fanout=True,
        json_doc=f'{{"subject": str, {BROKERS_DOC}}}',
    )
    async def command(
        inv: Invocation,
        cluster_name: str | None,
        broker_addr: str | None,
        subject: str,
        resources: str,
        actions: str,
        source_ip: str | None,
        decision: str,
    ) -> None:
        from mqadmin.admin.auth import check_acl

        acl = check_acl(
            trim(subject) or "",
            split_list(resources) or [],
            split_list(actions) or [],
            split_list(source_ip),
            trim(decision) or "",
        )
        admin = inv.admin
        call = admin.auth.create_acl if verb == "create" else admin.auth.update_acl
        await change(
            inv,
            broker_addr,
            cluster_name,
            lambda a: call(a, acl),
            f"{verb} acl to %s success.\n",
            {"subject": acl.subject},
        )

    return command


create_acl = _put_acl_command("create", ip_first=True)
update_acl = _put_acl_command("update", ip_first=False)


@java_command(
    "deleteAcl",
    [
        *target_opts("delete acl from which cluster", "delete acl from which broker"),
        JavaOpt("s", "subject", "the subject of acl to delete.", required=True),
        JavaOpt("r", "resources", "the resources of acl to delete"),
    ],
    fanout=True,
    json_doc=f'{{"subject": str, "resource": str|null, {BROKERS_DOC}}}',
    epilog="An ACL (or a resource in it) that none of the brokers has exits 7: the broker refuses the "
    "first, the second is sent as the Java tool does (its lines are printed). --dry-run lists, per "
    "broker, what would be deleted (with --json: dryRun, exists and a plan of {role, addr, action, "
    "changes}). On a terminal the plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def delete_acl(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    subject: str,
    resources: str | None,
    dry_run: bool,
    yes: bool,
) -> ExitCode | None:
    from mqadmin.admin.auth import check_resource, check_subject

    subj = check_subject(trim(subject))
    resource = trim(resources)
    if resource is not None:
        check_resource(resource)
    addrs = await all_members(inv, broker_addr, cluster_name)
    acls = await probe(inv, addrs, lambda a: inv.admin.auth.get_acl(a, subj))
    steps = [_delete_acl_step(inv, a, acl, subj, resource) for a, acl in acls.items()]
    known = [s for s in steps if not failed(acls[s.addr])]
    exists = True if any(s.changes for s in known) else None if len(known) < len(steps) else False
    title = f"delete acl of [{subj}]" + (f" for [{resource}]" if resource else "")
    what = f"ACL of {subj}" + (f" for {resource}" if resource else "")
    missing = f"no {what} on {on_any(addrs)}"
    if dry_run:
        rows = [{"addr": a, "ok": None} for a in addrs]
        doc = {"subject": subj, "resource": resource, "exists": exists, "brokers": rows}
        show_plan(inv, title, steps, doc)
        return not_found(inv, missing) if exists is False else None
    if exists is not False:
        confirm(title, steps, yes)
    await change_each(
        inv,
        addrs,
        lambda a: inv.admin.auth.delete_acl(a, subj, resource),
        "delete acl to %s success.\n",
        {"subject": subj, "resource": resource},
    )
    return not_found(inv, missing) if exists is False and not inv.failures else None


def _delete_acl_step(inv: Invocation, addr: str, acl: Any, subject: str, resource: str | None) -> Step:
    """What deleteAcl would do on one broker (``acl``: its ACL of the subject, None, or a failure)."""
    if failed(acl):
        return Step("broker", addr, unknown(inv, acl))
    if acl is None:
        return Step("broker", addr, f"no ACL of {subject}, nothing to delete", changes=False)
    entries = [e for p in acl.policies or [] for e in p.entries or []]
    if resource is None:
        return Step("broker", addr, f"delete the ACL of {subject} ({len(entries)} resource(s))")
    from mqadmin.protocol.bodies.auth import parse_resource

    wanted = parse_resource(resource)
    if any(e.resource == resource or parse_resource(e.resource or "") == wanted for e in entries):
        return Step("broker", addr, f"delete {resource} from the ACL of {subject}")
    return Step(
        "broker", addr, f"{resource} is not in the ACL of {subject}, nothing to delete", changes=False
    )


async def _read_acls(inv: Invocation, addrs: list[str], call: Any, key: str, one: bool) -> None:
    """getAcl/listAcl: every master asked at once, printed in Java's order."""
    found, rows = await inv.on_each(addrs, call)
    if one and found and not inv.failures and all(v is None for v in found.values()):
        # Java prints nothing; exit 1 says so
        raise CommandError(f"no ACL of that subject on {nowhere(addrs)}")
    inv.out.emit(BrokerAcls(rows, found, key, one, inv.error_list()))


@dataclass(slots=True, frozen=True)
class BrokerAcls(Result):
    """getAcl (``one``: an ACL or None per broker) and listAcl (a list per broker): each broker's row
    carries what it answered under ``key``; the text is Java's table per broker that had any."""

    brokers: list[dict[str, Any]]
    found: dict[str, Any]
    key: str
    one: bool
    errors: Errors

    def _acls(self, addr: str) -> list[Any]:
        value = self.found[addr]
        return ([] if value is None else [value]) if self.one else list(value)

    def text(self) -> str:
        tables = (self._acls(r["addr"]) for r in self.brokers if r["addr"] in self.found)
        return "".join(_acl_rows(acls) for acls in tables if acls)

    def data(self) -> dict[str, Any]:
        rows = []
        for row in self.brokers:
            if row["addr"] in self.found:
                acls = [a.as_json() for a in self._acls(row["addr"])]
                row = {**row, self.key: (acls[0] if acls else None) if self.one else acls}
            rows.append(row)
        return with_errors({"brokers": rows}, self.errors)


@java_command(
    "getAcl",
    [
        *read_opts("acl", "get"),
        JavaOpt("s", "subject", "the subject of acl to get"),
    ],
    fanout=True,
    json_doc=f'{{"brokers": [{{"addr": str, "ok": bool, "acl": {_ACL_DOC}|null, "error": str?}}], '
    '"errors": [...]?} (no broker has an ACL of the subject: exit 1)',
)
async def get_acl(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, subject: str | None
) -> None:
    from mqadmin.admin.auth import check_subject

    subj = check_subject(trim(subject))
    addrs = await read_addrs(inv, broker_addr, cluster_name, "GetAclSubCommand")
    await _read_acls(inv, addrs, lambda a: inv.admin.auth.get_acl(a, subj), "acl", one=True)


@java_command(
    "listAcl",
    [
        *read_opts("acl", "list", end="."),
        JavaOpt("s", "subject", "the subject of acl to filter."),
        JavaOpt("r", "resource", "the resource of acl to filter."),
    ],
    fanout=True,
    json_doc=f'{{"brokers": [{{"addr": str, "ok": bool, "acls": [{_ACL_DOC}], "error": str?}}], '
    '"errors": [...]?}',
)
async def list_acl(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    subject: str | None,
    resource: str | None,
) -> None:
    subj, res = trim(subject), trim(resource)
    addrs = await read_addrs(inv, broker_addr, cluster_name, "ListAclSubCommand")
    await _read_acls(inv, addrs, lambda a: inv.admin.auth.list_acl(a, subj, res), "acls", one=False)


@java_command(
    "copyAcl",
    copy_opts("acl", JavaOpt("s", "subjects", "the subject list of acl to copy.")),
    json_doc=copy_doc("acl", "subject"),
)
async def copy_acl(inv: Invocation, from_broker: str, to_broker: str, subjects: str | None) -> None:
    admin = inv.admin
    await copy_between(
        inv,
        from_broker,
        to_broker,
        subjects,
        list_all=lambda addr: admin.auth.list_acl(addr, None, None),
        get=admin.auth.get_acl,
        create=admin.auth.create_acl,
        update=admin.auth.update_acl,
        name_of=lambda acl: acl.subject,
        what="acl",
        key="subject",
    )
