"""The board's dice drive the roll that is wanted (issue 15), for stones, forms and advance
as for korxsol (tests/test_wanted_rolls.py): with the dice from the board or the table
(`play --dice board|entered`), a declared action waits for the roll it needs, the session
names it (purpose, count and kind of dice, who rolls it), the board's roll key is lit with
it and one press rolls exactly that; entered dice (`dice FACES`) give it too. There is no
queue of rolls made ahead: a board roll that fits nothing wanted is shown as unused (or,
with the engine's dice, refused) and never becomes a later roll. Driven through the real
session, a real SQLite journal and the real firmware on a simulated board over a pty.

The rolls, by the rules texts:
- stones: a Standard Attack rolls for its crit (speaking-stones-turn-order.txt:44), a d100
  rolled as both D10 (:53);
- forms: a check rolls the unit's dice of its attribute (forms-turns-rounds-encounters.txt:23,
  :35);
- advance: an attack is a Hit check (advance-late-combat-round.txt:32, :34), 2D6 here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from advance_fixtures import session as advance_session
from advance_fixtures import start_round
from forms_fixtures import HALL
from stones_fixtures import session as stones_session
from table_dice import TableSession

from host.board.tethered_sim import TetheredSim
from host.core import encounter_files
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from shared import dice


@dataclass(frozen=True)
class Game:
    """A game of one ruleset brought to where `declare` rolls once, and the roll it wants."""

    make: Callable[[Journal], Session]
    declare: str
    purpose: str
    count: int
    kind: int
    who: int
    who_name: str
    words: str  # how the session names the roll


def _stones(journal: Journal) -> Session:
    return stones_session(journal=journal)


def _forms(journal: Journal) -> Session:
    s = TableSession(encounter_files.parse(HALL, "hall.toml"), 1, journal)
    s.execute("check Ann Genius")
    return s


def _advance(journal: Journal) -> Session:
    s = advance_session(journal=journal)
    start_round(s)  # step A's dice given as entered: step B, Ayla acts in Advance
    return s


GAMES = {
    "stones": Game(
        _stones,
        "attack Kae Orr",
        "crit",
        2,
        dice.KIND_D100,
        0,
        "Kaelen",
        "Kaelen's crit roll (a d100: two D10, tens then units)",
    ),
    "forms": Game(
        _forms, "next", "Genius", 2, dice.KIND_D10, 0, "Ann", "Ann's Genius roll (2 D10)"
    ),
    "advance": Game(
        _advance,
        "attack Ayla Cleave Snag",
        "check",
        2,
        dice.KIND_ACTION_D6,
        0,
        "Ayla",
        "Ayla's check roll (2 D6)",
    ),
}
IDS = list(GAMES)


def _game(tmp_path: Path, rid: str) -> tuple[Game, Session]:
    game = GAMES[rid]
    s = game.make(Journal(tmp_path / "j.sqlite"))
    assert s.ruleset.id == rid and s.ruleset.asks_for_rolls
    return game, s


def _events(s: Session) -> list[tuple[str, dict]]:
    assert s.journal is not None and s.game_id is not None
    return [(kind, payload) for _, kind, payload, _ in s.journal.events(s.game_id)]


def _faces(game: Game, face: int = 3) -> str:
    """Entered faces for the wanted roll (a d100's are 0..9; 3 3 is no Critical or Fumble
    of advance's check)."""
    return " ".join([str(face - 1 if game.kind == dice.KIND_D100 else face)] * game.count)


@pytest.mark.parametrize("rid", IDS)
def test_the_wanted_roll_names_its_dice_and_who_rolls_them(tmp_path: Path, rid: str) -> None:
    game, s = _game(tmp_path, rid)
    done = len(s.done)
    s.dice_from = "entered"
    assert s.execute(game.declare) == [f"{game.declare}: waits for {game.words}"]
    assert s.pending is not None and s.pending.wanted is not None
    w = s.pending.wanted
    assert (w.purpose, w.count, w.kind, w.who, w.who_name) == (
        game.purpose,
        game.count,
        game.kind,
        game.who,
        game.who_name,
    )
    assert len(s.done) == done  # nothing rolled, nothing done yet
    assert _events(s)[-1] == ("want", {"text": game.declare, "by": "laptop"})
    assert s.wanted_lines()[0] == f"waiting for {game.words} from the table: `{game.declare}`"


@pytest.mark.parametrize("rid", IDS)
def test_one_press_of_the_lit_roll_key_resolves_the_declared_action(
    tmp_path: Path, rid: str
) -> None:
    game, s = _game(tmp_path, rid)
    s.dice_from = "board"
    with TetheredSim(s) as table:
        board = table.sim.app.state
        table.execute(game.declare)
        table.settle()
        with table.sim.lock:  # the host sent the roll it wants: the key is lit with it
            assert (board.want.kind, board.want.count, board.want.who) == (
                game.kind,
                game.count,
                game.who,
            )
        table.press("roll")
        with table.sim.lock:
            rolled = list(board.roll.faces[: board.roll.count])
            assert board.want.count == 0  # made: the key goes dark
        assert s.pending is None and s.done[-1].text == game.declare
    kind, payload = _events(s)[-1]
    assert kind == "action" and payload["text"] == game.declare
    assert len(rolled) == game.count
    record = s.done[-1].rolls
    first = {
        "stones": lambda: (record[0][:2], record[0][2]),
        "forms": lambda: (record[0]["faces"], record[0]["source"]),
        "advance": lambda: (record[0][1], record[0][2]),
    }[rid]()
    assert first == (rolled, "board")


@pytest.mark.parametrize("rid", IDS)
def test_a_board_roll_while_nothing_is_wanted_is_refused_and_never_becomes_a_later_roll(
    tmp_path: Path, rid: str
) -> None:
    game, s = _game(tmp_path, rid)
    s.dice_from = "board"
    with TetheredSim(s) as table:
        lines = table.press("roll")  # nothing waits: shown as unused, in one line
        assert len(lines) == 1 and lines[0].endswith(
            "fits no wanted roll (no action waits for a roll): shown, not used"
        )
        with table.sim.lock:
            assert table.sim.app.state.roll.unused == 1
        assert _events(s)[-1][0] == "roll-shown"
        table.execute(game.declare)
        assert s.pending is not None and s.pending.supplied == []  # it was not this roll
        table.execute("cancel")
        # With the engine's dice the board's roll is refused, and the engine rolls.
        s.dice_from = "engine"
        with pytest.raises(IllegalAction, match="engine rolls"):
            table.press("roll")
        table.execute(game.declare)
        assert s.pending is None and s.done[-1].text == game.declare
        assert "board" not in str(s.done[-1].rolls) and "engine" in str(s.done[-1].rolls)


@pytest.mark.parametrize("rid", IDS)
def test_entered_dice_resolve_the_waiting_action(tmp_path: Path, rid: str) -> None:
    game, s = _game(tmp_path, rid)
    s.dice_from = "entered"
    s.execute(game.declare)
    with pytest.raises(IllegalAction, match=f"takes {game.count} dice, not {game.count + 1}"):
        s.execute("dice " + _faces(game) + " 1")
    said = s.execute("dice " + _faces(game))
    assert said[0] == f"entered {game.purpose} roll for {game.who_name}: {_faces(game)}"
    assert s.pending is None and s.done[-1].text == game.declare
    assert "entered" in str(s.done[-1].rolls)
    assert _events(s)[-2][0] == "want-dice" and _events(s)[-1][0] == "action"


@pytest.mark.parametrize("rid", IDS)
def test_dice_entered_while_nothing_waits_are_refused_and_never_a_later_roll(
    tmp_path: Path, rid: str
) -> None:
    game, s = _game(tmp_path, rid)
    before = len(_events(s))
    with pytest.raises(IllegalAction, match="no action waits for"):
        Session.execute(s, "dice " + _faces(game))  # the session's own `dice`, not held
    assert len(_events(s)) == before
    s.execute(game.declare)  # the engine's dice, as before
    assert s.pending is None and "entered" not in str(s.done[-1].rolls)


@pytest.mark.parametrize("rid", IDS)
def test_resume_re_creates_the_waiting_action(tmp_path: Path, rid: str) -> None:
    game, s = _game(tmp_path, rid)
    s.dice_from = "entered"
    s.execute(game.declare)
    assert s.pending is not None
    wanted = s.pending.wanted
    back = resume(Journal(tmp_path / "j.sqlite"), dice_from="entered")
    assert back.pending is not None
    assert (back.pending.text, back.pending.wanted, back.pending.supplied) == (
        game.declare,
        wanted,
        [],
    )
    assert back.execute("dice " + _faces(game, 2)) == s.execute("dice " + _faces(game, 2))
    assert back.ruleset.snapshot(back.game) == s.ruleset.snapshot(s.game)
    assert back.done[-1].rolls == s.done[-1].rolls


@pytest.mark.parametrize("rid", IDS)
def test_the_board_s_undo_takes_back_its_own_roll_and_the_action_waits_for_it_again(
    tmp_path: Path, rid: str
) -> None:
    game, s = _game(tmp_path, rid)
    s.dice_from = "board"
    with TetheredSim(s) as table:
        done = len(s.done)
        table.execute(game.declare)  # typed on the laptop
        wanted = s.pending.wanted if s.pending else None
        table.settle()  # the board holds the wanted roll
        table.press("roll")
        assert s.pending is None and len(s.done) == done + 1  # the roll resolved it
        lines = table.press("undo")  # the board's own roll (under --board-undo own)
        assert lines[0] == f"board: undone: {game.declare}"
        assert lines[1].startswith("board: board roll taken back: ")
        assert s.pending is not None and s.pending.supplied == []
        assert s.pending.wanted == wanted and len(s.done) == done
        table.settle()
        with table.sim.lock:  # the key is lit with the same roll again
            board = table.sim.app.state
            assert (board.want.kind, board.want.count) == (game.kind, game.count)
        # Undo again: the board's roll is gone; the action was typed, so `own` keeps it.
        with pytest.raises(IllegalAction, match="was typed"):
            table.press("undo")
    # The journal says the same: a resume waits for that roll again.
    back = resume(Journal(tmp_path / "j.sqlite"))
    assert back.pending is not None and back.pending.wanted == wanted
    assert back.pending.supplied == [] and len(back.done) == done
