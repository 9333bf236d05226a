"""Flare's command language: each verb's grammar (its words and options) and what it does,
the session verbs it adds, and the Language the shared command line checks lines against.
docs/rulesets/flare.md is its reference."""

from __future__ import annotations

from host.core import newcomers
from host.core.commandline import Language, Option, Verb

# How an encounter file writes a player: what `add` would read. Flare refuses it (and
# `remove`) in one line: host/rulesets/flare/ruleset.py, NO_NEWCOMERS and NO_LEAVERS.
ROSTER = newcomers.Roster("player", "team", ("name", "team"))

VERBS = {
    "place": Verb(
        "SQUARE",
        "place a common on an empty square (1 action); with no"
        " tokens left, from= names one of yours on the grid to place again",
        (Option("from", "SQUARE"),),
    ),
    "summon": Verb(
        "CARD",
        "summon a creature by its pattern,"
        " its token on the marked square AT; do= the targets of its effects in order"
        " (SQUARE, FROM-TO for movements, - to skip); from= a token on the grid when"
        " none is left; borrow= an enemy token used as yours (Battle, once per colour)"
        " (1 action)",
        (
            Option("at", "SQUARE", required=True),
            Option("do", "T,T,..."),
            Option("from", "SQUARE"),
            Option("borrow", "SQUARE"),
        ),
    ),
    "discard": Verb(
        "CARD",
        "discard a creature card, return others to the"
        " bottom of their decks, draw as many (1 action, once a turn)",
        (Option("return", "CARD,..."),),
    ),
    "flare": Verb(
        "[CARD]",
        "call your Flare before any action, no"
        " action spent; top= and bottom= the targets of each half met; vs= the opponent"
        " compared against (Battle)",
        (Option("top", "T,..."), Option("bottom", "T,..."), Option("vs", "NAME")),
    ),
    "pass": Verb(
        "CARD ...",
        "team play: hand these legendary cards to your teammate, who takes control and"
        " places commons with the actions left",
    ),
    "end": Verb(
        "",
        "end the turn (every action used): score the destroyed, claim a completed task"
        " (the advanced game; default the first completed), draw up",
        (Option("claim", "TASK"),),
    ),
    "add": newcomers.add_verb(ROSTER, ": refused in flare (a player joins a new game)"),
    "remove": newcomers.REMOVE_VERB,
}
SESSION_VERBS = {
    "show": Verb(
        "[CARD ...]", "the grid and the hands; with cards, each card's pattern and effects"
    )
}
LANGUAGE = Language(VERBS, SESSION_VERBS)
