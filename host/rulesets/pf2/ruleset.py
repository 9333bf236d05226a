"""pf2 combat (Pathfinder Second Edition's encounters, as pf2-combat.txt summarises them) as
the host sees it: the `Ruleset` interface (host/core/interface.py) over pf2's own modules.
encounter_schema.py reads encounter files, language.py declares the verbs, verbs.py plays
them over engine.py's game (checks.py, harm.py, turns.py and delay.py hold the rules),
device.py projects the game onto the board, ai.py plays the demo.
"""

from __future__ import annotations

from typing import Any

from host.core import kit
from host.rulesets.pf2 import ai, choices, device, encounter_schema, harm, language, turns, verbs
from host.rulesets.pf2.engine import RULES_VERSION, Game


class PF2(kit.InitiativeRules):
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
    verbs = verbs
    ai = ai
    choices = choices
    turn_line = turns.TURN_LINE
    health_words = ("HP",)  # its log's health phrases: core/audience.py
    bench_module = "host.rulesets.pf2.bench_turn:engine_turn_pf2"
    joiners = language.ROSTER
    language = language.LANGUAGE
    purposes = (
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
    condition_names = encounter_schema.CONDITION_NAMES
    grid_legend = (
        "one row per creature in the initiative order: > whose turn, HP, temporary HP,"
        " actions left, dying and wounded, conditions"
    )
    board_refusals = kit.engine_refusals(
        "roll",
        "conditions, dying and wounded are the rules' to count: use the laptop"
        " (`condition`, `recover`, `heal`)",
    )

    # -- a game ----------------------------------------------------------------------------
    def turn_moments(self, game: Game) -> list[tuple[str, Any]] | None:
        """[22] a Delay: the delayer's turn ends as it leaves the order (delay.py)."""
        return getattr(game, "moments", None)

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

    # -- a campaign (host/core/campaign.py) ------------------------------------------------
    def carry(self) -> Any:
        from host.rulesets.pf2.campaign import PF2Carry

        return PF2Carry()

    # -- views (kit.InitiativeRules's, in pf2's words) ------------------------------------
    def turn_headline(self, game: Game, e: Any) -> str:
        left = ", ".join(
            f"{game.fighters[i].name} {game.fighters[i].actions}/{game.fighters[i].actions_max}"
            for i in e.members
        )
        return f"{verbs.whose(game)} turn (initiative {e.total}; actions {left})"

    def hp_max(self, f: Any) -> int:
        return harm.hp_max(f)

    def state_word(self, f: Any) -> str:
        return _state(f)

    def condition_words(self, game: Game, f: Any, booked: bool = True) -> list[str]:
        return verbs.shown_conditions(f)

    def fighter_notes(self, game: Game, f: Any, acting: bool) -> list[str]:
        return (
            verbs.shown_conditions(f)
            + ([f"actions {f.actions}/{f.actions_max}"] if acting else [])
            + ([] if f.reaction else ["reaction used"])
            + (["delaying"] if game.is_delayed(f) else [])
        )

    def grid_tail(self, game: Game, f: Any, acting: bool) -> str:
        acts = f" actions {f.actions}/{f.actions_max}" if acting else ""
        return f"{acts} {', '.join(verbs.shown_conditions(f))}" + (
            " delaying" if game.is_delayed(f) else ""
        )

    def book_places(self, game: Game, lines: list[str]) -> tuple[int | None, int | None]:
        """The effect book's ends come first at each end of a turn: as a turn ends, before
        its persistent damage [5](a); as one begins, right after its first line, before
        the recovery check and the actions [4](a)."""
        begins = self.turn_begins(lines)
        ends = game.turn_end_at if game.turn_end_at is not None else begins
        return ends, None if begins is None else begins + 1

    def recoverable(self, game: Game, f: Any) -> list[str]:
        return _recoverable(f)

    def complete_more(self, game: Game, words: list[str], joining: list[str] | None) -> Any:
        if words[0] == "condition" and len(words) == 4:
            valued = words[2] in encounter_schema.VALUED
            return ["1", "2", "3", "4"] if valued else []
        if words[0] == "save" and len(words) == 3:
            return list(language.SAVES)
        if len(words) == _DC_AT.get(words[0], 0):
            return [f"dc={n}" for n in _DCS[words[0]]]
        if words[0] == "strike" and len(words) == 4:
            return kit.names_of(game, words[1], lambda f: f.spec.strikes)
        return None

    help_line = (
        "strike options: agile map=0|1|2 reaction readied hero circumstance=N item=N"
        " status=N; save: dc=N basic=DAMAGE type=TYPE; durations: the host's `effect`"
        " (rounds=N until=start|end of=MAKER: counted on the maker's turns [23])"
    )


# The DCs `save` and `flat` offer: simple DCs by level, and the flat checks the rules name
# (concealed 5, hidden 11, persistent damage 15 [10][25]).
_DCS = {"save": (15, 16, 18, 19, 20, 22), "retch": (15, 16, 18, 19, 20, 22), "flat": (5, 11, 15)}
_DC_AT = {"save": 4, "retch": 3, "flat": 3}  # the place of dc= among the words


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


PF2.who_may = _WHO_MAY
RULESET = PF2()
