"""The board's slots are one constant (shared/limits.py MAX_SLOTS, 24 since issue 39): a copy
of shared/ with MAX_SLOTS = 16 holds a full 16-slot table, plays a round, round-trips
through the codec and fits in one link frame. Not a rules test: it guards the foundation's
design."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
from shared import codec, dice, turns
from shared.limits import MAX_SLOTS, SLOT_BITS
from shared import host_only
from shared.link import framing
from shared.state import GameState
from shared import roster
assert (MAX_SLOTS, SLOT_BITS) == (16, 4), (MAX_SLOTS, SLOT_BITS)
state = GameState()
for i in range(16):
    roster.add_slot(state, "S%d" % i, i % 2, 3, 3, 20)
roster.set_order(state, tuple(range(15, -1, -1)))
turns.start_round(state)
for _ in range(16):
    turns.end_turn(state)
assert state.round == 2
dice.enter(state, dice.KIND_ACTION_D3, (3, 2, 1), 15)
data = codec.encode(state)
back = GameState()
codec.decode(data, back)
assert codec.encode(back) == data and back.count == 16 and back.roll.who == 15
assert framing.MAX_PAYLOAD >= 3 + codec.MAX_ENCODED
wire = host_only.frame(bytes(3) + data)
assert len(wire) <= framing.MAX_WIRE
print("ok", len(data), codec.MAX_ENCODED)
"""


def test_sixteen_slots_is_one_constant(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "shared", tmp_path / "shared")
    limits = tmp_path / "shared" / "limits.py"
    text, n = re.subn(r"MAX_SLOTS = const\(24\)", "MAX_SLOTS = const(16)", limits.read_text())
    assert n == 1, "shared/limits.py no longer says MAX_SLOTS = const(24)"
    limits.write_text(text)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
