"""`turnlight export`: write one saved game as JSON or CSV, its scores, or a PNG chart."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from host.commands._korxsol_args import add_db, open_journal

FORMATS = ("json", "csv", "scores-csv", "scores-json", "png")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a saved game as JSON or CSV, its scores as CSV/JSON, or a PNG chart",
        description="json: the game, every event, the final state and the timeline; "
        "csv: one row per event; scores-csv / scores-json: per player and team statistics; "
        "png: KOR and score over the turns.",
    )
    p.add_argument("game", nargs="?", type=int, help="game id (default: the latest)")
    p.add_argument("--format", choices=FORMATS, default="json", help="what to write")
    p.add_argument("--out", metavar="FILE", help="write here (default stdout; png needs --out)")
    add_db(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from host.korxsol.rolls import IllegalAction
    from host.korxsol.session import resume

    journal = open_journal(args)
    try:
        session = resume(journal, args.game)
    except IllegalAction as err:
        print(f"turnlight: {err}", file=sys.stderr)
        return 2
    game = session.game
    assert session.game_id is not None
    row = journal.game(session.game_id) or {}
    events = journal.events(session.game_id)
    if args.format == "png":
        if not args.out:
            print("turnlight: --format png needs --out FILE", file=sys.stderr)
            return 2
        from host.korxsol.chart import write_chart

        write_chart(game.timeline, args.out, f"{row.get('encounter')} (game {session.game_id})")
        print(f"wrote {args.out}", file=sys.stderr)
        return 0
    buf = io.StringIO()
    snap = game.snapshot()
    if args.format == "json":
        doc: dict = {
            "game": {k: v for k, v in row.items() if k not in ("encounter_toml", "summary")},
            "events": [{"seq": s, "kind": k, "payload": p, "at": at} for s, k, p, at in events],
            "final": snap,
            "timeline": game.timeline,
        }
        json.dump(doc, buf, indent=2, sort_keys=True)
        buf.write("\n")
    elif args.format == "scores-json":
        doc = {
            "game": session.game_id,
            "winner": snap["winner"],
            "players": {f["name"]: f["stats"] for f in snap["fighters"]},
            "teams": snap["teams"],
        }
        json.dump(doc, buf, indent=2, sort_keys=True)
        buf.write("\n")
    elif args.format == "csv":
        w = csv.writer(buf)
        w.writerow(["seq", "at", "kind", "payload"])
        for s, k, p, at in events:
            w.writerow([s, at, k, json.dumps(p, separators=(",", ":"))])
    else:
        w = csv.writer(buf)
        keys = list(snap["teams"][next(iter(snap["teams"]))].keys())
        w.writerow(["game", "kind", "name", "team", *keys])
        for f in snap["fighters"]:
            w.writerow([session.game_id, "player", f["name"], f["team"], *f["stats"].values()])
        for name, stats in snap["teams"].items():
            w.writerow([session.game_id, "team", name, name, *stats.values()])
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="") as fh:
            fh.write(buf.getvalue())
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(buf.getvalue())
    return 0
