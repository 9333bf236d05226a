"""What the player whose turn it is cannot use now, and why, of the cards `summon`,
`discard` and `flare` complete (Ruleset.unusable). The rules that refuse them are
host/rulesets/flare/engine.py's (`summon`, `summon_refusal`, `discard`, `flare`,
`flare_refusal`); the reasons follow them, in a few words."""

from __future__ import annotations

from host.core.interface import IllegalAction
from host.rulesets.flare.cards import Creature, Flare
from host.rulesets.flare.engine import Game

WHAT = {"summon": "summon", "discard": "discard and draw", "flare": "call a Flare"}


def unusable(game: Game, words: list[str], names: list[str]) -> dict[str, str]:
    """{card as completed: why not now} for the card after `summon`, `discard`, `flare`."""
    verb = words[0]
    if len(words) != 2 or verb not in WHAT:
        return {}
    whole = _whole(game, verb)
    out = {}
    for name in names:
        try:
            card = game.card(name)
        except IllegalAction:
            continue
        why = whole or _card(game, verb, card)
        if why:
            out[name] = why
    return out


def _whole(game: Game, verb: str) -> str:
    if game.winner is not None:
        return "the game is over"
    if game.controller != game.current:
        return "the teammate places commons only"
    if verb == "flare":
        return "no Flare now" if game.flare_refusal() else ""
    if game.actions_left <= 0:
        return "no actions left"
    if verb == "discard" and game.discarded:
        return "discarded this turn"
    return ""


def _card(game: Game, verb: str, card: Creature | Flare) -> str:
    if verb == "summon" and isinstance(card, Creature):
        squares = [(r, c) for r in range(game.enc.rows) for c in range(game.enc.columns)]
        if all(game.summon_refusal(card, r, c) for r, c in squares):
            return "its pattern fits no square now"
    if verb == "discard" and game._deck_of(card) not in game.discardable():
        return "a legendary: not discarded here"
    if verb == "flare" and isinstance(card, Flare):
        if not any(any(game.flare_met(card, o)) for o in game.opponents()):
            return "its criteria are not met"
    return ""
