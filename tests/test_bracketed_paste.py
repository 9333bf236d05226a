"""A bracketed paste longer than a command may be is refused in the same one line as a long
typed or piped line (issue #37 item 7). The terminal sends a long paste in several reads;
prompt_toolkit's parser feeds itself the rest of a read from the paste's start on, and
that rest was cut a second time as if more of the same run: the paste's text was dropped
whole, the line came out empty and nothing was said."""

from __future__ import annotations

import threading
from io import StringIO

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from host.core.commandline import MAX_LINE
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens.play_screen import PlayScreen
from host.screens.play_ui import PlayUI, make_prompt

REFUSAL = (
    f"refused: the line is longer than {MAX_LINE:,} characters, the most a command may be;"
    " the rest of it was not read"
)


def _ui() -> tuple[PlayUI, StringIO]:
    out = StringIO()
    enc = encounter_schema.load(encounter_schema.example_path())
    return PlayUI(Session(enc, 2), Console(file=out, width=300, color_system=None)), out


def _pasted(length: int) -> str:
    return "\x1b[200~odds Kaelen " + "x" * (length - 12) + "\x1b[201~"


def _send(pipe, text: str) -> threading.Thread:
    # From a thread: the pipe holds 64 KB, and the prompt reads it as the test waits.
    sender = threading.Thread(target=pipe.send_text, args=(text,), daemon=True)
    sender.start()
    return sender


@pytest.mark.parametrize("length", [MAX_LINE + 100, 5_000, 60_000])
def test_a_long_bracketed_paste_at_the_line_prompt_is_refused_as_a_long_line(length: int) -> None:
    ui, out = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        sender = _send(pipe, _pasted(length) + "\rinitiative\rquit\r")
        ui.loop(prompt)
        sender.join(10)
    said = [" ".join(line.split()) for line in out.getvalue().splitlines()]
    assert said.count(REFUSAL) == 1
    assert [e.text for e in ui.session.done] == ["initiative"]  # the next line, whole


@pytest.mark.parametrize("length", [MAX_LINE + 100, 5_000])
def test_a_long_bracketed_paste_on_the_full_screen_is_refused_as_a_long_line(length: int) -> None:
    ui, _ = _ui()
    with create_pipe_input() as pipe:
        screen = PlayScreen(ui, None, input=pipe, output=DummyOutput())
        notes: list[str] = []
        redraw = screen._changed

        def changed() -> None:  # each note the screen shows, as it shows it
            notes.append(screen.notes)
            redraw()

        screen._changed = changed  # type: ignore[method-assign]
        ui.redraw = changed
        sender = _send(pipe, _pasted(length) + "\rquit\r")
        screen.run()
        sender.join(10)
    assert REFUSAL in notes
