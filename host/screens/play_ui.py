"""The game master's interactive session, for any ruleset: a prompt_toolkit prompt with
completion and a rich live view redrawn after every command, and (tethered) as the board's
presses arrive (the ruleset's headline and its table of whoever takes turns, the log with
what the board did or why the rules refused it, the dice, odds where the game has them, and
scores).

The UI takes its input and output as arguments, so tests drive it headlessly with a pipe
input and a string console.
"""

from __future__ import annotations

import dataclasses
import io
import re
import threading
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from typing import TypeVar

from prompt_toolkit import PromptSession
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.patch_stdout import patch_stdout
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from host.board.tether import Tether
from host.core import effects
from host.core.audience import Line
from host.core.commandline import MAX_LINE
from host.core.interface import IllegalAction, LiveTable
from host.core.interface import Table as RulesetTable
from host.core.names import printable
from host.core.plurals import plural
from host.core.session import Session
from host.core.verb_choices import acting_all, completions, offers
from host.screens import text_tables

T = TypeVar("T")

UI_VERBS = {
    "help": "list the commands, or `help VERB [NAME]` for one, with what the acting fighter"
    " (or NAME) may use with it",
    "url": "what start-up printed: the journal and the seed, the board, and with --web the"
    " pages' addresses and the console's QR code",
    "scores": "this game's full score table (the live view shows each team's score)",
    "table": "the score table across this session's games",
    "quit": "leave, as Ctrl-D does (the journal already holds everything)",
}
LEAVE_HINT = "Ctrl-C clears the line; Ctrl-D or `quit` ends the session"
MIN_LOG_LINES, MAX_LOG_LINES = 2, 12  # the live view's log: what a terminal has room for
ROSTER_MIN_LINES = 3  # its header, the row whose turn it is and the line saying what is left
TURN_MARK = "> "  # before the roster's row of whoever's turn it is
REFUSED_BY_THE_BOARD = "board: refused: "  # host/board/tether.py's line for a refused press
BOARD_ECHO_SECONDS = 0.2  # how often the prompt looks for board presses to show


class CommandCompleter(Completer):
    """Completes verbs, then whatever the ruleset offers for the words after a verb (names,
    moves, options, ...)."""

    def __init__(self, ui: PlayUI):
        self.ui = ui

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        if text.endswith(" ") or not words:
            words.append("")
        current = words[-1]
        session = self.ui.session
        language = session.ruleset.language
        candidates: list[str]
        if len(words) == 1:
            verbs = [v for v in language.session_verbs if " " not in v]
            candidates = list(language.verbs) + verbs + list(UI_VERBS)
        else:
            found = offers(session.ruleset, session.game, words)
            for o in found:  # what can be used now first, the rest with its reason
                if o.name.strip('"').lower().startswith(current.lstrip('"').lower()):
                    yield Completion(o.name, start_position=-len(current), display_meta=o.reason)
            return
        for c in candidates:
            if c.strip('"').lower().startswith(current.lstrip('"').lower()):
                yield Completion(c, start_position=-len(current))


class BoundedLine:
    """Keeps the prompt's line at most `limit` characters as it is typed or pasted, and
    counts what it drops: a line is never held longer than a command may be.

    prompt_toolkit keeps a copy of the whole line for undo at every key, so a line typed
    or piped in without bracketed paste cost memory and time that grew with the square of
    its length (30,000 characters: 481 MiB and 5 s) before the command line's own limit
    refused it. Cut as it grows, the line costs at most `limit` characters a key.

    Each key still costs prompt_toolkit about 0.4 ms to process, so a line of 100,000
    characters took 40 s even cut: `guard` drops what no line could hold from the text the
    terminal sends before it is made into keys, at the speed of a regular expression."""

    def __init__(self, buffer: Buffer, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.buffer = buffer
        self.dropped = 0  # characters cut from the line being typed
        self._run = 0  # text let through since the terminal's last key that is not text
        self._feeding = False  # in the parser's feed of a read from the terminal
        buffer.on_text_changed += self._cut

    def guard(self, terminal: object) -> None:
        """Cut each run of text the terminal sends (`terminal`: prompt_toolkit's Input; a
        VT100 one, as on Linux, macOS and the tests' pipes) to what can still overflow the
        line: the rest of a run is dropped unread. Keys that are not text (Enter, Ctrl-C,
        the escape sequences' first byte) are never dropped."""
        parser = getattr(terminal, "vt100_parser", None)
        if parser is None or getattr(parser, "_line_bound", None) is not None:
            return
        feed = parser.feed

        def bounded_feed(data: str) -> None:
            if self._feeding:
                # The parser feeds itself the rest of a read it was given (from a paste's
                # start on, through `parser.feed`, so here): cut already. Cut again, a
                # paste's text counted twice was dropped whole, and its line said nothing.
                feed(data)
                return
            self._feeding = True
            try:
                feed(self._trimmed(data))
            finally:
                self._feeding = False

        parser.feed = bounded_feed
        parser._line_bound = self

    def _trimmed(self, data: str) -> str:
        # Text runs on from one read of the terminal to the next until a key that is not
        # text (Enter, an escape sequence's ESC): `_run` counts what was let through of the
        # current run, which may be kept to what the line can take and a little more, so
        # the line overflows and is refused, and the rest costs nothing. The bound is on
        # the run, not the line: a bracketed paste's text ("[200~" opens it, after its ESC)
        # reaches the line only when the paste ends, and a pipe's 4 MB arrive in thousands
        # of reads (a bound of the line's room, at least _SEQUENCE a read, let 16 through
        # at each: 4 MB took 20 s).
        parts: list[str] = []
        for found in _TEXT_RUN.finditer(data):
            text, key = found.groups()
            room = max(0, self.limit + _SEQUENCE - self._run)
            parts += [text[:room], key]
            self._run = 0 if key else self._run + min(len(text), room)
        return "".join(parts)

    def _cut(self, buffer: Buffer) -> None:
        text = buffer.text
        if not text:
            self.dropped = 0  # a new line (or the old one cleared): nothing dropped from it
        elif len(text) > self.limit:
            self.dropped += len(text) - self.limit
            cursor = min(buffer.cursor_position, self.limit)
            buffer.document = Document(text[: self.limit], cursor)

    def refusal(self) -> str | None:
        """Why the line just entered is refused (its end was dropped), once; None: it is
        whole."""
        if not self.dropped:
            return None
        self.dropped = 0
        return (
            f"the line is longer than {self.limit:,} characters, the most a command may be;"
            " the rest of it was not read"
        )


# A run of text characters, then the one key that is not (a control character), if any.
_TEXT_RUN = re.compile("([^\x00-\x1f\x7f]*)([\x00-\x1f\x7f]?)")
_SEQUENCE = 16  # characters: more than an escape sequence's tail after its ESC


def spelt_out(table: LiveTable, names: dict[str, str]) -> LiveTable:
    """`table` with each cell that is a board label (after a turn mark such as "> ") spelt
    as the name it stands for: the name the log and the refusals use, and as good to type;
    and without the notes that say nothing."""

    def cell(text: str) -> str:
        word = text.lstrip("> *")
        return text[: len(text) - len(word)] + names[word] if word in names else text

    rows = [
        dataclasses.replace(r, cells=[cell(c) for c in r.cells], note=_said(r.note))
        for r in table.rows
    ]
    return LiveTable(table.headers, rows)


def turn_marked(table: LiveTable) -> LiveTable:
    """`table` with TURN_MARK before the first cell of each row whose turn it is (and as
    much room before the others'), so the turn shows without bold too (a copy of the
    screen, a terminal without it). A table that marks the turn itself with a ">" (korxsol
    before the name, forms before the position) is left as it is."""
    current = [r for r in table.rows if r.current]
    if not current or any(c.startswith(TURN_MARK[0]) for r in current for c in r.cells):
        return table
    blank = " " * len(TURN_MARK)
    rows = [
        dataclasses.replace(
            r, cells=[(TURN_MARK if r.current else blank) + r.cells[0], *r.cells[1:]]
        )
        for r in table.rows
    ]
    return LiveTable([blank + table.headers[0], *table.headers[1:]], rows)


ROSTER_WRAP = "  -- then, from the top of the order --"


def _roster_window(
    head: tuple[str, bool], groups: list[list[tuple[str, bool]]], most: int, width: int
) -> list[tuple[str, bool]]:
    """The header and, in `most` lines with it, whoever takes the turn and those after
    them in the order (past its end, on from its top: the next round's first), each
    fighter whole (its note's lines under it), with a last line saying how many fighters
    are left out above and below. Before anyone's turn, from the top. A fight of 24 with
    notes is taller than an 80x24 screen, and the next to act matter most."""
    count = len(groups)
    first = next((n for n, g in enumerate(groups) if any(cur for _, cur in g)), 0)
    room = max(1, most - 2)  # the header's line and the line saying what is left out
    taken = [first]
    used = len(groups[first])
    wrapped = False
    for step in range(1, count):
        n = (first + step) % count
        extra = len(groups[n]) + (1 if n == 0 and not wrapped else 0)  # the wrap's line
        if used + extra > room:
            break
        wrapped = wrapped or n == 0
        taken.append(n)
        used += extra
    if not wrapped and first > 0:  # room left at the order's end: earlier rows above it
        for n in range(first - 1, -1, -1):
            if used + len(groups[n]) > room:
                break
            taken.insert(0, n)
            used += len(groups[n])
    lines: list[tuple[str, bool]] = [head]
    for n in taken:
        if n == 0 and wrapped:
            lines.append((ROSTER_WRAP[:width], False))
        lines += groups[n]
    lines = lines[: room + 1]  # the acting fighter's own lines may be more than the room
    shown = set(taken)
    above = sum(1 for n in range(count) if n not in shown and (n < taken[0] and not wrapped))
    below = count - len(shown) - above
    said = [f"{k} {where}" for k, where in ((above, "above"), (below, "below")) if k]
    more = f"... {' and '.join(said) or 'lines'} not shown (a taller screen shows them)"
    return [*lines, (more[:width], False)]


def resumed_line(session: Session) -> str:
    """The log's first line after `play --resume` (which would start it empty): the game
    and how much of it was played again. It names no fighter (a hidden one, say)."""
    return f"game {session.game_id} resumed: {plural(len(session.done), 'action')} replayed"


def new_game_line(session: Session) -> str:
    """The log's first line after `new`. Its seed is the game master's alone: the engine's
    dice follow from the seed and the action's number, so players who read it could work
    out the rolls to come. The players' page reads "new game"; `url` and the exports keep
    the seed."""
    return Line(f"new game, seed {session.seed}", players="new game")


def _said(note: str) -> str:
    """A row's note, or "" for one that says nothing (a lone dash): a line of an 80x24
    screen is worth more."""
    return "" if note.strip() in ("", "-") else note


def _direct(action: Callable[[], T]) -> T:
    return action()


class PlayUI:
    def __init__(
        self,
        session: Session,
        console: Console,
        board_note: str = "",
        guard: Callable[[Callable[[], list[str]]], list[str]] = _direct,
        tether: Tether | None = None,
    ):
        self.session = session
        self.tether = tether
        if tether is not None:
            guard = tether.guard
        self.console = console
        self.board_note = board_note
        # Runs each command: directly, or (tethered) under the link's lock and followed by a
        # snapshot to the board.
        self.guard = guard
        self.messages: list[str] = []
        self.odds_lines: list[str] = []
        self.dice_log: list[str] = []
        self.dice_mark = 0  # dice_log[dice_mark:] are the last command's rolls
        self.last_mark = 0  # messages[last_mark:] are the last action's lines
        self.roster_cut = False  # the last roster drawn left lines out
        # The most log lines shown with older ones: each redraw is printed on a line
        # prompt; a full screen (host/screens/play_screen.py) fills what it has.
        self.older_log_lines = MAX_LOG_LINES
        # What start-up printed (`url`), and the web console's address for its QR code.
        self.about: list[str] = []
        self.console_url: str | None = None
        # Set when no phone can open console_url (served on 127.0.0.1): the line saying how
        # to let phones in, shown in place of a QR code.
        self.phones_line: str | None = None
        # The board's presses redraw the view from the watcher's thread: one print at a time.
        self._printing = threading.Lock()
        self._shown_board_line = ""  # the board's line as last drawn (linked, refusals)
        # Set by a full-screen front end (host/screens/play_screen.py): show() then asks it to
        # redraw instead of printing the view.
        self.redraw: Callable[[], None] | None = None
        # One line at a time, whether typed or from the web console (host/web/), which
        # also reads the view under it; `shown` counts the redraws.
        self.command_lock = threading.RLock()
        self.shown = 0

    # ------------------------------------------------------------------ drawing
    def render(self) -> Group:
        """The live view, made to fit an 80x24 terminal with a 2v2 fight (the round and turn
        line stays on screen above the prompt): the head, the fighters in a borderless
        table, then `below` in the lines left over (one is the prompt's). On a terminal, a
        roster too long for it gives way around whoever takes the turn, as the full
        screen's does (a fight of 24 would push the round's line off the top)."""
        head = self.head()
        most = None
        if self.console.is_terminal:  # a long roster would push the head off the screen
            room = self.console.height - 1 - self._lines(head) - self.below_needs()
            most = max(ROSTER_MIN_LINES, room)
        top = head + [self.roster(most)]
        return Group(*top, *self.below(self.console.height - self._lines(top) - 1))

    def head(self) -> list[RenderableType]:
        """The ruleset's headline, and the board's line (with a board; without one, its
        note until the fight starts)."""
        game = self.session.game
        ruleset = self.session.ruleset
        title, head = ruleset.headline(game)
        # Every text shown is spelt printable: a name never sends the terminal an escape code.
        title, head = printable(title), printable(head)
        parts: list[RenderableType] = [Text.assemble((f"{title}: ", "bold"), head)]
        board = self._board_line()
        if board and (self.tether is not None or not ruleset.started(game)):
            parts.append(Text(board, style="dim"))
        return parts

    def roster(self, most: int | None = None) -> Text:
        """The table of whoever takes turns, each named as the game master may type it (a
        board label the ruleset shows is spelt out as its name), in `most` lines at most:
        a longer one shows its rows from the first whose turn it is, and says how many
        lines it leaves out."""
        game = self.session.game
        ruleset = self.session.ruleset
        live = effects.with_effects(ruleset.live_roster(game), ruleset, game)  # and effects
        table = turn_marked(spelt_out(live, self._labels()))
        roster = Text()
        head, groups = text_tables.live_groups(table, self.console.width)
        rows = [head, *(line for group in groups for line in group)]
        self.roster_cut = most is not None and len(rows) > most
        if self.roster_cut:
            rows = _roster_window(head, groups, most or 0, self.console.width)
        for n, (line, whose_turn) in enumerate(rows):
            style = "bold underline" if n == 0 else "bold" if whose_turn else ""
            roster.append(printable(line) + ("\n" if n < len(rows) - 1 else ""), style)
        return roster

    def _labels(self) -> dict[str, str]:
        try:
            fighters = self.session.ruleset.fighters(self.session.game)
        except NotImplementedError:
            return {}
        return {f.label: f.name for f in fighters if f.label and f.label != f.name}

    def below(self, room: int) -> list[RenderableType]:
        """The log, the roll a waiting action wants, the last command's dice, the odds and
        a line of scores (`scores` prints the whole table), in `room` lines. The last
        action's lines always show whole, the dice and the odds only where there is room
        for them too, and older lines fill what is left. Parts with nothing to show are
        left out."""
        game = self.session.game
        ruleset = self.session.ruleset
        must = self._must()
        dice_text = ", ".join(self.dice_log[self.dice_mark :])  # the last command's rolls
        pending = {p: len(q) for p, q in ruleset.waiting(game).items() if q}
        if pending:
            waiting = "waiting: " + ", ".join(f"{p} x{n}" for p, n in pending.items())
            dice_text = f"{dice_text}; {waiting}" if dice_text else waiting
        extras: list[RenderableType] = []
        if dice_text:
            extras.append(Text("dice: " + printable(dice_text)))
        odds_lines = self._odds()
        if odds_lines:  # "X Move -> Y: ...", "chance to hit ...", "damage if hit ..."
            extras.append(Text(printable("\n".join(odds_lines))))
        scores = self._scores()
        room -= self._lines([*must, scores])
        # The log's rule and its lines: the last action's, and never fewer than the log's
        # least (the dice and the odds must not push the scores off the screen).
        log_lines = 1 + max(MIN_LOG_LINES, self._last_lines()) if self.messages else 0
        # The dice before the odds: each shown only if the last action's lines still fit.
        shown_extras: list[RenderableType] = []
        for extra in extras:
            needed = self._lines([extra])
            if log_lines + needed <= room:
                shown_extras.append(extra)
                room -= needed
        log = self._log(room)
        return log + must + shown_extras + [scores]

    def below_needs(self) -> int:
        """The fewest lines `below` shows the last action's lines in, whole, with the roll
        a waiting action wants and the scores: what a full screen keeps for them before
        the roster (the dice, the odds and older lines take what is left)."""
        log_lines = 1 + max(MIN_LOG_LINES, self._last_lines()) if self.messages else 0
        return log_lines + self._lines([*self._must(), self._scores()])

    def _must(self) -> list[RenderableType]:
        """The roll a waiting action wants, from whom, and how to give it instead."""
        wanted = [printable(line) for line in self.session.wanted_lines()]
        return [Text("\n".join(wanted), style="bold")] if wanted else []

    def _scores(self) -> Text:
        return Text(printable(self.session.ruleset.score_line(self.session.game)))

    def _last_lines(self) -> int:
        """The terminal lines the last action's messages take."""
        return self._lines([Text(m) for m in map(printable, self.messages[self.last_mark :])])

    def _lines(self, parts: list[RenderableType]) -> int:
        """How many terminal lines these take."""
        options = self.console.options
        return sum(len(self.console.render_lines(part, options, pad=False)) for part in parts)

    def _log(self, room: int) -> list[RenderableType]:
        """A rule and the latest messages in `room` lines: the last action's lines (the
        newest of them, if even they do not fit), then older ones up to `older_log_lines`."""
        if not self.messages:
            return []
        room = max(MIN_LOG_LINES, room - 1)  # the rule
        shown: list[str] = []
        taken = 0
        for n, message in reversed(list(enumerate(map(printable, self.messages)))):
            needed = self._lines([Text(message)])
            limit = room if n >= self.last_mark else min(room, self.older_log_lines)
            if shown and taken + needed > limit:
                break
            shown.insert(0, message)
            taken += needed
        log = Text()
        for n, message in enumerate(shown):
            style = "bold red" if message.startswith(REFUSED_BY_THE_BOARD) else ""
            log.append(message + ("\n" if n < len(shown) - 1 else ""), style)
        return [Rule("log", align="left", style="dim"), log]

    def _board_line(self) -> str:
        if self.tether is None:
            return self.board_note
        link = self.tether.link
        problem = link.problem  # another board on the port, the console's echo, ...
        state = "not linked: " + problem if problem else "not linked, retrying"
        where = f"board on {link.url}: " + ("linked" if link.linked else state)
        refused = link.session.events_rejected
        where += f", {plural(refused, 'press', 'presses')} refused" if refused else ""
        return where + self._dice_note()

    def _dice_note(self) -> str:
        """Where the actions' dice come from, and the command that takes them from the
        board instead (or back to the engine)."""
        if not self.session.ruleset.asks_for_rolls:
            return ""
        source = self.session.dice_from
        if source == "engine":
            return "; engine dice (`dice from board`: roll on the board)"
        said = "board dice (its roll key)" if source == "board" else "entered dice (`dice N`)"
        return f"; {said}, `dice from engine`: the engine rolls"

    def _take_board_lines(self) -> None:
        if self.tether is not None:
            while self.tether.lines:
                self.messages.append(self.tether.lines.popleft())

    def _odds(self) -> list[str]:
        if self.odds_lines:
            return self.odds_lines
        return self.session.ruleset.odds_preview(self.session.game)

    def show(self) -> None:
        self.shown += 1  # what the web view (host/web/) watches for a change
        if self.redraw is not None:
            self._shown_board_line = self._board_line()
            self.redraw()
            return
        if self.tether is None:
            self.console.print(self.render())
            return
        with self.tether.lock:  # board presses change the session on the link's thread
            self._take_board_lines()
            frame = self.render()
            self._shown_board_line = self._board_line()
        with self._printing:
            self.console.print(frame)

    # ------------------------------------------------------------------ commands
    def handle(self, line: str) -> bool:
        """Run one line; False means quit."""
        words = line.split()
        if not words:
            return True
        verb = words[0].lower()
        if verb in ("quit", "exit"):
            return False
        if verb == "help":
            who = words[2] if len(words) > 2 else None
            text = self.help_text(words[1] if len(words) > 1 else None, who=who)
            self.console.print(text, markup=False, soft_wrap=True)
            return True
        if verb == "url":
            self._print_text(self.started_text())
            return True
        ruleset = self.session.ruleset
        if verb == "scores":
            table = ruleset.score_table(self.session.game)
            self._print_text(text_tables.fitted_table("scores", table, self.console.width))
            return True
        if verb == "table":
            keys = ("team", "games", "wins", *ruleset.session_totals)
            headers = [ruleset.stat_labels.get(k) or text_tables.humane(k) for k in keys]
            rows = [[str(row[k]) for k in keys] for row in self.session.session_table()]
            session_table = RulesetTable(headers, rows)
            self._print_text(
                text_tables.fitted_table("session table", session_table, self.console.width)
            )
            return True
        try:
            self.run_line(line)
        except IllegalAction as err:
            self.console.print(f"[bold red]refused:[/] {escape(printable(str(err)))}")
        return True

    def run_line(self, line: str) -> None:
        """Run one line of the game's language (its verbs and session verbs, `new`) and
        redraw; raises IllegalAction in one line, nothing changed, when the syntax or the
        rules refuse it. The web console (host/web/) runs its lines here too, from its own
        thread: one line at a time."""
        with self.command_lock:
            words = line.split()
            if not words:
                return
            verb = words[0].lower()
            if verb == "new":
                previous = self.session
                self.session = previous.next_game()
                if self.tether is not None:
                    self.tether.replace_session(self.session)
                previous.discard_if_empty()  # a game never played is not kept
                self.messages = [new_game_line(self.session)]
                self.last_mark = 0
                self.show()
                return
            ruleset = self.session.ruleset
            language = ruleset.language
            if not language.knows(verb) and not verb.startswith("#"):
                raise IllegalAction(language.unknown_verb(words[0], tuple(UI_VERBS)))
            # What is said before a command (its odds) is the game master's alone.
            before = self.session.told(ruleset.before(self.session.game, line), "gm")
            self._take_board_lines()
            last = self.session.done[-1] if self.session.done else None
            mark = len(self.messages)
            lines = before + self.guard(lambda: self.session.execute(line))
            if verb in language.asides:  # it informs: shown beside the view, not logged
                self.odds_lines = self.session.told(lines, "gm")
            else:
                self.odds_lines = []
                self.last_mark = mark
                self.messages.extend(lines)
                self.dice_mark = len(self.dice_log)
                # An action's rolls once it is applied: at once, or when `roll` or `dice`
                # gave the last roll a waiting action wanted.
                resolved = self.session.done and self.session.done[-1] is not last
                if verb in language.verbs and self.session.pending is None or resolved:
                    self.dice_log += ruleset.roll_lines(self.session.game)
            self.show()

    def started_text(self) -> str:
        """What start-up printed before the screen took over, and the console's URL as a
        QR code to scan with a phone (`url`)."""
        lines = list(self.about) or [f"seed {self.session.seed}"]
        if self.console_url is None:
            lines.append("no web pages: `turnlight play --web` serves them")
            return "\n".join(lines)
        if self.phones_line is not None:
            return "\n".join([*lines, self.phones_line])
        try:
            import segno
        except ImportError:  # the QR code is a nicety: the URL is above
            return "\n".join(lines)
        code = io.StringIO()
        # A quiet zone of one module: the code and the lines above it fit an 80x24 screen.
        segno.make(self.console_url, error="l").terminal(out=code, compact=True, border=1)
        return "\n".join(lines) + "\n" + code.getvalue().rstrip("\n")

    def help_text(self, verb: str | None, width: int | None = None, who: str | None = None) -> str:
        """The commands and what they do, within `width` columns (the console's), never
        broken inside a word; for one verb, what the acting fighter (or `who`) may use
        with it."""
        width = width or self.console.width
        language = self.session.ruleset.language
        table = dict(language.verbs)
        table.update(language.session_verbs)
        if verb:
            if verb not in table and verb not in UI_VERBS:
                return f"no command {verb!r}"
            if verb in UI_VERBS:
                return "\n".join(text_tables.wrapped(f"{verb}: {UI_VERBS[verb]}", width))
            lines = text_tables.wrapped(language.usage(verb), width)
            lines += text_tables.wrapped("  " + table[verb][1], width, "  ")
            game = self.session.game
            every = acting_all(self.session.ruleset, game, verb, who)
            for choices in every:  # (each of a player's characters, each unit of a step)
                lines += text_tables.wrapped("  " + printable(choices.line()), width, "    ")
            if not every and verb == "add":  # (newcomers' verb: templates are nobody's moves)
                found = completions(self.session.ruleset, game, ["add", ""])
                if found:
                    said = "  templates: " + ", ".join(n.strip('"') for n in found)
                    lines += text_tables.wrapped(printable(said), width, "    ")
            return "\n".join(lines)
        pairs = [(language.usage(v), d) for v, (_, d) in table.items()]
        pairs += list(UI_VERBS.items())
        lines = text_tables.two_columns(pairs, width)
        for note in self.session.ruleset.help_notes():
            lines += text_tables.wrapped(note, width)
        lines += text_tables.wrapped(LEAVE_HINT + " (the journal already holds everything)", width)
        return "\n".join(lines)

    def _print_text(self, text: str) -> None:
        """Plain text laid out by host/screens/text_tables.py: printed as it is, never
        re-wrapped."""
        self.console.print(printable(text), markup=False, highlight=False, soft_wrap=True)

    def loop(self, prompt: PromptSession) -> None:
        self.show()
        stop = threading.Event()
        if self.tether is not None:
            # Board presses arrive while the prompt waits: redraw the view above it for each.
            threading.Thread(target=self._watch_board, args=(stop,), daemon=True).start()
        try:
            with patch_stdout(raw=True) if self.tether is not None else nullcontext():
                while True:
                    bound = _bound_of(prompt)
                    bound.dropped = 0  # a new line (Ctrl-C left the count of the last)
                    try:
                        line = prompt.prompt("turnlight> ")
                        too_long = bound.refusal()
                    except KeyboardInterrupt:
                        # Ctrl-C clears the line being typed; it never ends the session.
                        if not prompt.default_buffer.text:
                            self.console.print(LEAVE_HINT, markup=False)
                        continue
                    except EOFError:  # Ctrl-D, or the end of piped input
                        # Piped input's last line may have no newline: it is a line still
                        # (Ctrl-D at a prompt ends only an empty line).
                        last = prompt.default_buffer.text
                        too_long = bound.refusal()
                        if too_long is not None:
                            self.console.print(f"[bold red]refused:[/] {escape(too_long)}")
                        elif last.strip():
                            self.handle(last)
                        break
                    if too_long is not None:
                        self.console.print(f"[bold red]refused:[/] {escape(too_long)}")
                        continue
                    if not self.handle(line):
                        break
        finally:
            stop.set()

    def _watch_board(self, stop: threading.Event) -> None:
        while not stop.wait(BOARD_ECHO_SECONDS):
            self.echo_board()

    def echo_board(self) -> list[str]:
        """Redraw the live view when the board did something since the last look (a press,
        a refusal and its reason, the link coming or going), without waiting for a typed
        command; returns the lines the presses added to the log."""
        if self.tether is None:
            return []
        with self.tether.lock:
            new = list(self.tether.lines)
            self.tether.lines.clear()
            changed = self._board_line() != self._shown_board_line
        if not new and not changed:
            return []
        if new:
            self.last_mark = len(self.messages)
        self.messages.extend(new)
        self.show()
        return new


def make_prompt(ui: PlayUI, **kwargs) -> PromptSession:
    """The line prompt, its line kept to a command's length (`BoundedLine`)."""
    prompt: PromptSession = PromptSession(
        completer=CommandCompleter(ui), complete_while_typing=False, **kwargs
    )
    prompt.line_bound = BoundedLine(prompt.default_buffer)  # type: ignore[attr-defined]
    prompt.line_bound.guard(prompt.app.input)  # type: ignore[attr-defined]
    return prompt


def _bound_of(prompt: PromptSession) -> BoundedLine:
    """The prompt's BoundedLine (a prompt made elsewhere is given one on first use)."""
    bound = getattr(prompt, "line_bound", None)
    if bound is None:
        bound = prompt.line_bound = BoundedLine(prompt.default_buffer)  # type: ignore[attr-defined]
        bound.guard(prompt.app.input)
    return bound
