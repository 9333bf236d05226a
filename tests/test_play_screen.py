"""`turnlight play --sim` on a terminal is one full-screen app: the live view, the simulated
board's grid drawn live, and the prompt; the keyboard's letters press the board's keys
after Tab (#15, "One terminal should be enough"). Driven with prompt_toolkit's own pipe
input, and in a real terminal under tmux at 80x24."""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from tmux_terminal import Tmux
from waiting import WAIT, until

from host.board.tethered_sim import TetheredSim
from host.core.session import Session
from host.rulesets.korxsol import encounter_schema
from host.screens.play_screen import PlayScreen, led_grid
from host.screens.play_ui import PlayUI


class Output80x24(DummyOutput):
    def get_size(self) -> Size:
        return Size(rows=24, columns=80)


@contextmanager
def screen_on_a_board(tmp_path: Path) -> Iterator[tuple[PlayScreen, TetheredSim, object]]:
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    table = TetheredSim(session).start(WAIT)
    try:
        with create_pipe_input() as pipe:
            ui = PlayUI(session, Console(), tether=table.tether)
            screen = PlayScreen(ui, table.sim, input=pipe, output=Output80x24())
            runner = threading.Thread(target=screen.run, daemon=True)
            runner.start()
            try:
                yield screen, table, pipe
            finally:
                if runner.is_alive():
                    if screen.board_keys or screen.paging:  # Esc, then the line, apart
                        pipe.send_text("\x1b")
                        until(lambda: not (screen.board_keys or screen.paging), "Esc taken")
                    pipe.send_text("\x15quit\r")  # Ctrl-U clears the line
                runner.join(WAIT)
                assert not runner.is_alive(), "the screen did not end on quit"
    finally:
        table.stop()


def test_a_typed_command_runs_and_the_view_shows_its_result(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        pipe.send_text("initiative\r")
        until(lambda: screen.ui.session.ruleset.started(screen.ui.session.game), "started")
        until(lambda: "round 1" in screen._view_text().value, "the view shows round 1")


def test_ctrl_b_hands_the_letters_to_the_board(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        session = screen.ui.session
        pipe.send_text("\x02")  # Ctrl-B
        until(lambda: screen.board_keys, "board keys on")
        pipe.send_text("n")  # the board's next turn: it starts the fight, nothing typed
        until(lambda: session.ruleset.started(session.game), "the board's press started it")
        until(lambda: "board: " in screen._view_text().value, "the view shows the board's press")
        assert screen.buffer.text == ""  # the letter went to the board, not the prompt
        pipe.send_text("\x1b")
        until(lambda: not screen.board_keys, "Esc gives the letters back to the prompt")


def test_tab_on_an_empty_line_completes_and_never_presses_the_board_s_keys(
    tmp_path: Path,
) -> None:
    """The first-hour issue, item 5: a newcomer presses Tab to see the commands, then types
    `end`: the letters go to the prompt (no turn ended, no d100 rolled on the board)."""
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        session = screen.ui.session
        pipe.send_text("\t")
        until(lambda: screen.buffer.complete_state is not None, "Tab shows the commands")
        assert not screen.board_keys
        pipe.send_text("\x1b")  # the menu closes
        pipe.send_text("\x15end")  # Ctrl-U, then the letters of `end`
        until(lambda: screen.buffer.text == "end", "the letters are typed at the prompt")
        assert not screen.board_keys and not session.done


def test_a_refusal_is_shown_under_the_view_and_changes_nothing(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        before = len(screen.ui.session.done)
        pipe.send_text("attack Nobody Fireball Orrin\r")
        until(lambda: "refused" in screen.notes, "the refusal is shown")
        assert len(screen.ui.session.done) == before


def test_a_letter_the_board_has_no_key_for_says_so(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        pipe.send_text("\x02")  # Ctrl-B
        until(lambda: screen.board_keys, "board keys on")
        pipe.send_text("z")
        until(lambda: "not a key" in screen.status, "the status line says why")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_80x24_terminal_the_grid_the_view_and_the_prompt_share_the_screen(
    tmp_path: Path,
) -> None:
    t = Tmux(tmp_path)
    try:
        db = str(tmp_path / "j.sqlite")
        # The engine rolls: this test is about the screen (board dice: test_wanted_rolls.py).
        args = ("--sim", "--db", db, "--seed", "3", "--dice", "engine")
        t.start("play", "play", *args, stay=True)
        t.wait("play", "linked", WAIT)
        t.keys("play", "initiative")
        t.press("play", "Enter")
        t.wait("play", "round 1", WAIT)
        t.press("play", "C-b")
        t.wait("play", "BOARD KEYS (Ctrl-B or Esc: back to typing)>", WAIT)
        t.keys("play", "n")  # the board ends the first turn
        t.wait("play", "board: ", WAIT)
        lines = t.lines("play")
        assert all(len(line) <= 80 for line in lines)
        assert any("██" in line and "│" in line for line in lines)  # the grid, beside the view
        t.press("play", "C-b")
        t.keys("play", "quit")
        t.press("play", "Enter")
        t.wait("play", "resume with: turnlight play --resume 1", WAIT)
    finally:
        t.close()


# ---------------------------------------------------------------- issue #28: at a real table
def test_tab_shows_the_moves_in_a_menu_and_enter_takes_one_without_running_the_line(
    tmp_path: Path,
) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        session = screen.ui.session
        pipe.send_text("initiative\r")
        until(lambda: session.ruleset.started(session.game), "started")
        pipe.send_text("attack Kaelen \t")
        moves = ['"Flame Slash"', '"Rally Cry"', '"Heavy Charge"']

        def offered() -> list[str]:
            menu = screen.buffer.complete_state  # opens empty: its items come as made
            return [c.display_text for c in menu.completions] if menu is not None else []

        until(lambda: offered() == moves, f"the menu offering {moves}")
        menu = screen.buffer.complete_state
        assert menu is not None
        assert menu.current_completion is None  # shown, nothing inserted yet
        pipe.send_text("\x1b[B")  # Down chooses the first, in the menu on screen
        until(lambda: screen.buffer.text == 'attack Kaelen "Flame Slash"', "Down chose one")
        done = len(session.done)
        pipe.send_text("\r")  # Enter takes the choice; the line is not run yet
        until(lambda: screen.buffer.complete_state is None, "the menu closes")
        assert screen.buffer.text == 'attack Kaelen "Flame Slash"' and len(session.done) == done


def test_at_80x24_every_line_of_the_last_attack_shows_with_the_scores(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        ui = screen.ui
        pipe.send_text("initiative\r")
        until(lambda: ui.session.ruleset.started(ui.session.game), "started")
        pipe.send_text('attack Kaelen "Flame Slash" Orrin\r')
        until(lambda: any("Flame Slash on Orrin" in m for m in ui.messages), "the attack ran")
        until(lambda: not screen._stale, "drawn")
        shown = " ".join(screen._view_text().value.split())
        last = ui.messages[ui.last_mark :]
        assert len(last) >= 4  # the odds, the use, the hit, the damage ...
        for line in last:
            assert " ".join(line.split()) in shown
        assert " ".join(ui.session.ruleset.score_line(ui.session.game).split()) in shown
        head, roster, rest = screen._parts
        rows = sum(part.count("\n") + 1 for part in (head, rest)) + screen._heights[1]
        assert rows + screen._status_lines() + 1 <= 24  # with the status line and the prompt


def test_help_pages_over_the_view_and_esc_closes_it(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        pipe.send_text("help\r")
        until(lambda: screen.notes.startswith("initiative"), "help is shown")
        assert screen.paging and screen._note_lines() == 22  # all but status and prompt
        assert screen._status_line().startswith("lines 1-22 of ")
        pipe.send_text("\x1b[6~")  # PgDn
        until(lambda: screen.notes_top > 0, "the next page")
        pipe.send_text("\x1b[6~" * 5)
        until(lambda: "Ctrl-D or `quit` ends" in screen._notes_text().value, "the last page")
        pipe.send_text("\x1b")
        until(lambda: screen.notes == "", "Esc closes it")


def test_a_dim_led_is_drawn_brightened_as_the_web_page_draws_it() -> None:
    # host/web/static/app.js, `lit`: the square root of each channel, as a screen shows it.
    drawn = led_grid([[(2, 3, 5), (255, 255, 255), (0, 0, 0)]])
    found = re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", drawn)
    colours = [tuple(map(int, c)) for c in found]
    assert colours[0] == (23, 28, 36)  # not rgb(2,3,5): black on a dark terminal
    assert colours[1] == (255, 255, 255) and "··" in drawn  # full stays full; unlit a dot


def test_escape_leaves_board_keys_without_waiting_for_an_escape_sequence(tmp_path: Path) -> None:
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        # prompt_toolkit waits ttimeoutlen for the rest of a sequence after Esc (0.5 s by
        # default, which felt like a second): the screen asks for none worth noticing.
        assert screen.app.ttimeoutlen is not None and screen.app.ttimeoutlen <= 0.1
        pipe.send_text("\x02")  # Ctrl-B
        until(lambda: screen.board_keys, "board keys on")
        pipe.send_text("\x1b")
        until(lambda: not screen.board_keys, "Esc gives the letters back")


def test_url_shows_the_seed_the_web_addresses_and_a_qr_code_of_the_console() -> None:
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    ui = PlayUI(session, Console(width=80))
    ui.about += ["journal: j.sqlite (game 1), seed 3", "players' page: http://10.0.0.2:8765/"]
    ui.console_url = "http://10.0.0.2:8765/gm?token=abc"
    said = ui.started_text()
    assert "seed 3" in said and "http://10.0.0.2:8765/" in said
    assert said.count("\n") > 10 and "▀" in said  # the QR code, in half blocks


def test_url_served_on_this_machine_only_says_how_to_let_phones_in_not_a_qr_code() -> None:
    """The first-hour issue, item 4: no phone can open 127.0.0.1."""
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    ui = PlayUI(session, Console(width=80))
    ui.console_url = "http://127.0.0.1:8765/gm?token=abc"
    ui.phones_line = "phones cannot open 127.0.0.1: ... --web 0.0.0.0:8765"
    said = ui.started_text()
    assert "▀" not in said and said.splitlines()[-1] == ui.phones_line


def test_the_roster_spells_board_labels_as_the_names_to_type() -> None:
    from host.core import registry

    ruleset = registry.get("advance")
    encounter = ruleset.parse_encounter(ruleset.example_path().read_text(), "example.toml")
    ui = PlayUI(Session(encounter, 3), Console(width=80))
    shown = ui.roster().plain.split()
    names = [f.name for f in ruleset.fighters(ui.session.game)]
    assert all(name in shown for name in names)
    assert "Ayl" not in shown and "MOR" not in shown


def test_help_for_a_verb_lists_what_the_acting_fighter_may_use() -> None:
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    ui = PlayUI(session, Console(width=80))
    session.execute("initiative")
    acting = next(f.name for f in session.ruleset.fighters(session.game) if f.current)
    moves = {"Kaelen": "Flame Slash, Rally Cry, Heavy Charge"}.get(acting)
    assert acting == "Kaelen" and moves is not None  # seed 3: Kaelen goes first
    assert f"attack for Kaelen: {moves}" in " ".join(ui.help_text("attack").split())
    orrin = " ".join(ui.help_text("attack", who="Orn").split())
    assert "attack for Orrin: not now (not its turn): Rock Smash" in orrin


def test_at_80x24_a_fight_of_16_leaves_room_for_the_log_the_scores_and_the_prompt() -> None:
    """A fight may hold 16 fighters (docs/commands.md, `add`), each with effects under its
    row: taller than 80x24 (prompt_toolkit then drew "Window too small" and nothing else).
    The roster gives way, from the row of whoever takes the turn, saying how much it
    leaves out; the last action's lines and the scores still show."""
    from host.core import registry

    stones = registry.get("stones")
    path = stones.example_path()
    session = Session(stones.parse_encounter(path.read_text(), str(path)), seed=3)
    names = ["Abe", "Bix", "Cor", "Dax", "Eli", "Fen", "Gus", "Hal", "Ivo", "Jax"]
    for name in names:
        session.execute(f"add Wisp as {name}")
    for name in session.ruleset.fighter_names(session.game):
        session.execute(f"effect {name} Hex")
    with create_pipe_input() as pipe:
        ui = PlayUI(session, Console(), "no board")
        ui.handle("effect Jax Bless rounds=2")  # the last action: its line must show
        screen = PlayScreen(ui, None, input=pipe, output=Output80x24())
        screen._draw()
        head, roster, rest = screen._parts
        rows = sum(part.count("\n") + 1 for part in (head, rest)) + screen._heights[1]
        assert rows + screen._status_lines() + 1 <= 24  # with the status line and the prompt
        assert "not shown (a taller screen" in roster  # and how many, above and below
        assert "Kaelen" in roster  # whose turn it is: shown
        assert "Bless on Jax" in rest
        assert " ".join(session.ruleset.score_line(session.game).split()) in " ".join(rest.split())


def test_help_add_lists_the_encounter_s_templates_not_as_a_fighter_s_own() -> None:
    """`help add`: the templates the encounter file offers (docs/commands.md, `add`), said
    as templates: they are nobody's moves ("add for Kaelen: Ashling, Warden" misled)."""
    session = Session(encounter_schema.load(encounter_schema.example_path()), seed=3)
    ui = PlayUI(session, Console(width=80))
    session.execute("initiative")
    text = " ".join(ui.help_text("add").split())
    assert "templates: Ashling, Warden" in text and "add for" not in text


# ---------------------------------------------------------------- issue #38: a d20 fight of 8
def plain(ansi: str) -> str:
    """The text a terminal shows of it, its lines' spaces squeezed."""
    return " ".join(re.sub(r"\x1b\[[0-9;]*m", "", ansi).split())


@contextmanager
def d20_fight_of_eight(tmp_path: Path) -> Iterator[PlayScreen]:
    """The bundled d20 encounter with its Goblin Boss joined (eight creatures), a condition
    on each (the roster with them is taller than an 80x24 screen leaves it), and Mirel's
    Fire Bolt a critical hit (seed 10): four lines, the roll's wrapped at 80, on a board."""
    from host.core import registry

    d20 = registry.get("d20")
    path = d20.example_path()
    session = Session(d20.parse_encounter(path.read_text(), str(path)), seed=10)
    table = TetheredSim(session).start(10)
    try:
        with create_pipe_input() as pipe:
            ui = PlayUI(session, Console(), tether=table.tether)
            screen = PlayScreen(ui, table.sim, input=pipe, output=Output80x24())
            for line in [
                'add "Goblin Boss"',
                "initiative",
                "concentrate Oswin Bless",
                *(f"condition {n} blessed rounds=10" for n in ("Brenna", "Lira", "Mirel")),
                *(f'condition "Goblin {n}" frightened rounds=2' for n in (1, 2)),
                *(
                    f'condition "{n}" poisoned rounds=2'
                    for n in ("Ember the Wyrmling", "Goblin Boss")
                ),
                'attack Mirel "Goblin Boss"',
            ]:
                screen.run_line(line)
            assert len(d20.fighter_names(session.game)) == 8
            yield screen
    finally:
        table.stop()


def test_at_80x24_the_last_action_s_lines_come_first_whole_before_a_roster_of_eight(
    tmp_path: Path,
) -> None:
    """Issue #38, item 2: the roll ("d20 20 +6 = 26: a natural 20, a critical hit") was cut
    and only the damage lines showed: the roster took its lines first. The roster gives way
    (saying how many lines it leaves out) before any of the last action's lines."""
    with d20_fight_of_eight(tmp_path) as screen:
        screen._draw()
        head, roster, rest = screen._parts
        ui = screen.ui
        last = ui.messages[ui.last_mark :]
        assert last[0].startswith("Mirel attacks Goblin Boss with Fire Bolt: d20 20 +6 = 26")
        assert len(last) == 4 and len(last[0]) > 80  # the roll wraps: five lines in all
        for line in last:
            assert plain(line) in plain(rest)
        assert plain(ui.session.ruleset.score_line(ui.session.game)) in plain(rest)
        assert "not shown (a taller screen shows them)" in plain(roster)
        assert "> Mirel" in plain(roster)  # whose turn it is shows in the cut roster


def test_at_80x24_blank_lines_are_given_away_before_the_last_action_s_lines(
    tmp_path: Path,
) -> None:
    """Issue #38, item 2: two blank lines sat under the scores while the roll was cut: the
    status line saying nothing, and a line the log left. With the roster cut, every line of
    the screen shows something: the view fills all but the prompt's line."""
    with d20_fight_of_eight(tmp_path) as screen:
        screen._draw()
        head, roster, rest = screen._parts
        rows = sum(part.count("\n") + 1 for part in (head, rest)) + screen._heights[1]
        assert rows + 1 == 24  # and the prompt
        assert screen._status_line() == "" and screen._status_lines() == 0
        assert roster.count("\n") + 1 == screen._heights[1]  # the roster's, not the board's


def test_the_board_s_grid_names_the_page_it_shows(tmp_path: Path) -> None:
    """The first-hour issue, item 9: the grid beside the view did not say which of the
    board's pages it was (initiative, cooldowns, dice, ...)."""
    with screen_on_a_board(tmp_path) as (screen, table, pipe):
        assert screen.sim is not None
        until(lambda: "board: initiative page" in screen._board_text().value, "the page's name")
        screen.sim.set_page("dice")
        until(lambda: "board: dice page" in screen._board_text().value, "the new page's name")


# ---------------------------------------------------------------- the big-table issue: 24
def shown_names(roster: str, names: list[str]) -> list[str]:
    """The fighters whose rows the roster shows, in its order."""
    lines = [plain(line) for line in roster.split("\n")]
    return [n for line in lines for n in names if line.lstrip("> ").startswith(n + " ")]


def counts_said(roster: str) -> tuple[int, int]:
    """(above, below) as the roster's last line says them."""
    last = plain(roster.split("\n")[-1])
    assert "not shown (a taller screen shows them)" in last, last
    above = re.search(r"(\d+) above", last)
    below = re.search(r"(\d+) below", last)
    return int(above.group(1)) if above else 0, int(below.group(1)) if below else 0


def test_at_80x24_a_fight_of_24_shows_whoever_acts_and_those_after_them() -> None:
    """The big-table issue, item 4: a fight of 24 (stones keeps fighters past the board's
    eight slots), each with an effect under its row. The roster gives way around whoever
    acts: its row and the rows after it in the order show, and its last line says how
    many fighters are above and below; the view still fits with the prompt."""
    from host.lab.web_pictures import big_table

    session = big_table(24)
    names = session.ruleset.fighter_names(session.game)
    for name in names:
        session.execute(f"effect {name} Hex")
    with create_pipe_input() as pipe:
        ui = PlayUI(session, Console(), "no board")
        ui.handle("end")  # Bo's turn: his first character is the fourth in the order
        screen = PlayScreen(ui, None, input=pipe, output=Output80x24())
        screen._draw()
        head, roster, rest = screen._parts
        rows = sum(part.count("\n") + 1 for part in (head, rest)) + screen._heights[1]
        assert rows + screen._status_lines() + 1 <= 24
        acting = next(f.name for f in session.ruleset.fighters(session.game) if f.current)
        shown = shown_names(roster, names)
        at = names.index(acting)
        assert shown[0] == acting and len(shown) >= 2  # whoever acts, first
        assert shown == names[at : at + len(shown)]  # then those after, in the order
        above, below = counts_said(roster)
        assert (above, below) == (at, len(names) - at - len(shown))


def test_the_roster_s_window_goes_on_from_the_top_past_the_order_s_end() -> None:
    """The big-table issue, item 4: whoever acts last in the round is followed by the
    next round's first: the window shows them under a line saying the order starts over,
    and says how many are left out below."""
    from host.screens.play_ui import ROSTER_WRAP, _roster_window

    groups = [[(f"F{n:02d}  9/9", n == 22)] for n in range(24)]
    lines = _roster_window(("who  hp", False), groups, 8, 80)
    texts = [line for line, _ in lines]
    assert texts == [
        "who  hp",
        "F22  9/9",
        "F23  9/9",
        ROSTER_WRAP,
        "F00  9/9",
        "F01  9/9",
        "F02  9/9",
        "... 19 below not shown (a taller screen shows them)",
    ]


def test_play_no_screen_at_80x24_keeps_the_head_in_sight_with_24_fighters() -> None:
    """The big-table issue, item 4: `play --no-screen` printed all 24 rows, and the round's
    line scrolled off an 80x24 terminal. On a terminal its roster gives way as the full
    screen's does; the view and the prompt fit."""
    from io import StringIO

    from host.lab.web_pictures import big_table

    session = big_table(24)
    out = StringIO()
    console = Console(file=out, force_terminal=True, width=80, height=24)
    ui = PlayUI(session, console, "no board")
    ui.handle("end")
    out.truncate(0)
    out.seek(0)
    ui.show()
    frame = out.getvalue().rstrip("\n").split("\n")
    assert len(frame) + 1 <= 24  # and the prompt
    assert "Mossy Ford" in plain(frame[0])
    acting = next(f.name for f in session.ruleset.fighters(session.game) if f.current)
    assert shown_names(out.getvalue(), session.ruleset.fighter_names(session.game))[0] == acting
    assert "not shown (a taller screen shows them)" in plain(out.getvalue())
