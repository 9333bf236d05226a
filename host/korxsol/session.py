"""A game master's session: the running game, its journal, undo and redo, and the dice
waiting to be used.

Undo and redo rebuild the game by replaying the journalled actions with their recorded
rolls, so cooldowns, frost and every other duration come back exactly and nothing fires
twice. `apply_board_event` is the seam the link's host bridge calls: it returns only once
the event is committed, so the board is acknowledged after the journal has it.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections import deque
from dataclasses import dataclass

from host import registry
from host.commandline import whole_number
from host.journal import Journal
from host.korxsol import commands
from host.korxsol import encounter as encounter_mod
from host.korxsol.commands import Command
from host.korxsol.engine import RULES_VERSION, Game, Outcome
from host.korxsol.model import Encounter
from host.korxsol.rolls import IllegalAction, RollRecord
from host.korxsol.words import plural


@dataclass
class Entry:
    """One applied action: its command line and the rolls it used."""

    text: str
    rolls: list[RollRecord]


class Session:
    def __init__(
        self,
        encounter: Encounter,
        seed: int = 1,
        journal: Journal | None = None,
        session_id: str | None = None,
        game_id: int | None = None,
    ):
        self.encounter = encounter
        self.ruleset = registry.get(encounter.ruleset)
        self.seed = seed
        self.journal = journal
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.done: list[Entry] = []
        self.undone: list[Entry] = []
        self.notices: list[str] = []  # one-line notes for the game master (resume)
        self.game = Game(encounter, seed)
        self.game_id = game_id
        if journal is not None and game_id is None:
            self.game_id = journal.new_game(
                self.session_id,
                encounter.name,
                encounter.path,
                encounter.source,
                seed,
                RULES_VERSION,
            )

    # ------------------------------------------------------------------ commands
    def execute(self, line: str) -> list[str]:
        """Run one line of the command language; returns what to show. Raises IllegalAction
        (one line, nothing changed) for anything the rules or the syntax refuse."""
        cmd = commands.parse(line)
        if cmd is None:
            return []
        if cmd.verb == "undo":
            return self.undo(cmd.int_arg(0, 1, 1, 10_000, "steps"))
        if cmd.verb == "redo":
            return self.redo(cmd.int_arg(0, 1, 1, 10_000, "steps"))
        if cmd.verb == "dice":
            if cmd.args[:1] == ["clear"]:
                self.game.roller.queued.clear()
                self._journal("dice-clear", {})
                return ["entered dice cleared"]
            purpose = cmd.arg(0, "a roll purpose")
            if purpose == "initiative" and self.game.started:
                raise IllegalAction("initiative is already rolled: no initiative roll will come")
            faces = tuple(whole_number(a, 0, 255, "a face") for a in cmd.args[1:])
            return self.queue_roll(purpose, faces, "entered")
        if cmd.verb == "odds":
            from host.korxsol import odds

            return odds.describe(self.game, cmd)
        if cmd.verb == "new":
            raise IllegalAction("`new` starts the next game; use it in `turnlight play`")
        return self.act(cmd).lines

    def act(self, cmd: Command) -> Outcome:
        saved = {p: deque(q) for p, q in self.game.roller.queued.items()}
        was_over = self.game.winner is not None
        try:
            outcome = self.game.apply(cmd)
        except IllegalAction:
            self._rebuild()
            self.game.roller.queued = saved
            raise
        entry = Entry(cmd.text, list(self.game.roller.records))
        self.done.append(entry)
        self.undone.clear()
        self._journal("action", {"text": entry.text, "rolls": [r.as_json() for r in entry.rolls]})
        if not was_over and self.game.winner is not None:
            self._record_finish()
        return outcome

    def queue_roll(self, purpose: str, faces: tuple[int, ...], source: str) -> list[str]:
        self.game.roller.queue(purpose, faces, source)
        self._journal("dice", {"purpose": purpose, "faces": list(faces), "source": source})
        return [f"{source} {purpose} roll waiting: {' '.join(map(str, faces))}"]

    def note_roll(self, kind: str, faces: tuple[int, ...], source: str) -> None:
        """Journal a roll the rules do not use (a board's d100): kept, never replayed."""
        self._journal("roll-shown", {"kind": kind, "faces": list(faces), "source": source})

    def apply_board_event(self, event: dict) -> list[str]:
        """The link's event applier. `{"type": "roll", "purpose": ..., "faces": [...]}` queues
        a board roll; `{"type": "command", "text": ...}` runs a command. Returns after the
        journal commit, so the caller may acknowledge the board."""
        if event.get("type") == "roll":
            return self.queue_roll(str(event["purpose"]), tuple(event["faces"]), "board")
        if event.get("type") == "command":
            return self.execute(str(event["text"]))
        raise IllegalAction(f"unknown board event {event.get('type')!r}")

    # ------------------------------------------------------------------ undo / redo
    def undo(self, steps: int = 1) -> list[str]:
        if steps > len(self.done):
            raise IllegalAction(f"only {plural(len(self.done), 'action')} can be undone")
        was_over = self.game.winner is not None
        moved = [self.done.pop() for _ in range(steps)]
        self.undone.extend(moved)
        self._rebuild()
        self._journal("undo", {"steps": steps})
        if was_over and self.game.winner is None and self.journal and self.game_id:
            self.journal.unfinish(self.game_id)
        return [f"undone: {e.text}" for e in moved]

    def redo(self, steps: int = 1) -> list[str]:
        if steps > len(self.undone):
            raise IllegalAction(f"only {plural(len(self.undone), 'action')} can be redone")
        lines = []
        was_over = self.game.winner is not None
        for _ in range(steps):
            entry = self.undone.pop()
            cmd = commands.parse(entry.text)
            assert cmd is not None
            lines += ["redone: " + entry.text] + self.game.apply(cmd, replay=entry.rolls).lines
            self.done.append(entry)
        self._journal("redo", {"steps": steps})
        if not was_over and self.game.winner is not None:
            self._record_finish()
        return lines

    def _rebuild(self) -> None:
        queued = self.game.roller.queued
        game = Game(self.encounter, self.seed)
        for entry in self.done:
            cmd = commands.parse(entry.text)
            assert cmd is not None
            game.apply(cmd, replay=entry.rolls)
        game.roller.queued = queued
        self.game = game

    # ------------------------------------------------------------------ journal
    def _journal(self, kind: str, payload: dict) -> None:
        if self.journal is not None and self.game_id is not None:
            self.journal.append(self.game_id, kind, payload)

    def _record_finish(self) -> None:
        if self.journal is None or self.game_id is None:
            return
        snap = self.game.snapshot()
        summary = {
            "teams": snap["teams"],
            "players": {f["name"]: f["stats"] for f in snap["fighters"]},
            "team_of": {f["name"]: f["team"] for f in snap["fighters"]},
        }
        self.journal.finish(self.game_id, snap["winner"], summary)

    def discard_if_empty(self) -> bool:
        """Remove this game from the journal if nothing was ever journalled in it."""
        if self.journal is None or self.game_id is None:
            return False
        return self.journal.discard_if_empty(self.game_id)

    def next_game(self) -> Session:
        """The next game of this session: same encounter, the next seed, a new journal row."""
        return Session(self.encounter, self.seed + 1, self.journal, self.session_id)

    def session_table(self) -> list[dict]:
        """Wins and totals per team across the games of this session so far."""
        if self.journal is None:
            games = [{"winner": self.game.snapshot()["winner"], "summary": None}]
        else:
            games = self.journal.session_games(self.session_id)
        table: dict[str, dict] = {
            t: {"team": t, "games": 0, "wins": 0, "damage_dealt": 0, "kos": 0}
            for t in self.encounter.teams
        }
        for g in games:
            if g["winner"] is None:
                continue
            for t in table.values():
                t["games"] += 1
            if g["winner"] in table:
                table[g["winner"]]["wins"] += 1
            for name, stats in ((g["summary"] or {}).get("teams") or {}).items():
                if name in table:
                    table[name]["damage_dealt"] += stats["damage_dealt"]
                    table[name]["kos"] += stats["kos"]
        return list(table.values())


def resume(journal: Journal, game_id: int | None = None) -> Session:
    """Rebuild a journalled game exactly: its actions, undos, redos and waiting dice."""
    if game_id is None:
        game_id = journal.latest_game()
        if game_id is None:
            raise IllegalAction(f"no saved game in {journal.path}")
    row = journal.game(game_id)
    if row is None:
        raise IllegalAction(f"{journal.path}: no game {game_id}")
    try:
        enc = encounter_mod.parse(row["encounter_toml"], row["encounter_path"] or "<journal>")
    except encounter_mod.EncounterError as err:  # a check added since it was played
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: its encounter is refused now"
            f" ({err}); `turnlight export {game_id} --format json` (or csv) still writes its events"
        ) from err
    session = Session(enc, row["seed"], journal, row["session"], game_id)
    done: list[Entry] = []
    undone: list[Entry] = []
    queued: dict[str, deque] = {}
    for _, kind, payload, _ in journal.events(game_id):
        if kind == "action":
            rolls = [RollRecord.from_json(r) for r in payload["rolls"]]
            for r in rolls:
                if r.source != "engine" and queued.get(r.queue):
                    queued[r.queue].popleft()
            done.append(Entry(payload["text"], rolls))
            undone.clear()
        elif kind == "undo":
            for _ in range(payload["steps"]):
                undone.append(done.pop())
        elif kind == "redo":
            for _ in range(payload["steps"]):
                done.append(undone.pop())
        elif kind == "dice":
            queued.setdefault(payload["purpose"], deque()).append(
                (tuple(payload["faces"]), payload["source"])
            )
        elif kind == "dice-clear":
            queued.clear()
    session.done = done
    session.undone = undone
    try:
        session._rebuild()
    except IllegalAction as err:
        rules = row["rules"]
        why = (
            f"it was played under korxsol rules v{rules}, this turnlight plays v{RULES_VERSION}"
            if rules != RULES_VERSION
            else "its journal does not replay"
        )
        raise IllegalAction(
            f"{journal.path}: game {game_id} cannot be resumed: {why} ({err}); "
            f"`turnlight export {game_id} --format json` (or csv) still writes its events"
        ) from err
    session.game.roller.queued = queued
    rules = row["rules"]
    if rules != RULES_VERSION:
        if not _ends_as_recorded(session, row):
            raise IllegalAction(
                f"{journal.path}: game {game_id} cannot be resumed: it was played under korxsol"
                f" rules v{rules}, this turnlight plays v{RULES_VERSION} and its replay no"
                f" longer ends as it did (winner or statistics);"
                f" `turnlight export {game_id} --format json` (or csv) still writes its events"
            )
        # It replays under these rules: it goes on under them, and the journal says so.
        journal.set_rules(game_id, RULES_VERSION)
        notice = (
            f"game {game_id} was played under rules v{rules}; it replays the same under"
            f" v{RULES_VERSION} and continues under v{RULES_VERSION}"
        )
        session.notices.append(notice)
        session.game.log.append(notice)
        print(notice, file=sys.stderr)
    return session


def _ends_as_recorded(session: Session, row: dict) -> bool:
    """A finished game's replay must end with the winner and statistics it recorded (an
    unfinished one has nothing recorded to compare)."""
    if not row["finished"]:
        return True
    snap = session.game.snapshot()
    stored = json.loads(row["summary"] or "{}")
    players = {f["name"]: f["stats"] for f in snap["fighters"]}
    return (
        snap["winner"] == row["winner"]
        and stored.get("teams") == snap["teams"]
        and stored.get("players") == players
    )
