"""`turnlight play --sim` on a terminal: one full-screen app with the live view, the
simulated board's LED grid drawn live in colour, and the prompt.

The play UI's live view (host/screens/play_ui.py) is redrawn whenever a typed command or a
board press changes it: its head across the top, the fighters' table beside the board's
grid (drawn as its LEDs show now, a dim LED brightened as the web page draws it), and the
log, dice, odds and scores across the whole width. At 80x24 the last action's lines come
first, whole: the roster gives way to them (from whoever takes the turn), then the board's
hint and an empty status line; the dice, the odds and older lines take what is left.
Under it, whatever the last command printed besides the view (a refusal, `help`,
`scores`); what is too long for that pages over the view (PgDn, PgUp; Esc closes).
Tab completes in a menu, on an empty prompt too (the commands). Ctrl-B alone hands the
letters to the board: `n` presses next turn, `r` rolls, and so on, as in `turnlight sim`;
Ctrl-B or Esc gives them back to the prompt at once. Enter runs the line; Ctrl-C clears
it; Ctrl-D or `quit` ends the session.

Built on prompt_toolkit's full-screen Application, so tests drive it with the library's
own pipe input and a dummy output.
"""

from __future__ import annotations

import io
import sys
import textwrap
import threading
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import BufferControl, FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.layout.containers import (
    ConditionalContainer,
    Float,
    FloatContainer,
    VSplit,
    WindowAlign,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from rich.console import Console

from host.screens.led_text import led_grid
from host.screens.play_ui import (
    LEAVE_HINT,
    ROSTER_MIN_LINES,
    BoundedLine,
    CommandCompleter,
    PlayUI,
)

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from host.board.simulated_board import SimulatedBoard

GRID_REFRESH_SECONDS = 0.1  # how often the board's grid is redrawn (its LEDs pulse)
MENU_LINES = 8  # the completion menu's most lines
REST_MIN_LINES = 4  # under the roster: the log's rule, two of its lines and the scores
VIEW_MIN_LINES = 10  # lines the live view keeps under what a command printed; longer pages
BOARD_PANE_MIN = 26  # columns: the board's pane is its grid's width, or this
PROMPT = "turnlight> "
# Completion has Tab; the board's keys have Ctrl-B alone, so a newcomer pressing Tab to see
# the commands never presses a key of the board by typing `end`.
BOARD_HINT = "Ctrl-B: the letters press the board's keys"
BOARD_PROMPT = "BOARD KEYS (Ctrl-B or Esc: back to typing)> "
PAGER_HINT = "PgDn/PgUp: page; Esc: back to the view"
# Escape ends board-key mode and the pager at once: prompt_toolkit waits this long for the
# rest of an escape sequence (its default, half a second, felt like a second).
ESCAPE_SECONDS = 0.05
KEY_CHORD_SECONDS = 0.3  # and this long for the key after a prefix such as Esc


class PlayScreen:
    """The full-screen session: a PlayUI and, beside it, the simulated board it plays with."""

    def __init__(
        self,
        ui: PlayUI,
        sim: SimulatedBoard | None,
        input: Input | None = None,
        output: Output | None = None,
    ):
        self.ui = ui
        self.sim = sim
        self.board_keys = False  # the keyboard's letters press the board's keys
        self.status = ""  # one line: why the last board letter did nothing, or a hint
        self.notes = ""  # what the last command printed besides the view
        self.notes_top = 0  # the first line of `notes` shown, when they page
        self._parts = ("", "", "")  # the view's head, roster and the rest (ANSI)
        self._heights = (0, 0)  # the head's lines, the roster's
        self._stale = True
        self._drawn_for = (0, 0, 0)  # the (columns, rows, status lines) they were drawn for
        self._lock = threading.Lock()
        # The UI prints refusals, help and tables to this console; the view is captured.
        self._printed = io.StringIO()
        ui.console = Console(
            file=self._printed, force_terminal=True, color_system="truecolor", width=80
        )
        ui.redraw = self._changed
        ui.older_log_lines = sys.maxsize  # the log fills the screen's room
        self.buffer = Buffer(
            completer=CommandCompleter(ui), complete_while_typing=False, multiline=False
        )
        self.bound = BoundedLine(self.buffer)  # a line no longer than a command may be
        self.app: Application[None] = Application(
            layout=self._layout(),
            key_bindings=self._keys(),
            full_screen=True,
            refresh_interval=GRID_REFRESH_SECONDS if sim is not None else None,
            input=input,
            output=output,
            mouse_support=False,
        )
        self.app.ttimeoutlen = ESCAPE_SECONDS
        self.app.timeoutlen = KEY_CHORD_SECONDS
        self.bound.guard(self.app.input)

    # ------------------------------------------------------------------ layout
    def _layout(self) -> Layout:
        viewing = Condition(lambda: not self.paging)
        head = Window(
            FormattedTextControl(lambda: self._part(0)),
            height=lambda: Dimension.exact(self._heights_now()[0]),
            wrap_lines=False,
        )
        roster = Window(FormattedTextControl(lambda: self._part(1)), wrap_lines=False)
        top: Any = roster
        if self.sim is not None:
            board = Window(
                FormattedTextControl(self._board_text),
                width=Dimension.exact(self._board_width()),
                wrap_lines=True,
            )
            top = VSplit([roster, Window(width=1, char="│", style="class:rule"), board])
        top_box = HSplit([top], height=lambda: Dimension.exact(self._heights_now()[1]))
        rest = Window(FormattedTextControl(lambda: self._part(2)), wrap_lines=False)
        key_list = Window(
            FormattedTextControl(
                lambda: FormattedText([("class:keys", "\n".join(self._key_list()))])
            ),
            height=lambda: Dimension.exact(len(self._key_list())),
        )
        view = ConditionalContainer(HSplit([head, top_box, key_list, rest]), filter=viewing)
        notes = Window(
            FormattedTextControl(self._notes_text),
            height=lambda: Dimension.exact(self._note_lines()),
            wrap_lines=False,
        )
        prompt = Window(
            BufferControl(
                self.buffer,
                input_processors=[BeforeInput(lambda: BOARD_PROMPT if self.board_keys else PROMPT)],
            ),
            height=1,
        )
        status = Window(
            FormattedTextControl(lambda: FormattedText([("italic", self._status_line())])),
            height=lambda: Dimension.exact(self._status_lines()),
            align=WindowAlign.LEFT,
        )
        self._prompt_window = prompt
        body = FloatContainer(
            HSplit([view, notes, status, prompt]),
            floats=[
                Float(
                    xcursor=True,
                    ycursor=True,
                    content=CompletionsMenu(max_height=MENU_LINES, scroll_offset=1),
                )
            ],
        )
        return Layout(body, focused_element=prompt)

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _pane_width(self) -> int:
        columns = self._size()[0]
        if self.sim is None:
            return columns
        return max(20, columns - self._board_width() - 1)

    def _heights_now(self) -> tuple[int, int]:
        self._draw()
        return self._heights

    def _part(self, n: int) -> ANSI:
        self._draw()
        return ANSI(self._parts[n])

    def _view_text(self) -> ANSI:
        """The whole live view as shown (its three parts), for tests and the web alike."""
        self._draw()
        return ANSI("\n".join(self._parts))

    def _draw(self) -> None:
        """Lay the view out again if it changed or the terminal did: the head at the full
        width, the roster beside the board, the rest (log, dice, odds, scores) in the
        full width under them, in the lines left over."""
        columns, rows = self._size()
        drawn_for = (columns, rows, self._status_lines())
        with self._lock:
            if not self._stale and self._drawn_for == drawn_for:
                return
            tether = self.ui.tether
            if tether is not None:
                with tether.lock:  # board presses change the session on the link's thread
                    self.ui._take_board_lines()
                    self._lay_out(columns, rows)
            else:
                self._lay_out(columns, rows)
            self._drawn_for = drawn_for
            self._stale = False

    def _lay_out(self, columns: int, rows: int) -> None:
        """The last action's lines come first, whole (with the roll a waiting action wants
        and the scores): the roster gives way to them (a fight of 8 with conditions, or of
        16), then the board's hint, then the status line when it says nothing; the dice,
        the odds and older log lines take what is left."""
        console = self.ui.console
        console.size = (columns, rows)
        head = self._ansi(self.ui.head())
        head_lines = head.count("\n") + 1
        needed = self.ui.below_needs()
        # The lines under the head for the roster beside the board and the rest.
        free = rows - 1 - self._status_lines() - head_lines
        free -= len(self._key_list()) + self._note_lines()
        grid = self._board_lines(hint=False)
        most = max(ROSTER_MIN_LINES, grid, free - needed)
        while True:
            console.size = (self._pane_width(), rows)
            roster = self._ansi([self.ui.roster(most)])  # (each fighter's effects under its row)
            roster_lines = roster.count("\n") + 1
            # The board's hint shows where the last action's lines leave room for it.
            board = min(self._board_lines(), max(grid, free - needed))
            top_lines = max(roster_lines, board)
            left = free - top_lines
            room = max(REST_MIN_LINES, left)
            console.size = (columns, room)
            rest = self._ansi(self.ui.below(room))
            # Lines the rest leaves blank (an older line too long for them) go to a
            # roster that was cut.
            spare = left - (rest.count("\n") + 1)
            # (A cut roster may leave lines of its room unused: a fighter whole or none.)
            if spare <= 0 or not self.ui.roster_cut or roster_lines + spare <= most:
                break
            most = roster_lines + spare
        self._parts = (head, roster, rest)
        self._heights = (head_lines, top_lines)

    def _ansi(self, parts: list[Any]) -> str:
        console = self.ui.console
        with console.capture() as captured:
            for part in parts:
                console.print(part)
        return captured.get().rstrip("\n")

    # ------------------------------------------------------------------ notes and the pager
    @property
    def paging(self) -> bool:
        """What the last command printed is too long to show under the view: it pages over
        it instead."""
        rows = self._size()[1]
        return self._notes_count() > max(0, rows - 2 - VIEW_MIN_LINES)

    def _notes_count(self) -> int:
        return self.notes.count("\n") + 1 if self.notes else 0

    def _note_lines(self) -> int:
        """The lines the last command's output gets: all of it under the view, or (paging)
        every line but the status's and the prompt's."""
        if not self.notes:
            return 0
        if self.paging:
            return max(1, self._size()[1] - 2)
        return self._notes_count()

    def _notes_text(self) -> ANSI:
        if not self.paging:
            return ANSI(self.notes)
        lines = self.notes.split("\n")
        return ANSI("\n".join(lines[self.notes_top : self.notes_top + self._note_lines()]))

    def _status_lines(self) -> int:
        """The status line's: none when it says nothing (the view has the line)."""
        return 1 if self._status_line() else 0

    def _status_line(self) -> str:
        if self.status or not self.paging:
            return self.status
        shown = self._note_lines()
        last = min(self._notes_count(), self.notes_top + shown)
        return f"lines {self.notes_top + 1}-{last} of {self._notes_count()}: {PAGER_HINT}"

    def _page(self, pages: int) -> None:
        step = max(1, self._note_lines() - 1)
        most = max(0, self._notes_count() - self._note_lines())
        self.notes_top = max(0, min(most, self.notes_top + pages * step))

    # ------------------------------------------------------------------ the board's pane
    def _board_width(self) -> int:
        assert self.sim is not None
        return max(3 * self.sim.profile.WIDTH + 1, BOARD_PANE_MIN)

    def _board_hint(self) -> list[str]:
        """Under the grid: the page it shows (the board's page key moves it), then how to
        press its keys."""
        assert self.sim is not None
        width = self._board_width()
        page = textwrap.wrap(f"board: {self.sim.page_name} page", width)
        if self.board_keys:
            return page + textwrap.wrap("Ctrl-B or Esc: back to the prompt", width)
        return page + textwrap.wrap(BOARD_HINT, width)

    def _key_list(self) -> list[str]:
        """In board-key mode, which letter presses which key, across the screen's width
        (under the view: the board's pane is too narrow for them)."""
        if not self.board_keys or self.sim is None:
            return []
        from host.screens.board_keyboard import help_line

        columns = self._size()[0]
        first, *menu = help_line(self.sim).split("\n")
        keys = [k for k in first.removeprefix("keys: ").split("  ") if k and k != "q=quit"]
        lines = _packed(keys, columns)
        for more in menu:  # the Pico's menu, in words
            lines += textwrap.wrap(more, columns)
        return lines

    def _board_lines(self, hint: bool = True) -> int:
        """The board's pane's lines: its grid and (`hint`) the hint under it."""
        if self.sim is None:
            return 0
        return self.sim.profile.HEIGHT + (len(self._board_hint()) if hint else 0)

    def _board_text(self) -> ANSI:
        assert self.sim is not None
        hint = "\n".join(self._board_hint())
        return ANSI(f"{led_grid(self.sim.grid())}\n\x1b[2m{hint}\x1b[0m")

    def _changed(self) -> None:
        """The view must be redrawn (a command ran, or the board did something)."""
        with self._lock:
            self._stale = True
        self.app.invalidate()

    # ------------------------------------------------------------------ keys
    def _keys(self) -> KeyBindings:
        keys = KeyBindings()
        typing = Condition(lambda: not self.board_keys)
        pressing = Condition(lambda: self.board_keys)
        empty = Condition(lambda: not self.buffer.text)
        has_board = Condition(lambda: self.sim is not None)

        paging = Condition(lambda: bool(self.notes) and self.paging)

        @keys.add("enter", filter=typing)
        def _run(event: KeyPressEvent) -> None:
            menu = self.buffer.complete_state
            if menu is not None:
                self.buffer.complete_state = None  # the menu closes; a chosen name stays
                if menu.current_completion is not None:
                    return
            line = self.buffer.text
            self.buffer.reset()
            too_long = self.bound.refusal()
            if too_long is not None:
                self.notes = f"refused: {too_long}"
                self._changed()
                return
            self.run_line(line)

        @keys.add("c-b", filter=typing & has_board)
        def _to_board(event: KeyPressEvent) -> None:
            self.board_keys = True
            self.status = "the letters press the board's keys; Ctrl-B or Esc: back to the prompt"
            self._changed()

        @keys.add("tab", filter=typing)
        def _complete(event: KeyPressEvent) -> None:
            # The common part of every choice, then a menu of them (Tab again steps on).
            if self.buffer.complete_state:
                self.buffer.complete_next()
            else:
                self.buffer.start_completion(insert_common_part=True)

        @keys.add("pagedown", filter=paging)
        def _page_down(event: KeyPressEvent) -> None:
            self._page(1)

        @keys.add("pageup", filter=paging)
        def _page_up(event: KeyPressEvent) -> None:
            self._page(-1)

        @keys.add("escape", filter=typing & paging, eager=True)
        def _close_notes(event: KeyPressEvent) -> None:
            self.notes = ""
            self._changed()

        @keys.add("tab", filter=pressing)
        def _tab_on_the_board(event: KeyPressEvent) -> None:
            self.status = "Tab completes at the prompt: Ctrl-B or Esc gives the letters back first"
            self._changed()

        @keys.add("escape", filter=pressing, eager=True)
        @keys.add("c-b", filter=pressing)
        def _to_prompt(event: KeyPressEvent) -> None:
            self.board_keys = False
            self.status = ""
            self._changed()

        @keys.add("<any>", filter=pressing)
        def _press(event: KeyPressEvent) -> None:
            from host.screens.board_keyboard import press_letter

            assert self.sim is not None
            letter = event.data
            self.status = press_letter(self.sim, letter) or f"{letter}: pressed"

        @keys.add("c-c")
        def _clear(event: KeyPressEvent) -> None:
            if not self.buffer.text:
                self.status = LEAVE_HINT
            self.buffer.reset()
            self.bound.dropped = 0

        @keys.add("c-d", filter=empty)
        def _leave(event: KeyPressEvent) -> None:
            event.app.exit()

        return keys

    # ------------------------------------------------------------------ commands
    def run_line(self, line: str) -> None:
        """Run one typed line as the line prompt would, and show what it printed."""
        self.status = ""
        # What the command prints (help, scores) is laid out for the view's pane.
        self.ui.console.size = self._size()
        keep_going = self.ui.handle(line)
        printed = self._printed.getvalue()
        self._printed.seek(0)
        self._printed.truncate()
        if printed.strip() or line.strip():
            self.notes = printed.rstrip("\n")
            self.notes_top = 0
        self._changed()
        if not keep_going:
            self.app.exit()

    def run(self) -> None:
        """Play until `quit` or Ctrl-D. Board presses redraw the view from the tether's
        watcher, as in the line prompt."""
        stop = threading.Event()
        if self.ui.tether is not None:
            threading.Thread(target=self._watch_board, args=(stop,), daemon=True).start()
        try:
            self.app.run()
        finally:
            stop.set()

    def _watch_board(self, stop: threading.Event) -> None:
        from host.screens.play_ui import BOARD_ECHO_SECONDS

        while not stop.wait(BOARD_ECHO_SECONDS):
            self.ui.echo_board()


def _packed(items: list[str], width: int) -> list[str]:
    """Items two spaces apart in lines of at most `width` columns, none split."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item)
    return lines
