"""The big-table issue's "done when", on the simulated board (a real pty, the real
firmware): a d20 and a korxsol game of 24 entries (the bundled `big_table` encounters)
play to the end through the board with every fighter on it, the board's window following
every turn (docs/board.md: the fighter whose turn it is in the first column), and the
board, unplugged, passes the turn through all 24 and gives the host every press when
plugged back in, none lost or doubled (docs/protocol.md, "The whole table")."""

from __future__ import annotations

import pytest
from waiting import wait_for

from host import cli
from host.board.tether import Tether
from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.encounter_files import read_toml, write_toml
from host.core.newcomers import MOST_FIGHTERS
from host.core.session import Session
from shared import codec
from shared.limits import MAX_SLOTS

BIG = [("d20", 4), ("korxsol", 6)]  # each ruleset with a seed its demo plays to the end


def big_session(ruleset_id: str, seed: int) -> Session:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path().parent / "big_table.toml"
    return Session(ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path)), seed)


def window_on_the_turn(table: TetheredSim) -> bool:
    """Whether the board's window starts at the turn (the window key untouched)."""
    with table.sim.lock:
        app = table.sim.app
        app.dirty = True
    table.sim.render_now()
    with table.sim.lock:
        return (
            app.canvas.first == app.state.turn
            and app.canvas.column(app.state.turn, app.state.count) == 0
        )


@pytest.mark.parametrize("ruleset_id, seed", BIG)
def test_a_big_table_demo_plays_to_the_end_every_fighter_on_the_board_the_window_on_each_turn(
    ruleset_id: str, seed: int, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    assert MAX_SLOTS >= MOST_FIGHTERS  # a board slot for each of a fight's entries
    seen: list[tuple[int, int, int, bool]] = []
    grid = TetheredSim.grid

    def watched(self: TetheredSim, color: bool) -> str:
        # The demo draws the board after each turn: the board is checked there.
        self.settle()
        with self.sim.lock:
            state = self.sim.app.state
            count, off, turn = state.count, state.off_board, state.turn
        off += len(self.session.ruleset.off_board(self.session.game))
        seen.append((count, off, turn, window_on_the_turn(self)))
        return grid(self, color)

    monkeypatch.setattr(TetheredSim, "grid", watched)
    argv = ["demo", "--ruleset", ruleset_id, "--encounter", "big_table", "--seed", str(seed)]
    assert cli.main([*argv, "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "\nwinner: " in out and "draw: turn limit" not in out
    assert len(seen) > MOST_FIGHTERS  # more than a round of turns, each checked
    assert all(count == MOST_FIGHTERS and off == 0 for count, off, _, _ in seen), seen
    assert all(on for *_, on in seen), [turn for *_, turn, on in seen if not on]
    assert len({turn for _, _, turn, _ in seen}) > MAX_SLOTS // 2  # the window moved on


@pytest.mark.parametrize("ruleset_id, seed", BIG)
def test_an_unplugged_board_passes_the_turn_through_the_whole_big_table_and_the_host_gets_it(
    ruleset_id: str, seed: int
) -> None:
    session = big_session(ruleset_id, seed)
    ruleset = session.ruleset
    with TetheredSim(session) as table:
        sim = table.sim
        if ruleset.start_command:
            table.execute(ruleset.start_command)
        table.settle()
        state = sim.app.state
        assert state.count == MOST_FIGHTERS and state.off_board == 0
        assert table.tether is not None
        table.tether.stop()  # the cable pulled
        assert wait_for(lambda: not sim.app.session.linked)
        round_before = state.round
        active = []
        for pressed in range(1, MOST_FIGHTERS + 1):
            assert window_on_the_turn(table)
            with sim.lock:
                active.append(state.active)
            sim.press(sim.key_for("next_turn"))
            assert wait_for(lambda: sim.app.session.journal.count == pressed)  # noqa: B023
        assert sorted(active) == list(range(MOST_FIGHTERS))  # every fighter had the turn
        assert state.round == round_before + 1
        host_before = len(session.done)
        table.tether = Tether(session, table.path).start()  # plugged back in
        assert wait_for(lambda: sim.app.session.journal.count == 0)
        table.settle()
        # Each press became the host's turn's end, once: the host's game is where the
        # board's is.
        assert len(session.done) == host_before + MOST_FIGHTERS
        host = ruleset.state(session.game)
        assert host.round == round_before + 1 and host.turn == state.turn
        link = table.tether.link
        with link.lock, sim.lock:  # the board holds what the host sends of its game
            assert codec.encode(sim.app.state) == codec.encode(link.session.state)


def test_the_bundled_d20_big_table_has_a_board_slot_for_every_creature() -> None:
    # docs/rulesets/d20.md: a d20 creature has a board slot of its own, a group's too.
    session = big_session("d20", 1)
    assert len(session.ruleset.fighter_names(session.game)) == MOST_FIGHTERS
    assert not session.ruleset.off_board(session.game)


# The groups of the d20 big table as it first came (36 creatures in its 24 entries).
GROUPS = {
    "Wolf": 3,
    "Goblin Archer": 2,
    "Orc": 2,
    "Kobold": 3,
    "Skeleton": 2,
    "Bandit": 2,
    "Giant Rat": 3,
    "Stirge": 2,
    "Cultist": 2,
}


def test_a_d20_table_of_groups_past_the_boards_slots_plays_to_the_end_through_the_board(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """docs/rulesets/d20.md: a group's creatures have a board slot each, so 24 entries
    with groups hold more creatures than the board's slots: the first 24 have one, the
    rest take their turns on the screens (the demo types their turn's end), and the game
    plays to the end through the board."""
    path = registry.get("d20").example_path().parent / "big_table.toml"
    doc = read_toml(path.read_text(encoding="utf-8"), "big_table")
    for creature in doc["creature"]:
        if creature["name"] in GROUPS:
            creature["count"] = GROUPS[creature["name"]]
    grouped = tmp_path / "grouped.toml"
    grouped.write_text(write_toml(doc), encoding="utf-8")
    seen: list[tuple[int, int]] = []
    grid = TetheredSim.grid

    def watched(self: TetheredSim, color: bool) -> str:
        self.settle()
        with self.sim.lock:
            seen.append((self.sim.app.state.count, self.sim.app.state.off_board))
        return grid(self, color)

    monkeypatch.setattr(TetheredSim, "grid", watched)
    argv = ["demo", "--ruleset", "d20", "--encounter", str(grouped), "--seed", "4"]
    assert cli.main([*argv, "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "\nwinner: " in out and "draw: turn limit" not in out
    assert seen and all(count == MAX_SLOTS for count, _ in seen)
    assert seen[0][1] == sum(GROUPS.values()) - len(GROUPS)  # 12 creatures off the board
