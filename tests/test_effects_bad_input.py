"""The `effect` verb refuses bad input in one line and changes nothing (issue #29, "Bad
input"; docs/effects.md says each choice)."""

from __future__ import annotations

import pytest
from effects_fixtures import current, next_turn, out, refused, session_of
from newcomer_games import JOINING, SCENES
from newcomer_games import session as newcomer_session

from host.core.commandline import MAX_LINE


def _someone_out():
    s = session_of("stones", seed=3)
    for _ in range(60):
        if out(s):
            return s
        next_turn(s, fight=True)
    raise AssertionError("the demo game put nobody out of the fight")


def test_until_end_of_a_fighter_who_has_left_the_fight_is_refused() -> None:
    """issue #29: a duration that cannot end (`until=end` of a fighter who has left)."""
    s = _someone_out()
    gone = sorted(out(s))[0]
    line = refused(s, f'effect "{current(s)[0]}" Dodge until=end of="{gone}"')
    assert gone in line and "left the fight" in line


def test_save_end_on_a_fighter_who_has_left_the_fight_is_refused() -> None:
    """issue #29: a save asked at the end of a turn that will never come cannot end."""
    s = _someone_out()
    gone = sorted(out(s))[0]
    assert "left the fight" in refused(s, f'effect "{gone}" Hex save=end')


def test_an_effect_on_nobody_is_refused() -> None:
    """issue #29: an effect on nobody: no fighter named, or one that is not in the fight."""
    s = session_of("korxsol")
    assert "missing" in refused(s, "effect")
    line = refused(s, "effect Zorblax Bless")
    assert "Zorblax" in line and "Kaelen" in line  # the known ones are listed


def test_a_misspelt_fighter_is_suggested() -> None:
    s = session_of("korxsol")
    assert "did you mean 'Kaelen'" in refused(s, "effect Kaelan Bless")


def test_an_unknown_option_is_refused_with_the_known_ones() -> None:
    """House rule: never silently ignore an option."""
    s = session_of("korxsol")
    line = refused(s, "effect Kaelen Bless roundz=2")
    assert "roundz" in line and "rounds=" in line


def test_a_name_already_on_that_fighter_is_refused() -> None:
    """issue #29: a name that clashes (docs/effects.md: refused, whatever its case; take it
    off first)."""
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless rounds=2")
    line = refused(s, "effect Kaelen bless stacks=2")
    assert "already has Bless" in line
    s.execute("effect Vexa Bless")  # the same name on another fighter is another effect


def test_rounds_that_is_not_a_whole_number_is_refused() -> None:
    s = session_of("korxsol")
    assert "whole number" in refused(s, "effect Kaelen Bless rounds=two")
    assert "1..10000" in refused(s, "effect Kaelen Bless rounds=0")


def test_two_durations_at_once_are_refused() -> None:
    s = session_of("korxsol")
    assert "one duration" in refused(s, "effect Kaelen Bless rounds=2 until=end")
    assert "until=" in refused(s, "effect Kaelen Bless of=Vexa")
    assert "until=" in refused(s, "effect Kaelen Bless until=later")


def test_ending_or_answering_an_effect_not_on_the_fighter_is_refused() -> None:
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless rounds=2")
    assert "has no effect 'Hex'" in refused(s, "effect end Kaelen Hex")
    assert "no save" in refused(s, "effect save Kaelen Bless yes")
    s.execute("effect Kaelen Hex save=end")
    assert "not asking" in refused(s, "effect save Kaelen Hex yes")
    assert "yes or no" in refused(s, "effect save Kaelen Hex maybe")


def test_an_effect_name_with_a_control_character_or_too_long_is_refused() -> None:
    s = session_of("korxsol")
    assert "control character" in refused(s, 'effect Kaelen "Bl\x1bess"')
    assert "at most" in refused(s, f"effect Kaelen {'B' * 41}")
    assert "at most" in refused(s, f'effect Kaelen Bless note="{"n" * (MAX_LINE - 40)}"')


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_until_start_of_a_fighter_removed_from_the_fight_is_refused(ruleset_id: str) -> None:
    """issue #29, "Bad input": a duration that cannot end. A fighter who left (`remove`)
    takes no turn again, though the ruleset may keep it in the board's order: the start of
    its next turn would never come (`Ruleset.gone`, not only the projection, says so)."""
    s = newcomer_session(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    s.execute(f'remove "{leaver}"')
    other = next(n for n in s.ruleset.fighter_names(s.game) if n != leaver)
    for kind in ("start", "end"):
        line = refused(s, f'effect "{other}" Mark until={kind} of="{leaver}"')
        assert leaver in line and "left the fight" in line


@pytest.mark.parametrize("ruleset_id", JOINING)
def test_an_effect_waiting_on_a_fighter_who_then_left_ends_saying_its_turn_was_passed(
    ruleset_id: str,
) -> None:
    """docs/effects.md, `until=end` and `until=start`: a fighter who leaves after the effect
    was put on takes no more turns; the turn the order passes over ends what waits for it,
    and the log does not say that a turn nobody took started or ended."""
    s = session_of(ruleset_id)
    leaver = SCENES[ruleset_id].leaver
    other = next(n for n in s.ruleset.fighter_names(s.game) if n != leaver)
    s.execute(f'effect "{other}" Mark until=end of="{leaver}"')
    s.execute(f'remove "{leaver}"')
    said: list[str] = []
    for _ in range(12):
        said += next_turn(s)
        if any("Mark on" in line and "ends" in line for line in said):
            break
    (end,) = [line for line in said if "Mark on" in line and "ends" in line]
    assert "passed over" in end and f"{leaver}'s turn ends" not in end
