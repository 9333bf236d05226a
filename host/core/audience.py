"""Who may see what: the game master's secrets and what each line of the log reveals.

`Secrets` is what the game master keeps from the players (fighters hidden by full name,
how the other teams' health shows, which team is the players'); the session owns it and
journals every change (`secrets` events), so a resume keeps it.

`Line` is a line of the log that carries, from where it was written, what it reveals: the
fighters it names (`about`, by full name), where its numbers about health are (`numbers`,
spans of the text) and its audience ("all", or "gm" for the game master alone: odds). A
line is a `str`, so every place that shows or stores text takes it as it is; `tell`
writes lines so from a game's cast (its fighters' names and board labels) and its
ruleset's health words (`Ruleset.health_words`), and a ruleset may build its own Line
with its own `about`, `numbers` or `players` wording. `for_players` is the one place a
line's players' wording is derived: None for a line they must not see, its `numbers`
masked where the line names a fighter whose health the players see as a word, a bar or
nothing.

Which numbers tell the health (`health_spans`): a name is a name, so a digit inside a
fighter's name or board label is never masked ("Goblin 1"). Of the rest, a ruleset that
declares its health words has masked only its health phrases: the numbers right after a
health word ("HP 15 -> 8", "regains 3 HP: 5 -> 8", "KOR (12/16)", "Stamina 5 -> 0"), a
fraction or change right before one ("5/12 HP"), and, for a phrase written with "#",
the number (or change, or fraction) where its "#" stands ("# left": "(4 left)"). A phrase
whose numbers are all 0 stays: health 0 is "down", which every mode shows. The amounts
of damage and healing stay too ("takes 7 damage", "regains 3 HP", "heals 3 KOR"): the
table sees the dice it rolls, so what a hit did is the table's already; what the game
master keeps is the sheet it lands on (health before and after, the maximum), and an
amount alone tells none of them. A number that would give one away with an amount is a
health phrase of its ruleset (d20's "# damage past": the damage left over past 0, with
the damage dealt, is the health before the hit). A ruleset that declares no health words
(and a line told without its ruleset: the web page's own texts) keeps the old rule: every
number outside the names is masked. (A ruleset could still write a Line with `numbers` of
its own, but a Line kept in a game's state does not survive a checkpoint: plain_data
rebuilds only plain strs.)

`darken` is the board's side: the hidden fighters' slots of a state to send to the board
made dark (the label `-`, no team light, health, counters, marks or cooldowns; out of the
turn's light), and no roll said to be theirs. `blur_health` makes the health the board is
sent of the fighters whose exact health the players do not see what the players' page
shows of it: a word's step, a bar's tenth, or nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

HEALTH_MODES = ("number", "word", "bar", "none")
HEALTH_WORDS = ("down", "bloodied", "hurt", "unhurt")  # worst to best
BAR_STEPS = 10  # a health bar shows tenths
MASK = "…"  # where a players' line leaves out an exact number
DARK_LABEL = "-"  # a hidden fighter's label on the board
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ONE = r"\d+(?:\.\d+)?"
_CHAIN = rf"{_ONE}(?:\s*(?:->|/)\s*{_ONE})*"  # 12, 12/16, 15 -> 8
_CHANGE = rf"{_ONE}(?:\s*(?:->|/)\s*{_ONE})+"  # 12/16, 15 -> 8 (not a lone number)


@dataclass
class Secrets:
    """What the game master keeps from the players: hidden fighters (by full name) and
    how the other teams' health shows."""

    hidden: set[str] = field(default_factory=set)
    health: str = "number"
    players: str | None = None  # the players' team; None: the encounter's first

    def to_json(self) -> dict[str, Any]:
        return {"hidden": sorted(self.hidden), "health": self.health, "players": self.players}

    @classmethod
    def from_json(cls, data: object) -> Secrets:
        """A journalled `secrets` event's payload; the defaults for one of another shape."""
        if not isinstance(data, dict):
            return cls()
        hidden, health, players = data.get("hidden"), data.get("health"), data.get("players")
        if not isinstance(hidden, list) or not all(isinstance(h, str) for h in hidden):
            return cls()
        if health not in HEALTH_MODES or not (players is None or isinstance(players, str)):
            return cls()
        return cls(set(hidden), str(health), players)

    def players_team(self, teams: Sequence[str]) -> str:
        if self.players is not None and self.players in teams:
            return self.players
        return teams[0] if teams else ""

    def exact_for(self, cast: Iterable[tuple[str, str, str]], teams: Sequence[str]) -> set[str]:
        """The fighters (full names) whose exact health the players see."""
        players = self.players_team(teams)
        return {name for name, _, team in cast if self.health == "number" or team == players}


class Line(str):
    """A line of the log with what it reveals (see the module's docstring)."""

    about: frozenset[str]
    numbers: tuple[tuple[int, int], ...]
    audience: str
    players: str | None  # the players' own wording; None: derived from the line
    spans_given: bool  # `numbers` are its writer's (else every number, until told)

    def __new__(
        cls,
        text: str,
        about: Iterable[str] = (),
        numbers: Iterable[tuple[int, int]] | None = None,
        audience: str = "all",
        players: str | None = None,
    ) -> Line:
        line = super().__new__(cls, text)
        line.about = frozenset(about)
        spans = numbers if numbers is not None else (m.span() for m in _NUMBER.finditer(text))
        line.numbers = tuple(spans)
        line.audience = audience
        line.players = players
        line.spans_given = numbers is not None
        return line

    def for_players(self, hidden: set[str], exact: set[str]) -> str | None:
        """The line as the players may read it, or None."""
        if self.audience != "all" or self.about & hidden:
            return None
        if self.players is not None:
            return self.players
        if not self.numbers or self.about <= exact:
            return str(self)
        out, at = [], 0
        for start, end in self.numbers:
            out += [self[at:start], MASK]
            at = end
        return "".join(out) + self[at:]


@functools.lru_cache(maxsize=64)
def _phrases(words: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The health phrases of `words` (`Ruleset.health_words`), each pattern's group 1 the
    numbers of one phrase."""
    found = []
    for entry in words:
        if "#" in entry:  # a phrase, "#" where its health stands: "# left", "): #"
            before, after = (re.escape(part).replace("\\ ", "\\s*") for part in entry.split("#", 1))
            edge = r"(?<!\w)" if entry[0].isalnum() else ""
            end = r"(?!\w)" if entry[-1].isalnum() else ""
            found.append(re.compile(rf"{edge}{before}(?<![\w.])({_CHAIN})(?![\w.]){after}{end}"))
            continue
        word = re.escape(entry)
        found.append(re.compile(rf"(?<!\w){word}(?!\w):?\s*\(?\s*({_CHAIN})"))
        found.append(re.compile(rf"(?<![\w.])({_CHANGE})\s*{word}(?!\w)"))
    return tuple(found)


def health_spans(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """The spans of `text`'s numbers that tell a fighter's health, by a ruleset's health
    words (see the module's docstring; names are not left out here: `tell` does it)."""
    spans: set[tuple[int, int]] = set()
    for pattern in _phrases(tuple(words)):
        for phrase in pattern.finditer(text):
            start = phrase.start(1)
            numbers = list(_NUMBER.finditer(phrase.group(1)))
            if all(float(m.group()) == 0 for m in numbers):
                continue  # health 0 is "down": every mode shows it
            spans.update((start + m.start(), start + m.end()) for m in numbers)
    return sorted(spans)


def health_word(health: int, most: int) -> str:
    """Health as the players read it when the game master shows it as a word."""
    if health <= 0:
        return "down"
    if health >= most:
        return "unhurt"
    return "hurt" if health * 2 > most else "bloodied"


Cast = list[tuple[str, str, str]]  # (full name, board label, team) of each fighter


def cast_of(ruleset: Any, game: Any) -> Cast:
    """The fighters' names and board labels (by slot: cheaper than Ruleset.fighters); the
    teams are left out ("") as telling a line does not need them. A fighter past the
    board's slots (host/core/kit.py `fill_slots`) has a name and no label."""
    state = ruleset.state(game)
    names = ruleset.fighter_names(game)
    return [
        (name, state.slots[i].label if i < state.count else "", "") for i, name in enumerate(names)
    ]


def _names(text: str, cast: Cast) -> set[str]:
    found = set()
    for name, label, _ in cast:
        for word in (name, label):
            if word and _word(word).search(text):
                found.add(name)
                break
    return found


@functools.lru_cache(maxsize=1024)
def _word(word: str) -> re.Pattern[str]:
    """A fighter's name or label as a whole word, any case: compiled once (every line
    told, and every view of the web pages, looks for each fighter's)."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


def _name_spans(text: str, cast: Cast) -> list[tuple[int, int]]:
    return [
        m.span()
        for name, label, _ in cast
        for word in (name, label)
        if word
        for m in _word(word).finditer(text)
    ]


def _told(line: str, cast: Cast, audience: str = "all", words: Sequence[str] = ()) -> Line:
    if isinstance(line, Line) and line.spans_given:
        if _narrowed(line.audience, audience) != line.audience:
            return Line(line, line.about, line.numbers, audience, line.players)
        return line
    if words:
        spans = health_spans(line, words)
    else:
        spans = [m.span() for m in _NUMBER.finditer(line)]
    names = _name_spans(line, cast) if spans else []  # a name is a name: "Goblin 1"
    numbers = [(a, b) for a, b in spans if not any(a < end and start < b for start, end in names)]
    if isinstance(line, Line):  # its writer's about, audience and wording
        return Line(line, line.about, numbers, _narrowed(line.audience, audience), line.players)
    return Line(line, _names(line, cast), numbers, audience)


def _narrowed(was: str, audience: str) -> str:
    return audience if audience != "all" and was == "all" else was


def tell(
    lines: Iterable[str], cast: Cast, audience: str = "all", health_words: Sequence[str] = ()
) -> list[str]:
    """`lines` as Lines: the fighters of `cast` each names, its numbers that tell health
    (by `health_words`, the ruleset's; none given: every number outside the names), for
    `audience` (a line already a Line keeps what its writer said of it; "gm" makes it the
    game master's alone)."""
    return [_told(line, cast, audience, health_words) for line in lines]


def named(line: str, cast: Cast) -> frozenset[str]:
    """The fighters a line names."""
    return _told(line, cast).about


def for_players(
    lines: Iterable[str], cast: Cast, secrets: Secrets, teams: Sequence[str]
) -> list[str]:
    """The players' wording of each of `lines` they may see (a plain str is told first)."""
    exact = secrets.exact_for(cast, teams)
    said = (_told(line, cast).for_players(secrets.hidden, exact) for line in lines)
    return [line for line in said if line is not None]


def darken(state: Any, slots: set[int]) -> None:
    """Make `slots` of a board state (shared.state.GameState) dark: what the board shows of
    a hidden fighter is an empty place out of the turn order's light."""
    from shared.limits import NO_SLOT
    from shared.state import F_OUT

    for i in slots:
        if not 0 <= i < state.count:
            continue
        slot = state.slots[i]
        team = slot.team
        slot.clear()
        # Only its place: the board's state wants a label and a team it has.
        slot.label = DARK_LABEL
        slot.team = team
        slot.flags = F_OUT
    if state.roll.who in slots:
        state.roll.clear()
    if state.want.who in slots:
        state.want.who = NO_SLOT


def blur_health(state: Any, slots: set[int], mode: str) -> None:
    """Make the health of `slots` of a board state what the players' page shows of it in
    `mode` (HEALTH_MODES): the word's step of HEALTH_WORDS (out of 3), the bar's tenth (out
    of 10), or no health at all. The board is the players' to see, and a snapshot carries
    each slot's health whether or not a page draws it."""
    for i in slots:
        if not 0 <= i < state.count:
            continue
        slot = state.slots[i]
        health, most = slot.health, slot.health_max
        if not most or mode == "number":
            continue
        if mode == "word":
            slot.health = HEALTH_WORDS.index(health_word(health, most))
            slot.health_max = len(HEALTH_WORDS) - 1
        elif mode == "bar":
            slot.health = round(BAR_STEPS * max(0, min(health, most)) / most)
            slot.health_max = BAR_STEPS
        else:
            slot.health = slot.health_max = 0
