"""Rulesets are found, not listed (issue #25, "The house", item 4; host/core/registry.py):
turnlight's own and any installed package's declare themselves as entry points of the group
`turnlight.rulesets`; they are imported only when asked for or listed; each declares its
board id, and a second with the same is refused in one line naming both; one that cannot
be imported or clashes is one line in `turnlight rulesets`, a one-line error when asked for
by id, and the others play on."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from tiny_ruleset import TINY

from host.core import registry
from host.core.encounter_files import tomllib
from host.core.interface import Ruleset

ROOT = Path(__file__).resolve().parent.parent


def turnlight(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=ROOT,
    )


def python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.strip()


def test_the_built_in_rulesets_are_the_entry_points_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    own = declared[registry.GROUP]
    assert sorted(registry.built_in()) == sorted(own)
    assert registry.built_in()[0] == registry.DEFAULT == "korxsol"  # the default leads
    installed = {
        ep.name: ep.value
        for ep in entry_points(group=registry.GROUP)
        if ep.dist.name == "turnlight"
    }
    assert installed == own, "the venv's install is older than pyproject.toml: make reinstalls"
    for ruleset_id, target in own.items():
        module, _, name = target.partition(":")
        assert registry.get(ruleset_id) is getattr(importlib.import_module(module), name)


def test_listing_the_ids_and_building_the_command_line_import_no_ruleset() -> None:
    # Only the subcommand modules a package adds (group turnlight.commands: korxsol's odds)
    # are imported to build the parser, and they load none of their ruleset's rules.
    loaded = python(
        "import sys; from host import cli; from host.core import registry; cli.build_parser();"
        " assert 'korxsol' in registry.ids();"
        " added = set(cli.added_commands());"
        " print(sorted(m for m in sys.modules if m.startswith(('host.rulesets.', 'turnlight_'))"
        " and m not in added and not any(a.startswith(m + '.') for a in added)))"
    )
    assert loaded == "[]"


def test_a_ruleset_asked_for_is_imported_with_only_those_found_before_it() -> None:
    loaded = python(
        "import sys; from host.core import registry; registry.get('korxsol');"
        " print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('host.rulesets.')}),"
        " 'turnlight_cards' in sys.modules)"
    )
    assert loaded == "['korxsol'] False"


class Other(Ruleset):
    description = "a test's ruleset that never plays"

    def __init__(self, ruleset_id: str, board_id: int) -> None:
        self.id = ruleset_id
        self.board_id = board_id


@pytest.fixture
def tiny() -> Iterator[None]:
    registry.register(TINY)
    yield
    registry.unregister(TINY.id)


def test_register_refuses_a_board_id_another_ruleset_has_in_one_line_naming_both(tiny) -> None:
    """docs/writing-a-ruleset.md, "Your board id": a clash names both rulesets and what
    would work (the free ids, or None to be given one)."""
    before = registry.ids()
    held = {registry.get(i).board_id for i, _ in registry.described()}
    free = ", ".join(str(n) for n in range(1, 16) if n not in held) or "none"
    would_work = f"(free: {free}; or declare board_id = None to be given one)"
    forms = registry.get("forms").board_id
    with pytest.raises(ValueError) as err:
        registry.register(Other("clash", forms))
    said = str(err.value)
    assert said == f"ruleset 'clash' declares board id {forms}, which 'forms' already has" + (
        f" {would_work}"
    )
    with pytest.raises(ValueError) as err:
        registry.register(Other("twin", TINY.board_id))  # one registered before it
    twin = f"ruleset 'twin' declares board id {TINY.board_id}, which 'tiny' already has"
    assert str(err.value) == f"{twin} {would_work}"
    assert "\n" not in said and registry.ids() == before


def test_register_refuses_a_board_id_the_state_cannot_carry() -> None:
    with pytest.raises(ValueError) as err:
        registry.register(Other("wide", 16))
    assert str(err.value) == "ruleset 'wide' declares board id 16, not one of 0..15"
    assert "wide" not in registry.ids()


def test_unregister_refuses_an_installed_ruleset_in_one_line() -> None:
    with pytest.raises(ValueError) as err:
        registry.unregister("korxsol")
    assert str(err.value) == "ruleset 'korxsol' is built in, not registered"


# ------------------------------------------------ an installed package whose rulesets fail
EXTRA = """from host.core.interface import Ruleset


class Clashing(Ruleset):
    id = "clashing"
    description = "declares forms' board id"
    board_id = 3


CLASHING = Clashing()
"""


@pytest.fixture
def extra_installed(tmp_path: Path) -> dict[str, str]:
    """An environment where one more distribution is installed, turnlight-extra, whose
    rulesets cannot all be played: one cannot be imported, one declares forms' board id,
    one declares an id turnlight already has."""
    site = tmp_path / "site"
    info = site / "turnlight_extra-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: turnlight-extra\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[turnlight.rulesets]\n"
        "broken = no_such_module:RULESET\n"
        "clashing = extra_rules:CLASHING\n"
        "korxsol = extra_rules:CLASHING\n"
    )
    (site / "extra_rules.py").write_text(EXTRA)
    return {**os.environ, "PYTHONPATH": str(site)}


BROKEN = "cannot load (ModuleNotFoundError: No module named 'no_such_module')"
CLASHING = (
    "not loaded (ruleset 'clashing' declares board id 3, which 'forms' already has"
    " (declare board_id = None to be given one))"
)
TWICE = "not loaded (declared by turnlight and turnlight-extra: turnlight's plays)"


def test_turnlight_rulesets_lists_an_installed_ruleset_that_cannot_play_in_one_line(
    extra_installed: dict[str, str],
) -> None:
    done = turnlight("rulesets", env=extra_installed)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    playable = [i for i in registry.ids()]  # this process's: none of turnlight-extra's
    assert [line.split()[0] for line in lines[: len(playable)]] == playable
    assert lines[len(playable) :] == [
        f"broken: {BROKEN}",
        f"clashing: {CLASHING}",
        f"korxsol: {TWICE}",
    ]
    assert lines[0].startswith("korxsol ") and lines[0].endswith("(default)")  # turnlight's


def test_asking_for_an_installed_ruleset_that_cannot_play_is_a_one_line_error(
    extra_installed: dict[str, str], tmp_path: Path
) -> None:
    for ruleset_id, why in (("broken", BROKEN), ("clashing", CLASHING)):
        done = turnlight("demo", "--ruleset", ruleset_id, "--no-board", env=extra_installed)
        assert done.returncode == 2
        assert done.stderr.splitlines() == [f"turnlight: ruleset {ruleset_id!r} {why}"]
    encounter = tmp_path / "clash.toml"
    encounter.write_text('ruleset = "clashing"\nname = "x"\n')
    done = turnlight("encounter", "check", str(encounter), env=extra_installed)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [f"turnlight: {encounter}:1: ruleset 'clashing' {CLASHING}"]


def test_the_other_rulesets_play_beside_one_that_cannot(extra_installed: dict[str, str]) -> None:
    for ruleset_id in ("korxsol", "stones"):
        done = turnlight(
            "demo", "--ruleset", ruleset_id, "--no-board", "--seed", "1", env=extra_installed
        )
        assert done.returncode == 0, done.stderr
        assert "winner:" in done.stdout or "draw:" in done.stdout


def test_turnlight_rulesets_shows_each_rulesets_board_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A new ruleset's `board_id` must be one no other has (docs/writing-a-ruleset.md, 0):
    `turnlight rulesets` shows the ids taken, on each ruleset's one line."""
    from host import cli

    assert cli.main(["rulesets"]) == 0
    listed = {ln.split()[0]: ln.split()[2:4] for ln in capsys.readouterr().out.splitlines()}
    for ruleset_id in registry.ids():
        assert listed[ruleset_id] == ["board", str(registry.get(ruleset_id).board_id)]
