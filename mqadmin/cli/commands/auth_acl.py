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
from mqadmin.cli.plannedchange import planned_change
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
from mqadmin.protocol.bodies.auth import AclInfo, PolicyEntryInfo

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
    same checked policy, sent to the broker or every member of the cluster (the broker merges it into
    the subject's ACL either way: an entry for the same resource is replaced, others are added)."""
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
        epilog="--dry-run lists, per broker, each resource's entry as the subject's ACL has it and as it "
        "would be (with --json: dryRun, the acl sent and a plan of {role, addr, action, changes}). On a "
        "terminal the plan is shown and confirmed first (--yes does not ask).",
        own=safety_options(),
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
        dry_run: bool,
        yes: bool,
    ) -> None:
        from mqadmin.admin.auth import check_acl
        from mqadmin.protocol.bodies.auth import parse_subject

        acl = check_acl(
            trim(subject) or "",
            split_list(resources) or [],
            split_list(actions) or [],
            split_list(source_ip),
            trim(decision) or "",
        )
        subj = acl.subject or ""
        user = parse_subject(subj)
        auth = inv.admin.auth
        new = [e for p in acl.policies or [] for e in p.entries or []]

        async def look(addr: str) -> tuple[Any, AclInfo | None]:
            """The subject's user and ACL (the broker refuses to read the ACL of an unknown user)."""
            known = await auth.get_user(addr, user)
            return known, None if known is None else await auth.get_acl(addr, subj)

        def step(addr: str, found: tuple[Any, AclInfo | None]) -> Step:
            if found[0] is None:
                return Step(
                    "broker", addr, f"no user {user}, the broker refuses the ACL of {subj}", changes=False
                )
            if found[1] is None:
                return Step("broker", addr, f"create the ACL of {subj}: {_entries(None, new)}")
            return Step("broker", addr, f"{verb} the ACL of {subj}: {_entries(found[1], new)}")

        await planned_change(
            inv,
            await all_members(inv, broker_addr, cluster_name),
            look=look,
            step=step,
            what=f"{verb} the ACL of {subj}: {_entries(None, new)}",
            title=f"{verb} acl of [{subj}]",
            data={"subject": subj},
            planned={"acl": acl.as_json()},
            dry_run=dry_run,
            yes=yes,
            call=lambda a: (auth.create_acl if verb == "create" else auth.update_acl)(a, acl),
            line=f"{verb} acl to %s success.\n",
        )

    return command


def _entry_text(e: PolicyEntryInfo) -> str:
    """One entry as a plan shows it: ``[Pub, Sub] Allow``, ``from [10.0.0.0/8]`` when it has addresses."""
    from mqadmin.protocol.bodies.auth import ACTIONS, DECISIONS, by_name

    actions = [by_name(ACTIONS, a) or a for a in e.actions or []]
    ips = f" from {java_list_string(e.source_ips)}" if e.source_ips else ""
    return f"{java_list_string(actions)} {by_name(DECISIONS, e.decision) or e.decision}{ips}"


def _entries(old: AclInfo | None, new: list[PolicyEntryInfo]) -> str:
    """Each resource of ``new``: its entry in the ``old`` ACL's custom policy (None: no ACL), then the
    one it would be."""
    from mqadmin.protocol.bodies.auth import parse_resource

    kept = [
        e
        for p in (old.policies or [] if old is not None else [])
        if p.policy_type in (None, "Custom")
        for e in p.entries or []
    ]
    parts = []
    for e in new:
        key = parse_resource(e.resource)
        was = next((k for k in kept if k.resource == e.resource or parse_resource(k.resource) == key), None)
        if old is None:
            parts.append(f"{e.resource} {_entry_text(e)}")
        elif was is None:
            parts.append(f"{e.resource} (new) {_entry_text(e)}")
        elif _entry_text(was) == _entry_text(e):
            parts.append(f"{e.resource} {_entry_text(e)} (unchanged)")
        else:
            parts.append(f"{e.resource} {_entry_text(was)} -> {_entry_text(e)}")
    return "; ".join(parts)


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
    epilog="--dry-run lists each ACL that would be created or updated on the target (with --json: "
    "dryRun, the acls and a plan of {role, addr, action, changes}). On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def copy_acl(
    inv: Invocation, from_broker: str, to_broker: str, subjects: str | None, dry_run: bool, yes: bool
) -> None:
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
        dry_run=dry_run,
        yes=yes,
    )
