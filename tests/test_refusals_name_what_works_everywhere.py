"""The first-hour issue, item 6, as a contract over every ruleset: a refusal names what
would work, as "unknown X names the known ones" does. In a started game of each
registered ruleset's example encounter, every verb is typed bare, with a word no game
knows, with each of two fighters, and with a fighter and such a word; every refusal must
name a way on: a command to type (in backticks), the names or values that would do (a
list in brackets, "known", "did you mean", the usage), whose turn it is, or what to do
after a colon."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from host.core import registry
from host.core.interface import IllegalAction
from host.core.session import Session

WAY_ON = re.compile(
    r"`[^`]+`"  # a command to type
    r"|\([^)]*[:,][^)]*\)|\([^)]*\.\.[^)]*\)"  # a list of names or a range, in brackets
    r"|\bknown\b|did you mean|usage:"
    r"|it is .+'s turn"  # whose turn it is
    r"|: (?:start|end|pass|use|type|write|roll|say|choose)\b"  # what to do instead
    r"|must be (?:a|an|one)\b|takes (?:a|an)\b|needs? \d+ more|only (?:a|an|in)\b"  # what does
)
BOGUS = "zzz"


def _refusals(ruleset_id: str) -> dict[str, str]:
    r = registry.get(ruleset_id)
    session = Session(r.parse_encounter(r.example_path().read_text(), "example.toml"), 3)
    if r.start_command:
        session.execute(r.start_command)
    names = r.fighter_names(session.game)[:2]
    said: dict[str, str] = {}
    for verb in r.language.verbs:
        lines = [verb, f"{verb} {BOGUS}"]
        for name in names:
            lines += [f"{verb} {name}", f"{verb} {name} {BOGUS}"]
        for line in lines:
            try:
                session.execute(line)
            except IllegalAction as refused:
                said.setdefault(str(refused), line)
            else:
                session.undo()
    return said


@pytest.mark.parametrize("ruleset_id", sorted(registry.ids()))
def test_every_refusal_names_what_would_work(ruleset_id: str) -> None:
    said = _refusals(ruleset_id)
    assert said, "no refusal was tried"
    bare = {text: line for text, line in said.items() if not WAY_ON.search(text)}
    assert bare == {}, f"{ruleset_id}: refusals that name no way on (refusal: line typed)"


def test_the_contract_sees_a_refusal_that_names_no_way_on() -> None:
    assert not WAY_ON.search("Kaelen is not grappled")
    assert WAY_ON.search("Kaelen is not grappled (grappled: nobody)")


def test_the_writing_a_ruleset_doc_lists_the_forms_a_way_on_takes() -> None:
    """docs/writing-a-ruleset.md tells an author what counts as naming a way on: each of its
    examples is one the contract accepts, and its bare refusal one it does not."""
    doc = (Path(__file__).parent.parent / "docs" / "writing-a-ruleset.md").read_text("utf-8")
    part = doc.split("**What counts as naming a way on.**")[1].split("alone names none")[0]
    examples = re.findall(r'"([^"]+)"', part)
    bare = examples.pop()
    assert len(examples) >= 6
    assert [e for e in examples if not WAY_ON.search(e)] == []
    assert not WAY_ON.search(bare)
