"""The web pages (#16) at the server level: Starlette's test client and its WebSocket
client against the real app, a real session and journal, and (for board presses) the
simulated board on a real pty. The messages themselves are checked, not only a page: what
the players must not see is never in what their socket receives."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from waiting import WAIT

from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.audience import health_word
from host.core.journal import Journal
from host.core.session import Session, resume
from host.screens.play_ui import PlayUI
from host.web.address import DEFAULT_HOST, DEFAULT_PORT, WebError, parse_address
from host.web.hub import Hub, merged
from host.web.page_data import PAUSE, score_text
from host.web.routes import STALE_CODE, make_app
from host.web.sources import PlayLive

TOKEN = "the-token"


def _session(ruleset: str = "korxsol", journal: Journal | None = None, seed: int = 3) -> Session:
    r = registry.get(ruleset)
    path = r.example_path()
    return Session(r.parse_encounter(path.read_text(), str(path)), seed, journal)


def _ui(session: Session, **kw: Any) -> PlayUI:
    return PlayUI(session, Console(file=StringIO(), width=100, height=40), "no board", **kw)


@contextmanager
def served(ui: PlayUI, sim: Any = None) -> Iterator[tuple[TestClient, Hub]]:
    hub = Hub(PlayLive(ui, sim), TOKEN)
    with TestClient(make_app(hub)) as client:
        yield client, hub


_SEEN: dict[int, dict] = {}  # each socket's view as its page holds it


def until(ws: Any, check: Callable[[dict], bool]) -> dict:
    """The first message on `ws` (a view, or a console's reply) that passes `check`. A
    patch is merged into the view the socket had, as the page does, and seen as a view.
    Bounded by time, not by a count: a busy machine's board LEDs (a message every 50 ms)
    can come many times between two views."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        message = ws.receive_json()
        if message["type"] == "view":
            _SEEN[id(ws)] = message["view"]
        elif message["type"] == "patch":
            message = {"type": "view", "view": merged(_SEEN[id(ws)], message)}
            _SEEN[id(ws)] = message["view"]
        if check(message):
            return message
    raise AssertionError(f"not within {WAIT:g} s: the message waited for")


def view_where(ws: Any, check: Callable[[dict], bool]) -> dict:
    return until(ws, lambda m: m["type"] == "view" and check(m["view"]))["view"]


def reply(gm: Any, line: str) -> dict:
    gm.send_text(json.dumps({"line": line}))
    return until(gm, lambda m: m["type"] == "reply")


# -- serving --------------------------------------------------------------------------------


def test_the_players_page_needs_no_token_and_the_console_needs_its_own() -> None:
    with served(_ui(_session())) as (client, hub):
        assert client.get("/").status_code == 200
        assert 'data-role="player"' in client.get("/").text
        assert client.get("/gm").status_code == 403
        assert client.get("/gm?token=wrong").status_code == 403
        page = client.get(f"/gm?token={TOKEN}")
        assert page.status_code == 200 and 'data-role="gm"' in page.text
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/static/../routes.py").status_code == 404
        for path in ("/ws/gm", "/ws/gm?token=wrong"):
            with client.websocket_connect(path) as ws:
                told = ws.receive_json()
                assert told["type"] == "stale" and "link turnlight printed" in told["text"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == STALE_CODE
                assert not hub.gms  # never counted as a console


def test_the_console_s_token_is_the_game_s_kept_in_its_journal_once_it_has_an_action(
    tmp_path: Path,
) -> None:
    """Issue #28 item 8: `play --resume` serves the token the console was opened with. A
    game quit before its first action keeps nothing (it is left out as empty)."""
    from host.web.hub import TOKEN_EVENT

    path = tmp_path / "j.sqlite"
    session = _session(journal=Journal(path))
    game = session.game_id
    assert game is not None and session.journal is not None
    hub = Hub(PlayLive(_ui(session)))
    hub.views_now()
    assert session.journal.last_event(game, TOKEN_EVENT) is None
    session.execute("initiative")
    hub.views_now()
    assert session.journal.last_event(game, TOKEN_EVENT) == {"token": hub.token}
    session.journal.release(game)
    resumed = resume(Journal(path), game)
    assert Hub(PlayLive(_ui(resumed))).token == hub.token
    assert Hub(PlayLive(_ui(_session(journal=Journal(path))))).token != hub.token


def test_the_game_master_starts_and_stops_a_turn_timer_that_restarts_each_turn() -> None:
    """Issue #28 item 11: an optional turn timer, on both pages."""
    ui = _ui(_session())
    with (
        served(ui) as (client, _),
        client.websocket_connect("/ws") as ws,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        assert reply(gm, "initiative")["ok"]
        assert view_where(ws, lambda v: v["round"] == 1)["timer"] is None  # off at first
        said = reply(gm, "timer soon")
        assert not said["ok"] and "\n" not in said["text"] and "SECONDS" in said["text"]
        assert reply(gm, "timer 60")["ok"]
        started = view_where(ws, lambda v: v["timer"] is not None)["timer"]
        assert started["limit"] == 60
        time.sleep(0.01)
        assert reply(gm, "end")["ok"]  # the next turn: the timer starts again
        again = view_where(ws, lambda v: v["timer"] and v["timer"]["since"] > started["since"])
        assert again["timer"]["limit"] == 60
        assert reply(gm, "timer off")["ok"]
        assert view_where(ws, lambda v: v["timer"] is None)["timer"] is None


def test_the_wrong_token_page_has_the_page_s_style_and_says_what_to_do() -> None:
    """Issue #28 item 13: not a bare line."""
    with served(_ui(_session())) as (client, _):
        page = client.get("/gm?token=from-yesterday")
        assert page.status_code == 403
        assert page.headers["referrer-policy"] == "no-referrer"
        assert '<link rel="stylesheet" href="/static/app.css">' in page.text
        assert "--resume" in page.text and "QR code" in page.text
        assert 'href="/"' in page.text  # the players' page, which needs no token


def test_the_pages_load_nothing_from_outside_this_machine() -> None:
    """No CDN and no build step: every page and file it loads comes from the package."""
    with served(_ui(_session())) as (client, _):
        for path in ("/", f"/gm?token={TOKEN}", "/static/app.js", "/static/app.css"):
            text = client.get(path).text
            assert not re.search(r"(src|href)=\"(https?:)?//", text), path
            assert "http://" not in text and "https://" not in text, path


def test_an_address_is_host_and_port_and_the_default_is_this_machine_only() -> None:
    assert parse_address("") == (DEFAULT_HOST, DEFAULT_PORT) == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert parse_address("9001") == ("127.0.0.1", 9001)
    assert parse_address(":9002") == ("127.0.0.1", 9002)
    assert parse_address("[::1]:9003") == ("::1", 9003)
    with pytest.raises(WebError, match="port must be a number"):
        parse_address("localhost:http")


# -- live -----------------------------------------------------------------------------------


def test_a_typed_command_and_undo_update_the_players_page() -> None:
    ui = _ui(_session())
    with served(ui) as (client, _), client.websocket_connect("/ws") as ws:
        first = view_where(ws, lambda v: True)
        assert first["round"] == 0
        ui.handle("initiative")  # typed at play's prompt
        started = view_where(ws, lambda v: v["round"] == 1)
        assert any(f["current"] for f in started["fighters"])
        assert started["log"][-1].startswith("round 1:")
        ui.handle("undo")
        assert view_where(ws, lambda v: v["round"] == 0)["round"] == 0


def test_a_board_press_updates_the_players_page_with_the_board_s_leds() -> None:
    session = _session()
    with TetheredSim(session, "trellis_m4") as table:
        ui = _ui(session, tether=table.tether)
        with served(ui, table.sim) as (client, _), client.websocket_connect("/ws") as ws:
            first = view_where(ws, lambda v: True)
            assert first["board"] == {"leds": True}  # drawn from the board's messages
            leds = until(ws, lambda m: m["type"] == "board")
            assert leds["width"] == 8 and len(leds["leds"]) == 32  # the Trellis M4's grid
            table.sim.press(table.sim.key_for("next_turn"))  # the board's key: initiative
            started = view_where(ws, lambda v: v["round"] == 1)
            assert any(line.startswith("board: ") for line in started["log"])
            assert table.tether is not None and list(
                table.tether.lines
            )  # only peeked: play's own watcher still sees them


def test_a_resumed_game_shows_as_it_was(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    session = _session(journal=journal)
    session.execute("initiative")
    session.execute("end")
    resumed = resume(Journal(tmp_path / "j.sqlite"))
    with served(_ui(resumed)) as (client, _), client.websocket_connect("/ws") as ws:
        shown = view_where(ws, lambda v: True)
        current = [f["name"] for f in shown["fighters"] if f["current"]]
        assert shown["status"] == session.ruleset.headline(session.game)[1]
        assert current and current[0] in shown["status"]


# -- the console ----------------------------------------------------------------------------


def test_the_console_runs_play_s_commands_with_the_same_one_line_errors() -> None:
    ui = _ui(_session())
    with served(ui) as (client, _), client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm:
        done = reply(gm, "initiative")
        assert done["ok"] and "round 1" in done["text"]
        assert len(ui.session.done) == 1
        for line in ("attack Nobody", "frobnicate", 'move "unclosed'):
            refused = reply(gm, line)
            out = StringIO()
            ui.console = Console(file=out, width=400)
            ui.handle(line)  # the same line typed at the prompt
            assert not refused["ok"]
            assert refused["text"] == out.getvalue().strip()
            assert "\n" not in refused["text"]
        assert len(ui.session.done) == 1  # nothing changed
        assert reply(gm, "undo")["ok"] and ui.session.done == []
        assert "undo" in reply(gm, "help")["text"]


def test_every_console_message_is_checked_like_a_typed_line() -> None:
    ui = _ui(_session())
    with served(ui) as (client, _), client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm:
        for raw in (
            "initiative",  # not JSON
            json.dumps(["initiative"]),
            json.dumps({"line": "initiative", "also": 1}),
            json.dumps({"line": 7}),
            json.dumps({"line": "initiative\nend"}),
            json.dumps({"line": "x" * 500}),
            json.dumps({"line": "quit"}),
            json.dumps({"line": "hide Nobody"}),
            json.dumps({"line": "health loud"}),
        ):
            gm.send_text(raw)
            answer = until(gm, lambda m: m["type"] == "reply")
            assert not answer["ok"] and answer["text"].startswith("refused: "), raw
            assert "\n" not in answer["text"]
        assert ui.session.done == []


def test_the_players_socket_can_change_nothing() -> None:
    ui = _ui(_session())
    with served(ui) as (client, hub), client.websocket_connect("/ws") as ws:
        view_where(ws, lambda v: True)
        for raw in (
            json.dumps({"line": "initiative"}),
            "initiative",
            json.dumps({"line": "hide Orrin"}),
        ):
            ws.send_text(raw)
        time.sleep(0.5)  # time enough for the server to have read them
        assert ui.session.done == []
        assert hub.secrets.hidden == set()


# -- hidden information -----------------------------------------------------------------------


def test_a_hidden_fighter_is_never_sent_to_the_players_until_revealed() -> None:
    ui = _ui(_session())
    with (
        served(ui) as (client, _),
        client.websocket_connect("/ws") as ws,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        assert reply(gm, "hide Orrin")["ok"]
        seen: list[str] = []
        held: dict = {}  # the view as the page holds it: the whole one, patches merged

        def raw_view(check: Callable[[dict], bool]) -> dict:
            while True:
                text = ws.receive_text()
                seen.append(text)
                message = json.loads(text)
                if message["type"] in ("view", "patch"):
                    whole = merged(held, message) if message["type"] == "patch" else message["view"]
                    held.clear()
                    held.update(whole)
                    if check(held):
                        return dict(held)

        raw_view(lambda v: all(f["name"] != "Orrin" for f in v["fighters"]))
        seen.clear()  # the views from before `hide` showed Orrin, as they should
        assert reply(gm, "initiative")["ok"]  # every fighter rolls, Orrin too
        started = raw_view(lambda v: v["round"] == 1)
        for _ in range(3):  # to Orrin's turn: Kaelen, Brimm, Vexa end theirs
            ui.handle("end")
        # Orrin's turn is, to the players, a pause the game master keeps.
        orrin_s_turn = raw_view(lambda v: v["log"] != started["log"] and v["status"] == PAUSE)
        assert not any(f["current"] for f in orrin_s_turn["fighters"])
        assert orrin_s_turn["phase"] == ""
        gm_view = view_where(gm, lambda v: v["round"] == 1)
        assert any(f["name"] == "Orrin" and f["hidden"] for f in gm_view["fighters"])
        assert any("Orrin" in line for line in gm_view["log"])  # the game master sees all
        for text in seen:  # the messages themselves, not a page
            assert "Orrin" not in text and '"Orn"' not in text
            assert '"table"' not in text and '"odds"' not in text and TOKEN not in text
        assert reply(gm, "reveal Orrin")["ok"]
        shown = raw_view(lambda v: any(f["name"] == "Orrin" for f in v["fighters"]))
        assert "leds" in shown["board"] or "text" in shown["board"]


def test_a_hidden_fighter_s_effects_reach_no_message_to_the_players() -> None:
    """issue #29 item 5, host/core/audience.py: an effect on a hidden fighter (its name,
    its note, its save's question, its end) and one that waits on its turn are the game
    master's alone, in every message the players' page receives."""
    ui = _ui(_session())
    with (
        served(ui) as (client, _),
        client.websocket_connect("/ws") as ws,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        assert reply(gm, "hide Orrin")["ok"]
        view_where(ws, lambda v: all(f["name"] != "Orrin" for f in v["fighters"]))
        # (the views from before `hide` showed Orrin, as they should)
        assert reply(gm, "initiative")["ok"]
        assert reply(gm, "effect Orrin Witherhex save=end note=lichmark")["ok"]
        assert reply(gm, "effect Kaelen Starward until=start of=Orrin")["ok"]
        assert reply(gm, "effect Vexa Bless rounds=1")["ok"]
        for _ in range(5):  # round 1 through Orrin's turn, into round 2
            assert reply(gm, "end")["ok"]
        assert reply(gm, "effect save Orrin Witherhex yes")["ok"]
        said = "\n".join(ui.messages)
        assert "Witherhex on Orrin: does" in said and "Witherhex on Orrin ends" in said
        assert "Bless on Vexa ends" in said
        seen: list[str] = []
        held: dict = {}
        while not any("Bless on Vexa ends" in line for line in held.get("log", [])):
            text = ws.receive_text()  # everything the players' page is sent, to the last
            seen.append(text)
            message = json.loads(text)
            if message["type"] in ("view", "patch"):
                held = merged(held, message) if message["type"] == "patch" else message["view"]
        assert any("Bless on Vexa" in text for text in seen)  # (the effects were sent)
        for text in seen:
            assert "Witherhex" not in text and "lichmark" not in text, text
            assert "Starward" not in text and "Orrin" not in text, text


@pytest.mark.parametrize("mode", ["word", "bar", "none"])
def test_the_other_team_s_health_shows_as_the_game_master_chooses(mode: str) -> None:
    session = _session()
    session.execute("initiative")
    ui = _ui(session)
    with served(ui) as (client, _):
        with client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm:
            assert reply(gm, f"health {mode}")["ok"]
            assert reply(gm, "players Dawn")["ok"]
        with client.websocket_connect("/ws") as ws:
            view = view_where(ws, lambda v: True)
        for f in view["fighters"]:
            health = f.get("health")
            if f["team"] == "Dawn":
                assert health is not None and re.fullmatch(r"\d+/\d+", health["text"])
                continue
            text = json.dumps(f)
            assert not re.search(r"\d+/\d+", text)  # never the number
            if mode == "word":
                assert health == {"text": "unhurt"}
            elif mode == "bar":
                assert health == {"bar": 1.0}
            else:
                assert health is None


def test_health_words_go_from_unhurt_to_down() -> None:
    assert [health_word(h, 10) for h in (10, 9, 6, 5, 1, 0)] == [
        "unhurt",
        "hurt",
        "hurt",
        "bloodied",
        "bloodied",
        "down",
    ]


# -- every ruleset --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(registry.ids()))
def test_every_ruleset_shows_through_the_same_page(ruleset: str) -> None:
    session = _session(ruleset)
    r = session.ruleset
    ui = _ui(session)
    with (
        served(ui) as (client, hub),
        client.websocket_connect("/ws") as ws,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        if r.start_command:
            assert reply(gm, r.start_command)["ok"]
        for line in r.plan_turn(session.game):
            assert reply(gm, line)["ok"], line
        full = json.loads(hub.wholes[1])["view"]  # the last sent to the console, whole
        assert full["log"]
        # nobody hidden: the players see the whole log but the game master's own lines
        # (the odds said before an attack), and the same scores
        theirs = [m for m in ui.messages[-len(full["log"]) :] if m.audience == "all"]
        assert theirs
        view = view_where(ws, lambda v: v["log"] == theirs)
        names = set(r.summary(session.game)["team_of"])
        assert {f["name"] for f in view["fighters"]} <= names
        assert len(view["fighters"]) == r.state(session.game).count
        assert view["title"] and view["scores"] == score_text(r.score_line(session.game))
        assert full["table"]["headers"] == r.live_roster(session.game).headers


# -- the command line -----------------------------------------------------------------------


def _turnlight(*args: str, typed: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_play_web_on_this_machine_prints_the_console_s_url_and_how_to_let_phones_in(
    tmp_path: Path,
) -> None:
    """The first-hour issue, item 4: a QR code of 127.0.0.1 takes a phone to itself, so
    plain `--web` prints none, and one line says how to serve on the network instead."""
    done = _turnlight(
        "play",
        "--no-board",
        "--db",
        str(tmp_path / "j.sqlite"),
        "--web",
        "127.0.0.1:0",
        typed="initiative\nquit\n",
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"players' page: http://127\.0\.0\.1:\d+/", done.stderr)
    assert re.search(
        r"game master's console: http://127\.0\.0\.1:\d+/gm\?token=\S{20,}", done.stderr
    )
    assert "▀" not in done.stderr and "█" not in done.stderr  # no QR code
    hints = [line for line in done.stderr.splitlines() if line.startswith("phones cannot")]
    assert len(hints) == 1 and "--web 0.0.0.0:" in hints[0], done.stderr
    assert "warning" not in done.stderr


def test_another_address_than_this_machine_s_own_prints_a_warning(tmp_path: Path) -> None:
    done = _turnlight(
        "play",
        "--no-board",
        "--db",
        str(tmp_path / "j.sqlite"),
        "--web",
        "0.0.0.0:0",
        typed="quit\n",
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    # (and, on a machine with no network, a second: no address a phone could reach)
    assert len([w for w in warnings if "anyone who can reach this machine" in w]) == 1


def test_bound_to_every_address_the_urls_and_qr_code_name_one_a_phone_can_reach(
    tmp_path: Path,
) -> None:
    """Issue #28 item 8: not 0.0.0.0 (nobody can open it) nor 127.0.0.1 (only this
    machine): the machine's address on its network, in the URLs and in the QR code."""
    import segno

    from host.web.address import lan_address

    done = _turnlight(
        "play",
        "--no-board",
        "--db",
        str(tmp_path / "j.sqlite"),
        "--web",
        "0.0.0.0:0",
        typed="quit\n",
    )
    assert done.returncode == 0, done.stderr
    players = re.search(r"players' page: http://([^/:]+):\d+/", done.stderr)
    console = re.search(r"game master's console: (\S+)", done.stderr)
    assert players and console
    assert players.group(1) == lan_address() != "0.0.0.0"
    assert "0.0.0.0" not in console.group(1)
    drawn = StringIO()  # the QR code printed is the console's URL as printed
    segno.make(console.group(1), error="l").terminal(out=drawn, compact=True, border=2)
    assert drawn.getvalue() in done.stderr


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _turnlight(
            "play",
            "--no-board",
            "--db",
            str(tmp_path / "j.sqlite"),
            "--web",
            f"127.0.0.1:{port}",
            typed="quit\n",
        )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(f"turnlight: --web 127.0.0.1:{port}:")


def test_the_console_prints_play_s_tables_and_help() -> None:
    ui = _ui(_session())
    with served(ui) as (client, _), client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm:
        assert reply(gm, "initiative")["ok"]
        scores = reply(gm, "scores")
        assert scores["ok"] and "Kaelen" in scores["text"]
        table = reply(gm, "table")
        assert table["ok"] and "Dawn" in table["text"]
        helped = reply(gm, "help")["text"]
        for verb in ("initiative", "attack", "hide NAME", "health number|word|bar|none"):
            assert verb in helped
        assert len(ui.session.done) == 1


def test_a_fighter_s_full_name_is_the_one_its_ruleset_gives_its_board_slot() -> None:
    """The default Ruleset.fighters() names each slot by the ruleset's fighter_names (korxsol's
    `Orn` is Orrin) and its team by the game's teams."""
    session = _session()
    fighters = session.ruleset.fighters(session.game)
    assert {(f.label, f.name) for f in fighters} == {
        ("Kae", "Kaelen"),
        ("Vex", "Vexa"),
        ("Orn", "Orrin"),
        ("Brm", "Brimm"),
    }
    assert {f.team for f in fighters} == {"Dawn", "Dusk"}
    assert all(f.health == f.health_max for f in fighters)


def test_a_fighter_whose_label_does_not_abbreviate_its_name_is_still_named() -> None:
    """No name is guessed from a label: `Kae` stands for Marek when the encounter says so."""
    r = registry.get("korxsol")
    text = r.example_path().read_text().replace('name = "Kaelen"', 'name = "Marek"')
    session = Session(r.parse_encounter(text, "renamed.toml"), 3)
    fighters = {f.label: f for f in r.fighters(session.game)}
    assert fighters["Kae"].name == "Marek"
    assert fighters["Kae"].team == "Dawn"


def test_demo_web_shows_the_demo_live_to_its_end(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    # Ctrl-C as at a terminal: a suite started in the background (`make test &`, a CI
    # runner) hands its children an ignored SIGINT, and the demo would never stop.
    ctrl_c = "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
    demo = subprocess.Popen(
        [sys.executable, "-c", f"{ctrl_c}; runpy.run_module('host.cli', run_name='__main__')"]
        + ["demo", "--no-board", "--pace", "0.01", "--seed", "4", "--web", "127.0.0.1:0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert demo.stderr is not None
        address = ""
        for line in demo.stderr:
            found = re.search(r"players' page: http://(127\.0\.0\.1:\d+)/", line)
            if found:
                address = found.group(1)
                break
        assert address
        rounds = set()
        view: dict = {}
        with connect(f"ws://{address}/ws") as ws:
            while True:
                message = json.loads(ws.recv(timeout=WAIT))
                if message["type"] not in ("view", "patch"):
                    continue
                view = merged(view, message)  # a patch: what changed
                rounds.add(view["round"])
                if view["winner"]:
                    break
        assert len(rounds) > 2  # it watched the game go by, to its winner
        said = ""
        for line in demo.stderr:  # the console's URL and QR code, then the end
            if "stay up" in line:
                said = line
                break
        assert said.strip() == "the demo is over; the web pages stay up until Ctrl-C"
    finally:
        demo.send_signal(signal.SIGINT)  # Ctrl-C
        assert demo.wait(WAIT) == 0


def test_the_console_s_token_in_play_s_log_never_reaches_the_players() -> None:
    ui = _ui(_session())
    ui.messages.append(f"web: players http://127.0.0.1:8765/, console .../gm?token={TOKEN}")
    with (
        served(ui) as (client, _),
        client.websocket_connect("/ws") as ws,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        text = ws.receive_text()
        assert TOKEN not in text and json.loads(text)["type"] == "view"
        assert any(TOKEN in line for line in gm.receive_json()["view"]["log"])


def test_a_hidden_fighter_s_roll_shows_no_faces_to_the_players() -> None:
    from host.web.page_data import Secrets, gm_view, player_view

    session = _session()
    session.execute("initiative")
    r = session.ruleset
    session.execute(r.plan_turn(session.game)[0])  # the active fighter's first action
    state = r.state(session.game)
    assert state.roll.kind  # a roll the board shows, and who made it
    roller = state.slots[state.roll.who].label
    active = next(f for f in r.fighters(session.game) if f.label == roller)
    teams = tuple(session.encounter.teams)
    shown = player_view(gm_view(r, session.game, teams, Secrets(), [], [], [], {}))
    assert shown["dice"]["faces"] and "who" not in shown["dice"]
    secrets = Secrets(hidden={active.name})
    full = gm_view(r, session.game, teams, secrets, [], [], [], {})
    assert full["dice"]["faces"] and full["dice"]["who"] == active.label
    hidden = player_view(full)
    assert hidden["dice"]["faces"] == [] and active.name not in json.dumps(hidden)


def test_sim_web_shows_a_board_on_its_own_and_follows_its_keys() -> None:
    """`turnlight sim --web`: no session, the board's own state (the reference table) and
    LEDs through the same page; a key pressed on the board shows."""
    from host.board.simulated_board import SimulatedBoard
    from host.web.board_source import BoardLive
    from shared.reference import build_reference_state

    sim = SimulatedBoard("trellis_m4", seed=1)
    sim.load_state(build_reference_state())
    sim.start()
    try:
        hub = Hub(BoardLive(sim), TOKEN)
        with (
            TestClient(make_app(hub)) as client,
            client.websocket_connect("/ws") as ws,
            client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
        ):
            first = view_where(ws, lambda v: True)
            assert len(first["fighters"]) == 8 and first["board"] == {"leds": True}
            assert first["status"].endswith("'s turn")
            sim.press(sim.key_for("next_turn"))
            moved = view_where(ws, lambda v: v["status"] != first["status"])
            assert [f["name"] for f in moved["fighters"] if f["current"]] != [
                f["name"] for f in first["fighters"] if f["current"]
            ]
            refused = reply(gm, "end")
            assert not refused["ok"] and "press its keys" in refused["text"]
            assert reply(gm, f"hide {first['fighters'][0]['name']}")["ok"]
    finally:
        sim.stop()


def test_every_page_file_is_package_data() -> None:
    """An installed turnlight (not only an editable one) serves every page file."""
    import fnmatch

    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["host.web"]
    files = [p.relative_to(root / "host" / "web") for p in (root / "host/web/static").iterdir()]
    assert files
    for f in files:
        assert any(fnmatch.fnmatch(str(f), pattern) for pattern in patterns), f


@pytest.mark.parametrize("command", ["play", "demo", "sim"])
def test_an_unreadable_web_address_is_one_line_before_anything_starts(
    command: str, tmp_path: Path
) -> None:
    done = _turnlight(command, "--web", "127.0.0.1:http", typed="quit\n")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "turnlight: --web: the port must be a number from 0 to 65535, not 'http'"
    ]


def test_korxsol_s_fighters_name_their_cooldowns_by_the_move() -> None:
    """korxsol overrides fighters() only for its words: a move used this turn cools down
    under its own name, not the board's timer number."""
    session = _session()
    session.execute("initiative")
    session.execute('attack Kae "Flame Slash" Orn')
    kaelen = next(f for f in session.ruleset.fighters(session.game) if f.name == "Kaelen")
    assert kaelen.cooldowns == ["Flame Slash 1"]
    assert kaelen.current and kaelen.health == kaelen.health_max == 16


def test_a_patch_of_a_turn_of_24_sends_only_the_fighters_that_changed() -> None:
    """The big-table issue's `web_viewers_cpu_pct` with 24 fighters: each patch sent all 24
    fighters to each of 20 pages when a turn changed two or three. A patch holds the
    fighters that changed, by their place, and a page merging it holds the new view."""
    from host.lab.web_pictures import big_table
    from host.web.hub import patch_message
    from host.web.sources import DemoLive

    session = big_table(24)
    hub = Hub(DemoLive(session, threading.RLock(), lambda: None))
    before, _ = hub.views_now(False)
    session.execute("end")
    after, _ = hub.views_now(False)
    patch = patch_message(before, after)
    assert patch is not None and "fighters" not in patch["view"]
    changed = patch["items"]["fighters"]
    assert 0 < len(changed) < 24
    assert merged(before, patch) == after
    assert len(json.dumps(patch)) < len(json.dumps({"view": {"fighters": after["fighters"]}}))
