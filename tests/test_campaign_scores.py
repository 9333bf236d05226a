"""A campaign's scores (docs/campaign.md): each character's statistics added up over its
fights, its dice's luck (d20: natural 20s and 1s, dice above and below their average), the
CSV, each fight's chart, and the players' page's table between fights."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from waiting import WAIT

from host.commands.campaign import write_charts
from host.core.campaign import Book
from host.core.campaign_stats import between_fights, table, table_csv
from host.core.journal import Journal
from host.core.session import Session
from host.screens.play_ui import PlayUI
from host.web.hub import Hub
from host.web.sources import PlayLive

PARTY = 'ruleset = "d20"\n[[creature]]\nname = "Aria"\nhp = 30\nac = 10\n' + (
    '  [[creature.attack]]\n  name = "Axe"\n  bonus = 4\n  damage = "1d12+2"\n'
)
GOBLINS = (
    'ruleset = "d20"\nname = "Goblins"\n[[creature]]\nname = "Goblin"\nlabel = "GB"\n'
    'team = "Monsters"\nhp = 60\nac = 8\n'
)


def fight(book: Book, encounter: Path, lines: list[str]) -> Session:
    _, enc = book.start_fight("Moor", encounter)
    with book.journal.transaction():
        session = Session(enc, 7, book.journal)
        book.append("Moor", "fight", {"game": session.game_id, "encounter": str(encounter)})
    for line in lines:
        if line.startswith("attack Aria"):
            while not session.game.turn_of(session.game.fighters[0]):
                session.execute("next")  # to Aria's turn
            line += " as=free" if session.game.fighters[0].action is False else ""
        session.execute(line)
    return session


def campaign(tmp_path: Path) -> tuple[Book, Path]:
    (tmp_path / "goblins.toml").write_text(GOBLINS)
    book = Book(Journal(tmp_path / "j.sqlite"))
    book.new("Moor", "d20", "party.toml", PARTY)
    return book, tmp_path / "goblins.toml"


def test_a_characters_scores_are_the_sums_over_its_fights(tmp_path: Path) -> None:
    book, goblins = campaign(tmp_path)
    played = []
    for _ in range(2):
        s = fight(book, goblins, ["initiative", "attack Aria GB", "attack Aria GB", "finish"])
        played.append(s.ruleset.summary(s.game)["players"]["Aria"])
        luck = {k: s.game.fighters[0].stats[k] for k in ("nat20", "nat1", "above", "below")}
        played[-1].update(luck)
    headers, rows = table(book.state("Moor"))
    aria = dict(zip(headers, rows[0], strict=True))
    assert aria["fights"] == 2
    assert aria["damage dealt"] == sum(p["damage_dealt"] for p in played) > 0
    # Every die Aria rolled is above or below its average (d20s and d12s have no middle face).
    rolled = aria["above"] + aria["below"]
    assert rolled == sum(p["above"] + p["below"] for p in played) >= 4
    assert aria["nat20"] == sum(p["nat20"] for p in played)
    parsed = list(csv.reader(io.StringIO(table_csv(headers, rows))))
    assert parsed[0] == headers and parsed[1][0] == "Aria"


def test_each_fight_has_its_chart(tmp_path: Path) -> None:
    book, goblins = campaign(tmp_path)
    for _ in range(2):
        fight(book, goblins, ["initiative", "attack Aria GB", "next", "finish"])
    written = write_charts(book.state("Moor", with_timelines=True), str(tmp_path / "moor"))
    assert [p.name for p in written] == ["moor-1.png", "moor-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in written)


def test_the_players_page_shows_the_campaign_table_between_fights(tmp_path: Path) -> None:
    book, goblins = campaign(tmp_path)
    session = fight(book, goblins, ["initiative", "attack Aria GB"])
    assert between_fights(session) is None  # the fight is under way
    ui = PlayUI(session, Console(file=StringIO(), width=100, height=40), "no board")
    hub = Hub(PlayLive(ui), "token")
    player, _ = hub.views_now()
    assert player["campaign"] is None
    session.execute("finish")
    player, _ = hub.views_now()
    shown: dict[str, Any] = player["campaign"]
    assert shown["title"] == "campaign Moor: 1 fights" and shown["rows"][0][0] == "Aria"


def test_both_pages_show_the_campaign_table_between_fights(tmp_path: Path) -> None:
    """The players' page and the game master's console (/gm), in the browser: hidden while
    the fight is under way, the campaign's table once it is over."""
    from host.web.browser import chromium, missing
    from host.web.serving import WebServer

    if missing():
        pytest.skip(f"browser test skipped: {missing()}")
    book, goblins = campaign(tmp_path)
    session = fight(book, goblins, ["initiative", "attack Aria GB"])
    ui = PlayUI(session, Console(file=StringIO(), width=100, height=40), "no board")
    driver = chromium()
    shown = "document.getElementById('campaign-box').hidden"
    first = "document.querySelector('#campaign td') && document.querySelector('#campaign td')"
    try:
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            for url in (web.player_url, web.gm_url):
                driver.get(url)
                wait_for(driver, "document.querySelectorAll('#fighters li').length === 2", url)
                assert driver.execute_script(f"return {shown}") is True
            ui.handle("finish")
            for url in (web.player_url, web.gm_url):
                driver.get(url)
                wait_for(driver, f"!{shown} && {first}.textContent === 'Aria'", url)
                title = driver.execute_script(
                    "return document.getElementById('campaign-title').textContent"
                )
                assert title == "campaign Moor: 1 fights"
    finally:
        driver.quit()


def wait_for(driver: Any, script: str, what: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(f"return {script}"), what)


def test_campaign_stats_prints_the_table_and_the_csv(tmp_path: Path) -> None:
    book, goblins = campaign(tmp_path)
    fight(book, goblins, ["initiative", "attack Aria GB", "finish"])
    book.journal.close()
    db = str(tmp_path / "j.sqlite")
    run = [sys.executable, "-m", "host.cli", "campaign", "stats", "Moor", "--db", db]
    shown = subprocess.run(run, capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and "damage dealt" in shown.stdout and "Aria" in shown.stdout
    as_csv = subprocess.run([*run, "--csv"], capture_output=True, text=True, check=False)
    assert as_csv.stdout.splitlines()[0].startswith("character,fights,damage dealt")
