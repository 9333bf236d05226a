"""d20's refusal of a spent reaction says when it comes back (issue #37 item 15,
d20-srd-combat.txt [5]: one reaction a round, back at the start of the creature's own
turn). A reaction used after the creature's turn in one round is still spent in the next
until its turn comes; the refusal said "this round", which reads false there."""

from __future__ import annotations

from d20_fixtures import ANA, BO, ORC, Table, d20


def test_a_reaction_used_last_round_is_refused_until_its_own_turn_in_rule_5_s_words() -> None:
    t = Table(ANA, ORC, BO)
    t.start(15, 5, 1)  # Ana, then the orc, then Bo
    t.play("next")
    t.play("next")  # Bo's turn, round 1: the orc's own turn is over
    assert t.turn() == ["Bo"]
    t.play("attack Orc Bo as=reaction", d20(2))  # an opportunity attack, missed
    t.play("next")  # round 2, Ana's turn: the orc's turn is still to come
    assert t.game.round == 2 and t.turn() == ["Ana"]
    refusal = t.refused("react Orc parry")
    assert refusal == "Orc has used its reaction: it comes back at the start of its own turn [5]"
    t.play("next")  # the orc's turn starts: its reaction is back [5]
    assert t.play("react Orc parry") == ["Orc uses its reaction: parry"]


def test_docs_commands_says_a_fight_holds_most_fighters_and_d20_does() -> None:
    """docs/commands.md says every game holds MOST_FIGHTERS fighters (entries); d20 takes
    that many, past the board's 8 slots, and refuses one more in one line."""
    from pathlib import Path

    from host.core import registry
    from host.core.encounter_files import read_toml
    from host.core.interface import IllegalAction
    from host.core.newcomers import MOST_FIGHTERS
    from host.core.session import Session

    ruleset = registry.get("d20")
    path = ruleset.example_path()
    session = Session(ruleset.parse_encounter(path.read_text(), str(path)), 1)
    entries = len(read_toml(session.encounter.source, "d20")["creature"])
    team = session.encounter.teams[0]
    added = 0
    while True:
        try:
            session.execute(f"add Newt{added} label=N{added} team={team} hp=5 ac=10")
        except IllegalAction as err:
            assert f"a fight holds at most {MOST_FIGHTERS} fighters" in str(err)
            break
        added += 1
    assert entries + added == MOST_FIGHTERS
    docs = Path(__file__).parents[1] / "docs" / "commands.md"
    assert f"up to {MOST_FIGHTERS} fighters in every game" in docs.read_text()
