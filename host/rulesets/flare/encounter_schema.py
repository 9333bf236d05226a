"""Flare's encounter files: the grid, the players, their token supply, the hand sizes, how
the game ends, and the deck (a bundled deck by name, or its tables in the file itself).
docs/rulesets/flare.md describes every key."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.core import numbers
from host.core.encounter_files import Lines, read_toml
from host.core.interface import EncounterError
from host.rulesets.flare import cards
from host.rulesets.flare.cards import Creature, Deck, DeckError, Flare

HERE = Path(__file__).parent
EXAMPLE = HERE / "encounters" / "rift_duel.toml"
TEMPLATE = HERE / "encounters" / "template.toml"
DECKS = HERE / "decks"
MAX_SIDE = 9  # columns a..i, rows 1..9
KEYS = {
    "ruleset": "flare",
    "name": "Flare duel",
    "mode": "duel",
    "columns": 6,
    "rows": 6,
    "tokens": 10,
    "legendary_tokens": 3,
    "actions": 2,
    "first_turn_actions": 1,
    "creature_hand": 3,
    "legendary_hand": 2,
    "flare_hand": 1,
    "target": 12,
    "rounds": 15,
    "deck": "standard",
    "shuffle": True,
    "start": [],
    "advanced": False,
    "tasks_shown": 3,
    "flare_timing": "before_first_action",
    "discard_legendary": True,
}
# When a turn's Flare may be called (rule 12, "Before any action"; docs/rulesets/flare.md)
FLARE_TIMINGS = ("before_first_action", "before_each_action")
TABLES = ("player", "creature", "legendary", "flare", "task")


@dataclass(frozen=True)
class Encounter:
    name: str
    mode: str  # "duel" (two players), "battle" (three or four) or "team" (two teams of two)
    players: tuple[str, ...]  # in turn order: the first starts
    team_names: tuple[str, ...]  # the sides: in a duel and a battle, the players
    team_of: tuple[int, ...]  # each player's side
    columns: int
    rows: int
    tokens: int  # each player's common/heroic tokens (one token, two sides)
    legendary_tokens: int
    actions: int
    first_turn_actions: int
    creature_hand: int
    legendary_hand: int
    flare_hand: int
    target: int
    rounds: int
    deck: Deck
    shuffle: bool = True  # false: the decks are dealt in the file's order, first card first
    advanced: bool = False  # the advanced game: a completed task claimed as each turn ends
    tasks_shown: int = 3  # the task cards face up
    flare_timing: str = "before_first_action"  # or before_each_action (FLARE_TIMINGS)
    discard_legendary: bool = True  # a legendary card may be discard and draw's card (rule 5)
    # Tokens on the grid as the game starts: (row, column, player, rank)
    start: tuple[tuple[int, int, int, int], ...] = ()
    source: str = ""
    path: str = ""
    ruleset: str = "flare"

    @property
    def teams(self) -> tuple[str, ...]:
        return self.team_names

    def __deepcopy__(self, memo: dict) -> Encounter:
        return self  # frozen: a copied game (the legal-action check, the AI) shares it


def example_path() -> Path:
    return EXAMPLE


def parse(text: str, filename: str) -> Encounter:
    doc = read_toml(text, filename)
    lines = Lines(text)

    def fail(key: str, what: str, table: str = "", index: int = 0) -> EncounterError:
        return EncounterError(f"{filename}:{lines.of(table, index, key)}: {what}")

    for key in doc:
        if key not in KEYS and key not in TABLES:
            raise fail(key, f"unknown key {key!r} (known: {', '.join(list(KEYS) + list(TABLES))})")
    if doc.get("ruleset", "flare") != "flare":
        raise fail("ruleset", "not a flare encounter")
    mode = doc.get("mode", "duel")
    if mode not in ("duel", "battle", "team"):
        raise fail("mode", f'mode {mode!r} is not one of "duel", "battle" and "team"')

    def number(key: str, low: int, high: int) -> int:
        value = doc.get(key, KEYS[key])
        if not numbers.is_whole(value, low, high):
            raise fail(key, f"{key} must be a whole number {low}..{high}, not {value!r}")
        return value

    name = doc.get("name", KEYS["name"])
    if not isinstance(name, str) or not name.strip():
        raise fail("name", "name must be a non-empty string")
    players: list[str] = []
    player_teams: list[str] = []
    if not isinstance(doc.get("player", []), list):
        raise fail("player", "players are [[player]] tables")
    for n, p in enumerate(doc.get("player", [])):
        pname = p.get("name") if isinstance(p, dict) else None
        if not isinstance(pname, str) or not pname.isalnum():
            raise fail("name", "a player needs a name of letters and digits", "player", n)
        if pname.lower() in (q.lower() for q in players):
            raise fail("name", f"player {pname!r} is named twice", "player", n)
        for key in p:
            if key not in ("name", "team"):
                raise fail(key, f"unknown player key {key!r} (known: name, team)", "player", n)
        team = p.get("team")
        if (team is not None) != (mode == "team") or (
            team is not None and not isinstance(team, str)
        ):
            raise fail(
                "team" if team is not None else "name",
                "a player names a team (a string) in team play, and only there",
                "player",
                n,
            )
        players.append(pname)
        player_teams.append(team or pname)
    first = lines.of("player", 0)
    if mode == "duel" and len(players) != 2:
        raise EncounterError(
            f"{filename}:{first}: a duel has two players, not {len(players)}"
            ' (three or four play mode = "battle"; two teams of two, mode = "team")'
        )
    if mode == "battle" and not 3 <= len(players) <= 4:
        raise EncounterError(
            f"{filename}:{first}: a battle has three or four players, not {len(players)}"
        )
    team_names = tuple(dict.fromkeys(player_teams))
    if mode == "team" and (
        len(players) != 4 or len(team_names) != 2 or player_teams.count(team_names[0]) != 2
    ):
        raise EncounterError(f"{filename}:{first}: team play is two teams of two players")
    deck = _deck(doc, text, filename, lines)
    shuffle = doc.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise fail("shuffle", "shuffle must be true or false")
    advanced = doc.get("advanced", False)
    if not isinstance(advanced, bool):
        raise fail("advanced", "advanced must be true or false")
    if advanced and not deck.tasks:
        raise fail("advanced", "the advanced game needs [[task]] cards in the deck")
    flare_timing = doc.get("flare_timing", KEYS["flare_timing"])
    if flare_timing not in FLARE_TIMINGS:
        raise fail(
            "flare_timing",
            f"flare_timing must be {' or '.join(repr(t) for t in FLARE_TIMINGS)},"
            f" not {flare_timing!r}",
        )
    discard_legendary = doc.get("discard_legendary", True)
    if not isinstance(discard_legendary, bool):
        raise fail("discard_legendary", "discard_legendary must be true or false")
    enc = Encounter(
        name=name,
        mode=mode,
        players=tuple(players),
        team_names=team_names,
        team_of=tuple(team_names.index(t) for t in player_teams),
        columns=number("columns", 3, MAX_SIDE),
        rows=number("rows", 3, MAX_SIDE),
        tokens=number("tokens", 1, 40),
        legendary_tokens=number("legendary_tokens", 0, 15),
        actions=number("actions", 1, 7),
        first_turn_actions=number("first_turn_actions", 1, 7),
        creature_hand=number("creature_hand", 0, 9),
        legendary_hand=number("legendary_hand", 0, 9),
        flare_hand=number("flare_hand", 0, 9),
        target=number("target", 1, 999),
        rounds=number("rounds", 1, 999),
        deck=deck,
        shuffle=shuffle,
        advanced=advanced,
        tasks_shown=number("tasks_shown", 1, 9),
        flare_timing=str(flare_timing),
        discard_legendary=discard_legendary,
        source=text,
        path=filename,
    )
    start = _start(doc.get("start", []), enc, lambda what: fail("start", what))
    if start:
        enc = dataclasses.replace(enc, start=start)
    too_big = [
        c.id
        for c in deck.creatures + deck.legendaries
        if max(max(abs(r), abs(col)) for r, col, _ in c.cells + ((0, 0, "*"),))
        >= max(enc.columns, enc.rows)
    ]
    if too_big:
        raise fail("columns", f"card {too_big[0]!r}'s pattern does not fit the grid")
    return enc


def _deck(doc: dict[str, Any], text: str, filename: str, lines: Lines) -> Deck:
    """The deck the encounter plays with: its own card tables, else the bundled deck it
    names (default "standard")."""
    if any(t in doc for t in ("creature", "legendary", "flare", "task")):
        if "deck" in doc:
            raise EncounterError(
                f"{filename}:{lines.of('', 0, 'deck')}: name a bundled deck or give card"
                " tables, not both"
            )
        return deck_from(doc, filename, lines)
    name = doc.get("deck", KEYS["deck"])
    bundled = sorted(p.stem for p in DECKS.glob("*.toml"))
    if name not in bundled:
        known = ", ".join(bundled)
        raise EncounterError(
            f"{filename}:{lines.of('', 0, 'deck')}: no bundled deck {name!r} (known: {known})"
        )
    path = DECKS / f"{name}.toml"
    deck_text = path.read_text()
    return deck_from(read_toml(deck_text, str(path)), str(path), Lines(deck_text))


def deck_from(doc: dict[str, Any], filename: str, lines: Lines) -> Deck:
    creatures: list[Creature] = []
    legendaries: list[Creature] = []
    flares: list[Flare] = []
    tasks: list[cards.Task] = []
    seen: set[str] = set()
    for table in ("creature", "legendary", "flare", "task"):
        entries = doc.get(table, [])
        if not isinstance(entries, list):
            raise EncounterError(f"{filename}:{lines.of('', 0, table)}: use [[{table}]] tables")
        for n, entry in enumerate(entries):
            try:
                card_id = entry.get("id")
                if not isinstance(card_id, str) or not card_id.isidentifier():
                    raise DeckError("a card needs an id: one word of letters, digits and _")
                if card_id.lower() != card_id:
                    raise DeckError(f"card id {card_id!r} must be lower case")
                if card_id in seen:
                    raise DeckError(f"card id {card_id!r} is used twice")
                seen.add(card_id)
                name = entry.get("name", card_id)
                copies = entry.get("copies", 1)
                if not numbers.is_whole(copies, 1, 9):
                    raise DeckError("copies must be 1..9")
                known = {"id", "name", "copies"}
                if table == "task":
                    known |= {"need", "amount", "points"}
                    card: Creature | Flare | cards.Task = _task(entry, card_id, str(name))
                elif table == "flare":
                    known |= {"top", "top_effects", "bottom", "bottom_effects"}
                    card = _flare(entry, card_id, str(name))
                else:
                    known |= {"rank", "pattern", "effects"}
                    card = _creature(entry, card_id, str(name), table == "legendary")
                for key in entry:
                    if key not in known:
                        raise DeckError(f"unknown key {key!r} (known: {', '.join(sorted(known))})")
            except (DeckError, AttributeError) as err:
                why = str(err) if isinstance(err, DeckError) else "a card is a table"
                raise EncounterError(
                    f"{filename}:{lines.of(table, n)}: {table} {n + 1}: {why}"
                ) from None
            piles: dict[str, list[Any]] = {
                "creature": creatures,
                "legendary": legendaries,
                "flare": flares,
                "task": tasks,
            }
            bucket = piles[table]
            bucket.extend([card] * copies)
    if not creatures and not legendaries:
        raise EncounterError(f"{filename}:1: the deck has no creature cards")
    return Deck(tuple(creatures), tuple(legendaries), tuple(flares), tuple(tasks))


def _task(entry: dict[str, Any], card_id: str, name: str) -> cards.Task:
    need = entry.get("need")
    if need not in cards.NEEDS:
        raise DeckError(f"need must be one of {', '.join(cards.NEEDS)}, not {need!r}")
    amount, points = entry.get("amount"), entry.get("points", 1)
    for what, value in (("amount", amount), ("points", points)):
        if not numbers.is_whole(value, 1, 99):
            raise DeckError(f"{what} must be 1..99")
    assert isinstance(amount, int) and isinstance(points, int)
    return cards.Task(card_id, name, str(need), amount, points)


def _creature(entry: dict[str, Any], card_id: str, name: str, legendary: bool) -> Creature:
    rank = cards.rank_of(entry.get("rank", "legendary" if legendary else "common"))
    if legendary != (rank == cards.LEGENDARY):
        raise DeckError("legendary cards summon legendary tokens; creature cards do not")
    pattern = entry.get("pattern")
    effects = entry.get("effects", [])
    if not isinstance(effects, list):
        raise DeckError("effects must be a list of strings")
    return Creature(
        card_id,
        name,
        rank,
        legendary,
        cards.parse_pattern(pattern),
        tuple(cards.parse_effect(e) for e in effects),
        tuple(pattern or ()),
    )


def _flare(entry: dict[str, Any], card_id: str, name: str) -> Flare:
    halves: list[tuple[int | None, tuple[cards.Effect, ...]]] = []
    for half in ("top", "bottom"):
        amount = entry.get(half)
        effects = entry.get(f"{half}_effects", [])
        if amount is not None and not numbers.is_whole(amount, 0, 99):
            raise DeckError(f"{half} must be an amount 0..99")
        if not isinstance(effects, list) or (amount is None and effects):
            raise DeckError(f"{half}_effects is a list, and needs {half} = AMOUNT")
        halves.append((amount, tuple(cards.parse_effect(e) for e in effects)))
    if halves[0][0] is None and halves[1][0] is None:
        raise DeckError("a Flare needs a top or a bottom amount")
    return Flare(card_id, name, halves[0][0], halves[0][1], halves[1][0], halves[1][1])


def _start(
    rows: object, enc: Encounter, fail: Callable[[str], EncounterError]
) -> tuple[tuple[int, int, int, int], ...]:
    """The starting grid: one string per row from the top, a cell per column, separated by
    spaces: `.` empty, or the player's number and c, h or l (`1c`, `2h`, `1l`)."""
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise fail("start is a list of strings, one per row of the grid")
    if len(rows) > enc.rows:
        raise fail(f"start has {len(rows)} rows; the grid has {enc.rows}")
    out = []
    used = [[0, 0] for _ in enc.players]
    for r, row in enumerate(rows):
        cells = row.split()
        if len(cells) != enc.columns:
            raise fail(f"start row {r + 1} has {len(cells)} cells; the grid has {enc.columns}")
        for c, cell in enumerate(cells):
            if cell == ".":
                continue
            if len(cell) != 2 or cell[0] not in "1234"[: len(enc.players)] or cell[1] not in "chl":
                raise fail(f"start row {r + 1}: {cell!r} is not . or a player and c, h or l")
            p, rank = int(cell[0]) - 1, "chl".index(cell[1])
            used[p][rank == cards.LEGENDARY] += 1
            out.append((r, c, p, rank))
    for p, (discs, legends) in enumerate(used):
        if discs > enc.tokens or legends > enc.legendary_tokens:
            raise fail(f"start puts more of {enc.players[p]}'s tokens on the grid than they have")
    return tuple(out)
