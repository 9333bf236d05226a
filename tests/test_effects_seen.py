"""Effects are seen everywhere (issue #29, item 5): on each fighter's data (the web view
reads `Ruleset.fighters`), under the terminal view, in the exports, on the board as a count
and a blink, never on the players' page for a hidden fighter; and `effect` completes."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from effects_fixtures import current, next_turn, session_of, shown_on
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from rich.console import Console

from host import cli
from host.core import audience, effects
from host.core.audience import Secrets
from host.screens.play_ui import CommandCompleter, PlayUI
from shared.state import GameState


def test_every_fighter_carries_its_effects_in_a_few_words() -> None:
    """interface.Fighter.effects: "Bless 2 rounds", "Hex (save)" (korxsol's own fighters()
    builds on the default)."""
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless rounds=2")
    s.execute("effect Kaelen Hex save=end")
    s.execute("effect Orrin Marked until=start of=Vexa")
    assert shown_on(s, "Kaelen") == ["Bless 2 rounds", "Hex (save)"]
    assert shown_on(s, "Orrin") == ["Marked (to Vexa's turn start)"]
    assert shown_on(s, "Vexa") == []


def test_a_hidden_fighters_effects_never_reach_the_players() -> None:
    """Hidden information (host/core/audience.py): a line about an effect on a hidden
    fighter, or one naming it as whose turn counts, is the game master's alone."""
    s = session_of("korxsol")
    secrets = Secrets(hidden={"Brimm"})
    s.set_secrets(secrets)
    said = s.execute("effect Brimm Hex save=end")
    said += s.execute("effect Kaelen Marked until=start of=Brimm")
    said += s.execute("effect Vexa Bless rounds=1")
    cast = audience.cast_of(s.ruleset, s.game)
    shown = audience.for_players(said, cast, secrets, list(s.game.teams))
    assert shown == [line for line in said if line.startswith("Bless on Vexa")]
    while effects.in_play(s.game) and "Brimm" not in current(s):
        said = next_turn(s)
        assert all("Brimm" not in line for line in audience.for_players(said, cast, secrets, []))


def test_the_terminal_view_shows_the_effects_on_the_fighters_rows() -> None:
    """The live view (host/screens/play_ui.py, the full screen's too) notes each fighter's
    effects under its row."""
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless rounds=2 stacks=3")
    s.execute("effect Kaelen Hex save=end")
    out = StringIO()
    PlayUI(s, Console(file=out, width=80, color_system=None)).show()
    lines = out.getvalue().splitlines()
    at = next(n for n, line in enumerate(lines) if "effects: " in line)
    assert lines[at].strip() == "effects: Bless x3 2 rounds, Hex (save)"
    assert "Kaelen" in lines[at - 1]  # under Kaelen's row


def test_the_live_table_notes_each_fighters_effects_on_its_row() -> None:
    s = session_of("stones")
    s.execute("effect Mira Hex save=end")
    table = effects.with_effects(s.ruleset.live_roster(s.game), s.ruleset, s.game)
    noted = [row.note for row in table.rows if "Hex (save)" in row.note]
    assert len(noted) == 1 and "Mira" in " ".join(
        next(r.cells for r in table.rows if "Hex (save)" in r.note)
    )


def test_a_row_whose_note_says_nothing_shows_its_effects_alone() -> None:
    """advance notes a fighter with nothing to say with a lone dash: its effects are not
    shown after it ("-; effects: Bless"), on the terminal and the console's table alike."""
    s = session_of("advance")
    fighter = s.ruleset.fighter_names(s.game)[0]
    bare = effects.with_effects(s.ruleset.live_roster(s.game), s.ruleset, s.game)
    assert "-" in [row.note.strip() for row in bare.rows]  # (what advance says of nobody)
    s.execute(f'effect "{fighter}" Bless rounds=1')
    table = effects.with_effects(s.ruleset.live_roster(s.game), s.ruleset, s.game)
    assert [row.note for row in table.rows if "Bless" in row.note] == ["effects: Bless 1 round"]


def test_export_writes_every_effect_as_json_and_csv(tmp_path: Path, capsys) -> None:
    db = tmp_path / "e.sqlite"
    script = tmp_path / "s.txt"
    script.write_text(
        'initiative\neffect Kaelen Bless rounds=1 note="the cleric"\nend\nend\n'
        "end\nend\nend\neffect Orrin Rage\n"
    )
    assert cli.main(["run", "--script", str(script), "--db", str(db), "--seed", "3"]) == 0
    capsys.readouterr()
    assert cli.main(["export", "--db", str(db)]) == 0
    rows = json.loads(capsys.readouterr().out)["effects"]
    assert [(r["target"], r["name"], r["put_on"], r["ended_at"]) for r in rows] == [
        ("Kaelen", "Bless", 2, 6),
        ("Orrin", "Rage", 8, None),
    ]
    assert rows[0]["note"] == "the cleric" and rows[0]["why"] == "1 round is up"
    assert cli.main(["export", "--db", str(db), "--format", "effects-csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split(",") == list(effects.EXPORT_FIELDS)
    assert lines[1].startswith("Kaelen,Bless,rounds,1,,,the cleric,2,6,1 round is up")
    assert lines[2].startswith("Orrin,Rage,until taken off,")


def test_the_board_is_sent_a_count_a_fighter_and_whether_one_ends_this_turn() -> None:
    s = session_of("korxsol")
    names = s.ruleset.fighter_names(s.game)
    active = current(s)[0]
    other = next(n for n in names if n != active)
    s.execute(f"effect {active} Dodge until=end")  # said in its own turn: lasts another
    s.execute(f"effect {active} Shield until=end of={other}")
    s.execute(f"effect {other} Hex save=end")
    state = GameState()
    state.count = len(names)
    effects.set_board_counts(s.ruleset, s.game, state)
    by_name = {n: state.slots[i] for i, n in enumerate(names)}
    assert (by_name[active].effects, by_name[other].effects) == (2, 1)
    assert not by_name[active].effect_ends and not by_name[other].effect_ends
    while other not in current(s):
        next_turn(s)
    effects.set_board_counts(s.ruleset, s.game, state)
    assert by_name[active].effect_ends  # Shield ends as the other's running turn ends
    effects.set_board_counts(s.ruleset, s.game, state, hidden={active})
    assert by_name[active].effects == 0 and not by_name[active].effect_ends


@pytest.mark.parametrize(
    ("typed", "offered", "not_offered"),
    [
        ("effect K", "Kaelen", "Bless"),
        ("effect Kaelen ", "Bless", "rounds="),
        ("effect Kaelen Hex ", "until=end", "Kaelen"),
        ("effect Kaelen Hex rounds=2 ", "stacks=", "rounds="),
        ("effect Kaelen Hex until=end of=V", "of=Vexa", "of=Kaelen"),
        ("effect end Kaelen ", "Bless", "Hex"),
        ("effect save Kaelen Bless ", "yes", "Bless"),
    ],
)
def test_effect_completes_fighters_effects_and_options(typed, offered, not_offered) -> None:
    s = session_of("korxsol")
    s.execute("effect Kaelen Bless save=end")
    s.execute("effect Vexa Hex")
    comp = CommandCompleter(PlayUI(s, Console()))
    found = [c.text for c in comp.get_completions(Document(typed), CompleteEvent())]
    assert offered in found and not_offered not in found


def test_the_simulated_board_receives_each_fighters_count_of_effects() -> None:
    """End to end: the tether's state, over the link and the codec, into the real firmware
    code's state (host/board/tethered_sim.py); the hidden fighter's count stays dark."""
    from host.board.tethered_sim import TetheredSim

    s = session_of("korxsol")
    names = s.ruleset.fighter_names(s.game)
    s.execute(f"effect {names[0]} Bless rounds=2")
    s.execute(f"effect {names[0]} Hex save=end")
    s.execute(f"effect {names[1]} Rage")
    s.set_secrets(Secrets(hidden={names[1]}))
    with TetheredSim(s).start(10) as table:
        table.execute(f"effect {names[2]} Dodge until=end")
        table.settle()
        with table.sim.lock:
            counts = [table.sim.app.state.slots[i].effects for i in range(3)]
    assert counts == [2, 0, 1]


@pytest.mark.parametrize("rid", ["korxsol", "advance", "d20"])
def test_an_effect_takes_a_fighter_by_the_board_label_the_screens_show(rid: str) -> None:
    """Issue #28 item 3: what the screens show is what a game master may type. The board's
    labels (korxsol's `Vex`, d20's `LIR`) name a fighter in `effect`, its target and of=."""
    s = session_of(rid)
    fighters = s.ruleset.fighters(s.game)
    labelled = [f for f in fighters if f.label and f.label.lower() != f.name.lower()]
    first, last = labelled[0], labelled[-1]
    lines = s.execute(f"effect {first.label} Bless until=end of={last.label}")
    assert lines == [f"Bless on {first.name}: until the end of {last.name}'s next turn"]
    book = effects.book_of(s.ruleset, s.game)
    assert [(e.target, e.of) for e in book.effects] == [(first.name, last.name)]


@pytest.mark.parametrize("rid", ["korxsol", "stones", "forms"])
def test_the_board_blinks_a_rounds_effect_in_the_turn_it_ends_after(rid: str) -> None:
    """Issue #29 item 5: a blink on the key of a fighter whose effect ends this turn. A
    `rounds=N` effect ends as the turn at its point in the order begins, so its key blinks
    through the turn just before, and not sooner."""
    s = session_of(rid)
    names = s.ruleset.fighter_names(s.game)
    target = current(s)[0]
    s.execute(f"effect {target} Bless rounds=2")
    state = GameState()
    state.count = len(names)
    seen = []
    for _ in range(40):
        effects.set_board_counts(s.ruleset, s.game, state)
        blinked = state.slots[names.index(target)].effect_ends
        next_turn(s)
        book = effects.book_of(s.ruleset, s.game)  # (a refused plan rebuilds the game)
        ended = not any(e.name == "Bless" for e in book.effects)
        seen.append((blinked, ended))
        if ended:
            break
    assert seen[-1] == (True, True)
    assert all(not blinked for blinked, _ in seen[:-1]) and len(seen) > 1


@pytest.mark.parametrize("rid", ["korxsol", "stones"])
def test_the_board_blinks_a_rounds_of_effect_in_the_turn_before_its_makers(rid: str) -> None:
    """Issue #29 item 5 with `rounds=N of=MAKER` (pf2-combat.txt [23]): it ends as its
    maker's Nth next turn begins, so its key blinks through the turn just before that one,
    and not sooner."""
    s = session_of(rid)
    names = s.ruleset.fighter_names(s.game)
    target = current(s)[0]
    maker = next(n for n in names if n not in current(s))
    s.execute(f'effect "{target}" Ward rounds=2 of="{maker}"')
    state = GameState()
    state.count = len(names)
    seen = []
    for _ in range(40):
        effects.set_board_counts(s.ruleset, s.game, state)
        blinked = state.slots[names.index(target)].effect_ends
        next_turn(s)
        book = effects.book_of(s.ruleset, s.game)  # (a refused plan rebuilds the game)
        ended = not any(e.name == "Ward" for e in book.effects)
        seen.append((blinked, ended))
        if ended:
            break
    assert seen[-1] == (True, True)
    assert all(not blinked for blinked, _ in seen[:-1]) and len(seen) > 2
