"""The admin API (async), like Java's ``DefaultMQAdminExt``.

:class:`~mqadmin.admin.api.MQAdmin` is the one object callers use: name server calls with
failover (:mod:`.namesrv`), broker calls (:mod:`.broker`), all signed when credentials are set
(:mod:`.signing`) and bounded by timeouts (:mod:`.core`, :mod:`.fanout`). Each family of methods
lives in its own mixin module; ``api.MQAdmin`` lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqadmin.admin.api import MQAdmin
    from mqadmin.admin.settings import AdminSettings, Credentials

__all__ = ["AdminSettings", "Credentials", "MQAdmin"]


def __getattr__(name: str) -> object:
    # resolved on first use, so importing a submodule does not pull in every family
    if name == "MQAdmin":
        from mqadmin.admin.api import MQAdmin

        return MQAdmin
    if name in ("AdminSettings", "Credentials"):
        from mqadmin.admin import settings

        return getattr(settings, name)
    raise AttributeError(name)
