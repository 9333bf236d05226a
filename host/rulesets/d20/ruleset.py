"""d20 combat (the SRD 5.1's turn order) as the host sees it: the `Ruleset` interface
(host/core/interface.py) over d20's own modules. encounter_schema.py reads encounter files,
language.py declares the verbs, verbs.py plays them over engine.py's game (turns.py, harm.py
and conditions.py hold the rules), device.py projects the game onto the board, ai.py plays
the demo.
"""

from __future__ import annotations

from typing import Any

from host.core import kit
from host.core.interface import (
    IllegalAction,
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


class D20(kit.InitiativeRules):
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
    verbs = verbs
    ai = ai
    choices = choices
    turn_line = turns.TURN_LINE
    has_bestiary = True
    health_words = ("HP", "# damage past")  # its log's health phrases: core/audience.py
    bench_module = "host.rulesets.d20.bench_turn:engine_turn_d20"
    joiners = language.ROSTER
    language = language.LANGUAGE
    purposes = ("initiative", "tie", "attack", "damage", "save", "death", "check", "heal")
    condition_names = encounter_schema.CONDITION_NAMES
    grid_legend = (
        "one row per creature in the initiative order: > whose turn, HP, temporary HP, death"
        " saves +/-, C concentrating, conditions"
    )
    board_refusals = kit.engine_refusals(
        "roll",
        "conditions, death saves and legendary actions are the rules' to count: use the"
        " laptop (`condition`, `recover`, `legendary`)",
    )

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
    # waits for each roll it makes (kit.InitiativeRules.asks_for_rolls), in order:
    # initiative's d20s, an attack's d20 (two with advantage or disadvantage) then its
    # damage dice, a save's d20, a death save's.

    # -- scores ------------------------------------------------------------------------------
    def carry(self) -> Any:
        from host.rulesets.d20.campaign import D20Carry

        return D20Carry()

    # -- views (kit.InitiativeRules's, in d20's words) ------------------------------------
    def turn_headline(self, game: Game, e: Any) -> str:
        if e.lair_of >= 0:
            return f"count 20: {game.fighters[e.lair_of].name}'s lair acts"
        if game.legendary_now:
            names = " and ".join(game.fighters[i].name for i in e.members)
            return f"{names}'s turn is over (a legendary action ended it): `next`"
        return f"{verbs._whose(game)} turn (initiative {e.total})"

    def state_word(self, f: Any) -> str:
        return _state(f)

    def condition_words(self, game: Game, f: Any, booked: bool = True) -> list[str]:
        """The conditions on a creature (`conditions.on`), and the spell it concentrates on
        ("conc: Bless")."""
        conc = [f"conc: {f.concentration}"] if f.concentration else []
        return conditions.on(game, f.index, booked) + conc

    def fighter_notes(self, game: Game, f: Any, acting: bool) -> list[str]:
        return (
            conditions.on(game, f.index, booked=False)  # (the host adds the book's)
            + ([f"concentrating on {f.concentration}"] if f.concentration else [])
            + ([f"death saves {f.successes}/{f.failures}"] if f.dying else [])
        )

    def grid_tail(self, game: Game, f: Any, acting: bool) -> str:
        saves = f" saves {f.successes}+ {f.failures}-" if f.dying else ""
        conc = " C" if f.concentration else ""
        return f"{saves}{conc} {', '.join(conditions.on(game, f.index))}"

    def _acting(self, game: Game) -> list[int]:
        e = game.entry()
        if e is not None and e.lair_of >= 0 and game.over is None:
            return [e.lair_of]
        return super()._acting(game)

    def effects_changed(self, game: Game) -> list[str]:
        """[22][24]: a condition the host's `effect` verb put on (or took off) takes hold at
        once: unconscious drops its creature prone, an incapacitated caster stops
        concentrating (conditions.settle, which each of d20's actions also runs first)."""
        return conditions.settle(game)

    def recoverable(self, game: Game, f: Any) -> list[str]:
        return _recoverable(game, f)

    def complete_more(self, game: Game, words: list[str], joining: list[str] | None) -> Any:
        if words[0] == "add" and len(words) == 2:
            typed = bestiary.norm(words[1])
            book = [
                m["name"] for m in bestiary.monsters() if bestiary.norm(m["name"]).startswith(typed)
            ]
            return [*(joining or []), *(kit.quoted(n) for n in book)]
        if words[0] == "save" and len(words) == 3:
            return list(encounter_schema.ABILITIES)
        if words[0] == "use" and len(words) == 3:
            return kit.names_of(game, words[1], _powers)
        if words[0] == "attack" and len(words) == 4:
            return kit.names_of(game, words[1], lambda f: f.spec.attacks)
        return None

    help_line = (
        "attack options: adv dis far within5 spare as=action|bonus|reaction|legendary|free;"
        " durations: rounds=N until=start|end [of=NAME] save=ABILITY:DC"
    )


def _powers(f: Any) -> list[Any]:
    """What `use` names of a creature: its actions, and its legendary actions with a save."""
    return [*f.spec.actions, *(p for p in f.spec.legendary_actions if p.save)]


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


D20.who_may = _WHO_MAY
RULESET = D20()
