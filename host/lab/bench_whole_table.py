"""`engine_turn_us_24_<id>` for `turnlight bench` (the big-table issue): one turn of every
game whose rules hold a whole table of fighters (host/core/newcomers.py MOST_FIGHTERS), with
that many, through the session on a real SQLite journal. Medians, in microseconds."""

from __future__ import annotations

import importlib
import statistics
import time

from host.core import registry
from host.core.encounter_files import read_toml, write_toml
from host.core.interface import Encounter, EncounterError, IllegalAction
from host.core.newcomers import MOST_FIGHTERS
from host.lab.bench_session import games_on_a_journal

TURNS_24 = 100
BIG_TABLE = "big_table.toml"  # a ruleset's bundled encounter of MOST_FIGHTERS entries


def whole_table(ruleset_id: str) -> Encounter:
    """The ruleset's encounter of MOST_FIGHTERS fighters: its bundled BIG_TABLE, else its
    example with its own fighters' tables again (each with a name and label of its own,
    a group as one) up to MOST_FIGHTERS tables. EncounterError where the rules hold fewer
    (flare's four players)."""
    ruleset = registry.get(ruleset_id)
    example = ruleset.example_path()
    big = example.parent / BIG_TABLE
    if big.is_file():
        return ruleset.parse_encounter(big.read_text(encoding="utf-8"), str(big))
    doc = read_toml(example.read_text(encoding="utf-8"), str(example))
    doc.pop("template", None)
    roster = importlib.import_module(f"{type(ruleset).__module__.rpartition('.')[0]}.language")
    tables = roster.ROSTER.tables()
    theirs = [(t, f) for t in tables for f in doc.get(t, [])]
    k = 0
    while theirs and sum(len(doc.get(t, [])) for t in tables) < MOST_FIGHTERS:
        table, fighter = theirs[k % len(theirs)]
        again = {key: value for key, value in fighter.items() if key != "count"}
        again.update(name=f"Extra{k}", label=f"X{k}")
        doc[table].append(again)
        k += 1
    return ruleset.parse_encounter(write_toml(doc), f"{ruleset_id}-{MOST_FIGHTERS}.toml")


def engine_turn_24() -> dict[str, float]:
    """`engine_turn_us_24_<id>`: one turn the demo AI plans in a game of MOST_FIGHTERS
    fighters, for every game whose rules hold that many (turn_us). Median of TURNS_24."""
    figures: dict[str, float] = {}
    for ruleset_id, _ in registry.described():
        try:
            encounter = whole_table(ruleset_id)
        except (EncounterError, ModuleNotFoundError, AttributeError):
            continue  # rules that hold fewer (docs/rulesets/<id>.md says so)
        figures[f"engine_turn_us_24_{ruleset_id}"] = turn_us(ruleset_id, encounter, TURNS_24)
    return figures


def turn_us(ruleset_id: str, encounter: Encounter, turns: int) -> float:
    """The median time of one turn the ruleset's demo AI plans (every line of the plan,
    as `turnlight demo` plays it: a refused line passed over), through the session on a
    real SQLite journal (bench_session.games_on_a_journal): each line parsed, the rules
    applied, the board state projected and the action committed. The plan is made, and
    the game started (its start command), before the clock starts."""
    samples: list[float] = []
    with games_on_a_journal(ruleset_id, encounter) as current:
        while len(samples) < turns:
            session = current()
            ruleset = session.ruleset
            if ruleset.start_command and not ruleset.started(session.game):
                session.execute(ruleset.start_command)
                continue
            plan = ruleset.plan_turn(session.game)
            t0 = time.perf_counter_ns()
            for line in plan:
                try:
                    session.execute(line)
                except IllegalAction:
                    if line in ruleset.next_turn_commands:
                        raise
                if session.over:
                    break
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return round(statistics.median(samples), 1)
