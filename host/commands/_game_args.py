"""Options shared by the commands that play or read games (demo, run, play, games, export):
the ruleset, the encounter and its seed, and the journal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from host.core import encounter_files, registry
from host.core.interface import Encounter, EncounterError, IllegalAction
from host.core.journal import Journal, default_path

MAX_OS_SEED = 999_999


def add_ruleset(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ruleset",
        metavar="ID",
        help=f"the game's rules: {', '.join(registry.ids())} (`turnlight rulesets` says what "
        f"each is); default: the one the encounter file names, else {registry.DEFAULT}",
    )


def add_encounter(p: argparse.ArgumentParser) -> None:
    add_ruleset(p)
    p.add_argument(
        "--encounter",
        metavar="FILE",
        help="encounter file (TOML), or the NAME of one bundled with the ruleset (its "
        "encounters/NAME.toml, e.g. `--ruleset d20 --encounter big_table`); default: the "
        f"ruleset's bundled example (for {registry.DEFAULT}, the Ember Ridge 2v2)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="seed for the engine's dice: the same seed and commands play the same game "
        "(default: a new seed from the OS, printed, and kept in the journal)",
    )


def add_monsters(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--monsters",
        metavar='"N NAME, ..."',
        help="the foes from the ruleset's book of monsters, as \"4 goblin, bugbear, adult red"
        " dragon\": they take the place of the encounter's own (its party stays); a name not"
        " in the book is refused naming the closest (`turnlight bestiary WORDS` lists them)",
    )


def with_monsters(args: argparse.Namespace, enc: Encounter) -> Encounter | None:
    """`enc` with its foes replaced by --monsters' (as it is without the option); prints
    the one-line refusal and returns None for a monster not in the book."""
    words = getattr(args, "monsters", None)
    if words is None:
        return enc
    ruleset = registry.get(enc.ruleset)
    try:
        return ruleset.parse_encounter(ruleset.with_monsters(enc.source, words), enc.path)
    except (IllegalAction, EncounterError) as err:
        print(f"turnlight: --monsters: {err}", file=sys.stderr)
        return None


def game_seed(args: argparse.Namespace) -> int:
    """--seed, or a new one from the OS (stored back in `args`, so the command can say it):
    six digits at most, easy to type again."""
    if args.seed is None:
        args.seed = 1 + int.from_bytes(os.urandom(4), "big") % MAX_OS_SEED
    return int(args.seed)


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH",
        help=f"journal database (SQLite); default {default_path()}",
    )


def ruleset_ok(args: argparse.Namespace) -> bool:
    """True when --ruleset is absent or names a ruleset that can be played; else says which
    there are, or why that one cannot be played."""
    if args.ruleset is None:
        return True
    try:
        registry.get(args.ruleset)
    except registry.UnknownRuleset as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return False
    return True


def load_encounter(args: argparse.Namespace) -> Encounter | None:
    """The encounter named by --encounter (or the ruleset's bundled one), read by the
    ruleset it names, which must be --ruleset's when that is given, its foes replaced by
    --monsters' where the command has that option; prints the error and returns None for a
    bad file, a ruleset that does not match or a monster not in the book."""
    if not ruleset_ok(args):
        return None
    try:
        enc = encounter_files.load(encounter_path(args), args.ruleset)
    except EncounterError as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return None
    return with_monsters(args, enc)


def encounter_path(args: argparse.Namespace) -> Path:
    """--encounter's file: a path, or the name of an encounter bundled with the ruleset
    (--ruleset's, else the default's) when no such file is here; none: its example.
    A name that is neither is refused naming the bundled ones (EncounterError)."""
    example = registry.get(args.ruleset or registry.DEFAULT).example_path()
    if args.encounter is None:
        return example
    given = Path(args.encounter)
    if given.exists() or given.name != args.encounter or given.suffix:
        return given
    bundled = {p.stem: p for p in sorted(example.parent.glob("*.toml"))}
    if args.encounter in bundled:
        return bundled[args.encounter]
    raise EncounterError(
        f"{args.encounter}: no such file, nor an encounter bundled with"
        f" {args.ruleset or registry.DEFAULT} ({', '.join(bundled)})"
    )


def open_journal(args: argparse.Namespace) -> Journal:
    return Journal(args.db or default_path())


def saved_journal(args: argparse.Namespace) -> Journal | None:
    """The journal to read saved games from, opened read-only, or None (said in one line)
    when there is no journal at that path: reading never creates or changes one."""
    path = Path(args.db) if args.db else default_path()
    if not path.is_file():
        print(
            f"turnlight: no journal at {path}: nothing has been saved there yet",
            file=sys.stderr,
        )
        return None
    return Journal(path, write=False)
