"""A host links and settles whatever game it holds (#26, item 15: seen on an emulated RP2040
with an empty game, the host still resending its descriptor after 15 s): an empty state, a
game's rules with no fighter yet, and a full table each take one handshake and one
descriptor. Runs on CPython and on the MicroPython VM."""

from linkcheck import Table

from shared.reference import build_reference_state
from shared.state import GameState


def _settles(host_state):
    table = Table(host_state=host_state)
    assert table.settle(), "the link did not settle"
    host = table.host
    assert host.linked and table.board.linked
    assert table.board.described and table.board.snapshots == 1
    assert host.handshakes == 1, host.handshakes
    assert host.descriptors_sent == 1, host.descriptors_sent
    assert host.retransmits == 0, host.retransmits
    table.run(15000)  # and stays settled: nothing resent, no new handshake
    assert host.handshakes == 1 and host.descriptors_sent == 1 and host.retransmits == 0
    assert table.board.state.count == host_state.count


def test_an_empty_game_links_and_settles():
    _settles(GameState())


def test_a_game_with_no_fighter_yet_links_and_settles():
    state = GameState()
    state.rules.load(build_reference_state().rules.raw, 0, len(build_reference_state().rules.raw))
    state.ruleset = state.rules.ruleset
    state.phase_count = state.rules.phases
    _settles(state)


def test_a_full_table_links_and_settles():
    _settles(build_reference_state())
