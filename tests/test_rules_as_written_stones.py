"""Speaking Stones as its text is written (issue #26, "Rules"): what an audit of
speaking-stones-turn-order.txt found the game doing otherwise, one test per rule, each
citing the text's line; played through the generic session with the test ford of
tests/stones_fixtures.py (every card fire2: Ann holds five)."""

from __future__ import annotations

import pytest
from stones_fixtures import play, session

from host.core.interface import IllegalAction
from host.core.session import Session
from host.rulesets.stones.language import VERBS
from host.rulesets.stones.ruleset import RULESET

# Each verb that takes options, with a misspelt option of each: the rule the option is
# read for would be skipped if the misspelling were ignored.
MISSPELT = {
    # :25, the stones placed for a fuse (pay=)
    ("fuse", "pay"): 'fuse Kae "Ember Ward" pya=fire2',
    # :44, a Standard Attack within weapon range (range=)
    ("attack", "range"): "attack Kae Orr rnage=5",
    # :38, :49, an ability in range, paid with stones of its element (range=, pay=)
    ("ability", "range"): 'ability Kae "Flame Slash" Orr rnage=5',
    ("ability", "pay"): 'ability Kae "Flame Slash" Orr pya=fire2,fire2',
    # `add` (docs/commands.md, "Fighters who join and leave"): a character's keys, as the
    # encounter file writes them; a misspelt one never joins a character short of it
    ("add", "player"): "add Tam plaeyr=Ann",
    ("add", "label"): "add Tam lable=Tm",
    ("add", "class"): "add Tam calss=warrior",
    ("add", "hp"): "add Tam hpp=12",
    ("add", "atk"): "add Tam atkk=4",
    ("add", "armor"): "add Tam armr=1",
    ("add", "spirit_armor"): "add Tam spirit_armr=1",
    ("add", "crt"): "add Tam crtt=10",
    ("add", "move"): "add Tam mvoe=3",
    ("add", "range"): "add Tam rnage=2",
    ("add", "abilities"): "add Tam abilites=[]",
}


def seen(s: Session) -> tuple[str, int]:
    return repr(RULESET.snapshot(s.game)), len(s.done)


def refusal(s: Session, line: str) -> str:
    """What `line` is refused with; the game is as it was."""
    before = seen(s)
    with pytest.raises(IllegalAction) as err:
        s.execute(line)
    assert seen(s) == before and "\n" not in str(err.value)
    return str(err.value)


def test_every_verb_that_takes_options_is_tried_with_each_misspelt() -> None:
    declared = {(verb, o.key) for verb, v in VERBS.items() for o in v.options}
    assert declared == set(MISSPELT)


@pytest.mark.parametrize("verb, key", sorted(MISSPELT))
def test_an_option_misspelt_is_refused_and_never_skips_the_rule_it_is_for(
    verb: str, key: str
) -> None:
    """speaking-stones-turn-order.txt:25, :38, :44, :49 (see MISSPELT): `attack Kae Sab
    rnage=5` once skipped the range check, as if no range had been said."""
    s = session()
    typo = MISSPELT[verb, key].split()[-1].split("=")[0]
    takes = ", ".join(f"{o.key}=" for o in VERBS[verb].options)
    assert refusal(s, MISSPELT[verb, key]) == (
        f"{verb}: unknown option {typo!r} (did you mean {key}=? options: {takes})"
    )


def test_a_standard_attack_out_of_range_is_refused_once_the_range_is_spelt_right() -> None:
    """speaking-stones-turn-order.txt:44 (within weapon range, RNG)"""
    s = session()
    assert refusal(s, "attack Kae Orr range=5") == "Kaelen reaches 1 space, the target is 5 away"


def test_stones_are_named_as_names_are_whatever_their_case() -> None:
    """speaking-stones-turn-order.txt:25 (the stones placed for a fuse) and :60 (the
    stones discarded): `pay=FIRE2` names fire2, as a character or an ability is named
    whatever its case (host/core/names.py)."""
    s = session()
    assert play(s, 'fuse Kae "Ember Ward" pay=FIRE2')[-1] == (
        "Kaelen fuses Ember Ward: paid with fire2; passive while fused"
    )
    assert play(s, "discard Fire2 fIRE2")[-1] == (
        "Ann discards fire2 fire2: 3 held of a hand size of 5"
    )


def test_a_stone_named_more_often_than_it_is_held_is_refused_as_named_twice() -> None:
    """speaking-stones-turn-order.txt:25 and :60: each stone paid or discarded is one card
    of the hand. Naming one more often than it is held once answered "Ann holds no fire2
    (hand: fire2 ...)", false while she held some."""
    s = session()
    six = ",".join(["fire2"] * 6)
    assert refusal(s, f'fuse Kae "Ember Ward" pay={six}') == (
        "pay= names fire2 6 times, and Ann holds 5 (hand: fire2 fire2 fire2 fire2 fire2)"
    )
    assert refusal(s, "discard fire2 fire2 fire2 fire2 fire2 fire2") == (
        "discard names fire2 6 times, and Ann holds 5 (hand: fire2 fire2 fire2 fire2 fire2)"
    )
    assert refusal(s, "discard water2") == (
        "Ann holds no water2 (hand: fire2 fire2 fire2 fire2 fire2)"
    )
