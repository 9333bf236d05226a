"""The firmware App on fake hardware and a fake clock (issue 4, items 2, 3 and 5, and the
bad-input rules): controls play through the shared engine and the frame shows the result.

Rules texts: korxsol-players-guide.txt (burn stacks up to three times)."""

from __future__ import annotations

import pytest
from boardfakes import Rig

from firmware import pages
from host.board.firmware_host import PAGE_NAMES, settle
from host.rulesets.korxsol import device as korxsol_device
from host.rulesets.korxsol.device import BURN, FROST
from shared import codec, dice, host_only, roster
from shared.descriptor_pack import pack
from shared.link import messages as m
from shared.reference import build_reference_descriptor, build_reference_state
from shared.state import GameState


def frame(mtype: int, seq: int, body: bytes) -> bytes:
    return host_only.frame(bytes([mtype, seq, 0xFF]) + body)


def hello(version: int = m.PROTOCOL_VERSION) -> bytes:
    buf = bytearray(m.HEADER + m.HELLO_BODY)
    m.pack_hello(buf, 0xFF, 0xFF, m.ROLE_HOST, m.HELLO_ACCEPT, 0, 1, 0, 0, 0, 0, 0, 0)
    buf[m.HEADER] = version
    return host_only.frame(bytes(buf))


def described(rig: Rig, descriptor: bytes | None = None, seq: int = 0) -> None:
    """The host describes its game (by default the reference table's)."""
    body = build_reference_descriptor() if descriptor is None else descriptor
    rig.stream.put(frame(m.DESCRIPTOR, seq, body))
    rig.run(10)


def linked_rig(board: str = "trellis_m4") -> Rig:
    rig = Rig(board)
    rig.stream.put(hello())
    rig.run(10)
    described(rig)
    rig.stream.put(frame(m.SNAPSHOT, 1, codec.encode(build_reference_state())))
    rig.run(10)
    assert rig.app.session.linked and rig.app.state.count == 8
    return rig


def brightness_of(rig: Rig, cell: int) -> int:
    return sum(rig.pixels.rgb(rig.app.led_of_cell[cell]))


def test_next_turn_moves_the_turn_and_lights_the_new_active_slot() -> None:
    rig = linked_rig()
    before = rig.app.state.turn
    rig.tap("next_turn")
    state = rig.app.state
    assert state.turn == (before + 1) % 8
    # The active slot pulses: at the bright moment of the pulse it outshines the others.
    settle(rig.app, rig.now)
    rig.now += 250 - rig.now % 250 + 20
    rig.app.render(rig.now)
    active = brightness_of(rig, state.turn)
    others = [brightness_of(rig, pos) for pos in range(8) if pos != state.turn]
    assert active > max(others)


def test_roll_rolls_the_chosen_number_of_action_dice_and_shows_the_dice_page() -> None:
    rig = linked_rig()
    rig.tap("roll")
    assert rig.app.state.roll.count == 3
    assert rig.app.page == pages.DICE
    rig.hold("roll", 700)  # long press: one more die
    rig.tap("roll")
    assert rig.app.state.roll.count == 4
    assert all(1 <= f <= 3 for f in rig.app.state.roll.faces[:4])
    rig.tap("add_die")  # the key of its own: one more again
    rig.tap("roll")
    assert rig.app.state.roll.count == 5


def test_the_chance_token_flips_one_to_three_times() -> None:
    rig = linked_rig()
    counts = []
    for _ in range(4):
        rig.tap("chance")
        counts.append(rig.app.state.roll.count)
        rig.hold("chance", 700)
    assert counts == [1, 2, 3, 1]


def test_d100_rolls_two_d10s() -> None:
    rig = linked_rig()
    rig.tap("d100")
    roll = rig.app.state.roll
    assert roll.count == 2 and roll.faces[0] <= 9 and roll.faces[1] <= 9


def korxsol_rig() -> Rig:
    """A board the host has described korxsol to, showing a korxsol table."""
    rig = Rig()
    rig.stream.put(hello())
    rig.run(10)
    described(rig, korxsol_device.descriptor())
    state = GameState()
    korxsol_device.load_rules(state)
    for label, team in (("Ash", 0), ("Bo", 1), ("Cy", 0), ("Dee", 1)):
        roster.add_slot(state, label, team, 3, 3, 20)
    rig.stream.put(frame(m.SNAPSHOT, 1, codec.encode(state)))
    rig.run(10)
    assert rig.app.state.count == 4 and rig.app.state.ruleset == korxsol_device.BOARD_ID
    return rig


def test_frost_and_burn_go_on_the_selected_slot() -> None:
    rig = korxsol_rig()
    rig.tap("pos3")
    index = rig.app.state.order[3]
    frost = rig.app.state.slots[index].counters[FROST]
    rig.tap("counter_up")  # the counter keys start on korxsol's first counter, frost
    assert rig.app.state.slots[index].counters[FROST] == frost + 1
    rig.tap("counter_down")
    rig.tap("counter_down")
    assert rig.app.state.slots[index].counters[FROST] == max(frost - 1, 0)
    rig.tap("counter_next")  # on to burn
    rig.tap("counter_up")
    assert rig.app.state.slots[index].counters[BURN] == 1


def test_burn_stacks_no_higher_than_three_from_the_board() -> None:
    # korxsol-players-guide.txt: burn stacks up to three times.
    rig = korxsol_rig()
    rig.tap("pos1")
    rig.tap("counter_next")  # burn
    for _ in range(5):
        rig.tap("counter_up")
    assert rig.app.state.slots[rig.app.state.order[1]].counters[BURN] == 3


def test_undo_takes_back_the_last_local_action() -> None:
    rig = linked_rig()
    turn = rig.app.state.turn
    rig.tap("next_turn")
    rig.tap("undo")
    assert rig.app.state.turn == turn


def test_the_boards_own_undo_goes_back_one_action_only() -> None:
    # The board keeps one level of undo (an encoded state, its length in one byte); deeper
    # undo is the host's.
    rig = linked_rig()
    before = rig.app.state.turn
    rig.tap("next_turn")
    after_one = rig.app.state.turn
    assert after_one != before
    rig.tap("next_turn")
    rig.tap("undo")
    assert rig.app.state.turn == after_one
    rig.tap("undo")
    assert rig.app.state.turn == after_one
    assert len(rig.app.session.undo) == codec.MAX_ENCODED + 2  # two bytes of length


def test_end_combat_needs_the_full_hold() -> None:
    rig = linked_rig()
    rig.tap("end_combat")
    assert rig.app.state.round > 0
    rig.hold("end_combat", 1600)
    assert rig.app.state.round == 0


def test_a_key_pressed_during_the_reset_hold_cancels_the_reset() -> None:
    rig = linked_rig()
    rig.down("reset")
    rig.run(700)
    rig.tap("page")
    rig.run(1500)
    rig.up("reset")
    assert rig.app.state.count == 8
    rig.hold("reset", 1600)
    assert rig.app.state.count == 0


def test_page_steps_forward_and_a_long_press_steps_back() -> None:
    rig = linked_rig()
    rig.tap("page")
    assert rig.app.page == 1
    rig.hold("page", 700)
    assert rig.app.page == 0


def test_brightness_changes_what_the_leds_get() -> None:
    rig = linked_rig()
    settle(rig.app, rig.now)
    rig.app.render(rig.now)
    low = sum(sum(rig.pixels.rgb(i)) for i in range(32))
    rig.tap("brightness")  # 5 -> 6 of 8
    settle(rig.app, rig.now)
    rig.app.render(rig.now)
    assert sum(sum(rig.pixels.rgb(i)) for i in range(32)) > low


def test_every_frame_stays_under_the_current_budget() -> None:
    rig = Rig(budget_ma=60)
    rig.stream.put(hello())
    rig.run(10)
    described(rig)
    rig.stream.put(frame(m.SNAPSHOT, 1, codec.encode(build_reference_state())))
    for _ in range(3):
        rig.tap("brightness")
    for control in ("next_turn", "roll", "page", "page", "chance", "page"):
        rig.tap(control)
        rig.run(300)
    assert rig.app.limited > 0
    assert 0 < rig.app.max_ma <= 60


def test_a_malformed_snapshot_is_counted_shown_and_the_last_good_state_kept() -> None:
    rig = linked_rig()
    good = GameState()
    roster.copy_state(good, rig.app.state)
    rig.stream.put(frame(m.SNAPSHOT, 2, b"\xff\xfe\x00\x01"))
    rig.run(10)
    assert rig.app.problems == 1
    assert codec.encode(rig.app.state) == codec.encode(good)
    lit = set()
    for _ in range(20):  # the problem cell strobes
        rig.run(10)
        lit.add(brightness_of(rig, rig.app.canvas.cells - 2) > 0)  # the problem cell
    assert lit == {True, False}


def test_an_unknown_message_and_garbage_bytes_never_stop_the_board() -> None:
    rig = linked_rig()
    rig.stream.put(frame(0x42, 2, b"\x01\x02\x03") + b"\x07\x99\x00\x00\x13\x37")
    rig.run(20)
    assert rig.app.problems >= 2
    rig.tap("next_turn")
    assert rig.app.session.journal.count >= 1


def test_the_link_cell_is_steady_when_tethered_and_blinks_when_not() -> None:
    rig = Rig()
    seen = set()
    for _ in range(50):
        rig.run(50)
        seen.add(brightness_of(rig, rig.app.canvas.cells - 1) > 0)  # the link cell
    assert seen == {True, False}
    rig = linked_rig()
    seen = set()
    for _ in range(50):
        rig.run(50)
        rig.stream.put(frame(m.PING, 0, b"\x00\x00\x00\x00\x00"))
        seen.add(brightness_of(rig, rig.app.canvas.cells - 1) > 0)  # the link cell
    assert seen == {True}


def test_a_protocol_version_mismatch_shows_the_red_checkerboard() -> None:
    rig = Rig()
    rig.stream.put(hello(version=m.PROTOCOL_VERSION + 1))
    rig.run(20)
    red = [rig.pixels.rgb(i) for i in range(32)]
    assert sum(1 for r, g, b in red if r > 0 and g == 0 and b == 0) == 16
    assert sum(1 for p in red if p == (0, 0, 0)) == 16


def test_the_pico_menu_reaches_every_control_and_its_reset_needs_the_hold() -> None:
    rig = linked_rig("pico_matrix")
    rig.tap("menu_do")  # the menu starts on "roll"
    assert rig.app.state.roll.count == 3
    while rig.app.menu_cursor != 11:  # "reset"
        rig.tap("menu_next")
    rig.tap("menu_do")
    assert rig.app.state.count == 8
    rig.hold("menu_do", 1600)
    assert rig.app.state.count == 0


def test_every_control_of_the_issue_is_on_every_board() -> None:
    from firmware.app import CONTROL_NAMES, MENU

    wanted = {
        "next_turn",
        "roll",
        "add_die",
        "chance",
        "d100",
        "counter_up",
        "counter_down",
        "counter_next",
        "undo",
        "page",
        "brightness",
        "end_combat",
        "reset",
    }
    for board in ("trellis_m4", "macropad", "pico_matrix"):
        rig = Rig(board)
        reach = set(rig.profile.KEYMAP) | set(rig.profile.ENCODER_MAP)
        if "menu_do" in reach:
            reach |= {CONTROL_NAMES[c] for c in MENU}
        assert wanted <= reach, board
        assert reach & {"select_next", "select_prev", "pos0"}, board


def test_a_reset_clears_the_selection() -> None:
    rig = linked_rig()
    rig.tap("pos6")
    assert rig.app.selected == rig.app.state.order[6]
    rig.hold("reset", 1600)
    assert rig.app.selected == 255  # NO_SLOT: the counter keys go to the active slot again


def test_do_on_the_pico_shows_the_roll_and_its_tumble_at_once_not_the_menu() -> None:
    rig = linked_rig("pico_matrix")
    rig.tap("menu_next")
    assert rig.app.menu_shown  # "menu" shows the menu ...
    while rig.app.menu_cursor != 0:  # back to "roll"
        rig.tap("menu_next")
    rig.tap("menu_do")
    assert rig.app.state.roll.count == 3
    # ... and "do" gives the page straight back: the dice page, tumbling for 0.45 s.
    assert rig.app.page == pages.DICE and not rig.app.menu_shown and rig.app.animating
    tumble = [rig.pixels.rgb(rig.app.led_of_cell[i]) for i in range(3)]
    assert all(sum(p) > 0 for p in tumble)
    assert all(not (r == g == b) for r, g, b in tumble)  # team hues, not the menu's white
    rig.run(500)
    assert rig.app.page == pages.DICE and not rig.app.animating and not rig.app.menu_shown


def test_do_on_the_pico_shows_a_changed_setting_not_the_menu() -> None:
    rig = linked_rig("pico_matrix")
    while rig.app.menu_cursor != 9:  # "brightness"
        rig.tap("menu_next")
    level = rig.app.brightness
    rig.tap("menu_do")
    assert rig.app.brightness == level % 8 + 1
    assert not rig.app.menu_shown  # the level shows (overlay), then the page


class Encoder:
    def __init__(self) -> None:
        self.position = 0


def test_clockwise_on_the_macropad_encoder_selects_the_next_position() -> None:
    rig = linked_rig("macropad")
    rig.app.encoder = encoder = Encoder()
    state = rig.app.state
    active_pos = list(state.order[: state.count]).index(state.active)
    # rotaryio.IncrementalEncoder(ROTA, ROTB) counts down for a clockwise detent.
    assert rig.profile.ENCODER_CLOCKWISE == -1
    encoder.position -= 1
    rig.run(10)
    assert rig.app.selected == state.order[(active_pos + 1) % state.count]
    encoder.position -= 1
    rig.run(10)
    assert rig.app.selected == state.order[(active_pos + 2) % state.count]
    encoder.position += 2  # two detents counter-clockwise: back to the active turn
    rig.run(10)
    assert rig.app.selected == state.active


class BrokenStream:
    """usb_cdc.data whose write fails (a cable pulled mid-write): reads work."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.fail: type[BaseException] | None = None

    @property
    def in_waiting(self) -> int:
        return self.inner.in_waiting  # type: ignore[attr-defined, no-any-return]

    def readinto(self, buf: bytearray) -> int:
        return self.inner.readinto(buf)  # type: ignore[attr-defined, no-any-return]

    def write(self, buf: bytes) -> int:
        if self.fail is not None:
            raise self.fail("write failed")
        return self.inner.write(buf)  # type: ignore[attr-defined, no-any-return]


def test_a_failing_write_in_a_key_action_is_counted_shown_and_the_board_goes_on() -> None:
    rig = linked_rig()
    broken = BrokenStream(rig.app.session.stream)
    rig.app.session.stream = broken
    broken.fail = OSError
    turn = rig.app.state.turn
    problems = rig.app.problems
    rig.tap("next_turn")  # applied and journalled, then the write to the host fails
    assert rig.app.state.turn == (turn + 1) % 8
    assert rig.app.problems > problems and "OSError" in rig.app.last_crash
    lit = set()
    for _ in range(20):  # the problem cell strobes
        rig.run(10)
        lit.add(brightness_of(rig, rig.app.canvas.cells - 2) > 0)  # the problem cell
    assert lit == {True, False}
    broken.fail = None
    frames = rig.app.frames
    rig.tap("page")  # keys still work and frames still come
    assert rig.app.page == PAGE_NAMES.index("cooldowns") and rig.app.frames > frames


def test_a_key_action_that_raises_is_counted_and_the_next_keys_still_work() -> None:
    from firmware.app import CONTROL_NAMES

    rig = linked_rig()
    app = rig.app
    real = app.do_control

    def faulty(code: int, kind: int, now_ms: int) -> None:
        if code == CONTROL_NAMES.index("roll"):
            raise ValueError("a bug in the roll")
        real(code, kind, now_ms)

    app.do_control = faulty  # type: ignore[method-assign]
    rig.tap("roll")
    assert app.crashes == 1 and app.problems >= 1 and "a bug in the roll" in app.last_crash
    rig.tap("page")
    assert app.page == PAGE_NAMES.index("cooldowns")


def test_a_drawing_fault_shows_the_problem_cell_and_the_next_frames_recover() -> None:
    rig = linked_rig()
    app = rig.app
    real = pages.render_page
    broken = [True]

    def faulty(*args: object) -> None:
        if broken[0]:
            raise IndexError("a bug in a page")
        real(*args)  # type: ignore[arg-type]

    pages.render_page = faulty  # type: ignore[assignment]
    try:
        shows = rig.pixels.shows
        lit = set()
        for _ in range(20):
            rig.run(10)
            lit.add(brightness_of(rig, app.canvas.cells - 2) > 0)  # the problem cell
        assert app.crashes > 0 and "IndexError" in app.last_crash
        assert rig.pixels.shows > shows  # the fault frame is shown
        assert lit == {True, False}
        broken[0] = False
        crashes = app.crashes
        rig.run(100)
        assert app.crashes == crashes
        assert any(brightness_of(rig, pos) for pos in range(8))  # the page is back
    finally:
        pages.render_page = real


def test_keyboard_interrupt_is_not_swallowed() -> None:
    rig = linked_rig()
    broken = BrokenStream(rig.app.session.stream)
    rig.app.session.stream = broken
    broken.fail = KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        rig.tap("next_turn")


def test_the_starting_brightness_is_a_setting() -> None:
    assert Rig().app.brightness == 5
    from firmware.app import App

    rig = Rig()
    app = App(rig.profile, rig.pixels, rig.keys, object(), None, brightness=2, seed=1)
    assert app.brightness == 2


def test_the_roll_key_rolls_the_dice_the_descriptor_names() -> None:
    rig = Rig()
    rig.stream.put(hello())
    rig.run(10)
    described(rig, pack("tens", 3, dice_kind=dice.KIND_D10, success_mask=0b1 << 9, dice_count=2))
    rig.tap("roll")
    roll = rig.app.state.roll
    assert roll.kind == dice.KIND_D10 and roll.count == 2
    assert all(1 <= f <= 10 for f in roll.faces[:2])
    assert roll.successes == sum(1 for f in roll.faces[:2] if f == 10)
    described(rig, pack("pct", 4, dice_kind=dice.KIND_D100, success_mask=0), seq=1)
    rig.tap("roll")
    assert rig.app.state.roll.kind == dice.KIND_D100 and rig.app.state.roll.count == 2


def test_a_new_descriptor_resets_the_dice_count_and_the_counter_keys() -> None:
    rig = korxsol_rig()
    rig.tap("add_die")
    rig.tap("counter_next")
    assert rig.app.dice_count == 4 and rig.app.counter == BURN
    described(rig, korxsol_device.descriptor(), seq=2)
    assert rig.app.dice_count == 3 and rig.app.counter == FROST


def test_without_counters_the_counter_keys_are_refused_and_shown() -> None:
    rig = linked_rig()
    described(rig, pack("bare", 1, phases=("p1", "p2")), seq=2)
    refusals = rig.app.refusals
    rig.tap("counter_up")
    assert rig.app.refusals == refusals + 1 and "counter 0" in rig.app.last_refusal


def test_the_app_writes_the_leds_only_when_the_frame_changed() -> None:
    rig = linked_rig()
    rig.run(500, step=1)
    shows, changes, frames = rig.pixels.shows, rig.pixels.changes, rig.app.frames
    rig.run(1000, step=1)  # an idle second: blinks change some frames, not all
    writes = rig.pixels.shows - shows
    assert writes == rig.pixels.changes - changes  # every write changed a pixel
    assert rig.app.frames - frames >= 50 > writes  # rendered every 20 ms, written less
    assert rig.app.led_writes == rig.pixels.shows


def test_an_unchanged_frame_is_written_again_after_a_second() -> None:
    rig = linked_rig()
    app = rig.app
    shows = rig.pixels.shows
    app.canvas.clear()
    app._written[:] = bytes(len(app._written))  # the strip shows this (dark) frame
    app._written_at = rig.now
    app._show(rig.now)
    app._show(rig.now + 999)
    assert rig.pixels.shows == shows  # unchanged within the second: not written
    app._show(rig.now + 1000)  # a second since the last write: written again
    assert rig.pixels.shows == shows + 1


def test_the_hosts_page_names_are_the_firmwares_pages_in_order() -> None:
    # The names live on the host (host/board/firmware_host.py), the numbers on the board.
    assert len(PAGE_NAMES) == pages.PAGE_COUNT
    assert PAGE_NAMES.index("initiative") == pages.INITIATIVE
    assert PAGE_NAMES.index("dice") == pages.DICE
    assert PAGE_NAMES.index("grid") == pages.GRID


def test_the_apps_private_numbers_are_the_limits() -> None:
    # firmware/app.py and shared/dice.py fold these in as private consts (no global each:
    # docs/memory.md).
    import firmware.app as app_module
    from shared import limits

    assert app_module._NO_SLOT == limits.NO_SLOT
    assert app_module._MAX_DICE == limits.MAX_DICE
    assert dice._MAX_DICE == limits.MAX_DICE
