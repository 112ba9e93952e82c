"""ACL 2.0 user commands of the Java 5.3.3 tool: createUser, updateUser, deleteUser, getUser, listUser
and copyUser (the policy commands are in :mod:`.auth_acl`, what both share in :mod:`mqadmin.cli.authargs`).

Text output is the 5.3.3 tool's: ``create user to ADDR success.`` per broker, the user table
(``%-16s  %-22s  %-22s  %-22s``), ``copy user of NAME from A to B success.``. ``-c`` asks the
cluster's brokers at once (a change goes to every master and slave, a read to the masters, as Java);
a broker that fails is reported on stderr and the exit code is 6 when others answered. A user the
broker would refuse or silently change (a blank name or password, an unknown user type or status)
is refused before any request (exit 2). Where Java prints nothing (getUser of an unknown user, a
list with nothing in it) we print nothing too; getUser then exits 1 with a line on stderr.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mqadmin.cli.authargs import (
    copy_between,
    copy_doc,
    copy_opts,
    masters,
    nowhere,
    read_addrs,
    read_opts,
    targets_opts,
    trim,
)
from mqadmin.cli.brokertargets import BROKERS_DOC, all_members, change_each, target_opts
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.errors import CommandError
from mqadmin.cli.exitcodes import ExitCode
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import jformat
from mqadmin.cli.plannedchange import MASK, masked, planned_change
from mqadmin.cli.results import Result
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
from mqadmin.protocol.bodies.auth import UserInfo

USER_FORMAT = "%-16s  %-22s  %-22s  %-22s%n"
_USER_DOC = '{"username": str, "password": str, "userType": str, "userStatus": str}'


def _user_rows(users: list[UserInfo]) -> str:
    head = jformat(USER_FORMAT, "#UserName", "#Password", "#UserType", "#UserStatus")
    return head + "".join(
        jformat(USER_FORMAT, u.username, u.password, u.user_type, u.user_status) for u in users
    )


@dataclass(slots=True, frozen=True)
class Users(Result):
    """getUser (``one``) and listUser: the users of the broker at ``addr`` (None: no master had any),
    and the line Java prints after them."""

    addr: str | None
    users: list[UserInfo]
    tail: str = ""
    one: bool = False

    def text(self) -> str:
        return _user_rows(self.users) + self.tail if self.users else ""

    def data(self) -> dict[str, Any]:
        if self.one:
            return {"addr": self.addr, "user": self.users[0].as_json()}
        return {"addr": self.addr, "users": [u.as_json() for u in self.users]}


# ------------------------------------------------------------------------------------------- users


_COPY_EPILOG = (
    "--dry-run lists each user that would be created or updated on the target (with --json: dryRun, "
    "the users and a plan of {role, addr, action, changes}); no password is shown. On a terminal the "
    "plan is shown and confirmed first (--yes does not ask)."
)
_PUT_EPILOG = (
    "--dry-run lists, per broker, what the {verb} would do there from the user the broker has (with "
    "--json: dryRun, the user and a plan of {{role, addr, action, changes}}); the password is shown as "
    "******. On a terminal the plan is shown and confirmed first (--yes does not ask)."
)


def _shown(user: UserInfo) -> dict[str, Any]:
    """The user a plan names, its password masked."""
    return {**user.as_json(), "password": masked(user.password)}


@java_command(
    "createUser",
    [
        *targets_opts("user", "create"),
        JavaOpt("u", "username", "the username of user to create.", required=True),
        JavaOpt("p", "password", "the password of user to create", required=True),
        JavaOpt("t", "userType", "the userType of user to create", dest="user_type"),
    ],
    fanout=True,
    json_doc=f'{{"username": str, {BROKERS_DOC}}}',
    epilog=_PUT_EPILOG.format(verb="create"),
    own=safety_options(),
)
async def create_user(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    username: str,
    password: str,
    user_type: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import USER_TYPES, UserInfo, by_name

    user = check_user(UserInfo(trim(username), trim(password), trim(user_type)), creating=True)
    name = user.username or ""
    what = f"create user {name} ({by_name(USER_TYPES, user.user_type) or 'Normal'}, password {MASK})"

    def step(addr: str, old: UserInfo | None) -> Step:
        if old is None:
            return Step("broker", addr, what)
        return Step(
            "broker", addr, f"user {name} is there already, the broker refuses to create it", changes=False
        )

    await _put_user(inv, "create", user, what, step, broker_addr, cluster_name, dry_run, yes)


@java_command(
    "updateUser",
    [
        *targets_opts("user", "update"),
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
    json_doc=f'{{"username": str, {BROKERS_DOC}}}',
    epilog=_PUT_EPILOG.format(verb="update"),
    own=safety_options(),
)
async def update_user(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    username: str,
    password: str | None,
    user_type: str | None,
    user_status: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import UserInfo

    info = UserInfo(trim(username), trim(password), trim(user_type), trim(user_status))
    user = check_user(info, creating=False)
    name = user.username or ""
    what = f"update user {name} ({', '.join(_user_changes(None, user))})"

    def step(addr: str, old: UserInfo | None) -> Step:
        if old is None:
            return Step("broker", addr, f"no user {name}, the broker refuses to update it", changes=False)
        return Step("broker", addr, f"update user {name}: {', '.join(_user_changes(old, user))}")

    await _put_user(inv, "update", user, what, step, broker_addr, cluster_name, dry_run, yes)


async def _put_user(
    inv: Invocation,
    verb: str,
    user: UserInfo,
    what: str,
    step: Callable[[str, UserInfo | None], Step],
    broker_addr: str | None,
    cluster_name: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    """createUser and updateUser (``verb``): one plan from the user each broker holds, one send."""
    auth = inv.admin.auth
    name = user.username or ""
    send = auth.create_user if verb == "create" else auth.update_user
    await planned_change(
        inv,
        await all_members(inv, broker_addr, cluster_name),
        look=lambda a: auth.get_user(a, name),
        step=step,
        what=what,
        title=f"{verb} user [{name}]",
        data={"username": name},
        planned={"user": _shown(user)},
        dry_run=dry_run,
        yes=yes,
        call=lambda a: send(a, user),
        line=f"{verb} user to %s success.\n",
    )


def _user_changes(old: UserInfo | None, new: UserInfo) -> list[str]:
    """What an update changes in the user ``old`` (None: not known), the password never shown; a
    blank password is no change (the broker keeps the old one)."""
    from mqadmin.protocol.bodies.auth import USER_STATUSES, USER_TYPES, by_name

    out = [f"password -> {MASK}"] if new.password else []
    for key, table, was, given in (
        ("userType", USER_TYPES, None if old is None else old.user_type, new.user_type),
        ("userStatus", USER_STATUSES, None if old is None else old.user_status, new.user_status),
    ):
        value = by_name(table, given)
        if value is None:
            continue
        if old is None:
            out.append(f"{key} {value}")
        else:
            out.append(f"{key} {was} (unchanged)" if was == value else f"{key} {was} -> {value}")
    return out or ["nothing: a blank password is no change"]


@java_command(
    "deleteUser",
    [
        *target_opts("delete acl from which cluster", "delete user from which broker"),  # Java's words
        JavaOpt("u", "username", "the username of user to delete.", required=True),
    ],
    fanout=True,
    json_doc=f'{{"username": str, {BROKERS_DOC}}}',
    epilog="A user that none of the brokers has is deleted as the Java tool does (its lines are printed), "
    "and the exit code is 7. --dry-run lists, per broker, whether the user is there (with --json: "
    "dryRun, exists and a plan of {role, addr, action, changes}). On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def delete_user(
    inv: Invocation,
    cluster_name: str | None,
    broker_addr: str | None,
    username: str,
    dry_run: bool,
    yes: bool,
) -> ExitCode | None:
    from mqadmin.admin.auth import check_user
    from mqadmin.protocol.bodies.auth import UserInfo

    name = check_user(UserInfo(trim(username)), creating=False).username or ""
    addrs = await all_members(inv, broker_addr, cluster_name)
    users = await probe(inv, addrs, lambda a: inv.admin.auth.get_user(a, name))
    steps = [
        Step("broker", a, unknown(inv, u))
        if failed(u)
        else Step("broker", a, f"delete user {name} and its ACL")
        if u is not None
        else Step("broker", a, "not there, nothing to delete", changes=False)
        for a, u in users.items()
    ]
    known = [u for u in users.values() if not failed(u)]
    exists = True if any(u is not None for u in known) else None if len(known) < len(users) else False
    title = f"delete user [{name}]"
    missing = f"user {name} does not exist on {on_any(addrs)}"
    if dry_run:
        rows = [{"addr": a, "ok": None} for a in addrs]
        show_plan(inv, title, steps, {"username": name, "exists": exists, "brokers": rows})
        return not_found(inv, missing) if exists is False else None
    if exists is not False:
        confirm(title, steps, yes)
    await change_each(
        inv,
        addrs,
        lambda a: inv.admin.auth.delete_user(a, name),
        "delete user to %s success.\n",
        {"username": name},
    )
    return not_found(inv, missing) if exists is False and not inv.failures else None


@java_command(
    "getUser",
    [
        *read_opts("user", "get"),
        JavaOpt("u", "username", "the username of user to get"),
    ],
    json_doc=f'{{"addr": str, "user": {_USER_DOC}}} (a user no broker has: exit 1)',
)
async def get_user(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, username: str | None
) -> None:
    name = trim(username)
    addrs = await read_addrs(inv, broker_addr, cluster_name, "GetUserSubCommand")
    for addr in addrs:  # one by one, as Java: the first broker that has the user answers
        user = await inv.admin.auth.get_user(addr, name)
        if user is not None:
            inv.out.emit(Users(addr, [user], one=True))
            return
    raise CommandError(f"no user {name} on {nowhere(addrs)}")


@java_command(
    "listUser",
    [
        *read_opts("user", "list"),
        JavaOpt("f", "filter", "the filter to list users", dest="name_filter"),
    ],
    json_doc=f'{{"addr": str|null, "users": [{_USER_DOC}]}} (-c: the first master that has users)',
)
async def list_user(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None, name_filter: str | None
) -> None:
    filt = trim(name_filter)
    if broker_addr is not None:
        addr = broker_addr.strip()
        inv.out.emit(Users(addr, await inv.admin.auth.list_user(addr, filt)))
        return
    for addr in await masters(inv, cluster_name or "", "ListUserSubCommand"):
        users = await inv.admin.auth.list_user(addr, filt)
        if users:
            inv.out.emit(Users(addr, users, f"get user from {addr} success.\n"))
            return
    inv.out.emit(Users(None, []))


@java_command(
    "copyUser",
    copy_opts("user", JavaOpt("u", "usernames", "the username list of user to copy.")),
    json_doc=copy_doc("user", "username"),
    epilog=_COPY_EPILOG,
    own=safety_options(),
)
async def copy_user(
    inv: Invocation, from_broker: str, to_broker: str, usernames: str | None, dry_run: bool, yes: bool
) -> None:
    admin = inv.admin
    await copy_between(
        inv,
        from_broker,
        to_broker,
        usernames,
        list_all=lambda addr: admin.auth.list_user(addr, None),
        get=admin.auth.get_user,
        create=admin.auth.create_user,
        update=admin.auth.update_user,
        name_of=lambda user: user.username,
        what="user",
        key="username",
        dry_run=dry_run,
        yes=yes,
    )
