"""A consumer client that answers what a broker relays to it, for ``queryMsgById -g -d``.

The C++ client 1.x answers GET_CONSUMER_RUNNING_INFO (307) but not CONSUME_MESSAGE_DIRECTLY (309)
(its handler is commented out), so a direct push to it times out. This stand-in is a real client on
a real connection: it registers with the broker by HEART_BEAT (34) as a push (or pull) consumer of a
group, answers 307 with its consume type, and 309 by decoding the record the broker relays and
answering ``CR_SUCCESS`` (the messages it was given are kept in ``consumed``).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from mqadmin.protocol.codes import RequestCode
from mqadmin.protocol.command import RemotingCommand
from mqadmin.protocol.message_record import MessageExt, decode_message
from mqadmin.remoting.client import Connection, RemotingClient


class StandInConsumer:
    def __init__(self, broker_addr: str, group: str, topic: str, *, push: bool = True) -> None:
        self.broker_addr = broker_addr
        self.group = group
        self.topic = topic
        self.consume_type = "CONSUME_PASSIVELY" if push else "CONSUME_ACTIVELY"
        self.client_id = f"192.0.2.9@standin-{group}"
        self.consumed: list[MessageExt] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> StandInConsumer:
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        client = RemotingClient()
        client.register_handler(RequestCode.GET_CONSUMER_RUNNING_INFO, self._running_info)
        client.register_handler(RequestCode.CONSUME_MESSAGE_DIRECTLY, self._consume)
        client.register_handler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, lambda conn, cmd: None)
        try:
            body = {
                "clientID": self.client_id,
                "consumerDataSet": [
                    {
                        "consumeFromWhere": "CONSUME_FROM_LAST_OFFSET",
                        "consumeType": self.consume_type,
                        "groupName": self.group,
                        "messageModel": "CLUSTERING",
                        "subscriptionDataSet": [
                            {
                                "classFilterMode": False,
                                "codeSet": [],
                                "expressionType": "TAG",
                                "subString": "*",
                                "subVersion": 1,
                                "tagsSet": [],
                                "topic": self.topic,
                            }
                        ],
                        "unitMode": False,
                    }
                ],
                "producerDataSet": [],
            }
            cmd = RemotingCommand.request(RequestCode.HEART_BEAT, None, json.dumps(body).encode())
            resp = await client.invoke(self.broker_addr, cmd, 10)
            assert resp.code == 0, resp.remark
        except BaseException as e:
            self._error = e
            self._ready.set()
            await client.close()
            return
        self._ready.set()
        await self._stop.wait()
        await client.close()

    def _running_info(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        info: dict[str, Any] = {
            "properties": {"PROP_CONSUME_TYPE": self.consume_type, "PROP_CLIENT_VERSION": "V5_3_3"},
            "subscriptionSet": [],
            "mqTable": {},
            "statusTable": {},
        }
        return cmd.response(0, None, body=json.dumps(info).encode())

    def _consume(self, conn: Connection, cmd: RemotingCommand) -> RemotingCommand:
        msg, _ = decode_message(cmd.body or b"")
        self.consumed.append(msg)
        result = {
            "order": False,
            "autoCommit": True,
            "consumeResult": "CR_SUCCESS",
            "remark": None,
            "spentTimeMills": 7,
        }
        return cmd.response(0, None, body=json.dumps(result).encode())
