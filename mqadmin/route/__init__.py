"""The route core: a name server's route tables and their rules, with no I/O.

Shared by the bundled name server (:mod:`mqadmin.namesrv`) and the admin side.
"""

from mqadmin.route.manager import RegisterSteps, RouteInfoManager
from mqadmin.route.tables import (
    DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
    MASTER_ID,
    BrokerAddrInfo,
    BrokerEntry,
    BrokerLiveInfo,
    DefaultRouteConfig,
    MinBrokerIdChange,
    RegisterResult,
    RouteConfig,
    UnregisterRequest,
)

__all__ = [
    "DEFAULT_BROKER_CHANNEL_EXPIRED_MS",
    "MASTER_ID",
    "BrokerAddrInfo",
    "BrokerEntry",
    "BrokerLiveInfo",
    "DefaultRouteConfig",
    "MinBrokerIdChange",
    "RegisterResult",
    "RegisterSteps",
    "RouteConfig",
    "RouteInfoManager",
    "UnregisterRequest",
]
