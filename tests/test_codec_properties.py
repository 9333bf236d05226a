"""Property tests of the state codec (CPython only; the VM runs the example-based ones)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vmcheck import snapshot

from shared import codec, dice, limits, roster
from shared.limits import (
    LABEL_LEN,
    MAX_ACTIONS,
    MAX_COOLDOWN_ID,
    MAX_COOLDOWN_TURNS,
    MAX_COOLDOWNS,
    MAX_COUNTER,
    MAX_COUNTERS,
    MAX_GRID_SIDE,
    MAX_HEALTH,
    MAX_ORDER_KEY,
    MAX_RANK,
    MAX_SLOTS,
)
from shared.state import LABEL_CHARS, GameState

labels = st.text(alphabet=LABEL_CHARS, min_size=1, max_size=LABEL_LEN)


@st.composite
def states(draw: st.DrawFn) -> GameState:
    state = GameState()
    state.ruleset = draw(st.integers(0, 15))
    state.phase_count = draw(st.integers(1, 15))
    state.team_count = draw(st.integers(1, 4))
    count = draw(st.integers(0, MAX_SLOTS))
    for _ in range(count):
        roster.add_slot(
            state,
            draw(labels),
            draw(st.integers(0, state.team_count - 1)),
            draw(st.integers(0, MAX_ORDER_KEY)),
            draw(st.integers(0, MAX_ACTIONS)),
            draw(st.integers(0, MAX_HEALTH)),
        )
    for i in range(count):
        s = state.slots[i]
        s.actions = draw(st.integers(0, MAX_ACTIONS))
        s.health = draw(st.integers(0, MAX_HEALTH))
        for k in range(MAX_COUNTERS):
            s.counters[k] = draw(st.integers(0, MAX_COUNTER))
        s.flags = draw(st.integers(0, 255))
        for t in range(MAX_COOLDOWNS):
            if draw(st.booleans()):
                s.cd_id[t] = draw(st.integers(1, MAX_COOLDOWN_ID))
                s.cd_left[t] = draw(st.integers(0, MAX_COOLDOWN_TURNS))
                s.cd_pending |= draw(st.integers(0, 1)) << t
    if count:
        roster.set_order(
            state,
            draw(st.permutations(range(count))),
            draw(st.lists(st.integers(0, 3), min_size=count, max_size=count)),
        )
        state.round = draw(st.integers(0, 0xFFFF))
        state.turn = draw(st.integers(0, count - 1))
        kind = draw(st.sampled_from((1, 2, 3, 4, 5, 6)))
        n = 2 if kind == dice.KIND_D100 else draw(st.integers(1, 15))
        # Plain dice: any die of 2..100 faces each, several kinds in one roll.
        sides = [draw(st.integers(2, dice.MAX_SIDES)) if kind == dice.KIND_DN else 0]
        while len(sides) < n:
            runs = 1 + sum(a != b for a, b in zip(sides, sides[1:], strict=False))
            same = draw(st.booleans()) or runs >= limits.MAX_KINDS
            sides.append(sides[-1] if same else draw(st.integers(2, dice.MAX_SIDES)))
        faces = [
            draw(st.integers(*dice.face_range(kind, sides[i] if kind == dice.KIND_DN else 0)))
            for i in range(n)
        ]
        dice.enter(state, kind, faces, draw(st.integers(0, count - 1)), sides=sides)
        state.roll.degree = draw(st.integers(0, 4))
        if draw(st.booleans()):  # a roll wanted: plain dice each of their own faces
            want = state.want
            want.kind = dice.KIND_DN
            want.count = draw(st.integers(1, 15))
            kinds = draw(
                st.lists(st.integers(2, dice.MAX_SIDES), min_size=1, max_size=limits.MAX_KINDS)
            )
            for i in range(want.count):
                want.sides[i] = kinds[i * len(kinds) // want.count]
            want.who = draw(st.integers(0, count - 1))
            want.purpose = draw(st.integers(0, 15))
            want.smart = draw(st.integers(0, 1))
    state.off_board = draw(st.integers(0, 15))
    for i in range(count):
        state.slots[i].effects = draw(st.integers(0, 15))
        state.slots[i].effect_ends = draw(st.booleans())
    state.phase = draw(st.integers(0, state.phase_count - 1))
    for t in range(state.team_count):
        state.scores[t] = draw(st.integers(-0x8000, 0x7FFF))
    if draw(st.booleans()):
        width = draw(st.integers(1, MAX_GRID_SIDE))
        height = draw(st.integers(1, MAX_GRID_SIDE))
        owners = st.one_of(st.none(), st.integers(0, state.team_count - 1))
        cells = draw(
            st.lists(
                st.builds(roster.grid_cell, owners, st.integers(0, MAX_RANK)),
                max_size=width * height,
            )
        )
        roster.set_grid(state, width, height, cells)
    state.version = draw(st.integers(0, 0xFFFF))
    return state


@given(states())
@settings(max_examples=300, deadline=None)
def test_any_valid_state_round_trips_exactly(state: GameState) -> None:
    data = codec.encode(state)
    assert len(data) <= codec.MAX_ENCODED
    back = GameState()
    codec.decode(data, back)
    assert snapshot(back) == snapshot(state)


@given(st.binary(max_size=codec.MAX_ENCODED + 8))
@settings(max_examples=500, deadline=None)
def test_any_bytes_either_decode_or_raise_codec_error(data: bytes) -> None:
    target = GameState()
    try:
        codec.decode(data, target)
    except codec.CodecError:
        return
    # whatever decodes must be a state the codec can write back byte for byte
    assert codec.encode(target) == data


@given(states(), st.data())
@settings(max_examples=200, deadline=None)
def test_a_corrupted_state_decodes_cleanly_or_raises_codec_error(
    state: GameState, data: st.DataObject
) -> None:
    raw = bytearray(codec.encode(state))
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] ^= data.draw(st.integers(1, 255))
    target = GameState()
    try:
        codec.decode(bytes(raw), target)
    except codec.CodecError:
        return
    # what decodes must encode back byte for byte (a state encode refuses wedges the board)
    assert codec.encode(target) == bytes(raw)


@given(states(), st.lists(st.integers(-(1 << 30), (1 << 30) - 1), min_size=4, max_size=4))
@settings(max_examples=200, deadline=None)
def test_a_state_decodes_only_if_it_encodes_back_byte_for_byte(
    state: GameState, scores: list[int]
) -> None:
    """Any score the wire can carry (31 zigzag bits), written by an encoder without its range
    check: decode refuses it, or gives a state that encodes to the very same bytes."""
    state.scores[:] = scores
    limits = codec.limits  # the codec reads its ceilings there
    saved = limits.MIN_SCORE, limits.MAX_SCORE
    limits.MIN_SCORE, limits.MAX_SCORE = -(1 << 30), 1 << 30
    try:
        data = codec.encode(state)
    finally:
        limits.MIN_SCORE, limits.MAX_SCORE = saved
    target = GameState()
    try:
        codec.decode(data, target)
    except codec.CodecError:
        return
    assert codec.encode(target) == data


# Every number encode packs, by where it sits in a state (issue #36, finding 3): a hostile
# value in any of them, negative or too large, is refused with CodecError or comes back
# exactly, and encode returns within a budget of lines run (a loop that never ends fails
# here instead of hanging the test run; CPython's line events, not the wall clock).
_STATE_FIELDS = ("ruleset", "round", "version", "count", "turn", "phase", "phase_count")
_STATE_FIELDS += ("team_count", "off_board", "grid_w", "grid_h")
_ROLL_FIELDS = ("kind", "count", "who", "successes", "unused", "degree")
_WANT_FIELDS = ("kind", "count", "who", "purpose", "smart")
_SLOT_FIELDS = ("team", "order_key", "actions", "actions_max", "health", "health_max")
_SLOT_FIELDS += ("flags", "effects", "cd_pending")
FIELDS = (
    [("state", name) for name in _STATE_FIELDS]
    + [("score", i) for i in range(limits.MAX_TEAMS)]
    + [("roll", name) for name in _ROLL_FIELDS]
    + [("want", name) for name in _WANT_FIELDS]
    + [("slot", name) for name in _SLOT_FIELDS]
)
HOSTILE = st.one_of(
    st.integers(-(1 << 40), -1),
    st.sampled_from((-1, -2, -255, -256, -0x8001, -0x10000)),
    st.integers(256, 1 << 40),
    st.sampled_from((16, 32, 255, 256, 0x10000, 1 << 31)),
)
ENCODE_LINES = 100_000  # a whole state takes a few thousand


class _TooLong(BaseException):
    """Raised from the tracer (a BaseException: no `except Exception` of the codec's
    swallows it)."""


def _bounded(fn, *args):  # type: ignore[no-untyped-def]
    """fn(*args), failing with _TooLong once it has run ENCODE_LINES lines."""
    left = [ENCODE_LINES]

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "line":
            left[0] -= 1
            if left[0] < 0:
                raise _TooLong(fn.__name__)
        return tracer

    saved = sys.gettrace()
    sys.settrace(tracer)
    try:
        return fn(*args)
    finally:
        sys.settrace(saved)


def _set(state: GameState, where: str, name: str | int, value: int) -> None:
    if where == "state":
        setattr(state, str(name), value)
    elif where == "score":
        state.scores[int(name)] = value
    elif where == "roll":
        setattr(state.roll, str(name), value)
    elif where == "want":
        want = state.want
        if not want.count:  # a roll wanted, so that its fields are written
            want.kind = dice.KIND_ACTION_D3
            want.count = 1
        setattr(want, str(name), value)
    else:
        for i in range(state.count):
            setattr(state.slots[i], str(name), value)


@given(states(), st.sampled_from(FIELDS), HOSTILE)
@settings(max_examples=600, deadline=None)
def test_a_negative_or_too_large_field_is_refused_in_bounded_time_or_comes_back_exactly(
    state: GameState, field: tuple[str, str | int], value: int
) -> None:
    _set(state, *field, value)
    try:
        data = _bounded(codec.encode, state)
    except codec.CodecError:
        return
    back = GameState()
    try:
        codec.decode(data, back)
    except codec.CodecError:
        return
    assert snapshot(back) == snapshot(state), field


def test_encode_refuses_a_negative_round_at_once() -> None:
    # _bits_for(-1) never returned: encode looped for ever (on CPython too).
    state = GameState()
    state.round = -1
    with pytest.raises(codec.CodecError):
        _bounded(codec.encode, state)
