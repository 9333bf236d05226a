"""The state codec on the host is used by several threads at once: the bridge serves each
board on its own thread, and the soak and the link tests run a board session in the same
process as the host. The codec keeps its scratch (the bit writer, the width tables) in
module globals, which is what the board can afford; on CPython those must not be shared
by two encodes, or decodes, at the same time."""

from __future__ import annotations

import sys
import threading

from shared import codec, dice, roster
from shared import events as ev
from shared.host_only import make_event
from shared.reference import build_reference_state
from shared.state import GameState


def states() -> list[GameState]:
    """A few different states, with different widths and lengths."""
    out = []
    state = build_reference_state()
    for faces in ((1, 2, 3), (3, 3), (2, 1, 3, 3, 1, 2)):
        ev.apply_event(state, make_event(ev.NEXT_TURN))
        ev.apply_event(state, make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, faces))
        copy = GameState()
        roster.copy_state(copy, state)
        out.append(copy)
    out.append(GameState())
    return out


def test_encoding_and_decoding_on_several_threads_at_once_gives_what_one_thread_gives() -> None:
    samples = states()
    expected = [codec.encode(s) for s in samples]
    failures: list[str] = []

    def work(offset: int) -> None:
        buf = bytearray(codec.MAX_ENCODED)
        decoded = GameState()
        for i in range(3000):
            k = (i + offset) % len(samples)
            try:
                n = codec.encode(samples[k], buf)
                if bytes(buf[:n]) != expected[k]:
                    failures.append(f"encode {k} gave other bytes")
                codec.decode(expected[k], decoded)
                if codec.encode(decoded) != expected[k]:
                    failures.append(f"decode {k} gave another state")
            except codec.CodecError as err:
                failures.append(f"{k}: {err}")
            if len(failures) > 5:
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython will
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
