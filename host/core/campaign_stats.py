"""A campaign's scores: each character's statistics added up over every fight it fought
(the ruleset's summary, and what its Carry adds: d20's natural 20s and 1s and its dice above
and below their average), as a table and as CSV, and for the players' page between fights.
Each fight's chart is drawn by `turnlight campaign stats --chart` (the screens draw charts).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from host.core import registry
from host.core.campaign import State


def table(state: State) -> tuple[list[str], list[list[Any]]]:
    """(headers, rows): a row per character who fought or is in the party, its fights and
    each statistic's sum, in the order the ruleset's summary keeps them."""
    ruleset = registry.get(state.ruleset)
    keys: list[str] = []
    totals: dict[str, dict[str, int]] = {}
    fought: dict[str, int] = {}
    for name in state.party:
        totals.setdefault(name, {})
        fought.setdefault(name, 0)
    for fight in state.fights:
        for name, stats in fight.scores.items():
            fought[name] = fought.get(name, 0) + 1
            mine = totals.setdefault(name, {})
            for key, value in stats.items():
                if key not in keys:
                    keys.append(key)
                mine[key] = mine.get(key, 0) + int(value)
    headers = [
        "character",
        "fights",
        *(ruleset.stat_labels.get(k, k.replace("_", " ")) for k in keys),
    ]
    rows = [[name, fought[name], *(totals[name].get(k, 0) for k in keys)] for name in totals]
    return headers, rows


def between_fights(session: Any) -> dict[str, Any] | None:
    """The campaign's table for the players' page while a campaign's fight is over (between
    fights): {"title", "headers", "rows"}; None for a fight under way or a game of no
    campaign, or a campaign that cannot be read now."""
    from host.core.campaign import Book, CampaignError

    journal, game_id = getattr(session, "journal", None), getattr(session, "game_id", None)
    if journal is None or game_id is None or session.ruleset.winner(session.game) is None:
        return None
    book = Book(journal)
    name = book.fight_of(game_id)
    if name is None:
        return None
    try:
        state = book.state(name)
    except CampaignError:
        return None
    headers, rows = table(state)
    title = f"campaign {state.name}: {len(state.fights)} fights"
    return {"title": title, "headers": headers, "rows": [[str(c) for c in r] for r in rows]}


def table_csv(headers: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(headers)
    writer.writerows(rows)
    return buf.getvalue()
