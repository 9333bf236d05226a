"""d20 combat (the SRD 5.1's turn order) as the host sees it: the `Ruleset` interface
(host/core/interface.py) over d20's own modules. encounter_schema.py reads encounter files,
language.py declares the verbs, verbs.py plays them over engine.py's game (turns.py, harm.py
and conditions.py hold the rules), device.py projects the game onto the board, ai.py plays
the demo.
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
from host.rulesets.d20 import (
    ai,
    bestiary,
    choices,
    conditions,
    device,
    encounter_schema,
    language,
    turns,
    verbs,
)
from host.rulesets.d20.engine import RULES_VERSION, Game
from shared import events as ev

STAT_KEYS = ("damage_dealt", "damage_taken", "hits", "misses", "crits", "downs", "healed")


class D20(kit.CreatureRules):
    id = encounter_schema.ID
    state_version = 3  # 2: legendary resistance, recharging, used actions; 3: a creature's
    # campaign state (hp_now, ...), its dice's luck
    description = (
        "d20 combat (SRD 5.1): initiative, actions and reactions, attack rolls against AC,"
        " hit points, death saves, concentration, conditions, legendary and lair actions"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID
    encounters = encounter_schema  # (the kit's hooks: host/core/kit.py DiceRules)
    game_type = Game
    device = device
    stat_keys = STAT_KEYS
    turn_line = turns.TURN_LINE
    has_bestiary = True
    health_words = ("HP", "# damage past")  # its log's health phrases: core/audience.py
    bench_module = "host.rulesets.d20.bench_turn:engine_turn_d20"
    language = language.LANGUAGE
    start_command = "initiative"
    next_turn_commands = ("next",)
    session_totals = ("damage_dealt", "downs")
    stat_labels = {"damage_dealt": "damage dealt", "damage_taken": "damage taken"}
    chart_panels = (("hp", "HP per creature"), ("score", "foes down per team"))
    grid_legend = (
        "one row per creature in the initiative order: > whose turn, HP, temporary HP, death"
        " saves +/-, C concentrating, conditions"
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
            "conditions, death saves and legendary actions are the rules' to count: use the"
            " laptop (`condition`, `recover`, `legendary`)",
        ),
    }

    # -- the book of monsters -------------------------------------------------------------
    def with_monsters(self, source: str, monsters: str) -> str:
        return bestiary.encounter_with(source, monsters, encounter_schema.MAX_GROUP)

    def bestiary(self, words: list[str]) -> Table:
        found = bestiary.search(words)
        if not found:
            raise IllegalAction(bestiary.unknown(" ".join(words)))
        rows = [
            [
                m["name"],
                m["type"] + (f" ({m['subtype']})" if m.get("subtype") else ""),
                bestiary.cr_text(m["cr"]),
                f"{bestiary.xp(m):,}",
            ]
            for m in found
        ]
        return Table(["monster", "type", "CR", "XP"], rows)

    def encounter_notes(self, game: Game) -> list[str]:
        worth = [f.spec for f in game.fighters if f.spec.xp]
        return [bestiary.xp_line(worth)] if worth else []

    # -- a game ----------------------------------------------------------------------------
    def new_game(self, encounter: encounter_schema.Encounter, seed: int) -> Game:
        game = Game(encounter, seed)
        for f in game.fighters:
            conditions.lasting(game, f.index)
        game.state = device.new_state(game, RULES_VERSION)
        return game

    def play(self, game: Game, cmd: Command, record: list[list] | None) -> list[str]:
        return verbs.apply(game, cmd, record)

    def snapshot(self, game: Game) -> dict:
        e = game.entry()
        return {
            "round": game.round,
            "turn": [game.fighters[i].name for i in e.members] if e else [],
            "lair_turn": bool(e and e.lair_of >= 0),
            "winner": game.over,
            "order": [
                {
                    "total": x.total,
                    "who": [game.fighters[i].name for i in x.members]
                    or [f"lair of {game.fighters[x.lair_of].name}"],
                }
                for x in game.order
            ],
            "creatures": [
                {
                    "name": f.name,
                    "team": game.teams[f.spec.team],
                    "hp": f.hp,
                    "hp_max": f.spec.hp,
                    "temp": f.temp,
                    "ac": f.spec.ac,
                    "state": _state(f),
                    "death_saves": [f.successes, f.failures],
                    "conditions": conditions.on(game, f.index),
                    "concentration": f.concentration or None,
                    "legendary_left": f.legendary_left,
                    "stats": dict(f.stats),
                }
                for f in game.fighters
            ],
            "effects": conditions.outlasting(game),
        }

    # -- the roll an action wants ---------------------------------------------------------
    # With the dice from the board or the table (`play --dice board|entered`) an action
    # waits for each roll it makes, in order: initiative's d20s, an attack's d20 (two with
    # advantage or disadvantage) then its damage dice, a save's d20, a death save's.
    asks_for_rolls = True

    # -- scores ------------------------------------------------------------------------------
    def carry(self) -> Any:
        from host.rulesets.d20.campaign import D20Carry

        return D20Carry()

    # -- views --------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.encounter.name}, round {game.round}"
        if game.over is not None:
            return title, f"the fight is over: {verbs._won(game.over)}"
        if not game.started:
            return title, "`initiative` rolls initiative and starts round 1"
        e = game.entry()
        assert e is not None
        if e.lair_of >= 0:
            return title, f"count 20: {game.fighters[e.lair_of].name}'s lair acts"
        if game.legendary_now:
            names = " and ".join(game.fighters[i].name for i in e.members)
            return title, f"{names}'s turn is over (a legendary action ended it): `next`"
        return title, f"{verbs._whose(game)} turn (initiative {e.total})"

    def roster(self, game: Game) -> Table:
        rows = [
            [
                f.name,
                game.teams[f.spec.team],
                f"{f.hp}/{f.spec.hp}" + (f" +{f.temp}" if f.temp else ""),
                str(f.spec.ac),
                "-" if f.initiative is None else str(f.initiative),
                _state(f),
                ", ".join(_conditions(game, f)) or "-",
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
                ", ".join(
                    ([] if _state(f) == "up" else [_state(f)])
                    + _conditions(game, f, booked=False)  # (the host adds the book's)
                ),
                f.index in now,
            )
            for f in self._in_order(game)
        ]
        return LiveTable(["who", "HP", "AC", "init"], rows)

    def _acting(self, game: Game) -> list[int]:
        e = game.entry()
        if e is None or game.over is not None:
            return []
        return [e.lair_of] if e.lair_of >= 0 else list(e.members)

    def fighters(self, game: Game) -> list[Fighter]:
        now = set(self._acting(game))
        return [
            Fighter(
                f.name,
                game.teams[f.spec.team],
                f.label,
                f.hp,
                f.spec.hp,
                conditions.on(game, f.index, booked=False)  # (the host adds the book's)
                + ([f"concentrating on {f.concentration}"] if f.concentration else [])
                + ([f"death saves {f.successes}/{f.failures}"] if f.dying else []),
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
            saves = f" saves {f.successes}+ {f.failures}-" if f.dying else ""
            conc = " C" if f.concentration else ""
            lines.append(
                f"{mark} {f.label:<3} {game.teams[f.spec.team][:8]:<8} HP {f.hp:>3}/{f.spec.hp:<3}"
                f" tmp {f.temp:>2}{saves}{conc} {', '.join(conditions.on(game, f.index))}"
            )
        return "\n".join(lines)

    def effects_changed(self, game: Game) -> list[str]:
        """[22][24]: a condition the host's `effect` verb put on (or took off) takes hold at
        once: unconscious drops its creature prone, an incapacitated caster stops
        concentrating (conditions.settle, which each of d20's actions also runs first)."""
        return conditions.settle(game)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        labels = [f.label for f in game.fighters]
        present = [f.name for f in game.fighters if f.in_fight]
        joining = newcomers.complete(
            words, game.encounter.source, language.ROSTER, present, game.encounter.teams
        )
        if joining is not None and not (words[0] == "add" and len(words) == 2):
            return joining
        if words[0] == "dice" and len(words) == 2:
            return [*_PURPOSES, "from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if words[0] == "condition" and len(words) == 3:
            return list(encounter_schema.CONDITION_NAMES)
        if words[0] in _WHO_MAY and len(words) == 2:
            return [f.label for f in game.fighters if _WHO_MAY[words[0]](game, f)]
        if words[0] == "recover" and len(words) == 3:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            return [f'"{n}"' if " " in n else n for n in _recoverable(game, f)]
        if words[0] == "save" and len(words) == 3:
            return list(encounter_schema.ABILITIES)
        if words[0] == "use" and len(words) == 3:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            powers = [*f.spec.actions, *(p for p in f.spec.legendary_actions if p.save)]
            return [f'"{p.name}"' if " " in p.name else p.name for p in powers]
        if words[0] == "add" and len(words) == 2:
            named = joining or []
            typed = bestiary.norm(words[1])
            book = [
                m["name"] for m in bestiary.monsters() if bestiary.norm(m["name"]).startswith(typed)
            ]
            return [*named, *(f'"{n}"' if " " in n else n for n in book)]
        if words[0] == "attack" and len(words) == 4:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            return [f'"{a.name}"' if " " in a.name else a.name for a in f.spec.attacks]
        if words[0] == "finish" and len(words) == 2:
            return list(game.teams) + ["nobody"]
        return labels

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words, names)

    def help_notes(self) -> list[str]:
        return [
            "attack options: adv dis far within5 spare as=action|bonus|reaction|legendary|free;"
            " durations: rounds=N until=start|end [of=NAME] save=ABILITY:DC",
            newcomers.help_note(language.ROSTER),
        ]

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)


_PURPOSES = ("initiative", "tie", "attack", "damage", "save", "death", "check", "heal")


def _conditions(game: Game, f: Any, booked: bool = True) -> list[str]:
    """The conditions on a creature (`conditions.on`), and the spell it concentrates on
    ("conc: Bless")."""
    conc = [f"conc: {f.concentration}"] if f.concentration else []
    return conditions.on(game, f.index, booked) + conc


def _recoverable(game: Game, f: Any) -> list[str]:
    """What `recover` may end on a creature now: its conditions and effects, less its
    exhaustion (the `exhaustion` verb's) and, at 0 HP, the unconscious and prone that only
    healing ends [13]."""
    implied = ("unconscious", "prone") if f.in_fight and f.hp == 0 else ()
    return [
        n
        for n in conditions.on(game, f.index)
        if not n.startswith("exhaustion ") and n not in implied
    ]


# The verbs that apply to a creature only in some states: their first word completes (and
# the web console offers them on) only the creatures they apply to now.
_WHO_MAY: dict[str, Any] = {
    "recover": lambda game, f: bool(_recoverable(game, f)),
    "drop": lambda game, f: bool(f.concentration),
    "stand": lambda game, f: f.hp > 0 and "prone" in conditions.on(game, f.index),
    "trigger": lambda game, f: bool(f.readied),
    "legendary": lambda game, f: f.spec.legendary > 0 and f.in_fight,
    "lair": lambda game, f: f.spec.lair is not None and f.in_fight,
    "use": lambda game, f: f.in_fight and bool(f.spec.actions or f.spec.legendary_actions),
    "multiattack": lambda game, f: f.in_fight and bool(f.spec.multiattack),
}


def _state(f: Any) -> str:
    if f.dead:
        return "dead"
    if f.fled:
        return "fled"
    if f.hp == 0:
        if f.knocked_out:
            return "knocked out"
        return "stable" if f.stable else "dying"
    return "up"


RULESET = D20()
