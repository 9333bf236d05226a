"""Forms as its text is written (issue #26, "Rules"): what an audit of
forms-turns-rounds-encounters.txt found the game saying otherwise, one test per rule, each
citing the text's line; played through the generic session with the entered dice of
tests/forms_fixtures.py (the test hall: Ann and Bo of Red against Cy and Di of Blue)."""

from __future__ import annotations

from pathlib import Path

import pytest
from forms_fixtures import HALL, fight, hall, run, seen

from host import cli
from host.core.interface import IllegalAction

ANN_AWARE = HALL.replace('name = "Ann"\n', 'name = "Ann"\naware = true\n', 1)


def states(out: list[str]) -> dict[str, str]:
    """Each unit's state column in the live view's roster (pos, unit, side, hp, state)."""
    rows = [line.split() for line in out]
    return {cells[1]: cells[4] for cells in rows if len(cells) > 4 and cells[1] in UNITS}


UNITS = ("Ann", "Bo", "Cy", "Di")  # the test hall's


def test_a_unit_aware_from_the_start_of_combat_is_shown_aware(tmp_path: Path, capsys) -> None:
    # forms-turns-rounds-encounters.txt:49, :54 (Awareness, checked at step 1 by those
    # without it): a unit the encounter marks `aware = true` has it, and `encounter check`
    # once listed it "unaware".
    path = tmp_path / "hall.toml"
    path.write_text(ANN_AWARE)
    assert cli.main(["encounter", "check", str(path)]) == 0
    shown = states(capsys.readouterr().out.splitlines())
    assert shown == {"Ann": "aware", "Bo": "unaware", "Cy": "unaware", "Di": "unaware"}
    s = hall(text=ANN_AWARE)
    assert [u.aware for u in s.game.units] == [True, False, False, False]
    run(s, "fight")  # step 1 is the others' only: Ann has Awareness already
    assert [s.game.name(i) for i in s.game.to_act()] == ["Di", "Bo", "Cy"]


def test_a_unit_that_moved_at_step_2_is_told_why_it_has_no_part_in_step_8() -> None:
    # forms-turns-rounds-encounters.txt:61 (movement at step 8 "only if no movement at
    # Step 2"): the refusal once said only "has no part in step 8".
    s = hall()
    fight(s)
    run(s, "move Di", "pass", "pass", "pass", "pass")
    assert s.game.step == 8
    before = seen(s)
    with pytest.raises(IllegalAction) as err:
        s.execute("move Di")
    assert str(err.value) == (
        "Di has no part in step 8 (Agility and late Movement): it moved at step 2, and a"
        " unit moves at step 8 only if it did not at step 2"
    )
    assert seen(s) == before
