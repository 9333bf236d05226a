"""pf2 combat (Pathfinder Second Edition's encounters, as pf2-combat.txt summarises them) as
the host sees it: the `Ruleset` interface (host/core/interface.py) over pf2's own modules.
encounter_schema.py reads encounter files, language.py declares the verbs, verbs.py plays
them over engine.py's game (checks.py, harm.py, turns.py and delay.py hold the rules),
device.py projects the game onto the board, ai.py plays the demo.
"""

from __future__ import annotations

from typing import Any

from host.core import kit, newcomers
from host.core.commandline import Command
from host.core.interface import (
    Fighter,
    IllegalAction,
    LiveRow,
    LiveTable,
    Table,
)
from host.rulesets.pf2 import ai, choices, device, encounter_schema, harm, language, turns, verbs
from host.rulesets.pf2.engine import RULES_VERSION, Game
from shared import events as ev

STAT_KEYS = ("damage_dealt", "damage_taken", "hits", "misses", "crits", "downs", "healed")


class PF2(kit.CreatureRules):
    id = encounter_schema.ID
    state_version = 2
    description = (
        "Pathfinder Second Edition encounters (ORC): three actions and a reaction, the multiple"
        " attack penalty, four degrees of success, valued conditions, dying and wounded, Delay"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID
    encounters = encounter_schema  # (the kit's hooks: host/core/kit.py DiceRules)
    game_type = Game
    device = device
    stat_keys = STAT_KEYS
    turn_line = turns.TURN_LINE
    health_words = ("HP",)  # its log's health phrases: core/audience.py
    bench_module = "host.rulesets.pf2.bench_turn:engine_turn_pf2"
    language = language.LANGUAGE
    start_command = "initiative"
    next_turn_commands = ("next",)
    session_totals = ("damage_dealt", "downs")
    stat_labels = {"damage_dealt": "damage dealt", "damage_taken": "damage taken"}
    chart_panels = (("hp", "HP per creature"), ("score", "foes down per team"))
    grid_legend = (
        "one row per creature in the initiative order: > whose turn, HP, temporary HP,"
        " actions left, dying and wounded, conditions"
    )
    no_roll_waits = (
        "no action waits for a roll: the engine rolls them (`dice from board` or"
        " `dice from entered`, and the next roll waits for the board or for `dice`)"
    )
    board_refusals = {
        **dict.fromkeys(
            (ev.ROLL_ACTION, ev.CHANCE, ev.D100),
            "the engine rolls the dice (--dice engine): the board's roll is not used;"
            " `dice from board` and the next roll waits for the roll key",
        ),
        **dict.fromkeys(
            (ev.COUNTER_UP, ev.COUNTER_DOWN),
            "conditions, dying and wounded are the rules' to count: use the laptop"
            " (`condition`, `recover`, `heal`)",
        ),
    }

    # -- a game ----------------------------------------------------------------------------
    def play(self, game: Game, cmd: Command, record: list[list] | None) -> list[str]:
        return verbs.apply(game, cmd, record)

    def passed_turns(self, game: Game) -> list[tuple[int, int]]:
        """[22] a Delay: the delayer's turn ends as it leaves the order (delay.py)."""
        return [(rnd, device.position(game, i)) for rnd, i in game.passed]

    def snapshot(self, game: Game) -> dict:
        e = game.entry()
        return {
            "round": game.round,
            "turn": [game.fighters[i].name for i in e.members] if e else [],
            "winner": game.over,
            "order": [
                {"total": x.total, "who": [game.fighters[i].name for i in x.members]}
                for x in game.order
            ],
            "delaying": [game.fighters[i].name for d in game.delayed for i in d.entry.members],
            "creatures": [
                {
                    "name": f.name,
                    "team": game.teams[f.spec.team],
                    "hp": f.hp,
                    "hp_max": harm.hp_max(f),
                    "temp": f.temp,
                    "ac": f.spec.ac,
                    "state": _state(f),
                    "dying": f.dying,
                    "wounded": f.wounded,
                    "conditions": verbs.shown_conditions(f),
                    "actions": [f.actions, f.actions_max],
                    "reaction": f.reaction,
                    "hero_points": f.hero,
                    "stats": dict(f.stats),
                }
                for f in game.fighters
            ],
        }

    # -- the roll an action wants ---------------------------------------------------------
    asks_for_rolls = True

    # -- a campaign (host/core/campaign.py) ------------------------------------------------
    def carry(self) -> Any:
        from host.rulesets.pf2.campaign import PF2Carry

        return PF2Carry()

    # -- views --------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.encounter.name}, round {game.round}"
        if game.over is not None:
            return title, f"the fight is over: {verbs._won(game.over)}"
        if not game.started:
            return title, "`initiative` rolls initiative and starts round 1"
        e = game.entry()
        assert e is not None
        left = ", ".join(
            f"{game.fighters[i].name} {game.fighters[i].actions}/{game.fighters[i].actions_max}"
            for i in e.members
        )
        return title, f"{verbs.whose(game)} turn (initiative {e.total}; actions {left})"

    def roster(self, game: Game) -> Table:
        rows = [
            [
                f.name,
                game.teams[f.spec.team],
                f"{f.hp}/{harm.hp_max(f)}" + (f" +{f.temp}" if f.temp else ""),
                str(f.spec.ac),
                "-" if f.initiative is None else str(f.initiative),
                _state(f),
                ", ".join(verbs.shown_conditions(f)) or "-",
            ]
            for f in self._in_order(game)
        ]
        return Table(["name", "team", "HP", "AC", "init", "state", "conditions"], rows, (6,))

    def live_roster(self, game: Game) -> LiveTable:
        now = set(self._acting(game))
        rows = [
            LiveRow(
                [
                    f.label,
                    f"{f.hp}" + (f"+{f.temp}" if f.temp else ""),
                    str(f.spec.ac),
                    "-" if f.initiative is None else str(f.initiative),
                ],
                ", ".join(([] if _state(f) == "up" else [_state(f)]) + verbs.shown_conditions(f)),
                f.index in now,
            )
            for f in self._in_order(game)
        ]
        return LiveTable(["who", "HP", "AC", "init"], rows)

    def _acting(self, game: Game) -> list[int]:
        e = game.entry()
        if e is None or game.over is not None:
            return []
        return list(e.members)

    def turn_begins(self, lines: list[str]) -> int | None:
        return next((i for i, line in enumerate(lines) if turns.TURN_LINE.match(line)), None)

    def book_places(self, game: Game, lines: list[str]) -> tuple[int | None, int | None]:
        """The effect book's ends come first at each end of a turn: as a turn ends, before
        its persistent damage [5](a); as one begins, right after its first line, before
        the recovery check and the actions [4](a)."""
        begins = self.turn_begins(lines)
        ends = game.turn_end_at if game.turn_end_at is not None else begins
        return ends, None if begins is None else begins + 1

    def fighters(self, game: Game) -> list[Fighter]:
        now = set(self._acting(game))
        return [
            Fighter(
                f.name,
                game.teams[f.spec.team],
                f.label,
                f.hp,
                harm.hp_max(f),
                verbs.shown_conditions(f)
                + ([f"actions {f.actions}/{f.actions_max}"] if f.index in now else [])
                + ([] if f.reaction else ["reaction used"])
                + (["delaying"] if game.is_delayed(f) else []),
                [],
                f.index in now,
                not f.in_fight,
            )
            for f in self._in_order(game)
        ]

    def device_grid(self, game: Game, color: bool) -> str:
        now = set(self._acting(game))
        lines = [f"round {game.round}"]
        for f in self._in_order(game):
            mark = ">" if f.index in now else ("x" if not f.in_fight else " ")
            acts = f" actions {f.actions}/{f.actions_max}" if f.index in now else ""
            lines.append(
                f"{mark} {f.label:<3} {game.teams[f.spec.team][:8]:<8}"
                f" HP {f.hp:>3}/{harm.hp_max(f):<3}"
                f" tmp {f.temp:>2}{acts} {', '.join(verbs.shown_conditions(f))}"
                + (" delaying" if game.is_delayed(f) else "")
            )
        return "\n".join(lines)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        labels = [f.label for f in game.fighters]
        present = [f.name for f in game.fighters if f.in_fight]
        joining = newcomers.complete(
            words, game.encounter.source, language.ROSTER, present, game.encounter.teams
        )
        if joining is not None:
            return joining
        if words[0] == "dice" and len(words) == 2:
            return [*_PURPOSES, "from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if words[0] == "condition" and len(words) == 3:
            return list(encounter_schema.CONDITION_NAMES)
        if words[0] == "condition" and len(words) == 4:
            valued = words[2] in encounter_schema.VALUED
            return ["1", "2", "3", "4"] if valued else []
        if words[0] == "save" and len(words) == 3:
            return list(language.SAVES)
        if len(words) == _DC_AT.get(words[0], 0):
            return [f"dc={n}" for n in _DCS[words[0]]]
        if words[0] in _WHO_MAY and len(words) == 2:
            return [f.label for f in game.fighters if _WHO_MAY[words[0]](game, f)]
        if words[0] == "recover" and len(words) == 3:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            return _recoverable(f)
        if words[0] == "strike" and len(words) == 4:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            return [f'"{s.name}"' if " " in s.name else s.name for s in f.spec.strikes]
        if words[0] == "finish" and len(words) == 2:
            return list(game.teams) + ["nobody"]
        return labels

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words, names)

    def help_notes(self) -> list[str]:
        return [
            "strike options: agile map=0|1|2 reaction readied hero circumstance=N item=N"
            " status=N; save: dc=N basic=DAMAGE type=TYPE; durations: the host's `effect`"
            " (rounds=N until=start|end of=MAKER: counted on the maker's turns [23])",
            newcomers.help_note(language.ROSTER),
        ]

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)


# The DCs `save` and `flat` offer: simple DCs by level, and the flat checks the rules name
# (concealed 5, hidden 11, persistent damage 15 [10][25]).
_DCS = {"save": (15, 16, 18, 19, 20, 22), "retch": (15, 16, 18, 19, 20, 22), "flat": (5, 11, 15)}
_DC_AT = {"save": 4, "retch": 3, "flat": 3}  # the place of dc= among the words
_PURPOSES = (
    "initiative",
    "attack",
    "damage",
    "save",
    "recovery",
    "flat",
    "persistent",
    "heal",
    "reroll",
)


def _recoverable(f: Any) -> list[str]:
    implied = ("unconscious",) if f.in_fight and f.dying else ()
    out = [n for n in f.values if f.values[n]] + [m for m in f.marks if m not in implied]
    return out + (["wounded"] if f.wounded else [])


_WHO_MAY: dict[str, Any] = {
    "recover": lambda game, f: bool(_recoverable(f)),
    "stand": lambda game, f: "unconscious" not in f.marks and "prone" in f.marks,
    "retch": lambda game, f: bool(f.values.get("sickened")),
    "trigger": lambda game, f: bool(f.readied),
    "return": lambda game, f: game.is_delayed(f),
    "hero": lambda game, f: f.hero > 0 and (f.dying > 0 or f.index in game.died_now),
}


def _state(f: Any) -> str:
    if f.dead:
        return "dead"
    if f.fled:
        return "gone"
    if f.dying:
        return f"dying {f.dying}"
    if "unconscious" in f.marks:
        return "unconscious"
    return "up" if f.hp else "up at 0 HP"


RULESET = PF2()
