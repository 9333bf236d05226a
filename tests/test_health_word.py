"""`health word` (issue #38, item 3): the players' log masks only the numbers that tell the
exact health of a fighter whose health they see as a word, a bar or nothing (its health
phrases, by its ruleset's `health_words`), never the digit of a name nor a roll. The leak
check that proves no health number gets through: tests/test_leak_check.py."""

from __future__ import annotations

import pytest

from host.core import registry
from host.core.audience import Line, Secrets, cast_of, for_players, tell

HEROES, FOES = "Heroes", "Foes"
CAST = [
    ("Ilse", "IL", HEROES),
    ("Goblin 1", "GB1", FOES),
    ("Goblin 2", "GB2", FOES),
    ("Ember the Wyrmling", "EMB", FOES),
]


def players(ruleset: str, *lines: str, cast: list | None = None) -> list[str]:
    """`lines` told as the ruleset's session tells them, then as the players read them with
    the Foes' health shown as a word."""
    words = registry.get(ruleset).health_words
    told = tell(lines, cast or CAST, "all", words)
    return for_players(told, cast or CAST, Secrets(set(), "word", HEROES), [HEROES, FOES])


def test_a_fighter_dying_keeps_its_name_and_its_0_hp() -> None:
    line = "Goblin 1 dies (a monster at 0 HP)"
    assert players("d20", line) == [line]


def test_a_roll_against_a_masked_fighter_keeps_every_number() -> None:
    line = "Ilse attacks Goblin 1 with Fire Bolt: d20 15 +5 = 20 vs AC 13: hit"
    assert players("d20", line) == [line]


def test_a_board_label_with_a_digit_is_a_name() -> None:
    assert players("d20", "GB2 takes 4 damage: HP 7 -> 3") == ["GB2 takes 4 damage: HP … -> …"]


@pytest.mark.parametrize(
    ("ruleset", "line", "shown"),
    [
        ("d20", "Goblin 1 takes 7 damage: HP 15 -> 8", "Goblin 1 takes 7 damage: HP … -> …"),
        ("d20", "Goblin 2 regains 3 HP: 5 -> 8", "Goblin 2 regains 3 HP: … -> …"),
        ("korxsol", "Goblin 1 heals 4 KOR (7/16)", "Goblin 1 heals 4 KOR (…/…)"),
        (
            "advance",
            "Goblin 1 takes 4 damage: Stamina 7 -> 3",
            "Goblin 1 takes 4 damage: Stamina … -> …",
        ),
        ("advance", "Goblin 2's Stamina 5 -> 3", "Goblin 2's Stamina … -> …"),
        ("stones", "Goblin 1: 15/24 HP", "Goblin 1: …/… HP"),
        ("stones", "Goblin 2 heals 3 (22/22 HP)", "Goblin 2 heals 3 (…/… HP)"),
        (
            "forms",
            "step 7 (Damage): Goblin 1 takes 3 (5 left); Goblin 2 takes 4 (2 left)",
            "step 7 (Damage): Goblin 1 takes 3 (… left); Goblin 2 takes 4 (… left)",
        ),
    ],
)
def test_each_rulesets_health_phrase_is_masked_and_its_names_and_amounts_are_not(
    ruleset: str, line: str, shown: str
) -> None:
    assert players(ruleset, line) == [shown]


@pytest.mark.parametrize(
    ("ruleset", "line"),
    [
        ("korxsol", "Goblin 2 collapses (KOR 0)"),
        ("korxsol", "Goblin 1 costs Ilse 3 KOR"),
        ("advance", "hit fumble: wrenched: 2 Stamina lost"),
        ("stones", "Goblin 1 is incapacitated (HP 0)"),
        ("forms", "Goblin 1 rolls Agility [1 5 6]: 2 successes to attack Ilse"),
        ("flare", "Goblin 2 places a common on a2"),
    ],
)
def test_a_line_without_exact_health_reads_as_written(ruleset: str, line: str) -> None:
    assert players(ruleset, line) == [line]


def test_the_players_own_team_keeps_its_health_numbers() -> None:
    line = "Ilse takes 5 damage: HP 20 -> 15"
    assert players("d20", line) == [line]


def test_a_line_told_without_its_ruleset_masks_every_number_but_the_names() -> None:
    """The web page's own texts (statuses, the title) come with no ruleset: every number
    of a line naming a masked fighter is masked, as before, but a name stays a name."""
    shown = for_players(["Goblin 1: burn 2"], CAST, Secrets(set(), "word", HEROES), [HEROES, FOES])
    assert shown == ["Goblin 1: burn …"]


def test_d20s_damage_past_0_is_masked_with_the_damage_it_would_subtract_from() -> None:
    from d20_fixtures import ANA, WOLVES, Table

    from host.rulesets.d20 import harm

    t = Table(ANA, WOLVES)
    wolf = t.who("Wolf 1")
    lines = harm.damage(t.game, wolf, 30, "", None)  # 11 HP: 19 past 0, its maximum or more
    cast = [(name, "", FOES) for name in registry.get("d20").fighter_names(t.game)]
    shown = players("d20", *lines, cast=cast)
    assert shown == [
        "Wolf 1 takes 30 damage: HP … -> …",
        "Wolf 1 dies (… damage past 0, its maximum or more)",
    ]


def test_forms_healing_shows_the_amount_and_masks_the_health() -> None:
    from forms_fixtures import fight, hall, run

    s = hall()
    fight(s)
    s.game.units[0].health = 2
    run(s, "pass", "form Ann Mend", "pass", "pass", "pass", "done Di", "done Cy", "done Bo")
    lines = run(s, "done Ann")
    cast = [(name, label, FOES) for name, label, _ in cast_of(s.ruleset, s.game)]
    shown = for_players(lines, cast, Secrets(set(), "word", HEROES), [HEROES, FOES])
    assert "Ann heals 2 (Mend): 4" in lines and "Ann heals 2 (Mend): …" in shown


def test_a_ruleset_line_with_spans_of_its_own_keeps_them() -> None:
    line = Line("Goblin 1 feels 12 of its 16", {"Goblin 1"}, [(15, 17)])
    assert players("d20", line) == ["Goblin 1 feels … of its 16"]
