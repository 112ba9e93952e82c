"""The development controller a name server can embed (``enableControllerInNamesrv=true``).

One node, always its own leader: it hands out broker ids, tracks which replicas are alive,
elects masters and keeps master and sync-state-set epochs, persisted under the name server's
directory. Production deployments run Java controllers (DLedger or JRaft), which ``mqadmin``
administers the same way.
"""

from mqadmin.controller.config import ControllerConfig, embedded_config
from mqadmin.controller.processor import ControllerProcessor
from mqadmin.controller.replicas import ControllerStoreError

__all__ = ["ControllerConfig", "ControllerProcessor", "ControllerStoreError", "embedded_config"]
