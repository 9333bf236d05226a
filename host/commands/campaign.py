"""`turnlight campaign`: a party that plays fight after fight (host/core/campaign.py):
new, list, show, rest, adjust, join, leave and stats. `turnlight play --campaign NAME`
plays its next fight. docs/campaign.md is the guide."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from host.commands._game_args import add_db

if TYPE_CHECKING:
    from host.core.campaign import Book
    from host.core.campaign import State as CampaignState
    from host.core.journal import Journal
    from host.core.session import Session


class Refused(Exception):
    """`play --campaign` refused: its one line."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "campaign",
        help="a party that plays fight after fight: new, list, show, rest, adjust, join, leave,"
        " stats",
        description="A campaign keeps a party from fight to fight: `turnlight play --campaign"
        " NAME --encounter FILE` plays its next fight with the party as it last stood. Its"
        " state is what its fights' journals say (docs/campaign.md).",
    )
    verbs = p.add_subparsers(dest="verb", required=True, metavar="VERB")

    new = verbs.add_parser("new", help="start a campaign with a party file")
    new.add_argument("name", metavar="NAME", help="the campaign's name (letters, digits, - _)")
    new.add_argument("--ruleset", required=True, metavar="ID", help="the game (d20, korxsol, ...)")
    new.add_argument(
        "--party",
        required=True,
        metavar="FILE",
        help="the party's stat lines, written as the ruleset's encounter file writes its"
        " fighters (docs/campaign.md)",
    )
    add_db(new)
    new.set_defaults(run=run_new)

    listed = verbs.add_parser("list", help="the campaigns in the journal")
    add_db(listed)
    listed.set_defaults(run=run_list)

    show = verbs.add_parser("show", help="a campaign's party as it stands, and its fights")
    show.add_argument("name", metavar="NAME", help="the campaign")
    add_db(show)
    show.set_defaults(run=run_show)

    rest = verbs.add_parser("rest", help="the party rests between fights (d20: short or long)")
    rest.add_argument("name", metavar="NAME", help="the campaign")
    rest.add_argument("kind", metavar="KIND", help="the ruleset's rest: d20's short or long")
    rest.add_argument(
        "--heal",
        action="append",
        default=[],
        metavar="NAME=N",
        help="a short rest: the hit points NAME's spent hit dice give back (repeat for each)",
    )
    add_db(rest)
    rest.set_defaults(run=run_rest)

    adjust = verbs.add_parser("adjust", help="set what the table decides on a character")
    adjust.add_argument("name", metavar="NAME", help="the campaign")
    adjust.add_argument("who", metavar="CHARACTER", help="the party's character")
    adjust.add_argument(
        "values", nargs="+", metavar="KEY=VALUE", help="a stat-line or carried key (hp_now=12)"
    )
    add_db(adjust)
    adjust.set_defaults(run=run_adjust)

    join = verbs.add_parser("join", help="characters from a party file join the party")
    join.add_argument("name", metavar="NAME", help="the campaign")
    join.add_argument("--party", required=True, metavar="FILE", help="their stat lines")
    add_db(join)
    join.set_defaults(run=run_join)

    leave = verbs.add_parser("leave", help="a character leaves the party")
    leave.add_argument("name", metavar="NAME", help="the campaign")
    leave.add_argument("who", metavar="CHARACTER", help="the party's character")
    add_db(leave)
    leave.set_defaults(run=run_leave)

    stats = verbs.add_parser("stats", help="each character's scores over all its fights")
    stats.add_argument("name", metavar="NAME", help="the campaign")
    stats.add_argument("--csv", action="store_true", help="write CSV (a row per character)")
    stats.add_argument(
        "--chart",
        metavar="PREFIX",
        help="also write each fight's chart as PREFIX-N.png (as `export --format png`)",
    )
    add_db(stats)
    stats.set_defaults(run=run_stats)


def _book(args: argparse.Namespace, write: bool = True) -> Book | None:
    from host.core.campaign import Book
    from host.core.journal import Journal, default_path

    path = args.db or default_path()
    if not write and not Path(path).is_file():
        print(f"turnlight: no journal at {path}: no campaign has been made there", file=sys.stderr)
        return None
    return Book(Journal(path, write=write))


def _failing(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command whose CampaignError is its one line, exit status 2."""

    def wrapped(args: argparse.Namespace) -> int:
        from host.commands._errors import fail
        from host.core.campaign import CampaignError

        try:
            return int(run(args) or 0)
        except CampaignError as err:
            return fail(str(err))

    return wrapped


@_failing
def run_new(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.core import registry
    from host.core.campaign import check_name, party_lines, party_text

    check_name(args.name)
    try:
        registry.get(args.ruleset)
    except registry.UnknownRuleset as err:
        return fail(str(err))
    text = party_text(args.party)
    party_lines(args.ruleset, text, args.party)  # (refused before a journal is made)
    book = _book(args)
    assert book is not None
    lines = book.new(args.name, args.ruleset, args.party, text)
    names = ", ".join(str(line["name"]) for line in lines)
    print(f"campaign {args.name} ({args.ruleset}): {names}")
    foes = '--monsters "N NAME, ..."' if registry.get(args.ruleset).has_bestiary else ""
    print(f"next: turnlight play --campaign {_quoted(args.name)} {foes or '--encounter FILE'}")
    return 0


def _quoted(name: str) -> str:
    import shlex

    return shlex.quote(name)


@_failing
def run_list(args: argparse.Namespace) -> int:
    book = _book(args, write=False)
    if book is None:
        return 2
    rows = book.names()
    if not rows:
        print("no campaign yet: turnlight campaign new NAME --ruleset ID --party FILE")
        return 0
    for row in rows:
        print(
            f"{row['name']}  {row['ruleset']}  {row['fights']} fights  since {row['created'][:10]}"
        )
    return 0


@_failing
def run_show(args: argparse.Namespace) -> int:
    book = _book(args, write=False)
    if book is None:
        return 2
    state = book.state(args.name)
    print(f"campaign {state.name} ({state.ruleset}): carries {state.carry.what}")
    for name, line in state.party.items():
        shown = " ".join(f"{k}={_value(line[k])}" for k in state.carry.keys if k in line)
        dead = " (dead)" if state.carry.dead(line) else ""
        print(f"  {name}{dead}: {shown or 'as the party file says'}")
    for said in state.history[1:]:
        print(f"  {said}")
    fight = state.under_way()
    if fight is not None:
        print(f"fight under way: turnlight play --resume {fight.game}")
    return 0


def _value(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@_failing
def run_rest(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.core import numbers

    heal: dict[str, int] = {}
    for item in args.heal:
        who, sep, amount = item.partition("=")
        if not sep or not who:
            return fail(f"--heal {item}: write --heal NAME=N (the hit points NAME regains)")
        try:
            heal[who] = numbers.whole(amount)
        except numbers.NotANumber as err:
            return fail(f"--heal {item}: {err}")
    book = _book(args)
    assert book is not None
    state = book.state(args.name)
    names = {n.lower(): n for n in state.party}
    heal = {names.get(k.lower(), k): v for k, v in heal.items()}
    for line in book.rest(args.name, args.kind, heal):
        print(line)
    return 0


@_failing
def run_adjust(args: argparse.Namespace) -> int:
    from host.commands._errors import fail

    typed = {}
    for item in args.values:
        key, sep, text = item.partition("=")
        if not sep or not key:
            return fail(f"adjust: {item!r}: write KEY=VALUE (hp_now=12, dead=false)")
        typed[key] = text
    book = _book(args)
    assert book is not None
    print(book.adjust(args.name, args.who, typed))
    return 0


@_failing
def run_join(args: argparse.Namespace) -> int:
    from host.core.campaign import party_text

    text = party_text(args.party)
    book = _book(args)
    assert book is not None
    joined = book.join(args.name, args.party, text)
    print(f"{', '.join(joined)} joined campaign {args.name}")
    return 0


@_failing
def run_leave(args: argparse.Namespace) -> int:
    book = _book(args)
    assert book is not None
    print(f"{book.leave(args.name, args.who)} left campaign {args.name}")
    return 0


@_failing
def run_stats(args: argparse.Namespace) -> int:
    from host.core.campaign_stats import table, table_csv

    book = _book(args, write=False)
    if book is None:
        return 2
    state = book.state(args.name, with_timelines=bool(args.chart))
    headers, rows = table(state)
    if args.csv:
        sys.stdout.write(table_csv(headers, rows))
    else:
        from host.core.interface import Table
        from host.screens.text_tables import fitted_table

        title = f"campaign {state.name}: {len(state.fights)} fights"
        cells = [[str(c) for c in row] for row in rows]
        print(fitted_table(title, Table(headers, cells)))
    if args.chart:
        from host.commands._errors import cannot_write

        try:
            for path in write_charts(state, args.chart):
                print(f"wrote {path}", file=sys.stderr)
        except OSError as err:  # no such folder, no permission, a full disk
            return cannot_write(args.chart, err)
    return 0


class Held:
    """The campaign a `play` session holds (one session at a time), let go at its end."""

    def __init__(self, book: Book, name: str) -> None:
        self.book, self.name = book, name

    def release(self) -> None:
        self.book.release(self.name)


def hold_campaign(args: argparse.Namespace, journal: Journal) -> Held | None:
    """For `play`: the campaign its game belongs to, held (--campaign's, or the campaign
    whose fight --resume continues); None for a game of no campaign; Refused (one line)
    when another session holds it."""
    from host.core.campaign import Book, CampaignError, check_name

    name = args.campaign
    try:
        book = Book(journal)
        if name is None:
            if args.resume is None:
                return None
            game_id = args.resume or book.journal.latest_game()
            name = book.fight_of(game_id) if game_id else None
            if name is None:
                return None
        elif args.resume is not None:
            raise CampaignError(
                "--campaign and --resume: a campaign's fight is resumed by its game"
                " (`turnlight play --resume GAME`; `turnlight campaign show NAME` names it)"
            )
        else:
            check_name(name)
            book.row(name)
        book.hold(name)
    except CampaignError as err:
        raise Refused(str(err)) from None
    return Held(book, name)


def campaign_fight(args: argparse.Namespace, journal: Journal) -> Session:
    """For `play --campaign NAME`: the session of the campaign's next fight, its game and
    the campaign's `fight` event written in one transaction; Refused (one line) else."""
    from host.commands._game_args import game_seed
    from host.core.campaign import Book, CampaignError
    from host.core.session import Session

    monsters = getattr(args, "monsters", None)
    if args.encounter is None and monsters is None:
        raise Refused(
            '--campaign needs --monsters "N NAME, ..." (the foes from the ruleset\'s book) or'
            " --encounter FILE (the fight's other side; the encounter's first team is the"
            " party's)"
        )
    book = Book(journal)
    try:
        row = book.row(args.campaign)
        if args.ruleset is not None and args.ruleset != row["ruleset"]:
            raise Refused(
                f"--ruleset {args.ruleset}: campaign {args.campaign} plays {row['ruleset']}"
            )
        state, encounter = book.start_fight(args.campaign, args.encounter, monsters)
    except CampaignError as err:
        raise Refused(str(err)) from None
    seed = game_seed(args)
    with book.journal.transaction():
        session = Session(encounter, seed, book.journal)
        said = {"game": session.game_id, "encounter": str(args.encounter or "")}
        if monsters is not None:
            said["monsters"] = monsters
        book.append(args.campaign, "fight", said)
    alive = ", ".join(state.alive())
    print(
        f"campaign {args.campaign}: fight {len(state.fights) + 1}, {alive} as they last stood",
        file=sys.stderr,
    )
    return session


def write_charts(state: CampaignState, prefix: str) -> list[Path]:
    """Each fight's chart over its turns, PREFIX-N.png (N: the fight's number)."""
    from host.core import outfile
    from host.screens.chart import write_chart

    written = []
    for n, fight in enumerate(state.fights, 1):
        if not fight.panels:
            continue
        path = Path(f"{prefix}-{n}.png")
        title = f"campaign {state.name}, fight {n} (game {fight.game})"
        timeline, panels = fight.timeline, fight.panels

        def draw(
            to: Path, timeline: list = timeline, panels: tuple = panels, t: str = title
        ) -> None:
            write_chart(timeline, panels, to, t)

        outfile.write_with(path, draw, ".png")
        written.append(path)
    return written
