"""ACL 2.0 commands of the Java 5.3.3 tool: createUser, updateUser, deleteUser, getUser, listUser,
copyUser, createAcl, updateAcl, deleteAcl, getAcl, listAcl and copyAcl.

Text output is the 5.3.3 tool's: ``create user to ADDR success.`` per broker, the user and ACL
tables (``%-16s  %-22s ...``, lists as Java's ``List.toString``), ``copy user of NAME from A to B
success.``. ``-c`` asks the cluster's brokers at once (a change goes to every master and slave, a
read to the masters, as Java); a broker that fails is reported on stderr and the exit code is 6
when others answered. A user or policy the broker would refuse or silently change (an unknown
action, user type or decision, a bad resource or address) is refused before any request (exit 2).
Where Java prints nothing (getUser of an unknown user, a list with nothing in it on every broker)
we print nothing too; getUser then exits 1 with a line on stderr.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat

if TYPE_CHECKING:
    from mqadmin.protocol.bodies.auth import AclInfo, UserInfo

COMMANDS: dict[str, Any] = {}

USER_FORMAT = "%-16s  %-22s  %-22s  %-22s%n"
ACL_FORMAT = "%-16s  %-10s  %-22s  %-20s  %-24s  %-10s%n"

_TARGETS_DOC = '"brokers": [{"addr": str, "ok": bool, "error": str?}], "errors": [...]?'
_USER_DOC = '{"username": str, "password": str, "userType": str, "userStatus": str}'
_ACL_DOC = (
    '{"subject": str, "policies": [{"policyType": str, "entries": [{"resource": str, '
    '"actions": [str], "sourceIps": [str]|null, "decision": str}]}]}'
)


def _targets_opts(what: str, verb: str) -> list[JavaOpt]:
    """The required ``-c | -b`` group, in the order the Java command adds it."""
    return [
        JavaOpt(
            "c",
            "clusterName",
            f"{verb} {what} to which cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt(
            "b",
            "brokerAddr",
            f"{verb} {what} to which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
    ]


def _trim(value: str | None) -> str | None:
    """``StringUtils.trim``."""
    return None if value is None else value.strip()


def _split(value: str | None) -> list[str] | None:
    """``StringUtils.split(value, ',')`` then trim: empty pieces go."""
    if value is None:
        return None
    return [p.strip() for p in value.split(",") if p]


def _java_list(items: list[str] | None) -> str:
    """``List.toString``: ``[a, b]``, or ``null``."""
    return "null" if items is None else "[" + ", ".join(items) + "]"


async def _all_members(inv: Invocation, broker_addr: str | None, cluster_name: str | None) -> list[str]:
    """``-b``, or every master and slave of the ``-c`` cluster (``fetchMasterAndSlaveAddrByClusterName``)."""
    if broker_addr is not None:
        return [broker_addr.strip()]
    return await inv.admin.fetch_master_and_slave_addrs((cluster_name or "").strip())


async def _masters(inv: Invocation, cluster_name: str, command: str) -> list[str]:
    """The masters of the ``-c`` cluster; none is Java's "there is no broker in cluster."."""
    addrs = await inv.admin.fetch_master_addrs(cluster_name.strip())
    if not addrs:
        raise CommandError(f"{command} command failed, there is no broker in cluster.")
    return addrs


async def _change(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    call: Any,
    line: str,
    data: dict[str, Any],
) -> None:
    """One change on the broker or on every member of the cluster; ``line % addr`` per success."""
    addrs = await _all_members(inv, broker_addr, cluster_name)
    done, rows = await inv.on_each(addrs, call)
    data["brokers"] = rows
    inv.out.emit(inv.add_errors(data), lambda: "".join(line % a for a in addrs if a in done))


def _user_rows(users: list[UserInfo]) -> str:
    head = jformat(USER_FORMAT, "#UserName", "#Password", "#UserType", "#UserStatus")
    return head + "".join(
        jformat(USER_FORMAT, u.username, u.password, u.user_type, u.user_status) for u in users
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
                        _java_list(e.actions),
                        _java_list(e.source_ips),
                        e.decision,
                    )
                )
    return "".join(out)


def _emit_users(inv: Invocation, addr: str, users: list[UserInfo], tail: str, one: bool = False) -> None:
    text = _user_rows(users) + tail if users else ""
    data = (
        {"addr": addr, "user": users[0].as_json()}
        if one
        else {"addr": addr, "users": [u.as_json() for u in users]}
    )
    inv.out.emit(data, lambda: text)


# ------------------------------------------------------------------------------------------- users


@java_command(
    "createUser",
    "Create user to cluster.",
    [
        *_targets_opts("user", "create"),
        JavaOpt("u", "username", "the username of user to create.", required=True),
        JavaOpt("p", "password", "the password of user to create", required=True),
        JavaOpt("t", "userType", "the userType of user to create", dest="user_type"),
    ],
    fanout=True,
    json_doc=f'{{"username": str, {_TARGETS_DOC}}}',
)
async def create_user(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    username: str,
    password: str,
    user_type: str | None,
) -> None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import UserInfo

    user = check_user(UserInfo(_trim(username), _trim(password), _trim(user_type)), creating=True)
    await _change(
        inv,
        broker_addr,
        cluster_name,
        lambda a: inv.admin.create_user(a, user),
        "create user to %s success.\n",
        {"username": user.username},
    )


@java_command(
    "updateUser",
    "Update user to cluster.",
    [
        *_targets_opts("user", "update"),
        JavaOpt("u", "username", "the username of user to update.", required=True),
        JavaOpt("p", "password", "the password of user to update", group="change", group_required=True),
        JavaOpt(
            "t",
            "userType",
            "the userType of user to update",
            group="change",
            group_required=True,
            dest="user_type",
        ),
        JavaOpt(
            "s",
            "userStatus",
            "the userStatus of user to update",
            group="change",
            group_required=True,
            dest="user_status",
        ),
    ],
    fanout=True,
    json_doc=f'{{"username": str, {_TARGETS_DOC}}}',
)
async def update_user(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    username: str,
    password: str | None,
    user_type: str | None,
    user_status: str | None,
) -> None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import UserInfo

    info = UserInfo(_trim(username), _trim(password), _trim(user_type), _trim(user_status))
    user = check_user(info, creating=False)
    await _change(
        inv,
        broker_addr,
        cluster_name,
        lambda a: inv.admin.update_user(a, user),
        "update user to %s success.\n",
        {"username": user.username},
    )


@java_command(
    "deleteUser",
    "Delete user from cluster.",
    [
        JavaOpt(
            "c",
            "clusterName",
            "delete acl from which cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt(
            "b",
            "brokerAddr",
            "delete user from which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt("u", "username", "the username of user to delete.", required=True),
    ],
    fanout=True,
    json_doc=f'{{"username": str, {_TARGETS_DOC}}}',
)
async def delete_user(
    inv: Invocation, cluster_name: str | None, broker_addr: str | None, username: str
) -> None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import UserInfo

    name = check_user(UserInfo(_trim(username)), creating=False).username or ""
    await _change(
        inv,
        broker_addr,
        cluster_name,
        lambda a: inv.admin.delete_user(a, name),
        "delete user to %s success.\n",
        {"username": name},
    )


@java_command(
    "getUser",
    "Get user from cluster.",
    [
        JavaOpt(
            "b",
            "brokerAddr",
            "get user for which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt(
            "c",
            "clusterName",
            "get user for specified cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt("u", "username", "the username of user to get"),
    ],
    json_doc=f'{{"addr": str, "user": {_USER_DOC}}} (a user no broker has: exit 1)',
)
async def get_user(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, username: str | None
) -> None:
    name = _trim(username)
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await _masters(inv, cluster_name or "", "GetUserSubCommand")
    for addr in addrs:  # one by one, as Java: the first broker that has the user answers
        user = await inv.admin.get_user(addr, name)
        if user is not None:
            _emit_users(inv, addr, [user], "", one=True)
            return
    where = addrs[0] if len(addrs) == 1 else f"the {len(addrs)} masters of the cluster"
    raise CommandError(f"no user {name} on {where}")


@java_command(
    "listUser",
    "List user from cluster.",
    [
        JavaOpt(
            "b",
            "brokerAddr",
            "list user for which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt(
            "c",
            "clusterName",
            "list user for specified cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt("f", "filter", "the filter to list users", dest="name_filter"),
    ],
    json_doc=f'{{"addr": str|null, "users": [{_USER_DOC}]}} (-c: the first master that has users)',
)
async def list_user(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, name_filter: str | None
) -> None:
    filt = _trim(name_filter)
    if broker_addr is not None:
        addr = broker_addr.strip()
        _emit_users(inv, addr, await inv.admin.list_user(addr, filt), "")
        return
    for addr in await _masters(inv, cluster_name or "", "ListUserSubCommand"):
        users = await inv.admin.list_user(addr, filt)
        if users:
            _emit_users(inv, addr, users, f"get user from {addr} success.\n")
            return
    inv.out.emit({"addr": None, "users": []}, lambda: "")


@java_command(
    "copyUser",
    "Copy user to cluster.",
    [
        JavaOpt(
            "f", "fromBroker", "the source broker that the users copy from", required=True, dest="from_broker"
        ),
        JavaOpt("t", "toBroker", "the target broker that the users copy to", required=True, dest="to_broker"),
        JavaOpt("u", "usernames", "the username list of user to copy."),
    ],
    json_doc='{"from": str, "to": str, "users": [{"username": str, "action": "created"|"updated"}]}',
)
async def copy_user(inv: Invocation, from_broker: str, to_broker: str, usernames: str | None) -> None:
    source, target = from_broker.strip(), to_broker.strip()
    admin = inv.admin
    names = _split(_trim(usernames))
    if names:
        found = [await admin.get_user(source, n) for n in names]
        users = [u for u in found if u is not None]
    else:
        users = await admin.list_user(source, None)
    copied: list[dict[str, str]] = []
    for user in users:
        if await admin.get_user(target, user.username) is None:
            await admin.create_user(target, user)
            action = "created"
        else:
            await admin.update_user(target, user)
            action = "updated"
        copied.append({"username": user.username or "", "action": action})
        inv.out.text(f"copy user of {user.username} from {source} to {target} success.\n")
    if inv.out.structured:
        inv.out.data({"from": source, "to": target, "users": copied})


# ------------------------------------------------------------------------------------------- ACLs


def _policy_opts(verb: str) -> list[JavaOpt]:
    return [
        JavaOpt("s", "subject", f"the subject of acl to {verb}.", required=True),
        JavaOpt("r", "resources", f"the resources of acl to {verb}", required=True),
        JavaOpt("a", "actions", f"the actions of acl to {verb}", required=True),
    ]


async def _put_acl(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    subject: str,
    resources: str,
    actions: str,
    source_ip: str | None,
    decision: str,
    verb: str,
) -> None:
    from mqadmin.admin.auth import check_acl

    acl = check_acl(
        _trim(subject) or "",
        _split(resources) or [],
        _split(actions) or [],
        _split(source_ip),
        _trim(decision) or "",
    )
    admin = inv.admin
    call = admin.create_acl if verb == "create" else admin.update_acl
    await _change(
        inv,
        broker_addr,
        cluster_name,
        lambda a: call(a, acl),
        f"{verb} acl to %s success.\n",
        {"subject": acl.subject},
    )


@java_command(
    "createAcl",
    "Create acl to cluster.",
    [
        *_targets_opts("acl", "create"),
        *_policy_opts("create"),
        JavaOpt("i", "sourceIp", "the sourceIps of acl to create", dest="source_ip"),
        JavaOpt("d", "decision", "the decision of acl to create", required=True),
    ],
    fanout=True,
    json_doc=f'{{"subject": str, {_TARGETS_DOC}}}',
)
async def create_acl(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    subject: str,
    resources: str,
    actions: str,
    source_ip: str | None,
    decision: str,
) -> None:
    await _put_acl(inv, cluster_name, broker_addr, subject, resources, actions, source_ip, decision, "create")


@java_command(
    "updateAcl",
    "Update acl to cluster.",
    [
        *_targets_opts("acl", "update"),
        *_policy_opts("update"),
        JavaOpt("d", "decision", "the decision of acl to update", required=True),
        JavaOpt("i", "sourceIp", "the sourceIps of acl to update", dest="source_ip"),
    ],
    fanout=True,
    json_doc=f'{{"subject": str, {_TARGETS_DOC}}}',
)
async def update_acl(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    subject: str,
    resources: str,
    actions: str,
    decision: str,
    source_ip: str | None,
) -> None:
    await _put_acl(inv, cluster_name, broker_addr, subject, resources, actions, source_ip, decision, "update")


@java_command(
    "deleteAcl",
    "Delete acl from cluster.",
    [
        JavaOpt(
            "c",
            "clusterName",
            "delete acl from which cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt(
            "b",
            "brokerAddr",
            "delete acl from which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt("s", "subject", "the subject of acl to delete.", required=True),
        JavaOpt("r", "resources", "the resources of acl to delete"),
    ],
    fanout=True,
    json_doc=f'{{"subject": str, "resource": str|null, {_TARGETS_DOC}}}',
)
async def delete_acl(
    inv: Invocation, cluster_name: str | None, broker_addr: str | None, subject: str, resources: str | None
) -> None:
    from mqadmin.admin.auth import check_resource, check_subject

    subj = check_subject(_trim(subject))
    resource = _trim(resources)
    if resource is not None:
        check_resource(resource)
    await _change(
        inv,
        broker_addr,
        cluster_name,
        lambda a: inv.admin.delete_acl(a, subj, resource),
        "delete acl to %s success.\n",
        {"subject": subj, "resource": resource},
    )


async def _read_acls(inv: Invocation, addrs: list[str], call: Any, key: str, one: bool) -> None:
    """getAcl/listAcl: every master asked at once, printed in Java's order."""
    found, rows = await inv.on_each(addrs, call)
    text: list[str] = []
    for row in rows:
        addr = row["addr"]
        if addr not in found:
            continue
        value = found[addr]
        acls = ([] if value is None else [value]) if one else value
        row[key] = (value.as_json() if value is not None else None) if one else [a.as_json() for a in acls]
        if acls:
            text.append(_acl_rows(acls))
    inv.out.emit(inv.add_errors({"brokers": rows}), lambda: "".join(text))


@java_command(
    "getAcl",
    "Get acl from cluster.",
    [
        JavaOpt(
            "b",
            "brokerAddr",
            "get acl for which broker",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt(
            "c",
            "clusterName",
            "get acl for specified cluster",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
        JavaOpt("s", "subject", "the subject of acl to get"),
    ],
    fanout=True,
    json_doc=f'{{"brokers": [{{"addr": str, "ok": bool, "acl": {_ACL_DOC}|null, "error": str?}}], '
    '"errors": [...]?}',
)
async def get_acl(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, subject: str | None
) -> None:
    from mqadmin.admin.auth import check_subject

    subj = check_subject(_trim(subject))
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await _masters(inv, cluster_name or "", "GetAclSubCommand")
    await _read_acls(inv, addrs, lambda a: inv.admin.get_acl(a, subj), "acl", one=True)


@java_command(
    "listAcl",
    "List acl from cluster.",
    [
        JavaOpt(
            "b",
            "brokerAddr",
            "list acl for which broker.",
            group="target",
            group_required=True,
            dest="broker_addr",
        ),
        JavaOpt(
            "c",
            "clusterName",
            "list acl for specified cluster.",
            group="target",
            group_required=True,
            dest="cluster_name",
        ),
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
    subj, res = _trim(subject), _trim(resource)
    if broker_addr is not None:
        addrs = [broker_addr.strip()]
    else:
        addrs = await _masters(inv, cluster_name or "", "ListAclSubCommand")
    await _read_acls(inv, addrs, lambda a: inv.admin.list_acl(a, subj, res), "acls", one=False)


@java_command(
    "copyAcl",
    "Copy acl to cluster.",
    [
        JavaOpt(
            "f", "fromBroker", "the source broker that the acls copy from", required=True, dest="from_broker"
        ),
        JavaOpt("t", "toBroker", "the target broker that the acls copy to", required=True, dest="to_broker"),
        JavaOpt("s", "subjects", "the subject list of acl to copy."),
    ],
    json_doc='{"from": str, "to": str, "acls": [{"subject": str, "action": "created"|"updated"}]}',
)
async def copy_acl(inv: Invocation, from_broker: str, to_broker: str, subjects: str | None) -> None:
    source, target = from_broker.strip(), to_broker.strip()
    admin = inv.admin
    wanted = _split(_trim(subjects))
    if wanted:
        found = [await admin.get_acl(source, s) for s in wanted]
        acls = [a for a in found if a is not None]
    else:
        acls = await admin.list_acl(source, None, None)
    copied: list[dict[str, str]] = []
    for acl in acls:
        if await admin.get_acl(target, acl.subject) is None:
            await admin.create_acl(target, acl)
            action = "created"
        else:
            await admin.update_acl(target, acl)
            action = "updated"
        copied.append({"subject": acl.subject or "", "action": action})
        inv.out.text(f"copy acl of {acl.subject} from {source} to {target} success.\n")
    if inv.out.structured:
        inv.out.data({"from": source, "to": target, "acls": copied})


for _cmd in (
    create_user,
    update_user,
    delete_user,
    get_user,
    list_user,
    copy_user,
    create_acl,
    update_acl,
    delete_acl,
    get_acl,
    list_acl,
    copy_acl,
):
    COMMANDS[_cmd.name or ""] = _cmd
