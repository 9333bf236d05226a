"""Runs inside the MicroPython VM: the heap the engine needs, and what ending turns costs.

Prints one line: `heap=<bytes> end_turn_alloc=<bytes> encode_alloc=<bytes>`, where heap is
the shared/ engine modules plus the reference 8-slot state after one whole round, and the
allocations are over 1,000 end_turn calls and 1,000 encodes into a buffer, with the
collector paused so nothing is hidden.
"""

import gc


def used():
    gc.collect()
    return gc.mem_alloc()


base = used()
from shared import codec, cooldowns, descriptor, dice, initiative, timing, turns  # noqa

modules = used() - base
# The fixture that fills the state is not engine code: measure it apart and take it out.
before_fixture = used()
from shared import reference  # noqa

fixture = used() - before_fixture
state = reference.build_reference_state()
for _ in range(state.count):
    turns.end_turn(state)
heap = used() - base - fixture

gc.disable()
a = gc.mem_alloc()
for _ in range(1000):
    turns.end_turn(state)
end_turn_alloc = gc.mem_alloc() - a
gc.enable()

buf = bytearray(codec.MAX_ENCODED)
used()
gc.disable()
a = gc.mem_alloc()
for _ in range(1000):
    codec.encode(state, buf)
encode_alloc = gc.mem_alloc() - a
gc.enable()
print(
    "heap=%d modules=%d end_turn_alloc=%d encode_alloc=%d"
    % (heap, modules, end_turn_alloc, encode_alloc)
)
