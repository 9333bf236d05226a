"""The architecture's promise, kept by a ruleset from outside `host/`: tug, a package of its
own installed into the venv (tests/plugin, `pip install -e tests/plugin` in the Makefile),
is found by its `turnlight.rulesets` entry point, not registered, and `turnlight demo
--ruleset tug` plays it through the simulated board (its pulls' dice rolled on the board's
roll key, its turns ended on the next-turn key) with no file of host/, shared/ or firmware/
knowing it."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from host.core import registry
from host.core.journal import Journal

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "tests" / "plugin"
ID = "tug"
PACKAGE = "turnlight_tiny_plugin"


def turnlight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_the_registry_finds_the_plugin_through_its_entry_point_not_register() -> None:
    (entry,) = [ep for ep in entry_points(group=registry.GROUP) if ep.name == ID]
    assert entry.dist is not None and entry.dist.name == "turnlight-test-ruleset"
    assert entry.value == f"{PACKAGE}.ruleset:RULESET"
    assert ID in registry.ids() and ID not in registry.built_in()
    tug = registry.get(ID)
    assert tug is entry.load() and tug.id == ID
    with pytest.raises(ValueError, match="is installed .turnlight-test-ruleset., not registered"):
        registry.unregister(ID)
    # A fresh process, which registers nothing, lists it among the rest.
    done = turnlight("rulesets")
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [ID, f"v{tug.rules_version}"] in [words[:2] for words in lines]


def test_the_plugin_lives_outside_host_and_nothing_in_host_shared_or_firmware_names_it() -> None:
    tug = registry.get(ID)
    source = Path(sys.modules[type(tug).__module__].__file__ or "").resolve()
    assert source.is_relative_to(PLUGIN), source
    assert tug.example_path().resolve().is_relative_to(PLUGIN / PACKAGE)
    for path in PLUGIN.rglob("*.py"):  # a package of its own: nothing of the tests'
        text = path.read_text(encoding="utf-8")
        assert "tiny_ruleset" not in text and "from tests" not in text, path
    for folder in ("host", "shared", "firmware"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".toml", ".md", ".txt", ".json"):
                text = path.read_text(encoding="utf-8", errors="replace")
                assert PACKAGE not in text and f'"{ID}"' not in text, path


def test_turnlight_demo_plays_the_plugin_through_the_simulated_board(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    done = turnlight("demo", "--ruleset", ID, "--seed", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "simulated trellis_m4 board" in done.stdout
    assert "\nwinner: " in done.stdout
    journal = Journal(db, write=False)
    (game,) = journal.games()
    assert game["ruleset"] == ID and game["winner"] in ("Red", "Blue")
    events = [(kind, payload) for _, kind, payload, _ in journal.events(game["id"])]
    journal.close()
    # Each pull waited for its D3 and the board's roll key rolled it; the board's next-turn
    # key ended the turns.
    pulls = [p for kind, p in events if kind == "action" and p["text"].startswith("pull ")]
    rolled = [p for kind, p in events if kind == "want-dice" and p["source"] == "board"]
    assert pulls and len(rolled) == len(pulls)
    assert all(p["rolls"][0][1] == "board" for p in pulls)
    ends = [p for kind, p in events if kind == "action" and p["text"] == "end"]
    assert ends and all(p.get("by") == "board" for p in ends)
