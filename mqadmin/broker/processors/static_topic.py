"""UPDATE_AND_CREATE_STATIC_TOPIC (513) of a 5.x broker: a static topic's config and this broker's
mapping of its logical queues, in one request.

Java keeps the topic config first and fails on the mapping after it (a half-written topic); here
the header, the name, the body and the mapping (against what the broker already holds) are all
checked before either is kept, and a refusal changes nothing. The refusals are Java's codes:
INVALID_PARAMETER for the name, SYSTEM_ERROR with the mapping's reason otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any

from mqadmin.broker.config import BrokerSettings
from mqadmin.broker.registration import Registrar
from mqadmin.broker.topics import TopicManager
from mqadmin.broker.version import BrokerVersion
from mqadmin.broker.wire import NOT_SET_REMARK, answer
from mqadmin.protocol import names
from mqadmin.protocol.bodies.static_topic import TopicQueueMappingDetail
from mqadmin.protocol.codes import RequestCode, ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.headers.static_topic import CreateStaticTopicRequestHeader
from mqadmin.protocol.staticmapping import MappingError, check_broker_detail
from mqadmin.remoting.client import Connection, Handler
from mqadmin.remoting.logthrottle import ThrottledLog

__all__ = ["StaticTopicProcessor"]

log = logging.getLogger("mqadmin.broker")
_peer_log = ThrottledLog(log)  # lines a remote peer can cause; names shown with repr until checked


class StaticTopicProcessor:
    """Code 513 (a 5.x broker's; a 4.9.8 one does not know it)."""

    def __init__(
        self,
        *,
        settings: BrokerSettings,
        version: BrokerVersion,
        topics: TopicManager,
        registration: Registrar,
    ) -> None:
        self.settings = settings
        self.version = version
        self.topics = topics
        self.registration = registration

    def handlers(self) -> dict[int, Handler]:
        if not self.version.five_x:
            return {}
        return {RequestCode.UPDATE_AND_CREATE_STATIC_TOPIC: self.update_and_create_static_topic}

    def update_and_create_static_topic(
        self, conn: Connection, cmd: RemotingCommand
    ) -> RemotingCommand | Coroutine[Any, Any, RemotingCommand]:
        hdr = CreateStaticTopicRequestHeader.decode(cmd.ext_fields)
        topic = hdr.topic
        _peer_log.log(
            logging.INFO,
            "static topic",
            "Broker receive request to update or create static topic=%r, caller address=%s",
            topic,
            conn.remote_addr,
        )
        bad = names.check_topic(topic)
        if bad is None and self.topics.is_system_topic(topic):
            bad = f"The topic[{topic}] is conflict with system topic."
        bad = bad or hdr.refusal()
        if bad is not None:
            return answer(cmd, ResponseCode.INVALID_PARAMETER, bad)
        try:
            detail = TopicQueueMappingDetail.decode(cmd.body or b"")
            check_broker_detail(detail, topic, self.settings.broker.broker_name, hdr.write_queue_nums)
            kept = self.topics.mappings.merged(detail, bool(hdr.force))
        except (ProtocolError, MappingError) as e:
            _peer_log.warning(
                "static topic refused",
                "Update static topic %s from %s refused: %r",
                topic,
                conn.remote_addr,
                str(e),
            )
            return answer(cmd, ResponseCode.SYSTEM_ERROR, str(e))
        self.topics.mappings.put(kept)  # the mapping file, then topics.json
        self.topics.update(hdr.to_config())
        registered = self.registration.topic_changed(topic)

        async def after_registration() -> RemotingCommand:
            await registered  # Java registers the topic before answering
            return answer(cmd, ResponseCode.SUCCESS, NOT_SET_REMARK)

        return after_registration()
