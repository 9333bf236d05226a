"""Options shared by the korxsol commands (run, play, demo, games, export, odds)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host.journal import Journal, default_path
from host.korxsol import encounter as encounter_mod
from host.korxsol.model import Encounter


def add_encounter(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--encounter",
        metavar="FILE",
        help="encounter file (TOML); default: the bundled Ember Ridge 2v2 encounter",
    )
    p.add_argument("--seed", type=int, default=1, help="seed for the engine's dice (default 1)")


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH",
        help=f"journal database (SQLite); default {default_path()}",
    )


def load_encounter(args: argparse.Namespace) -> Encounter | None:
    """The encounter named by --encounter (or the bundled one); prints the error and
    returns None for a bad file."""
    try:
        return encounter_mod.load(args.encounter or encounter_mod.example_path())
    except encounter_mod.EncounterError as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return None


def open_journal(args: argparse.Namespace) -> Journal:
    return Journal(args.db or default_path())


def saved_journal(args: argparse.Namespace) -> Journal | None:
    """The journal to read saved games from, or None (said in one line) when there is no
    journal at that path: reading never creates one."""
    path = Path(args.db) if args.db else default_path()
    if not path.is_file():
        print(
            f"turnlight: no journal at {path}: nothing has been saved there yet",
            file=sys.stderr,
        )
        return None
    return Journal(path)
