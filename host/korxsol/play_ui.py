"""The game master's interactive session: a prompt_toolkit prompt with completion and a
rich live view (initiative with tie-break reasons, the active turn, AP, statuses with their
durations, cooldowns, KOR, the dice log, odds and scores) redrawn after every command.

The UI takes its input and output as arguments, so tests drive it headlessly with a pipe
input and a string console.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from typing import TypeVar

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.patch_stdout import patch_stdout
from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from host.korxsol import commands, odds, view
from host.korxsol.rolls import PURPOSES, IllegalAction
from host.korxsol.words import plural
from host.session import Session
from host.tether import Tether

T = TypeVar("T")

UI_VERBS = {
    "help": "list the commands, or `help VERB` for one",
    "scores": "this game's full score table (the live view shows each team's score)",
    "table": "the score table across this session's games",
    "quit": "leave, as Ctrl-D does (the journal already holds everything)",
}
LEAVE_HINT = "Ctrl-C clears the line; Ctrl-D or `quit` ends the session"
MIN_LOG_LINES, MAX_LOG_LINES = 2, 12  # the live view's log: what a terminal has room for
BOARD_ECHO_SECONDS = 0.2  # how often the prompt looks for board presses to print
OPTION_KEYS = ("sol=", "dodge_sol=", "resist_sol=", "cornered=", "kb=", "exchange=", "fall=")


class CommandCompleter(Completer):
    """Completes verbs, then character names, then their moves/items/artifacts, targets
    and option keys."""

    def __init__(self, ui: PlayUI):
        self.ui = ui

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split()
        if text.endswith(" ") or not words:
            words.append("")
        current = words[-1]
        candidates: list[str]
        game = self.ui.session.game
        names = [f.spec.label for f in game.fighters] + [f.spec.name for f in game.fighters]
        if len(words) == 1:
            candidates = list(commands.VERBS) + ["dice", "undo", "redo", "odds"] + list(UI_VERBS)
        elif words[0] == "dice" and len(words) == 2:
            candidates = list(PURPOSES) + ["clear"]
        elif len(words) == 2:
            candidates = names
        elif len(words) == 3 and words[0] in ("attack", "odds", "item", "artifact"):
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return
            pool = {
                "attack": [m.name for m in f.spec.moves],
                "odds": [m.name for m in f.spec.moves],
                "item": [i.name for i in f.hand],
                "artifact": [a.name for a in f.spec.artifacts],
            }[words[0]]
            candidates = [f'"{n}"' if " " in n else n for n in pool]
        else:
            candidates = names + list(OPTION_KEYS) + ["fulldraw", "reroll"]
        for c in candidates:
            if c.strip('"').lower().startswith(current.lstrip('"').lower()):
                yield Completion(c, start_position=-len(current))


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

    # ------------------------------------------------------------------ drawing
    def render(self) -> Group:
        """The live view, made to fit an 80x24 terminal with a 2v2 fight (the round and turn
        line stays on screen above the prompt): the fighters in a borderless table, the log
        in the lines left over, the last command's dice, the odds and a line of scores
        (`scores` prints the whole table). Parts with nothing to show are left out."""
        game = self.session.game
        st = game.state
        title = f"{game.encounter.name}, round {st.round}" if game.started else game.encounter.name
        active = game.active
        head = (
            f"{active.spec.name}'s turn ({'Action' if st.phase == 0 else 'Cooldown'} Phase),"
            f" {game.slot(active).ap} AP"
            if active
            else "type `initiative` to roll the turn order"
        )
        if game.winner is not None:
            head = f"the fight is over: {game.snapshot()['winner']} wins"
        top: list[RenderableType] = [Text.assemble((f"{title}: ", "bold"), head)]
        board = self._board_line()
        if board and (self.tether is not None or not game.started):  # a note without a board
            top.append(Text(board, style="dim"))  # is said until the fight starts
        fighters = Text()
        rows = view.compact_fighters(game, self.console.width)
        for n, (line, whose_turn) in enumerate(rows):
            style = "bold underline" if n == 0 else "bold" if whose_turn else ""
            fighters.append(line + ("\n" if n < len(rows) - 1 else ""), style)
        top.append(fighters)
        bottom: list[RenderableType] = []
        dice_text = ", ".join(self.dice_log[self.dice_mark :])  # the last command's rolls
        pending = game.roller.pending()
        if pending:
            waiting = "waiting: " + ", ".join(f"{p} x{n}" for p, n in pending.items())
            dice_text = f"{dice_text}; {waiting}" if dice_text else waiting
        if dice_text:
            bottom.append(Text("dice: " + dice_text))
        odds_lines = self._odds()
        if odds_lines:  # "X Move -> Y: ...", "chance to hit ...", "damage if hit ..."
            bottom.append(Text("\n".join(odds_lines)))
        bottom.append(Text(view.score_line(game)))
        parts = top + self._log(self.console.height - self._lines(top + bottom)) + bottom
        return Group(*parts)

    def _lines(self, parts: list[RenderableType]) -> int:
        """How many terminal lines these take."""
        options = self.console.options
        return sum(len(self.console.render_lines(part, options, pad=False)) for part in parts)

    def _log(self, room: int) -> list[RenderableType]:
        """A rule and the latest messages that fit in `room` lines (less the prompt's)."""
        if not self.messages:
            return []
        room = max(MIN_LOG_LINES, min(MAX_LOG_LINES, room - 2))  # the rule, the prompt
        shown: list[str] = []
        for message in reversed(self.messages):
            needed = self._lines([Text(message)])
            if shown and needed > room:
                break
            shown.insert(0, message)
            room -= needed
        return [Rule("log", align="left", style="dim"), Text("\n".join(shown))]

    def _board_line(self) -> str:
        if self.tether is None:
            return self.board_note
        link = self.tether.link
        where = f"board on {link.url}: " + ("linked" if link.linked else "not linked, retrying")
        refused = link.session.events_rejected
        return where + (f", {plural(refused, 'press', 'presses')} refused" if refused else "")

    def _take_board_lines(self) -> None:
        if self.tether is not None:
            while self.tether.lines:
                self.messages.append(self.tether.lines.popleft())

    def _odds(self) -> list[str]:
        if self.odds_lines:
            return self.odds_lines
        game = self.session.game
        f = game.active
        if f is None or game.winner is not None:
            return []
        enemies = [e for e in game.fighters if e.spec.team != f.spec.team and game.alive(e)]
        for move in f.spec.moves:
            ready = game.ready(f, "move", move.name)
            if move.is_attack and ready and enemies:
                cmd = commands.Command("odds", [f.spec.label, move.name, enemies[0].spec.label])
                return odds.describe(game, cmd)
        return []

    def show(self) -> None:
        if self.tether is None:
            self.console.print(self.render())
            return
        with self.tether.lock:  # board presses change the session on the link's thread
            self._take_board_lines()
            frame = self.render()
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
            self.console.print(
                self.help_text(words[1] if len(words) > 1 else None), markup=False, soft_wrap=True
            )
            return True
        if verb == "scores":
            scores = Table(*view.SCORE_HEADERS, title="scores", box=box.SIMPLE_HEAD)
            for cells in view.score_rows(self.session.game):
                scores.add_row(*cells)
            self.console.print(scores)
            return True
        if verb == "table":
            t = Table("team", "games", "wins", "damage_dealt", "kos", title="session table")
            for row in self.session.session_table():
                t.add_row(*(str(row[k]) for k in ("team", "games", "wins", "damage_dealt", "kos")))
            self.console.print(t)
            return True
        if verb == "new":
            previous = self.session
            self.session = previous.next_game()
            if self.tether is not None:
                self.tether.replace_session(self.session)
            previous.discard_if_empty()  # a game never played is not kept
            self.messages = [f"new game, seed {self.session.seed}"]
            self.show()
            return True
        known = verb in commands.VERBS or verb in commands.SESSION_VERBS
        if not known and not verb.startswith("#"):
            unknown = commands.unknown_verb(words[0], tuple(UI_VERBS))
            self.console.print(f"[bold red]refused:[/] {escape(unknown)}")
            return True
        before = odds.before_attack(self.session.game, line) if verb == "attack" else []
        self._take_board_lines()
        try:
            lines = before + self.guard(lambda: self.session.execute(line))
        except IllegalAction as err:
            self.console.print(f"[bold red]refused:[/] {escape(str(err))}")
            return True
        if verb == "odds":
            self.odds_lines = lines
        else:
            self.odds_lines = []
            self.messages.extend(lines)
            records = self.session.game.roller.records if verb in commands.VERBS else []
            self.dice_mark = len(self.dice_log)
            for rec in records:
                if rec.purpose == "initiative" and rec.who < 0:  # an old journal's draws
                    self.dice_log.append(f"initiative: {len(rec.faces)} dice rolled ({rec.source})")
                    continue
                name = self.session.game.fighters[rec.who].spec.name if rec.who >= 0 else "all"
                source = "" if rec.source == "engine" else f" ({rec.source})"
                self.dice_log.append(
                    f"{rec.purpose} {name} {' '.join(map(str, rec.faces))} -> {rec.successes}"
                    + source
                )
        self.show()
        return True

    def help_text(self, verb: str | None) -> str:
        table = dict(commands.VERBS)
        table.update(commands.SESSION_VERBS)
        if verb:
            if verb not in table and verb not in UI_VERBS:
                return f"no command {verb!r}"
            if verb in UI_VERBS:
                return f"{verb}: {UI_VERBS[verb]}"
            return f"{commands.usage(verb)}\n  {table[verb][1]}"
        lines = [f"{commands.usage(v):<45} {d}" for v, (_, d) in table.items()]
        lines += [f"{v:<45} {d}" for v, d in UI_VERBS.items()]
        lines.append("attack options: " + " ".join(OPTION_KEYS) + " fulldraw reroll")
        lines.append(LEAVE_HINT + " (the journal already holds everything)")
        return "\n".join(lines)

    def loop(self, prompt: PromptSession) -> None:
        self.show()
        stop = threading.Event()
        if self.tether is not None:
            # Board presses arrive while the prompt waits: print them above it as they come.
            threading.Thread(target=self._watch_board, args=(stop,), daemon=True).start()
        try:
            with patch_stdout(raw=True) if self.tether is not None else nullcontext():
                while True:
                    try:
                        line = prompt.prompt("turnlight> ")
                    except KeyboardInterrupt:
                        # Ctrl-C clears the line being typed; it never ends the session.
                        if not prompt.default_buffer.text:
                            self.console.print(LEAVE_HINT, markup=False)
                        continue
                    except EOFError:  # Ctrl-D
                        break
                    if not self.handle(line):
                        break
        finally:
            stop.set()

    def _watch_board(self, stop: threading.Event) -> None:
        while not stop.wait(BOARD_ECHO_SECONDS):
            self.echo_board()

    def echo_board(self) -> list[str]:
        """Print (and log) what board presses did since the last look; returns the lines."""
        if self.tether is None:
            return []
        with self.tether.lock:
            new = list(self.tether.lines)
            self.tether.lines.clear()
        self.messages.extend(new)
        for line in new:
            self.console.print(escape(line))
        return new


def make_prompt(ui: PlayUI, **kwargs) -> PromptSession:
    return PromptSession(completer=CommandCompleter(ui), complete_while_typing=False, **kwargs)
