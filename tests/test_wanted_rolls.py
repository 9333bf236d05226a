"""The board's dice drive the roll that is wanted (issue 15): with the dice from the board
(`play --dice board`, the default with a board), a declared action waits, the host sends
the roll it wants in every snapshot, the board's roll key lights with it and one press rolls
exactly that, and the action resolves with those dice, journalled as any action. Driven
through the real session and tether, with the real firmware on a simulated board over a pty
(host/board/tethered_sim.py), and a real SQLite journal.

The rules behind the rolls: korxsol-players-guide.txt:8 (one action die resolves every
roll), :132 (the user's HIT_Roll of X action dice), :133 (the target's AGILITY_Roll).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from waiting import WAIT, wait_for

from firmware import palette as pal
from firmware.pages import DICE
from host.board.firmware_host import settle
from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.interface import IllegalAction, WantedRoll
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.korxsol import encounter_schema
from host.screens.play_ui import PlayUI


@contextmanager
def table(tmp_path: Path, dice_from: str = "board") -> Iterator[TetheredSim]:
    """Korxsol's bundled encounter, its turn order rolled by the engine, then the dice from
    `dice_from`, tethered to a simulated NeoTrellis."""
    journal = Journal(str(tmp_path / "journal.sqlite"))
    session = Session(encounter_schema.load(encounter_schema.example_path()), 5, journal)
    session.execute("initiative")
    session.dice_from = dice_from
    with TetheredSim(session) as sim_table:
        yield sim_table


def run(t: TetheredSim, line: str) -> list[str]:
    """A command typed on the laptop, once the board shows what it did."""
    lines = t.execute(line)
    t.settle()
    return lines


def first_attack(session: Session) -> str:
    line = session.ruleset.plan_turn(session.game)[0]
    assert line.startswith("attack "), line
    return line


def wanted(session: Session) -> WantedRoll:
    assert session.pending is not None and session.pending.wanted is not None
    return session.pending.wanted


def events(session: Session) -> list[tuple[str, dict]]:
    assert session.journal is not None and session.game_id is not None
    return [(kind, payload) for _, kind, payload, _ in session.journal.events(session.game_id)]


def resolve_on_the_board(t: TetheredSim, limit: int = 12) -> list[WantedRoll]:
    """Press the roll key until the waiting action resolves; the rolls it wanted."""
    asked = []
    while t.session.pending is not None:
        assert len(asked) < limit, "the action kept asking for rolls"
        asked.append(wanted(t.session))
        t.press("roll")
    return asked


def test_a_declared_action_waits_for_its_roll_when_the_dice_come_from_the_board(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        active = session.game.active
        lines = run(t, attack)
        want = wanted(session)
        assert (want.purpose, want.who, want.who_name) == ("hit", active.index, active.spec.name)
        assert want.kind == session.game.roller.kind and want.count > 0
        assert lines == [f"{attack}: waits for {active.spec.name}'s hit roll ({want.count} D3)"]
        assert [e.text for e in session.done] == ["initiative"]  # nothing rolled, nothing done
        assert events(session)[-1] == ("want", {"text": attack, "by": "laptop"})


def test_a_waiting_action_is_said_without_its_comment_and_journalled_with_it(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        lines = run(t, attack + "  # from the flank")
        assert lines[0].startswith(f"{attack}: waits for ")
        with pytest.raises(IllegalAction, match=f"^`{attack}` waits for "):
            run(t, attack)  # another action while one waits
        journalled = ("want", {"text": attack + "  # from the flank", "by": "laptop"})
        assert events(session)[-1] == journalled


def test_the_host_sends_the_wanted_roll_and_an_untethered_board_still_knows_it(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        run(t, first_attack(t.session))
        want = wanted(t.session)
        board = t.sim.app
        with t.sim.lock:
            got = (board.state.want.kind, board.state.want.count, board.state.want.who)
            purpose = board.state.want.purpose
        assert got == (want.kind, want.count, want.who) and purpose == want.code == 1
        t.tether.stop()  # the laptop goes away
        assert wait_for(lambda: not board.session.linked)
        with t.sim.lock:
            assert (board.state.want.kind, board.state.want.count) == (want.kind, want.count)
            board.do_control(2, 1, 0)  # the roll key (control 2), pressed, untethered
            assert board.state.roll.count == want.count  # exactly the roll wanted
            assert board.state.want.count == 0  # made: the key goes dark


def test_the_board_lights_its_roll_key_with_the_count_of_dice_wanted(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        cell = t.sim.key_for("roll")
        success = pal.RGB[pal.SUCCESS * 3 : pal.SUCCESS * 3 + 3]

        def roll_key_lit(frame: list[tuple[int, int, int]]) -> bool:
            r, g, b = frame[t.sim.app.led_of_cell[cell]]
            return g > 0 and abs(r * success[1] - g * success[0]) <= success[1] * 2

        assert not roll_key_lit(t.sim.pixels())  # nothing wanted: the page as it is
        run(t, first_attack(t.session))
        count = wanted(t.session).count
        assert t.sim.wait_for_frame(roll_key_lit, WAIT)
        # The count as blinks: that many bright blinks in one cycle, a dim glow between.
        app = t.sim.app
        with t.sim.lock:
            start = (app.next_frame_at // pal.CYCLE_MS + 2) * pal.CYCLE_MS  # a cycle's start
            settle(app, start)  # no tumble or overlay in the way
            levels = []
            for now in range(start, start + pal.CYCLE_MS, 20):
                app.render(now)
                levels.append(max(app.canvas.frame[cell * 3 : cell * 3 + 3]))
        bright = max(levels)
        blinks = sum(1 for a, b in zip(levels, levels[1:], strict=False) if b == bright > a)
        assert blinks + (levels[0] == bright) == count
        assert min(levels) > 0  # never dark while the roll is wanted


def test_one_press_rolls_exactly_the_wanted_dice_and_the_action_resolves_with_them(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        run(t, attack)
        first = wanted(session)
        t.press("roll")
        with t.sim.lock:
            assert t.sim.app.page == DICE  # the dice show on the board
            shown = tuple(t.sim.app.state.roll.faces[: t.sim.app.state.roll.count])
        assert len(shown) == first.count
        asked = [first] + resolve_on_the_board(t)
        done = session.done[-1]
        assert done.text == attack and done.by == "laptop"
        rolls = [r for r in done.rolls]
        assert [(r.purpose, len(r.faces), r.source) for r in rolls] == [
            (w.purpose, w.count, "board") for w in asked
        ]
        assert rolls[0].faces == shown
        kind, payload = events(session)[-1]
        assert kind == "action" and payload["text"] == attack
        assert [r["source"] for r in payload["rolls"]] == ["board"] * len(asked)
        with t.sim.lock:
            assert t.sim.app.state.want.count == 0  # nothing wanted any more


def test_play_says_which_roll_it_waits_for_from_whom_and_how_to_roll_it_instead(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        out = StringIO()
        ui = PlayUI(t.session, Console(file=out, width=80, height=40), tether=t.tether)
        attack = first_attack(t.session)
        ui.handle(attack)
        want = wanted(t.session)
        faces = " ".join(["N"] * want.count)
        text = " ".join(out.getvalue().split())
        assert (
            f"waiting for {want.who_name}'s hit roll ({want.count} D3) from the board: `{attack}`"
            in text
        )
        assert (
            f"press the board's roll key; `roll` (the engine rolls); `dice {faces}` (entered"
            " dice); `cancel`" in text
        )


def test_the_engine_rolls_the_wanted_roll_instead_with_roll(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        run(t, attack)
        while session.pending is not None:
            lines = run(t, "roll")
            assert lines[0].startswith("engine ")
        rolls = session.done[-1].rolls
        assert session.done[-1].text == attack
        assert {(r.source, r.queue) for r in rolls} == {("engine", "wanted")}


def test_entered_dice_give_the_wanted_roll_with_the_dice_verb(tmp_path: Path) -> None:
    with table(tmp_path, "entered") as t:
        session = t.session
        attack = first_attack(session)
        run(t, attack)
        want = wanted(session)
        with pytest.raises(IllegalAction, match=f"takes {want.count} dice, not 1"):
            run(t, "dice 3")
        run(t, "dice " + " ".join(["3"] * want.count))
        while session.pending is not None:
            run(t, "dice " + " ".join(["1"] * wanted(session).count))
        first = session.done[-1].rolls[0]
        assert (first.purpose, first.faces, first.source) == ("hit", (3,) * want.count, "entered")


def test_a_board_roll_that_fits_nothing_wanted_is_shown_as_unused_and_never_a_later_roll(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        session = t.session
        lines = t.press("roll")  # nothing waits
        assert len(lines) == 1 and lines[0].startswith("board: roll ")
        assert lines[0].endswith(
            "fits no wanted roll (no action waits for a roll): shown, not used"
        )
        with t.sim.lock:
            assert t.sim.app.state.roll.unused == 1  # the board shows it as unused
        assert events(session)[-1][0] == "roll-shown"
        run(t, first_attack(session))
        assert session.pending is not None and session.pending.supplied == []  # not its roll


def test_a_board_roll_that_fits_nothing_never_blocks_a_typed_command(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        session = t.session
        out = StringIO()
        ui = PlayUI(session, Console(file=out, width=80, height=40), tether=t.tether)
        ui.handle(first_attack(session))
        want = wanted(session)
        t.sim.press(t.sim.key_for("chance"))  # a chance flip, while D3 action dice are wanted
        assert wait_for(lambda: bool(t.tether.lines))
        said = ui.echo_board()
        assert len(said) == 1 and "fits no wanted roll" in said[0]
        assert f"{want.who_name}'s hit roll ({want.count} D3) is wanted" in said[0]
        assert session.pending is not None and session.pending.supplied == []
        ui.handle("cancel")  # the typed command goes through at once
        assert session.pending is None
        ui.handle("end")
        assert session.done[-1].text == "end"


def test_a_typed_action_while_another_waits_is_refused_saying_how_to_roll(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        attack = first_attack(t.session)
        run(t, attack)
        with pytest.raises(IllegalAction, match="waits for .* press the board's roll key; `roll`"):
            run(t, "end")
        assert t.session.pending is not None and t.session.pending.text == attack


def test_undo_or_cancel_drops_the_waiting_action_and_redo_waits(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        run(t, attack)
        with pytest.raises(IllegalAction, match="waits for"):
            run(t, "redo")
        assert run(t, "undo")[0].startswith(f"dropped: {attack}")
        assert session.pending is None and [e.text for e in session.done] == ["initiative"]
        run(t, attack)
        assert run(t, "cancel")[0].startswith(f"dropped: {attack}")
        assert [k for k, _ in events(session)][-4:] == ["want", "want-drop", "want", "want-drop"]
        with t.sim.lock:
            assert t.sim.app.state.want.count == 0


def test_a_waiting_action_and_the_rolls_it_was_given_survive_a_resume(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        session = t.session
        attack = first_attack(session)
        run(t, attack)
        t.press("roll")  # the hit roll, from the board
        assert session.pending is not None, "the attack waits for a second roll"
        given = list(session.pending.supplied)
        still = wanted(session)
    again = resume(Journal(str(tmp_path / "journal.sqlite")))
    assert again.pending is not None
    assert (again.pending.text, again.pending.supplied) == (attack, given)
    assert again.pending.wanted == still
    again.dice_from = "board"
    with TetheredSim(again) as t:  # the board, linked again, is lit with the same roll
        with t.sim.lock:
            assert (t.sim.app.state.want.count, t.sim.app.state.want.who) == (
                still.count,
                still.who,
            )
    while again.pending is not None:
        again.execute("roll")
    first = again.done[-1].rolls[0]
    assert (first.faces, first.source) == (given[0][1], "board")


def test_an_action_resolved_with_board_dice_replays_exactly_after_undo_and_redo(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as t:
        session = t.session
        run(t, first_attack(session))
        resolve_on_the_board(t)
        before = session.ruleset.snapshot(session.game)
        rolls = session.done[-1].rolls
        run(t, "undo")
        run(t, "redo")
        assert session.ruleset.snapshot(session.game) == before
        assert session.done[-1].rolls == rolls
    again = resume(Journal(str(tmp_path / "journal.sqlite")))
    assert again.ruleset.snapshot(again.game) == before and again.pending is None


@pytest.mark.parametrize("rid", [r for r in registry.ids() if not registry.get(r).asks_for_rolls])
def test_rulesets_that_do_not_ask_for_rolls_play_as_before_whatever_the_dice_setting(
    rid: str,
) -> None:
    ruleset = registry.get(rid)
    assert not ruleset.asks_for_rolls  # the interface's default: opt-in
    enc = ruleset.parse_encounter(ruleset.example_path().read_text(), "example.toml")
    plain = Session(enc, 3)
    board = Session(enc, 3, dice_from="board")
    lines = [ruleset.start_command] if ruleset.start_command else []
    lines += ruleset.plan_turn(plain.game)
    for line in lines:
        assert board.execute(line) == plain.execute(line)
        assert board.pending is None
    assert ruleset.snapshot(board.game) == ruleset.snapshot(plain.game)


def test_play_takes_the_engine_s_dice_by_default_even_with_a_board_and_the_board_s_on_asking(
    tmp_path: Path,
) -> None:
    """Issue #28 (1): the README's commands, typed after `play --sim`, play on at once; the
    board's dice are one `--dice board` (or `dice from board`) away, and the view says so."""
    env = {**os.environ, "TERM": "dumb", "XDG_DATA_HOME": str(tmp_path)}

    def play(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "host.cli", "play", "--seed", "5", *args],
            input="initiative\nquit\n",
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        return " ".join(done.stdout.split())

    assert "round 1" in play("--no-board") and "waiting for" not in play("--no-board")
    with_board = play("--sim", "--no-screen")
    assert "round 1" in with_board and "waiting for" not in with_board
    assert "engine dice (`dice from board`: roll on the board)" in with_board
    board_dice = play("--sim", "--no-screen", "--dice", "board")
    assert "waiting for Kaelen's initiative roll (3 D3) from the board: `initiative`" in board_dice
    entered = play("--no-board", "--dice", "entered")
    assert "waiting for Kaelen's initiative roll (3 D3) from the table" in entered


def test_the_board_s_undo_drops_an_action_it_declared_but_not_one_typed(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        session = t.session
        run(t, first_attack(session))  # typed: the board's undo (own) may not drop it
        with pytest.raises(IllegalAction, match="was typed: `cancel` it on the laptop"):
            t.press("undo")
        assert session.pending is not None
    journal = Journal(str(tmp_path / "board.sqlite"))
    fresh = Session(
        encounter_schema.load(encounter_schema.example_path()), 5, journal, dice_from="board"
    )
    with TetheredSim(fresh) as t:
        t.press("next_turn")  # initiative, declared from the board: it waits for its rolls
        assert fresh.pending is not None and fresh.pending.by == "board"
        assert t.press("undo")[0].startswith("board: dropped: initiative")
        assert fresh.pending is None and fresh.done == []


def test_play_s_dice_line_shows_the_rolls_of_an_action_resolved_by_roll(tmp_path: Path) -> None:
    with table(tmp_path, "entered") as t:
        out = StringIO()
        ui = PlayUI(t.session, Console(file=out, width=80, height=40), tether=t.tether)
        ui.handle(first_attack(t.session))
        assert ui.dice_log[ui.dice_mark :] == []  # nothing rolled yet
        while t.session.pending is not None:
            ui.handle("roll")
        shown = ui.dice_log[ui.dice_mark :]
        assert shown and shown[0].startswith("hit ")  # the attack's rolls, from its record


def test_dice_from_switches_where_the_next_actions_dice_come_from(tmp_path: Path) -> None:
    with table(tmp_path, "engine") as t:
        session = t.session
        attack = first_attack(session)
        assert run(t, "dice from board") == [
            "dice from board: the next actions' rolls come from the board's roll key"
        ]
        run(t, attack)
        assert session.pending is not None  # it waits for the board now
        run(t, "cancel")
        run(t, "dice from engine")
        run(t, attack)
        assert session.pending is None and session.done[-1].text == attack
        with pytest.raises(IllegalAction, match="dice come from board, engine, entered"):
            run(t, "dice from table")
