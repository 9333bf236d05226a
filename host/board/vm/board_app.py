"""Runs inside the MicroPython VM: the firmware App with fake hardware, a scripted session.
Argument: the board profile (default trellis_m4).

Fakes (host/board/vm/fakehw.py) stand in only for the pins: a pixel strip that keeps the last
shown frame, a key queue with keypad's `events.get_into`, and a stream with usb_cdc.data's
shape fed with frames a host would send (what the board writes is counted, not kept).
Prints CHECK lines (name ok|FAIL detail) and one figures line:
`heap=<bytes> modules=<bytes> app=<bytes> idle_alloc=<bytes> step_us=<median>
idle_led_writes=<shows> idle_led_changes=<shows>` (the last two over an idle second on the
first page: LED writes, and those that changed a pixel); step_us leaves out show(); heap is
gc.mem_alloc() once the app has started and taken the reference descriptor and snapshot,
less the fake hardware's module; modules is what importing the firmware and shared/
added (code.py's start-up modules too, less what letting them go freed: the script imports
them and lets them go once the App is made, as code.py does); app is the rest (the App's
objects and buffers).
After the figures: a failing write in a key action is counted and the board goes on, and
settings.toml values are checked (firmware/settings.py).

This script only starts the App and takes the heap figures; the rest of the session and
every CHECK line come from board_app_checks.py, imported once the figures are taken, so
that the script's own code (not the board's) is not in them (docs/benchmarks.md).
"""

import gc
import sys


def _scrub(depth):
    # Frames of small ints only, over the C stack below the caller's.
    a = b = c = d = e = f = g = h = 0
    if depth:
        _scrub(depth - 1)
    return a + b + c + d + e + f + g + h


def collected():
    """gc.mem_alloc() after a collection, the least of four each after writing over a
    different depth of the C stack below this call. The collector scans the C stack
    word by word; a word left there by an earlier call that points into a dead block keeps
    it (up to 2 KB: a freed module, a compile's buffer) in one reading and not another,
    as the calls before it happen to fall. Stale words only add, so the least is the
    nearest to what is live."""
    least = -1
    for depth in (0, 3, 12, 40):
        _scrub(depth)
        gc.collect()
        n = gc.mem_alloc()
        if least < 0 or n < least:
            least = n
    return least


BEFORE_FAKES = collected()
# The fakes, and what CircuitPython builds in under the strip (stand-ins).
import digitalio  # noqa: E402
import neopixel_write  # noqa: E402
from fakehw import Event, Keys, Pixels, Stream  # noqa: E402
from microcontroller import Pin  # noqa: E402

# The host's stream: on a board the USB buffers are C, so the fake's inbox is made before
# the count starts (a 24-fighter snapshot is about 290 B on the wire).
stream = Stream(inbox=512, keep=False)
START = collected()
FAKES = START - BEFORE_FAKES  # the fake hardware's modules are not the board's: not counted

App = None
REFERENCE_ACTIVE = DESCRIPTOR_FRAME = HELLO_FRAME = SNAPSHOT_FRAME = None


def _load():
    """The firmware and the host's frames. In a function, as every step up to the figures: a
    value a statement leaves in its frame's stack slots keeps what it points to alive
    while the frame lives (the module's own frame lives to the end), and these frames are
    gone before the heap is read."""
    global App, REFERENCE_ACTIVE, DESCRIPTOR_FRAME, HELLO_FRAME, SNAPSHOT_FRAME
    # isort: off
    from firmware.app import App

    # The host's frames come ready-made (host.board.micropython_vm.board_frames writes
    # them on CPython): the board never loads the reference table's builders, whose names
    # would stay interned in the heap. The module that carried them is let go.
    import board_frames

    # isort: on

    REFERENCE_ACTIVE = board_frames.ACTIVE
    DESCRIPTOR_FRAME = board_frames.DESCRIPTOR
    HELLO_FRAME = board_frames.HELLO
    SNAPSHOT_FRAME = board_frames.SNAPSHOT
    del sys.modules["board_frames"]


_load()


STRIP = None


class _Pins:
    """`board` for make_pixels: any pin by its name."""

    def __getattr__(self, name):
        return Pin(name)


def wire(name):
    """As code.py's wire(): its start-up modules, in its order, held by this call alone and
    let go. The profile, the heap once they, the strip's module and the profile are
    imported, and the heap once the strip is made too (before they go)."""
    from firmware import hardware, settings  # noqa: F401
    from firmware.boards import load
    from firmware.strip import Strip

    profile = load(name)
    imported = collected()
    # The real strip, as code.py makes it (counted): the App draws into fakehw's Pixels,
    # which the checks read, and this one stands beside it for its heap.
    global STRIP
    STRIP = hardware.make_pixels(
        _Pins(), digitalio.DigitalInOut, Strip, neopixel_write.neopixel_write, profile
    )
    made = collected()
    hardware.let_go_of_start_up()
    return profile, imported, made


def start(name, stream):
    """As code.py's start(): the App, made once wire() has returned (and its modules are
    gone). The App, the heap once the start-up modules were imported, and what letting
    them go freed (the strip stays)."""
    profile, imported, made = wire(name)
    freed = made - collected()
    pixels = Pixels(profile.WIDTH * profile.HEIGHT)
    app = App(profile, pixels, Keys(), Event(), stream, None, now_ms=0, seed=7, nonce=1)
    return app, imported, freed


def _link(app, stream):
    """The host links, describes its rules and sends its state: the checks until the
    figures (made by board_app_checks.py)."""
    app.step(1)
    seen = [app.pixels.shows == 1]
    stream.put(HELLO_FRAME)
    app.step(2)
    seen.append(app.session.linked)
    stream.put(DESCRIPTOR_FRAME)
    app.step(3)
    seen.append(app.session.described and app.state.rules.counters == 3)
    stream.put(SNAPSHOT_FRAME)
    app.step(4)
    app.step(4)  # a 24-fighter snapshot is more than one poll's read budget (256 B)
    seen.append(app.state.count == 24 and app.state.active == REFERENCE_ACTIVE)
    return seen


app, imported, freed = start(sys.argv[1] if len(sys.argv) > 1 else "trellis_m4", stream)
# What importing the firmware, the start-up modules and the frames added, less what
# letting the start-up modules go freed (the interpreter's own start-up is not counted).
MODULES = imported - START - freed
profile, pixels, keys = app.profile, app.pixels, app.keys
now = 4
seen = _link(app, stream)
# What the board holds, counted from START: the script's own code and the VM's start-up
# (both in the heap before it) are not in it. The host adds the VM's start-up, measured
# by itself (vm_base.py); code.py's own code is counted below.
held = collected() - START
app_bytes = held - MODULES


def code_py_bytes():
    """What code.py's compiled code keeps in the heap (its bytecode and the names it
    interns that the firmware did not), compiled now and let go: on a board, code.py is
    the script that runs, where this one stands in for it."""
    before = collected()
    code = _compiled("firmware/code.py")
    kept = collected() - before
    return kept if code else 0  # (the code is held until then)


def _compiled(path):
    # A frame of its own: the source text, left in its value stack's slots, goes with it.
    with open(path) as source:
        return compile(source.read(), path, "exec")


CODE_PY = code_py_bytes()
heap = held + CODE_PY
print("code_py=%d" % CODE_PY)


# The rest of the session, and its checks, come from a module of their own, loaded now: the
# script's code that is not the board's is not in the figures above.
import board_app_checks  # noqa: E402

board_app_checks.run(app, profile, pixels, keys, stream, now, seen, heap, MODULES, app_bytes)
