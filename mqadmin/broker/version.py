"""Which Java broker this broker behaves as: 4.9.8 (the default) or 5.3.3, set by ``rocketmqVersion``.

The ``-c`` file's ``rocketmqVersion`` (``4.9.8`` or ``5.3.3``, also as ``V5_3_3``) chooses it once at
start; a remote config update cannot change it. The choice shows where a Java broker shows its
``MQVersion.CURRENT_VERSION``: the ``version`` of every frame it writes (registration, answers,
requests to clients) and ``brokerVersion``/``brokerVersionDesc`` in its runtime info, which
``clusterList`` and ``brokerStatus`` print. With 5.3.3 the 5.x request codes a single node can
answer are served (consume modes, pop-record export, read-ahead, flush offset, RocksDB probes) and
the runtime info carries the 5.3.3 keys; with 4.9.8 those codes are unknown, as on a 4.9.8 broker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mqadmin.protocol.version import V4_9_8, V5_0_0, V5_3_3, version_name, version_ordinal

__all__ = ["BEHAVIOURS", "VERSION_KEY", "BrokerVersion", "broker_version"]

VERSION_KEY = "rocketmqVersion"
"""The ``-c`` file key choosing the behaviour."""

BEHAVIOURS = (V4_9_8, V5_3_3)
"""The versions this broker can behave as."""


@dataclass(frozen=True, slots=True)
class BrokerVersion:
    """The version a running broker behaves as."""

    ordinal: int = V4_9_8

    @property
    def desc(self) -> str:
        """``MQVersion.getVersionDesc``: ``V4_9_8`` or ``V5_3_3``."""
        return version_name(self.ordinal)

    @property
    def five_x(self) -> bool:
        """Whether 5.x features are on."""
        return self.ordinal >= V5_0_0


def broker_version(file_properties: Mapping[str, str]) -> BrokerVersion:
    """The behaviour the ``-c`` file asks for; ValueError names the key and the accepted values."""
    text = file_properties.get(VERSION_KEY)
    if text is None or not text.strip():
        return BrokerVersion()
    try:
        ordinal = version_ordinal(text)
    except ValueError:
        ordinal = -1
    if ordinal not in BEHAVIOURS:
        accepted = " or ".join(version_name(v)[1:].replace("_", ".") for v in BEHAVIOURS)
        raise ValueError(f"{VERSION_KEY}={text.strip()!r}: this broker behaves as {accepted}")
    return BrokerVersion(ordinal)
