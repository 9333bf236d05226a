"""The architecture's promise, kept by a ruleset from outside `host/`: cards, a package of
its own installed into the venv (tests/plugin, `pip install -e tests/plugin` in the
Makefile), is found by its `turnlight.rulesets` entry point, not registered, and `turnlight
demo --ruleset cards` plays it to the end through the simulated board (its action cards
drawn and its trait dice rolled on the board's roll key, its turns ended on the next-turn
key) with no file of host/, shared/ or firmware/ knowing it."""

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
ID = "cards"
PACKAGE = "turnlight_cards"


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
    assert entry.dist is not None and entry.dist.name == "turnlight-cards"
    assert entry.value == f"{PACKAGE}.ruleset:RULESET"
    assert ID in registry.ids() and ID not in registry.built_in()
    cards = registry.get(ID)
    assert cards is entry.load() and cards.id == ID
    with pytest.raises(ValueError, match="is installed .turnlight-cards., not registered"):
        registry.unregister(ID)
    # A fresh process, which registers nothing, lists it among the rest.
    done = turnlight("rulesets")
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [ID, f"v{cards.rules_version}"] in [words[:2] for words in lines]


def test_the_plugin_lives_outside_host_and_nothing_in_host_shared_or_firmware_names_it() -> None:
    cards = registry.get(ID)
    source = Path(sys.modules[type(cards).__module__].__file__ or "").resolve()
    assert source.is_relative_to(PLUGIN), source
    assert cards.example_path().resolve().is_relative_to(PLUGIN / PACKAGE)
    for path in PLUGIN.rglob("*.py"):  # a package of its own: nothing of the tests'
        text = path.read_text(encoding="utf-8")
        assert "tiny_ruleset" not in text and "from tests" not in text, path
    for folder in ("host", "shared", "firmware"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".toml", ".md", ".txt", ".json"):
                text = path.read_text(encoding="utf-8", errors="replace")
                assert PACKAGE not in text and f'"{ID}"' not in text, path


def test_turnlight_demo_plays_the_plugin_to_the_end_through_the_simulated_board(
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.sqlite"
    done = turnlight("demo", "--ruleset", ID, "--seed", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "simulated trellis_m4 board" in done.stdout
    assert "\nwinner: " in done.stdout
    journal = Journal(db, write=False)
    (game,) = journal.games()
    assert game["ruleset"] == ID and game["winner"] in ("Posse", "Outlaws")
    events = [(kind, payload) for _, kind, payload, _ in journal.events(game["id"])]
    journal.close()
    # Every card dealt waited for its draw and the board's roll key drew it, journalled
    # with its source as a die is; the board's next-turn key ended the turns.
    deals = [p for kind, p in events if kind == "want-dice" and p["purpose"] == "deal"]
    assert deals and all(p["source"] == "board" and len(p["faces"]) == 1 for p in deals)
    acted = [p for kind, p in events if kind == "action"]
    dealt = [r for p in acted for r in p["rolls"] if r[0] == "deal"]
    assert len(dealt) == len(deals) and all(r[2] == "board" for r in dealt)
    ends = [p for p in acted if p["text"] == "end"]
    assert ends and all(p.get("by") == "board" for p in ends)
    assert any(p["text"].startswith(("hold", "interrupt ")) for p in acted)
