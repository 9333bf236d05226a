"""`turnlight sim`: the pty path is printed, pictures are written, and the simulated board
answers to named controls (the MacroPad's encoder included)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from waiting import until

from firmware import palette as pal
from host.board.simulated_board import SimulatedBoard
from host.cli import main
from host.screens import board_keyboard
from shared.reference import build_reference_state


def test_sim_png_writes_the_grid_as_an_image(tmp_path: Path) -> None:
    out = tmp_path / "grid.png"
    assert main(["sim", "--png", str(out), "--page", "dice"]) == 0
    image = Image.open(out)
    assert image.size[0] > image.size[1]  # 8 wide, 4 tall
    assert len(image.getcolors(maxcolors=1 << 16) or []) > 3  # lit cells, not blank


def test_sim_pictures_writes_every_page_and_the_key_map(tmp_path: Path) -> None:
    assert main(["sim", "--pictures", str(tmp_path), "--board", "pico_matrix"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "pico_matrix-keymap.png" in names
    assert len([n for n in names if "-page-" in n]) == 6  # korxsol has no grid: no grid page
    # A card game's initiative page, and each card's rows through a cycle (docs/board.md).
    cards = Image.open(tmp_path / "pico_matrix-cards.png").convert("RGB")
    page = Image.open(tmp_path / "pico_matrix-page-initiative.png")
    assert cards.size[0] == page.size[0] and cards.size[1] > page.size[1]
    colours = {rgb for _, rgb in cards.getcolors(maxcolors=1 << 16) or []}
    joker = bytearray(3)
    pal.put(joker, 0, pal.team_colour(2), pal.FULL)  # reddish purple: no team of its table's
    assert tuple(joker) in colours  # the Joker's rank row lit


def test_sim_pictures_of_a_game_with_a_grid_show_its_grid_page(tmp_path: Path) -> None:
    """issue 13: flare's token grid on the boards with enough keys"""
    for board, pictures in (("pico_matrix", 7), ("macropad", 6)):
        out = tmp_path / board
        assert main(["sim", "--pictures", str(out), "--board", board, "--ruleset", "flare"]) == 0
        names = [p.name for p in out.iterdir() if "-page-" in p.name]
        assert len(names) == pictures and (f"{board}-page-grid.png" in names) == (pictures == 7)


def test_sim_prints_the_pty_path_for_a_host() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "sim", "--seconds", "0.3"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,  # bounds a hang only
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "/dev/pts/" in done.stdout


def test_an_unknown_board_or_page_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--board", "toaster"]) == 2
    assert main(["sim", "--page", "lobby", "--png", "x.png"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "toaster" in lines[0] and "lobby" in lines[1]
    assert lines[0] == (
        "turnlight: unknown board 'toaster' (known: trellis_m4, macropad, pico_matrix)"
    )
    assert lines[1].startswith("turnlight: unknown page 'lobby' (pages: initiative, ")


def test_a_png_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no-such-folder" / "grid.png"
    assert main(["sim", "--png", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"turnlight: cannot write {out}: No such file or directory"]


def test_the_macropad_encoder_moves_the_selection_clockwise_to_the_next_slot() -> None:
    sim = SimulatedBoard("macropad", seed=1)
    state = build_reference_state()
    sim.load_state(state)
    sim.start()
    try:
        before = sim.app.selected
        sim.press(sim.key_for("select_next"))  # one detent clockwise
        until(lambda: sim.app.selected != before, "the selection moved by the encoder")
        active_pos = list(state.order[: state.count]).index(state.active)
        assert sim.app.selected == state.order[(active_pos + 1) % state.count]
        assert sim.terminal_grid().count("\n") == 3  # 4 rows
    finally:
        sim.stop()


def test_the_key_help_lists_only_the_boards_controls() -> None:
    boards = {name: SimulatedBoard(name) for name in ("trellis_m4", "macropad", "pico_matrix")}
    try:
        trellis, macropad, pico = (board_keyboard.help_line(b) for b in boards.values())
    finally:
        for board in boards.values():
            board.stop()
    assert "E=hold end combat" in trellis and "1-8=select position" in trellis
    assert "m=menu" not in trellis and "O=" not in trellis
    assert "]=select next" in macropad and "1-8" not in macropad and "m=menu" not in macropad
    keys, menu = pico.splitlines()
    assert "m=menu" in keys and "o=do" in keys and "O=hold do" in keys and "n=next turn" in keys
    for absent in ("r=roll", "E=", "R=", "f=", "]=", "1-8"):
        assert absent not in keys
    assert menu.startswith("menu") and "end combat" in menu and "reset" in menu


def test_a_key_that_does_nothing_on_this_board_says_so_in_one_line() -> None:
    pico = SimulatedBoard("pico_matrix")
    macropad = SimulatedBoard("macropad")
    try:
        said = {ch: board_keyboard.press_letter(pico, ch) for ch in "ErR[x"}
        said["1 on macropad"] = board_keyboard.press_letter(macropad, "1")
        assert (
            board_keyboard.press_letter(pico, "m") == ""
        )  # a key the Pico has: pressed, nothing said
    finally:
        pico.stop()
        macropad.stop()
    for line in said.values():
        assert line and "\n" not in line
    assert "menu" in said["E"] and "O (hold do)" in said["E"]
    assert "menu" in said["r"] and "o (do)" in said["r"]
    assert "no key" in said["["]
    assert "not a key" in said["x"]
    assert "[ and ]" in said["1 on macropad"]


def typed(board: SimulatedBoard, letters: str) -> None:
    """Type letters at the simulator, each one played once the board took the last."""
    for ch in letters:
        assert board_keyboard.press_letter(board, ch) == "", ch
        until(lambda: not board.keys.events.queue, f"the board taking the key {ch!r}")


@pytest.mark.parametrize("name", ["trellis_m4", "macropad", "pico_matrix"])
def test_hold_to_confirm_end_combat_is_reachable_from_the_keyboard(name: str) -> None:
    board = SimulatedBoard(name, seed=1)
    board.load_state(build_reference_state())
    board.start()
    try:
        assert board.app.state.round > 0
        if name == "pico_matrix":
            # m until the menu shows end combat, then O holds "do" through the confirmation.
            from firmware.app import CONTROL_NAMES, MENU

            end_combat = CONTROL_NAMES.index("end_combat")

            typed(board, "m" * MENU.index(end_combat))
            # A key taken from the queue is played a moment later, on the board's thread.
            until(lambda: board.app.menu_cursor == MENU.index(end_combat), "end combat in the menu")
            typed(board, "O")
        else:
            typed(board, "E")
        until(lambda: board.app.state.round == 0, "the combat ended (round 0)")
    finally:
        board.stop()


def _lit_colours(text: str) -> set[tuple[int, ...]]:
    import re

    found = re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", text)
    return {c for c in (tuple(map(int, f)) for f in found) if c != (45, 45, 45)}  # (unlit)


def _dim_channel(colour: tuple[int, ...]) -> bool:
    # Brightened as the web page does (sqrt), a lit channel is 0 or at least 16 (sqrt(1/255)).
    return any(0 < c < 16 for c in colour)


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "--demo-state", "--seconds", "0.5", "--seed", "1"],
        ["demo", "--color", "always", "--seed", "3"],
    ],
    ids=["sim", "demo"],
)
def test_the_text_grid_draws_dim_leds_brightened_as_the_other_screens_do(
    args: list[str],
) -> None:
    """issue #28 item 7: dim LEDs drawn at their raw colour (rgb(5,5,5)) are black on a dark
    terminal. `turnlight sim` and `turnlight demo` draw the board as `play --sim` and the
    web page do (host/screens/led_text.py)."""
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    colours = _lit_colours(done.stdout)
    assert colours  # the board was drawn, lit
    assert not [c for c in colours if _dim_channel(c)], sorted(colours)
