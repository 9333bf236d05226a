"""Korxsol's command language: the grammar of its verbs, one action per line, shared by
`turnlight run`, `play` and the journal. docs/commands.md is its reference; keep the two in
step.

    attack Kaelen "Flame Slash" Orrin sol=power cornered=Orrin

The shape of a line (words, `key=value` options, `#` comments) and how a grammar is
checked are every ruleset's (host/core/commandline.py); `fulldraw` and `reroll` are options
written alone. The move, item or artifact after the character is a name that may be typed
in several words (host/rulesets/korxsol/ruleset.py reads it).
"""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Command, Language, Option, Verb
from host.rulesets.korxsol.encounter_schema import SOLIGHTER_KEYS
from shared.limits import MAX_DICE

__all__ = [
    "ROSTER",
    "Command",
    "LANGUAGE",
    "SESSION_VERBS",
    "STRIKE_OPTIONS",
    "VERBS",
    "parse",
    "usage",
]

# The options of a use that strikes: `attack`, `item`, `artifact` and `odds` (docs/commands.md,
# "Options of attack"). A value the grammar cannot check (a name, a path) is the rules'.
STRIKE_OPTIONS = (
    Option("sol", choices=("power",)),
    Option("fulldraw"),
    Option("reroll", "K", number=(1, MAX_DICE), alone=True),
    Option("exchange", "N", number=(1, 9)),
    Option("cornered", "T1,T2"),
    Option("dodge_sol", "T1,T2"),
    Option("resist_sol", "T1,T2"),
    Option("kb", "T:WHAT"),
    Option("collide_sol", "N1,N2"),
    Option("threat", choices=("apart", "unreachable")),
    Option("cover", "T1,T2"),
    Option("wall", "T1,T2"),
    Option("moved", "N", number=(1, None)),
)
FALL = Option("fall", "F:T[:water]")

# How an encounter file writes a solighter: what `add` reads (host/core/newcomers.py).
ROSTER = newcomers.Roster("solighter", "team", SOLIGHTER_KEYS)

# verb -> its grammar and what it does; the help text of `play` and docs/commands.md use it.
VERBS: dict[str, Verb] = {
    "initiative": Verb(
        "",
        "everyone rolls AGILITY for the turn order (sol=: 1 SOL, 3 more dice); round 1 starts",
        (Option("sol", "NAME,NAME"),),
    ),
    "order": Verb("NAME NAME ...", "the game master sets the turn order by hand; round 1 starts"),
    "move": Verb("NAME [SPACES]", "spend 1 AP per space moved", (FALL,)),
    "attack": Verb(
        "NAME MOVE [TARGET ...]", "use a combat move (one per turn)", STRIKE_OPTIONS, ("MOVE",)
    ),
    "item": Verb("NAME ITEM [TARGET ...]", "use an item for 1 AP", STRIKE_OPTIONS, ("ITEM",)),
    "artifact": Verb(
        "NAME ARTIFACT [TARGET ...]",
        "activate an active artifact (no AP)",
        STRIKE_OPTIONS,
        ("ARTIFACT",),
    ),
    "struggle": Verb("NAME", "grappled: spend 1 AP, flip POWER chance tokens to break free"),
    "release": Verb("NAME", "let go of the creature you are grappling (free)"),
    "pivot": Verb("NAME", "turn the creature you grapple to another space (free)", (FALL,)),
    "crush": Verb(
        "NAME",
        "grappling: your combat is a POWER_Roll of un-blockable damage",
        (Option("sol", choices=("power",)), Option("threat", choices=("apart", "unreachable"))),
    ),
    "terrain": Verb(
        "NAME ground|shallows|water|lava|ice",
        "NAME enters that terrain now: lava may burn, water costs AP, ice slides",
        (Option("slide", choices=("yes", "no")),),
    ),
    "phase": Verb("[NAME]", "end the Action Phase: only `end` (the Cooldown Phase) is left"),
    "end": Verb("[NAME]", "end the active turn: its Cooldown Phase, then the next turn"),
    "adjust": Verb(
        "NAME WHAT +N|-N",
        "the game master's correction of frost, burn, fear, kor, armor, sol or ap",
    ),
    "add": newcomers.add_verb(ROSTER, ": its turn comes next"),
    "remove": newcomers.REMOVE_VERB,
}
# Session commands: handled around the game, not by it. Korxsol asks for its rolls
# (`wanted`: roll, cancel and dice from, host/core/session.py); its `dice` also enters a
# roll ahead for the next roll of a purpose.
SESSION_VERBS: dict[str, Verb] = {
    "dice": Verb(
        "[PURPOSE] FACE ...",
        "enter physical dice: for the roll a waiting action wants, else the next of PURPOSE",
    ),
    "dice clear": Verb("", "drop every entered roll still waiting"),
    "odds": Verb(
        "NAME MOVE|ITEM|ARTIFACT TARGET [TARGET ...]",
        "exact chance to hit and damage distribution",
        STRIKE_OPTIONS,
        ("MOVE|ITEM|ARTIFACT",),
    ),
}


LANGUAGE = Language(VERBS, SESSION_VERBS, asides=("odds",), wanted=True)
parse = LANGUAGE.parse
usage = LANGUAGE.usage
unknown_verb = LANGUAGE.unknown_verb
