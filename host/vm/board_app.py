"""Runs inside the MicroPython VM: the firmware App with fake hardware, a scripted session.
Argument: the board profile (default trellis_m4).

Fakes (host/vm/fakehw.py) stand in only for the pins: a pixel strip that keeps the last
shown frame, a key queue with keypad's `events.get_into`, and a stream with usb_cdc.data's
shape fed with frames a host would send (what the board writes is counted, not kept).
Prints CHECK lines (name ok|FAIL detail) and one figures line:
`heap=<bytes> modules=<bytes> app=<bytes> idle_alloc=<bytes> step_us=<median>
idle_led_writes=<shows> idle_led_changes=<shows>` (the last two over an idle second on the
first page: LED writes, and those that changed a pixel); step_us leaves out show(); heap is
gc.mem_alloc() once the app has started and taken the reference descriptor and snapshot,
less the fake hardware's module; modules is what importing the firmware and shared/
added; app is the rest (the App's objects and buffers).
After the figures: a failing write in a key action is counted and the board goes on, and
settings.toml values are checked (firmware/settings.py).
"""

import gc
import sys
import time

gc.collect()
BEFORE_FAKES = gc.mem_alloc()
from fakehw import Event, Keys, Pixels, Stream  # noqa: E402

gc.collect()
START = gc.mem_alloc()
FAKES = START - BEFORE_FAKES  # the fake hardware's module is not the board's: not counted

from firmware.app import App  # noqa: E402
from firmware.boards import load
from shared.link import framing
from shared.link import messages as m


def check(name, ok, detail=""):
    print("CHECK %s %s %s" % (name, "ok" if ok else "FAIL", detail))


def host_frame(mtype, seq, body):
    payload = bytearray(m.HEADER + len(body))
    m.put_header(payload, mtype, seq, 0xFF)
    payload[m.HEADER :] = body
    return framing.frame(payload)


def key_of(name):
    if name == "roll" and name not in profile.KEYMAP:
        name = "menu_do"  # the Pico's menu starts on "roll"
    return profile.KEYMAP.index(name)


profile = load(sys.argv[1] if len(sys.argv) > 1 else "trellis_m4")


def rgb(v):
    return (v >> 16) & 255, (v >> 8) & 255, v & 255


# The host's frames come ready-made (host.micropython_vm.board_frames writes them on
# CPython): the board never loads the reference table's builders, whose names would stay
# interned in the heap. The module that carried them is let go.
from board_frames import ACTIVE as REFERENCE_ACTIVE  # noqa: E402
from board_frames import DESCRIPTOR as DESCRIPTOR_FRAME  # noqa: E402
from board_frames import HELLO as HELLO_FRAME  # noqa: E402
from board_frames import SNAPSHOT as SNAPSHOT_FRAME  # noqa: E402

del sys.modules["board_frames"]
gc.collect()

MODULES = gc.mem_alloc() - START  # the interpreter's own start-up is not counted here
pixels = Pixels(profile.WIDTH * profile.HEIGHT)
keys = Keys()
stream = Stream(inbox=1024, keep=False)
app = App(profile, pixels, keys, Event(), stream, None, now_ms=0, seed=7, nonce=1)
now = 1
app.step(now)
check("renders_a_frame_at_start", pixels.shows == 1)

stream.put(HELLO_FRAME)
now += 1
app.step(now)
check("links_on_the_host_hello", app.session.linked)
stream.put(DESCRIPTOR_FRAME)
now += 1
app.step(now)
check("takes_the_host_descriptor", app.session.described and app.state.rules.counters == 3)
stream.put(SNAPSHOT_FRAME)
now += 1
app.step(now)
check("takes_the_host_snapshot", app.state.count == 8 and app.state.active == REFERENCE_ACTIVE)
gc.collect()
heap = gc.mem_alloc() - FAKES
app_bytes = heap - MODULES - START + FAKES

# A malformed snapshot (good CRC, bad codec body) is counted and the state kept.
version = app.state.version
stream.put(host_frame(m.SNAPSHOT, 2, b"\xff\xff\xff"))
now += 1
app.step(now)
check("bad_snapshot_counted", app.problems >= 1, "problems=%d" % app.problems)
check("bad_snapshot_keeps_state", app.state.version == version and app.state.count == 8)
stream.put(host_frame(99, 2, b"\x01\x02"))
now += 1
app.step(now)
check("unknown_message_counted", app.problems >= 2, "problems=%d" % app.problems)

# Next turn moves the active slot, and the frame shows the new active cell lit.
before = app.state.active
keys.tap(key_of("next_turn"))
now += 1
app.step(now)
check("next_turn_moves_the_turn", app.state.active != before)
check("next_turn_journalled", app.session.journal.count == 1)
new_pos = app.state.turn
check("active_cell_lit", pixels.shown[new_pos] != 0, "pos=%d" % new_pos)

# A roll lands on the dice page with the faces of the shared engine.
keys.tap(key_of("roll"))
now += 1
app.step(now)
check("roll_shows_dice_page", app.page == 4 and app.state.roll.count == 3)
now += 1000
app.step(now)

# Idle: nothing arrives and no key is pressed, frames keep rendering (blinks).
for _ in range(50):
    now += 1
    app.step(now)


def idle_steps(app, now, steps):
    """Allocation over `steps` idle loop steps (in a function: locals, not module globals)."""
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(steps):
        now += 1
        app.step(now)
    allocated = gc.mem_alloc() - start
    gc.enable()
    return allocated


frames = app.frames
idle_alloc = idle_steps(app, now, 1000)
now += 1000
check("idle_loop_renders", app.frames - frames >= 40, "frames=%d" % (app.frames - frames))

# One step that renders a full frame, timed without the LED write: show() only counts
# (a real strip's write is modelled apart: 30 us a pixel, host/bench_board.py).
pixels.write = False
times = []
for _ in range(101):
    app.dirty = True
    app.led_writes = 0  # write even an unchanged frame: the whole hand-over is timed
    now += 1
    t0 = time.ticks_us()
    app.step(now)
    times.append(time.ticks_diff(time.ticks_us(), t0))
times.sort()
step_us = times[len(times) // 2]
pixels.write = True

# A fault in a key action (the write to the host fails) is counted and the board goes on.
stream.fail = True
crashes = app.crashes
turn = app.state.turn
keys.tap(key_of("next_turn"))
now += 1
app.step(now)
check(
    "key_action_fault_counted",
    app.crashes > crashes and app.state.turn != turn and "OSError" in app.last_crash,
    "crashes=%d %s" % (app.crashes - crashes, app.last_crash),
)
stream.fail = False
crashes = app.crashes
frames = app.frames
turn = app.state.turn
keys.tap(key_of("next_turn"))
for _ in range(30):
    now += 1
    app.step(now)
check(
    "board_goes_on_after_a_fault",
    app.frames > frames and app.crashes == crashes and app.state.turn != turn,
)

# settings.toml values: clamped, or the default, with one line saying so.
from firmware.settings import int_setting  # noqa: E402

check("setting_in_range", int_setting("B", 300, 400, 100, 2000) == (300, ""))
check("setting_clamped", int_setting("B", 9000, 400, 100, 2000)[0] == 2000)
value, message = int_setting("B", "lots", 400, 100, 2000)
check("setting_not_a_number", value == 400 and "lots" in message, message)

# An idle second on the first page (no key, no byte in), 1 ms a step: how often the App
# writes the LEDs, and how many of those writes change a pixel.
app.page = 0
app.dirty = True
for _ in range(1000):
    now += 1
    app.step(now)
shows, changes = pixels.shows, pixels.changes
for _ in range(1000):
    now += 1
    app.step(now)
idle_writes = pixels.shows - shows
idle_changes = pixels.changes - changes
check(
    "writes_the_leds_only_when_the_frame_changed",
    idle_writes == idle_changes and app.frames > idle_writes,
    "writes=%d changes=%d" % (idle_writes, idle_changes),
)
print(
    "heap=%d modules=%d app=%d idle_alloc=%d step_us=%d idle_led_writes=%d idle_led_changes=%d"
    % (heap, MODULES, app_bytes, idle_alloc, step_us, idle_writes, idle_changes)
)
