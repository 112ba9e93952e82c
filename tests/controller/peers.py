"""Until the last importers move to :mod:`tests.servers`."""

from tests.servers import ControllerNameServer, controller_broker

__all__ = ["ControllerNameServer", "controller_broker"]
