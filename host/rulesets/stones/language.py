"""The stones command language (docs/commands.md, "The stones ruleset"): the grammar of its
verbs. ABILITY is an ability's name, which may be typed in several words without quotes
where only one reading spells a name (host/core/names.py; host/rulesets/stones/ruleset.py
reads it); the words left over are then refused."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb
from host.rulesets.stones.encounter_schema import CHAR_KEYS

# How an encounter file writes a character: what `add` reads (host/core/newcomers.py).
ROSTER = newcomers.Roster("character", "player", tuple(CHAR_KEYS), team_word="player")

PAY = Option("pay", "CARDS")
RANGE = Option("range", "N", number=(1, 999))

VERBS: dict[str, Verb] = {
    "fuse": Verb(
        "CHAR ABILITY",
        "fuse a [Fuse] ability to the character: passive while fused, its stones kept beside it",
        (PAY,),
        ("ABILITY",),
    ),
    "move": Verb(
        "CHAR [SPACES]", "the character's move, up to its movement (default 1); once only"
    ),
    "attack": Verb(
        "CHAR TARGET",
        "a Standard Attack: the crit d100, then ATK against the target's armor",
        (RANGE,),
    ),
    "ability": Verb(
        "CHAR ABILITY [TARGET]",
        "use an ability, paid with stones of its element; keywords in the order written",
        (PAY, RANGE),
        ("ABILITY",),
    ),
    "break": Verb(
        "CHAR ABILITY",
        "break a fused ability: its stones are discarded (ends activations)",
        several=("ABILITY",),
    ),
    "discard": Verb("CARD ...", "discard stones from the hand (ends activations)"),
    "done": Verb(
        "CHAR",
        "the character is done this turn: its activation ends, or it passes it (the last"
        " one done ends activations)",
    ),
    "end": Verb("", "end the turn: refused while more cards are held than the hand size"),
    "add": newcomers.add_verb(ROSTER, ": it joins its player's characters"),
    "remove": newcomers.REMOVE_VERB,
}
# `roll`, `cancel`, `dice` and `dice from` too: an action waits for its d100s while they
# come from the board or the table (host/core/session.py, "wanted rolls"); `dice d100 TENS
# UNITS` or `dice TENS UNITS` gives one.
LANGUAGE = Language(VERBS, wanted=True)
