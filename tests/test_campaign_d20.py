"""A d20 campaign played through the simulated board (`play --campaign ... --sim`): three
fights against monsters from the book by name (`--monsters`), a `kill -9` and a resume in the
middle of the second, a long rest before the third; and the one-line refusals of bad input
(docs/campaign.md). Rules: d20-srd-combat.txt."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import until

from host import cli
from host.core.campaign import Book
from host.core.journal import Journal
from host.core.newcomers import MOST_FIGHTERS
from host.core.session import Session, resume
from host.rulesets.d20 import bestiary

PARTY = """\
ruleset = "d20"

[[creature]]
name = "Aria"
hp = 20
ac = 16
dex = 2
  [[creature.attack]]
  name = "Sword"
  bonus = 5
  damage = "1d8+3"
  type = "slashing"

[[creature]]
name = "Bram"
hp = 14
ac = 12
dex = 1

[[creature]]
name = "Cora"
hp = 12
ac = 13
dex = 3
"""

GOBLINS = """\
ruleset = "d20"
name = "Goblin ambush"

[[creature]]
name = "Goblin"
label = "GB"
team = "Monsters"
count = 2
hp = 7
ac = 13
dex = 2
  [[creature.attack]]
  name = "Scimitar"
  bonus = 4
  damage = "1d6+2"
  type = "slashing"
"""

BUGBEAR = """\
ruleset = "d20"
name = "Bugbear den"
teams = ["Heroes", "Den"]

[[creature]]
name = "Bugbear"
label = "BUG"
team = "Den"
hp = 27
ac = 16
dex = 2
"""


def turnlight(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        input=typed,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, TERM="dumb"),
    )


@pytest.fixture
def table(tmp_path: Path) -> Path:
    (tmp_path / "party.toml").write_text(PARTY)
    (tmp_path / "goblins.toml").write_text(GOBLINS)
    (tmp_path / "bugbear.toml").write_text(BUGBEAR)
    return tmp_path


def fighters(db: Path, game: int) -> dict[str, tuple[int, int, int, bool]]:
    """Each creature of a journalled game as it stands: (HP, temporary HP, exhaustion, dead)."""
    journal = Journal(db, write=False)
    try:
        game_now = resume(journal, game).game
        return {f.name: (f.hp, f.temp, f.exhaustion, f.dead) for f in game_now.fighters}
    finally:
        journal.close()


def events(db: Path, game: int) -> int:
    try:
        con = sqlite3.connect(db)
        try:
            return int(
                con.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game,)).fetchone()[0]
            )
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def test_a_campaign_of_three_fights_carries_hp_and_exhaustion_through_a_kill_and_a_long_rest(
    table: Path,
) -> None:
    db = str(table / "j.sqlite")
    made = turnlight(
        "campaign",
        "new",
        "Moor",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    assert made.returncode == 0, made.stderr
    play = ["play", "--campaign", "Moor", "--sim", "--db", db, "--seed", "5"]

    # Fight 1: damage [11], temporary hit points [11], exhaustion [23], a lasting condition [29].
    # The foes are the book's, by name; the party of 3 and they fit the board's 8.
    first = turnlight(
        *play,
        "--monsters",
        "2 goblin",
        typed="initiative\ndamage Aria 5\ntemp Cora 3\nexhaustion Bram 2\n"
        "condition Cora poisoned\nfinish\n",
    )
    assert first.returncode == 0, first.stderr
    after_1 = fighters(table / "j.sqlite", 1)
    assert {"Goblin 1", "Goblin 2"} <= set(after_1)
    assert after_1["Aria"][0] == 15 and after_1["Bram"][2] == 2 and after_1["Cora"][1] == 3

    # Fight 2 starts as fight 1 ended; it is killed (kill -9) in the middle and resumed.
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", *play, "--monsters", "bugbear, 2 kobold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    assert proc.stdin is not None
    proc.stdin.write(b"initiative\ndamage Aria 4\nexhaustion Aria 1\n")
    proc.stdin.flush()
    until(lambda: events(table / "j.sqlite", 2) >= 3, "fight 2's three events journalled")
    start_2 = Journal(table / "j.sqlite", write=False)
    text_2 = start_2.game(2)["encounter_toml"]  # type: ignore[index]
    start_2.close()
    assert "hp_now = 15" in text_2 and "exhaustion = 2" in text_2  # Aria 15, Bram 2
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    busy = turnlight("campaign", "rest", "Moor", "long", "--db", db)
    assert busy.returncode == 2 and "not over" in busy.stderr  # the fight is still under way
    second = turnlight(
        "play",
        "--resume",
        "2",
        "--sim",
        "--db",
        db,
        typed="damage Bram 40\ntemp Aria 2\nfinish\n",
    )
    assert second.returncode == 0, second.stderr
    after_2 = fighters(table / "j.sqlite", 2)
    assert after_2["Aria"] == (11, 2, 1, False) and after_2["Bram"][3]  # [13]: Bram died

    rested = turnlight("campaign", "rest", "Moor", "long", "--db", db)
    assert rested.returncode == 0, rested.stderr

    third = turnlight(*play, "--monsters", "4 goblin, hobgoblin", typed="initiative\nfinish\n")
    assert third.returncode == 0, third.stderr
    start_3 = fighters(table / "j.sqlite", 3)
    # The long rest: HP to the maximum, temporary HP gone, exhaustion one lower; the dead
    # stay dead (out of the fight).
    assert start_3["Aria"] == (20, 0, after_2["Aria"][2] - 1, False)
    assert start_3["Cora"] == (12, 0, after_2["Cora"][2], False)
    assert "Bram" not in start_3 and "Hobgoblin" in start_3 and "Goblin 4" in start_3
    shown = turnlight("campaign", "show", "Moor", "--db", db)
    assert "Bram (dead)" in shown.stdout and "conditions=poisoned" in shown.stdout


def test_a_fight_starts_with_exactly_what_the_last_one_left(table: Path) -> None:
    """Without a rest between, the second fight's characters are the first's at its end."""
    db = str(table / "j.sqlite")
    turnlight(
        "campaign",
        "new",
        "Fen",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    play = ["play", "--campaign", "Fen", "--no-board", "--db", db, "--seed", "2"]
    turnlight(
        *play,
        "--encounter",
        str(table / "goblins.toml"),
        typed="initiative\ndamage Cora 7\ntemp Aria 4\nexhaustion Aria 3\nfinish\n",
    )
    turnlight(*play, "--encounter", str(table / "goblins.toml"), typed="initiative\nfinish\n")
    end_1, start_2 = fighters(table / "j.sqlite", 1), fighters(table / "j.sqlite", 2)
    for name in ("Aria", "Bram", "Cora"):
        assert start_2[name] == end_1[name]
    assert start_2["Cora"][0] == 5


def test_what_lasts_until_removed_carries_by_either_verb_and_the_rest_ends(table: Path) -> None:
    """d20-srd-combat.txt [29] (docs/rulesets/d20.md, Between fights): a `condition` and a
    generic `effect` with no end carry; one counted in rounds, ended at a turn, or tied to
    a concentration [20] ends with the fight."""
    book = Book(Journal(table / "j.sqlite"))
    book.new("Fen", "d20", "party.toml", PARTY)
    _, encounter = book.start_fight("Fen", None, "goblin")
    with book.journal.transaction():
        session = Session(encounter, 3, book.journal)
        book.append("Fen", "fight", {"game": session.game_id, "encounter": ""})
    for line in (
        "initiative",
        "condition Cora poisoned",
        "effect Aria Cursed",
        "effect Aria Blessed rounds=10",
        "effect Bram Dodge until=end",
        "concentrate Aria Hold Person",
        "condition Bram paralyzed by=Aria concentration",
        "finish",
    ):
        session.execute(line)
    party = book.state("Fen").party
    assert [party[n].get("conditions") for n in ("Aria", "Bram", "Cora")] == [
        ["Cursed"],
        [],
        ["poisoned"],
    ]
    _, next_fight = book.start_fight("Fen", None, "goblin")
    assert [c.conditions for c in next_fight.creatures[:3]] == [("Cursed",), (), ("poisoned",)]
    book.journal.close()


def test_a_short_rest_gives_what_the_game_master_says(table: Path) -> None:
    db = str(table / "j.sqlite")
    turnlight(
        "campaign",
        "new",
        "Dell",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    turnlight(
        "play",
        "--campaign",
        "Dell",
        "--no-board",
        "--db",
        db,
        "--encounter",
        str(table / "goblins.toml"),
        typed="initiative\ndamage Aria 9\ndamage Cora 2\nfinish\n",
    )
    rest = turnlight("campaign", "rest", "Dell", "short", "--heal", "aria=6", "--db", db)
    assert rest.returncode == 0, rest.stderr
    assert "Aria: HP 11 -> 17" in rest.stdout and "Cora: no change" in rest.stdout
    bad = turnlight("campaign", "rest", "Dell", "short", "--heal", "Zed=3", "--db", db)
    assert bad.returncode == 2 and "not in the party" in bad.stderr


def test_adjust_join_and_leave_are_journalled_between_fights(table: Path) -> None:
    db = str(table / "j.sqlite")
    turnlight(
        "campaign",
        "new",
        "Vale",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    assert (
        turnlight(
            "campaign", "adjust", "Vale", "Bram", "hp_now=3", "exhaustion=1", "--db", db
        ).returncode
        == 0
    )
    assert turnlight("campaign", "leave", "Vale", "Cora", "--db", db).returncode == 0
    (table / "dain.toml").write_text('ruleset = "d20"\n[[creature]]\nname = "Dain"\nhp = 18\n')
    assert (
        turnlight(
            "campaign", "join", "Vale", "--party", str(table / "dain.toml"), "--db", db
        ).returncode
        == 0
    )
    shown = turnlight("campaign", "show", "Vale", "--db", db).stdout
    assert "Bram: hp_now=3 exhaustion=1" in shown
    assert "  Cora:" not in shown and "Cora leaves the party" in shown
    assert "Dain joins the party" in shown
    bad = turnlight("campaign", "adjust", "Vale", "Bram", "hp_now=99", "--db", db)
    assert bad.returncode == 2 and "hp_now" in bad.stderr and bad.stderr.count("\n") == 1


def test_monsters_from_the_book_take_the_place_of_an_encounter_file_s_foes(table: Path) -> None:
    """`--monsters` with `--encounter`: the file's name and options stay, its foes are the
    book's; without a file the party meets the book's monsters alone."""
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Fen", "--ruleset", "d20"] + party_at(table, db)) == 0
    play = ["play", "--campaign", "Fen", "--no-board", "--db", db, "--seed", "4"]
    both = turnlight(
        *play,
        "--encounter",
        str(table / "goblins.toml"),
        "--monsters",
        "bugbear",
        typed="initiative\nfinish\n",
    )
    assert both.returncode == 0, both.stderr
    assert set(fighters(table / "j.sqlite", 1)) == {"Aria", "Bram", "Cora", "Bugbear"}
    journal = Journal(table / "j.sqlite", write=False)
    assert journal.game(1)["encounter"] == "Goblin ambush"  # type: ignore[index]
    journal.close()
    alone = turnlight(*play, "--monsters", "3 kobold", typed="initiative\nfinish\n")
    assert alone.returncode == 0, alone.stderr
    assert set(fighters(table / "j.sqlite", 2)) == {"Aria", "Bram", "Cora"} | {
        f"Kobold {n}" for n in (1, 2, 3)
    }
    shown = turnlight("campaign", "show", "Fen", "--db", db).stdout
    assert "fight 2: game 2" in shown


def party_at(table: Path, db: str) -> list[str]:
    return ["--party", str(table / "party.toml"), "--db", db]


def test_a_campaign_fight_needs_monsters_or_an_encounter(table: Path, capsys) -> None:
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Fen", "--ruleset", "d20"] + party_at(table, db)) == 0
    capsys.readouterr()
    assert cli.main(["play", "--campaign", "Fen", "--no-board", "--db", db]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "--monsters" in said and "--encounter FILE" in said


def test_a_monster_not_in_the_book_refuses_a_campaign_fight_in_one_line(table: Path, capsys):
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Fen", "--ruleset", "d20"] + party_at(table, db)) == 0
    capsys.readouterr()
    play = ["play", "--campaign", "Fen", "--no-board", "--db", db, "--monsters", "2 gobblin"]
    assert cli.main(play) == 2
    assert capsys.readouterr().err == (
        "turnlight: --monsters: no monster 'gobblin' in the SRD 5.1 bestiary; the closest is"
        " 'Goblin' (`turnlight bestiary WORDS` lists them)\n"
    )
    # Nothing lost, nothing made: no game, no fight, the campaign as it was.
    journal = Journal(table / "j.sqlite", write=False)
    assert journal.latest_game() is None
    journal.close()
    assert cli.main(["campaign", "show", "Fen", "--db", db]) == 0
    assert "fight" not in capsys.readouterr().out


def test_an_encounter_error_in_a_campaign_fight_names_its_file_and_line(table: Path, capsys):
    """The fight's encounter is written again with the party in it; the error is still at
    the line of the file that holds it, as `encounter check` says it."""
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Fen", "--ruleset", "d20"] + party_at(table, db)) == 0
    bad = table / "bad.toml"
    bad.write_text(GOBLINS.replace("hp = 7", "hp = -7"))
    capsys.readouterr()
    play = ["play", "--campaign", "Fen", "--no-board", "--db", db, "--encounter", str(bad)]
    assert cli.main(play) == 2
    said = capsys.readouterr().err
    assert (
        said == f"turnlight: {bad}:9: creature 'Goblin': hp must be a whole number 1..999, not -7\n"
    )
    assert GOBLINS.splitlines()[8] == "hp = 7"  # (line 9)
    # An option of a file given with --monsters, at its own line too.
    bad.write_text('ruleset = "d20"\nname = "x"\n\n[options]\nties = "often"\n')
    assert cli.main(play + ["--monsters", "goblin"]) == 2
    assert capsys.readouterr().err.startswith(f"turnlight: {bad}:5: options: ties must be")
    # A fight's 24 entries (a group is one): the party and the monsters together.
    names = [m["name"] for m in bestiary.search([]) if "," not in m["name"]][:MOST_FIGHTERS]
    assert cli.main(play[:-2] + ["--monsters", ", ".join(names)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("turnlight: --monsters: ") and said.count("\n") == 1
    assert f"at most {MOST_FIGHTERS} [[creature]] entries" in said


def test_adjust_reads_a_typed_value_as_add_does(table: Path, capsys) -> None:
    """host/core/newcomers.typed_value, public for both: a list where the line holds one
    (d20's conditions, d20-srd-combat.txt [29]), TOML's values, a nesting refused first."""
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Fen", "--ruleset", "d20"] + party_at(table, db)) == 0
    adjust = ["campaign", "adjust", "Fen", "Bram", "--db", db]
    assert cli.main(adjust + ["conditions=poisoned,prone", "hp_now=9"]) == 0
    assert cli.main(["campaign", "show", "Fen", "--db", db]) == 0
    assert "Bram: hp_now=9 conditions=poisoned,prone" in capsys.readouterr().out
    assert cli.main(adjust + ["hp_now=" + "[" * 40 + "1" + "]" * 40]) == 2
    assert capsys.readouterr().err == (
        "turnlight: adjust: hp_now= nests arrays and tables more than 32 deep\n"
    )


# ------------------------------------------------------------------------ bad input
def test_a_party_file_with_an_unknown_key_is_refused_in_one_line(table: Path) -> None:
    (table / "bad.toml").write_text(PARTY.replace("dex = 3", "dex = 3\nmana = 9"))
    done = turnlight(
        "campaign",
        "new",
        "X",
        "--ruleset",
        "d20",
        "--party",
        str(table / "bad.toml"),
        "--db",
        str(table / "j.sqlite"),
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "unknown key 'mana'" in done.stderr and "bad.toml:" in done.stderr
    listed = turnlight("campaign", "list", "--db", str(table / "j.sqlite"))
    assert "no campaign" in listed.stdout + listed.stderr  # nothing was made


def test_a_party_stat_the_ruleset_does_not_take_is_refused_in_one_line(table: Path) -> None:
    (table / "bad.toml").write_text(PARTY.replace("hp = 14", "hp = 0"))
    done = turnlight(
        "campaign",
        "new",
        "X",
        "--ruleset",
        "d20",
        "--party",
        str(table / "bad.toml"),
        "--db",
        str(table / "j.sqlite"),
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "hp must be" in done.stderr
    assert "bad.toml:16: creature 'Bram'" in done.stderr  # the party file's own line


def test_a_campaign_name_with_path_characters_is_refused(table: Path) -> None:
    for name in ("../up", "a/b", "c:\\d"):
        done = turnlight(
            "campaign",
            "new",
            name,
            "--ruleset",
            "d20",
            "--party",
            str(table / "party.toml"),
            "--db",
            str(table / "j.sqlite"),
        )
        assert done.returncode == 2 and "path characters" in done.stderr
        assert done.stderr.count("\n") == 1
    # Nor does `play` take one; nothing was made.
    refused = turnlight("play", "--campaign", "a/b", "--no-board", "--monsters", "goblin")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "path characters" in refused.stderr
    listed = turnlight("campaign", "list", "--db", str(table / "j.sqlite"))
    assert "no campaign" in listed.stdout + listed.stderr


def test_two_sessions_on_one_campaign_at_once_are_refused(table: Path) -> None:
    db = str(table / "j.sqlite")
    turnlight(
        "campaign",
        "new",
        "Moor",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "host.cli",
            "play",
            "--campaign",
            "Moor",
            "--no-board",
            "--db",
            db,
            "--encounter",
            str(table / "goblins.toml"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, TERM="dumb"),
    )
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"initiative\n")
        proc.stdin.flush()
        until(lambda: events(table / "j.sqlite", 1) >= 1, "the first session's fight begun")
        again = turnlight(
            "play",
            "--campaign",
            "Moor",
            "--no-board",
            "--db",
            db,
            "--encounter",
            str(table / "goblins.toml"),
        )
        assert again.returncode == 2 and "in use by turnlight pid" in again.stderr
        assert again.stderr.count("\n") == 1
        rest = turnlight("campaign", "adjust", "Moor", "Aria", "hp_now=1", "--db", db)
        assert rest.returncode == 2 and "in use" in rest.stderr and rest.stderr.count("\n") == 1
        # Nothing lost: the first session's fight goes on, and is the campaign's only one.
        proc.stdin.write(b"damage Aria 2\n")
        proc.stdin.flush()
        until(lambda: events(table / "j.sqlite", 1) >= 2, "the first session goes on")
        assert events(table / "j.sqlite", 2) == 0
    finally:
        proc.kill()
        proc.wait()


def test_a_campaign_whose_fight_journal_was_damaged_says_so_in_one_line(table: Path) -> None:
    db = str(table / "j.sqlite")
    turnlight(
        "campaign",
        "new",
        "Moor",
        "--ruleset",
        "d20",
        "--party",
        str(table / "party.toml"),
        "--db",
        db,
    )
    turnlight(
        "play",
        "--campaign",
        "Moor",
        "--no-board",
        "--db",
        db,
        "--encounter",
        str(table / "goblins.toml"),
        typed="initiative\ndamage Aria 3\nfinish\n",
    )
    con = sqlite3.connect(db)
    con.execute("UPDATE events SET payload = replace(payload, 'Aria 3', 'Aria 9') WHERE game = 1")
    con.commit()
    con.close()
    shown = turnlight("campaign", "show", "Moor", "--db", db)
    assert shown.returncode == 2 and shown.stderr.count("\n") == 1
    assert "fight 1 (game 1) cannot be read" in shown.stderr
    # Nothing lost: the campaign and its events are there still; the next fight and a rest
    # say the same one line, and make nothing.
    assert "Moor" in turnlight("campaign", "list", "--db", db).stdout
    for command in (
        ("play", "--campaign", "Moor", "--no-board", "--monsters", "goblin", "--db", db),
        ("campaign", "rest", "Moor", "long", "--db", db),
    ):
        refused = turnlight(*command)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1
        assert "fight 1 (game 1) cannot be read" in refused.stderr
    assert events(table / "j.sqlite", 2) == 0


def test_a_campaign_whose_own_event_was_damaged_says_so_in_one_line(table: Path) -> None:
    db = str(table / "j.sqlite")
    assert cli.main(["campaign", "new", "Moor", "--ruleset", "d20"] + party_at(table, db)) == 0
    assert cli.main(["campaign", "adjust", "Moor", "Aria", "hp_now=5", "--db", db]) == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE campaign_events SET payload = replace(payload, '5', '20')")
    con.commit()
    con.close()
    shown = turnlight("campaign", "show", "Moor", "--db", db)
    assert shown.returncode == 2 and shown.stderr.count("\n") == 1
    assert "its event 1 is damaged" in shown.stderr
