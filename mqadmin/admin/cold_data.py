"""Cold data flow control of 5.x brokers (``DefaultMQAdminExt`` of 5.3.3): a consumer group's cold
read threshold set and removed, and the broker's cold data tables read.
"""

from __future__ import annotations

from mqadmin.admin.family import Family
from mqadmin.protocol.bodies.properties import properties_to_string
from mqadmin.protocol.codes import RequestCode

__all__ = ["ColdDataOps"]


class ColdDataOps(Family):
    """UPDATE_COLD_DATA_FLOW_CTR_CONFIG, REMOVE_COLD_DATA_FLOW_CTR_CONFIG and GET_COLD_DATA_FLOW_CTR_INFO."""

    async def update_cold_data_flow_ctr_group_config(self, addr: str, properties: dict[str, str]) -> None:
        """The ``group=threshold`` entries as ``Properties`` text; nothing is sent for none (Java)."""
        text = properties_to_string(properties)
        if text:
            await self.core.invoke(
                addr, RequestCode.UPDATE_COLD_DATA_FLOW_CTR_CONFIG, body=text.encode("utf-8")
            )

    async def remove_cold_data_flow_ctr_group_config(self, addr: str, consumer_group: str) -> None:
        """The group's name is the body; nothing is sent for an empty name (Java)."""
        if consumer_group:
            body = consumer_group.encode("utf-8")
            await self.core.invoke(addr, RequestCode.REMOVE_COLD_DATA_FLOW_CTR_CONFIG, body=body)

    async def get_cold_data_flow_ctr_info(self, addr: str) -> str | None:
        """The broker's JSON report as text; None when it sent no body."""
        resp = await self.core.invoke(addr, RequestCode.GET_COLD_DATA_FLOW_CTR_INFO)
        return resp.body.decode("utf-8", "replace") if resp.body else None
