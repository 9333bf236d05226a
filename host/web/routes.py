"""The routes: `/`, the players' page, and `/gm`, the game master's console, with their
sockets and assets, as a Starlette app over a Hub (host/web/hub.py), and who each admits.

- `/` and its socket `/ws` are read-only: the socket only sends the players' view;
  whatever a browser sends on it closes it.
- `/gm?token=...` and `/ws/gm?token=...` need the random token printed with the URL (and
  the socket, a handshake from this server's own page: its Origin). The console sends
  lines, `{"line": "..."}`, each run by host/web/console.py; a console whose token is not
  this game's is told so in one line (STALE) and closed with STALE_CODE.
- The pages themselves are static/ (plain HTML, CSS and JS).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets as token_source
from importlib import resources
from typing import TYPE_CHECKING, Any

from host.web import sockets
from host.web.sockets import Page, attend

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

    from host.web.hub import Hub

STALE_CODE = 4003  # close code: a console whose token is not this game's
STALE = (
    "this console's link is not this game's (turnlight was started again, not resumed):"
    " open the link turnlight printed now, or scan its QR code"
)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket's handshake comes from a page of this server: a browser always
    sends the page's Origin, which must name the host and port the request went to. A
    client that is not a browser sends none; the token alone admits it."""
    if origin is None:
        return True
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and host is not None and rest.lower() == host.lower()


def page(name: str) -> str:
    """A file of static/, as text."""
    return resources.files("host.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def make_app(hub: Hub) -> Starlette:
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute

    def allowed(token: str | None) -> bool:
        # As bytes: compare_digest refuses text that is not ASCII (it was a 500).
        return token is not None and token_source.compare_digest(
            token.encode("utf-8", "replace"), hub.token.encode()
        )

    # The console's URL carries its token: no link from it may pass that on.
    private = {"Referrer-Policy": "no-referrer"}

    async def player_page(request: Any) -> Response:
        return HTMLResponse(page("player.html"))

    async def gm_page(request: Any) -> Response:
        if not allowed(request.query_params.get("token")):
            return HTMLResponse(page("wrong_token.html"), 403, headers=private)
        return HTMLResponse(page("gm.html"), headers=private)

    async def asset(request: Any) -> Response:
        name = request.path_params["name"]
        kinds = {"app.js": "text/javascript", "app.css": "text/css"}
        if name not in kinds:
            return PlainTextResponse("not found", 404)
        return Response(page(name), media_type=kinds[name])

    async def player_socket(ws: WebSocket) -> None:
        hub.kick()
        await attend(
            ws,
            hub.players,
            sockets.MAX_PLAYERS,
            "players' pages",
            hub.first(0),
            sockets.read_to_close,
        )

    async def gm_socket(ws: WebSocket) -> None:
        origin, host = ws.headers.get("origin"), ws.headers.get("host")
        if not same_origin(origin, host):
            await ws.close(code=1008)
            return
        if not allowed(ws.query_params.get("token")):
            # A console left open across a restart that is not a resume of its game: it
            # is told why in one line, and keeps trying (the game may yet be resumed).
            await ws.accept()
            await ws.send_text(json.dumps({"type": "stale", "text": STALE}))
            await ws.close(STALE_CODE, "the console's token is not this game's")
            return

        async def listen(page: Page) -> tuple[int, str] | None:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return None
                # A binary message is refused as text that is not JSON would be.
                reply = await asyncio.to_thread(hub.console, message.get("text") or "")
                if reply["type"] == "reply":
                    # Every page shows what the line did before its reply comes back.
                    hub.publish(await asyncio.to_thread(hub.views_now))
                page.reply(json.dumps(reply))

        if not hub.has_console_parts():
            hub.publish(await asyncio.to_thread(hub.views_now))  # its parts, built now
        await attend(ws, hub.gms, sockets.MAX_CONSOLES, "consoles", hub.first(1), listen)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        task = asyncio.create_task(hub.watch())
        try:
            yield
        finally:
            task.cancel()

    return Starlette(
        routes=[
            Route("/", player_page),
            Route("/gm", gm_page),
            Route("/static/{name}", asset),
            WebSocketRoute("/ws", player_socket),
            WebSocketRoute("/ws/gm", gm_socket),
        ],
        lifespan=lifespan,
    )
