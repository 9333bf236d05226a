"""The turn's details on the board (issue 42, item 2; pf2-combat.txt [19]): the host fills
`GameState.detail` for the creature whose turn it is, up to 10 bytes, each a palette colour
(high 4 bits) and a value (low 4; 0 a mark); the codec carries and checks them (version
10, docs/state-codec.md), and the counters page draws each on the turn's column after the
effects row, a value as that many blinks and a mark steady (docs/board.md). pf2 fills them
with every condition of its acting creature: those with a value first, then the marks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pf2_fixtures import ORC, VAL, Table, encounter_text

from firmware import pages
from firmware import palette as pal
from host.board.tethered_sim import TetheredSim
from host.core.session import Session
from host.rulesets.pf2 import device
from host.rulesets.pf2.ruleset import RULESET
from shared import codec, roster, turns
from shared.codec import CodecError
from shared.reference import build_reference_state
from shared.state import GameState
from shared.words import word

COUNTERS = 2  # the counters page


def _with(details: bytes) -> GameState:
    state = build_reference_state()
    state.detail[:] = details.ljust(10, b"\0")
    return state


def _bits(data: bytes) -> int:
    return int.from_bytes(data, "big")


def test_the_turns_details_come_back_through_the_codec() -> None:
    for details in (b"", b"\x12", b"\x32\x81\x00\xb1\x50", bytes([0xCF] * 10)):
        state = _with(details)
        back = build_reference_state()
        codec.decode(codec.encode(state), back)
        assert bytes(back.detail) == details.ljust(10, b"\0")
        assert codec.encode(back) == codec.encode(state)
    # 4 bits for none, 8 more each up to the last that is not 0
    plain = len(codec.encode(_with(b"")))
    assert len(codec.encode(_with(b"\x12" * 10))) == plain + 10
    assert len(codec.encode(_with(b"\x12" + bytes(8) + b"\x12"))) == plain + 10


@pytest.mark.parametrize("details", [b"\xd1", b"\x12\x00\xe1", b"\x01", b"\xf5"])
def test_a_detail_the_codec_cannot_carry_is_refused_on_encoding(details: bytes) -> None:
    with pytest.raises(CodecError) as caught:
        codec.encode(_with(details))
    assert caught.value.args[0] == 41
    assert "is not 1..12" in word(caught.value)


def test_a_detail_of_no_colour_is_refused_on_decoding() -> None:
    one, two = codec.encode(_with(b"\x1f")), codec.encode(_with(b"\x2f"))
    # colour 1 (0001) and 2 (0010): clear the bit colour 1 has and colour 2 has not
    changed = _bits(one) ^ _bits(two)
    data = (_bits(one) & ~changed).to_bytes(len(one), "big")
    with pytest.raises(CodecError) as caught:
        codec.decode(data, GameState())
    assert caught.value.args == (41, 0x0F)


def test_more_than_ten_details_are_refused_on_decoding() -> None:
    full, other = codec.encode(_with(b"\x11" * 10)), codec.encode(_with(b"\x11" * 9 + b"\x10"))
    last = (_bits(full) ^ _bits(other)).bit_length() - 1  # the last entry's lowest bit
    data = (_bits(full) | 1 << (last + 80)).to_bytes(len(full), "big")  # count 10 -> 11
    with pytest.raises(CodecError) as caught:
        codec.decode(data, GameState())
    assert caught.value.args == (42, 11)
    assert word(caught.value) == "11 detail entries: at most 10, the last not 0"


def test_a_last_detail_of_0_is_refused_on_decoding() -> None:
    # it would encode back without it: not the same bytes
    one, other = codec.encode(_with(b"\x11")), codec.encode(_with(b"\x10"))
    low = (_bits(one) ^ _bits(other)).bit_length() - 1  # the entry's lowest bit
    data = (_bits(one) & ~(0xFF << low)).to_bytes(len(one), "big")
    with pytest.raises(CodecError) as caught:
        codec.decode(data, GameState())
    assert caught.value.args == (42, 1)


def _frames(state: GameState, width: int = 8) -> list[bytes]:
    """The counters page on a board tall enough for every row, over two cycles."""
    canvas = pages.Canvas(width, 16)
    out = []
    for now in range(0, 2 * pal.CYCLE_MS, 20):
        canvas.clear()
        pages.render_page(canvas, COUNTERS, state, -1, False, now)
        out.append(bytes(canvas.frame))
    return out


def _cell(frames: list[bytes], col: int, row: int, width: int = 8) -> list[bytes]:
    at = (row * width + col) * 3
    return [f[at : at + 3] for f in frames]


def _blinks(cells: list[bytes]) -> int:
    """The lit runs over one cycle."""
    lit = [any(c) for c in cells[: len(cells) // 2]]
    return sum(1 for i, on in enumerate(lit) if on and (i == 0 or not lit[i - 1]))


def _lit(colour: int) -> bytes:
    return bytes(pal.RGB[colour * 3 : colour * 3 + 3])


def _pf2_on_its_turn() -> tuple[Table, int]:
    # pf2-combat.txt [19]: Valka frightened 2, sickened 1, clumsy 1 and slowed 1, prone
    t = Table(VAL, ORC)
    t.start(15, 1)
    for line in ("frightened 2", "sickened 1", "clumsy 1", "slowed 1", "prone"):
        t.play("condition Valka " + line)
    return t, t.who("Valka").index


def test_the_counters_page_draws_each_detail_on_the_turns_column() -> None:
    t, valka = _pf2_on_its_turn()
    state = t.game.state
    assert state.order[state.turn] == valka
    frames = _frames(state)
    first = state.rules.counters + 2  # after the counters and the effects row
    # slowed 1, frightened 2, sickened 1, clumsy 1 (VALUED's order), then prone, a mark
    shown = [(device.COLOURS[1], 1), (3, 2), (pal.BLUISH_GREEN, 1), (4, 1), (pal.WHITE, 0)]
    for k, (colour, value) in enumerate(shown):
        cells = _cell(frames, 0, first + k)
        assert set(cells) - {bytes(3)} == {_lit(colour)}, k
        if value:
            assert _blinks(cells) == value, k
        else:
            assert all(c == _lit(colour) for c in cells), k  # a mark: steady
    for row in range(first + len(shown), 15):
        assert all(not any(c) for c in _cell(frames, 0, row))
    for col in range(1, state.count):  # no other column shows them
        for row in range(first, 15):
            assert all(not any(c) for c in _cell(frames, col, row)), (col, row)


def test_a_turn_the_board_passes_itself_clears_the_last_turns_details() -> None:
    # Unplugged, the board runs the turns (shared/turns.py): the details it holds were the
    # creature's whose turn ended, and no host is there to fill the next one's.
    t, valka = _pf2_on_its_turn()
    state = GameState()
    roster.copy_state(state, t.game.state)  # the board's copy, as a snapshot leaves it
    assert any(state.detail)
    turns.end_turn(state)
    assert state.order[state.turn] != valka
    assert not any(state.detail)


def test_no_details_leave_the_counters_page_as_it_was() -> None:
    t, _ = _pf2_on_its_turn()
    state = t.game.state
    with_details = _frames(state)
    state.detail[:] = bytes(10)
    first = state.rules.counters + 2
    plain = _frames(state)
    width = 8 * 3
    for a, b in zip(with_details, plain, strict=True):
        assert a[: first * width] == b[: first * width]
        assert not any(b[first * width : 15 * width])


@pytest.fixture
def board() -> Iterator[TetheredSim]:
    encounter = RULESET.parse_encounter(encounter_text(VAL, ORC), "test.toml")
    with TetheredSim(Session(encounter, 3, None, dice_from="board")) as sim:
        yield sim


def test_pf2_sends_every_valued_condition_of_the_acting_creature_to_the_board(
    board: TetheredSim,
) -> None:
    # pf2-combat.txt [19]: frightened 2, sickened 1, clumsy 1, slowed 1 all on the board
    board.execute("initiative")
    board.settle()
    while board.session.pending is not None:
        board.press("roll")
    game = board.session.game
    actor = game.fighters[game.entry().members[0]]
    for line in ("frightened 2", "sickened 1", "clumsy 1", "slowed 1"):
        board.execute(f"condition {actor.label} {line}")
        board.settle()
    state = board.sim.app.state
    assert state.order[state.turn] == actor.index
    colour = dict(zip(device.VALUED, device.COLOURS, strict=True))
    want = [(colour[n], v) for n, v in (("slowed", 1), ("frightened", 2))]
    want += [(colour[n], v) for n, v in (("sickened", 1), ("clumsy", 1))]
    assert [(b >> 4, b & 15) for b in state.detail if b] == want
    # ... and they follow the turn: the next creature has none
    board.execute("next")
    board.settle()
    state = board.sim.app.state
    assert state.order[state.turn] != actor.index and not any(state.detail)
