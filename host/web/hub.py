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
import functools
import ipaddress
import json
import secrets as token_source
import shlex
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from adafruit_ticks import ticks_ms

from host.core import numbers
from host.core.audience import HEALTH_MODES, Secrets
from host.core.interface import IllegalAction
from host.core.verb_choices import completions
from host.web import sockets
from host.web.board_leds import BoardLeds
from host.web.page_data import GM_ONLY, gm_view, player_view
from host.web.sockets import Page, attend

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

    from host.board.simulated_board import SimulatedBoard
    from host.core.session import Session

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
WATCH_SECONDS = 0.01  # how often the watcher looks for a change
IDLE_WATCH_SECONDS = 0.1  # how often it looks whether a page has opened
VIEW_SECONDS = 0.2  # views go out at most this often: the first of a burst at once
BOARD_SECONDS = 0.05  # how often it samples the simulated board's LEDs (board_leds.py)
TOKEN_EVENT = "web"  # the journal's event that keeps a game's console token
MAX_LINE = 400  # characters in one console line
MAX_COMPLETIONS = 40
STALE_CODE = 4003  # close code: a console whose token is not this game's
STALE = (
    "this console's link is not this game's (turnlight was started again, not resumed):"
    " open the link turnlight printed now, or scan its QR code"
)
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
    "timer": "timer on|off|SECONDS: a turn timer on both pages, from each turn's start"
    " (SECONDS: it counts down from that many); off hides it",
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
    def follow(self) -> None: ...  # the board takes a change of the secrets now


class WebError(ValueError):
    """A bad --web address or a port that cannot be opened; str() is one line."""


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `HOST`, `:PORT` or `PORT` (an IPv6 host in brackets)."""
    host, port = DEFAULT_HOST, DEFAULT_PORT
    text = text.strip()
    if numbers.meant_as_a_number(text):
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
    try:
        return numbers.whole(text, low=0, high=65535)
    except numbers.NotANumber:
        raise WebError(f"--web: the port must be a number from 0 to 65535, not {text!r}") from None


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


def lan_address(ipv6: bool = False) -> str:
    """This machine's address on its network: the one its route to the outside leaves
    from (a UDP socket's connect sends nothing), else the loopback address."""
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
    probe = ("2001:db8::1", 9) if ipv6 else ("192.0.2.1", 9)  # documentation addresses
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probing:
            probing.connect(probe)
            address = str(probing.getsockname()[0])
    except OSError:
        address = ""
    if not address or is_loopback(address) or address in ("0.0.0.0", "::"):
        return "::1" if ipv6 else "127.0.0.1"
    return address


class Hub:
    """The live views and the sockets they go to. Each page gets its view whole once, then
    what changed (`patch`: the view's top-level keys that differ, the page merges them),
    and the simulated board's LEDs as a message of their own (`board`, host/web/board_leds.py)
    only when what they show changes."""

    def __init__(self, source: Source, token: str | None = None) -> None:
        self.source = source
        self.token = token if token is not None else kept_token(source)
        self._token_game: object = None  # the game whose journal holds the token
        self.players: set[Page] = set()
        self.gms: set[Page] = set()
        self._wholes: list[str | None] = [None, None]  # the whole views, once made
        self.views: tuple[str, str] = ("", "")  # the last (player, gm) messages sent
        self._last: tuple[dict[str, Any], dict[str, Any]] | None = None
        self._stamp: tuple | None = None
        self._settings = 0  # moves with every change of the secrets
        self._wake: asyncio.Future[None] | None = None
        self._board_at = 0.0
        self._view_at = -VIEW_SECONDS
        self.leds = BoardLeds()
        self.timer: dict[str, Any] | None = None  # {"since": epoch ms, "limit": s or None}
        self._turn: object = None
        self.board = ""  # the last board message

    @property
    def secrets(self) -> Secrets:
        """What the players must not see: the session's (journalled, host/core/audience.py)."""
        return self.source.session().secrets

    # -- the views ----------------------------------------------------------------------
    def build(self) -> tuple[str, str]:
        """The whole (player, gm) views as messages, JSON text."""
        player, gm = self.views_now()
        return self._player_text({"type": "view", "view": player}), json.dumps(
            {"type": "view", "view": gm}
        )

    def views_now(self, console: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
        """The (player, gm) views as they are now (without `console`, the game master's
        lacks what only the console shows: no console is open)."""
        source = self.source
        with source.lock():
            session = source.session()
            self._keep_token(session)
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
                self._timer(session),
                console=console,
            )
            full["hidden_unknown"] = sorted(
                set(self.secrets.hidden) - {f["name"] for f in full["fighters"]}
            )
        player = player_view(full)
        assert not set(GM_ONLY) & set(player)
        # The console's URL is in play's log for the game master: never on the players' page.
        player["log"] = [line for line in player["log"] if self.token not in line]
        return player, full

    def _timer(self, session: Any) -> dict[str, Any] | None:
        """The turn timer, started again whenever the turn (or the round) moves."""
        ruleset = session.ruleset
        state = ruleset.state(session.game)
        turn = (id(session), state.round, state.turn, state.phase)
        if self.timer is not None and turn != self._turn:
            self.timer = dict(self.timer, since=int(time.time() * 1000))
        self._turn = turn
        return self.timer

    def _player_text(self, message: dict[str, Any]) -> str:
        text = json.dumps(message)
        if self.token in text:  # nowhere on the players' page
            text = text.replace(self.token, "(the console's token)")
        return text

    def _keep_token(self, session: Any) -> None:
        """The game's journal keeps the console's token (a game begun by `new` too), so
        that resuming it does: once the game has an action, so that a game quit before
        any is still left out of the journal as empty."""
        game = getattr(session, "game_id", None)
        if game != self._token_game and (getattr(session, "done", None) or []):
            self._token_game = game
            journal_token(session, self.token)

    def _board_data(self, session: Session) -> dict[str, Any]:
        sim = self.source.sim()
        if sim is None:
            return {"text": session.ruleset.device_grid(session.game, False)}
        return {"leds": True}  # drawn from the board's own messages

    @staticmethod
    def _pixels(sim: SimulatedBoard) -> list[list[tuple[int, int, int]]]:
        with sim.lock:
            return [list(row) for row in sim.grid()]

    # -- the watcher --------------------------------------------------------------------
    def kick(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def poll(self, loop: asyncio.AbstractEventLoop, stop: threading.Event) -> None:
        """The watcher's eyes, on a thread of its own: a look at the session's stamp every
        WATCH_SECONDS, and a wake for the watcher only when it moved (or the board's LEDs
        are due a look). A thread's sleep costs far less than the event loop waking 200
        times a second, with the session's thread waiting on the same GIL.

        It looks only when a look can send something: no page open, it rests (a page that
        opens gets its view from the watcher, kicked by the page's socket); while the view
        just sent holds the next one back (VIEW_SECONDS), it sleeps until then (or until
        the board's LEDs are due), since whatever moved meanwhile goes out then anyway."""
        seen: object = None
        board_at = 0.0
        pause = WATCH_SECONDS
        while not stop.wait(pause):
            pause = WATCH_SECONDS
            if not self.players and not self.gms:
                pause = IDLE_WATCH_SECONDS
                continue
            stamp = (self.source.stamp(), self._settings)
            now = time.monotonic()  # the event loop's clock (loop.time()), as _view_at is
            board = self.source.sim() is not None
            due = board and now - board_at >= BOARD_SECONDS
            if due:
                board_at = now
            if stamp != seen or due:
                seen = stamp
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self.kick)
            held = self._view_at + VIEW_SECONDS - now
            if board:
                held = min(held, board_at + BOARD_SECONDS - now)
            pause = max(pause, held)

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        eyes = threading.Thread(target=self.poll, args=(loop, stop), daemon=True, name="web-poll")
        eyes.start()
        try:
            await self._watch(loop)
        finally:
            stop.set()

    async def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        timer: asyncio.TimerHandle | None = None
        while True:
            self._wake = loop.create_future()
            await self._wake
            if timer is not None:
                timer.cancel()
                timer = None
            if not self.players and not self.gms:
                continue
            now = loop.time()
            sim = self.source.sim()
            if sim is not None and now - self._board_at >= BOARD_SECONDS * 0.9:
                self._board_at = now
                pixels = self._pixels(sim)
                board = self.leds.sample(ticks_ms(), pixels)  # the board's own clock
                if board is not None:
                    self.publish_board(board)
            stamp = (self.source.stamp(), self._settings)
            if stamp == self._stamp:
                continue
            if now - self._view_at < VIEW_SECONDS:  # the view after a burst's first: later
                timer = loop.call_at(self._view_at + VIEW_SECONDS, self.kick)
                continue
            self._stamp = stamp
            try:
                views = await asyncio.to_thread(self.views_now, bool(self.gms))
            except Exception as err:  # a view that cannot be drawn must not stop the server
                for page in list(self.gms):
                    page.reply(json.dumps({"type": "error", "text": str(err)}))
                continue
            if self.publish(views):  # a stamp that moved and changed nothing shown is free
                self._view_at = now

    def publish(self, views: tuple[dict[str, Any], dict[str, Any]]) -> bool:
        """Each page's outbox takes what changed (or the whole view, when the page has
        not yet had the last one); each page's own task sends it. False: nothing changed."""
        player, gm = views
        old = self._last
        self._last = views
        self._wholes = [None, None]  # made when a page needs one
        sent = list(self.views)
        for n, (pages, view) in enumerate(((self.players, player), (self.gms, gm))):
            changed = _changes(old[n] if old is not None else None, view)
            if not changed:
                continue
            patch = {"type": "patch", "view": changed}
            text = self._player_text(patch) if n == 0 else json.dumps(patch)
            sent[n] = text
            for page in list(pages):
                page.outbox.view(functools.partial(self.whole, n), text)
        moved = (sent[0], sent[1]) != self.views
        self.views = (sent[0], sent[1])
        return moved

    def whole(self, n: int) -> str:
        """The last view published, whole, as a message: the players' (0) or the console's."""
        made = self._wholes[n]
        if made is None:
            if self._last is None:
                return ""
            view = self._last[n]
            made = (
                self._player_text({"type": "view", "view": view})
                if n == 0
                else json.dumps({"type": "view", "view": view})
            )
            self._wholes[n] = made
        return made

    @property
    def wholes(self) -> tuple[str, str]:
        return self.whole(0), self.whole(1)

    def publish_board(self, board: dict[str, Any]) -> None:
        """The board's LEDs, to every page: what the players see on the table itself."""
        self.board = json.dumps(board)
        for page in list(self.players) + list(self.gms):
            page.outbox.board(self.board)

    def first(self, n: int) -> list[str]:
        """What a page that opens gets first: the whole view, and the board's LEDs."""
        return [text for text in (self.whole(n), self.board) if text]

    # -- the console --------------------------------------------------------------------
    def console(self, raw: str) -> dict[str, Any]:
        """One message from the console: {"line": "..."} run like a typed line, or
        {"complete": "..."}, a line being typed. Returns the reply: {"type": "reply",
        "ok": bool, "text": "..."}, or {"type": "completions", "line": ..., "items": [...]}
        (whole lines, each the typed line with its last word completed)."""
        try:
            key, line = _line_of(raw)
            if key == "complete":
                return {"type": "completions", "line": line, "items": self.complete(line)}
            text = self._console_line(line.strip())
        except IllegalAction as err:
            return {"type": "reply", "ok": False, "text": f"refused: {err}"}
        return {"type": "reply", "ok": True, "text": text}

    def complete(self, line: str) -> list[str]:
        """The typed line's completions: a verb for its first word, else what play's
        terminal completes there (the acting fighter's moves after its name, say)."""
        head, _, last = line.rpartition(" ")
        with self.source.lock():
            session = self.source.session()
            ruleset = session.ruleset
            if not head.strip():
                language = ruleset.language
                words = [*language.verbs, *language.session_verbs, *CONSOLE_VERBS]
                words += ["help", "scores", "table"]
                found = [w for w in dict.fromkeys(words) if w.startswith(last.lower())]
            else:
                try:
                    words = shlex.split(head)
                except ValueError:
                    return []
                offered = completions(ruleset, session.game, [*words, last])
                found = [w for w in offered if w.lower().startswith(last.lower())]
        prefix = head + " " if head else ""
        return [prefix + w + ("" if w.endswith("=") else " ") for w in found[:MAX_COMPLETIONS]]

    def _console_line(self, line: str) -> str:
        try:
            words = shlex.split(line, comments=True)
        except ValueError as err:
            raise IllegalAction(f"cannot read the line: {err}") from None
        if not words:
            return ""
        verb = words[0].lower()
        if verb == "timer":
            text = self._set_timer(words[1:])
            self._settings += 1
            return text
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

    def _set_timer(self, args: list[str]) -> str:
        usage = CONSOLE_VERBS["timer"].split(":")[0]
        if len(args) != 1:
            raise IllegalAction(f"usage: {usage}")
        word = args[0].lower()
        if word == "off":
            self.timer = None
            return "the turn timer is off"
        if word == "on":
            limit = None
        elif (seconds := numbers.whole_or_none(word)) is not None and 1 <= seconds <= 24 * 3600:
            limit = seconds
        else:
            raise IllegalAction(f"usage: {usage} (SECONDS from 1 to 86400), not {args[0]!r}")
        self.timer = {"since": int(time.time() * 1000), "limit": limit}
        if limit is None:
            return "the turn timer counts each turn's time"
        return f"the turn timer counts down {limit} s from each turn's start"

    def _setting(self, verb: str, args: list[str]) -> str:
        usage = CONSOLE_VERBS[verb].split(":")[0]
        with self.source.lock():
            session = self.source.session()
            fighters = [f.name for f in session.ruleset.fighters(session.game)]
            teams = list(session.encounter.teams)
            now = Secrets.from_json(session.secrets.to_json())  # changed as a copy
        if verb == "health":
            if len(args) != 1 or args[0].lower() not in HEALTH_MODES:
                raise IllegalAction(f"usage: {usage}")
            now.health = args[0].lower()
            said = f"the other teams' health shows as: {now.health}"
        elif not args:
            raise IllegalAction(f"usage: {usage}")
        elif verb == "players":
            now.players = _one_of(" ".join(args), teams, "team")
            said = f"the players' team: {now.players}"
        else:
            name = _one_of(" ".join(args), fighters, "fighter")
            if verb == "hide":
                now.hidden.add(name)
                said = f"{name} is hidden from the players' page until `reveal {name}`"
            elif name not in now.hidden:
                raise IllegalAction(f"{name} is not hidden")
            else:
                now.hidden.discard(name)
                said = f"{name} shows on the players' page again"
        with self.source.lock():  # the views read the secrets under it
            self.source.session().set_secrets(now)
        self.source.follow()  # the board shows what the players' page shows
        return said


def _changes(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """The top-level keys of `new` whose values differ from `old`'s (all, without one)."""
    if old is None:
        return dict(new)
    return {k: v for k, v in new.items() if old.get(k, _changes) != v}


def kept_token(source: Source) -> str:
    """The console's token: the one the game's journal keeps (so that a console left open
    rejoins after `play --resume`), else a new one (journalled by the Hub once the game
    has an action)."""
    session = source.session()
    journal, game = getattr(session, "journal", None), getattr(session, "game_id", None)
    if journal is not None and game is not None:
        kept = (journal.last_event(game, TOKEN_EVENT) or {}).get("token")
        if isinstance(kept, str) and 16 <= len(kept) <= 64 and kept.isascii():
            return kept
    return token_source.token_urlsafe(18)


def journal_token(session: Any, token: str) -> None:
    journal, game = getattr(session, "journal", None), getattr(session, "game_id", None)
    if journal is None or game is None or not getattr(journal, "writable", False):
        return
    if (journal.last_event(game, TOKEN_EVENT) or {}).get("token") == token:
        return
    from host.core.journal import JournalError

    # A journal that cannot take it: the token lasts as long as this server, as before.
    with contextlib.suppress(JournalError, sqlite3.Error):
        journal.append(game, TOKEN_EVENT, {"token": token})


def _one_of(wanted: str, choices: list[str], what: str) -> str:
    for choice in choices:
        if choice.lower() == wanted.lower():
            return choice
    raise IllegalAction(f"no {what} {wanted!r}: one of {', '.join(choices)}")


def _line_of(raw: str) -> tuple[str, str]:
    """The console message's kind ("line" or "complete") and its line, checked as the
    prompt would take it."""
    if len(raw) > MAX_LINE + 100:
        raise IllegalAction(f"a console message is at most {MAX_LINE} characters")
    try:
        message = json.loads(raw)
    except ValueError:
        raise IllegalAction('a console message is JSON: {"line": "..."}') from None
    if not isinstance(message, dict) or set(message) not in ({"line"}, {"complete"}):
        raise IllegalAction('a console message is JSON: {"line": "..."}')
    key = next(iter(message))
    line = message[key]
    if not isinstance(line, str):
        raise IllegalAction("the line must be text")
    if len(line) > MAX_LINE:
        raise IllegalAction(f"a line is at most {MAX_LINE} characters")
    if any(ord(ch) < 32 for ch in line):
        raise IllegalAction("a line is one line of printable text")
    return key, line


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

        if hub._last is None or "commands" not in hub._last[1]:
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


class WebServer:
    """The app under uvicorn on its own thread: start() binds (raising WebError in one
    line), stop() ends it."""

    def __init__(self, source: Source, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT):
        self.host, self.port = host, port
        self.hub = Hub(source)  # the token the game's journal keeps, or a new one
        self.app = make_app(self.hub)
        self._thread: threading.Thread | None = None
        self._server: Any = None

    @property
    def shown_host(self) -> str:
        """The address the URLs name: bound to every address, this machine's address on
        its network (what a phone scanning the QR code can reach), not 0.0.0.0."""
        if self.host in ("0.0.0.0", "::", ""):
            return lan_address(self.host == "::")
        return self.host

    @property
    def base(self) -> str:
        host = self.shown_host
        host = f"[{host}]" if ":" in host else host
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

    def follow(self) -> None:
        tether = self.ui.tether
        if tether is not None:
            tether.guard(list)

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

    def __init__(
        self,
        session: Session,
        lock: Any,
        sim: Callable[[], SimulatedBoard | None],
        follow: Callable[[], object] = list,
    ):
        self._session = session
        self._lock = lock
        self._sim = sim
        self._follow = follow  # brings the board in step with the secrets
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

    def follow(self) -> None:
        self._follow()

    def run(self, line: str) -> list[str]:
        raise IllegalAction("the demo plays itself: the console only watches it")

    def text(self, line: str) -> str | None:
        return None
