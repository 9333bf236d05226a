"""What the ruleset kit took from the built-in rulesets (issue 41, item 1): the seeded dice
and their board projection (host/core/kit.py `SeededDice`, `show_roll`), the rules an
engine plays through one function (`Rules`, `DiceRules`), the encounter reader's values
(host/core/encounter_files.py `TableReader`) and the one whole-number reader every
ruleset uses (host/core/numbers.py)."""

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
