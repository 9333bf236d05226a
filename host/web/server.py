"""The web server: `/`, the players' page, and `/gm`, the game master's console, live over
WebSockets, served by Starlette under uvicorn on a thread of its own beside the board's
link threads.

- `/` and its socket `/ws` are read-only: the socket only sends the players' view
  (host/web/page_data.py's `player_view`, which never holds what they must not see);
  whatever a browser sends on it closes it.
- `/gm?token=...` and `/ws/gm?token=...` need the random token printed with the URL (and
  the socket, a handshake from this server's own page: its Origin).
  The console sends lines, `{"line": "..."}`: a line of the game's language runs as if
  typed at `play`'s prompt (the same code, the same one-line errors); the console's own
  verbs are `hide NAME`, `reveal NAME`, `health number|word|bar|none`, `players TEAM`,
  `help`, `scores` and `table`. Anything else is refused in one line.
- A watcher polls a cheap stamp of the session (WATCH_SECONDS) and sends the new views
  when it moved: typed commands, board presses, undo, `new` and the console's lines all
  show up within a moment.
- How each page's messages go out, what a page may send and how many may be open:
  host/web/sockets.py and host/web/ws_protocol.py (docs/reliability.md, "The web pages").
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import secrets as token_source
import shlex
import socket
import threading
from collections.abc import Callable, Iterator
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from host.core.interface import IllegalAction
from host.web import sockets
from host.web.page_data import GM_ONLY, HEALTH_MODES, Secrets, gm_view, player_view
from host.web.sockets import Page, attend

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

    from host.board.simulated_board import SimulatedBoard
    from host.core.session import Session

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
WATCH_SECONDS = 0.005  # how often the watcher looks for a change
BOARD_SECONDS = 0.1  # how often it looks at the simulated board's LEDs alone
MAX_LINE = 400  # characters in one console line
QUIET_LOGS = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"null": {"class": "logging.NullHandler"}},
    "loggers": {
        name: {"handlers": ["null"], "propagate": False}
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
    },
}
CONSOLE_VERBS = {
    "hide": "hide NAME: keep a fighter off the players' page until `reveal NAME`",
    "reveal": "reveal NAME: show a hidden fighter again",
    "health": "health number|word|bar|none: how the other teams' health shows to players",
    "players": "players TEAM: the players' own team (its health always shows as a number)",
}


class Source(Protocol):
    """Where the views come from: a `play` session (PlayLive) or a demo (DemoLive)."""

    def session(self) -> Session: ...
    def lock(self) -> contextlib.AbstractContextManager[Any]: ...
    def stamp(self) -> tuple: ...
    def log(self) -> list[str]: ...
    def dice_lines(self) -> list[str]: ...
    def odds(self) -> list[str]: ...
    def sim(self) -> SimulatedBoard | None: ...
    def run(self, line: str) -> list[str]: ...
    def text(self, line: str) -> str | None: ...


class WebError(ValueError):
    """A bad --web address or a port that cannot be opened; str() is one line."""


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `HOST`, `:PORT` or `PORT` (an IPv6 host in brackets)."""
    host, port = DEFAULT_HOST, DEFAULT_PORT
    text = text.strip()
    if text.isdigit():
        return host, _port(text)
    if text.startswith("["):
        inside, _, rest = text[1:].partition("]")
        host = inside
        if rest:
            if not rest.startswith(":"):
                raise WebError(f"--web {text}: write an IPv6 address as [ADDRESS]:PORT")
            port = _port(rest[1:])
        return host or DEFAULT_HOST, port
    name, colon, number = text.rpartition(":")
    if not colon:
        return text or DEFAULT_HOST, port
    return name or DEFAULT_HOST, _port(number)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise WebError(f"--web: the port must be a number from 0 to 65535, not {text!r}")
    return int(text)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket's handshake comes from a page of this server: a browser always
    sends the page's Origin, which must name the host and port the request went to. A
    client that is not a browser sends none; the token alone admits it."""
    if origin is None:
        return True
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and host is not None and rest.lower() == host.lower()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Hub:
    """The live views and the sockets they go to."""

    def __init__(self, source: Source, token: str) -> None:
        self.source = source
        self.token = token
        self.secrets = Secrets()
        self.players: set[Page] = set()
        self.gms: set[Page] = set()
        self.views: tuple[str, str] = ("", "")  # the last (player, gm) messages sent
        self._stamp: tuple | None = None
        self._settings = 0  # moves with every change of the secrets
        self._kick: asyncio.Event | None = None
        self._board_at = 0.0
        self._board: list[list[str]] | None = None

    # -- the views ----------------------------------------------------------------------
    def build(self) -> tuple[str, str]:
        """The (player, gm) messages, as JSON text."""
        source = self.source
        with source.lock():
            session = source.session()
            board = self._board_data(session)
            full = gm_view(
                session.ruleset,
                session.game,
                tuple(session.encounter.teams),
                self.secrets,
                source.log(),
                source.dice_lines(),
                source.odds(),
                board,
            )
            full["hidden_unknown"] = sorted(
                set(self.secrets.hidden) - {f["name"] for f in full["fighters"]}
            )
        player = player_view(full)
        assert not set(GM_ONLY) & set(player)
        # The console's URL is in play's log for the game master: never on the players' page.
        player["log"] = [line for line in player["log"] if self.token not in line]
        text = json.dumps({"type": "view", "view": player})
        if self.token in text:  # nowhere else either
            text = text.replace(self.token, "(the console's token)")
        return (
            text,
            json.dumps({"type": "view", "view": full}),
        )

    def _board_data(self, session: Session) -> dict[str, Any]:
        sim = self.source.sim()
        if sim is None:
            return {"text": session.ruleset.device_grid(session.game, False)}
        return {"pixels": self._pixels(sim)}

    @staticmethod
    def _pixels(sim: SimulatedBoard) -> list[list[str]]:
        with sim.lock:
            grid = sim.grid()
        return [[f"#{r:02x}{g:02x}{b:02x}" for r, g, b in row] for row in grid]

    # -- the watcher --------------------------------------------------------------------
    def kick(self) -> None:
        if self._kick is not None:
            self._kick.set()

    async def watch(self) -> None:
        self._kick = asyncio.Event()
        loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._kick.wait(), WATCH_SECONDS)
            self._kick.clear()
            if not self.players and not self.gms:
                continue
            stamp = (self.source.stamp(), self._settings)
            now = loop.time()
            sim = self.source.sim()
            if stamp == self._stamp and (sim is None or now - self._board_at < BOARD_SECONDS):
                continue
            if stamp == self._stamp and sim is not None:
                self._board_at = now
                pixels = await asyncio.to_thread(self._pixels, sim)
                if pixels == self._board:
                    continue
            self._stamp = stamp
            try:
                views = await asyncio.to_thread(self.build)
            except Exception as err:  # a view that cannot be drawn must not stop the server
                views = self.views
                for page in list(self.gms):
                    page.reply(json.dumps({"type": "error", "text": str(err)}))
            self._board_at = now
            self.publish(views)

    def publish(self, views: tuple[str, str]) -> None:
        """Each page's outbox takes the new view; each page's own task sends it."""
        player, gm = views
        old_player, old_gm = self.views
        self.views = views
        try:
            self._board = json.loads(player)["view"]["board"].get("pixels")
        except (KeyError, AttributeError):
            self._board = None
        if player != old_player:
            for page in list(self.players):
                page.outbox.view(player)
        if gm != old_gm:
            for page in list(self.gms):
                page.outbox.view(gm)

    # -- the console --------------------------------------------------------------------
    def console(self, raw: str) -> dict[str, Any]:
        """One message from the console: {"line": "..."} run like a typed line. Returns
        the reply: {"type": "reply", "ok": bool, "text": "..."}."""
        try:
            line = _line_of(raw)
            text = self._console_line(line)
        except IllegalAction as err:
            return {"type": "reply", "ok": False, "text": f"refused: {err}"}
        return {"type": "reply", "ok": True, "text": text}

    def _console_line(self, line: str) -> str:
        try:
            words = shlex.split(line, comments=True)
        except ValueError as err:
            raise IllegalAction(f"cannot read the line: {err}") from None
        if not words:
            return ""
        verb = words[0].lower()
        if verb in CONSOLE_VERBS:
            text = self._setting(verb, words[1:])
            self._settings += 1
            return text
        if verb in ("quit", "exit"):
            raise IllegalAction("`quit` ends the session at the terminal, not here")
        said = self.source.text(line)
        if said is not None:
            return said
        return "\n".join(self.source.run(line))

    def _setting(self, verb: str, args: list[str]) -> str:
        usage = CONSOLE_VERBS[verb].split(":")[0]
        with self.source.lock():
            session = self.source.session()
            fighters = [f.name for f in session.ruleset.fighters(session.game)]
            teams = list(session.encounter.teams)
        if verb == "health":
            if len(args) != 1 or args[0].lower() not in HEALTH_MODES:
                raise IllegalAction(f"usage: {usage}")
            with self.source.lock():  # the views read the secrets under it
                self.secrets.health = args[0].lower()
            return f"the other teams' health shows as: {args[0].lower()}"
        if not args:
            raise IllegalAction(f"usage: {usage}")
        wanted = " ".join(args)
        if verb == "players":
            team = _one_of(wanted, teams, "team")
            with self.source.lock():
                self.secrets.players = team
            return f"the players' team: {team}"
        name = _one_of(wanted, fighters, "fighter")
        with self.source.lock():
            if verb == "hide":
                self.secrets.hidden.add(name)
                return f"{name} is hidden from the players' page until `reveal {name}`"
            if name not in self.secrets.hidden:
                raise IllegalAction(f"{name} is not hidden")
            self.secrets.hidden.discard(name)
        return f"{name} shows on the players' page again"


def _one_of(wanted: str, choices: list[str], what: str) -> str:
    for choice in choices:
        if choice.lower() == wanted.lower():
            return choice
    raise IllegalAction(f"no {what} {wanted!r}: one of {', '.join(choices)}")


def _line_of(raw: str) -> str:
    """The line in a console message, checked as the prompt would take it."""
    if len(raw) > MAX_LINE + 100:
        raise IllegalAction(f"a console message is at most {MAX_LINE} characters")
    try:
        message = json.loads(raw)
    except ValueError:
        raise IllegalAction('a console message is JSON: {"line": "..."}') from None
    if not isinstance(message, dict) or set(message) != {"line"}:
        raise IllegalAction('a console message is JSON: {"line": "..."}')
    line = message["line"]
    if not isinstance(line, str):
        raise IllegalAction("the line must be text")
    if len(line) > MAX_LINE:
        raise IllegalAction(f"a line is at most {MAX_LINE} characters")
    if any(ord(ch) < 32 for ch in line):
        raise IllegalAction("a line is one line of printable text")
    return line.strip()


def page(name: str) -> str:
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
            text = "the console needs the token printed by turnlight"
            return PlainTextResponse(text, 403, headers=private)
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
            hub.views[0],
            sockets.read_to_close,
        )

    async def gm_socket(ws: WebSocket) -> None:
        origin, host = ws.headers.get("origin"), ws.headers.get("host")
        if not allowed(ws.query_params.get("token")) or not same_origin(origin, host):
            await ws.close(code=1008)
            return

        async def listen(page: Page) -> tuple[int, str] | None:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return None
                # A binary message is refused as text that is not JSON would be.
                reply = await asyncio.to_thread(hub.console, message.get("text") or "")
                # Every page shows what the line did before its reply comes back.
                hub.publish(await asyncio.to_thread(hub.build))
                page.reply(json.dumps(reply))

        hub.kick()
        await attend(ws, hub.gms, sockets.MAX_CONSOLES, "consoles", hub.views[1], listen)

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


class WebServer:
    """The app under uvicorn on its own thread: start() binds (raising WebError in one
    line), stop() ends it."""

    def __init__(self, source: Source, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT):
        self.host, self.port = host, port
        self.hub = Hub(source, token_source.token_urlsafe(18))
        self.app = make_app(self.hub)
        self._thread: threading.Thread | None = None
        self._server: Any = None

    @property
    def base(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def player_url(self) -> str:
        return self.base + "/"

    @property
    def gm_url(self) -> str:
        return f"{self.base}/gm?token={self.hub.token}"

    def start(self, timeout: float = 10.0) -> WebServer:
        import uvicorn

        from host.web.ws_protocol import PageProtocol

        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # Named TCP, so that asyncio sets TCP_NODELAY on every connection it accepts (it
        # checks the socket's proto): else a reply right after a view waited for the
        # page's delayed ACK, 40 ms.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as err:
            sock.close()
            raise WebError(f"--web {self.host}:{self.port}: {err.strerror or err}") from None
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            lifespan="on",
            access_log=False,
            # Nothing on the terminal: play's view (or its full screen) owns it.
            log_config=QUIET_LOGS,
            timeout_graceful_shutdown=2,
            # One view goes to every page: compressing it once per page costs more CPU than
            # the few kilobytes save on a local network.
            ws_per_message_deflate=False,
            ws=PageProtocol,
            ws_max_size=sockets.MAX_MESSAGE,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True, name="web"
        )
        self._thread.start()
        started = threading.Event()

        def wait() -> None:
            import time

            deadline = time.monotonic() + timeout
            while not self._server.started and time.monotonic() < deadline:
                if self._thread is None or not self._thread.is_alive():
                    return
                time.sleep(0.01)
            started.set()

        wait()
        if not self._server.started:
            self.stop()
            raise WebError(f"--web {self.host}:{self.port}: the server did not start")
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def _both(first: Any, second: Any) -> Iterator[None]:
    with first, second:
        yield


class PlayLive:
    """The views of a `play` session: its PlayUI (and the simulated board, with --sim)."""

    def __init__(self, ui: Any, sim: SimulatedBoard | None = None) -> None:
        self.ui = ui
        self._sim = sim

    def session(self) -> Session:
        return self.ui.session

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        tether = self.ui.tether
        if tether is None:
            return self.ui.command_lock
        return _both(self.ui.command_lock, tether.lock)

    def stamp(self) -> tuple:
        session = self.ui.session
        tether = self.ui.tether
        version = tether.link.state.version if tether is not None else -1
        return (id(session), len(session.done), len(session.undone), self.ui.shown, version)

    def log(self) -> list[str]:
        # The board's lines not yet taken into play's log: peeked, so that play's own
        # watcher still sees them and redraws the terminal.
        tether = self.ui.tether
        waiting = list(tether.lines) if tether is not None else []
        return list(self.ui.messages) + waiting

    def dice_lines(self) -> list[str]:
        ui = self.ui
        lines = list(ui.dice_log[ui.dice_mark :])
        waiting = ui.session.ruleset.waiting(ui.session.game)
        lines += [f"waiting: {p} x{len(q)}" for p, q in waiting.items() if q]
        return lines

    def odds(self) -> list[str]:
        return list(self.ui._odds())

    def sim(self) -> SimulatedBoard | None:
        return self._sim

    def run(self, line: str) -> list[str]:
        ui = self.ui
        with ui.command_lock:
            before = len(ui.messages)
            ui.run_line(line)
            if ui.odds_lines and line.split()[0].lower() in ui.session.ruleset.language.asides:
                return list(ui.odds_lines)
            return ui.messages[before:] if len(ui.messages) >= before else list(ui.messages)

    def text(self, line: str) -> str | None:
        """The read-only verbs of the prompt (help, scores, table), as text."""
        from host.core.interface import Table
        from host.screens import text_tables

        words = line.split()
        verb = words[0].lower()
        ui = self.ui
        if verb == "help":
            text: str = ui.help_text(words[1] if len(words) > 1 else None, 80)
            verbs = "\n".join(CONSOLE_VERBS.values())
            return text if len(words) > 1 else f"{text}\nthe console's own:\n{verbs}"
        ruleset = ui.session.ruleset
        if verb == "scores":
            with self.lock():
                return text_tables.fitted_table("scores", ruleset.score_table(ui.session.game), 80)
        if verb == "table":
            keys = ("team", "games", "wins", *ruleset.session_totals)
            headers = [ruleset.stat_labels.get(k) or text_tables.humane(k) for k in keys]
            with self.lock():
                rows = [[str(row[k]) for k in keys] for row in ui.session.session_table()]
            return text_tables.fitted_table("session table", Table(headers, rows), 80)
        return None


class DemoLive:
    """The views of a demo: its session and what it printed; the console only reads."""

    def __init__(self, session: Session, lock: Any, sim: Callable[[], SimulatedBoard | None]):
        self._session = session
        self._lock = lock
        self._sim = sim
        self.lines: list[str] = []
        self.changes = 0

    def say(self, line: str) -> None:
        self.lines.append(line)
        self.changes += 1

    def session(self) -> Session:
        return self._session

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        return self._lock

    def stamp(self) -> tuple:
        s = self._session
        return (len(s.done), len(s.undone), self.changes)

    def log(self) -> list[str]:
        return list(self.lines)

    def dice_lines(self) -> list[str]:
        return self._session.ruleset.roll_lines(self._session.game)

    def odds(self) -> list[str]:
        return []

    def sim(self) -> SimulatedBoard | None:
        return self._sim()

    def run(self, line: str) -> list[str]:
        raise IllegalAction("the demo plays itself: the console only watches it")

    def text(self, line: str) -> str | None:
        return None
