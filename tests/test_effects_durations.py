"""Each duration of the generic `effect` verb, for each turn unit the descriptor knows: one
slot (korxsol), a player's characters together (stones), steps, where every fighter's turn
is the round (forms). The rules are issue #29's (item 3), written down in docs/effects.md;
no rules text of the five games says them."""

from __future__ import annotations

import pytest
from effects_fixtures import (
    BY_UNIT,
    UNITS,
    current,
    effect_names,
    next_turn,
    not_in_turn,
    out,
    point,
    position_of,
    refused,
    session_of,
    shown_on,
    units,
)


@pytest.fixture(autouse=True)
def team_turns():
    with units():
        yield


def _ending_lines(said: list[str], name: str) -> list[str]:
    return [line for line in said if line.startswith(f"{name} on ") and " ends: " in line]


@pytest.mark.parametrize("unit", UNITS)
def test_rounds_n_ends_at_the_same_point_in_the_order_n_rounds_later(unit: str) -> None:
    """issue #29: `rounds=N` ends at the same point in the order N rounds later."""
    s = session_of(BY_UNIT[unit])
    next_turn(s)
    start = point(s)
    target = current(s)[0]
    s.execute(f'effect "{target}" Bless rounds=2')
    while True:
        said = next_turn(s)
        if point(s) >= (start[0] + 2, start[1]):
            break
        assert "Bless" in effect_names(s, target), f"ended early, at {point(s)}"
        assert not _ending_lines(said, "Bless")
    assert "Bless" not in effect_names(s, target)
    assert len(_ending_lines(said, "Bless")) == 1


@pytest.mark.parametrize("unit", ["slot", "group", "team"])  # (in steps every turn is the round)
def test_until_end_of_the_targets_next_turn_ends_as_that_turn_ends(unit: str) -> None:
    """issue #29: `until=end` of a fighter not in its turn ends as its next turn ends."""
    s = session_of(BY_UNIT[unit])
    target = not_in_turn(s)
    s.execute(f'effect "{target}" Dodge until=end')
    while target not in current(s):
        next_turn(s)
        assert "Dodge" in effect_names(s, target)
    said = next_turn(s)
    assert "Dodge" not in effect_names(s, target)
    assert len(_ending_lines(said, "Dodge")) == 1


@pytest.mark.parametrize("unit", UNITS)
def test_until_end_begun_during_its_own_turn_lasts_through_its_following_turn(unit: str) -> None:
    """issue #29: "the end of its next turn" said during that fighter's own turn is the end
    of the turn after it, not of the one running (a tracker commonly ends it a turn early)."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    s.execute(f'effect "{target}" Dodge until=end')
    said = next_turn(s)  # its own turn ends
    assert "Dodge" in effect_names(s, target) and not _ending_lines(said, "Dodge")
    while target not in current(s):
        next_turn(s)
        assert "Dodge" in effect_names(s, target)
    said = next_turn(s)  # its following turn ends
    assert "Dodge" not in effect_names(s, target)
    assert len(_ending_lines(said, "Dodge")) == 1


@pytest.mark.parametrize("unit", UNITS)
def test_until_start_of_the_sources_next_turn_ends_as_that_turn_starts(unit: str) -> None:
    """issue #29: `until=start of=SOURCE` ends as the source's next turn begins."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    source = not_in_turn(s) if unit != "steps" else current(s)[-1]
    s.execute(f'effect "{target}" Marked until=start of="{source}"')
    while True:
        said = next_turn(s)
        if source in current(s):
            break
        assert "Marked" in effect_names(s, target)
    assert "Marked" not in effect_names(s, target)
    assert len(_ending_lines(said, "Marked")) == 1


# (tiny_teams' demo player only ends turns: nobody leaves its fight)
@pytest.mark.parametrize("unit", ["slot", "group", "steps"])
def test_until_start_of_a_source_out_of_the_fight_ends_when_its_turn_would_have_come(
    unit: str,
) -> None:
    """issue #29: "the start of the source's next turn" ends when that turn would have come,
    even if the source is out of the fight: as the order passes its place (in steps, as the
    next round begins)."""
    s = session_of(BY_UNIT[unit], seed=3)
    for _ in range(60):
        if out(s) or s.over:
            break
        next_turn(s, fight=True)
    assert out(s) and not s.over, "the demo game put nobody out of the fight"
    rnd = point(s)[0]
    while point(s)[0] == rnd:  # to a round's first turn: the source's last one is past
        next_turn(s)
    source = sorted(out(s))[0]
    target = next(n for n in current(s) if n != source)
    s.execute(f'effect "{target}" Marked until=start of="{source}"')
    rnd, turn = point(s)
    place = position_of(s, source)
    # The first point at which the order has passed the source's place.
    due = (rnd, place) if place > turn and unit != "steps" else (rnd + 1, place)
    while True:
        said = next_turn(s)
        passed = point(s)[0] > due[0] or (point(s)[0] == due[0] and point(s)[1] > due[1])
        if unit == "steps":
            passed = point(s)[0] >= due[0]
        if passed:
            break
        assert "Marked" in effect_names(s, target), f"ended early, at {point(s)}"
    assert "Marked" not in effect_names(s, target)
    assert len(_ending_lines(said, "Marked")) == 1


@pytest.mark.parametrize("unit", UNITS)
def test_save_end_asks_at_the_end_of_each_of_the_targets_turns_until_answered(unit: str) -> None:
    """issue #29: `save=end` asks the game master at the end of each of the target's turns;
    the game goes on while it asks (the effect stays, marked as asking), `no` keeps it and
    `yes` ends it."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    s.execute(f'effect "{target}" Hex save=end')
    assert shown_on(s, target) == ["Hex (save)"]
    said = next_turn(s)
    assert any("Hex on" in line and "does it end?" in line for line in said)
    assert shown_on(s, target) == ["Hex (save: asking)"]
    next_turn(s)  # not answered: the game goes on, and it still asks
    assert shown_on(s, target) == ["Hex (save: asking)"]
    s.execute(f'effect save "{target}" Hex no')
    assert shown_on(s, target) == ["Hex (save)"]
    while target not in current(s):
        next_turn(s)
    said = next_turn(s)
    assert shown_on(s, target) == ["Hex (save: asking)"]
    said = s.execute(f'effect save "{target}" Hex yes')
    assert shown_on(s, target) == []
    assert len(_ending_lines(said, "Hex")) == 1


@pytest.mark.parametrize("unit", UNITS)
def test_an_effect_with_no_duration_lasts_until_taken_off(unit: str) -> None:
    """issue #29: with no duration an effect lasts until `effect end` takes it off."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    s.execute(f'effect "{target}" Rage stacks=2 note="from the totem"')
    for _ in range(6):
        next_turn(s)
        assert shown_on(s, target) == ["Rage x2"]
    said = s.execute(f'effect end "{target}" Rage')
    assert shown_on(s, target) == []
    assert len(_ending_lines(said, "Rage")) == 1


def test_until_start_of_a_source_that_left_after_its_turn_this_round_waits_for_the_next() -> None:
    """issue #29: a source that left the fight after its turn of this round has its next
    turn in the next round, though the order, sorted again, now places it later in this
    one (stones puts the fallen last: a player's characters, UNIT_KEY)."""
    s = session_of(BY_UNIT["group"], seed=3)
    had_turn: set[str] = set()
    rnd = point(s)[0]
    for _ in range(60):
        if out(s) or s.over:
            break
        if point(s)[0] != rnd:
            rnd, had_turn = point(s)[0], set()
        had_turn |= set(current(s))
        next_turn(s, fight=True)
    fallen = sorted(out(s) & had_turn)
    assert fallen and point(s)[0] == rnd, "nobody left the fight after a turn this round"
    source = fallen[0]
    assert position_of(s, source) > point(s)[1]  # placed later in this round
    target = next(n for n in current(s) if n != source)
    s.execute(f'effect "{target}" Marked until=start of="{source}"')
    while point(s)[0] == rnd:
        next_turn(s)
        assert "Marked" in effect_names(s, target), "its turn of this round came twice"
    place = position_of(s, source)
    while point(s)[1] < place and point(s)[0] == rnd + 1:
        assert "Marked" in effect_names(s, target)
        next_turn(s)
    assert "Marked" not in effect_names(s, target)


@pytest.mark.parametrize("unit", ["slot", "group", "steps"])
def test_until_start_of_a_source_removed_from_the_fight_ends_when_its_turn_would_have_come(
    unit: str,
) -> None:
    """issue #29: "the start of the source's next turn" ends when that turn would have come,
    the source having left (`remove`, docs/commands.md)."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    source = not_in_turn(s) if unit != "steps" else current(s)[-1]
    s.execute(f'effect "{target}" Marked until=start of="{source}"')
    s.execute(f'remove "{source}" fled')
    rnd, turn = point(s)
    place = position_of(s, source)
    due = (rnd, place) if place > turn and unit != "steps" else (rnd + 1, place)
    while True:
        next_turn(s)
        at = point(s)
        if at[0] > due[0] or (at[0] == due[0] and at[1] > due[1]) or (unit == "steps"):
            break
        assert "Marked" in effect_names(s, target), f"ended early, at {at}"
    assert "Marked" not in effect_names(s, target)


@pytest.mark.parametrize("unit", ["slot", "group", "steps"])
def test_an_effect_on_a_fighter_who_joined_mid_fight_counts_its_own_turns(unit: str) -> None:
    """issue #29: fighters join mid-fight (`add`); effects name them by name, whatever slot
    or place in the order they are given."""
    s = session_of(BY_UNIT[unit])
    template = s.ruleset.complete(s.game, ["add", ""])[0].strip('"')
    s.execute(f'add "{template}" as Newcomer')
    s.execute("effect Newcomer Dodge until=end")
    while "Newcomer" not in current(s):
        next_turn(s)
        assert "Dodge" in effect_names(s, "Newcomer")
    next_turn(s)
    assert "Dodge" not in effect_names(s, "Newcomer")


@pytest.mark.parametrize("unit", UNITS)
def test_rounds_n_of_a_maker_ends_as_the_makers_nth_next_turn_starts(unit: str) -> None:
    """pf2-combat.txt [23] (docs/effects.md): `rounds=N of=MAKER` counts one down as each
    turn of MAKER starts and ends as the Nth after it was put on starts, though it was put
    on during another fighter's turn (a reaction's); MAKER's own running turn is none."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    maker = not_in_turn(s) if unit != "steps" else current(s)[-1]
    s.execute(f'effect "{target}" Ward rounds=2 of="{maker}"')
    assert shown_on(s, target) == [f"Ward 2 rounds ({maker}'s turns)"]
    starts = 0
    while True:
        said = next_turn(s)
        if maker in current(s):
            starts += 1
            if starts == 2:
                break
            assert shown_on(s, target) == [f"Ward 1 round ({maker}'s turns)"]
        assert "Ward" in effect_names(s, target), f"ended early, at {point(s)}"
    assert "Ward" not in effect_names(s, target)
    assert len(_ending_lines(said, "Ward")) == 1
    # Put on in the maker's own turn: its next turn's start is the first counted.
    s.execute(f'effect "{target}" Aid rounds=1 of="{maker}"')
    while True:
        said = next_turn(s)
        if maker in current(s):
            break
        assert "Aid" in effect_names(s, target), f"ended early, at {point(s)}"
    assert "Aid" not in effect_names(s, target)
    assert len(_ending_lines(said, "Aid")) == 1


@pytest.mark.parametrize("unit", ["slot", "group", "steps"])
def test_rounds_n_of_a_maker_who_left_ends_when_its_turn_would_have_come(unit: str) -> None:
    """pf2-combat.txt [23]: "an effect whose maker has left the fight still ends at the
    point its maker's turn would have come" (`remove`, docs/commands.md)."""
    s = session_of(BY_UNIT[unit])
    target = current(s)[0]
    maker = not_in_turn(s) if unit != "steps" else current(s)[-1]
    s.execute(f'effect "{target}" Ward rounds=1 of="{maker}"')
    s.execute(f'remove "{maker}" fled')
    rnd, turn = point(s)
    place = position_of(s, maker)
    due = (rnd, place) if place > turn and unit != "steps" else (rnd + 1, place)
    while True:
        next_turn(s)
        at = point(s)
        if at[0] > due[0] or (at[0] == due[0] and at[1] > due[1]) or (unit == "steps"):
            break
        assert "Ward" in effect_names(s, target), f"ended early, at {at}"
    assert "Ward" not in effect_names(s, target)


def test_rounds_without_of_still_count_from_the_turn_it_is_put_on() -> None:
    """docs/effects.md: `of=` changes nothing of `rounds=N` given alone (issue #29), and
    `of=` with no `until=` or `rounds=` is refused naming both."""
    s = session_of(BY_UNIT["slot"])
    target = current(s)[0]
    s.execute(f'effect "{target}" Bless rounds=1')
    assert shown_on(s, target) == ["Bless 1 round"]
    maker = not_in_turn(s)
    line = refused(s, f'effect "{target}" Mark of="{maker}"')
    assert "rounds=N" in line and "until=" in line, line
