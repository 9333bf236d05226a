"""A scenario for the real code.py on the MicroPython VM (TURNLIGHT_VM_SCENARIO=code_session,
imported by the stubs' stubrig at code.py's first loop step, once its App is made): a host on
the other end of usb_cdc.data, and a player at the keys.

Through stubrig.hook it runs on every supervisor.ticks_ms() call, that is once per loop
step of code.py (STEP_MS of the fake clock): it answers the board's HELLO with the host's
frames (HELLO, the reference descriptor and snapshot, made on CPython in board_frames.py),
presses next turn and roll in turn every PRESS_EVERY steps, acknowledges every event the
board sends, pings now and then; after TURNLIGHT_VM_STEPS steps (default 1000) it prints
CHECK lines (name ok|FAIL detail) and one figures line, and ends the run with SystemExit
(which code.py's `except Exception` lets through).

It imports nothing of its own until code.py's second ticks_ms() call (code.py has imported
the firmware by then): what the VM's heap goes through while code.py imports and compiles
its modules, the peak a board meets first, is code.py's alone (and the stubs').
"""

import os
import sys

import stubrig

STEPS = int(os.getenv("TURNLIGHT_VM_STEPS") or "1000")
PRESS_EVERY = 20  # steps between presses (100 ms)
PING_EVERY = 100
LINK_AT = 20  # the step the host starts
START_UP_MODULES = ("firmware.hardware", "firmware.settings", "firmware.boards")
HOST_SEQ = 1  # the host's last sequenced frame: the snapshot (the descriptor was 0)

decoder = None
payload = None
frames = None  # board_frames: the host's HELLO, DESCRIPTOR and SNAPSHOT
framing = None
m = None
tap_keys = None  # the keys of next turn and roll
seen = {"hello": 0, "hello_after_link": 0, "pong": 0, "acked_snapshot": 0, "event": 0,
        "resent": 0, "other": 0}  # fmt: skip
events_next = 0  # the board's next event seq we expect
presses = 0
pings = 0
lit_at_start = 0
shows_at_link = 0


def check(name, ok, detail=""):
    print("CHECK %s %s %s" % (name, "ok" if ok else "FAIL", detail))


def app():
    import __main__

    return getattr(__main__, "app", None)


def send(ack):
    """An ACK of the board's event `ack`, or (ack None) a PING."""
    if ack is None:
        n = m.pack_ping(payload, m.PING, HOST_SEQ, (events_next - 1) & 0xFF, 0, 0, 0)
    else:
        m.put_header(payload, m.ACK, HOST_SEQ, ack)
        payload[m.HEADER] = 0
        n = m.HEADER + 1
    wire = bytearray(framing.MAX_WIRE)  # (payload has the CRC's two bytes spare)
    stubrig.data.put(wire[: framing.encode_frame(payload, n, wire)])


def read_board(step):
    """Decode what the board wrote; acknowledge its events in order."""
    global events_next
    data = stubrig.data
    end = data.out_n
    if not end:
        return
    out = data.out
    data.out_n = 0  # taken (nothing drains into it before the next step)
    pos = 0
    ack = -1
    while pos < end:
        pos = decoder.feed(out, pos, end)
        n = decoder.length
        if not n:
            continue
        buf = decoder.buf
        kind = buf[0] & ~m.FROM_BOARD  # the board's frames carry the direction bit
        if kind == m.HELLO:
            seen["hello"] += 1
            if step > LINK_AT + 10:
                seen["hello_after_link"] += 1
        elif kind == m.PONG:
            seen["pong"] += 1
        elif kind == m.EVENT:
            if buf[1] == events_next:
                seen["event"] += 1
                events_next = (events_next + 1) & 0xFF
                ack = buf[1]
            else:
                seen["resent"] += 1
        else:
            seen["other"] += 1
        if kind != m.HELLO and buf[2] == HOST_SEQ:
            seen["acked_snapshot"] += 1
    if ack >= 0:
        send(ack)


def start():
    global decoder, payload, frames, framing, m, tap_keys
    import board_frames

    from shared.link import framing
    from shared.link import messages as m

    frames = board_frames
    decoder = framing.FrameDecoder()
    payload = bytearray(m.HEADER + m.PING_BODY + framing.CRC_BYTES)
    keymap = app().profile.KEYMAP  # (the profile loader went with code.py's start-up)
    # next turn and roll, in turn (the Pico's menu starts on "roll": its menu_do key)
    tap_keys = (keymap.index("next_turn"), keymap.index("roll" if "roll" in keymap else "menu_do"))


def step(now):
    global presses, pings, lit_at_start, shows_at_link, frames
    i = stubrig.ticks
    data = stubrig.data
    if decoder is None:
        # code.py's first loop step: its start-up modules must be gone by now.
        gone = [name not in sys.modules for name in START_UP_MODULES]
        check("lets_go_of_the_start_up_modules", all(gone), "%s gone" % gone)
        start()
    if data is None:
        if i >= STEPS:
            finish()
        return
    read_board(i)
    if i == LINK_AT:
        check("renders_before_the_link", stubrig.pixels is not None and stubrig.pixels.shows > 0)
        check("says_hello_unlinked", seen["hello"] > 0, "hellos=%d" % seen["hello"])
        check("stream_never_blocks", data.timeout == 0 and data.write_timeout == 0)
        shows_at_link = stubrig.pixels.shows
        data.put(frames.HELLO)
    elif i == LINK_AT + 2:
        data.put(frames.DESCRIPTOR)
    elif i == LINK_AT + 4:
        # A 24-fighter snapshot is more than the inbox holds: its first half now, as a USB
        # packet would bring it, the rest at the next step.
        data.put(frames.SNAPSHOT[:200])
    elif i == LINK_AT + 5:
        data.put(frames.SNAPSHOT[200:])
        frames = None  # the host's frames are sent: let them go
        del sys.modules["board_frames"]
    elif i == LINK_AT + 10:
        lit_at_start = len([v for v in stubrig.pixels.shown if v])
        board = app()
        check("links_on_the_host_hello", board is not None and board.session.linked)
        check("takes_the_host_snapshot", board is not None and board.state.count == 24)
        check("acks_the_snapshot", seen["acked_snapshot"] > 0)
    elif i > LINK_AT + 10 and i < STEPS - 40:
        if i % PRESS_EVERY == 0:
            stubrig.keys.tap(tap_keys[presses % 2])
            presses += 1
        if i % PING_EVERY == 0:
            send(None)
            pings += 1
    if i >= STEPS:
        finish()


def finish():
    import gc

    board = app()
    if stubrig.data is None:
        check("plays_without_the_data_channel", board is not None and not board.session.linked)
        check("renders_without_the_data_channel", stubrig.pixels.shows > 0)
    else:
        check("shows_the_table", lit_at_start > 0, "lit=%d" % lit_at_start)
        check("renders_on_change", stubrig.pixels.shows > shows_at_link)
        check(
            "every_press_reaches_the_host",
            presses > 0 and seen["event"] == presses,
            "presses=%d events=%d" % (presses, seen["event"]),
        )
        check("nothing_resent", seen["resent"] == 0, "resent=%d" % seen["resent"])
        check("answers_pings", seen["pong"] >= pings, "pings=%d pongs=%d" % (pings, seen["pong"]))
        check("stays_linked", seen["hello_after_link"] == 0 and board.session.linked)
        check("journal_empty", board.session.journal.count == 0)
    check("no_faults", board is not None and board.crashes == 0 and board.problems == 0,
          "crashes=%d problems=%d" % (board.crashes, board.problems))  # fmt: skip
    gc.collect()
    print(
        "steps=%d presses=%d heap=%d frames=%d shows=%d"
        % (stubrig.ticks, presses, gc.mem_alloc(), board.frames, stubrig.pixels.shows)
    )
    raise SystemExit(0)


stubrig.hook = step
