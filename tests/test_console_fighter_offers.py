"""What the web console offers on a fighter's card (issue #28 item 10, issue #29 item 6):
the verbs that name it (`effect NAME` and, where fighters may leave, `remove NAME` among
them), and for the acting fighter the moves it picks after its name, the same ones play's
terminal lists for `help VERB` (host/core/verb_choices.py): never an option or a flag the
ruleset completes there (korxsol's `fulldraw`, `reroll` after `adjust NAME`)."""

from __future__ import annotations

import json

import pytest
from effects_fixtures import session_of
from newcomer_games import JOINING

from host.core.audience import Secrets
from host.core.session import Session
from host.core.verb_choices import acting_choices
from host.web.page_data import gm_view

RULESETS = ["korxsol", "stones", "forms", "flare", "advance"]


def offers(s: Session) -> dict:
    view = gm_view(s.ruleset, s.game, (), Secrets(), [], [], [], {})
    return view["commands"]["fighters"]


def acting(s: Session) -> str:
    return next(f.name for f in s.ruleset.fighters(s.game) if f.current)


def test_the_acting_fighter_is_offered_no_option_or_flag_as_a_move() -> None:
    """korxsol's completion after `adjust NAME` is its options; none is a move."""
    s = session_of("korxsol")
    flags = set(s.ruleset.language.flags)
    assert flags  # (fulldraw, reroll: what the old offer showed under `adjust`)
    groups = offers(s)[acting(s)]["moves"]
    assert groups and "attack" in {g["verb"] for g in groups}
    for group in groups:
        assert not flags & set(group["moves"]), group
        assert not [m for m in group["moves"] if m.endswith("=")], group
    assert "adjust" not in {g["verb"] for g in groups}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_console_offers_the_moves_the_terminal_lists_for_help_verb(ruleset_id: str) -> None:
    """The two screens agree: each verb's moves on the card are `help VERB`'s."""
    s = session_of(ruleset_id)
    fighters = [f for f in s.ruleset.fighters(s.game) if f.current]
    for f in fighters:
        for group in offers(s)[f.name]["moves"]:
            choices = acting_choices(s.ruleset, s.game, group["verb"], f.name)
            assert choices is not None and group["moves"] == choices.names, group


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_fighter_card_offers_effect_and_remove_where_fighters_may_leave(
    ruleset_id: str,
) -> None:
    """issue #29 item 6: `effect` from the fighter's card in every ruleset (forms and
    flare complete no fighter's name for it themselves: the generic verb's completion
    does), `remove` where the ruleset takes newcomers and leavers."""
    s = session_of(ruleset_id)
    for name, offer in offers(s).items():
        assert "effect" in offer["verbs"] + offer["more"], (name, offer)
        if ruleset_id in JOINING:
            assert "remove" in offer["verbs"] + offer["more"], (name, offer)
        assert offer["word"]


@pytest.mark.parametrize("ruleset_id", [*RULESETS, "d20"])
def test_a_card_shows_the_games_verbs_and_keeps_the_session_s_behind_more(
    ruleset_id: str,
) -> None:
    """issue #38 item 8: a card offers the game's own verbs that name the fighter now;
    `effect`, `remove` and the like wait behind its "more"."""
    s = session_of(ruleset_id)
    game_verbs = set(s.ruleset.language.verbs) - {"add", "remove"}
    for name, offer in offers(s).items():
        assert set(offer["verbs"]) <= game_verbs, (name, offer)
        assert not set(offer["more"]) & game_verbs, (name, offer)
        assert "effect" in offer["more"], (name, offer)


def d20_session() -> Session:
    s = session_of("d20")
    if not any(f.current for f in s.ruleset.fighters(s.game)):
        s.execute("initiative")
    return s


def test_d20_recover_offers_only_the_conditions_the_creature_has() -> None:
    """issue #38 item 8: `recover` listed all 14 conditions on a creature that had none.
    Now a creature with none is offered no `recover` (its card, Tab after `recover`), and
    one that bears some is offered those alone."""
    from host.core.verb_choices import completions

    s = d20_session()
    r, game = s.ruleset, s.game
    who = next(f for f in r.fighters(game) if f.current)
    other = next(f for f in r.fighters(game) if not f.current)
    assert completions(r, game, ["recover", who.label, ""]) == []
    assert who.label not in completions(r, game, ["recover", ""])
    assert "recover" not in offers(s)[who.name]["verbs"]
    s.execute(f"condition {who.label} poisoned")
    s.execute(f"condition {other.label} prone")
    assert completions(r, game, ["recover", who.label, ""]) == ["poisoned"]
    assert set(completions(r, game, ["recover", ""])) == {who.label, other.label}
    card = offers(s)[who.name]
    assert {"verb": "recover", "moves": ["poisoned"]} in card["moves"]
    assert "recover" in offers(s)[other.name]["verbs"]
    s.execute(f"recover {who.label} poisoned")  # what it offered is what the rules take
    assert "recover" not in offers(s)[who.name]["verbs"]


def test_d20_stand_and_drop_are_offered_only_to_a_creature_they_apply_to() -> None:
    """Stand up from prone, stop concentrating: only where the creature is prone, or
    concentrating."""
    s = d20_session()
    r, game = s.ruleset, s.game
    who = next(f for f in r.fighters(game) if f.current)
    card = offers(s)[who.name]
    assert "stand" not in card["verbs"] and "drop" not in card["verbs"]
    s.execute(f"condition {who.label} prone")
    s.execute(f"concentrate {who.label} Bless")
    card = offers(s)[who.name]
    assert "stand" in card["verbs"] and "drop" in card["verbs"]


def test_a_list_the_same_for_every_fighter_is_the_verb_s_not_the_acting_fighter_s_moves() -> None:
    """issue #38 item 8: tapping the acting d20 creature showed about 60 buttons, d20's
    14 conditions under `condition` and `recover` and the 6 abilities under `save` among
    them. Those lists are every creature's alike: the verb's button starts the line and
    the completions offer them; the card holds the verbs and the creature's own moves."""
    s = d20_session()
    who = next(f for f in s.ruleset.fighters(s.game) if f.current)
    card = offers(s)[who.name]
    assert not {"condition", "save"} & {g["verb"] for g in card["moves"]}, card["moves"]
    assert {"condition", "save"} <= set(card["verbs"])
    buttons = len(card["verbs"]) + sum(len(g["moves"]) for g in card["moves"])
    assert buttons <= 20, card


def test_help_add_lists_no_template_as_the_acting_fighter_s_own() -> None:
    """`help add`, `help remove`, `help effect`, `help dice`: templates, reasons to leave,
    effects and roll purposes are nobody's moves."""
    s = session_of("korxsol")
    for verb in ("add", "remove", "effect", "dice"):
        assert acting_choices(s.ruleset, s.game, verb) is None, verb
    assert acting_choices(s.ruleset, s.game, "attack") is not None


def test_the_web_console_completes_an_effect_line_as_the_terminal_does() -> None:
    """issue #29 item 6: completion of names from the web console. `effect NAME ` offers
    the effect's options (rounds=, until=end, ...), not the ruleset's attack options."""
    from io import StringIO

    from rich.console import Console

    from host.screens.play_ui import PlayUI
    from host.web.hub import Hub
    from host.web.sources import PlayLive

    s = session_of("korxsol")
    ui = PlayUI(s, Console(file=StringIO(), width=100, height=40), "no board")
    hub = Hub(PlayLive(ui), "the-token")
    who = acting(s)
    s.execute(f"effect {who} Bless rounds=2")
    items = [
        i.strip() for i in hub.console(json.dumps({"complete": f"effect {who} Bless "}))["items"]
    ]
    assert f"effect {who} Bless rounds=" in items and f"effect {who} Bless until=end" in items
    assert not [i for i in items if i.endswith(("fulldraw", "reroll", "cornered="))], items
    items = [
        i.strip() for i in hub.console(json.dumps({"complete": f"effect end {who} "}))["items"]
    ]
    assert items == [f"effect end {who} Bless"]


@pytest.mark.parametrize("ruleset_id", ["korxsol", "stones", "forms", "advance"])
def test_dice_from_completes_every_source_the_session_takes(ruleset_id: str) -> None:
    """issue #31: `dice from smart` is a source; Tab after `dice from` offers it, and forms,
    which completed none, offers them all (host/core/session.py DICE_FROM)."""
    from host.core.session import DICE_FROM
    from host.core.verb_choices import completions

    s = session_of(ruleset_id)
    assert completions(s.ruleset, s.game, ["dice", "from", ""]) == list(DICE_FROM)
    assert "smart" in DICE_FROM
