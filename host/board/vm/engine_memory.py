"""Runs inside the MicroPython VM: the heap the engine needs, and what ending turns costs.

Prints one line: `heap=<bytes> end_turn_alloc=<bytes> encode_alloc=<bytes>`, where heap is
the shared/ engine modules plus the reference 8-slot state after one whole round, and the
allocations are over 1,000 end_turn calls and 1,000 encodes into a buffer, with the
collector paused so nothing is hidden, counted inside functions (a new module global made in
the window would grow the module's dict and count as the engine's allocation).
"""

import gc


def used():
    gc.collect()
    return gc.mem_alloc()


base = used()
from shared import codec, cooldowns, descriptor, dice, initiative, turns  # noqa

modules = used() - base
# The fixture that fills the state is not engine code: measure it apart and take it out.
before_fixture = used()
from shared import reference  # noqa

fixture = used() - before_fixture
state = reference.build_reference_state()
for _ in range(state.count):
    turns.end_turn(state)
heap = used() - base - fixture


def end_turns(state, times):
    """Bytes allocated over `times` end_turn calls (inside a function: no new globals)."""
    used()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(times):
        turns.end_turn(state)
    allocated = gc.mem_alloc() - start
    gc.enable()
    return allocated


def encodes(state, buf, times):
    """Bytes allocated over `times` encodes into `buf`."""
    used()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(times):
        codec.encode(state, buf)
    allocated = gc.mem_alloc() - start
    gc.enable()
    return allocated


end_turn_alloc = end_turns(state, 1000)
encode_alloc = encodes(state, bytearray(codec.MAX_ENCODED), 1000)
print(
    "heap=%d modules=%d end_turn_alloc=%d encode_alloc=%d"
    % (heap, modules, end_turn_alloc, encode_alloc)
)
