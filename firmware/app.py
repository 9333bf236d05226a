"""The board application: keys in, the trimmed engine and the link, a frame out.

Hardware comes in as arguments (code.py passes the real objects, the simulator and the
tests pass fakes): `pixels` (a NeoPixel with auto_write off: `pixels[i] = 0xRRGGBB` and
`show()`), `keys` (anything with keypad's `events.get_into(event)`), `key_event` (a
keypad.Event to fill), `stream` (usb_cdc.data, or None to play alone), `encoder` (a
rotaryio.IncrementalEncoder or None). `step(now_ms)` does one loop turn: read keys, play
gestures through the shared engine (BoardSession.submit_record), service the link and, when a
frame is due or something changed, render, limit and show() once. A fault in any of these
(an exception from a key action, a write to the stream, drawing) is counted in `problems`,
shown on the problem cell, and the loop goes on.

The controls are generic: the roll key rolls the dice the host's descriptor names (D3, D6,
D10, d100 or plain dice of any size), starting at its dice count, or, while the host wants
a roll (state.want), one press rolls exactly that (its count and kind, each plain die of
its own faces), and the key lights with it; the counter
keys move the counter picked with "counter_next" (the descriptor's first counter after
each new descriptor) on the selected slot, up to its cap. The next-turn key ends the
running turn, whatever its unit (one slot, a team's or a player's slots, or a step:
shared/turns.py); when the turn is several slots' and the selected slot is one of them
still to act, it says that slot is done instead (and the selection goes back to the turn).
"""

# isort: off
# The order of these imports sets the board's peak heap: a board compiles each .py as it is
# first imported, and compiling a module takes several times the heap its code keeps, in
# pieces that leave the heap fragmented. The modules that take the most to compile come
# first, while the heap holds least: the link (which brings the codec and the events), then
# the pages, each followed by a collection. Measured on the MicroPython VM (docs/memory.md):
# change this order only with the figures.
import gc

from adafruit_ticks import ticks_add, ticks_diff

gc.collect()  # (adafruit_ticks' compile freed: the codec's starts on a heap in fewer pieces)
from shared import codec  # noqa: E402  (the largest compile of all: first)

# Names used only while importing are deleted once used: the slots they free in this
# module's globals are reused by the names after them, so the table stays a size smaller.
del codec
gc.collect()
from shared.link.board import ACCEPTED, BoardSession  # noqa: E402

gc.collect()
from firmware import pages  # noqa: E402

gc.collect()
del gc
from firmware import palette as pal  # noqa: E402
from firmware import whole_pages  # noqa: E402
from shared import dice  # noqa: E402
from shared import events as ev  # noqa: E402
from shared.compat import HOST, const  # noqa: E402
from shared.limits import MAX_SLOTS  # noqa: E402
from shared.link import messages as m  # noqa: E402
from shared.slots import Slots  # noqa: E402
from shared.state import GameState  # noqa: E402

# isort: on

_FRAME_MS = const(20)  # a frame at least this often, for the blink patterns
_ANIMATION_MS = const(450)  # the roll's tumble
_OVERLAY_MS = const(1200)  # a changed setting (dice count, flips, brightness) shows this long
_MENU_MS = const(4000)  # the menu of a small board stays up this long after a key
_FLASH_MS = const(2000)  # the problem cell strobes this long after a new problem
_REFUSED_MS = const(800)  # a key whose press the host refused strobes this long
# A frame the strip already shows is not written again (30 us a pixel, the CPU held), unless
# the last write is this old: a strip that lost power (or a glitch) is put right by then.
_REWRITE_MS = const(1000)
BRIGHTNESS_LEVELS = const(8)
DEFAULT_BRIGHTNESS = const(5)
_MAX_ACTION_DICE = const(6)  # the dice count steps 1..6 (or up to the descriptor's count)
# Key gestures (the kinds App.do_control plays), and "no key".
_PRESS = const(1)
_LONG = const(2)
_CONFIRM = const(3)
_NO_KEY = const(-1)
# A key's state in App.down: up (0), down with its gesture to come, or down and spent (its
# gesture played, or cancelled).
_HELD = const(1)
_SPENT = const(2)
_VIEWS = const(2)  # Slot views of the state's fighters (shared.state.Slots): a window's worth
_UNITS = const(48)  # the descriptor's turn unit bits: not 0, a turn is several slots'
_ACTIVE = const(1)  # shared.state.F_ACTIVE
_NO_SLOT = const(0xFF)  # shared.limits.NO_SLOT (tests/test_board_app.py: they agree)
_MAX_DICE = const(15)  # shared.limits.MAX_DICE
_TO_ACT = const(3)  # F_ACTIVE | F_ACTED

# -- key gestures (the App's own methods: a module, or a class, costs the board's heap) --
#
# Key gestures from raw key events: press, long press, and hold-to-confirm.
#
# App.key_input takes each keypad event and App.poll_keys runs every loop step. A key whose
# control is destructive (worked out from the control at each press and hold: for the menu's
# do key, from the control the menu shows) fires only after it has been held for _CONFIRM_MS;
# releasing it early, or pressing any other key meanwhile, cancels it (the other press is
# spent on cancelling). Other keys fire LONG once held for _LONG_MS, or PRESS on a release
# before that. Each gesture is played at once (App.do_control, called where the gesture
# ends: every call level on the way to a press's submit costs the board's Python stack,
# docs/board.md); nothing here allocates.

_LONG_MS = const(600)
_CONFIRM_MS = const(1500)


# -- the LED current limiter ----------------------------------------------------------
#
# The LED current limiter: estimate a frame's current and scale it under the budget.
#
# A WS2812-style pixel draws about LED_MA_PER_CHANNEL at full duty on each of its three
# channels plus a small idle current, so a frame's draw is estimated from the sum of its
# bytes. Brightness is applied first; if the estimate is still over the budget every byte is
# scaled by the same integer factor, which keeps hues and relative brightness. App.limit
# does it, and keeps budget_ma, last_ma, max_ma and limited: as the App's own, not a class
# of its own, which would cost the board's heap more (docs/memory.md).

DEFAULT_BUDGET_MA = const(400)


def estimate_ma(total, cells, ma_per_channel, idle_ma):
    """Milliamps for a frame of `cells` pixels whose bytes sum to `total`."""
    return total * ma_per_channel // 255 + idle_ma * cells


# Controls, by code. A profile's KEYMAP names them; "" (code 0) is a key with no control.
CONTROL_NAMES = (
    "",
    "next_turn",
    "roll",
    "chance",
    "d100",
    "counter_up",
    "counter_down",
    "counter_next",
    "add_die",
    "undo",
    "page",
    "brightness",
    "select_prev",
    "select_next",
    "end_combat",
    "reset",
    "menu_next",
    "menu_do",
    "window",
    "pos0",
    "pos1",
    "pos2",
    "pos3",
    "pos4",
    "pos5",
    "pos6",
    "pos7",
)
_C_NONE = const(0)
_C_NEXT_TURN = const(1)
_C_ROLL = const(2)
_C_CHANCE = const(3)
_C_D100 = const(4)
_C_COUNTER_UP = const(5)
_C_COUNTER_DOWN = const(6)
_C_COUNTER_NEXT = const(7)
_C_ADD_DIE = const(8)
_C_UNDO = const(9)
_C_PAGE = const(10)
_C_BRIGHTNESS = const(11)
_C_SELECT_PREV = const(12)
_C_SELECT_NEXT = const(13)
_C_END_COMBAT = const(14)
_C_RESET = const(15)
_C_MENU_NEXT = const(16)
_C_MENU_DO = const(17)
_C_WINDOW = const(18)
_C_POS0 = const(19)
# `const` is needed only above: deleting it frees its slot in this module's globals for the
# names below, so the table stays a size smaller (docs/memory.md).
del const

# What "menu_do" can run on a board with few keys, in menu order.
MENU = (
    _C_ROLL,
    _C_CHANCE,
    _C_D100,
    _C_SELECT_NEXT,
    _C_COUNTER_NEXT,
    _C_COUNTER_UP,
    _C_COUNTER_DOWN,
    _C_ADD_DIE,
    _C_UNDO,
    _C_BRIGHTNESS,
    _C_END_COMBAT,
    _C_RESET,
    _C_WINDOW,
)


class App:
    def __init__(
        self,
        profile,
        pixels,
        keys,
        key_event,
        stream=None,
        encoder=None,
        now_ms=0,
        seed=None,
        budget_ma=DEFAULT_BUDGET_MA,
        nonce=None,
        brightness=DEFAULT_BRIGHTNESS,
    ):
        self.profile = profile
        self.pixels = pixels
        self.keys = keys
        self.key_event = key_event
        self.encoder = encoder
        self.canvas = pages.Canvas(profile.WIDTH, profile.HEIGHT)
        # The LED index of each cell (reading order); zig-zag strips reverse odd rows.
        width = profile.WIDTH
        self.led_of_cell = bytearray(width * profile.HEIGHT)
        for cell in range(len(self.led_of_cell)):
            col = cell % width
            if profile.SERPENTINE and cell // width & 1:
                col = width - 1 - col
            self.led_of_cell[cell] = cell - cell % width + col
        # On the host (the simulated board, the tests) a view per fighter: host code reads
        # the board's state holding many of its slots at once (shared/slots.py).
        self.state = GameState(Slots(MAX_SLOTS if HOST else _VIEWS))
        if stream is None:  # USB data is off: a module of its own, loaded only then
            from firmware.null_stream import NullStream

            stream = NullStream()
        self.session = BoardSession(
            stream,
            self.state,
            fw=(0, 3),  # the firmware version
            profile=profile.PROFILE,
            grid=(profile.WIDTH, profile.HEIGHT),
            nonce=nonce,
            now_ms=now_ms,
        )
        self.rng = dice.XorShift32(seed) if seed is not None else dice.random_source_from_os()
        self.faces = bytearray(_MAX_DICE)
        self.chain_sides = bytearray(_MAX_DICE)  # an exploding roll's: each face's die
        self._record = bytearray(ev.EVENT_MAX)  # a press's event record, written in place
        key_count = len(profile.KEYMAP)
        code = CONTROL_NAMES.index  # a control's code by its name (ValueError if unknown)
        self.controls = bytearray(key_count)
        self.menu_key = -1
        for i in range(key_count):
            self.controls[i] = code(profile.KEYMAP[i])
            if self.controls[i] == _C_MENU_DO:
                self.menu_key = i
        # The encoder's controls for a detent that moves its raw position down, and up
        # (ENCODER_MAP is counter-clockwise, clockwise; ENCODER_CLOCKWISE says which way
        # the raw position moves for a clockwise detent).
        self.encoder_controls = bytearray(2)
        if profile.ENCODER_MAP:
            up = 1 if profile.ENCODER_CLOCKWISE == 1 else 0
            self.encoder_controls[up] = code(profile.ENCODER_MAP[1])
            self.encoder_controls[1 - up] = code(profile.ENCODER_MAP[0])
        self.encoder_at = encoder.position if encoder is not None else 0
        # Key gestures (key_input, poll_keys): when each key went down; each key up, _HELD
        # or _SPENT; the hold-to-confirm key being held. A key needs hold-to-confirm when
        # its control is destructive (end combat, reset), and the menu's "do" key when the
        # menu shows a destructive one.
        self.down_at = [0] * key_count
        self.down = bytearray(key_count)
        self.pending = _NO_KEY
        self.budget_ma = budget_ma
        self.last_ma = 0  # the estimate of the last frame, after scaling
        self.max_ma = 0  # the highest estimate since start
        self.limited = 0  # frames that had to be scaled down
        self.brightness = brightness
        self.page = pages.INITIATIVE
        self.selected = _NO_SLOT
        # The window of turn positions shown starts at the turn's, moved by the canvas's
        # `shift` (the window keys, a selection outside it); a new turn (`shift_at`:
        # round * 64 + turn) brings it back.
        self.shift_at = -1
        # The roll key's dice count and the counter keys' counter, reset by each new
        # descriptor (service_link); the first step takes the state's own.
        self.dice_count = 3
        self.counter = 0
        self._descriptors = -1
        self.flips = 1
        self.menu_cursor = 0
        self.menu_until = now_ms
        self.menu_shown = False
        self.overlay_count = 0
        self.overlay_colour = pal.WHITE
        self.overlay_until = now_ms
        self.animate_until = now_ms
        self.animating = False
        self._seen_roll = bytearray(_MAX_DICE + 2)  # kind, count, faces: to spot a new roll
        self.problems = 0  # bad input from the host (bad frames, bad messages) and faults
        self.flash_until = now_ms
        self.refusals = 0  # presses refused: by the engine, a full journal or the host
        self.last_refusal = ""
        # A press the host's rules refuse flashes its key (where keys are the LEDs): the
        # key of the last event sent, and how many refusals the link has counted.
        self._key = -1
        self._event_key = -1
        self._rejected_seen = 0
        self.refused_key = -1
        self.refused_until = now_ms
        self.crashes = 0  # exceptions caught in the loop (it then carries on)
        self.last_crash = ""  # the last one, as "Type: message"
        self.frames = 0
        self.next_frame_at = now_ms
        self.dirty = True
        self.led_writes = 0  # frames written to the strip (a frame unchanged is not)
        self._written = bytearray(self.canvas.cells * 3)  # the frame last written
        self._written_at = now_ms

    # -- the loop -----------------------------------------------------------------------

    def step(self, now_ms):
        # Keys and the encoder first: every finished gesture is played. Here, not in a method
        # of its own: a press's path (down to its event's encode) is the deepest the board
        # has, and each level costs its Python stack (docs/board.md).
        try:
            event = self.key_event
            events = self.keys.events
            while events.get_into(event):
                self.key_input(event.key_number, event.pressed, now_ms)
                self.dirty = True
            self.poll_keys(now_ms)
            if self.pending != _NO_KEY:
                self.dirty = True
            encoder = self.encoder
            if encoder is not None:
                position = encoder.position
                while position != self.encoder_at:
                    up = 1 if position > self.encoder_at else 0
                    self.encoder_at += 1 if up else -1
                    self.do_control(self.encoder_controls[up], _PRESS, now_ms)
        except Exception as err:  # a fault in a key action must not stop the game
            self._crashed(err, now_ms)
        self.service_link(now_ms)
        if self.dirty or ticks_diff(now_ms, self.next_frame_at) >= 0:
            try:
                self.render(now_ms)
            except Exception as err:  # nor one in drawing: show the problem cell alone
                self._render_failed(err, now_ms)

    def _render_failed(self, err, now_ms):
        # The system row alone, the problem cell strobing (if even that fails, the next
        # frame tries again). Apart from step: its handlers would widen step's frame, which
        # is under every press.
        self._crashed(err, now_ms)
        self.dirty = False
        self.next_frame_at = ticks_add(now_ms, _FRAME_MS)
        canvas = self.canvas
        try:
            canvas.clear()
            pages.render_system(canvas, self.page, self.session.linked, True, 0, 0, 0, now_ms)
            self._show(now_ms)
        except Exception:
            pass

    def service_link(self, now_ms):
        try:
            if self.session.poll(now_ms):
                self.dirty = True
        except Exception as err:  # a fault in the link must not stop the game; count and go on
            self._crashed(err, now_ms)
            return
        if self.session.descriptors != self._descriptors:
            # A new game description: the roll key starts at its dice count, the counter
            # keys at its first counter.
            self._descriptors = self.session.descriptors
            self.dice_count = self.state.rules.dice_count
            self.counter = self.state.rules.first_counter
        if self.session.rejected != self._rejected_seen:
            # The host's rules refused a press: the problem cell strobes, and the key.
            self._rejected_seen = self.session.rejected
            self.refusals += 1
            self.flash_until = ticks_add(now_ms, _FLASH_MS)
            if self.profile.KEYS_LIT and 0 <= self._event_key < self.canvas.cells:
                self.refused_key = self._event_key
                self.refused_until = ticks_add(now_ms, _REFUSED_MS)
            self.dirty = True
        self._count_problems(now_ms)

    def _crashed(self, err, now_ms):
        self.crashes += 1
        self.last_crash = "%s: %s" % (type(err).__name__, err)  # allocates: faults only
        self._count_problems(now_ms)

    def _count_problems(self, now_ms):
        session = self.session
        problems = session.bad_messages + session.dropped_frames() + self.crashes
        if problems != self.problems:
            self.problems = problems
            self.flash_until = ticks_add(now_ms, _FLASH_MS)
            self.dirty = True

    # -- key gestures --------------------------------------------------------------------

    def key_input(self, key, pressed, now_ms):
        """One keypad event: plays the gesture it completes (a press, or a cancelled
        hold-to-confirm)."""
        if not 0 <= key < len(self.controls):
            return
        down = self.down
        if pressed:
            down[key] = _HELD
            self.down_at[key] = now_ms
            pending = self.pending
            if pending != _NO_KEY and pending != key:
                # Another key cancels the hold, and is spent on cancelling.
                self.pending = _NO_KEY
                down[pending] = _SPENT
                down[key] = _SPENT
            else:
                code = MENU[self.menu_cursor] if key == self.menu_key else self.controls[key]
                if _C_END_COMBAT <= code <= _C_RESET:  # hold to confirm
                    self.pending = key
            return
        was = down[key]
        down[key] = 0
        if was != _HELD:  # up already, or its gesture spent
            return
        if key == self.pending:
            self.pending = _NO_KEY  # released early: cancelled
        else:
            self._key = key
            self.do_control(self.controls[key], _PRESS, now_ms)
            self._key = -1

    def poll_keys(self, now_ms):
        """Plays _CONFIRM or _LONG for a key held long enough (one a call)."""
        pending = self.pending
        down = self.down
        if pending != _NO_KEY:
            if ticks_diff(now_ms, self.down_at[pending]) >= _CONFIRM_MS:
                self.pending = _NO_KEY
                down[pending] = _SPENT
                self._key = pending
                self.do_control(self.controls[pending], _CONFIRM, now_ms)
                self._key = -1
                return
        for key in range(len(self.controls)):
            if down[key] != _HELD:
                continue
            code = MENU[self.menu_cursor] if key == self.menu_key else self.controls[key]
            if code < _C_END_COMBAT or code > _C_RESET:  # not a hold-to-confirm key
                if ticks_diff(now_ms, self.down_at[key]) >= _LONG_MS:
                    down[key] = _SPENT
                    self._key = key
                    self.do_control(self.controls[key], _LONG, now_ms)
                    self._key = -1
                    return

    def hold_progress(self, now_ms, steps):
        """How far (0..steps) the pending hold-to-confirm has come; 0 if none."""
        if self.pending == _NO_KEY:
            return 0
        held = ticks_diff(now_ms, self.down_at[self.pending])
        if held < 0:
            return 0
        if held >= _CONFIRM_MS:
            return steps
        return held * steps // _CONFIRM_MS

    # -- gestures and controls ----------------------------------------------------------

    def do_control(self, code, kind, now_ms):
        """Run one control for a gesture (PRESS, LONG, CONFIRM). A roll is made here, at the
        end, not in a method of its own: one call level less on the board's deepest path."""
        if code == _C_MENU_DO:  # the menu's entry, as its own key would (no call deeper)
            code = MENU[self.menu_cursor]
            # What it did shows at once (a roll: the dice page and its tumble), not the menu.
            self.menu_until = now_ms
        roll = -1  # the dice kind to roll, if any
        if code == _C_MENU_NEXT:
            count = len(MENU)
            step = count - 1 if kind == _LONG else 1
            self.menu_cursor = (self.menu_cursor + step) % count
            self.menu_until = ticks_add(now_ms, _MENU_MS)
        elif code == _C_END_COMBAT or code == _C_RESET:  # destructive: hold to confirm
            if kind == _CONFIRM:
                self._submit(now_ms, ev.END_COMBAT if code == _C_END_COMBAT else ev.RESET)
        elif code == _C_NEXT_TURN:
            state = self.state
            slot = self.selected
            if kind == _LONG or not state.rules.flags & _UNITS or slot >= state.count:
                slot = _NO_SLOT
            elif state.slots[slot].flags & _TO_ACT != _ACTIVE:
                slot = _NO_SLOT
            else:
                self.selected = _NO_SLOT  # done: back to the turn
            self._submit(now_ms, ev.NEXT_PHASE if kind == _LONG else ev.NEXT_TURN, slot)
        elif code == _C_ROLL:
            want = self.state.want
            if kind == _LONG:
                self._step_dice(1, now_ms)
            elif want.count:  # the roll the host wants, exactly (exploding: every chain)
                roll = want.kind
                count = want.count
                if want.explode:
                    count = dice.roll_exploding(
                        self.rng, count, want.sides, self.faces, self.chain_sides
                    )
            else:  # the descriptor's dice (its check allows no chance flips here)
                roll = self.state.rules.dice_kind
                count = self.dice_count
        elif code == _C_ADD_DIE:
            self._step_dice(-1 if kind == _LONG else 1, now_ms)
        elif code == _C_CHANCE:
            if kind == _LONG:
                self.flips = self.flips % ev.MAX_CHANCE_FLIPS + 1
                self._overlay(self.flips, pal.BLUISH_GREEN, now_ms)
            else:
                roll = dice.KIND_CHANCE
                count = self.flips
        elif code == _C_D100:
            roll = dice.KIND_D100
            count = 2
        elif code == _C_COUNTER_NEXT:
            rules = self.state.rules
            if rules.counters:
                step = rules.counters - 1 if kind == _LONG else 1
                self.counter = (self.counter + step) % rules.counters
                self._overlay(self.counter + 1, rules.colours[self.counter], now_ms)
        elif code == _C_COUNTER_UP or code == _C_COUNTER_DOWN:
            event = ev.COUNTER_UP if code == _C_COUNTER_UP else ev.COUNTER_DOWN
            self._submit(now_ms, event, self.selected, self.counter)
        elif code == _C_UNDO:
            self._submit(now_ms, ev.UNDO)
        elif code == _C_PAGE:
            step = pages.PAGE_COUNT - 1 if kind == _LONG else 1
            self.page = (self.page + step) % pages.PAGE_COUNT
            if self.page == pages.GRID and not whole_pages.shows_grid(self.canvas, self.state):
                self.page = (self.page + step) % pages.PAGE_COUNT  # no grid here: skip it
        elif code == _C_BRIGHTNESS:
            if kind == _LONG:
                self.brightness = self.brightness - 1 if self.brightness > 1 else 1
            else:
                self.brightness = self.brightness % BRIGHTNESS_LEVELS + 1
            self._overlay(self.brightness, pal.WHITE, now_ms)
        elif code == _C_SELECT_PREV or code == _C_SELECT_NEXT:
            self._select_step(now_ms, -1 if code == _C_SELECT_PREV else 1)
        elif code == _C_WINDOW:  # the window a width on (held: back), round the order
            canvas = self.canvas
            canvas.shift += -canvas.shown if kind == _LONG else canvas.shown
        elif code >= _C_POS0:  # pos0 .. pos7, the last of CONTROL_NAMES (the turn keys)
            self._select_position(now_ms, code - _C_POS0)
        if roll >= 0:
            # `roll` dice of that kind, sent: chance flips, a d100 (its two D10s), plain dice
            # (the event names how many, and each die's faces), or action dice (the event
            # names their kind).
            event = ev.ROLL_ACTION
            arg = roll
            if roll == dice.KIND_CHANCE:
                event = ev.CHANCE
                arg = 0
            elif roll == dice.KIND_D100:
                event = ev.D100
                arg = 0
                count = 2
            elif roll == dice.KIND_DN:
                event = ev.ROLL_DICE
                arg = count
            # Plain dice: each die's faces, the wanted roll's, else the descriptor's (where
            # action dice have their success faces). Written out here and in _submit, not
            # kept in a local or passed: either would widen a frame on the deepest path.
            state = self.state
            want = state.want
            if roll != dice.KIND_DN or not want.explode:  # (one exploding was rolled above)
                dice.roll_faces(
                    self.rng,
                    roll,
                    count,
                    self.faces,
                    want.sides if want.count else state.rules.success_mask,
                )
            if self._submit(now_ms, event, _NO_SLOT, arg, count) == ACCEPTED:
                self.page = pages.DICE
        self.dirty = True

    def _submit(self, now_ms, code, slot=_NO_SLOT, arg=0, count=0):
        # The record is written here, not in a BoardSession method: one call level fewer on
        # the board's deepest path.
        record = self._record
        ev.write_event(record, code, slot, arg, self.faces if count else None, count)
        if code == ev.ROLL_DICE:  # each die's faces, as do_control rolled them
            want = self.state.want
            ev.write_sides(
                record,
                (self.chain_sides if want.explode else want.sides)
                if want.count
                else self.state.rules.success_mask,
            )
        result = self.session.submit_record(now_ms, record)
        if result == ACCEPTED:
            self._event_key = self._key
        else:
            self.refusals += 1
            self.last_refusal = self.session.last_refusal
            self.flash_until = ticks_add(now_ms, _FLASH_MS)
        return result

    def _step_dice(self, step, now_ms):
        """One more (or one fewer) die for the roll key, wrapping within 1..the most."""
        most = self.state.rules.dice_count
        if most < _MAX_ACTION_DICE:
            most = _MAX_ACTION_DICE
        self.dice_count = (self.dice_count - 1 + step) % most + 1
        self._overlay(self.dice_count, pal.SUCCESS, now_ms)

    def _select_position(self, now_ms, col):
        # The turn key of a column (or cell): the position the window shows there.
        state = self.state
        canvas = self.canvas
        if col >= canvas.shown or col >= state.count:
            return
        index = state.order[(canvas.first + col) % state.count]
        if index == self.selected:
            self.selected = _NO_SLOT  # pressing the selection again goes back to the turn
            return
        self.selected = index
        self._submit(now_ms, ev.SELECT, index)

    def _select_step(self, now_ms, step):
        state = self.state
        if state.count == 0:
            return
        current = self.selected
        if current >= state.count:  # none (_NO_SLOT), or past the table: the turn's
            current = state.active
        pos = 0
        for i in range(state.count):
            if state.order[i] == current:
                pos = i
        pos = (pos + step) % state.count
        if self.canvas.column(pos, state.count) < 0:  # outside the window: it moves there
            self.canvas.shift = pos - state.turn
        self.selected = state.order[pos]
        self._submit(now_ms, ev.SELECT, self.selected)

    def _overlay(self, count, colour, now_ms):
        self.overlay_count = count
        self.overlay_colour = colour
        self.overlay_until = ticks_add(now_ms, _OVERLAY_MS)

    # -- drawing ------------------------------------------------------------------------

    def _spot_new_roll(self, now_ms):
        roll = self.state.roll
        seen = self._seen_roll
        changed = seen[0] != roll.kind or seen[1] != roll.count
        for i in range(_MAX_DICE):
            if seen[2 + i] != roll.faces[i]:
                changed = True
                seen[2 + i] = roll.faces[i]
        if changed:
            seen[0] = roll.kind
            seen[1] = roll.count
            if roll.kind:
                self.animate_until = ticks_add(now_ms, _ANIMATION_MS)

    def render(self, now_ms):
        """Draw the frame for now_ms, limit it, and show it (one show() per call)."""
        canvas = self.canvas
        state = self.state
        session = self.session
        canvas.clear()
        self._spot_new_roll(now_ms)
        if self.selected != _NO_SLOT and self.selected >= state.count:
            self.selected = _NO_SLOT  # the table shrank (a reset, a new snapshot)
        count = state.count
        at = state.round * 64 + state.turn
        if at != self.shift_at:  # a new turn: the window comes back to it
            self.shift_at = at
            canvas.shift = 0
            canvas.place(count, state.turn)
            selected = self.selected
            if selected != _NO_SLOT:
                for pos in range(count):
                    if state.order[pos] == selected and canvas.column(pos, count) < 0:
                        self.selected = _NO_SLOT  # out of sight: back to the turn
        canvas.place(count, state.turn)
        if session.error == m.E_VERSION:
            whole_pages.render_version_mismatch(canvas, now_ms)
        else:
            progress = self.hold_progress(now_ms, canvas.content)
            self.menu_shown = ticks_diff(self.menu_until, now_ms) > 0
            self.animating = ticks_diff(self.animate_until, now_ms) > 0
            if progress:
                whole_pages.render_progress(canvas, progress, now_ms)
            elif self.menu_shown and self.menu_key >= 0:
                whole_pages.render_menu(canvas, len(MENU), self.menu_cursor, now_ms)
            elif ticks_diff(self.overlay_until, now_ms) > 0:
                whole_pages.render_number(canvas, self.overlay_count, self.overlay_colour)
            else:
                if self.page == pages.GRID and not whole_pages.shows_grid(canvas, state):
                    self.page = pages.INITIATIVE  # the grid went (a new snapshot, a reset)
                pages.render_page(canvas, self.page, state, self.selected, self.animating, now_ms)
                pages.render_wanted(canvas, state, self.controls, _C_ROLL, now_ms)
            pages.render_system(
                canvas,
                self.page,
                session.linked,
                ticks_diff(self.flash_until, now_ms) > 0,
                self.problems,
                state.off_board,
                count,
                now_ms,
            )
            if self.refused_key >= 0:
                if ticks_diff(self.refused_until, now_ms) <= 0:
                    self.refused_key = -1
                elif pal.strobe(now_ms):
                    pal.put(canvas.frame, self.refused_key, pal.WARN, pal.FULL)
        self._show(now_ms)

    def limit(self, frame, brightness):
        """Scale frame (RGB bytes) by brightness (0..256) and then under the budget."""
        cells = self.canvas.cells
        per_channel = self.profile.LED_MA_PER_CHANNEL
        idle = self.profile.LED_IDLE_MA
        n = cells * 3
        total = 0
        for i in range(n):
            v = frame[i] * brightness >> 8
            frame[i] = v
            total += v
        estimate = estimate_ma(total, cells, per_channel, idle)
        room = self.budget_ma - idle * cells
        if estimate > self.budget_ma and room > 0:
            self.limited += 1
            # The largest total that fits, as a fraction (of 65536) of the one we have.
            scale = room * 255 // per_channel * 65536 // total
            total = 0
            for i in range(n):
                v = frame[i] * scale >> 16
                frame[i] = v
                total += v
            estimate = estimate_ma(total, cells, per_channel, idle)
        self.last_ma = estimate
        if estimate > self.max_ma:
            self.max_ma = estimate
        return estimate

    def _show(self, now_ms):
        """Limit the canvas's frame, hand it to the pixels and show() it, unless the strip
        shows that frame already (and was written less than _REWRITE_MS ago)."""
        canvas = self.canvas
        self.limit(canvas.frame, self.brightness * 256 // BRIGHTNESS_LEVELS)
        frame = canvas.frame
        self.frames += 1
        self.dirty = False
        self.next_frame_at = ticks_add(now_ms, _FRAME_MS)
        written = self._written
        if (
            self.led_writes
            and frame == written
            and ticks_diff(now_ms, self._written_at) < _REWRITE_MS
        ):
            return
        pixels = self.pixels
        leds = self.led_of_cell
        for cell in range(canvas.cells):
            at = cell * 3
            pixels[leds[cell]] = frame[at] << 16 | frame[at + 1] << 8 | frame[at + 2]
        pixels.show()
        for i in range(len(frame)):
            written[i] = frame[i]
        self.led_writes += 1
        self._written_at = now_ms
