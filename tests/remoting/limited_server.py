"""Our remoting server alone in a process, with no connection cap, so that a flood of connections runs
it out of file descriptors for real (``test_resources`` lowers RLIMIT_NOFILE before it starts).

Prints its port on stdout, logs to stderr, answers code 1 with SUCCESS; runs until killed.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from mqadmin.protocol.codes import ResponseCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.remoting.client import Connection
from mqadmin.remoting.server import RemotingServer

PROBE = 1


def probe(conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
    return cmd.response(ResponseCode.SUCCESS, "alive")


async def main() -> None:
    server = RemotingServer(max_connections=0)
    server.register_handler(PROBE, probe)
    port = await server.start("127.0.0.1", 0)
    sys.stdout.write(f"{port}\n")
    sys.stdout.flush()
    await asyncio.Event().wait()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
    asyncio.run(main())
