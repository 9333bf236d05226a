"""Forms' command language: each verb's grammar (its words and options) and what it does,
the session verbs it adds, and the Language the shared command line checks lines against.
docs/rulesets/forms.md is its reference."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb
from host.rulesets.forms.encounter_schema import UNIT_KEYS
from shared.limits import MAX_DICE

# How an encounter file writes a unit: what `add` reads (host/core/newcomers.py).
ROSTER = newcomers.Roster("unit", "side", UNIT_KEYS, team_word="side")

VERBS = {
    "form": Verb(
        "UNIT FORM",
        "declare a Form: an Active Form first in a social round, else at its step",
    ),
    "check": Verb(
        "UNIT WHAT",
        "enter a social check: WHAT is an attribute or a check of the area; vs= a Challenge",
        (Option("dc", "N", number=(0, MAX_DICE)), Option("vs", "OTHER[:ATTRIBUTE]")),
    ),
    "roll": Verb(
        "[UNIT]",
        "roll the next check (social), the trap's Dodge, or Awareness (step 1); alone, while"
        " an action waits for its roll: the engine rolls that",
    ),
    "move": Verb("UNIT", "declare movement at step 2 or 8, in the movement order"),
    "attack": Verb("UNIT TARGET", "step 5: roll the attack dice against a standing foe"),
    "aim": Verb("UNIT", "step 6: roll Aim dice for the unit's hits (each success +1 damage)"),
    "block": Verb("UNIT", "step 6: roll Block dice against the hits on it (each success -1)"),
    "done": Verb("UNIT", "the unit's part of this combat step is over"),
    "next": Verb(
        "",
        "one at a time: the next check or the round's end, or `done` for the first still to act",
    ),
    "pass": Verb(
        "",
        "the board's next-turn key: the step ends (social: every check waiting, then the end)",
    ),
    "end": Verb("", "end the social round (every check rolled)"),
    "fight": Verb("", "combat begins, in a new round: the social encounter closes"),
    "area": Verb("NAME ...", "move to another area: a new social encounter"),
    "gain": Verb("UNIT FORM", "a chance to gain a Form: an encounter of its own"),
    "add": newcomers.add_verb(ROSTER, ": it takes part from the next round"),
    "remove": newcomers.REMOVE_VERB,
}
SESSION_VERBS = {"order": Verb("", "the movement order and the reason for each position")}
# `cancel`, `dice` and `dice from` too (the game's `roll` stays its own; a bare `roll` while
# an action waits is the engine rolling the wanted roll: host/core/session.py).
LANGUAGE = Language(VERBS, SESSION_VERBS, wanted=True)
