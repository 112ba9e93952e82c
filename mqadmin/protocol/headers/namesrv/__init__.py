"""Name server request headers, one module per concern, and the names they share.

- :mod:`.route`: the route query (105);
- :mod:`.topics`: topic records and topic lists (216, 217, 224);
- :mod:`.kvconfig`: KV config (100-102, 219);
- :mod:`.registration`: broker registration, its housekeeping and broker groups (103, 104, 322, 901, 904);
- :mod:`.writeperm`: write permission (205, 327).

A command imports the module of the request it sends; the name server imports them all.

Java's classes are in ``remoting/.../protocol/header/namesrv`` (5.3.3), plus
``GetTopicsByClusterRequestHeader`` and ``GetBrokerMemberGroupRequestHeader`` one package up. Their
own fields come first, then what the topic headers inherit: ``lo`` from ``TopicRequestHeader``,
``ns``/``nsd``/``bname``/``oway`` from ``RpcRequestHeader``.

The name server reads every one of them with Java's reflective decoder (``lenient``): a missing
field stays null and the answer is Java's. The names are checked in both modes, so a name that
could not be stored or sent back is refused before it reaches the route tables or the KV store.

Names a broker registers are looser than ``TopicValidator``: a broker also holds its cluster and
broker names as topics, 5.x pop retry topics join group and topic with ``+``, and retry topics of
a 255-character group are longer than 127. :func:`route_topic_refusal` accepts what a Java broker
can hold and nothing that could break a route body, a topic list or a log line.
"""

from __future__ import annotations

from mqadmin.protocol import names
from mqadmin.protocol.headers.base import Annotated, Check

__all__ = [
    "ROUTE_TOPIC_MAX_LENGTH",
    "BrokerAddr",
    "RouteTopic",
    "ServerAddr",
    "broker_addr_refusal",
    "route_topic_refusal",
]

ROUTE_TOPIC_MAX_LENGTH = (
    len(names.RETRY_GROUP_TOPIC_PREFIX) + names.GROUP_MAX_LENGTH + 1 + names.TOPIC_MAX_LENGTH
)
"""The longest topic a Java broker makes itself: a 5.x pop retry topic ``%RETRY%<group>+<topic>``."""

_PLAIN_TOPIC_CHARS = frozenset("%|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-")
"""What the regex ``[%|a-zA-Z0-9_+-]+`` allowed: a set, so no regex is compiled at import."""


def route_topic_refusal(topic: str | None) -> str | None:
    """Why the route tables cannot hold ``topic`` (blank, too long, a control character or a path
    separator), or None. ``TopicValidator``'s names pass, and so do the cluster, broker and retry
    topic names a broker registers."""
    if topic is None or not topic.strip():
        return "The specified topic is blank."
    if len(topic) > ROUTE_TOPIC_MAX_LENGTH:
        return f"The specified topic is longer than {ROUTE_TOPIC_MAX_LENGTH} characters."
    if _PLAIN_TOPIC_CHARS.issuperset(topic):  # not empty: blank was refused above
        return None
    why = names.bad_text(topic, controls=True)
    if why is not None:
        return f"The specified topic {why}."
    if names.leaves_directory(topic):
        return f"The specified topic [{topic}] contains a path separator."
    return None


def broker_addr_refusal(addr: str | None, kind: str = "broker address") -> str | None:
    """Why ``addr`` is not a broker's ``host:port`` (as ``brokerIP1 + ":" + listenPort``), or None."""
    if addr is None or not addr.strip():
        return f"the {kind} is blank"
    if len(addr) > names.NAME_MAX_LENGTH:
        return f"the {kind} is longer than {names.NAME_MAX_LENGTH}"
    why = names.bad_text(addr, controls=True)
    if why is not None:
        return f"the {kind} {why}"
    host, sep, port = addr.rpartition(":")
    if (
        not sep
        or not host
        or addr.split() != [addr]  # no whitespace: str.split and the regex \S agree on what is one
        or not 0 < len(port) <= 5
        or not (port.isascii() and port.isdigit())  # [0-9]{1,5}
        or int(port) > 65535
    ):
        return f"the {kind} [{addr}] is not host:port"
    return None


RouteTopic = Annotated[str, Check(route_topic_refusal)]
"""A topic as the route tables hold it (see :func:`route_topic_refusal`)."""
BrokerAddr = Annotated[str, Check(broker_addr_refusal)]
"""A broker's ``host:port``."""
ServerAddr = Annotated[str, Check(lambda s: broker_addr_refusal(s, "HA server address"))]
"""A broker's HA ``host:port``."""
