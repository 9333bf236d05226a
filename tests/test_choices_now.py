"""What `help VERB`, Tab and the web console offer a fighter (host/core/verb_choices.py):
what the rules accept now first, then what they refuse now, each marked with why
(`Ruleset.unusable`; the first-hour issue, item 7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console
from tiny_ruleset import TINY
from tiny_units import TINY_STEPS, TINY_TEAMS

from host.core import registry
from host.core.audience import Secrets
from host.core.interface import IllegalAction, Ruleset
from host.core.session import Session
from host.core.verb_choices import Choices, Offer, acting_all, offers
from host.rulesets.korxsol import encounter_schema as korxsol_encounters
from host.screens.play_ui import CommandCompleter, PlayUI
from host.web.page_data import gm_view
from shared import cooldowns, roster

TEST_RULESETS = (TINY, TINY_TEAMS, TINY_STEPS)


@pytest.fixture(autouse=True)
def test_rulesets() -> Any:
    for ruleset in TEST_RULESETS:
        registry.register(ruleset)
    yield
    for ruleset in TEST_RULESETS:
        registry.unregister(ruleset.id)


def started(ruleset_id: str, seed: int = 5) -> Session:
    """A fresh game of the ruleset's example, started: its start command, and its next-turn
    command once more where nobody is acting yet (advance's step A)."""
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    s = Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)), seed)
    if ruleset.start_command:
        s.execute(ruleset.start_command)
    if not any(f.current for f in ruleset.fighters(s.game)) and ruleset.next_turn_commands:
        s.execute(ruleset.next_turn_commands[0])
    return s


# The words a line needs past its choice that nothing completes: flare's summon names the
# square of its mark (at=SQUARE, any square of the grid) and its effects' targets (do=, '-'
# skips one), a Flare's halves' targets, d20's save its DC.
TAILS: dict[tuple[str, str], Callable[[Any], list[str]]] = {
    ("flare", "summon"): lambda g: [
        f"at={g.name_of(r, c)}{skips}"
        for r in range(g.enc.rows)
        for c in range(g.enc.columns)
        for skips in ("", " do=-", " do=-,-")
    ],
    ("flare", "flare"): lambda g: ["top=-", "bottom=-", "top=-,- bottom=-,-", "top=- bottom=-"],
    ("d20", "save"): lambda g: ["10"],  # (save NAME ABILITY DC)
}


def accepted(ruleset: Ruleset, game: Any, choices: Choices, name: str) -> list[str]:
    """The lines with `name` in its place that the rules accept now: with nothing after
    it, or any one word the ruleset completes next; where a fighter stands before it (a
    target: d20's `attack NAME TARGET WEAPON`), with any fighter there."""
    befores = [choices.said]
    if len(choices.said) == 3:
        firsts = [o.name for o in offers(ruleset, game, [*choices.said[:2], ""])]
        befores = [[*choices.said[:2], other] for other in firsts]
    lines = []
    extra = TAILS.get((ruleset.id, choices.verb), lambda g: [])(game)
    tails: list[list[str]] = [[], *(t.split() for t in extra)]
    for before in befores:
        nexts = [o.name for o in offers(ruleset, game, [*before, name, ""])]
        nexts = [n for n in nexts if not n.endswith("=")]  # (options: never a target)
        lines += [" ".join([*before, name, *t]) for t in [*tails, *([n] for n in nexts)]]
    out = []
    for line in lines:
        try:
            cmd = ruleset.language.parse(line)
            if cmd is None:
                continue
            ruleset.check(game, cmd)
        except IllegalAction:
            continue
        out.append(line)
    return out


@pytest.mark.parametrize("turns", [0, 4])
@pytest.mark.parametrize("ruleset_id", [*registry.ids(), *(r.id for r in TEST_RULESETS)])
def test_what_help_lists_as_usable_the_rules_accept_and_what_it_marks_they_refuse(
    ruleset_id: str, turns: int
) -> None:
    """In a fresh started game, and again after the demo's first turns (cooldowns,
    tokens on the board, actions spent)."""
    s = started(ruleset_id)
    for _ in range(turns):
        for line in s.ruleset.plan_turn(s.game):
            if not s.over:
                s.execute(line)
    if s.over:
        return
    ruleset = s.ruleset
    for verb in ruleset.language.verbs:
        for choices in acting_all(ruleset, s.game, verb):
            assert choices.names[: len(choices.usable)] == choices.usable  # usable first
            for name in choices.names:
                lines = accepted(ruleset, s.game, choices, name)
                if name in choices.reasons:
                    assert choices.reasons[name].strip(), (verb, name)
                    why = choices.reasons[name]
                    assert not lines, f"marked {why!r}, yet {lines[0]!r} is accepted"
                else:
                    assert lines, f"`{verb}` lists {name} for {choices.who} as usable: refused"


def help_of(s: Session, verb: str, who: str | None = None) -> str:
    return " ".join(PlayUI(s, Console(width=200)).help_text(verb, who=who).split())


def korxsol(seed: int = 3) -> Session:
    """korxsol's example, initiative rolled: seed 3, Kaelen's turn (Flame Slash, Rally Cry,
    Heavy Charge: a charge; a Tonic; Vexa grapples with Pinning Shot)."""
    s = Session(korxsol_encounters.load(korxsol_encounters.example_path()), seed=seed)
    s.execute("initiative")
    return s


def until_turn_of(s: Session, name: str) -> None:
    """End turns (rolling the next round's initiative) until it is `name`'s turn."""
    for _ in range(12):
        try:
            s.execute("end")
        except IllegalAction:
            s.execute("initiative")
        if s.game.active is not None and s.game.active.name == name:
            return
    raise AssertionError(f"no turn of {name}")


def test_advance_help_attack_lists_assists_and_supports_as_not_attacks() -> None:
    """advance-late-combat-round.txt: an Attack uses an Attack type Ability or an equipped
    weapon; Assist type Abilities are the Assist Action's, Support ones join an attack
    (with=) or a Cooperative Attack. `help attack Cyra` listed Mend and Bless as attacks."""
    s = started("advance")  # step B: Cyra acts
    said = help_of(s, "attack", "Cyra")
    assert "attack for Cyra: Smite; not now:" in said
    assert "Mend (an assist: use `assist`)" in said
    assert "Bless (a support: with= on an attack, or `coop`)" in said
    assert "assist for Cyra: Mend; not now: Smite (an attack: use `attack`)" in help_of(
        s, "assist", "Cyra"
    )


def test_advance_help_attack_lists_first_who_may_act_in_the_step() -> None:
    """advance-late-combat-round.txt: step B is the Advance adventurers'; the enemies act in
    step C. `help attack` with no name listed nothing (several act at once)."""
    s = started("advance")
    said = help_of(s, "attack")
    assert said.index("attack for Cyra: Smite") < said.index(
        "attack for Grub: not now (not its step)"
    )


def test_advance_attack_marks_a_weapon_in_the_bag_and_an_item_that_is_no_weapon() -> None:
    """advance-late-combat-round.txt: without an Ability, a weapon the character has
    equipped: Bren's Dagger is in the bag, Ayla's Potion no weapon."""
    s = started("advance")
    assert "Dagger (in the bag: `equip` it first)" in help_of(s, "attack", "Bren")
    assert "Potion (not a weapon)" in help_of(s, "attack", "Ayla")


def test_korxsol_marks_a_move_on_cooldown_with_the_turns_left() -> None:
    """korxsol-players-guide.txt (COOLDOWN TIMER): a move used waits out its cooldown:
    `help attack` listed it unmarked."""
    s = korxsol()
    s.execute('attack Kaelen "Flame Slash" Orrin')
    until_turn_of(s, "Kaelen")
    game = s.game
    kaelen = game.active
    left = cooldowns.remaining(game.slot(kaelen), game.timer(kaelen, "move", "Flame Slash"))
    assert left > 0
    said = help_of(s, "attack")
    turns = f"{left} turn" + ("s" if left != 1 else "")
    usable = "attack for Kaelen: Rally Cry, Heavy Charge"
    assert f"{usable}; not now: Flame Slash (on cooldown {turns})" in said


def test_korxsol_marks_the_moves_a_charge_leaves_out_and_offers_the_charge() -> None:
    """korxsol-players-guide.txt (CHARGE): the charged move strikes on the next turn in
    place of its combat; the others wait."""
    s = korxsol()
    s.execute('attack Kaelen "Heavy Charge" Orrin')
    assert "not now (combat move used this turn): Flame Slash" in help_of(s, "attack")
    until_turn_of(s, "Kaelen")
    said = help_of(s, "attack")
    assert "attack for Kaelen: Heavy Charge; not now: Flame Slash (charging Heavy Charge)" in said


def test_korxsol_marks_moves_without_release_while_grappled() -> None:
    """korxsol-players-guide.txt (On Your Turn While Grappled): only a move with release
    may be used."""
    s = korxsol()
    game = s.game
    roster.set_flag(game.state, game.slot(game.active), device_flag("F_GRAPPLED"), True)
    said = help_of(s, "attack")
    assert "attack for Kaelen: not now (grappled: no release): Flame Slash" in said


def test_korxsol_marks_items_with_no_action_point_left() -> None:
    """korxsol-players-guide.txt (ACTIONS): an item costs an action point."""
    s = korxsol()
    assert "item for Kaelen: Tonic" in help_of(s, "item")
    s.game.slot(s.game.active).actions = 0
    assert "item for Kaelen: not now (no AP left): Tonic" in help_of(s, "item")


def device_flag(name: str) -> int:
    from host.rulesets.korxsol import device

    flag: int = getattr(device, name)
    return flag


def test_stones_help_ability_without_a_name_lists_each_acting_character_s() -> None:
    """speaking-stones-turn-order.txt (Activate a Character): the player's characters are
    the ones to act; `help ability` with no name listed nothing."""
    s = started("stones")  # Ann's turn: Kaelen and Mira
    said = help_of(s, "ability")
    kaelen = "ability for Kaelen: Flame Slash; not now: Ember Ward"
    assert f"{kaelen} (a [Fuse] ability: use `fuse`)" in said
    assert "ability for Mira:" in said
    assert "fuse for Kaelen: Ember Ward" in help_of(s, "fuse")


def test_flare_summon_marks_cards_whose_pattern_fits_no_square() -> None:
    """flare-summoning-turn.txt (Match pattern for summoning): a card is summoned only where
    the board's tokens match its pattern; none do on an empty board."""
    s = started("flare")
    said = help_of(s, "summon")
    assert "summon for Ann: not now (its pattern fits no square now): imp, phoenix" in said


def test_forms_marks_combat_forms_in_a_social_round() -> None:
    """forms-turns-rounds-encounters.txt: an Active Form is declared first in a social
    round; the combat Forms belong to combat steps."""
    s = started("forms")
    said = help_of(s, "form", "Ayla")
    assert "form for Ayla: Silver Tongue; not now: Slow (a combat Form (step 3))" in said


def test_forms_completes_a_form_of_two_words_in_quotes() -> None:
    """Tab gave `Silver Tongue` bare, which the command line reads as two words."""
    s = started("forms")
    assert '"Silver Tongue"' in [o.name for o in offers(s.ruleset, s.game, ["form", "Ayla", ""])]


def test_d20_condition_marks_one_already_on_the_creature() -> None:
    """d20-srd-combat.txt (conditions): a condition on a creature is ended (`recover`)
    before it is put on again."""
    s = started("d20")
    s.execute("condition EMB prone")
    said = help_of(s, "condition")
    assert "condition for Ember the Wyrmling: blinded," in said
    assert "not now: prone (on it already: `recover` first)" in said


def test_advance_coop_with_no_ally_left_in_the_fight_is_marked() -> None:
    """advance-late-combat-round.txt (Cooperative Attack): it supports another of the
    side's fighters; with none left in the fight, no Support ability can be lent."""
    s = started("advance")
    for f in s.game.fighters:
        if f.spec.side == 1 and f.name != "Mortha":
            f.status = "dead"
    assert "coop for Mortha: not now (no ally left in the fight): Rend" in help_of(
        s, "coop", "Mortha"
    )


def test_d20_attack_lists_the_weapons_after_the_target_marked_off_its_turn() -> None:
    """d20-srd-combat.txt: on another's turn a creature attacks only with its reaction (or
    a legendary action): `help attack` listed nothing (the weapon follows the target)."""
    s = started("d20")  # initiative count 20: the lair's turn
    said = help_of(s, "attack", "EMB")
    assert "not now (not its turn: as=reaction or as=legendary): Bite, Tail" in said


def test_tab_offers_the_usable_first_and_says_why_of_the_rest() -> None:
    s = started("advance")
    ui = PlayUI(s, Console(width=80))
    found = list(CommandCompleter(ui).get_completions(Document("attack Cyra "), CompleteEvent()))
    assert [c.text for c in found] == ["Smite", "Mend", "Bless"]
    assert found[0].display_meta_text == ""
    assert found[1].display_meta_text == "an assist: use `assist`"


def test_the_console_card_offers_the_usable_first_with_the_reasons_of_the_rest() -> None:
    s = korxsol()
    s.execute('attack Kaelen "Heavy Charge" Orrin')
    until_turn_of(s, "Kaelen")
    view = gm_view(s.ruleset, s.game, (), Secrets(), [], [], [], {})
    groups = view["commands"]["fighters"]["Kaelen"]["moves"]
    attack = next(g for g in groups if g["verb"] == "attack")
    assert attack["moves"] == ['"Heavy Charge"', '"Flame Slash"', '"Rally Cry"']
    assert attack["reasons"] == {
        '"Flame Slash"': "charging Heavy Charge",
        '"Rally Cry"': "charging Heavy Charge",
    }


def test_a_ruleset_that_marks_nothing_offers_everything_as_usable_in_its_order() -> None:
    """The default Ruleset.unusable: a plugin written before it keeps working."""
    s = started(TINY.id)
    assert type(s.ruleset).unusable is Ruleset.unusable
    for verb in s.ruleset.language.verbs:
        for words in ([verb, ""], [verb, "x", ""]):
            expected = [Offer(n) for n in s.ruleset.complete(s.game, words)]
            assert offers(s.ruleset, s.game, words) == expected
