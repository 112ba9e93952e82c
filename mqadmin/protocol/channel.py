"""The protocol of one remoting connection, with no I/O: bytes in, events out, bytes to send back.

A connection is duplex, as in Java's Netty remoting: either side sends requests and answers the
other's. :class:`Channel` holds what that takes and nothing of the transport: the frame decoder, the
opaques of the requests still waiting for an answer, and the rules of an answer (same opaque, same
serialization, response flag; no answer to a oneway request; REQUEST_CODE_NOT_SUPPORTED with Java's
remark to a request nobody handles). The blocking client, the asyncio connection and the servers
drive it and only move bytes, as h11's users do.

:meth:`Channel.receive` turns bytes into events: :class:`Answer` (the response to a request sent on
this channel, by opaque), :class:`Late` (a response nobody waits for any more), :class:`PeerRequest`
(a request from the peer) and :class:`Broken` (the stream lost its framing: nothing more can be read).
"""

from __future__ import annotations

from dataclasses import dataclass

from mqadmin.protocol.command import FLAG_ONEWAY, FLAG_RESPONSE, RemotingCommand, next_opaque
from mqadmin.protocol.errors import ProtocolError
from mqadmin.protocol.frame import FrameDecoder, encode

__all__ = ["Answer", "Broken", "Channel", "Event", "Late", "PeerRequest", "not_supported_remark"]

REQUEST_CODE_NOT_SUPPORTED = 3


@dataclass(frozen=True, slots=True)
class Answer:
    """The response to the request this channel sent with ``cmd.opaque``."""

    cmd: RemotingCommand


@dataclass(frozen=True, slots=True)
class Late:
    """A response that matches no request still waiting (it gave up, or the peer is confused)."""

    cmd: RemotingCommand


@dataclass(frozen=True, slots=True)
class PeerRequest:
    """A request (or a oneway message) from the peer."""

    cmd: RemotingCommand


@dataclass(frozen=True, slots=True)
class Broken:
    """A malformed frame: the stream has lost its framing, the connection is to be closed."""

    error: ProtocolError


Event = Answer | Late | PeerRequest | Broken


def not_supported_remark(code: int) -> str:
    """Java's remark for a request code with no processor."""
    return f" request type {code} not supported"


class Channel:
    """One connection's protocol state. ``header_budget``: hold the peer's requests to their codes'
    header budgets before decoding them (a server's channel)."""

    __slots__ = ("_budget", "_decoder", "_waiting", "broken")

    def __init__(self, *, header_budget: bool = False) -> None:
        self._budget = header_budget
        self._decoder = FrameDecoder(header_budget=header_budget)
        self._waiting: set[int] = set()
        self.broken = False

    @property
    def buffered(self) -> int:
        """Bytes of a frame still incomplete."""
        return self._decoder.buffered

    @property
    def waiting(self) -> int:
        """Requests sent on this channel whose answer has not come."""
        return len(self._waiting)

    def send_request(self, cmd: RemotingCommand) -> bytes:
        """The frame of ``cmd``, whose answer this channel now waits for (none for a oneway one).

        A command already waiting (the same object sent twice at once) gets a fresh opaque. An
        unencodable command raises :class:`ProtocolError` and is not waited for.
        """
        if cmd.flag & FLAG_ONEWAY:
            return encode(cmd)
        if cmd.opaque in self._waiting:
            cmd.opaque = next_opaque()
        data = encode(cmd)
        self._waiting.add(cmd.opaque)
        return data

    def forget(self, opaque: int) -> None:
        """The caller waiting for ``opaque`` gave up: its answer, if it comes, is :class:`Late`."""
        self._waiting.discard(opaque)

    def receive(self, data: bytes | memoryview) -> list[Event]:
        """The events in ``data`` (possibly none: a frame may be incomplete)."""
        if self.broken:
            return []
        try:
            frames = self._decoder.feed(data)
        except ProtocolError as e:
            self.broken = True
            self._decoder = FrameDecoder(header_budget=self._budget)  # the partial frame: freed
            return [Broken(e)]
        events: list[Event] = []
        waiting = self._waiting
        for cmd in frames:
            if not cmd.flag & FLAG_RESPONSE:
                events.append(PeerRequest(cmd))
            elif cmd.opaque in waiting:
                waiting.discard(cmd.opaque)
                events.append(Answer(cmd))
            else:
                events.append(Late(cmd))
        return events

    def send_answer(self, req: RemotingCommand, resp: RemotingCommand) -> bytes | None:
        """The frame answering ``req`` with ``resp`` (same opaque and serialization, response flag),
        or None for a oneway request. Raises what encoding ``resp`` raises."""
        if req.flag & FLAG_ONEWAY:
            return None
        resp.opaque = req.opaque
        resp.flag |= FLAG_RESPONSE
        if resp.serialize_type is not req.serialize_type:
            resp.serialize_type = req.serialize_type
        return encode(resp)

    def not_supported(self, req: RemotingCommand) -> bytes | None:
        """The answer to a request nobody here handles, as Java's remoting gives it."""
        return self.send_answer(req, req.response(REQUEST_CODE_NOT_SUPPORTED, not_supported_remark(req.code)))

    def close(self) -> None:
        """Nothing waits any more; a partial frame is dropped."""
        self._waiting.clear()
        if self._decoder.buffered:
            self._decoder = FrameDecoder(header_budget=self._budget)
