"""A card is a roll too (the kit issue, items 2 and 5): a wanted draw takes N cards without
replacement from a deck the game keeps, and a wanted roll may explode (each die rolled again
on its highest face and added). Both are given as any wanted roll is: typed at the prompt
(`draw KS`, `dice 6+6+3`), rolled by the engine (`roll`), or by the board's roll key; and
both are journalled with their source as a die is (host/core/draws.py says how).

Played on Cards, the tests' installed ruleset (tests/plugin): its `deal` waits for a card
a fighter, its attack for exploding trait dice. Rules: tests/plugin/turnlight_cards/RULES.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from host.board.tethered_sim import TetheredSim
from host.core import draws, kit, registry
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from shared import dice
from shared.limits import MAX_DICE

CARDS = registry.get("cards")
SALOON = CARDS.example_path()


def session(dice_from: str = "entered", journal: Journal | None = None) -> Session:
    encounter = CARDS.parse_encounter(SALOON.read_text(encoding="utf-8"), str(SALOON))
    return Session(encounter, 3, journal, dice_from=dice_from)


def refused(s: Session, line: str) -> str:
    with pytest.raises(IllegalAction) as err:
        s.execute(line)
    return str(err.value)


def cards_of(s: Session) -> dict[str, str]:
    return {f.name: f.card for f in s.game.fighters}


# ---------------------------------------------------------------------- the deck
def test_the_standard_deck_holds_54_cards_four_suits_and_two_jokers() -> None:
    deck = draws.STANDARD_54
    assert len(deck) == 54 and deck.count(draws.JOKER) == 2
    assert len(set(deck)) == 53  # the two Jokers are alike
    assert {"2S", "10H", "QD", "AC", "KS"} <= set(deck)


def test_card_words_are_read_in_any_case_and_no_other_word_is_a_card() -> None:
    assert [draws.card_word(w) for w in ("ks", "10h", "Th", "JOKER", "aS")] == [
        "KS",
        "10H",
        "10H",
        "Joker",
        "AS",
    ]
    assert [draws.card_word(w) for w in ("1S", "KX", "11H", "", "jokers")] == [None] * 5


def test_a_draw_s_faces_are_places_among_the_cards_left_each_taken_out_first() -> None:
    left = ("2S", "3S", "4S", "5S")
    assert draws.take(left, [4, 1, 2]) == ["5S", "2S", "4S"]
    assert draws.places(left, ["5S", "2S", "4S"]) == [4, 1, 2]
    assert draws.places(left, ["5S", "5S"]) is None  # no card twice
    assert draws.draw_sides(54, 3) == (54, 53, 52)


def test_a_deck_s_wanted_draw_is_plain_dice_of_the_cards_left() -> None:
    deck = kit.Deck("action")
    deck.take([1])
    wanted = deck.wanted("deal", 2, who=1)
    assert (wanted.kind, wanted.count, wanted.sides) == (dice.KIND_DN, 2, (53, 52))
    assert wanted.deck == "action" and wanted.cards == tuple(deck.left)
    deck.shuffle()
    assert len(deck.left) == 54


# ---------------------------------------------------------------------- a draw, given
def test_a_deal_waits_for_each_card_and_draw_gives_it_from_the_table() -> None:
    s = session()
    said = s.execute("deal")
    assert said == ["deal: waits for Ruth's deal draw (1 card from the action deck)"]
    said = s.execute("draw KS")
    assert said[0] == "entered deal draw for Ruth: KS"
    assert s.pending is not None and s.pending.supplied == [("deal", (12,), "entered")]
    s.execute("dice 10h")  # `dice` gives a card as well
    assert s.pending.supplied[-1] == ("deal", (21,), "entered")  # 10H's place, KS taken out
    for card in ("2C", "Joker"):
        s.execute(f"draw {card}")
    assert s.pending is None  # the group's second fighter shares the first's card
    assert cards_of(s) == {"Ruth": "KS", "Doc": "10H", "Cole": "2C", "Ike": "Joker", "Jed": "Joker"}
    assert "KS" not in s.game.deck.left and len(s.game.deck.left) == 50


def test_a_card_drawn_already_is_refused_in_one_line_and_the_draw_still_waits() -> None:
    s = session()
    s.execute("deal")
    s.execute("draw KS")
    message = refused(s, "draw ks")
    assert "not all left in the action deck" in message and "`draw 2S`" in message
    assert "\n" not in message
    assert s.pending is not None and len(s.pending.supplied) == 1
    assert "as the deck writes them" in refused(s, "draw KX")


def test_draw_is_refused_when_dice_are_wanted_and_when_nothing_waits() -> None:
    s = session()
    _attack_waits(s)
    assert "not a draw: `dice " in refused(s, "draw KS")
    s.execute("cancel")
    assert "no action waits for a roll" in refused(s, "draw KS")
    assert "no action waits for a draw" in refused(session("engine"), "draw KS")


def test_the_engine_draws_a_waiting_card_with_roll() -> None:
    s = session()
    s.execute("deal")
    said = s.execute("roll")
    assert said[0].startswith("engine deal draw for Ruth: ")
    card = said[0].rsplit(" ", 1)[1]
    assert card in draws.STANDARD_54 and s.pending.supplied[0][2] == "engine"


def test_draws_are_journalled_as_dice_are_and_a_resume_deals_the_same_cards(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    s = session(journal=Journal(str(path)))
    s.execute("deal")
    for card in ("QH", "QS", "4D", "9C"):
        s.execute(f"draw {card}")
    assert s.pending is None
    dealt = cards_of(s)
    s.journal.close()
    journal = Journal(str(path), write=False)
    events = [(kind, p) for _, kind, p, _ in journal.events(journal.games()[0]["id"])]
    journal.close()
    given = [p for kind, p in events if kind == "want-dice"]
    assert [p["source"] for p in given] == ["entered"] * 4
    assert all(p["purpose"] == "deal" and len(p["faces"]) == 1 for p in given)
    again = resume(Journal(str(path)))
    assert cards_of(again) == dealt and dealt["Ruth"] == "QH" and dealt["Doc"] == "QS"
    assert again.game.deck.left == s.game.deck.left
    again.journal.close()


def test_the_board_s_roll_key_draws_the_wanted_card() -> None:
    s = session("board")
    with TetheredSim(s) as t:
        t.execute("deal")
        t.settle()
        want = t.sim.app.state.want
        assert (want.kind, want.count, want.sides[0]) == (dice.KIND_DN, 1, 54)
        lines = t.press("roll")
        assert any(line.startswith("board: board deal draw for Ruth: ") for line in lines)
        assert s.pending is not None and s.pending.supplied[0][2] == "board"
        assert t.sim.app.state.want.sides[0] == 53  # the next card: one fewer left
        card = s.pending.supplied[0][1][0]
        assert draws.take(draws.STANDARD_54, [card])[0] not in s.pending.wanted.cards


# ---------------------------------------------------------------------- exploding dice
def test_an_exploding_roll_s_faces_are_each_die_s_chain_in_turn() -> None:
    assert draws.chains((6, 6, 3, 5), (6, 8)) == [(6, 6, 3), (5,)]
    assert draws.chains((8, 8, 2), (8,)) == [(8, 8, 2)]
    assert draws.chains((6, 6), (6,)) is None  # a chain may not stop on the highest face
    assert draws.chains((3, 4), (6,)) is None  # a face past the last die's chain
    assert draws.chains((3,), (6, 8)) is None  # a die missing
    assert draws.chain_words((6, 6, 3, 5), (6, 8)) == "6+6+3 = 15, 5"
    assert kit.totals((6, 6, 3, 5), (6, 8)) == [15, 5]


def test_a_chain_is_cut_where_the_board_s_buffer_ends() -> None:
    faces = [4] * MAX_DICE
    assert draws.chains(faces, (4,)) == [tuple(faces)]
    rolled = draws.roll_chains((4, 6), lambda n: n - 1)  # every die on its highest face
    assert len(rolled) == MAX_DICE and draws.chains(rolled, (4, 6)) is not None


def test_the_engine_rolls_each_die_s_whole_chain() -> None:
    throws = iter([5, 5, 1, 2])  # below(n): 0..n-1; a d6's 6 is 5
    assert draws.roll_chains((6, 6), lambda n: next(throws)) == [6, 6, 2, 3]


def _attack_waits(s: Session) -> None:
    s.execute("deal")
    for card in ("KS", "2H", "3C", "4D"):  # Ruth first
        s.execute(f"draw {card}")
    s.execute("attack Ruth Ike")


def test_typed_dice_give_an_exploding_roll_its_chains() -> None:
    s = session()
    _attack_waits(s)
    assert s.pending is not None and s.pending.wanted is not None
    assert s.pending.wanted.explode and s.pending.wanted.sides == (8, 6)
    said = s.execute("dice 8+8+1 2")
    assert said[0] == "entered attack roll for Ruth: 8+8+1 = 17, 2"
    assert s.pending.supplied[0] == ("attack", (8, 8, 1, 2), "entered")


def test_a_chain_that_stops_on_the_highest_face_is_refused_naming_how_to_type_one() -> None:
    s = session()
    _attack_waits(s)
    message = refused(s, "dice 8+8 2")
    assert "each rolled again on its highest face" in message and "`dice 8+8+4 N`" in message
    assert "d8, and 9" in refused(s, "dice 9 2")
    assert s.pending is not None and s.pending.supplied == []


def test_the_engine_rolls_an_exploding_wanted_roll_whole() -> None:
    s = session()
    _attack_waits(s)
    said = s.execute("roll")
    assert said[0].startswith("engine attack roll for Ruth: ")
    faces = s.pending.supplied[0][1] if s.pending else s.done[-1].rolls[-1][1]
    assert draws.chains(faces, (8, 6)) is not None


def test_a_board_roll_fits_an_exploding_wanted_roll_only_with_every_chain() -> None:
    wanted = kit.exploding("attack", (8, 6))
    assert draws.faces_sides(wanted, (8, 3, 2)) == (8, 8, 6)
    assert draws.faces_sides(wanted, (8, 2)) is None  # the d8's chain is not over
    assert draws.faces_sides(wanted, (3, 2)) == (8, 6)


# ---------------------------------------------------------------------- the board's chains
class Scripted:
    """A random source that gives the faces it is told (`below(n)` is a face less 1)."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def below(self, n: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= n
        return face - 1


def test_the_board_rolls_each_exploding_die_s_chain_into_its_buffer() -> None:
    faces, sides = bytearray(MAX_DICE), bytearray(MAX_DICE)
    n = dice.roll_exploding(Scripted([8, 8, 3, 6, 2]), 2, bytes([8, 6]), faces, sides)
    assert (list(faces[:n]), list(sides[:n])) == ([8, 8, 3, 6, 2], [8, 8, 8, 6, 6])
    n = dice.roll_exploding(Scripted([4] * 20), 2, bytes([4, 4]), faces, sides)
    assert n == MAX_DICE and draws.chains(list(faces[:n]), (4, 4)) is not None


def test_the_wanted_roll_knows_an_exploding_roll_by_its_chains() -> None:
    from shared.state import GameState

    st = GameState()
    st.want.kind, st.want.count, st.want.explode = dice.KIND_DN, 2, 1
    st.want.sides[0], st.want.sides[1] = 8, 6
    dice.enter(st, dice.KIND_DN, (8, 8, 3, 2), 0, (8, 8, 8, 6))
    assert st.want.matches(st.roll)
    dice.enter(st, dice.KIND_DN, (8, 2), 0, (8, 6))  # the d8's chain is not over
    assert not st.want.matches(st.roll)
    st.want.explode = 0
    assert st.want.matches(st.roll)


def test_the_board_s_roll_key_rolls_the_whole_chain_and_the_action_takes_it() -> None:
    s = session("board")
    with TetheredSim(s) as t:
        t.execute("deal")
        t.settle()
        while s.pending is not None:
            t.press("roll")  # the board draws every card
        while s.game.fighters[s.game.turn].name != "Ruth":
            t.execute("end")
        t.execute("attack Ruth Ike")
        t.settle()
        want = t.sim.app.state.want
        assert (want.count, want.explode, list(want.sides[:2])) == (2, 1, [8, 6])
        t.sim.app.rng = Scripted([8, 8, 3, 2])
        lines = t.press("roll")
        assert "board: board attack roll for Ruth: 8+8+3 = 19, 2" in lines
        assert s.pending is not None and s.pending.supplied[-1] == ("attack", (8, 8, 3, 2), "board")
        roll = t.sim.app.state.roll
        assert list(roll.faces[: roll.count]) == [8, 8, 3, 2]
        assert list(roll.sides[: roll.count]) == [8, 8, 8, 6]


def test_the_web_console_gives_a_waiting_draw_its_card() -> None:
    import json
    from io import StringIO

    from rich.console import Console
    from starlette.testclient import TestClient

    from host.screens.play_ui import PlayUI
    from host.web.hub import Hub
    from host.web.routes import make_app
    from host.web.sources import PlayLive

    s = session()
    ui = PlayUI(s, Console(file=StringIO(), width=100, height=40), "no board")
    with (
        TestClient(make_app(Hub(PlayLive(ui, None), "tok"))) as client,
        client.websocket_connect("/ws/gm?token=tok") as gm,
    ):
        for line in ("deal", "draw QD"):
            gm.send_text(json.dumps({"line": line}))
            while (message := gm.receive_json())["type"] != "reply":
                pass
            assert message["ok"], message
    assert ui.session.pending is not None
    assert ui.session.pending.supplied == [("deal", (37,), "entered")]  # QD: Ruth's card
