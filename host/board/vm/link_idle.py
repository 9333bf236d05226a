"""Runs inside the MicroPython VM: what the board's link costs while idle and in heap.

Prints one line: `idle_alloc=<bytes> heartbeat_alloc=<bytes> session_heap=<bytes>`: bytes
allocated over 1,000 BoardSession.poll steps with no byte arriving and nothing due, over
100 heartbeats (a PING in, a PONG out) after the first one, and the heap a linked session
holds (its buffers,
journal and encoded undo state, not the modules), with the collector paused while counting
and the counting done inside a function (no new module globals in the window).
"""

import gc

from fakehw import Stream

from shared import host_only
from shared.link import framing
from shared.link import messages as m
from shared.link.board import BoardSession
from shared.reference import build_reference_state


def used():
    gc.collect()
    return gc.mem_alloc()


state = build_reference_state()
stream = Stream(inbox=512, keep=False)
before = used()
session = BoardSession(stream, state, nonce=1, now_ms=0)
hello = bytearray(framing.MAX_PAYLOAD + 2)
n = m.pack_hello(hello, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
stream.put(host_only.frame(hello[:n]))
session.poll(1)
assert session.linked
session_heap = used() - before

ping = bytearray(framing.MAX_PAYLOAD + 2)
n = m.pack_ping(ping, m.PING, 0xFF, 0xFF, 0, 0, 0)
ping_frame = host_only.frame(ping[:n])


def polls(session, stream, now, steps, frame):
    """Bytes allocated over `steps` polls, with `frame` arriving before each (or nothing).
    Measured in a function: its names are locals, so nothing new lands in the module's
    globals (a new global grows the module's dict, which would count as allocation)."""
    used()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(steps):
        if frame is not None:
            stream.put(frame)
        session.poll(now)
        now += 1
    allocated = gc.mem_alloc() - start
    gc.enable()
    return allocated


now = 2
stream.put(ping_frame)  # the first heartbeat makes the views it reuses from then on
session.poll(now)
idle = polls(session, stream, now, 1000, None)
heartbeat = polls(session, stream, now + 1000, 100, ping_frame)
assert session.linked
print("idle_alloc=%d heartbeat_alloc=%d session_heap=%d" % (idle, heartbeat, session_heap))
