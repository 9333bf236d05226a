"""Scores across games, for any ruleset: the session table (wins and totals per team over
a session's games) and the score exports (one game's statistics as JSON or CSV rows).

A game's statistics come from its ruleset's `summary`: {"players": {name: stats},
"teams": {team: stats}, "team_of": {name: team}}, each stats a flat dict of numbers.
"""

from __future__ import annotations

import csv
import io
import json


def session_table(teams: tuple[str, ...], totals: tuple[str, ...], games: list[dict]) -> list[dict]:
    """One row per team: games finished, wins, and the sum of each of `totals` over the
    summaries of the finished games (a game is {"winner": name or None, "summary": ...})."""
    table: dict[str, dict] = {t: {"team": t, "games": 0, "wins": 0} for t in teams}
    for row in table.values():
        row.update({key: 0 for key in totals})
    for g in games:
        if g["winner"] is None:
            continue
        for row in table.values():
            row["games"] += 1
        if g["winner"] in table:
            table[g["winner"]]["wins"] += 1
        for name, stats in ((g["summary"] or {}).get("teams") or {}).items():
            if name in table:
                for key in totals:
                    table[name][key] += stats.get(key, 0)
    return list(table.values())


def scores_json(game_id: int | None, winner: str | None, summary: dict) -> str:
    doc = {
        "game": game_id,
        "winner": winner,
        "players": summary["players"],
        "teams": summary["teams"],
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def scores_csv(game_id: int | None, summary: dict) -> str:
    """A row per player, then per team: game, kind, name, team, then every statistic."""
    buf = io.StringIO()
    w = csv.writer(buf)
    teams = summary["teams"]
    keys = list(teams[next(iter(teams))].keys()) if teams else []
    w.writerow(["game", "kind", "name", "team", *keys])
    for name, stats in summary["players"].items():
        w.writerow([game_id, "player", name, summary["team_of"][name], *stats.values()])
    for name, stats in teams.items():
        w.writerow([game_id, "team", name, name, *stats.values()])
    return buf.getvalue()
