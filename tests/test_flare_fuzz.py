"""Flare against edits and nonsense, seeded so a failure replays: any encounter file either
loads and plays or is refused in one line; any command line either plays or is refused in
one line and changes nothing."""

from __future__ import annotations

import json
import random

import pytest
from flare_fixtures import duel

from host.core import encounter_files
from host.core.interface import EncounterError, IllegalAction
from host.core.session import Session
from host.lab.fuzz_host import ENCOUNTER_TOKENS, _mutate_lines, mutate
from host.rulesets.flare import encounter_schema
from shared import codec

RULES_TOKENS = (
    b'\n[[player]]\nname = "Zed"\n',
    b'\nmode = "battle"\n',
    b'\nmode = "team"\n',
    b'\nstart = ["1c . ."]\n',
    b"\nplayer = 3\n",
    b'\n[[creature]]\nid = "q"\npattern = ["*x"]\neffects = ["move:common"]\n',
    b'\n[[task]]\nid = "t"\nneed = "line"\namount = 2\n',
    b"\nadvanced = true\n",
    b"\ntop = true\n",
    b"\ncopies = 0\n",
)


def _sources() -> list[str]:
    here = encounter_schema.HERE / "encounters"
    return [(here / f"{n}.toml").read_text() for n in ("rift_duel", "rift_teams", "template")]


@pytest.mark.parametrize("block", range(4))
def test_any_flare_encounter_loads_and_plays_or_is_refused_in_one_line(block: int) -> None:
    from host.rulesets.flare.ruleset import RULESET

    sources = _sources()
    for i in range(block * 150, (block + 1) * 150):
        rng = random.Random(i)
        data = _mutate_lines(rng, rng.choice(sources)).encode()
        if rng.random() < 0.6:
            data = mutate(rng, data, ENCOUNTER_TOKENS + RULES_TOKENS, edits=3)
        try:
            enc = encounter_files.parse(data.decode(errors="replace"), "f.toml", "flare")
        except EncounterError as err:
            assert "\n" not in str(err) and str(err).startswith("f.toml:"), (i, str(err))
            continue
        game = RULESET.new_game(enc, i)
        for _ in range(2):
            for line in RULESET.plan_turn(game):
                cmd = RULESET.language.parse(line)
                assert cmd is not None
                RULESET.apply(game, cmd)
        codec.encode(RULESET.state(game))


WORDS = (
    "place",
    "summon",
    "discard",
    "flare",
    "end",
    "pass",
    "show",
    "plain",
    "wyrm",
    "flash",
    "stepper",
    "sinker",
    "a1",
    "b2",
    "e5",
    "z9",
    "at=b1",
    "at=a2",
    "do=a1",
    "do=-,-,-",
    "do=a2-b2",
    "from=a1",
    "borrow=b1",
    "vs=Bo",
    "top=-",
    "bottom=b1",
    "return=plain",
    "claim=two",
    "-",
    '"',
    "=",
    ",,",
)


def _seen(s: Session) -> tuple[str, bytes]:
    return (
        json.dumps(s.ruleset.snapshot(s.game), sort_keys=True),
        codec.encode(s.ruleset.state(s.game)),
    )


def test_any_command_line_plays_or_is_refused_in_one_line_changing_nothing() -> None:
    rng = random.Random(13)
    s = duel(("1c 2h . . .", "1c 2c . . ."))
    for _ in range(600):
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        before = _seen(s)
        try:
            s.execute(line)
        except IllegalAction as err:
            assert "\n" not in str(err), line
            assert _seen(s) == before, line
        if s.over:
            break
