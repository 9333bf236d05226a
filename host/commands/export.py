"""`turnlight export`: write one saved game as JSON or CSV, its scores, or a PNG chart."""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import TYPE_CHECKING

from host.commands._game_args import add_db, saved_journal
from host.screens.event_table import events_csv

if TYPE_CHECKING:
    from host.core.journal import Journal

FORMATS = ("json", "csv", "scores-csv", "scores-json", "effects-csv", "png")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a saved game as JSON or CSV, its scores as CSV/JSON, or a PNG chart",
        description="json: the game, every event, the final state and the timeline; "
        "csv: one row per event, one column per field; "
        "scores-csv / scores-json: per player and team statistics; "
        "effects-csv: one row per effect put on (docs/effects.md); "
        "png: the game's chart over the turns (korxsol: KOR and score).",
    )
    p.add_argument("game", nargs="?", type=int, help="game id (default: the latest)")
    p.add_argument("--format", choices=FORMATS, default="json", help="what to write")
    p.add_argument("--out", metavar="FILE", help="write here (default stdout; png needs --out)")
    add_db(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.core.journal import Journal, JournalError, default_path

    if args.out and _out_is_the_journal(args):
        return 2
    if args.out and _out_is_not_a_file(args.out):
        return 2
    try:
        journal = saved_journal(args)
        if journal is None:
            return 2
        return _export(args, journal)
    except JournalError as err:
        if not err.damaged:
            raise
        # SQLite refuses a damaged file whole: read what remains of a mended copy, and
        # let the chain say which of it is the game.
        print(f"turnlight: {err}: reading what remains of it", file=sys.stderr)
        return _export(args, Journal.salvaged(args.db or default_path()))


def _export(args: argparse.Namespace, journal: Journal) -> int:
    from host.core import effects, scores
    from host.core.interface import IllegalAction
    from host.core.session import resume

    try:
        session = resume(journal, args.game)
    except IllegalAction as err:
        game_id = args.game if args.game is not None else journal.latest_game()
        if args.format not in ("json", "csv") or game_id is None or not journal.game(game_id):
            print(f"turnlight: {err}", file=sys.stderr)
            return 2
        row = journal.game(game_id) or {}
        checked = journal.checked(game_id)
        if checked is not None and checked.problem is not None:
            # A damaged journal: what checks is written, and marked partial (exit status 1).
            print(
                f"turnlight: {journal.path}: game {game_id}: {checked.problem}: writing the"
                f" {len(checked.events)} events that check, marked partial",
                file=sys.stderr,
            )
            text = _journal_text(args.format, row, checked.events, None, checked.problem)
            return _write(args, text) or 1
        # A game that no longer replays (older rules) still has its journal to give.
        print(f"turnlight: {err}: writing its journalled events only", file=sys.stderr)
        events = checked.events if checked is not None else []
        return _write(args, _journal_text(args.format, row, events, None))
    game, ruleset = session.game, session.ruleset
    assert session.game_id is not None
    row = journal.game(session.game_id) or {}
    events = journal.events(session.game_id)
    if args.format == "png":
        if not args.out:
            print("turnlight: --format png needs --out FILE", file=sys.stderr)
            return 2
        from host.commands._errors import cannot_write
        from host.core import outfile
        from host.screens.chart import write_chart

        title = f"{row.get('encounter')} (game {session.game_id})"
        timeline, panels = ruleset.timeline(game), ruleset.chart_panels
        try:
            outfile.write_with(
                args.out, lambda path: write_chart(timeline, panels, path, title), ".png"
            )
        except OSError as err:
            return cannot_write(args.out, err)
        print(f"wrote {args.out}", file=sys.stderr)
        return 0
    if args.format in ("json", "csv"):
        replayed = (ruleset.snapshot(game), ruleset.timeline(game), effects.export_rows(game))
        return _write(args, _journal_text(args.format, row, events, replayed))
    if args.format == "effects-csv":
        return _write(args, _effects_csv(effects.export_rows(game)))
    summary = ruleset.summary(game)
    if args.format == "scores-json":
        winner = ruleset.winner(game)
        return _write(args, scores.scores_json(session.game_id, winner, summary))
    return _write(args, scores.scores_csv(session.game_id, summary))


def _journal_text(
    fmt: str, row: dict, events: list, replayed: tuple | None, partial: str | None = None
) -> str:
    """A game's journal as JSON (with its final state, timeline and effects when it replays; null
    when it does not; `partial`: what is wrong after the events given, when the journal
    is damaged) or as CSV (one row per event)."""
    buf = io.StringIO()
    events = [_withheld(event) for event in events]
    if fmt == "json":
        doc: dict = {
            "game": {k: v for k, v in row.items() if k not in ("encounter_toml", "summary")},
            "events": [{"seq": s, "kind": k, "payload": p, "at": at} for s, k, p, at in events],
            "final": replayed[0] if replayed else None,
            "timeline": replayed[1] if replayed else None,
            "effects": replayed[2] if replayed else None,
            "partial": partial,
        }
        json.dump(doc, buf, indent=2, sort_keys=True, default=str)
        buf.write("\n")
    else:
        buf.write(events_csv(events))
    return buf.getvalue()


# The web console's token (host/web/hub.py keeps it in the journal so a resumed game keeps
# its link): whoever holds it runs the game, so an export, which travels, never carries it.
SECRET_EVENTS = ("web",)


def _withheld(event: tuple) -> tuple:
    seq, kind, payload, at = event
    if kind in SECRET_EVENTS and isinstance(payload, dict):
        payload = {key: "(withheld)" for key in payload}
    return seq, kind, payload, at


def _effects_csv(rows: list[dict]) -> str:
    """Every effect put on, one row each, in the columns host/core/effects.py exports."""
    import csv

    from host.core.effects import EXPORT_FIELDS

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=EXPORT_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()


def _write(args: argparse.Namespace, text: str) -> int:
    if args.out:
        from host.commands._errors import cannot_write
        from host.core import outfile

        try:
            outfile.write_text(args.out, text)
        except OSError as err:  # no such folder, a folder, no permission, a full disk
            return cannot_write(args.out, err)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _out_is_the_journal(args: argparse.Namespace) -> bool:
    """--out naming the journal (however spelled) would destroy it: say so and refuse."""
    from host.commands._errors import fail
    from host.core import outfile
    from host.core.journal import default_path

    journal = args.db or default_path()
    if not outfile.is_the_journal(args.out, journal):
        return False
    fail(f"--out {args.out} is the journal {journal}: refusing to write over it")
    return True


def _out_is_not_a_file(out: str) -> bool:
    """--out naming a device, a FIFO or a folder: refused before the game is replayed."""
    from host.commands._errors import cannot_write
    from host.core import outfile

    try:
        outfile.check_target(out)
    except outfile.NotAFile as err:
        cannot_write(out, err)
        return True
    return False
