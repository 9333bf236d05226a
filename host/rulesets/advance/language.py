"""Advance's command language: each verb's grammar (its words and options) and what it does,
and the Language the shared command line checks lines against (verbs.py plays them).
docs/rulesets/advance.md is its reference."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb
from host.rulesets.advance.encounter_schema import CHARACTER_KEYS

# How an encounter file writes a character: an [[adventurer]] or an [[enemy]], which `add`
# picks by its team= (host/core/newcomers.py).
ROSTER = newcomers.Roster("adventurer", "", CHARACTER_KEYS, team_tables=("adventurer", "enemy"))

VERBS: dict[str, Verb] = {
    "next": Verb(
        "", "the round's next step: A rolls initiative, then B, C, D, E, then a new round"
    ),
    "initiative": Verb("", "step A: every adventurer's Initiative check (Advance or Late), then B"),
    "attack": Verb(
        "NAME ABILITY|WEAPON TARGET",
        "a Hit check with an attack ability or an equipped weapon (the action)",
        (
            Option("with", "SUPPORT,..."),
            Option("evade", choices=("yes", "no")),
            Option("spare"),
        ),
        ("ABILITY|WEAPON",),
    ),
    "coop": Verb(
        "NAME ALLY [SUPPORT]",
        "Cooperative Attack: ALLY's next attack this round gains it",
        several=("SUPPORT",),
    ),
    "assist": Verb(
        "NAME ABILITY|ITEM|gm [TARGET]",
        "an Assist ability or item (or one the GM allows)",
        several=("ABILITY|ITEM|gm",),
    ),
    "flee": Verb("NAME", "a <Flee> check: on success NAME leaves the fight"),
    "equip": Verb("NAME WEAPON", "equip a weapon from NAME's bag", several=("WEAPON",)),
    "exchange": Verb(
        "NAME ALLY ITEM", "give ITEM to ALLY, or take it from ALLY", several=("ITEM",)
    ),
    "store": Verb("NAME ITEM", "put ITEM into the bag, or take it out", several=("ITEM",)),
    "wait": Verb("NAME", "take no action this round"),
    "evade": Verb("NAME", "the target of a hit tries to evade it (1 Willpower)"),
    "take": Verb("NAME", "the target of a hit takes it"),
    "death": Verb("NAME", "roll NAME's Death check (1D6 above the damaged parts)"),
    "break": Verb(
        "NAME WEAPON", "break an equipped weapon to cancel NAME's Death check", several=("WEAPON",)
    ),
    "spend": Verb("NAME N", "after a failed Death check, spend N Willpower to raise it"),
    "fullpower": Verb("NAME", "a Boss below half its Willpower enters Full Power (not an action)"),
    "yell": Verb("NAME", "a Helpless Boss's <Yell> check, once a round: 1 Willpower back"),
    "add": newcomers.add_verb(ROSTER, ": it acts from the next Initiative Check"),
    "remove": newcomers.REMOVE_VERB,
}
# `roll`, `cancel`, `dice` and `dice from` too: an action waits for its dice while they come
# from the board or the table (host/core/session.py, "wanted rolls"); `dice check F F`,
# `dice death F` or `dice d6 F` gives one.
LANGUAGE = Language(VERBS, wanted=True)
