"""What korxsol and Advance carry from one fight of a campaign to the next, as their docs say
(docs/rulesets/korxsol.md, docs/rulesets/advance.md): each fight played by the demo's AI
through a session on a journal, the next fight's party read from the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.core import registry
from host.core.campaign import Book
from host.core.encounter_files import read_toml, write_toml
from host.core.journal import Journal
from host.core.session import Session


def party_file(ruleset_id: str, tables: tuple[str, ...], team: str | None) -> str:
    """The bundled example's first team, written as a party file (with `tables`, the ones
    its fighters name)."""
    rules = registry.get(ruleset_id)
    doc = read_toml(rules.example_path().read_text(), "example")
    roster = rules.carry().roster
    fighters = doc[roster.table]
    if team is not None:
        fighters = [f for f in fighters if f.get(roster.team_key) == team]
    party: dict[str, Any] = {"ruleset": ruleset_id, roster.table: fighters}
    party.update({t: doc[t] for t in tables if t in doc})
    return write_toml(party)


def fight(book: Book, name: str, seed: int, turns: int = 400) -> Any:
    """Play the campaign's next fight (the bundled example's other side) to its end."""
    rules = registry.get(book.row(name)["ruleset"])
    _, encounter = book.start_fight(name, rules.example_path())
    with book.journal.transaction():
        session = Session(encounter, seed, book.journal)
        book.append(name, "fight", {"game": session.game_id, "encounter": "example"})
    if rules.start_command:
        session.execute(rules.start_command)
    for _ in range(turns):
        if rules.winner(session.game) is not None:
            break
        for line in rules.plan_turn(session.game):
            if rules.winner(session.game) is None:
                session.execute(line)
    assert turns == 0 or rules.winner(session.game) is not None
    return session.game


def test_korxsol_carries_nothing_each_fight_starts_at_the_stat_lines_kor(tmp_path: Path) -> None:
    """korxsol-players-guide.txt lines 41-42, 53, 301-302: a game runs from its setup to
    GAME END, each player starting it with its KOR and 3 SOL."""
    book = Book(Journal(tmp_path / "j.sqlite"))
    text = party_file("korxsol", ("move", "item", "artifact"), "Dawn")
    book.new("Ridge", "korxsol", "party.toml", text)
    rules = registry.get("korxsol")
    first = fight(book, "Ridge", 3)
    hurt = {f.name: f.health for f in rules.fighters(first) if f.team == "Dawn"}
    assert hurt["Kaelen"] < 16 or hurt["Vexa"] < 13  # the first fight left its marks
    second = fight(book, "Ridge", 4, turns=0)
    party = {f.name: f.health for f in rules.fighters(second) if f.team == "Dawn"}
    assert party == {"Kaelen": 16, "Vexa": 13}
    assert book.state("Ridge").carry.keys == ()


def test_advance_carries_stamina_willpower_and_damaged_parts(tmp_path: Path) -> None:
    """advance-late-combat-round.txt lines 70, 72-76 and 161: Stamina, Willpower and the
    damaged Body Parts outlast the fight; line 153: status ailments do not."""
    book = Book(Journal(tmp_path / "j.sqlite"))
    book.new("Barrow", "advance", "party.toml", party_file("advance", (), None))
    for seed in range(1, 40):
        first = fight(book, "Barrow", seed)
        party = {f.name: f for f in first.fighters if f.spec.side == 0}
        worn = [f for f in party.values() if f.status == "in" and f.stamina < f.spec.stamina]
        if worn:
            break
    else:
        raise AssertionError("no fight left a living adventurer short of Stamina")
    ended = {n: (f.stamina, f.willpower, list(f.damaged)) for n, f in party.items()}
    dead = {n for n, f in party.items() if f.status == "dead"}
    second = fight(book, "Barrow", 99, turns=0)
    started = {
        f.name: (f.stamina, f.willpower, list(f.damaged))
        for f in second.fighters
        if f.spec.side == 0
    }
    assert started == {n: v for n, v in ended.items() if n not in dead}


def test_each_ruleset_s_doc_says_what_it_carries_between_fights() -> None:
    """docs/rulesets/<id>.md has a "Between fights" section naming every key its Carry
    carries (a game with no campaign says so)."""
    docs = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
    for ruleset_id in sorted(registry.built_in()):
        text = (docs / f"{ruleset_id}.md").read_text(encoding="utf-8")
        section = text.split("## Between fights", 1)
        assert len(section) == 2, f"{ruleset_id}.md has no Between fights section"
        said = section[1].split("\n## ", 1)[0]
        carry = registry.get(ruleset_id).carry()
        if carry is None:
            assert "has no campaign" in said, ruleset_id
            continue
        for key in carry.keys:
            if key not in carry.apart:
                assert f"`{key}" in said, f"{ruleset_id}.md does not name {key}"
        if not carry.keys:
            assert "nothing carries" in said.lower() or "carries nothing" in said, ruleset_id


def test_a_game_with_no_campaign_says_so_in_one_line(tmp_path: Path) -> None:
    """flare, forms and stones keep the interface's default Carry, None (their docs)."""
    import subprocess
    import sys

    (tmp_path / "p.toml").write_text('ruleset = "stones"\n')
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "campaign", "new", "X", "--ruleset", "stones"]
        + ["--party", str(tmp_path / "p.toml"), "--db", str(tmp_path / "j.sqlite")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "stones has no campaign" in done.stderr and not (tmp_path / "j.sqlite").exists()
