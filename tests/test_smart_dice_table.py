"""Smart dice fill the wanted roll, through the real matcher, DiceTable, SmartDiceSource,
Session and SQLite journal, with the Bluetooth stack scripted (host/dice/fake_transport.py).

The rolls, by the rules texts: stones' crit is a d100 rolled as two D10, tens then units
(speaking-stones-turn-order.txt:53); forms' check rolls the attribute's D10s
(forms-turns-rounds-encounters.txt:23); advance's Hit check rolls 2D6
(advance-late-combat-round.txt:32). The dice's behaviour: docs/dice.md."""

from __future__ import annotations

import asyncio
from pathlib import Path

from advance_fixtures import session as advance_session
from advance_fixtures import start_round
from dice_fakes import godice_roll, godie, linked, pixel, pixels_roll
from forms_fixtures import HALL
from stones_fixtures import session as stones_session
from table_dice import TableSession

from host.core import encounter_files
from host.core.journal import Journal
from host.core.session import Session, resume
from host.dice import godice, pixels
from host.dice.fake_transport import FakeTransport
from host.dice.source import SmartDiceSource
from host.dice.table import DiceTable


def _events(s: Session) -> list[tuple[str, dict]]:
    """The journal's events, but rolls given by other sources (a round's entered dice)."""
    assert s.journal is not None and s.game_id is not None
    return [
        (kind, payload)
        for _, kind, payload, _ in s.journal.events(s.game_id)
        if kind != "want-dice" or str(payload["source"]).startswith("smart:")
    ]


class Table:
    """A session, its smart dice on a fake stack, and what was said."""

    def __init__(self, session: Session, dice: list, accept_unstable: bool = False) -> None:
        self.session = session
        self.transport = FakeTransport([fake for fake, _ in dice])
        self.said: list[str] = []
        self.source = SmartDiceSource(lambda: self.session, self.said.extend)
        self.table = DiceTable(
            self.transport,
            [paired for _, paired in dice],
            self.source.rolled,
            lambda line: self.source.tell([line]),
            self.source.waiting_words,
            accept_unstable,
            backoff_s=(0.01, 0.02),
        )
        self.source.dice_of_kind = self.table.kinds_at_table


def run(session: Session, dice: list, script, accept_unstable: bool = False) -> Table:
    t = Table(session, dice, accept_unstable)

    async def main() -> None:
        t.table.start()
        await linked(t.table, len(dice))
        await script(t)
        await t.table.stop()

    asyncio.run(main())
    return t


def _stones(tmp_path: Path) -> Session:
    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    s.execute("attack Kae Orr")
    assert s.pending is not None
    return s


def test_a_d100_is_filled_by_a_tens_die_and_a_d10_in_either_order(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    tens, tens_paired = pixel("AA:01", 0x100, "d00")
    units, units_paired = godie("AA:02", "GoDice_0A0B0C_K_v04", "d10")

    async def script(t: Table) -> None:
        godice_roll(t.transport, "AA:02", "d10", 4)  # the units first: a tens die is here
        assert t.session.pending is not None
        pixels_roll(t.transport, "AA:01", "d00", 70)

    t = run(s, [(tens, tens_paired), (units, units_paired)], script)
    assert s.pending is None
    gave = [p for k, p in _events(s) if k == "want-dice"]
    assert gave == [
        {"purpose": "crit", "faces": [7, 4], "source": "smart:00000100,GoDice_0A0B0C_K_v04"}
    ]
    assert any("place 1 (tens): 7 from smart:00000100" in line for line in t.said)


def test_two_d10s_make_a_d100_tens_then_units(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    a = pixel("AA:01", 0x1, "d10")
    b = pixel("AA:02", 0x2, "d10")

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:02", "d10", 10)  # a d10's 10 is a 0 digit
        pixels_roll(t.transport, "AA:01", "d10", 3)

    run(s, [a, b], script)
    gave = [p for k, p in _events(s) if k == "want-dice"]
    assert gave[0]["faces"] == [0, 3]
    assert gave[0]["source"] == "smart:00000002,00000001"


def test_the_state_a_die_reports_at_connection_is_not_a_roll(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    die = pixel("AA:01", 0x1, "d10")  # it says "rolled" as it connects

    async def script(t: Table) -> None:
        t.transport.notify("AA:01", pixels.roll_state(1, 5))  # said again: still no roll
        await asyncio.sleep(0)

    t = run(s, [die], script)
    assert s.pending is not None and s.pending.supplied == []
    assert not any("rolled" in line for line in t.said)


def test_handling_rolling_crooked_and_on_face_are_not_rolls(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    die = pixel("AA:01", 0x1, "d10")

    async def script(t: Table) -> None:
        for state in (2, 3, 4, 5):
            t.transport.notify("AA:01", pixels.roll_state(state, 3))

    t = run(s, [die], script)
    assert s.pending is not None and s.pending.supplied == []
    assert not any("rolled" in line for line in t.said)


def test_godice_fake_stable_is_said_and_not_counted(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    die = godie("AA:03", "GoDice_1_K_v04", "d10")

    async def script(t: Table) -> None:
        t.transport.notify("AA:03", b"R")
        t.transport.notify("AA:03", godice.stable(godice.vector_of("d10", 5), b"FS"))

    t = run(s, [die], script)
    assert s.pending is not None and s.pending.supplied == []
    assert any("fake stable, not counted" in line for line in t.said)


def test_godice_unstable_rests_count_when_the_game_master_allows_them(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    die = godie("AA:03", "GoDice_1_K_v04", "d10")

    async def script(t: Table) -> None:
        for rest, value in ((b"TS", 5), (b"MS", 6)):
            t.transport.notify("AA:03", b"R")
            t.transport.notify("AA:03", godice.stable(godice.vector_of("d10", value), rest))

    run(s, [die], script, accept_unstable=True)
    assert [p["faces"] for k, p in _events(s) if k == "want-dice"] == [[5, 6]]


def test_two_dice_thrown_together_fill_two_places(tmp_path: Path) -> None:
    s = advance_session(journal=Journal(tmp_path / "j.sqlite"))
    start_round(s)
    s.dice_from = "smart"
    s.execute("attack Ayla Cleave Snag")  # a Hit check: 2D6
    a, b = pixel("AA:01", 0xA, "d6"), godie("AA:02", "GoDice_2_K_v04", "d6")

    async def script(t: Table) -> None:
        # both in the air, then both at rest
        t.transport.notify("AA:01", pixels.roll_state(3, 0))
        t.transport.notify("AA:02", b"R")
        t.transport.notify("AA:02", godice.stable(godice.vector_of("d6", 3)))
        t.transport.notify("AA:01", pixels.roll_state(1, 2))

    run(s, [a, b], script)
    gave = [p for k, p in _events(s) if k == "want-dice"]
    assert gave[0]["faces"] == [3, 3]
    assert gave[0]["source"] == "smart:GoDice_2_K_v04,0000000A"


def test_a_die_rolled_twice_for_one_place_takes_the_first_and_shows_the_second_unused(
    tmp_path: Path,
) -> None:
    s = TableSession(encounter_files.parse(HALL, "hall.toml"), 1, Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    s.execute("check Ann Genius")
    s.execute("next")  # Ann's Genius roll: 2 D10
    assert s.pending is not None
    a, b = pixel("AA:01", 0x1, "d10"), pixel("AA:02", 0x2, "d10")

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:01", "d10", 7)
        pixels_roll(t.transport, "AA:01", "d10", 2)  # the same die again: unused
        assert t.session.pending is not None and t.session.pending.supplied == []
        pixels_roll(t.transport, "AA:02", "d10", 9)

    t = run(s, [a, b], script)
    gave = [p for k, p in _events(s) if k == "want-dice"]
    assert gave[0]["faces"] == [7, 9]
    assert any("rolled 2: not used (this die already gave its roll" in x for x in t.said)
    shown = [p for k, p in _events(s) if k == "roll-shown"]
    assert shown == [{"kind": "d10", "faces": [2], "source": "smart:00000001"}]


def test_one_die_rolled_twice_fills_both_places_when_it_is_the_only_one(tmp_path: Path) -> None:
    s = TableSession(encounter_files.parse(HALL, "hall.toml"), 1, Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    s.execute("check Ann Genius")
    s.execute("next")

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:01", "d10", 7)
        pixels_roll(t.transport, "AA:01", "d10", 2)

    run(s, [pixel("AA:01", 0x1, "d10")], script)
    assert [p["faces"] for k, p in _events(s) if k == "want-dice"][0] == [7, 2]


def test_a_die_thrown_while_nothing_waits_is_shown_and_used_for_nothing(tmp_path: Path) -> None:
    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    s.dice_from = "smart"
    done = len(s.done)

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:01", "d20", 17)

    t = run(s, [pixel("AA:01", 0x1, "d20")], script)
    assert len(s.done) == done and s.pending is None
    assert any("rolled 17: not used (no roll waits for smart dice)" in x for x in t.said)
    assert [k for k, _ in _events(s)][-1] == "roll-shown"


def test_a_die_that_drops_while_a_roll_waits_is_said_and_the_roll_stays_wanted(
    tmp_path: Path,
) -> None:
    s = _stones(tmp_path)
    die = pixel("AA:01", 0x1, "d10")

    async def script(t: Table) -> None:
        t.transport.drop("AA:01")
        await asyncio.sleep(0)
        t.table.connected.clear()
        await asyncio.wait_for(t.table.connected.wait(), 60)  # linked again, after a pause
        pixels_roll(t.transport, "AA:01", "d10", 4)

    t = run(s, [die], script)
    drops = [x for x in t.said if "dropped" in x]
    assert drops == [
        "smart die d10 Pixel d10 dropped: reconnecting; Kaelen's crit roll (a d100: two D10,"
        " tens then units) still waits"
    ]
    assert s.pending is not None and s.pending.wanted is not None  # still wanted
    assert die[0].attempts == 2
    assert any("place 1 of 2 (tens) = 4" in x for x in t.said)


def test_a_die_that_will_not_link_is_tried_again_with_growing_pauses(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    fake, paired = pixel("AA:01", 0x1, "d10")
    fake.refuse = 3

    async def script(t: Table) -> None:
        pass

    t = run(s, [(fake, paired)], script)
    assert fake.attempts >= 4
    # said once, not at every try
    assert len([x for x in t.said if "not linked" in x]) == 1


def test_low_battery_is_said_once(tmp_path: Path) -> None:
    s = _stones(tmp_path)

    async def script(t: Table) -> None:
        t.transport.notify("AA:01", pixels.battery_level(9))
        t.transport.notify("AA:01", pixels.battery_level(8))

    t = run(s, [pixel("AA:01", 0x1, "d10")], script)
    assert [x for x in t.said if "battery low" in x] == [
        "smart die d10 Pixel d10: battery low (9%)"
    ]


def test_the_wanted_dice_blink_and_the_others_do_not(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    d10, d20, go = (
        pixel("AA:01", 0x1, "d10"),
        pixel("AA:02", 0x2, "d20"),
        godie("AA:03", "GoDice_3_K_v04", "d10"),
    )

    async def script(t: Table) -> None:
        matcher = t.source.current()
        assert matcher is not None
        assert sorted(await t.table.blink(matcher.kinds_wanted())) == ["00000001", "GoDice_3_K_v04"]

    run(s, [d10, d20, go], script)
    assert any(data[0] == pixels.BLINK for _, data in d10[0].written)
    assert not any(data[0] == pixels.BLINK for _, data in d20[0].written)
    assert any(data[0] == godice.PULSE for _, data in go[0].written)


def test_the_old_pixels_service_is_used_when_the_die_has_only_it(tmp_path: Path) -> None:
    s = _stones(tmp_path)

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:01", "d10", 6)

    fake, paired = pixel("AA:01", 0x1, "d10", old=True)
    run(s, [(fake, paired)], script)
    assert fake.written[0] == (pixels.OLD_WRITE, pixels.who_are_you())
    assert s.pending is not None and s.pending.supplied == []  # one place of two
    assert [p for k, p in _events(s) if k == "want-dice"] == []


def test_smart_faces_resume_with_their_source(tmp_path: Path) -> None:
    s = _stones(tmp_path)

    async def script(t: Table) -> None:
        pixels_roll(t.transport, "AA:01", "d10", 5)
        pixels_roll(t.transport, "AA:01", "d10", 1)

    run(s, [pixel("AA:01", 0x1, "d10")], script)
    assert s.pending is None
    assert s.journal is not None
    back = resume(s.journal, s.game_id, dice_from="smart")
    assert back.ruleset.snapshot(back.game) == s.ruleset.snapshot(s.game)
    back.undo(1)
    assert len(back.done) == len(s.done) - 1  # the action the smart dice resolved is undone


def test_what_smart_dice_say_of_a_hidden_fighter_stays_off_the_players_page(
    tmp_path: Path,
) -> None:
    """The secrets issue: a hidden fighter's roll, filled by smart dice, and a drop while it
    waits, never name it on the players' page (host/core/audience.py)."""
    from host.core.audience import Secrets, cast_of, for_players

    s = _stones(tmp_path)  # Kaelen's crit roll waits
    kaelen = next(n for n in s.ruleset.fighter_names(s.game) if n.startswith("Kaelen"))
    s.set_secrets(Secrets(hidden={kaelen}))
    die = pixel("AA:01", 0x1, "d10")

    async def script(t: Table) -> None:
        t.transport.drop("AA:01")
        await asyncio.sleep(0)
        t.table.connected.clear()
        await asyncio.wait_for(t.table.connected.wait(), 60)  # bounds a hang only
        pixels_roll(t.transport, "AA:01", "d10", 4)
        pixels_roll(t.transport, "AA:01", "d10", 2)

    t = run(s, [die], script)
    assert s.pending is None
    assert any("Kaelen" in line for line in t.said)  # the game master sees it
    seen = for_players(t.said, cast_of(s.ruleset, s.game), s.secrets, s.encounter.teams)
    assert not any("Kaelen" in line for line in seen)


def test_korxsol_initiative_and_an_attack_resolve_from_two_smart_d6s(tmp_path: Path) -> None:
    """korxsol-players-guide.txt:8: its action dice are D3s, or D6s read as D3s; the
    initiative's AGILITY roll and an attack's rolls are all filled by thrown d6s."""
    from host.rulesets.korxsol import encounter_schema

    s = Session(
        encounter_schema.load(encounter_schema.example_path()), 5, Journal(tmp_path / "j.sqlite")
    )
    s.dice_from = "smart"
    dice = [pixel("AA:01", 0x1, "d6"), godie("AA:02", "GoDice_6_K_v04", "d6")]

    async def throw_until_resolved(t: Table) -> None:
        for n in range(400):
            if t.source.current() is None:
                return
            if n % 2:
                godice_roll(t.transport, "AA:02", "d6", 1 + n % 6)
            else:
                pixels_roll(t.transport, "AA:01", "d6", 1 + n % 6)
        raise AssertionError("the action kept waiting")

    async def script(t: Table) -> None:
        t.session.execute("initiative")
        await throw_until_resolved(t)
        line = t.session.ruleset.plan_turn(t.session.game)[0]
        t.session.execute(line)
        await throw_until_resolved(t)

    run(s, dice, script)
    assert s.pending is None and len(s.done) == 2
    smart = [p for k, p in _events(s) if k == "want-dice"]
    assert smart and all(p["source"].startswith("smart:") for p in smart)


def test_a_godice_fake_stable_mid_throw_leaves_its_stable_rest_counted(tmp_path: Path) -> None:
    s = _stones(tmp_path)
    die = godie("AA:03", "GoDice_1_K_v04", "d10")

    async def script(t: Table) -> None:
        t.transport.notify("AA:03", b"R")
        t.transport.notify("AA:03", godice.stable(godice.vector_of("d10", 5), b"FS"))
        t.transport.notify("AA:03", godice.stable(godice.vector_of("d10", 8)))

    t = run(s, [die], script)
    assert s.pending is not None and s.pending.supplied == []  # one place of two filled
    assert any("rolled 8: place 1 of 2 (tens) = 8" in line for line in t.said)


def test_dice_from_smart_makes_actions_wait_and_says_to_throw_the_smart_dice(
    tmp_path: Path,
) -> None:
    s = stones_session(journal=Journal(tmp_path / "j.sqlite"))
    assert s.execute("dice from smart") == [
        "dice from smart: the next actions' rolls come from the paired smart dice"
    ]
    s.execute("attack Kae Orr")
    waiting, how = s.wanted_lines()
    assert waiting.startswith("waiting for Kaelen's crit roll (a d100: two D10, tens then units)")
    assert "from the smart dice" in waiting
    assert how.strip().startswith("throw the blinking smart dice; `roll` (the engine rolls)")
