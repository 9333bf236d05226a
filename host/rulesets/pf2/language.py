"""pf2's command language: each verb's grammar (its words and options) and what it does, and
the Language the shared command line checks lines against (verbs.py plays them).
docs/rulesets/pf2.md is its reference."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb
from host.rulesets.pf2.keys import CREATURE_KEYS

SAVES = ("fort", "ref", "will")
ROSTER = newcomers.Roster("creature", "team", tuple(k for k in CREATURE_KEYS if k != "count"))
# [10] typed bonuses and penalties a check may be given: circumstance=2, status=-1 ...
TYPED = (
    Option("circumstance", "N", number=(-10, 10)),
    Option("item", "N", number=(-10, 10)),
    Option("status", "N", number=(-10, 10)),
)

VERBS: dict[str, Verb] = {
    "initiative": Verb(
        "",
        "roll initiative (once for each creature or group) and start round 1",
        (Option("check", "NAME:MODIFIER,..."),),
    ),
    "next": Verb("", "end this turn and start the next one in the initiative order"),
    "end": Verb("[NAME]", "end the turn, as `next` does (NAME, if given: whose turn it is)"),
    "strike": Verb(
        "NAME TARGET [WEAPON]",
        "a Strike (1 action): d20 + its bonus less the multiple attack penalty, against AC",
        (
            Option("agile"),
            Option("map", "N", number=(0, 2)),
            Option("reaction"),
            Option("readied"),
            Option("hero"),
            *TYPED,
        ),
    ),
    "save": Verb(
        "NAME fort|ref|will",
        "a saving throw against dc=N; basic=DAMAGE deals none, half, full or double",
        (
            Option("dc", "N", number=(0, 60), required=True),
            Option("basic", "DAMAGE"),
            Option("type", "TYPE"),
            Option("by", "NAME"),
            Option("hero"),
            *TYPED,
        ),
    ),
    "flat": Verb(
        "NAME",
        "a flat check: a d20 alone against dc=N [10]",
        (Option("dc", "N", number=(1, 21), required=True),),
    ),
    "damage": Verb(
        "NAME AMOUNT",
        "damage from outside a Strike: a number or dice (2d6+3)",
        (Option("type", "TYPE"), Option("crit"), Option("by", "NAME")),
    ),
    "heal": Verb(
        "NAME AMOUNT", "restore hit points: a number or dice (2d8+8)", (Option("by", "NAME"),)
    ),
    "temp": Verb("NAME AMOUNT", "give temporary hit points (the higher amount stays [12])"),
    "condition": Verb(
        "NAME CONDITION [VALUE]",
        "give NAME a condition (frightened 2, off-guard; a value of 1 unless told):"
        " a higher value replaces a lower [20]",
    ),
    "recover": Verb("NAME CONDITION", "end a condition on NAME (wounded too: the GM clears it)"),
    "persistent": Verb(
        "NAME TYPE DICE|end",
        "persistent damage (persistent NAME fire 1d6): taken at the end of NAME's turns [25]",
        (Option("assist"),),
    ),
    "act": Verb(
        "NAME [WHAT ...]",
        "NAME spends actions on its turn (Stride, Interact, a spell ...)",
        (
            Option("cost", "N", number=(0, 3)),
            Option("attack"),
            Option("spell"),
            Option("move"),
            Option("manipulate"),
        ),
    ),
    "retch": Verb(
        "NAME",
        "sickened NAME retches (1 action): a Fortitude save against dc=N, 1 less on a success",
        (Option("dc", "N", number=(0, 60), required=True),),
    ),
    "react": Verb("NAME [WHAT ...]", "NAME uses its reaction (on anyone's turn)"),
    "stand": Verb("NAME", "NAME Stands up from prone (1 action)"),
    "delay": Verb("NAME", "NAME Delays as its turn begins: it leaves the order [22]"),
    "return": Verb("NAME", "NAME returns from Delay after this turn: its place from now on [22]"),
    "ready": Verb("NAME TRIGGER ...", "NAME Readies an action (2 actions) with a trigger [21]"),
    "trigger": Verb("NAME", "the trigger came: NAME takes its readied action with its reaction"),
    "sustain": Verb(
        "NAME TARGET EFFECT",
        "NAME Sustains (1 action) its effect on TARGET: to the end of its next turn [24]",
        (Option("limit", "ROUNDS", number=(1, 10_000)),),
    ),
    "hero": Verb(
        "NAME",
        "dying: NAME spends all its Hero Points, no longer dying at 0 HP; else 1 rerolls the"
        " check NAME just made, the new result standing [26]",
    ),
    "finish": Verb(
        "[TEAM ...]", "the game master ends the fight (TEAM won, or nobody); `undo` takes it back"
    ),
    "add": newcomers.add_verb(ROSTER, ": it rolls initiative and takes its place in the order"),
    "remove": newcomers.REMOVE_VERB,
}
LANGUAGE = Language(VERBS, wanted=True)
