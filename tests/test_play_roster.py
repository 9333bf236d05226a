"""The play view's roster (host/screens/play_ui.py, `PlayUI.roster`): whose turn it is
shows as a mark, not by bold alone (a copy of the screen, a terminal without bold), in every
ruleset; d20's rows say each creature's initiative and the spell it concentrates on
(issue #38, item 2: the web page said "concentrating on Bless", the terminal nothing)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from host.core import registry
from host.core.session import Session
from host.screens.play_ui import TURN_MARK, PlayUI


def started(ruleset_id: str, seed: int = 10) -> PlayUI:
    """The ruleset's bundled encounter, started (its start command run)."""
    rules = registry.get(ruleset_id)
    path = rules.example_path()
    session = Session(rules.parse_encounter(path.read_text(), str(path)), seed)
    ui = PlayUI(session, Console(file=io.StringIO(), width=53))
    if rules.start_command:
        ui.handle(rules.start_command)
    for _ in range(10):  # (advance and forms start with their demo's first commands)
        for line in rules.plan_turn(session.game):
            if any(r.current for r in rules.live_roster(session.game).rows):
                return ui
            ui.run_line(line)
    return ui


def roster_lines(ui: PlayUI) -> list[str]:
    return ui.roster().plain.split("\n")


@pytest.mark.parametrize("ruleset_id", registry.built_in())
def test_the_roster_marks_whose_turn_it_is_once_in_every_ruleset(ruleset_id: str) -> None:
    ui = started(ruleset_id)
    game = ui.session.game
    now = [r for r in ui.session.ruleset.live_roster(game).rows if r.current]
    assert now, f"{ruleset_id}: nobody's turn"
    marked = [line for line in roster_lines(ui) if ">" in line]
    assert len(marked) == len(now)
    assert all(line.count(">") == 1 for line in marked)  # korxsol's and forms' own: once
    if not any(c.startswith(">") for r in now for c in r.cells):
        assert all(line.startswith(TURN_MARK) for line in marked)


def test_a_roster_with_nobody_s_turn_has_no_mark_nor_its_room() -> None:
    ui = started("d20")
    ui.handle("finish nobody")
    assert not any(line.startswith(TURN_MARK.strip()) for line in roster_lines(ui))
    assert roster_lines(ui)[0].startswith("who")


def test_d20_s_roster_shows_each_creature_s_initiative() -> None:
    ui = started("d20")  # seed 10: the goblins' group first, at 22
    lines = roster_lines(ui)
    assert lines[0].split() == ["who", "HP", "AC", "init"]
    assert lines[1].split() == [">", "Goblin", "1", "7", "15", "22"]
    assert lines[2].split() == [">", "Goblin", "2", "7", "15", "22"]
    assert ["Oswin", "27", "17", "7"] in [line.split() for line in lines]


def test_d20_s_roster_says_the_spell_a_creature_concentrates_on() -> None:
    ui = started("d20")
    ui.handle("concentrate Oswin Bless")
    lines = roster_lines(ui)
    oswin = next(n for n, line in enumerate(lines) if line.split()[:1] == ["Oswin"])
    assert lines[oswin + 1].strip() == "conc: Bless"
    table = ui.session.ruleset.roster(ui.session.game)  # the full table (`demo`, `run`)
    row = next(r for r in table.rows if r[0] == "Oswin")
    assert row[table.headers.index("conditions")] == "conc: Bless"
