"""Forms: a unit who leaves the fight (`remove`) has every step still to come of it closed
(issue 37, item 10). The dice are entered (`dice FACE ...`), so every outcome is the rule's."""

from __future__ import annotations

from forms_fixtures import HIT, MISS, fight, hall, run


def test_a_unit_who_leaves_after_a_trap_springs_on_it_rolls_no_dodge_and_takes_no_damage() -> None:
    # forms-turns-rounds-encounters.txt:23 (the trap springs: combat at once, a Dodge roll,
    # the damage; the social encounter goes on): the combat is the leaver's alone.
    s = hall()
    run(s, "check Ann trap", f"dice {MISS}", "roll Ann")
    assert s.game.combined is not None
    lines = run(s, "remove Ann fled")
    assert lines[-1] == (
        "the trap's combat round closes: Ann rolls no Dodge and takes no damage;"
        " the social encounter goes on"
    )
    assert s.game.combined is None and s.game.mode == "social"
    ann = s.game.units[0]
    later = run(s, "next")
    assert not any("Vitality" in line or "damage" in line for line in later)
    assert ann.taken == 0 and later == ["social round 1 is over"]


def test_a_unit_who_leaves_in_step_5_rolls_no_dodge_for_the_attacks_on_it() -> None:
    # forms-turns-rounds-encounters.txt:58 (step 5: the targets roll their Dodge dice)
    s = hall()
    fight(s)
    run(s, "pass", "pass", "pass")  # to step 5
    run(s, f"dice {HIT}", "attack Ann Cy", "remove Cy fled")
    assert s.game.attacks == []  # the attack on Cy waits for no Dodge of Cy's
    lines = run(s, f"dice {MISS}", "attack Bo Di", f"dice {MISS}", "attack Di Bo")
    assert not any(line.startswith("Cy ") or "hits Cy" in line for line in lines)
    assert [line for line in lines if "'s attack " in line] == [
        "Bo's attack misses Di",
        "Di's attack misses Bo",
    ]
