"""What `help VERB`, Tab and the web console offer a fighter (host/core/verb_choices.py):
what the rules accept now first, then what they refuse now, each marked with why
(`Ruleset.unusable`; the first-hour issue, item 7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from tiny_ruleset import TINY
from tiny_units import TINY_STEPS, TINY_TEAMS

from host.core import registry
from host.core.interface import IllegalAction, Ruleset
from host.core.session import Session
from host.core.verb_choices import Choices, acting_all, offers
from host.screens.play_ui import PlayUI

TEST_RULESETS = (TINY, TINY_TEAMS, TINY_STEPS)


@pytest.fixture(autouse=True)
def test_rulesets() -> Any:
    for ruleset in TEST_RULESETS:
        registry.register(ruleset)
    yield
    for ruleset in TEST_RULESETS:
        registry.unregister(ruleset.id)


def started(ruleset_id: str, seed: int = 5) -> Session:
    """A fresh game of the ruleset's example, started: its start command, and its next-turn
    command once more where nobody is acting yet (advance's step A)."""
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    s = Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)), seed)
    if ruleset.start_command:
        s.execute(ruleset.start_command)
    if not any(f.current for f in ruleset.fighters(s.game)) and ruleset.next_turn_commands:
        s.execute(ruleset.next_turn_commands[0])
    return s


# The words a line needs past its choice that nothing completes: flare's summon names the
# square of its mark (at=SQUARE, any square of the grid), d20's save its DC.
TAILS: dict[tuple[str, str], Callable[[Any], list[str]]] = {
    ("flare", "summon"): lambda g: [
        f"at={g.name_of(r, c)}" for r in range(g.enc.rows) for c in range(g.enc.columns)
    ],
    ("d20", "save"): lambda g: ["10"],  # (save NAME ABILITY DC)
}


def accepted(ruleset: Ruleset, game: Any, choices: Choices, name: str) -> list[str]:
    """The lines with `name` in its place that the rules accept now: with nothing after
    it, or any one word the ruleset completes next; where a fighter stands before it (a
    target: d20's `attack NAME TARGET WEAPON`), with any fighter there."""
    befores = [choices.said]
    if len(choices.said) == 3:
        firsts = [o.name for o in offers(ruleset, game, [*choices.said[:2], ""])]
        befores = [[*choices.said[:2], other] for other in firsts]
    lines = []
    tails = [[]] + [[t] for t in TAILS.get((ruleset.id, choices.verb), lambda g: [])(game)]
    for before in befores:
        nexts = [o.name for o in offers(ruleset, game, [*before, name, ""])]
        nexts = [n for n in nexts if not n.endswith("=")]  # (options: never a target)
        lines += [" ".join([*before, name, *t]) for t in [*tails, *([n] for n in nexts)]]
    out = []
    for line in lines:
        try:
            cmd = ruleset.language.parse(line)
            if cmd is None:
                continue
            ruleset.check(game, cmd)
        except IllegalAction:
            continue
        out.append(line)
    return out


@pytest.mark.parametrize("ruleset_id", [*registry.ids(), *(r.id for r in TEST_RULESETS)])
def test_what_help_lists_as_usable_the_rules_accept_and_what_it_marks_they_refuse(
    ruleset_id: str,
) -> None:
    s = started(ruleset_id)
    ruleset = s.ruleset
    for verb in ruleset.language.verbs:
        for choices in acting_all(ruleset, s.game, verb):
            assert choices.names[: len(choices.usable)] == choices.usable  # usable first
            for name in choices.names:
                lines = accepted(ruleset, s.game, choices, name)
                if name in choices.reasons:
                    assert choices.reasons[name].strip(), (verb, name)
                    assert not lines, f"marked {choices.reasons[name]!r}, yet {lines[0]!r} is accepted"
                else:
                    assert lines, f"`{verb}` lists {name} for {choices.who} as usable: refused"
