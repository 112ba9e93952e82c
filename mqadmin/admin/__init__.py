"""The admin API (async), like Java's ``DefaultMQAdminExt``.

:class:`~mqadmin.admin.api.MQAdmin` is the one object callers use. It holds one
:class:`~mqadmin.admin.core.AdminCore` (``admin.core``: requests, name server failover, signing
when credentials are set (:mod:`.signing`), timeouts and fan-out (:mod:`.fanout`)) and one attribute
per family of requests, named after the family's module and built on first use:

======================  ==========================================================================
``admin.namesrv``       :mod:`.namesrv`: routes, cluster info, topic lists, KV and name server configs
``admin.broker``        :mod:`.broker`: one broker's consume stats, offsets, runtime stats
``admin.brokers``       :mod:`.brokers`: broker configs, addresses by cluster, housekeeping
``admin.broker_ops``    :mod:`.broker_ops`: containers, RocksDB, pop records, request modes
``admin.controller``    :mod:`.controller`: the HA controller
``admin.topics``        :mod:`.topics`: topic configs, stats (static topics' logical rows too), order confs
``admin.static_topics`` :mod:`.static_topics`: static topic creation and remapping
``admin.groups``        :mod:`.groups`: subscription groups
``admin.consumers``     :mod:`.consumers`: a group's consume stats and consumer connections
``admin.consumption``   :mod:`.consumption`: running info, a broker's consume stats, consume queues
``admin.offsets``       :mod:`.offsets`: offset commits, resets and clones
``admin.producers``     :mod:`.producers`: producer connections and producer tables
``admin.messages``      :mod:`.messages`: message lookups, pulls, tracks, offsets through the route
``admin.acl``           :mod:`.acl`: ACL 1.0
``admin.auth``          :mod:`.auth`: ACL 2.0 users and rules
``admin.cold_data``     :mod:`.cold_data`: cold data flow control
======================  ==========================================================================

Naming: a family's methods keep the snake_case names of ``DefaultMQAdminExt``'s methods
(``admin.topics.create_and_update_topic_config``, ``admin.consumers.examine_consume_stats``), so a
Java method is found by its name in one family.

Each family is a plain class (:class:`~mqadmin.admin.family.Family`) over the core; a family that
asks another one gets it in its constructor (``GroupOps(core, namesrv, topics, brokers)``), and
``MQAdmin`` wires them. The families form a graph without cycles, and a family's module is imported
only when the attribute is first used: ``mqadmin topicRoute`` loads :mod:`.namesrv` only (a test
checks it). Wire bodies live in :mod:`mqadmin.protocol.bodies`; this package holds requests and
the results the tools compute from answers.
"""

from __future__ import annotations

from mqadmin.admin.api import MQAdmin
from mqadmin.admin.settings import AdminSettings, Credentials

__all__ = ["AdminSettings", "Credentials", "MQAdmin"]
