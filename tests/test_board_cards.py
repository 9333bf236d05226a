"""A card as a fighter's order value on the board (issue 41, item 3): a descriptor packed with
`order=ORDER_CARD` makes each slot's order key a card (rank * 4 + suit, a Joker 60), and
the initiative page shows it in two rows under the actions and the phase: the rank as
tally blinks (a long one per five, a short one per unit: an ace two long and four short,
not fourteen blinks) and the suit as its colour with its own dips (clubs bluish green and
steady, diamonds sky blue with one dip, hearts vermillion with two, spades white with
three); a Joker reddish purple, three long blinks over a steady row (docs/board.md). Read back from
the frame as a person reads the keys: the cards of tests/plugin/turnlight_cards/RULES.md
[1] ("the standard deck of 54: four suits of 2 to Ace and two Jokers")."""

from __future__ import annotations

from boardfakes import Rig
from test_board_app import described, frame, hello

from firmware import pages
from firmware import palette as pal
from host.board.firmware_host import settle
from host.board.tethered_sim import TetheredSim
from host.core import draws, registry
from host.core.session import Session
from shared import codec, roster
from shared.descriptor_pack import ORDER_CARD, card_key, pack
from shared.limits import NO_SLOT
from shared.link import messages as m
from shared.state import GameState

CYCLE = pal.CYCLE_MS
STEP = 10  # ms between the frames read: a dip is 100 ms dark, a short blink 120 ms lit
RANKS = {n: w for n, w in zip(range(2, 15), draws.RANKS, strict=True)}
SUIT_OF = {  # the suit row's colour, and the dips it makes in a cycle (docs/board.md)
    (pal.BLUISH_GREEN, 0): "C",
    (pal.SKY_BLUE, 1): "D",
    (pal.VERMILLION, 2): "H",
    (pal.WHITE, 3): "S",
}
DEALT = ("2C", "9D", "QH", "AS", "Joker", "10H")


def hue(pixel: bytes) -> int | None:
    """The palette colour a lit pixel is drawn in (the rank row's full level or the suit
    row's mid one), or None when dark."""
    if not any(pixel):
        return None
    for colour in range(1, len(pal.RGB) // 3):
        for level in (pal.FULL, pal.MID):
            out = bytearray(3)
            pal.put(out, 0, colour, level)
            if bytes(out) == pixel:
                return colour
    raise AssertionError(f"{bytes(pixel).hex()} is no palette colour at a card's levels")


def runs(lit: list[bool]) -> list[tuple[bool, int]]:
    """The lit and dark runs of a cycle's samples: (lit, length in ms)."""
    out: list[tuple[bool, int]] = []
    for on in lit:
        if out and out[-1][0] == on:
            out[-1] = (on, out[-1][1] + STEP)
        else:
            out.append((on, STEP))
    return out


def read_card(rank_row: list[bytes], suit_row: list[bytes]) -> str | None:
    """The card two rows show over one cycle (each a pixel every STEP ms from the cycle's
    start), as the deck writes it (`KS`, `10H`, `Joker`); None when both are dark."""
    colours = {hue(p) for p in rank_row + suit_row} - {None}
    if not colours:
        return None
    assert len(colours) == 1, colours  # both rows in the suit's colour
    (colour,) = colours
    blinks = [length for on, length in runs([any(p) for p in rank_row]) if on]
    long = sum(1 for length in blinks if length >= 250)
    rank = 5 * long + len(blinks) - long
    if colour == pal.team_colour(2):  # reddish purple
        assert rank == 15 and all(any(p) for p in suit_row)  # three long, over a steady row
        return draws.JOKER
    dips = sum(1 for on, _ in runs([any(p) for p in suit_row]) if not on)
    return RANKS[rank] + SUIT_OF[(colour, dips)]


def card_state(cards: tuple[str | None, ...]) -> GameState:
    """A table under a card-order descriptor, slot i holding cards[i] (None: no card)."""
    state = GameState()
    data = pack("t", 3, order=ORDER_CARD)
    state.rules.load(data, 0, len(data))
    state.ruleset = 3
    for i, card in enumerate(cards):
        roster.add_slot(state, f"F{i}", 0, draws.order_key(card), 1, 5)
    return state


def read_columns(state: GameState, width: int, height: int, count: int) -> list[str | None]:
    """The cards of the first `count` positions on the initiative page of a column layout."""
    canvas = pages.Canvas(width, height)
    rows: list[tuple[list[bytes], list[bytes]]] = [([], []) for _ in range(count)]
    start = 2 * CYCLE  # the rank and suit rows' turn in the bar rows (on the NeoTrellis)
    for t in range(0, CYCLE, STEP):
        canvas.clear()
        pages.render_per_position(canvas, pages.INITIATIVE, state, NO_SLOT, start + t)
        for col in range(count):
            for k in (0, 1):
                cell = canvas.cell(col, 3 + k)
                assert cell >= 0, (col, k)
                rows[col][k].append(bytes(canvas.frame[cell * 3 : cell * 3 + 3]))
    return [read_card(rank, suit) for rank, suit in rows]


def test_each_suit_and_a_joker_are_read_back_from_the_trellis_initiative_page() -> None:
    cards = (*DEALT, None)
    assert read_columns(card_state(cards), 8, 4, len(cards)) == list(cards)


def test_the_pico_shows_a_card_beside_the_actions_and_the_phase() -> None:
    # 6 bar rows: all four of the page's rows at once, no turns taken.
    assert read_columns(card_state(DEALT), 8, 8, len(DEALT)) == list(DEALT)


def test_the_macropad_shows_a_card_in_each_cell_as_its_rows_take_turns() -> None:
    state = card_state(DEALT)
    canvas = pages.Canvas(3, 4)
    read = []
    for pos in range(len(DEALT)):
        shown: list[list[bytes]] = [[], []]
        for k in (0, 1):  # row 3 then row 4, each a whole cycle (rows + identity turns)
            for t in range(0, CYCLE, STEP):
                canvas.clear()
                pages.render_per_position(
                    canvas, pages.INITIATIVE, state, NO_SLOT, (3 + k) * CYCLE + t
                )
                assert canvas.row == 3 + k
                shown[k].append(bytes(canvas.frame[pos * 3 : pos * 3 + 3]))
        read.append(read_card(shown[0], shown[1]))
    assert read == list(DEALT)


def test_an_ace_takes_six_blinks_not_fourteen() -> None:
    blinks = [on for on, _ in runs([pal.tally_lit(14, t, 5) for t in range(0, CYCLE, STEP)])]
    assert blinks.count(True) == 6


def test_a_number_order_value_draws_the_page_as_before() -> None:
    # The same order keys under a descriptor without ORDER_CARD: two rows, no card.
    state = card_state(DEALT)
    data = pack("t", 3)
    state.rules.load(data, 0, len(data))
    assert pages.page_rows(pages.INITIATIVE, state.rules) == 2
    canvas = pages.Canvas(8, 8)
    for now in range(0, 2 * CYCLE, 50):
        canvas.clear()
        pages.render_per_position(canvas, pages.INITIATIVE, state, NO_SLOT, now)
        assert not any(canvas.frame[3 * 8 * 3 : 5 * 8 * 3]), now  # rows 3 and 4 stay dark


def test_a_card_reaches_the_boards_page_through_the_link() -> None:
    # The descriptor and a snapshot over the framed link into a board (its 6-bit order keys).
    state = card_state(DEALT)
    rig = Rig("trellis_m4")
    rig.stream.put(hello())
    rig.run(10)
    described(rig, pack("t", 3, order=ORDER_CARD))
    rig.stream.put(frame(m.SNAPSHOT, 1, codec.encode(state)))
    rig.run(20)
    board = rig.app.state
    assert [board.slots[i].order_key for i in range(board.count)] == [
        card_key(2, 0),
        card_key(9, 1),
        card_key(12, 2),
        card_key(14, 3),
        60,
        card_key(10, 2),
    ]
    settle(rig.app, rig.now)
    assert read_columns(board, 8, 4, len(DEALT)) == list(DEALT)


def test_the_simulated_boards_order_page_shows_the_dealt_cards_of_a_cards_game() -> None:
    # RULES.md [2]-[4]: each fighter in the fight is dealt a card, the guns share one, and
    # the turns go from the highest card down, ties by suit.
    cards = registry.get("cards")
    path = cards.example_path()
    encounter = cards.parse_encounter(path.read_text(encoding="utf-8"), str(path))
    s = Session(encounter, 1, None, dice_from="entered")
    with TetheredSim(s) as table:
        table.execute("deal")
        for card in ("10H", "Joker", "2C", "10S"):  # Ruth, Doc, Cole, the guns
            table.execute(f"draw {card}")
        table.settle()
        with table.sim.lock:
            board = table.sim.app.state
            page = table.sim.page_name
            order = [board.slots[board.order[pos]].label for pos in range(board.count)]
            shown = read_columns(board, 8, 4, board.count)
    game = s.game
    assert page == "initiative"
    labels = {f.spec.label: f.card for f in game.fighters}
    assert shown == [labels[label] for label in order]
    assert shown[:5] == ["Joker", "10S", "10S", "10H", "2C"]
