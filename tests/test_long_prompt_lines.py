"""A line typed, pasted or piped at the prompt is never held longer than a command may be
(issue #27, finding 3.2): prompt_toolkit kept the whole line for undo at every key, so a
line of 30,000 characters cost 481 MiB and 5 s, 100,000 cost 4.96 GB and 28 s, before the
command line refused it. The line prompt and the full-screen one both keep it to
MAX_LINE characters and drop the rest of a run unread; the line is refused in one line and
the next one is read whole."""

from __future__ import annotations

import threading
from io import StringIO

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from host.core.commandline import MAX_LINE
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens.play_screen import PlayScreen
from host.screens.play_ui import PlayUI, make_prompt

LONG = 60_000  # characters: 1.8 GB of undo copies, and 24 s of keys, before the bound


def _ui() -> tuple[PlayUI, StringIO]:
    out = StringIO()
    enc = encounter_schema.load(encounter_schema.example_path())
    return PlayUI(Session(enc, 2), Console(file=out, width=200, color_system=None)), out


def _watched(buffer, key_processor) -> dict[str, int]:
    """The longest line the buffer held, the most characters its undo stack held, and the
    keys processed, as the prompt ran."""
    seen = {"line": 0, "undo": 0, "keys": 0}

    def changed(buf) -> None:
        seen["line"] = max(seen["line"], len(buf.text))
        seen["undo"] = max(seen["undo"], sum(len(t) for t, _ in buf._undo_stack))

    def key(_) -> None:
        seen["keys"] += 1

    buffer.on_text_changed += changed
    key_processor.before_key_press += key
    return seen


def _send(pipe, text: str) -> threading.Thread:
    # From a thread: the pipe holds 64 KB, and the prompt reads it as the test waits.
    sender = threading.Thread(target=pipe.send_text, args=(text,), daemon=True)
    sender.start()
    return sender


def test_a_long_line_at_the_prompt_is_refused_holding_no_more_than_a_command() -> None:
    ui, out = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        seen = _watched(prompt.default_buffer, prompt.app.key_processor)
        sender = _send(pipe, "odds Kaelen " + "x" * LONG + "\rinitiative\rquit\r")
        ui.loop(prompt)
        sender.join(10)
    assert seen["line"] <= MAX_LINE
    assert seen["undo"] <= MAX_LINE * (MAX_LINE + 1) // 2  # one copy a length, at most
    # The rest never became keys, however many reads of the pipe it came in (a bound of 16
    # characters a read let 60,000 characters make about twice as many keys).
    assert seen["keys"] <= MAX_LINE + 100
    said = " ".join(out.getvalue().split())
    assert "refused: the line is longer than 1,000 characters, the most a command may be;" in said
    assert [e.text for e in ui.session.done] == ["initiative"]  # the next line, whole


def test_a_line_cut_and_then_cleared_with_ctrl_c_does_not_refuse_the_next() -> None:
    ui, out = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        sender = _send(pipe, "x" * (2 * MAX_LINE) + "\x03initiative\rquit\r")
        ui.loop(prompt)
        sender.join(10)
    assert "longer than" not in out.getvalue()
    assert [e.text for e in ui.session.done] == ["initiative"]


def test_a_long_line_on_the_full_screen_prompt_is_refused_the_same_way() -> None:
    ui, _ = _ui()
    with create_pipe_input() as pipe:
        screen = PlayScreen(ui, None, input=pipe, output=DummyOutput())
        seen = _watched(screen.buffer, screen.app.key_processor)
        sender = _send(pipe, "odds Kaelen " + "x" * LONG + "\rinitiative\rquit\r")
        screen.run()
        sender.join(10)
    assert seen["line"] <= MAX_LINE and seen["keys"] <= 3 * MAX_LINE
    assert [e.text for e in ui.session.done] == ["initiative"]


def test_a_long_bracketed_paste_is_refused_not_cut_short() -> None:
    # A terminal marks a paste ("\x1b[200~" ... "\x1b[201~"); its text reaches the line only
    # when it ends, so what is dropped of it must still leave the line too long. One of
    # 1,005 characters comes in one read (1,024 bytes): cut to one past the limit after
    # "[200~", it was a line of 996 characters, run.
    ui, out = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        seen = _watched(prompt.default_buffer, prompt.app.key_processor)
        paste = "\x1b[200~odds Kaelen " + "x" * (MAX_LINE + 5 - 12) + "\x1b[201~"
        sender = _send(pipe, paste + "\rinitiative\rquit\r")
        ui.loop(prompt)
        sender.join(10)
    assert seen["line"] <= MAX_LINE
    assert "refused: the line is longer than 1,000 characters" in " ".join(out.getvalue().split())
    assert [e.text for e in ui.session.done] == ["initiative"]


def test_a_last_piped_line_without_its_newline_still_runs() -> None:
    """`printf 'initiative' | turnlight play`: the end of input ends the line, as a newline
    would, and then the session."""
    ui, _ = _ui()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        prompt = make_prompt(ui, input=pipe, output=DummyOutput())
        pipe.send_text("initiative\rend")
        pipe.close()
        ui.loop(prompt)
    assert [e.text for e in ui.session.done] == ["initiative", "end"]
