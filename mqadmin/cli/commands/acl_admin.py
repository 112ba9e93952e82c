"""ACL 1.0 commands of the Java 4.9.8 tool: updateAclConfig, deleteAclConfig, updateGlobalWhiteAddr and
clusterAclConfigVersion (gone from 5.3.3, which has ACL 2.0; 4.x and 5.0-5.2 brokers still answer
them).

Text output is the 4.9.8 tool's, with one exception: after updateAclConfig Java prints the
account object, which 4.9.8 cannot show (``PlainAccessConfig@1b2c3d``); we print it as the 5.x tool
does (``PlainAccessConfig{accessKey='...', ...}``, no secret key, no line end, as Java). ``-c`` asks
every member of the cluster at once; a broker that fails is reported on stderr (exit 6 when others
answered). Whether an account is valid is the broker's decision: a refusal comes back as one line
with its response code (209, 210, 211, or 16 when the caller is not an admin).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqadmin.admin.acl import AclConfig, ClusterAclVersionInfo
from mqadmin.cli.brokertargets import BROKERS_DOC, all_members, change_each, master_addrs, target_opts
from mqadmin.cli.command import Invocation, java_command
from mqadmin.cli.javaopts import JavaOpt
from mqadmin.cli.javatext import java_list_string, jformat, jstr
from mqadmin.cli.nameargs import strict_bool
from mqadmin.cli.plannedchange import MASK, planned_change
from mqadmin.cli.results import Errors, Result, with_errors
from mqadmin.cli.safety import Step, confirm, safety_options, show_plan
from mqadmin.protocol.javacoll import java_hash_order


def _target_opts(broker_desc: str, cluster_desc: str) -> list[JavaOpt]:
    """The required ``-b | -c`` option group of every ACL command (``-b`` first)."""
    return target_opts(cluster_desc, broker_desc, broker_first=True)


def _split_option(text: str) -> list[str]:
    """``value.trim().split(",")`` of the Java tool."""
    from mqadmin.protocol.headers.acl import split_list

    return split_list(text.strip()) or []


def _shown_value(value: object) -> str:
    """A setting of an account as a plan shows it: lists and booleans as Java prints them."""
    if isinstance(value, list):
        return java_list_string(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


# ------------------------------------------------------------------------------------- updateAclConfig


@java_command(
    "updateAclConfig",
    [
        *_target_opts("update acl config file to which broker", "update acl config file to which cluster"),
        JavaOpt("a", "accessKey", "set accessKey in acl config file", required=True, dest="account_key"),
        JavaOpt("s", "secretKey", "set secretKey in acl config file", required=True, dest="account_secret"),
        JavaOpt(
            "w",
            "whiteRemoteAddress",
            "set white ip Address for account in acl config file",
            dest="white_remote_address",
        ),
        JavaOpt(
            "i", "defaultTopicPerm", "set default topicPerm in acl config file", dest="default_topic_perm"
        ),
        JavaOpt(
            "u", "defaultGroupPerm", "set default GroupPerm in acl config file", dest="default_group_perm"
        ),
        JavaOpt("t", "topicPerms", "set topicPerms list,eg: topicA=DENY,topicD=SUB", dest="topic_perms"),
        JavaOpt("g", "groupPerms", "set groupPerms list,eg: groupD=DENY,groupD=SUB", dest="group_perms"),
        JavaOpt("m", "admin", "set admin flag in acl config file"),
    ],
    fanout=True,
    json_doc='{"accessKey": str, "config": {"accessKey": str, "whiteRemoteAddress": str|null, "admin": bool, '
    '"defaultTopicPerm": str|null, "defaultGroupPerm": str|null, "topicPerms": [str]|null, '
    f'"groupPerms": [str]|null}}, {BROKERS_DOC}}} '
    "(the secret key is never shown)",
    epilog="--dry-run lists, per broker, whether the account would be created or updated there and "
    "with what (with --json: dryRun, the config and a plan of {role, addr, action, changes}); the secret "
    "key is shown as ******. On a terminal the plan is shown and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_acl_config(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    account_key: str,
    account_secret: str,
    white_remote_address: str | None,
    default_topic_perm: str | None,
    default_group_perm: str | None,
    topic_perms: str | None,
    group_perms: str | None,
    admin: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    from mqadmin.admin.acl import PlainAccessConfig

    cfg = PlainAccessConfig(
        access_key=account_key.strip(),
        secret_key=account_secret.strip(),
        white_remote_address=None if white_remote_address is None else white_remote_address.strip(),
        admin=False if admin is None else strict_bool(admin, "-m"),
        default_topic_perm=None if default_topic_perm is None else default_topic_perm.strip(),
        default_group_perm=None if default_group_perm is None else default_group_perm.strip(),
        topic_perms=None if topic_perms is None else _split_option(topic_perms),
        group_perms=None if group_perms is None else _split_option(group_perms),
    )
    shown = {
        "accessKey": cfg.access_key,
        "whiteRemoteAddress": cfg.white_remote_address,
        "admin": cfg.admin,
        "defaultTopicPerm": cfg.default_topic_perm,
        "defaultGroupPerm": cfg.default_group_perm,
        "topicPerms": cfg.topic_perms,
        "groupPerms": cfg.group_perms,
    }
    admin_api = inv.admin
    settings = ", ".join(
        [f"secretKey {MASK}"]
        + [f"{k} {_shown_value(v)}" for k, v in shown.items() if v is not None and k != "accessKey"]
    )
    key = cfg.access_key

    def step(addr: str, held: AclConfig) -> Step:
        there = any(a.access_key == key for a in held.plain_access_configs)
        return Step("broker", addr, f"{'update' if there else 'create'} the account {key}: {settings}")

    await planned_change(
        inv,
        await all_members(inv, broker_addr, cluster_name),
        look=admin_api.acl.examine_broker_cluster_acl_config,
        step=step,
        what=f"create or update the account {key}: {settings}",
        title=f"create or update acl config account [{key}]",
        data={"accessKey": key, "config": shown},
        dry_run=dry_run,
        yes=yes,
        call=lambda a: admin_api.acl.create_and_update_plain_access_config(a, cfg),
        line="create or update plain access config to %s success.\n",
        tail=(
            f"PlainAccessConfig{{accessKey='{cfg.access_key}', "
            f"whiteRemoteAddress='{jstr(cfg.white_remote_address)}', "
            f"admin={str(cfg.admin).lower()}, defaultTopicPerm='{jstr(cfg.default_topic_perm)}', "
            f"defaultGroupPerm='{jstr(cfg.default_group_perm)}', "
            f"topicPerms={java_list_string(cfg.topic_perms)}, "
            f"groupPerms={java_list_string(cfg.group_perms)}}}"
        ),
    )


# ------------------------------------------------------------------------------------- deleteAclConfig


@java_command(
    "deleteAclConfig",
    [
        *_target_opts(
            "delete acl config account from which broker", "delete acl config account from which cluster"
        ),
        JavaOpt(
            "a",
            "accessKey",
            "set accessKey in acl config file for deleting which account",
            required=True,
            dest="account_key",
        ),
    ],
    fanout=True,
    json_doc=f'{{"accessKey": str, {BROKERS_DOC}}}',
    epilog="--dry-run lists the brokers the account would be deleted from (with --json: dryRun and a "
    "plan of {role, addr, action, changes}), changing nothing. On a terminal the plan is shown and "
    "confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def delete_acl_config(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    account_key: str,
    dry_run: bool,
    yes: bool,
) -> None:
    key = account_key.strip()
    admin_api = inv.admin
    members = await all_members(inv, broker_addr, cluster_name)
    steps = [Step("broker", a, f"delete the account {key} from its plain_acl.yml") for a in members]
    title = f"delete acl config account [{key}]"
    if dry_run:
        show_plan(
            inv, title, steps, {"accessKey": key, "brokers": [{"addr": a, "ok": None} for a in members]}
        )
        return
    confirm(title, steps, yes)
    await change_each(
        inv,
        members,
        lambda a: admin_api.acl.delete_plain_access_config(a, key),
        "delete plain access config account from %s success.\n",
        {"accessKey": key},
        tail=f"account's accesskey is:{key}",
    )


# ------------------------------------------------------------------------------------- updateGlobalWhiteAddr


@java_command(
    "updateGlobalWhiteAddr",
    [
        *_target_opts(
            "update global white address to which broker", "update global white address to which cluster"
        ),
        JavaOpt(
            "g",
            "globalWhiteRemoteAddresses",
            "set globalWhiteRemoteAddress list,eg: 10.10.103.*,192.168.0.*",
            required=True,
            dest="global_white_remote_addresses",
        ),
        JavaOpt(
            "p",
            "aclFileFullPath",
            "update global white address of specified acl file,eg: /xxx/plain_test.yml",
            dest="acl_file_full_path",
        ),
    ],
    fanout=True,
    json_doc=f'{{"globalWhiteRemoteAddresses": [str], "aclFileFullPath": str|null, {BROKERS_DOC}}}',
    epilog="--dry-run lists, per broker, the global white addresses it would have and those its ACL files "
    "have now "
    "(with --json: dryRun and a plan of {role, addr, action, changes}). On a terminal the plan is shown "
    "and confirmed first (--yes does not ask).",
    own=safety_options(),
)
async def update_global_white_addr(
    inv: Invocation,
    broker_addr: str | None,
    cluster_name: str | None,
    global_white_remote_addresses: str,
    acl_file_full_path: str | None,
    dry_run: bool,
    yes: bool,
) -> None:
    addrs_text = global_white_remote_addresses.strip()
    path = None if acl_file_full_path is None else acl_file_full_path.strip()
    wanted = _split_option(addrs_text)
    where = "" if path is None else f" of {path}"
    what = f"set the global white addresses{where} to {java_list_string(wanted)}"

    def step(addr: str, held: AclConfig) -> Step:
        # the broker reports the addresses of all its ACL files together, so the plan says both
        now = java_list_string(held.global_white_addrs)
        return Step("broker", addr, f"{what} (all its ACL files have {now} now)")

    admin_api = inv.admin
    await planned_change(
        inv,
        await all_members(inv, broker_addr, cluster_name),
        look=admin_api.acl.examine_broker_cluster_acl_config,
        step=step,
        what=what,
        title=f"update global white addresses{where}",
        data={"globalWhiteRemoteAddresses": wanted, "aclFileFullPath": path},
        dry_run=dry_run,
        yes=yes,
        call=lambda a: admin_api.acl.update_global_white_addr_config(a, addrs_text, path),
        line="update global white remote addresses to %s success.\n",
    )


# ---------------------------------------------------------------------------------- clusterAclConfigVersion

_VERSION_ROW = "%-16s  %-22s  %-22s  %-20s  %-22s  %-22s%n"


@java_command(
    "clusterAclConfigVersion",
    _target_opts(
        "query acl config version for which broker", "query acl config version for specified cluster"
    ),
    fanout=True,
    json_doc='{"brokers": [{"addr": str, "ok": true, "clusterName": str, "brokerName": str, '
    '"brokerAddr": str, "files": [{"path": str, "counter": int, "timestamp": int}]} | '
    '{"addr": str, "ok": false, "error": str}], "errors": [...]?}',
)
async def cluster_acl_config_version(
    inv: Invocation, broker_addr: str | None, cluster_name: str | None
) -> None:
    admin_api = inv.admin
    addrs = await master_addrs(inv, broker_addr, cluster_name)
    infos, rows = await inv.on_each(addrs, admin_api.acl.examine_broker_cluster_acl_version_info)
    inv.out.emit(AclVersions(rows, infos, broker_addr is not None, inv.error_list()))


@dataclass(slots=True, frozen=True)
class AclVersions(Result):
    """clusterAclConfigVersion: each master's ACL files with their version (``infos``: by address, of
    the masters that answered); ``one`` for ``-b``, which Java prints without the header."""

    brokers: list[dict[str, Any]]
    infos: dict[str, ClusterAclVersionInfo]
    one: bool
    errors: Errors

    def text(self) -> str:
        from mqadmin.cli.javatime import format_date

        lines: list[str] = []
        if not self.one:
            head = ("#Cluster Name", "#Broker Name", "#Broker Addr", "#AclFilePath", "#AclConfigVersionNum")
            lines.append(jformat(_VERSION_ROW, *head, "#AclLastUpdateTime"))
        for info in (self.infos[r["addr"]] for r in self.brokers if r["addr"] in self.infos):
            files = info.all_acl_config_data_version
            for p in java_hash_order(list(files)):  # the Java tool reads them into a HashMap
                who = (info.cluster_name, info.broker_name, info.broker_addr)
                lines.append(
                    jformat(_VERSION_ROW, *who, p, str(files[p].counter), format_date(files[p].timestamp))
                )
        if self.infos or not self.brokers:
            which = "broker's" if self.one else "cluster's"
            lines.append(f"get {which} plain access config version success.\n")
        return "".join(lines)

    def data(self) -> dict[str, Any]:
        rows = []
        for row in self.brokers:
            info = self.infos.get(row["addr"])
            if info is not None:
                files = [
                    {"path": p, "counter": v.counter, "timestamp": v.timestamp}
                    for p, v in info.all_acl_config_data_version.items()
                ]
                who = {"clusterName": info.cluster_name, "brokerName": info.broker_name}
                row = {**row, **who, "brokerAddr": info.broker_addr, "files": files}
            rows.append(row)
        return with_errors({"brokers": rows}, self.errors)
