"""Plain dice on the link (issue #30 §1; docs/protocol.md, EVENT code 12): a roll of any die
is one record of its faces and then its dice (die 0's faces, then where each later kind of
die starts), at most 24 bytes; the board's journal keeps it exactly, and a record it could
not keep is malformed on both ends."""

from __future__ import annotations

import pytest

from shared import events as ev
from shared.host_only import make_event
from shared.link.board import Journal
from shared.link.messages import event_record_problem


def journalled(record: bytes) -> bytes:
    """The record as the board's journal gives it back."""
    journal = Journal(4)
    journal.push(0, record)
    out = bytearray(ev.EVENT_MAX)
    return bytes(out[: journal.read(0, out, 0)])


def test_a_d20_with_advantage_is_its_faces_then_its_die() -> None:
    record = make_event(ev.ROLL_DICE, 0, 2, (17, 4), sides=(20, 20))
    assert record == bytes((ev.ROLL_DICE, 0, 2, 3, 17, 4, 20))
    assert event_record_problem(record, 0, len(record)) == 0


def test_two_kinds_of_die_name_where_the_second_kind_starts() -> None:
    record = make_event(ev.ROLL_DICE, 1, 3, (6, 1, 7), sides=(6, 6, 8))
    assert record[4:] == bytes((6, 1, 7, 6, 2, 8))
    out = bytearray(15)
    assert ev.dice_sides(record, 0, out) == 0 and list(out[:3]) == [6, 6, 8]


@pytest.mark.parametrize(
    ("faces", "sides"),
    [
        ((17, 4), (20, 20)),  # a short body, kept as it is
        ((6, 1, 7), (6, 6, 8)),
        ((1, 2, 3, 4, 5, 6, 1, 2, 3, 4), (6,) * 10),  # 11 bytes of numbers up to 15: packed
        ((100, 1, 55), (100, 100, 100)),
    ],
)
def test_the_board_journal_gives_back_every_record_it_keeps(faces, sides) -> None:
    record = make_event(ev.ROLL_DICE, 0, len(faces), faces, sides=sides)
    assert event_record_problem(record, 0, len(record)) == 0
    assert journalled(record) == record


def test_a_roll_the_journal_cannot_keep_is_malformed_on_the_link() -> None:
    # Eight d20 with a face over 15: 9 bytes of body, not all of them nibbles.
    record = make_event(ev.ROLL_DICE, 0, 8, (16, 1, 1, 1, 1, 1, 1, 1), sides=20)
    assert event_record_problem(record, 0, len(record)) == 13


def test_a_face_past_its_own_die_is_malformed() -> None:
    record = make_event(ev.ROLL_DICE, 0, 3, (6, 7, 8), sides=(6, 6, 8))
    assert event_record_problem(record, 0, len(record)) == 11


def test_more_kinds_of_die_than_a_roll_has_are_refused() -> None:
    with pytest.raises(ev.EventError):
        make_event(ev.ROLL_DICE, 0, 4, (1, 1, 1, 1), sides=(4, 6, 8, 10))
    forged = bytes((ev.ROLL_DICE, 0, 4, 11, 1, 1, 1, 1, 4, 1, 6, 2, 8, 3, 10))
    assert event_record_problem(forged, 0, len(forged)) == 12


def test_the_events_private_copy_of_the_kinds_agrees_with_the_limits() -> None:
    from shared import limits

    assert ev._KIND_BYTES == 2 * limits.MAX_KINDS - 1
    assert ev.EVENT_MAX == ev.EVENT_HEADER + limits.MAX_DICE + ev._KIND_BYTES
