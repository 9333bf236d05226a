"""Korxsol as the host sees it: the `Ruleset` interface (host/core/interface.py) over korxsol's own
modules. encounter_schema.py reads the files, language.py declares the verbs, engine.py plays the
game (its `Game` is the game object the host keeps), rolls.py keeps the dice and their records,
exact_odds.py counts the odds, ai.py plays the demo, board_presses.py reads the board's presses and
tables.py says what korxsol shows.

Nothing here decides a rule: it only says where each rule lives.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from host.core import kit, names, newcomers
from host.core.commandline import Command, whole_number
from host.core.interface import (
    Applied,
    Fighter,
    IllegalAction,
    LiveRow,
    LiveTable,
    Supplied,
    Table,
    Waiting,
)
from host.rulesets.korxsol import (
    ai,
    board_presses,
    choices,
    device,
    encounter_schema,
    exact_odds,
    table,
    tables,
    terrain,
    threat,
)
from host.rulesets.korxsol.engine import RULES_VERSION, Game
from host.rulesets.korxsol.fighter import norm
from host.rulesets.korxsol.language import LANGUAGE, ROSTER
from host.rulesets.korxsol.language import parse as parse_line
from host.rulesets.korxsol.model import Encounter
from host.rulesets.korxsol.rolls import PURPOSES, RollRecord
from shared.state import GameState

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

ID = "korxsol"
# The options `attack` (and `item`, `artifact`, `odds`) take: completion and `help`.
OPTION_KEYS = (
    "sol=",
    "dodge_sol=",
    "resist_sol=",
    "collide_sol=",
    "cornered=",
    "kb=",
    "exchange=",
    "threat=",
    "cover=",
    "wall=",
    "moved=",
    "fall=",
    "slide=",
)
STRIKING_VERBS = ("attack", "odds", "item", "artifact")
# What the word after the character names, for the verbs that strike (a misspelling gets
# a suggestion; one of several words may be typed without quotes: host/core/names.py).
THING = {"attack": "move", "odds": "move, item or artifact", "item": "item", "artifact": "artifact"}


class Korxsol(kit.Rules):
    id = ID
    state_version = 6  # 2: a Timeline (host.core.timeline) and a bounded log, not two lists;
    # 3: the board state's slots keep their tables as views of one buffer, one Roll class;
    # 4: the board state has effects on its slots and each die's sides; 5: the fighters
    # who joined and left (`add`, `remove`); 6: the board state's `off_board` and its
    # wanted roll's `smart`
    description = (
        "Solighters in teams: Agility initiative, AP, cooldowns, burn/frost/fear, SOL, KOR"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID  # the state's ruleset field: device.py says why it is there
    encounters = encounter_schema  # (the kit's hook: host/core/kit.py Rules)
    health_words = ("KOR",)  # its log's health phrases: host/core/audience.py
    language = LANGUAGE
    start_command = "initiative"
    next_turn_commands = ("initiative", "end")
    session_totals = ("damage_dealt", "kos")
    stat_labels = {"kos": "KOs"}
    chart_panels = (("kor", "KOR per fighter"), ("score", "score per team"))
    grid_legend = tables.GRID_LEGEND

    # -- a game ----------------------------------------------------------------------------
    def new_game(self, encounter: Encounter, seed: int) -> Game:
        game = Game(encounter, seed)
        self.project(game)
        return game

    def state(self, game: Game) -> GameState:
        if game.board.version != game.state.version:
            self.project(game)
        return game.board

    def table_state(self, game: Game) -> GameState:
        return game.state

    def project(self, game: Game) -> None:
        """The engine keeps its whole table in step as it plays; the board's share of it
        is projected (host/rulesets/korxsol/table.py)."""
        table.board_view(game.state, game.board)

    def off_board(self, game: Game) -> list[Fighter]:
        past = {f.spec.name for f in kit.past_the_board(self.state(game), game.fighters)}
        return [f for f in self.fighters(game) if f.name in past]

    def apply(self, game: Game, cmd: Command) -> Applied:
        outcome = game.apply(read_names(game, cmd))
        return Applied(outcome.lines, list(game.roller.records))

    def replay(self, game: Game, cmd: Command, record: list[RollRecord]) -> list[str]:
        return game.apply(read_names(game, cmd), replay=record).lines

    def record_json(self, record: list[RollRecord]) -> list[dict]:
        return [r.as_json() for r in record]

    def record_from_json(self, data: list[dict]) -> list[RollRecord]:
        return [RollRecord.from_json(r) for r in data]

    def started(self, game: Game) -> bool:
        return game.started

    def winner(self, game: Game) -> str | None:
        return kit.winner_name(game.teams, game.winner)

    def fighter_names(self, game: Game) -> list[str]:
        return [f.spec.name for f in game.fighters]

    def gone(self, game: Game) -> set[str]:
        return set(game.gone)

    def snapshot(self, game: Game) -> dict:
        return game.snapshot()

    # -- the roll an action wants ------------------------------------------------------------
    asks_for_rolls = True

    def supply_rolls(self, game: Game, rolls: list[Supplied] | None) -> None:
        game.roller.supply(rolls)

    # -- rolls waiting -----------------------------------------------------------------------
    def queue_roll(self, game: Game, purpose: str, faces: tuple[int, ...], source: str) -> None:
        game.roller.queue(purpose, faces, source)

    def waiting(self, game: Game) -> Waiting:
        return game.roller.queued

    def set_waiting(self, game: Game, waiting: Waiting) -> None:
        game.roller.queued = waiting

    def used_waiting(self, record: list[RollRecord]) -> list[str]:
        return [r.queue for r in record if r.source != "engine"]

    def roll_lines(self, game: Game) -> list[str]:
        lines = []
        for rec in game.roller.records:
            if rec.purpose == "initiative" and rec.who < 0:  # an old journal's draws
                lines.append(f"initiative: {len(rec.faces)} dice rolled ({rec.source})")
                continue
            name = game.fighters[rec.who].spec.name if rec.who >= 0 else "all"
            faces = " ".join(map(str, rec.faces))
            shown = kit.from_where(rec.source)
            lines.append(f"{rec.purpose} {name} {faces} -> {rec.successes}{shown}")
        return lines

    def session_command(self, session: SessionAPI, cmd: Command) -> list[str]:
        if cmd.verb == "dice":
            if cmd.args[:1] == ["clear"]:
                return session.clear_rolls()
            purpose = cmd.arg(0, "a roll purpose")
            if purpose == "initiative" and session.game.started:
                raise IllegalAction("initiative is already rolled: no initiative roll will come")
            faces = tuple(whole_number(a, 0, 255, "a face") for a in cmd.args[1:])
            return session.queue_roll(purpose, faces, "entered")
        if cmd.verb == "odds":
            return exact_odds.describe(session.game, read_names(session.game, cmd))
        return super().session_command(session, cmd)

    # -- the board ---------------------------------------------------------------------------
    def board_action(self, session: SessionAPI, record: bytes) -> list[str]:
        return board_presses.board_action(session, record)

    # -- scores ------------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        snap = game.snapshot()
        return {
            "teams": snap["teams"],
            "players": {f["name"]: f["stats"] for f in snap["fighters"]},
            "team_of": {f["name"]: f["team"] for f in snap["fighters"]},
        }

    def score_table(self, game: Game) -> Table:
        return Table(list(tables.SCORE_HEADERS), tables.score_rows(game))

    def score_line(self, game: Game) -> str:
        return tables.score_line(game)

    def carry(self) -> Any:
        from host.rulesets.korxsol.campaign import KorxsolCarry

        return KorxsolCarry()

    # -- views --------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        st = game.state
        name = game.encounter.name
        title = f"{name}, round {st.round}" if game.started else name
        active = game.active
        if game.winner is not None:
            return title, f"the fight is over: {self.winner(game)} wins"
        if active is None:
            return title, "type `initiative` to roll the turn order"
        phase = "Action" if st.phase == 0 else "Cooldown"
        # Where the active fighter stands: the terrain it has entered bites now or next turn.
        where = "" if active.terrain == "ground" else f", on {active.terrain}"
        return (
            title,
            f"{active.spec.name}'s turn ({phase} Phase), {game.slot(active).actions} AP{where}",
        )

    def roster(self, game: Game) -> Table:
        return Table(list(tables.FIGHTER_HEADERS), tables.fighter_rows(game), tables.FIGHTER_WRAP)

    def live_roster(self, game: Game) -> LiveTable:
        rows = [
            LiveRow(cells, note, cells[1].startswith(">"))
            for cells, note in tables.compact_fighter_rows(game)
        ]
        return LiveTable(list(tables.COMPACT_HEADERS), rows)

    def fighters(self, game: Game) -> list[Fighter]:
        """The default, with the live table's words for statuses and cooldowns (`burn 2`,
        `Rally Cry: power+1 (2 turns)`, `Flame Slash 1`) instead of the board's numbers."""
        rows = {row[2][2:]: row for row in tables.fighter_rows(game)}
        fighters = super().fighters(game)
        for f in fighters:
            row = rows.get(f.name)
            if row is not None:
                f.statuses = [] if row[8] == "-" else row[8].split(", ")
                f.cooldowns = [] if row[9] == "-" else row[9].split(", ")
        return fighters

    def device_grid(self, game: Game, color: bool) -> str:
        return tables.render_grid(game.state, color)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        present = [f.spec.name for f in game.fighters if f.spec.name not in game.gone]
        joining = newcomers.complete(
            words, game.encounter.source, ROSTER, present, game.encounter.teams
        )
        if joining is not None:
            return joining
        names = [f.spec.label for f in game.fighters] + [f.spec.name for f in game.fighters]
        if words[0] == "dice" and len(words) == 2:
            return list(PURPOSES) + ["clear", "from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if len(words) == 2:
            return names
        if len(words) == 3 and words[0] == "terrain":
            return list(terrain.TERRAINS)
        if len(words) == 3 and words[0] in STRIKING_VERBS:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            pool = {
                "attack": [m.name for m in f.spec.moves],
                "odds": [m.name for m in f.spec.moves],
                "item": [i.name for i in f.hand],
                "artifact": [a.name for a in f.spec.artifacts],
            }[words[0]]
            return [f'"{n}"' if " " in n else n for n in pool]
        return names + list(OPTION_KEYS) + ["fulldraw", "reroll"]

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words)

    def help_notes(self) -> list[str]:
        return [
            "attack options: " + " ".join(OPTION_KEYS) + " fulldraw reroll",
            newcomers.help_note(ROSTER),
        ]

    # -- odds -----------------------------------------------------------------------------------
    def odds_preview(self, game: Game) -> list[str]:
        """The odds of the active fighter's first ready attack on the first enemy standing
        (one bearing a threat that binds it first)."""
        f = game.active
        if f is None or game.winner is not None:
            return []
        enemies = threat.bearers(game, f) + [
            e for e in game.fighters if e.spec.team != f.spec.team and game.alive(e)
        ]
        for move in f.spec.moves:
            if move.is_attack and enemies and game.ready(f, "move", move.name):
                cmd = Command("odds", [f.spec.label, move.name, enemies[0].spec.label])
                return exact_odds.describe(game, cmd)
        return []

    def before(self, game: Game, line: str) -> list[str]:
        try:
            cmd = parse_line(line)
            if cmd is not None:
                line = command_line(read_names(game, cmd))
        except IllegalAction:
            return []  # the action itself will say what is wrong
        return exact_odds.before_attack(game, line)

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)


def read_names(game: Game, cmd: Command) -> Command:
    """The command with its names read as the game master meant them: a misspelt character,
    move, item or artifact gets a suggestion (IllegalAction), and a move of several words
    typed without quotes is one word when only one reading spells a name (Command.take_name,
    which would refuse a word left over; the verbs that name one take any number of
    targets)."""
    fighters = [f.spec.name for f in game.fighters] + [f.spec.label for f in game.fighters]
    slots = LANGUAGE.grammar[cmd.verb].slots if LANGUAGE.knows(cmd.verb) else ()
    if cmd.verb == "order":
        for word in cmd.args:
            names.suggest("character", word, fighters, norm)
    elif slots[:1] and slots[0].text == "NAME" and cmd.args:
        names.suggest("character", cmd.args[0], fighters, norm)
    if cmd.verb not in THING or len(cmd.args) < 2:
        return cmd
    f = game.fighter(cmd.args[0])
    pool = {
        "attack": [m.name for m in f.spec.moves],
        "item": [i.name for i in f.hand],
        "artifact": [a.name for a in f.spec.artifacts],
    }
    pool["odds"] = pool["attack"] + pool["item"] + pool["artifact"]
    cmd = cmd.take_name(pool[cmd.verb], THING[cmd.verb], norm)
    for word in cmd.args[2:]:
        names.suggest("character", word, fighters, norm)
    return cmd


def command_line(cmd: Command) -> str:
    """A command written back as a line (its words quoted where they need it)."""
    opts = [key if value == "" else f"{key}={value}" for key, value in cmd.opts.items()]
    return shlex.join([cmd.verb, *cmd.args]) + "".join(f" {o}" for o in opts)


RULESET = Korxsol()
