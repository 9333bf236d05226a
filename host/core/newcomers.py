"""Fighters who join a fight under way and fighters who leave it (`add`, `remove`), read the
same way in every ruleset; how a newcomer enters the turn order is each ruleset's.

A newcomer is a fighter's table as the ruleset's encounter file writes it: typed at the
prompt as `key=value` options (`add Gorm team=Dusk kor=12 agility=3`), or a `[[template]]`
of the file (`add goblin`, `add goblin as Snik`, its keys overridden by any typed after),
or, in a game with a book of stat lines (a `Book`: d20's bestiary), an entry of the book
(`add 3 goblin`: `counted` reads the count, `numbered` names each).
It is read by the ruleset's own encounter reader: the file, with every fighter who has
joined so far and the newcomer put among its fighters, is written back as TOML and parsed
again (host/core/encounter_files.py), so a stat line is checked by the same code, and its
errors read the same, as the file's fighters. The game keeps each newcomer's table (plain
data) so that the next one is read among them.

What a ruleset declares is its `Roster`: the table its fighters are written in, the key
that names a fighter's team (or, for a game whose teams each have a table, those tables),
and the keys a fighter's table takes. `add_verb` and REMOVE_VERB are the two verbs'
grammars; `complete` their completions; `typed_value` reads a typed `key=value` (also
`campaign adjust`'s).

What every ruleset's `remove` owes, past `read_leaver`: nothing waits for the leaver after
it, neither a step or roll of it still to come (it closes) nor a turn that nobody is left
to play (it passes at once). This module holds no turn or step of any game, so each
ruleset keeps that promise in its own terms (host/rulesets/<id>/comings.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from host.core import numbers
from host.core.commandline import Command, Option, Verb
from host.core.encounter_files import (
    MAX_NESTING,
    TEMPLATE,
    nesting,
    read_toml,
    templates_of,
    write_toml,
)
from host.core.errors import EncounterError, IllegalAction
from shared.limits import MAX_SLOTS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Why a fighter leaves (`remove NAME WHY`): any one word; these are offered.
REASONS = ("fled", "dismissed", "left", "captured", "slain")
DEFAULT_REASON = "left"

# The fighters a fight may hold in every game (entries in the order: a group that takes
# its turn together is one), those in the encounter file, the newcomers and those who left
# included; a game whose rules allow fewer says so in docs/rulesets/<id>.md. The board has
# MAX_SLOTS slots: the first to come have them (host/core/kit.py `fill_slots`); the rest
# play on the screens only (`Ruleset.off_board`) until a board with more slots shows them.
MOST_FIGHTERS = 24

REMOVE_VERB = Verb(
    "NAME [WHY]",
    "NAME leaves the fight (WHY: fled, dismissed, ...): out of the order, kept in the scores",
)


@dataclass(frozen=True)
class Roster:
    """How a ruleset's encounter file writes a fighter. `table`: the array of tables its
    fighters are in; `team_key`: the key of that table naming the fighter's team (or
    player, or side); `keys`: every key a fighter's table takes. A game whose teams each
    have a table of their own (advance's adventurers and enemies) names them in
    `team_tables`, in the teams' order, and its newcomers name their team with `team=`."""

    table: str
    team_key: str
    keys: tuple[str, ...]
    team_tables: tuple[str, ...] = ()
    team_word: str = "team"  # what the team key's values are called in an error

    @property
    def option_keys(self) -> tuple[str, ...]:
        """The options `add` takes: the team's key, then the fighter's other keys."""
        team = self.team_key or "team"
        return (team, *(k for k in self.keys if k not in ("name", team)))

    def tables(self) -> tuple[str, ...]:
        return self.team_tables or (self.table,)


@dataclass(frozen=True)
class Book:
    """A ruleset's book of stat lines that `add` may name as it names a template. `find`:
    a word's entry as the fighter's table (its keys, the team's among them: a template's
    stand-in), or None; `unknown`: the one line that refuses a word not in it, naming the
    closest entry."""

    find: Callable[[str], dict[str, Any] | None]
    unknown: Callable[[str], str]
    what: str = "book"


def add_verb(roster: Roster, game_words: str = "", book: str = "") -> Verb:
    """`add`'s grammar for a ruleset: a template or a new name, and the fighter's keys;
    with a `book` (what its book of stat lines is called), a count first and an entry of
    the book of one or several words."""
    if not book:
        return Verb(
            "NAME|TEMPLATE [as] [NAME]",
            "a fighter joins the fight: a [[template]] of the encounter (as NAME) or a stat"
            f" line of its keys{game_words}",
            tuple(Option(key, key.upper()) for key in roster.option_keys),
        )
    return Verb(
        "[N] NAME|TEMPLATE|ENTRY [as] [NAME ...]",
        f"fighters join the fight: N of an entry of the {book} or a [[template]] (as"
        f" NAME), or a stat line of its keys{game_words}",
        tuple(Option(key, key.upper()) for key in roster.option_keys),
    )


def counted(args: Sequence[str]) -> tuple[int, str, str]:
    """(N, what, name) of `add [N] WHAT ... [as NAME ...]`: N (1 when not given), the
    words naming the entry or template, and the name after `as` ("" when none)."""
    words = list(args)
    n = 1
    if len(words) > 1 and numbers.whole_or_none(words[0]) is not None:
        n = numbers.whole(words.pop(0))
    lowered = [w.lower() for w in words]
    if "as" in lowered[1:]:
        at = lowered.index("as", 1)
        return n, " ".join(words[:at]), " ".join(words[at + 1 :])
    return n, " ".join(words), ""


def numbered(base: str, n: int, taken: Collection[str]) -> list[tuple[str, str]]:
    """(name, label) for each of `n` newcomers of one entry: `base` alone for one, else
    `base 1`.. numbered past those taken, each label two letters and its number."""
    if n == 1:
        return [(base, "")]
    lowered = {t.lower() for t in taken}
    out: list[tuple[str, str]] = []
    k = 0
    while len(out) < n:
        k += 1
        name = f"{base} {k}"
        label = (base[: 3 - len(str(k))] or base[:1]).upper() + str(k)
        if name.lower() not in lowered and label.lower() not in lowered:
            out.append((name, label))
    return out


def help_note(roster: Roster) -> str:
    """The line `help` adds for `add`: the keys its stat line takes."""
    return "add keys (as in the encounter file): " + " ".join(k + "=" for k in roster.option_keys)


@dataclass(frozen=True)
class Newcomer:
    """A fighter who joins: its table as the file would write it, the table it goes in,
    and the encounter read again with it among the fighters (the ruleset's Encounter)."""

    name: str
    table: str
    fields: dict[str, Any]
    encounter: Any

    def pick(self, fighters: Sequence[Any]) -> Any:
        """The newcomer among the read encounter's fighters (each with a `name`)."""
        return next(f for f in fighters if f.name == self.name)


def read_past_the_board(
    cmd: Command,
    source: str,
    roster: Roster,
    teams: Sequence[str],
    specs: Sequence[Any],
    joined: Sequence[tuple[str, dict[str, Any]]],
    parse: Callable[[str, str, int], Any],
) -> Newcomer:
    """`read_newcomer` for a fight that may hold MOST_FIGHTERS, newcomers past the board's
    slots among them (the ruleset kit's: advance, forms and stones read theirs so). A
    ruleset fills `specs`, every fighter's spec (each with a `name` and a `label`), and
    `parse(text, filename, most)`, its encounter reader taking up to `most` fighters."""
    return read_newcomer(
        cmd,
        source,
        roster,
        teams,
        [s.name for s in specs] + [s.label for s in specs],
        joined,
        lambda text, name: parse(text, name, MOST_FIGHTERS),
        MOST_FIGHTERS,
    )


def read_newcomer(
    cmd: Command,
    source: str,
    roster: Roster,
    teams: Sequence[str],
    taken: Collection[str],
    joined: Sequence[tuple[str, dict[str, Any]]],
    parse: Callable[[str, str], Any],
    most: int = MOST_FIGHTERS,
    book: Book | None = None,
) -> Newcomer:
    """The newcomer `cmd` (`add ...`) names, read by `parse` (the ruleset's encounter
    reader) among the file's fighters (`source`) and those who joined before (`joined`:
    (table, fields) each, in order). `teams`: the values the team key takes; `taken`: the
    names and labels of every fighter in the game, gone or not. Refused in one line
    (IllegalAction), changing nothing. `most`: the fighters (entries: the file's fighter
    tables) the fight may hold; `parse` must take as many. `book`: where a name that is no
    template is looked up (keys typed after it override its entry's)."""
    templates = {t["name"].lower(): t for t in templates_of(source)}
    known_templates = ", ".join(t["name"] for t in templates.values()) or "none in this encounter"
    args = cmd.args
    if len(args) == 3 and args[1].lower() == "as":
        template = templates.get(args[0].lower())
        if template is None and book is not None:
            template = book.find(args[0])
            if template is None:
                raise IllegalAction("add: " + book.unknown(args[0]))
        if template is None:
            raise IllegalAction(f"add: no template {args[0]!r} (templates: {known_templates})")
        name = args[2]
    elif len(args) == 1:
        template = templates.get(args[0].lower())
        if template is None and book is not None:
            template = book.find(args[0])
            if template is None and not cmd.opts:
                raise IllegalAction("add: " + book.unknown(args[0]))
        name = template["name"] if template is not None else args[0]
        if template is None and not cmd.opts:
            raise IllegalAction(
                f"add: {args[0]!r} is no template (templates: {known_templates}) and no stat"
                f" line follows (keys: {', '.join(k + '=' for k in roster.option_keys)})"
            )
    else:
        raise IllegalAction("add: write `add NAME key=value ...` or `add TEMPLATE [as NAME]`")
    if name.lower() in {t.lower() for t in taken}:
        raise IllegalAction(
            f"add: {name!r} is already a fighter's name or label in this fight"
            " (another: add TEMPLATE as NAME)"
        )
    doc = read_toml(source, "<encounter>")
    doc.pop(TEMPLATE, None)
    for table, fields in joined:
        doc.setdefault(table, []).append(dict(fields))
    # A template joining under a name of its own takes no label of the template's: the
    # ruleset makes one of the name (two of a template would share it otherwise).
    dropped = ("name", "label") if len(args) == 3 else ("name",)
    fields = {k: v for k, v in (template or {}).items() if k not in dropped}
    fields["name"] = name
    like = _kinds(doc, roster, template)
    for key, text in cmd.opts.items():
        fields[key] = typed_value(key, text, like.get(key))
    team_key = roster.team_key or "team"
    team = fields.pop(team_key, None) if roster.team_tables else fields.get(team_key)
    if team is None:
        raise IllegalAction(
            f"add: {name}'s {roster.team_word} is missing: {team_key}=, one of {', '.join(teams)}"
        )
    picked = next((t for t in teams if t.lower() == str(team).lower()), None)
    if picked is None:
        raise IllegalAction(
            f"add: no {roster.team_word} {team!r} ({roster.team_word}s: {', '.join(teams)})"
        )
    table = roster.table
    if roster.team_tables:
        table = roster.team_tables[list(teams).index(picked)]
    else:
        fields[team_key] = picked
    everyone = sum(len(doc.get(t, ())) for t in roster.tables())
    if everyone >= most:
        raise IllegalAction(
            f"add: a fight holds at most {most} fighters ({everyone} fighters,"
            f" those who left among them): {name} cannot join"
        )
    doc.setdefault(table, []).append(fields)
    try:
        encounter = parse(write_toml(doc), "add")
    except EncounterError as err:
        raise IllegalAction("add: " + str(err).split(": ", 1)[-1]) from None
    return Newcomer(name, table, fields, encounter)


def on_the_board(index: int) -> bool:
    """Whether the fighter at `index` (in the order fighters came) has a board slot: the
    first MAX_SLOTS do; a newcomer past them is on the screens only."""
    return index < MAX_SLOTS


def off_the_board(name: str) -> str:
    """What the log says of a newcomer with no board slot."""
    return (
        f"{name} has no slot on the board (its {MAX_SLOTS} are taken): it plays on the screens only"
    )


def _kinds(doc: dict[str, Any], roster: Roster, template: dict | None) -> dict[str, Any]:
    """A value of each key as the file writes it (its fighters', its template's): a value
    typed for a key the file writes as a list is read as a list (`elements=fire,ice`)."""
    like: dict[str, Any] = {}
    for table in roster.tables():
        for fighter in doc.get(table, ()):
            if isinstance(fighter, dict):
                for key, value in fighter.items():
                    like.setdefault(key, value)
    for key, value in (template or {}).items():
        like.setdefault(key, value)
    return like


def typed_value(key: str, text: str, like: Any = None, verb: str = "add") -> Any:
    """A value typed as `key=value` (at the prompt by `add`, on the command line by
    `turnlight campaign adjust`), read as an encounter file writes it: as TOML reads it
    (`3`, `true`, `["a", "b"]`), else as text; a list where `like` (the value the file
    writes for `key`, None when unknown) is a list (comma-separated words), text where it is
    text. The ruleset's encounter reader then checks it as it checks the file's. A value
    nested deeper than an encounter file may nest is refused before it is read, in one line
    (IllegalAction) that starts with `verb`."""
    if nesting(text) > MAX_NESTING:
        raise IllegalAction(f"{verb}: {key}= nests arrays and tables more than {MAX_NESTING} deep")
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError):
        value = text
    if isinstance(like, list) and not isinstance(value, list):
        return [word.strip() for word in text.split(",") if word.strip()]
    if isinstance(like, str) and not isinstance(value, str):
        return text
    return value


def read_leaver(cmd: Command, find: Callable[[str], str], gone: dict[str, str]) -> tuple[str, str]:
    """(name, why) of `remove NAME [WHY]`: `find` gives the full name of a fighter named
    (its own one-line refusal for a name it does not know); one already gone is refused."""
    name = find(cmd.arg(0, "the fighter who leaves"))
    if name in gone:
        raise IllegalAction(f"remove: {name} has already left the fight ({gone[name]})")
    why = cmd.args[1] if len(cmd.args) > 1 else DEFAULT_REASON
    return name, why


def complete(
    words: list[str],
    source: str,
    roster: Roster,
    present: Sequence[str],
    teams: Sequence[str] = (),
) -> list[str] | None:
    """Completions of `add` (its templates, then the keys not yet given, and after the
    team's key the values it takes: `teams`) and `remove` (the fighters still in the
    fight, then the reasons); None for a line of another verb."""
    if words[0] == "add":
        if len(words) == 2:
            return [t["name"] for t in templates_of(source)]
        team = (roster.team_key or "team") + "="
        if words[-1].lower().startswith(team) and teams:
            return [team + (f'"{t}"' if " " in t else t) for t in teams]
        given = {w.split("=", 1)[0].lower() for w in words[2:-1] if "=" in w}
        keys = [k + "=" for k in roster.option_keys if k.lower() not in given]
        return ["as", *keys] if len(words) == 3 else keys
    if words[0] == "remove":
        if len(words) == 2:
            return list(present)
        if len(words) == 3:
            return list(REASONS)
        return []
    return None
