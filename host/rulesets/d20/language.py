"""d20's command language: each verb's grammar (its words and options) and what it does,
and the Language the shared command line checks lines against (verbs.py plays them).
docs/rulesets/d20.md is its reference."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb
from host.rulesets.d20.encounter_schema import CREATURE_KEYS

ABILITY = ("str", "dex", "con", "int", "wis", "cha")
AS = ("action", "bonus", "reaction", "legendary", "free")
# How an encounter file writes a creature: a [[creature]] with its team= (host/core/newcomers.py).
ROSTER = newcomers.Roster("creature", "team", tuple(k for k in CREATURE_KEYS if k != "count"))

VERBS: dict[str, Verb] = {
    "initiative": Verb(
        "",
        "roll initiative (once for each creature or group) and start round 1",
        (Option("surprised", "NAME,..."),),
    ),
    "next": Verb("", "end this turn and start the next one in the initiative order"),
    "end": Verb("[NAME]", "end the turn, as `next` does (NAME, if given: whose turn it is)"),
    "attack": Verb(
        "NAME TARGET [WEAPON]",
        "an attack roll against TARGET's AC; on a hit its damage (a critical: dice twice)",
        (
            Option("adv"),
            Option("dis"),
            Option("far"),
            Option("within5"),
            Option("spare"),
            Option("magic"),
            Option("as", choices=AS),
        ),
    ),
    "use": Verb(
        "NAME ACTION [TARGET ...]",
        "a save-based action of NAME's stat line (a breath): each TARGET saves against its DC;"
        " its damage in full on a failure, half or none on a success",
        (Option("as", choices=AS), Option("nolr")),
        several=("ACTION",),
    ),
    "multiattack": Verb(
        "NAME TARGET",
        "NAME's action: the attacks its stat line's multiattack names, in order, at TARGET",
        (Option("adv"), Option("dis"), Option("far"), Option("within5"), Option("magic")),
    ),
    "damage": Verb(
        "NAME AMOUNT",
        "damage from outside an attack: AMOUNT or AMOUNT,AMOUNT,... (one a source)",
        (
            Option("type", "TYPE"),
            Option("crit"),
            Option("spare"),
            Option("magic"),
            Option("by", "NAME"),
        ),
    ),
    "heal": Verb(
        "NAME AMOUNT",
        "restore hit points: a number, or dice such as 1d8+3; by=HEALER uses its action",
        (Option("by", "NAME"),),
    ),
    "temp": Verb(
        "NAME AMOUNT",
        "give temporary hit points (they do not add up: keep= says which stay)",
        (Option("keep", choices=("higher", "new", "old")),),
    ),
    "save": Verb(
        "NAME ABILITY DC",
        "a saving throw: d20 + NAME's modifier for ABILITY against DC (a failure spends a"
        " Legendary Resistance, if NAME has one left, unless nolr)",
        (Option("adv"), Option("dis"), Option("nolr")),
    ),
    "condition": Verb(
        "NAME EFFECT",
        "put a condition (or an effect of any name) on NAME, with a duration",
        (
            Option("rounds", "N", number=(1, 100)),
            Option("until", choices=("start", "end")),
            Option("of", "NAME"),
            Option("save", "ABILITY:DC"),
            Option("by", "NAME"),
            Option("concentration"),
        ),
    ),
    "recover": Verb("NAME EFFECT", "end a condition or effect on NAME"),
    "exhaustion": Verb("NAME LEVEL", "set NAME's exhaustion level (0..6; 6 is death)"),
    "concentrate": Verb("NAME SPELL ...", "NAME begins concentrating on SPELL (the old one ends)"),
    "drop": Verb("NAME", "NAME stops concentrating"),
    "act": Verb("NAME [WHAT ...]", "NAME uses its action (dash, dodge, help, a spell ...)"),
    "bonus": Verb("NAME [WHAT ...]", "NAME uses its bonus action"),
    "react": Verb("NAME [WHAT ...]", "NAME uses its reaction (an opportunity attack, a spell ...)"),
    "move": Verb("NAME FEET", "NAME moves, out of its speed this turn"),
    "stand": Verb("NAME", "NAME stands up from prone (half its speed)"),
    "ready": Verb("NAME TRIGGER ...", "NAME uses its action to ready another, with a trigger"),
    "trigger": Verb("NAME", "the trigger came: NAME takes its readied action with its reaction"),
    "legendary": Verb(
        "NAME [WHAT ...]",
        "a legendary action at the end of another creature's turn",
        (Option("cost", "N", number=(1, 15)),),
    ),
    "lair": Verb("NAME TARGET", "NAME's lair action on initiative count 20, against TARGET"),
    "stabilize": Verb("NAME TARGET", "NAME's action: a DC 10 Medicine check to stabilize TARGET"),
    "flee": Verb("NAME", "NAME leaves the fight"),
    "finish": Verb(
        "[TEAM ...]", "the game master ends the fight (TEAM won, or nobody); `undo` takes it back"
    ),
    "add": newcomers.add_verb(
        ROSTER,
        ": each rolls initiative and takes its place in the order",
        "bestiary (SRD 5.1)",
    ),
    "remove": newcomers.REMOVE_VERB,
}
# `roll`, `cancel`, `dice` and `dice from` too: an action waits for its dice while they come
# from the board or the table (host/core/session.py, "wanted rolls").
LANGUAGE = Language(VERBS, wanted=True)
