"""A private tmux server for tests that need a real terminal: commands started in windows
of a given size, keys sent to them and their screens read back. Each Tmux has its own
socket, so a test never touches a tmux server it did not start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from waiting import WAIT


class Tmux:
    """A private tmux server: `turnlight` commands in windows of their own (80x24 unless
    told), text and keys sent to them, their screens read back."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"turnlight-test-{os.getpid()}-{id(self)}"
        self.tmp_path = tmp_path

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        return done.stdout

    def start(
        self, name: str, *command: str, size: tuple[int, int] = (80, 24), stay: bool = False
    ) -> None:
        """Run `turnlight COMMAND` in a new window; with `stay`, the window stays open after
        it ends, so what it said last can still be read."""
        line = " ".join([sys.executable, "-m", "host.cli", *command])
        if stay:
            line += "; sleep 120"
        where = Path(__file__).resolve().parent.parent
        x, y = str(size[0]), str(size[1])
        self.tmux("new-session", "-d", "-s", name, "-x", x, "-y", y, "-c", str(where), line)

    def lines(self, name: str) -> list[str]:
        """The window's visible lines as they are now."""
        return self.tmux("capture-pane", "-p", "-t", name).split("\n")

    def screen(self, name: str) -> str:
        """Everything the window has shown, its lines joined (the log wraps at 80)."""
        return " ".join(self.tmux("capture-pane", "-p", "-S", "-500", "-t", name).split())

    def wait(self, name: str, text: str, seconds: float = WAIT) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed in {name}: {self.screen(name)[-1500:]}")

    def keys(self, name: str, keys: str) -> None:
        self.tmux("send-keys", "-t", name, "-l", keys)

    def press(self, name: str, *keys: str) -> None:
        """Named keys (Enter, Tab, C-b, Escape) as tmux spells them."""
        self.tmux("send-keys", "-t", name, *keys)

    def close(self) -> None:
        self.tmux("kill-server")
