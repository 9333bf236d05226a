"""The seed is the game master's alone (issue #37 item 3): the engine's dice follow from the
seed and the action's number, so a players' page that read "new game, seed 4" let the
players work out the rolls to come. After `new` the players read "new game"; the game
master's log, the console and `url` keep the seed."""

from __future__ import annotations

import json
from io import StringIO

from rich.console import Console
from starlette.testclient import TestClient

from host.core import registry
from host.core.session import Session
from host.screens.play_ui import PlayUI
from host.web.hub import Hub
from host.web.routes import make_app
from host.web.sources import PlayLive

TOKEN = "the-token"


def _ui(seed: int) -> PlayUI:
    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), seed)
    return PlayUI(session, Console(file=StringIO(), width=100, height=40), "no board")


def test_the_seed_of_a_new_game_never_reaches_the_players_page() -> None:
    ui = _ui(3)
    hub = Hub(PlayLive(ui), TOKEN)
    with (
        TestClient(make_app(hub)) as client,
        client.websocket_connect("/ws") as players,
        client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm,
    ):
        ui.handle("new")  # typed at play's prompt: game 2 of the session, seed 4
        sent: list[str] = []
        log: list[str] = []
        while not any(line.startswith("new game") for line in log):  # all sent them, to it
            text = players.receive_text()
            sent.append(text)
            message = json.loads(text)
            if message["type"] in ("view", "patch") and "log" in message["view"]:
                log = message["view"]["log"]
        assert all("seed" not in text for text in sent), sent
        gm_log: list[str] = []
        while not any(line.startswith("new game") for line in gm_log):  # the console's
            message = gm.receive_json()
            if message["type"] in ("view", "patch") and "log" in message["view"]:
                gm_log = message["view"]["log"]
        assert "new game, seed 4" in gm_log  # the console keeps it
    assert ui.messages == ["new game, seed 4"]  # play's own log, the game master's
    assert "seed 4" in ui.started_text()  # `url`


def test_the_players_view_made_for_any_page_leaves_the_seed_out() -> None:
    """The players' page on a phone and on a TV is one view (page_data.player_view)."""
    ui = _ui(7)
    ui.handle("new")
    player, gm = Hub(PlayLive(ui), TOKEN).views_now()
    assert "new game, seed 8" in gm["log"]
    assert "new game" in player["log"]
    assert "seed" not in json.dumps(player)


def test_a_demo_s_heading_reaches_the_players_page_without_its_seed(monkeypatch) -> None:
    """A demo served on the web (`demo --web`) said "(seed 3)" in its first line to the
    players: its heading is a Line whose players' wording leaves the seed out, and the
    pages' log keeps that wording."""
    import threading

    from host.commands import demo
    from host.web.hub import Hub
    from host.web.sources import DemoLive

    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 3)
    live = DemoLive(session, threading.RLock(), lambda: None)
    said: list[str] = []

    class Stop(Exception):
        pass

    def out(line: str) -> None:
        said.append(line)
        raise Stop  # the heading is all this test needs

    try:
        demo._play(session, demo.to_pages(live, out), session.execute, str, print, None)
    except Stop:
        pass
    assert "seed 3" in said[0]  # the game master's terminal keeps it
    player, gm = Hub(live).build()
    assert "seed" not in json.loads(player)["view"]["log"][0]
    assert "seed 3" in json.loads(gm)["view"]["log"][0]
