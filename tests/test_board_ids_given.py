"""A ruleset that declares `board_id = None` is given a free board id (host/core/registry.py;
docs/writing-a-ruleset.md, "Your board id"): the board ids 1..15 are few, turnlight's own
hold seven, so the tests' rulesets and an outside package declare none and are given one.
A registered ruleset is given one when it is registered, beside every ruleset there is; an
installed one once every installed ruleset's own is known, in the order they are found;
one that declares a taken id is refused in one line naming the free ones."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tiny_ruleset import EXAMPLE, TINY, Tiny, descriptor
from tiny_units import TINY_STEPS, TINY_TEAMS
from tug_ruleset import RULESET as TUG

from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.interface import Ruleset
from host.core.session import Session
from shared.descriptor_pack import encoded

ROOT = Path(__file__).resolve().parent.parent
# More of the tests' rulesets than any test registers at once (the cards example is
# installed: found), leaving room for one outside package installed beside it. All of them
# at once would need more than the 8 ids turnlight's own leave free.
TESTS_OWN = (TINY, TINY_TEAMS, TINY_STEPS, TUG)


class Outsider(Tiny):
    """An outside package's game, as its writer would declare it: no board id of its own."""

    id = "outsider"
    description = "a game from outside the project"
    board_id = None


class Other(Ruleset):
    description = "a test's ruleset that never plays"

    def __init__(self, ruleset_id: str, board_id: int | None) -> None:
        self.id = ruleset_id
        self.board_id = board_id


@pytest.fixture
def tests_own() -> Iterator[None]:
    for ruleset in TESTS_OWN:
        registry.register(ruleset)
    try:
        yield
    finally:
        for ruleset in TESTS_OWN:
            registry.unregister(ruleset.id)


def held() -> dict[int, str]:
    return {registry.get(i).board_id or 0: i for i, _ in registry.described()}


def test_an_outside_ruleset_beside_every_test_ruleset_is_given_a_free_id_and_plays_on_the_board(
    tests_own: None,
) -> None:
    before = held()
    assert len(before) == len(registry.described())  # none shares one
    outsider = Outsider()
    registry.register(outsider)
    try:
        assert outsider.board_id in range(1, 16) and outsider.board_id not in before
        text = EXAMPLE.read_text(encoding="utf-8").replace(
            'ruleset = "tiny"', 'ruleset = "outsider"'
        )
        session = Session(outsider.parse_encounter(text, "outsider.toml"), 1, None)
        with TetheredSim(session) as table:
            table.settle()
            board = table.sim.app.state
            assert board.ruleset == outsider.board_id
            assert encoded(board.rules) == descriptor(outsider.board_id)
            table.execute("dice coin 1")
            table.execute("hit Bo")
            table.settle()
            assert board.slots[1].counters[0] == 1  # the board took its snapshot
            assert any("Red ends its turn" in line for line in table.press("next_turn"))
    finally:
        registry.unregister(outsider.id)
    assert outsider.board_id is None  # given, not declared: freed for the next


def test_unregister_frees_a_given_id_for_the_next_registered() -> None:
    first = Other("first_given", None)
    registry.register(first)
    given = first.board_id
    registry.unregister(first.id)
    second = Other("second_given", None)
    registry.register(second)
    try:
        assert given is not None and second.board_id == given and first.board_id is None
    finally:
        registry.unregister(second.id)


def test_with_no_id_free_one_asking_is_refused_in_one_line_naming_who_holds_them() -> None:
    taking = [Other(f"taker{n}", None) for n in range(15 - len(held()))]
    try:
        for ruleset in taking:
            registry.register(ruleset)
        with pytest.raises(ValueError) as err:
            registry.register(Other("late", None))
        said = str(err.value)
        assert said.startswith("ruleset 'late' asks for a board id and none is free (1 korxsol, ")
        assert said.endswith("): unregister one") and "\n" not in said
        assert "late" not in registry.ids()
    finally:
        for ruleset in taking:
            registry.unregister(ruleset.id)


# ------------------------------------------------ an installed package that declares none
GIVEN = """from tiny_ruleset import Tiny


class Given(Tiny):
    description = "an installed game that declares no board id"
    board_id = None

    def __init__(self, ruleset_id):
        self.id = ruleset_id


ALPHA = Given("alpha")
BETA = Given("beta")
"""


@pytest.fixture
def given_installed(tmp_path: Path) -> dict[str, str]:
    """An environment with one more distribution, turnlight-given, whose two rulesets
    declare no board id."""
    site = tmp_path / "site"
    info = site / "turnlight_given-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: turnlight-given\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[turnlight.rulesets]\nbeta = given_rules:BETA\nalpha = given_rules:ALPHA\n"
    )
    (site / "given_rules.py").write_text(GIVEN)
    path = os.pathsep.join([str(site), str(ROOT / "tests")])
    return {**os.environ, "PYTHONPATH": path}


def listed_ids(env: dict[str, str]) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "rulesets"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    return {words[0]: int(words[3]) for words in rows if words[2:3] == ["board"]}


def test_installed_rulesets_that_declare_none_are_given_free_ids_the_same_each_time(
    given_installed: dict[str, str],
) -> None:
    ids = listed_ids(given_installed)
    assert {"alpha", "beta"} <= set(ids)
    assert len(set(ids.values())) == len(ids) and all(1 <= n <= 15 for n in ids.values())
    assert ids["alpha"] < ids["beta"]  # given in the order found: by distribution, then id
    assert listed_ids(given_installed) == ids  # the same installed packages, the same ids
