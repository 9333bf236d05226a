"""`turnlight sim`: the pty path is printed, pictures are written, and the simulated board
answers to named controls (the MacroPad's encoder included)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from host.cli import main
from host.simboard import SimulatedBoard
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
    assert len([n for n in names if "-page-" in n]) == 6


def test_sim_prints_the_pty_path_for_a_host() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "sim", "--seconds", "0.3"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "/dev/pts/" in done.stdout


def test_an_unknown_board_or_page_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--board", "toaster"]) == 2
    assert main(["sim", "--page", "lobby", "--png", "x.png"]) == 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and "toaster" in lines[0] and "lobby" in lines[1]


def test_the_macropad_encoder_moves_the_selection() -> None:
    sim = SimulatedBoard("macropad", seed=1)
    sim.load_state(build_reference_state())
    sim.start()
    try:
        before = sim.app.selected
        sim.press(sim.key_for("select_next"))
        deadline = time.monotonic() + 3
        while sim.app.selected == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sim.app.selected != before
        assert sim.terminal_grid().count("\n") == 3  # 4 rows
    finally:
        sim.stop()
