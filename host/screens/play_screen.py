"""`turnlight play --sim` on a terminal: one full-screen app with the live view, the
simulated board's LED grid drawn live in colour, and the prompt.

The left pane is the play UI's live view (host/screens/play_ui.py), redrawn whenever a typed
command or a board press changes it; under it, whatever the last command printed besides
the view (a refusal, `help`, `scores`). The right pane is the board's grid as its LEDs show
it now, and under it which keyboard letters press its keys. Tab on an empty prompt (or
Ctrl-B) hands the letters to the board: `n` presses next turn, `r` rolls, and so on, as in
`turnlight sim`; Tab or Esc gives them back to the prompt. Enter runs the line; Ctrl-C
clears it; Ctrl-D or `quit` ends the session.

Built on prompt_toolkit's full-screen Application, so tests drive it with the library's
own pipe input and a dummy output.
"""

from __future__ import annotations

import io
import textwrap
import threading
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import BufferControl, FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.layout.containers import VSplit, WindowAlign
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import BeforeInput
from rich.console import Console

from host.screens.play_ui import LEAVE_HINT, BoundedLine, CommandCompleter, PlayUI

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from host.board.simulated_board import SimulatedBoard

GRID_REFRESH_SECONDS = 0.1  # how often the board's grid is redrawn (its LEDs pulse)
NOTE_LINES = 4  # lines what the last command printed always gets, if it needs them
VIEW_MIN_LINES = 10  # lines the live view keeps when a command printed much (help)
BOARD_PANE_MIN = 26  # columns: the board's pane is its grid's width, or this
PROMPT = "turnlight> "
BOARD_HINT = "Tab on an empty line (or Ctrl-B): the letters press the board's keys"
BOARD_PROMPT = "board keys> "


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
        self._view = ""  # the live view as last drawn (ANSI), remade when `_stale`
        self._stale = True
        self._view_width = 0
        self._lock = threading.Lock()
        # The UI prints refusals, help and tables to this console; the view is captured.
        self._printed = io.StringIO()
        ui.console = Console(
            file=self._printed, force_terminal=True, color_system="truecolor", width=80
        )
        ui.redraw = self._changed
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
        self.bound.guard(self.app.input)

    # ------------------------------------------------------------------ layout
    def _layout(self) -> Layout:
        view = Window(FormattedTextControl(self._view_text), wrap_lines=False)
        notes = Window(
            FormattedTextControl(self._notes_text),
            height=lambda: Dimension.exact(self._note_lines()),
            wrap_lines=True,
        )
        left = HSplit([view, notes])
        body: Any = left
        if self.sim is not None:
            board = Window(
                FormattedTextControl(self._board_text),
                width=Dimension.exact(self._board_width()),
                wrap_lines=True,
            )
            body = VSplit([left, Window(width=1, char="│", style="class:rule"), board])
        prompt = Window(
            BufferControl(
                self.buffer,
                input_processors=[BeforeInput(lambda: BOARD_PROMPT if self.board_keys else PROMPT)],
            ),
            height=1,
        )
        status = Window(
            FormattedTextControl(lambda: FormattedText([("italic", self.status)])),
            height=1,
            align=WindowAlign.LEFT,
        )
        self._prompt_window = prompt
        return Layout(HSplit([body, status, prompt]), focused_element=prompt)

    def _pane_width(self) -> int:
        columns = self.app.output.get_size().columns
        if self.sim is None:
            return columns
        return max(20, columns - self._board_width() - 1)

    def _view_text(self) -> ANSI:
        width = self._pane_width()
        rows = self.app.output.get_size().rows
        with self._lock:
            if self._stale or width != self._view_width:
                console = self.ui.console
                console.size = (width, max(8, rows - 2 - self._note_lines()))
                tether = self.ui.tether
                if tether is not None:
                    with tether.lock:  # board presses change the session on the link's thread
                        self.ui._take_board_lines()
                        frame = self.ui.render()
                else:
                    frame = self.ui.render()
                with console.capture() as captured:
                    console.print(frame)
                self._view = captured.get()
                self._view_width = width
                self._stale = False
            return ANSI(self._view)

    def _note_lines(self) -> int:
        """The lines the last command's output gets: all of it, as long as the view keeps
        VIEW_MIN_LINES (the rest is cut; `help VERB` says one command's)."""
        if not self.notes:
            return 0
        room = max(NOTE_LINES, self.app.output.get_size().rows - 2 - VIEW_MIN_LINES)
        return min(room, self.notes.count("\n") + 1)

    def _notes_text(self) -> ANSI:
        return ANSI(self.notes)

    def _board_width(self) -> int:
        assert self.sim is not None
        return max(3 * self.sim.profile.WIDTH + 1, BOARD_PANE_MIN)

    def _board_text(self) -> ANSI:
        assert self.sim is not None
        grid = self.sim.terminal_grid()
        if self.board_keys:
            from host.screens.board_keyboard import help_line

            first, *menu = help_line(self.sim).split("\n")
            keys = [k for k in first.removeprefix("keys: ").split("  ") if k and k != "q=quit"]
            lines = _packed(keys + ["Tab/Esc=back to the prompt"], self._board_width())
            for more in menu:  # the Pico's menu, in words
                lines += textwrap.wrap(more, self._board_width())
        else:
            lines = textwrap.wrap(BOARD_HINT, self._board_width())
        hint = "\n".join(lines)
        return ANSI(f"{grid}\n\n\x1b[2m{hint}\x1b[0m")

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

        @keys.add("enter", filter=typing)
        def _run(event: KeyPressEvent) -> None:
            line = self.buffer.text
            self.buffer.reset()
            too_long = self.bound.refusal()
            if too_long is not None:
                self.notes = f"refused: {too_long}"
                self._changed()
                return
            self.run_line(line)

        @keys.add("tab", filter=typing & empty & has_board)
        @keys.add("c-b", filter=typing & has_board)
        def _to_board(event: KeyPressEvent) -> None:
            self.board_keys = True
            self.status = "the letters press the board's keys; Tab or Esc: back to the prompt"

        @keys.add("tab", filter=typing & ~empty)
        def _complete(event: KeyPressEvent) -> None:
            self.buffer.start_completion(select_first=False)

        @keys.add("tab", filter=pressing)
        @keys.add("escape", filter=pressing, eager=True)
        @keys.add("c-b", filter=pressing)
        def _to_prompt(event: KeyPressEvent) -> None:
            self.board_keys = False
            self.status = ""

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
        self.ui.console.size = (self._pane_width(), self.app.output.get_size().rows)
        keep_going = self.ui.handle(line)
        printed = self._printed.getvalue()
        self._printed.seek(0)
        self._printed.truncate()
        if printed.strip() or line.strip():
            self.notes = printed.rstrip("\n")
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
