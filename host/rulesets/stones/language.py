"""The stones command language (docs/commands.md, "The stones ruleset"). ABILITY... is an
ability's name, which may be typed in several words without quotes where only one reading
spells a name (host/core/names.py); the words left over are then counted."""

from __future__ import annotations

from host.core.commandline import Language

VERBS = {
    "fuse": (
        "CHAR ABILITY... [pay=CARDS]",
        "fuse a [Fuse] ability to the character: passive while fused, its stones kept beside it",
    ),
    "move": ("CHAR [SPACES]", "the character's move, up to its movement (default 1); once only"),
    "attack": (
        "CHAR TARGET [range=N]",
        "a Standard Attack: the crit d100, then ATK against the target's armor",
    ),
    "ability": (
        "CHAR ABILITY... [TARGET] [pay=CARDS] [range=N]",
        "use an ability, paid with stones of its element; keywords in the order written",
    ),
    "break": (
        "CHAR ABILITY...",
        "break a fused ability: its stones are discarded (ends activations)",
    ),
    "discard": ("CARD ...", "discard stones from the hand (ends activations)"),
    "done": (
        "CHAR",
        "the character is done this turn: its activation ends, or it passes it (the last"
        " one done ends activations)",
    ),
    "end": ("", "end the turn: refused while more cards are held than the hand size"),
}
SESSION_VERBS = {
    "dice": (
        "[d100] TENS UNITS",
        "while an action waits for its crit or chance d100: the two D10 from the table"
        " (0 0 reads 100)",
    ),
}
# `roll`, `cancel` and `dice from` too: an action waits for its d100s while they come from
# the board or the table (host/core/session.py, "wanted rolls").
LANGUAGE = Language(VERBS, SESSION_VERBS, wanted=True)
# The most plain words each verb naming an ability takes, once the ability is one word.
WORDS = {"fuse": 2, "break": 2, "ability": 3}
