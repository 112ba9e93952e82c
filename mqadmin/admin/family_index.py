"""Which admin family defines each name, for :class:`mqadmin.admin.api.MQAdmin`'s lazy loading.

Generated from the class with every family (``python -m mqadmin.admin.family_index`` rewrites the
tables below; a test fails while they are stale). ``DEFINED_BY``: the family whose definition of a
name the full class uses. ``COMES_WITH``: the families to load with a family because they override
a name it has (without them, the loaded family's own definition would answer instead).
"""

from __future__ import annotations

from typing import Any

# fmt: off
# --- generated: start
DEFINED_BY: dict[str, str] = {
    "_all_broker_addrs": "mqadmin.admin.consumers:ConsumerOps",
    "_brokers_without_get_topic_config": "mqadmin.admin.topics:TopicAdminOps",
    "_cluster_names": "mqadmin.admin.brokers:BrokerAdminOps",
    "_consume_route": "mqadmin.admin.consumers:ConsumerOps",
    "_drop_topic_in_broker": "mqadmin.admin.groups:GroupOps",
    "_drop_topic_in_namesrv": "mqadmin.admin.groups:GroupOps",
    "_explain_empty": "mqadmin.admin.consumers:ConsumerOps",
    "_known_broker_addrs": "mqadmin.admin.messages:MessageOps",
    "_leader": "mqadmin.admin.controller:ControllerOps",
    "_mapping_details": "mqadmin.admin.consumers:ConsumerOps",
    "_merged_stats": "mqadmin.admin.topics:TopicAdminOps",
    "_queue_request": "mqadmin.admin.messages:MessageOps",
    "_route_cache": "mqadmin.admin.messages:MessageOps",
    "_static_view": "mqadmin.admin.consumers:ConsumerOps",
    "_stats_timeout": "mqadmin.admin.consumers:ConsumerOps",
    "_topic_names": "mqadmin.admin.namesrv:NamesrvOps",
    "_track_connection": "mqadmin.admin.messages:MessageOps",
    "_track_consumed": "mqadmin.admin.messages:MessageOps",
    "_track_one": "mqadmin.admin.messages:MessageOps",
    "add_broker_to_container": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "add_write_perm_of_broker": "mqadmin.admin.namesrv:NamesrvOps",
    "broker_addr_of": "mqadmin.admin.messages:MessageOps",
    "broker_name_by_addr": "mqadmin.admin.brokers:BrokerAdminOps",
    "check_rocksdb_cq_write_progress": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "clean_controller_broker_data": "mqadmin.admin.controller:ControllerOps",
    "clean_expired_consume_queue": "mqadmin.admin.brokers:BrokerAdminOps",
    "clean_unused_topic": "mqadmin.admin.brokers:BrokerAdminOps",
    "clone_group_offset": "mqadmin.admin.consumers:ConsumerOps",
    "consume_message_directly": "mqadmin.admin.messages:MessageOps",
    "consumer_running_info": "mqadmin.admin.messages:MessageOps",
    "create_acl": "mqadmin.admin.auth:AuthOps",
    "create_and_update_plain_access_config": "mqadmin.admin.acl:AclOps",
    "create_and_update_subscription_group_config": "mqadmin.admin.groups:GroupOps",
    "create_and_update_subscription_group_config_list": "mqadmin.admin.groups:GroupOps",
    "create_and_update_topic_config": "mqadmin.admin.topics:TopicAdminOps",
    "create_and_update_topic_config_list": "mqadmin.admin.topics:TopicAdminOps",
    "create_or_update_order_conf": "mqadmin.admin.topics:TopicAdminOps",
    "create_static_topic": "mqadmin.admin.static_topics:StaticTopicOps",
    "create_user": "mqadmin.admin.auth:AuthOps",
    "delete_acl": "mqadmin.admin.auth:AuthOps",
    "delete_expired_commit_log": "mqadmin.admin.brokers:BrokerAdminOps",
    "delete_group_topics": "mqadmin.admin.groups:GroupOps",
    "delete_kv_config": "mqadmin.admin.namesrv:NamesrvOps",
    "delete_order_conf": "mqadmin.admin.topics:TopicAdminOps",
    "delete_plain_access_config": "mqadmin.admin.acl:AclOps",
    "delete_subscription_group": "mqadmin.admin.groups:GroupOps",
    "delete_topic_in_broker": "mqadmin.admin.topics:TopicAdminOps",
    "delete_topic_in_namesrv": "mqadmin.admin.topics:TopicAdminOps",
    "delete_user": "mqadmin.admin.auth:AuthOps",
    "elect_master": "mqadmin.admin.controller:ControllerOps",
    "examine_broker_cluster_acl_version_info": "mqadmin.admin.acl:AclOps",
    "examine_broker_cluster_info": "mqadmin.admin.namesrv:NamesrvOps",
    "examine_consume_stats": "mqadmin.admin.consumers:ConsumerOps",
    "examine_consumer_connection_info": "mqadmin.admin.consumers:ConsumerOps",
    "examine_producer_connection_info": "mqadmin.admin.consumers:ConsumerOps",
    "examine_topic_config": "mqadmin.admin.topics:TopicAdminOps",
    "examine_topic_config_all": "mqadmin.admin.static_topics:StaticTopicOps",
    "examine_topic_config_and_mapping": "mqadmin.admin.static_topics:StaticTopicOps",
    "examine_topic_config_from_route": "mqadmin.admin.topics:TopicAdminOps",
    "examine_topic_route_info": "mqadmin.admin.namesrv:NamesrvOps",
    "examine_topic_stats": "mqadmin.admin.static_topics:StaticTopicOps",
    "examine_topic_stats_by_cluster": "mqadmin.admin.topics:TopicAdminOps",
    "examine_topic_stats_in_broker": "mqadmin.admin.topics:TopicAdminOps",
    "export_pop_records": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "export_rocksdb_config_to_json": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "fetch_all_topic_list": "mqadmin.admin.namesrv:NamesrvOps",
    "fetch_broker_consume_stats": "mqadmin.admin.consumers:ConsumerOps",
    "fetch_broker_member_addrs": "mqadmin.admin.controller:ControllerOps",
    "fetch_broker_names": "mqadmin.admin.brokers:BrokerAdminOps",
    "fetch_broker_runtime_stats": "mqadmin.admin.broker:BrokerOps",
    "fetch_consumer_client_versions": "mqadmin.admin.brokers:BrokerAdminOps",
    "fetch_master_addrs": "mqadmin.admin.brokers:BrokerAdminOps",
    "fetch_master_and_slave_addrs": "mqadmin.admin.brokers:BrokerAdminOps",
    "fetch_master_slave_map": "mqadmin.admin.brokers:BrokerAdminOps",
    "fetch_subscribe_message_queues": "mqadmin.admin.messages:MessageOps",
    "fetch_topics_by_cluster": "mqadmin.admin.namesrv:NamesrvOps",
    "find_message": "mqadmin.admin.messages:MessageOps",
    "find_subscription_group_config": "mqadmin.admin.groups:GroupOps",
    "get_acl": "mqadmin.admin.auth:AuthOps",
    "get_all_message_request_mode": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "get_all_producer_info": "mqadmin.admin.consumers:ConsumerOps",
    "get_all_subscription_group": "mqadmin.admin.brokers:BrokerAdminOps",
    "get_all_topic_config": "mqadmin.admin.topics:TopicAdminOps",
    "get_broker_config": "mqadmin.admin.brokers:BrokerAdminOps",
    "get_broker_epoch_cache": "mqadmin.admin.controller:ControllerOps",
    "get_broker_ha_status": "mqadmin.admin.controller:ControllerOps",
    "get_cold_data_flow_ctr_info": "mqadmin.admin.cold_data:ColdDataOps",
    "get_consume_stats": "mqadmin.admin.broker:BrokerOps",
    "get_consumer_running_info": "mqadmin.admin.consumers:ConsumerOps",
    "get_controller_config": "mqadmin.admin.controller:ControllerOps",
    "get_controller_metadata": "mqadmin.admin.controller:ControllerOps",
    "get_in_sync_state_data": "mqadmin.admin.controller:ControllerOps",
    "get_kv_config": "mqadmin.admin.namesrv:NamesrvOps",
    "get_kv_list_by_namespace": "mqadmin.admin.namesrv:NamesrvOps",
    "get_namesrv_config": "mqadmin.admin.namesrv:NamesrvOps",
    "get_order_conf": "mqadmin.admin.topics:TopicAdminOps",
    "get_system_topic_list_from_broker": "mqadmin.admin.topics:TopicAdminOps",
    "get_topic_cluster_list": "mqadmin.admin.namesrv:NamesrvOps",
    "get_user": "mqadmin.admin.auth:AuthOps",
    "get_user_subscription_group": "mqadmin.admin.brokers:BrokerAdminOps",
    "get_user_topic_config": "mqadmin.admin.topics:TopicAdminOps",
    "list_acl": "mqadmin.admin.auth:AuthOps",
    "list_user": "mqadmin.admin.auth:AuthOps",
    "max_offset": "mqadmin.admin.messages:MessageOps",
    "max_offset_at": "mqadmin.admin.broker:BrokerOps",
    "message_track_detail": "mqadmin.admin.messages:MessageOps",
    "min_offset": "mqadmin.admin.messages:MessageOps",
    "preflight": "mqadmin.admin.static_topics:StaticTopicOps",
    "pull_message": "mqadmin.admin.messages:MessageOps",
    "put_kv_config": "mqadmin.admin.namesrv:NamesrvOps",
    "put_order_conf": "mqadmin.admin.topics:TopicAdminOps",
    "query_consume_queue": "mqadmin.admin.consumers:ConsumerOps",
    "query_message": "mqadmin.admin.messages:MessageOps",
    "query_topic_consume_by_who": "mqadmin.admin.broker:BrokerOps",
    "remapping_static_topic": "mqadmin.admin.static_topics:StaticTopicOps",
    "remove_broker_from_container": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "remove_cold_data_flow_ctr_group_config": "mqadmin.admin.cold_data:ColdDataOps",
    "reset_master_flush_offset": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "reset_offset_by_queue_id": "mqadmin.admin.consumers:ConsumerOps",
    "reset_offset_by_timestamp": "mqadmin.admin.consumers:ConsumerOps",
    "reset_offset_by_timestamp_old": "mqadmin.admin.consumers:ConsumerOps",
    "search_offset": "mqadmin.admin.messages:MessageOps",
    "search_offset_at": "mqadmin.admin.broker:BrokerOps",
    "set_commitlog_read_ahead_mode": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "set_message_request_mode": "mqadmin.admin.broker_ops:BrokerOpsAdmin",
    "share_route": "mqadmin.admin.messages:MessageOps",
    "topic_route_cached": "mqadmin.admin.messages:MessageOps",
    "update_acl": "mqadmin.admin.auth:AuthOps",
    "update_broker_config": "mqadmin.admin.brokers:BrokerAdminOps",
    "update_cold_data_flow_ctr_group_config": "mqadmin.admin.cold_data:ColdDataOps",
    "update_consume_offset": "mqadmin.admin.consumers:ConsumerOps",
    "update_controller_config": "mqadmin.admin.controller:ControllerOps",
    "update_global_white_addr_config": "mqadmin.admin.acl:AclOps",
    "update_namesrv_config": "mqadmin.admin.namesrv:NamesrvOps",
    "update_topic_config_mapping_all": "mqadmin.admin.static_topics:StaticTopicOps",
    "update_user": "mqadmin.admin.auth:AuthOps",
    "view_broker_stats_data": "mqadmin.admin.brokers:BrokerAdminOps",
    "view_message": "mqadmin.admin.messages:MessageOps",
    "wipe_write_perm_of_broker": "mqadmin.admin.namesrv:NamesrvOps",
}
COMES_WITH: dict[str, tuple[str, ...]] = {
    "mqadmin.admin.consumers:ConsumerOps": ("mqadmin.admin.static_topics:StaticTopicOps",),
    "mqadmin.admin.groups:GroupOps": ("mqadmin.admin.static_topics:StaticTopicOps",),
    "mqadmin.admin.topics:TopicAdminOps": ("mqadmin.admin.static_topics:StaticTopicOps",),
}
# --- generated: end
# fmt: on


def generate() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The two tables, computed from the families themselves (imports every family)."""
    from mqadmin.admin.api import FAMILIES, family_class
    from mqadmin.admin.core import AdminCore

    classes = {f: family_class(f) for f in FAMILIES}
    full = type("Full", tuple(classes.values()), {})
    family_of = {c: f for f, c in classes.items()}
    core = set(dir(AdminCore))
    defined: dict[str, str] = {}
    for name in sorted(set(dir(full)) - core):
        definer = next(k for k in full.__mro__ if name in vars(k))
        if definer in family_of:
            defined[name] = family_of[definer]
    comes: dict[str, tuple[str, ...]] = {}
    for f in FAMILIES:
        need: set[str] = set()
        todo = [f]
        while todo:  # the closure: what comes along may bring more
            g = todo.pop()
            for name, owner in defined.items():
                if hasattr(classes[g], name) and owner != g and not issubclass(classes[g], classes[owner]):
                    if owner not in need and owner != f:
                        need.add(owner)
                        todo.append(owner)
        if need:
            comes[f] = tuple(x for x in FAMILIES if x in need)
    return defined, comes


def overridden_core_names() -> list[str]:
    """Names of :class:`AdminCore` that a family redefines (lazy loading could not see those)."""
    from mqadmin.admin.api import FAMILIES, family_class
    from mqadmin.admin.core import AdminCore

    core = set(vars(AdminCore)) - {"__doc__", "__module__", "__dict__", "__weakref__", "__annotations__"}
    return sorted(f"{f}.{n}" for f in FAMILIES for k in family_class(f).__mro__ if k is not AdminCore
                  and k is not object for n in vars(k) if n in core)  # fmt: skip


def render() -> str:
    """This module's source with the tables as :func:`generate` computes them."""
    import json
    import pathlib

    defined, comes = generate()
    src = pathlib.Path(__file__).read_text()
    head, rest = src.split("# --- generated: start\n", 1)
    _, tail = rest.split("# --- generated: end\n", 1)

    def entries(table: dict[str, Any]) -> str:
        return "".join(f"    {json.dumps(k)}: {literal(v)},\n" for k, v in sorted(table.items()))

    def literal(v: str | tuple[str, ...]) -> str:
        if isinstance(v, str):
            return json.dumps(v)
        return "(" + "".join(json.dumps(x) + ", " for x in v).rstrip() + ")"

    body = (
        "DEFINED_BY: dict[str, str] = {\n"
        + entries(defined)
        + "}\nCOMES_WITH: dict[str, tuple[str, ...]] = {\n"
        + entries(comes)
        + "}\n"
    )
    return head + "# --- generated: start\n" + body + "# --- generated: end\n" + tail


if __name__ == "__main__":
    import pathlib

    pathlib.Path(__file__).write_text(render())
