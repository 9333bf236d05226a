"""What the ruleset kit took from the built-in rulesets (issue 41, item 1): the seeded dice
and their board projection (host/core/kit.py `SeededDice`, `show_roll`), the rules an
engine plays through one function (`Rules`, `DiceRules`), the encounter reader's values
(host/core/encounter_files.py `TableReader`) and the one whole-number reader every
ruleset uses (host/core/numbers.py); and what d20 and pf2 share (`find_fighter`, `units`,
`read_dice`, a creature file's `head` and `creatures`, `hold_turn`, `named_winner`)."""

from __future__ import annotations

import re
import types
from pathlib import Path

import pytest

from host.core import kit, registry
from host.core.commandline import Command
from host.core.encounter_files import TableReader
from host.core.interface import EncounterError, IllegalAction
from shared import dice
from shared.limits import NO_SLOT
from shared.roster import add_slot
from shared.state import GameState

RULESETS = Path(__file__).parent.parent / "host" / "rulesets"


class Cup(kit.SeededDice):
    codes = {"hit": 1, "dmg": 2}


def test_seeded_dice_roll_the_same_faces_for_the_same_seed_and_action() -> None:
    """kit.SeededDice: the engine's dice are a function of the seed and the action's number,
    so a game replayed without its record rolls what it rolled."""
    rolls = []
    for _ in range(2):
        cup = Cup(7)
        cup.begin(3, None)
        rolls.append((cup.draw("hit", 0, (20, 20)), cup.draw("dmg", 1, (6, 8))))
    assert rolls[0] == rolls[1]
    cup = Cup(7)
    cup.begin(4, None)
    assert (cup.draw("hit", 0, (20, 20)), cup.draw("dmg", 1, (6, 8))) != rolls[0]


def test_seeded_dice_keep_each_roll_as_its_record_and_replay_it() -> None:
    """kit.SeededDice: the record is [purpose, faces, source] a roll, and replaying it gives
    those faces whatever the seed."""
    cup = Cup(1)
    cup.begin(0, None)
    cup.draw("hit", 2, (20,))
    cup.draw_kind("dmg", 2, 3, dice.KIND_ACTION_D6, 6)
    record = cup.records
    assert [r[0] for r in record] == ["hit", "dmg"] and all(r[2] == "engine" for r in record)
    other = Cup(99)
    other.begin(0, [["hit", [17], "board"], ["dmg", [1, 2, 3], "entered"]])
    assert other.draw("hit", 2, (20,)) == (17,)
    assert other.draw_kind("dmg", 2, 3, dice.KIND_ACTION_D6, 6) == (1, 2, 3)
    assert other.last == ("dmg", (1, 2, 3), (), 2)


def test_seeded_dice_refuse_a_recorded_face_the_die_does_not_have() -> None:
    """kit.SeededDice: a journal's face past the die's sides is refused in one line."""
    cup = Cup(1)
    cup.begin(0, [["hit", [21], "entered"]])
    with pytest.raises(IllegalAction, match="d20 shows 21: it has 1..20"):
        cup.draw("hit", 0, (20,))


def _state(slots: int) -> GameState:
    st = GameState()
    for n in range(slots):
        add_slot(st, f"F{n}", 0, 0, 0, 5)
    return st


def test_show_roll_puts_the_faces_sides_and_roller_on_the_board() -> None:
    """kit.show_roll: plain dice show each die's sides; a roller past the board's slots
    shows as nobody's; successes stop at the board's 15."""
    st = _state(2)
    kit.show_roll(st, dice.KIND_DN, (3, 17), 1, (6, 20), successes=40)
    roll = st.roll
    assert (roll.kind, roll.count, roll.who, roll.successes) == (dice.KIND_DN, 2, 1, 15)
    assert list(roll.faces[:3]) == [3, 17, 0] and list(roll.sides[:3]) == [6, 20, 0]
    kit.show_roll(st, dice.KIND_ACTION_D6, (4,), 5)
    assert (roll.count, roll.who, roll.faces[1], roll.sides[0]) == (1, NO_SLOT, 0, 0)


def test_a_table_reader_reads_whole_numbers_through_numbers_py() -> None:
    """TableReader.integer: an int in range (not a bool, not text), or a one-line refusal
    at the key's line naming the range; a key without a default must be there."""
    r = TableReader("[thing]\nhp = 5\nac = true\n", "f.toml")
    data = {"hp": 5, "ac": True, "speed": "30"}
    assert r.integer("thing", 0, data, "hp", "it", 1, 9) == 5
    assert r.integer("thing", 0, data, "reach", "it", 1, 9, 2) == 2
    with pytest.raises(EncounterError, match=r"^f.toml:3: it: ac must be a whole number 0..30"):
        r.integer("thing", 0, data, "ac", "it", 0, 30)
    with pytest.raises(EncounterError, match="speed must be a whole number 0..99, not '30'"):
        r.integer("thing", 0, data, "speed", "it", 0, 99)
    with pytest.raises(EncounterError, match="it: reach is missing"):
        r.integer("thing", 0, data, "reach", "it", 1, 9)
    with pytest.raises(EncounterError, match="hp must be a whole number 6..9, not 5"):
        r.integer("thing", 0, data, "hp", "it", 6, 9)


def test_a_table_reader_reads_a_choice_and_a_list_of_names() -> None:
    """TableReader.choice and .words: one of the words allowed; names, each made clean."""
    r = TableReader("[t]\n", "f.toml")
    assert r.choice("t", 0, {"ties": "gm"}, "ties", "options", ("gm", "roll")) == "gm"
    with pytest.raises(EncounterError, match="ties must be gm or roll"):
        r.choice("t", 0, {"ties": "coin"}, "ties", "options", ("gm", "roll"))
    assert r.words("t", 0, {"resist": [" Fire "]}, "resist", "it", str.lower) == (" fire ",)
    with pytest.raises(EncounterError, match="resist must be a list of names"):
        r.words("t", 0, {"resist": "fire"}, "resist", "it")


def test_no_ruleset_reads_a_whole_number_of_its_own() -> None:
    """host/core/numbers.py is the one reader: no ruleset checks an int by hand (an
    `isinstance(x, int)` lets True through) or turns typed text into a number itself."""
    own = re.compile(r"isinstance\([^()]*,\s*int\)|int\(cmd\.|\.isdigit\(")
    found = [
        f"{path.relative_to(RULESETS)}:{n}"
        for path in sorted(RULESETS.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if own.search(line) and not line.lstrip().startswith("assert")
    ]
    assert found == []


class Schema(types.ModuleType):
    """An encounter module as kit.Rules reads one."""

    def __init__(self, tmp: Path) -> None:
        super().__init__("schema")
        self.EXAMPLE = tmp / "example.toml"
        self.TEMPLATE = tmp / "template.toml"
        self.EXAMPLE.write_text("name = 'ex'\n")
        self.TEMPLATE.write_text("# a template\nname = 'new'\n")

    def parse(self, text: str, filename: str) -> tuple[str, str]:
        return (filename, text)


def test_rules_read_a_ruleset_s_encounters_from_its_module(tmp_path: Path) -> None:
    """kit.Rules: example_path, parse_encounter and template come from `encounters`."""

    class Game(kit.Rules):
        encounters = Schema(tmp_path)

    rules = Game()
    assert rules.example_path() == tmp_path / "example.toml"
    assert rules.parse_encounter("x = 1", "a.toml") == ("a.toml", "x = 1")
    assert rules.template().startswith("# a template")


class Rolled:
    """A game as kit.DiceRules plays one: its dice, its board state, and one verb `hit`."""

    def __init__(self, encounter: object, seed: int) -> None:
        self.dice = Cup(seed)
        self.actions = 0
        self.started = True
        self.over: str | None = None
        self.fighters = [types.SimpleNamespace(name="Ann"), types.SimpleNamespace(name="Bo")]
        self.state = GameState()


class Board:
    @staticmethod
    def new_state(game: Rolled, version: int) -> GameState:
        return _state(len(game.fighters))

    @staticmethod
    def project(game: Rolled, state: GameState) -> None:
        state.round = game.actions


class Hits(kit.DiceRules):
    game_type = Rolled
    device = Board

    def play(self, game: Rolled, cmd: Command, record: list[list] | None) -> list[str]:
        game.dice.begin(game.actions, record)
        faces = game.dice.draw("hit", 0, (20,))
        game.actions += 1
        return [f"hit {faces[0]}"]


def test_dice_rules_record_an_action_s_rolls_and_replay_them() -> None:
    """kit.DiceRules: apply's record is the action's rolls; replaying it (after the journal's
    JSON) says the same lines; the rolls are said as `purpose faces (source)`."""
    rules = Hits()
    game = rules.new_game(None, 5)
    rules.project(game)
    assert game.state.count == 2 and rules.fighter_names(game) == ["Ann", "Bo"]
    applied = rules.apply(game, Command("hit", []))
    record = rules.record_from_json(applied.record)
    assert record == [["hit", [int(applied.lines[0].split()[1])], "engine"]]
    again = rules.new_game(None, 99)
    assert rules.replay(again, Command("hit", []), record) == applied.lines
    rules.supply_rolls(again, [("hit", (12,), "board")])
    assert rules.apply(again, Command("hit", [])).lines == ["hit 12"]
    assert rules.roll_lines(again) == ["hit 12 (board)"]


class _Spec(types.SimpleNamespace):
    pass


def _creatures(*named: tuple[str, str, int]) -> list[kit.Creature]:
    """Creatures (name, label, group) as d20's and pf2's fighters are: `kit.Creature`s."""
    out = []
    for name, label, group in named:
        f = kit.Creature()
        f.spec = _Spec(name=name, label=label, group=group)
        f.hp, f.dead, f.fled = 5, False, False
        out.append(f)
    return out


def test_a_fighter_is_found_by_name_or_label_else_refused_naming_what_would_work() -> None:
    """kit.find_fighter (d20's and pf2's `Game.fighter`): a name or label as typed; a
    group's base name lists its members; a near name is offered; else every name."""
    fighters = _creatures(("Goblin 1", "GO1", 0), ("Goblin 2", "GO2", 0), ("Pell", "PEL", -1))
    assert kit.find_fighter(fighters, "pel").name == "Pell"
    assert kit.find_fighter(fighters, "go2").name == "Goblin 2"
    with pytest.raises(IllegalAction, match="did you mean 'Goblin 1' \\(GO1\\) or 'Goblin 2'"):
        kit.find_fighter(fighters, "goblin")
    with pytest.raises(IllegalAction, match="did you mean 'Pell'"):
        kit.find_fighter(fighters, "Pall")
    with pytest.raises(IllegalAction, match=r"known: Goblin 1, Goblin 2, Pell\)$"):
        kit.find_fighter(fighters, "Zzyzx")


def test_the_initiative_units_are_a_group_s_members_together_in_the_order_they_came() -> None:
    """kit.units (d20's [1] and pf2's [1]: a group rolls once): those out of the fight
    have none."""
    a, b, c, d = _creatures(("A", "A", -1), ("B1", "B1", 3), ("C", "C", -1), ("B2", "B2", 3))
    c.fled = True
    assert kit.units([a, b, c, d]) == [[a], [b, d]]


def test_dice_are_read_with_their_flat_modifier_within_the_game_s_limits() -> None:
    """kit.read_dice (d20's and pf2's encounter dice): each die one of the sides given,
    each kind written once, at most so many kinds and dice; Roll.text writes it back."""
    roll = kit.read_dice("2d6 + 1d8 - 1", (6, 8), 3, 7)
    assert roll == kit.Roll(((2, 6), (1, 8)), -1) and roll.sides == (6, 6, 8)
    assert roll.text() == "2d6+1d8-1" and kit.Roll((), 3).text() == "3"
    assert kit.read_dice("1d7", (6, 8), 3, 7) is None  # no such die
    assert kit.read_dice("1d6+1d6", (6, 8), 3, 7) is None  # a kind written twice
    assert kit.read_dice("8d6", (6, 8), 3, 7) is None  # more dice than a roll holds


CREATURES = """ruleset = "x"
name = "Brawl"
[[creature]]
name = "Ana"
team = 0
[[creature]]
name = "Bo"
team = 1
"""


def test_a_creature_file_s_head_and_creatures_are_read_and_refused_in_one_line() -> None:
    """TableReader.head and .creatures (d20's and pf2's files): the file's name and teams;
    at most `most` [[creature]] entries, on two teams, no name naming two."""
    r = TableReader(CREATURES, "f.toml")
    doc = {
        "ruleset": "x",
        "name": "Brawl",
        "creature": [{"name": "Ana", "team": 0}, {"name": "Bo", "team": 1}],
    }

    def read(table: str, index: int, data: dict) -> list:
        return [types.SimpleNamespace(name=data["name"], label=data["name"], team=data["team"])]

    assert r.head(doc, "x", ("Us", "Them")) == ("Brawl", ("Us", "Them"))
    with pytest.raises(EncounterError, match="not a y encounter"):
        r.head(doc, "y", ("Us", "Them"))
    creatures, templates = r.creatures(doc, read, 2)
    assert [c.name for c in creatures] == ["Ana", "Bo"] and templates == []
    with pytest.raises(EncounterError, match="at most 1 \\[\\[creature\\]\\] entries, not 2"):
        r.creatures(doc, read, 1)
    same = {**doc, "creature": [{"name": "Ana", "team": 0}, {"name": "ana", "team": 1}]}
    with pytest.raises(EncounterError, match="'ana' names two creatures"):
        r.creatures(same, read, 2)


def test_the_board_shows_the_last_slotted_turn_while_a_unit_with_no_slot_has_it() -> None:
    """kit.hold_turn (d20's lair count and both games' fighters past the board): the turn
    the state shows stays the previous unit's with a slot; before the first, the last
    unit's of the round before; none in round 1 before any."""
    st = _state(3)
    for p, i in enumerate((2, 0, 1)):
        st.order[p] = i
    order = [[2], [5], [0], [1], [7]]  # fighters 5 and 7 have no slot
    kit.hold_turn(st, order, 1, 2, lambda i: True)
    assert (st.round, st.turn) == (2, 0)
    kit.hold_turn(st, order, 4, 2, lambda i: i != 1)  # fighter 1 is out: fighter 0's
    assert (st.round, st.turn) == (2, 1)
    kit.hold_turn(st, [[5], [2], [0]], 0, 3, lambda i: True)
    assert (st.round, st.turn) == (2, 1)
    kit.hold_turn(st, [[5], [2], [0]], 0, 1, lambda i: True)
    assert (st.round, st.turn) == (0, 0)


def test_finish_names_a_team_or_nobody() -> None:
    """kit.named_winner (d20's [29] and pf2's [27] `finish`): a team as typed, nobody."""
    assert kit.named_winner(("Party", "Foes"), "party") == "Party"
    assert kit.named_winner(("Party", "Foes"), "") == "nobody"
    with pytest.raises(IllegalAction, match="unknown team 'Orcs' \\(known: Party, Foes, nobody\\)"):
        kit.named_winner(("Party", "Foes"), "Orcs")


@pytest.mark.parametrize("ruleset_id", sorted(registry.ids()))
def test_every_rulesets_encounter_has_the_kits_encounter_shape(ruleset_id: str) -> None:
    """kit.Encounter: what the host reads of an encounter (name, teams, source, path,
    ruleset) is there in every ruleset's, an outside one's included."""
    r = registry.get(ruleset_id)
    encounter = r.parse_encounter(r.example_path().read_text(encoding="utf-8"), "example.toml")
    assert isinstance(encounter, kit.Encounter)
    assert encounter.ruleset == ruleset_id


def test_an_encounter_game_gives_its_encounters_teams_and_is_not_started() -> None:
    """kit.EncounterGame: the `teams` the host reads are the encounter's, and `started` is
    False until the game sets it (DiceRules.started reads it)."""

    class Game(kit.EncounterGame[types.SimpleNamespace]):  # type: ignore[type-var]
        def __init__(self) -> None:
            self.encounter = types.SimpleNamespace(teams=["Red", "Blue"])

    game = Game()
    assert game.teams == ("Red", "Blue") and game.started is False
    game.started = True
    assert kit.DiceRules().started(game)
    assert "started" in vars(game) and "teams" not in vars(game)
