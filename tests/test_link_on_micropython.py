"""The board's link session on the real MicroPython VM allocates nothing while idle or
answering heartbeats (issue 4 measures the firmware's idle loop the same way)."""

from __future__ import annotations

import re
from pathlib import Path

from host.board.micropython_vm import ROOT, VM_SCRIPTS, library_dir, run


def test_the_board_session_allocates_nothing_idle_or_on_heartbeats(tmp_path: Path) -> None:
    done = run(VM_SCRIPTS / "link_idle.py", [], [library_dir(tmp_path), ROOT])
    assert done.returncode == 0, done.stdout + done.stderr
    found = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", done.stdout)}
    assert found["idle_alloc"] == 0
    assert found["heartbeat_alloc"] == 0
    assert found["session_heap"] > 0
