"""The part of host/board/vm/board_app.py's session after its heap figures, loaded once they are
taken (so that this code, which is not the board's, is not counted in them): a malformed
snapshot and an unknown message, next turn, a roll, the idle loop's allocation, the timed
step, a key action whose write fails, the settings.toml checks and the LED writes of an
idle second. Prints the CHECK lines (with those board_app.py saw before its figures) and the
figures line."""

import gc
import time

from shared import host_only
from shared.link import messages as m


def check(name, ok, detail=""):
    print("CHECK %s %s %s" % (name, "ok" if ok else "FAIL", detail))


def host_frame(mtype, seq, body):
    payload = bytearray(m.HEADER + len(body))
    m.put_header(payload, mtype, seq, 0xFF)
    payload[m.HEADER :] = body
    return host_only.frame(payload)


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


def run(app, profile, pixels, keys, stream, now, seen, heap, modules, app_bytes):
    def key_of(name):
        if name == "roll" and name not in profile.KEYMAP:
            name = "menu_do"  # the Pico's menu starts on "roll"
        return profile.KEYMAP.index(name)

    check("renders_a_frame_at_start", seen[0])
    check("links_on_the_host_hello", seen[1])
    check("takes_the_host_descriptor", seen[2])
    check("takes_the_host_snapshot", seen[3])

    # A malformed snapshot (good CRC, bad codec body) is counted and the state kept.
    version = app.state.version
    stream.put(host_frame(m.SNAPSHOT, 2, b"\xff\xff\xff"))
    now += 1
    app.step(now)
    check("bad_snapshot_counted", app.problems >= 1, "problems=%d" % app.problems)
    check("bad_snapshot_keeps_state", app.state.version == version and app.state.count == 24)
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

    # Idle: nothing arrives and no key is pressed, frames keep rendering (blinks), the roll
    # with a degree of success as a host would judge it (its pattern allocates nothing either).
    app.state.roll.degree = 4
    for _ in range(50):
        now += 1
        app.step(now)

    frames = app.frames
    idle_alloc = idle_steps(app, now, 1000)
    now += 1000
    check("idle_loop_renders", app.frames - frames >= 40, "frames=%d" % (app.frames - frames))

    # One step that renders a full frame, timed without the LED write: show() only counts
    # (a real strip's write is modelled apart: 30 us a pixel, host/lab/bench_board.py).
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
    from firmware.settings import int_setting

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
        % (heap, modules, app_bytes, idle_alloc, step_us, idle_writes, idle_changes)
    )
