"""Helpers for advance's tests: the bundled encounter (changed where a test needs it), a
session over it, and the dice a round's initiative needs.

In the bundled encounter (host/rulesets/advance/encounters/barrow_gate.toml), with check_base 5:
the Initiative table's face 1 is <Reflexes>: Ayla has it (difficulty 5); a check of 6+5 is
11 (a success, not a Critical), 1+2 is 3 (a failure, not a Fumble).
"""

from __future__ import annotations

from table_dice import TableSession

from host.core.journal import Journal
from host.core.session import Session
from host.rulesets.advance import encounter_schema
from host.rulesets.advance.ruleset import RULESET

EXAMPLE = encounter_schema.example_path()
PASS = "dice check 6 5"  # 11: succeeds at any difficulty up to 11, not a Critical
FAIL = "dice check 1 2"  # 3: fails, not a Fumble


def text(*changes: tuple[str, str]) -> str:
    """The bundled encounter's text with each (old, new) replaced once (old must be there)."""
    out = EXAMPLE.read_text()
    for old, new in changes:
        assert old in out, old
        out = out.replace(old, new, 1)
    return out


def session(source: str | None = None, seed: int = 1, journal: Journal | None = None) -> Session:
    enc = RULESET.parse_encounter(source or EXAMPLE.read_text(), "barrow_gate.toml")
    return TableSession(enc, seed, journal)


def play(s: Session, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += s.execute(line)
    return out


def start_round(s: Session, late: tuple[str, ...] = ()) -> list[str]:
    """Step A with entered dice: the table's <Reflexes>, every adventurer in the fight
    succeeds but those named `late`; the round is then at step B."""
    play(s, "dice d6 1")
    for f in s.game.fighters:
        if not f.enemy and f.in_combat:
            play(s, FAIL if f.name in late else PASS)
    return play(s, "next")


def to_step(s: Session, step: str) -> None:
    """`next` until the round is at `step`."""
    from host.rulesets.advance.engine import STEPS

    while STEPS[s.game.step] != step:
        play(s, "next")


def who(s: Session, name: str):
    return s.game.fighter(name)
