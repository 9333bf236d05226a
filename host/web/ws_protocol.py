"""The WebSocket protocol under the pages: uvicorn's sans-I/O one (the `websockets`
library's ServerProtocol), with what a page that stops reading or floods needs and it
lacks. uvicorn closes a connection gracefully: `transport.close()` first sends what is
queued, which a peer that reads nothing never takes, so the connection (and the send that
waits on it) stays forever, whatever the ping timeout says.

- A close from the app to a peer whose write buffer is full drops the connection at once
  (transport.abort()): the close frame would wait behind what the peer never read.
- A ping that gets no pong in time drops the connection the same way, and so does the
  server's stop when the page has not taken what was sent (uvicorn waits for every
  connection to close before it stops).
- After the app's close, nothing more is read from the peer (its closing reply is not
  waited for): a flooding page costs nothing once it is told to go.
- What a page sends is parsed a slice at a time, and not at all while a message it sent
  waits for the app (uvicorn pauses the socket then, but parses the rest of what it had
  read: up to 256 KB, tens of thousands of tiny frames). A page that sends faster than
  the app reads is held back by TCP, at no cost to the others.

The size of one message is the protocol's own limit (uvicorn's `ws_max_size`, the
`websockets` library's `max_size`, across fragments too): a longer one is refused
(1009) from its frame header, before its payload is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

if TYPE_CHECKING:
    from uvicorn._types import ASGIReceiveEvent, ASGISendEvent

SLICE = 1024  # bytes parsed at a time


class PageProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._unread = b""  # read from the socket; parsed up to self._at
        self._at = 0

    async def send(self, message: ASGISendEvent) -> None:
        closing = message["type"] == "websocket.close"
        if closing and self.handshake_complete and not self.writable.is_set():
            self.close_sent = True
            self.transport.abort()
            return
        await super().send(message)
        if closing and self.close_sent:
            self.transport.close()

    def shutdown(self) -> None:
        super().shutdown()
        if self.transport.get_write_buffer_size():
            self.transport.abort()

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self._unread = self._unread[self._at :] + data if self._at < len(self._unread) else data
        self._at = 0
        self._parse()

    def _parse(self) -> None:
        while self._at < len(self._unread) and not self.read_paused and not self.close_sent:
            part = self._unread[self._at : self._at + SLICE]
            self._at += SLICE
            super().data_received(part)

    async def receive(self) -> ASGIReceiveEvent:
        message = await super().receive()
        self._parse()
        return message
