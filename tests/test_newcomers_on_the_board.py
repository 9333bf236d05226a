"""Fighters who join and leave on the simulated board (a real pty, the real firmware): the
board gets a slot for each newcomer with the next snapshot and greys the one who left. It
holds MAX_SLOTS (shared/limits.py): a newcomer past them plays on the screens only, and the
game, board and all, goes on (docs/commands.md, "Fighters who join and leave"). A fight
holds MOST_FIGHTERS (host/core/newcomers.py), as many as the board's slots, so these tests
play on a host given a board of fewer slots (tests/small_board.py) to reach past them."""

from __future__ import annotations

import pytest
from newcomer_games import session
from small_board import small_board

from host.board.tethered_sim import TetheredSim
from host.core import audience
from host.core.interface import IllegalAction
from shared.state import F_ACTIVE, F_OUT


def test_korxsol_newcomers_reach_the_board_and_one_past_its_slots_plays_on_the_screens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slots = small_board(monkeypatch)
    s = session("korxsol")
    with TetheredSim(s) as table:
        board = table.sim.app.state
        table.press("next_turn")  # the board's next-turn key rolls initiative: round 1
        before = board.count
        for n in range(slots - before):
            table.execute(f"add Ashling as Q{n}")
        table.settle()
        assert board.count == slots
        labels = [board.slots[i].label for i in range(board.count)]
        assert labels[before:] == [f"Q{n}" for n in range(slots - before)]
        # The newcomer placed last takes the next turn (it sits right after the current).
        table.press("next_turn")
        active = [
            board.slots[i].label for i in range(board.count) if board.slots[i].flags & F_ACTIVE
        ]
        assert active == [f"Q{slots - before - 1}"]
        table.execute("add Ashling as Late")  # past the board's slots: the screens only
        table.settle()
        assert board.count == slots and board.off_board == 1
        assert [f.name for f in s.ruleset.off_board(s.game)] == ["Late"]
        table.execute("remove Q0 fled")
        table.settle()
        assert board.slots[before].flags & F_OUT
        for _ in range(slots):  # the game goes on through the board
            table.press("next_turn")
        assert s.ruleset.fighter_names(s.game)[before] == "Q0"


def test_stones_a_newcomer_reaches_the_board_as_its_players_character() -> None:
    s = session("stones")
    with TetheredSim(s) as table:
        board = table.sim.app.state
        player = s.game.player_name
        before = board.count
        table.execute(f"add Tamsin player={player} class=warrior hp=15 atk=5 crt=10 move=3 range=1")
        table.settle()
        slot = board.slots[before]
        assert board.count == before + 1 and slot.label == "Tam"
        assert slot.flags & F_ACTIVE and slot.health == 15  # its player's turn: it may act


def test_stones_a_character_past_the_boards_slots_plays_on_the_screens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slots = small_board(monkeypatch)
    s = session("stones")
    with TetheredSim(s) as table:
        board = table.sim.app.state
        player = s.game.player_name
        count = len(s.ruleset.fighter_names(s.game))
        for n in range(slots + 2 - count):
            lines = table.execute(f"add Wisp as Q{n} player={player}")
        assert "no slot on the board" in lines[-1]
        last = f"Q{slots + 1 - count}"
        table.execute(f"move {last} 1")
        table.execute(f"attack {last} Orrin")  # its crit d100: a roll of nobody on the board
        table.settle()
        assert board.count == slots
        shown = {f.name: f for f in s.ruleset.fighters(s.game)}
        assert last in shown and shown[last].team == s.game.enc.teams[0]
        assert s.ruleset.state(s.game).roll.who == 0xFF
        lines = table.press("next_turn")  # the board still ends the turn's activations
        assert lines


@pytest.mark.parametrize("ruleset_id", ["advance", "forms"])
def test_a_newcomer_past_the_boards_slots_plays_on_through_the_board(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    slots = small_board(monkeypatch)
    s = session(ruleset_id)
    template = {"advance": "Ghoul", "forms": "Drowned"}[ruleset_id]
    with TetheredSim(s) as table:
        board = table.sim.app.state
        while len(s.ruleset.fighter_names(s.game)) < slots + 2:
            table.execute(f"add {template} as Q{len(s.ruleset.fighter_names(s.game))}")
        table.settle()
        assert board.count == slots
        names = s.ruleset.fighter_names(s.game)
        assert {f.name for f in s.ruleset.fighters(s.game)} == set(names)
        before = len(s.done)
        for _ in range(12):  # rounds go by through the board's next-turn key
            if s.over:
                break
            try:
                table.press("next_turn")
            except IllegalAction:
                break
        table.settle()
        assert board.count == slots and len(s.done) > before + 2


def test_a_hidden_fighter_past_the_boards_slots_stays_off_the_players_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slots = small_board(monkeypatch)
    # host/core/audience.py: anything about a hidden fighter stays off the players' page.
    s = session("stones")
    player = s.game.player_name
    while len(s.ruleset.fighter_names(s.game)) < slots + 1:
        s.execute(f"add Wisp as Q{len(s.ruleset.fighter_names(s.game))} player={player}")
    hidden = s.ruleset.fighter_names(s.game)[-1]
    secrets = audience.Secrets({hidden})
    lines = s.execute(f"move {hidden} 1")
    cast = audience.cast_of(s.ruleset, s.game)
    assert any(hidden in line for line in lines)
    shown = audience.for_players(lines, cast, secrets, s.game.teams)
    assert not any(hidden in line for line in shown)


@pytest.mark.parametrize("ruleset_id", ["stones", "advance", "forms"])
def test_the_live_view_shows_fighters_past_the_boards_slots(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/commands.md, `add`: a newcomer past the board's slots plays on the screens
    only. The live view (play's terminal, the console's table) lists it, the row of
    whoever takes the turn marked (stones' crashed on the ninth: it read the board slot
    the ninth has not)."""
    slots = small_board(monkeypatch)
    from io import StringIO

    from rich.console import Console

    from host.core import effects
    from host.screens.play_ui import PlayUI

    s = session(ruleset_id)
    template = {"stones": "Wisp", "advance": "Ghoul", "forms": "Drowned"}[ruleset_id]
    names = ["Abe", "Bix", "Cor", "Dax", "Eli", "Fen", "Gus", "Hal"]
    while len(s.ruleset.fighter_names(s.game)) < slots + 2:
        s.execute(f"add {template} as {names.pop(0)}")
    table = effects.with_effects(s.ruleset.live_roster(s.game), s.ruleset, s.game)
    shown = " ".join(c for r in table.rows for c in r.cells)
    assert all(n in shown for n in s.ruleset.fighter_names(s.game)[slots:])
    out = StringIO()
    PlayUI(s, Console(file=out, width=80, color_system=None)).show()
    assert s.ruleset.fighter_names(s.game)[-1] in out.getvalue()


@pytest.mark.parametrize("ruleset_id", ["stones", "advance", "forms"])
def test_an_effect_waiting_on_the_turn_of_one_past_the_slots_says_why_it_is_refused(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue #29, "Bad input": the effects' clock counts turns on the board's order, where
    a fighter past its slots has none: an effect waiting on its turn is refused saying
    so (not that it left the fight), and rounds=N is taken."""
    slots = small_board(monkeypatch)
    s = session(ruleset_id)
    template = {"stones": "Wisp", "advance": "Ghoul", "forms": "Drowned"}[ruleset_id]
    names = ["Abe", "Bix", "Cor", "Dax", "Eli", "Fen", "Gus", "Hal"]
    while len(s.ruleset.fighter_names(s.game)) < slots + 1:
        s.execute(f"add {template} as {names.pop(0)}")
    past = s.ruleset.fighter_names(s.game)[slots]
    for line in (f"effect {past} Hex save=end", f"effect Kaelen Hex until=end of={past}"):
        if ruleset_id != "stones" and "Kaelen" in line:
            line = line.replace("Kaelen", s.ruleset.fighter_names(s.game)[0])
        with pytest.raises(IllegalAction) as err:
            s.execute(line)
        assert "past the board's slots" in str(err.value) and "left" not in str(err.value)
    assert s.execute(f"effect {past} Hex rounds=2")
