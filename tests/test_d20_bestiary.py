"""d20's bestiary (host/rulesets/d20/bestiary.py): the SRD 5.1 data shipped as package data,
each field of a monster's entry mapped onto its stat line (a goblin, a bugbear, an adult
red dragon, a mummy), `add` from the book (`add goblin`, `add 3 goblin`, `add goblin as
Snik`), `from =` in an encounter file with `count` and overrides, `--monsters` on `encounter
new` and `play`, `turnlight bestiary` and its suggestion, and XP against the SRD's
XP-by-challenge-rating table. Rules: d20-srd-combat.txt (the monsters' own actions are
tests/test_rules_d20_monster_actions.py)."""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from d20_fixtures import ANA, BO, Table, d20, encounter_text

from host import cli
from host.core import encounter_files
from host.core.encounter_files import tomllib
from host.core.interface import EncounterError, IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume
from host.rulesets.d20 import bestiary, encounter_schema
from host.rulesets.d20.ruleset import RULESET

# The SRD 5.1's experience points by challenge rating, as its table gives them.
SRD_XP = {"0": (0, 10), "1/8": (25,), "1/4": (50,), "1/2": (100,), "1": (200,), "2": (450,)}
SRD_XP |= {"3": (700,), "4": (1100,), "5": (1800,), "10": (5900,), "17": (18000,)}
SRD_XP |= {"24": (62000,), "30": (155000,)}


def creature(*lines: str, party: str = ANA) -> encounter_schema.Creature:
    text = encounter_text(party, "[[creature]]\n" + "\n".join(lines) + "\n")
    return RULESET.parse_encounter(text, "test.toml").creatures[-1]


def test_the_data_is_package_data_with_its_credit_and_334_monsters():
    data = resources.files("host.rulesets.d20").joinpath("data").joinpath("srd51-monsters.json")
    book = json.loads(data.read_text("utf-8"))
    assert len(book["monsters"]) == 334
    assert book["credit"].startswith("This work includes material taken from the System")
    readme = resources.files("host.rulesets.d20").joinpath("data").joinpath("README.md").read_text()
    assert "Creative Commons Attribution 4.0" in readme
    doc = Path(__file__).parent.parent / "docs" / "rulesets" / "d20.md"
    assert book["credit"] in " ".join(doc.read_text().split())
    # an installed copy carries only package data: both files match its patterns
    pyproject = Path(__file__).parent.parent / "pyproject.toml"
    patterns = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]
    wanted = patterns["host.rulesets.d20"]
    for name in ("data/srd51-monsters.json", "data/README.md"):
        assert any(fnmatch.fnmatch(name, p) for p in wanted), name


def test_every_monster_of_the_book_reads_as_a_stat_line():
    for m in bestiary.monsters():
        c = creature(f'from = "{m["index"]}"')
        assert (c.name, c.hp, c.ac, c.team) == (m["name"], m["hp"], m["ac"], 1)


def test_a_goblin_s_fields_are_taken_from_the_book():
    c = creature('from = "goblin"')
    assert (c.name, c.label, c.kind, c.hp, c.ac, c.speed) == ("Goblin", "GOB", "monster", 7, 15, 30)
    assert c.dex == c.initiative == 2  # Dexterity 14
    # no proficient saves: each is the ability's modifier (Str 8, Dex 14, ... Cha 8)
    assert c.saves == {"str": -1, "dex": 2, "con": 0, "int": 0, "wis": -1, "cha": -1}
    scimitar, shortbow = c.attacks
    assert (scimitar.name, scimitar.bonus, scimitar.damage.text(), scimitar.type) == (
        "Scimitar",
        4,
        "1d6+2",
        "slashing",
    )
    assert (shortbow.name, shortbow.type) == ("Shortbow", "piercing")
    assert c.xp == 50 and c.legendary == 0 and not c.actions and not c.multiattack


def test_a_bugbear_s_fields_are_taken_from_the_book():
    c = creature('from = "Bugbear"')
    assert (c.hp, c.ac, c.dex, c.xp) == (27, 16, 2, 200)
    assert [(a.name, a.bonus, a.damage.text()) for a in c.attacks] == [
        ("Morningstar", 4, "2d8+2"),
        ("Javelin", 4, "2d6+2"),
    ]


def test_an_adult_red_dragon_s_legendary_actions_breath_multiattack_and_immunity():
    c = creature('from = "adult red dragon"', "legendary_resistance = 3")
    assert (c.hp, c.ac, c.xp, c.immune, c.initiative) == (256, 19, 18000, ("fire",), 0)
    assert c.saves["dex"] == 6 and c.saves["con"] == 13 and c.saves["str"] == 8
    bite = c.attacks[0]
    assert (bite.name, bite.bonus, bite.damage.text(), bite.type) == (
        "Bite",
        14,
        "2d10+8",
        "piercing",
    )
    assert [(r.text(), t) for r, t in bite.extra] == [("2d6", "fire")]
    assert c.multiattack == ("frightful presence", "bite", "claw", "claw")
    breath = next(p for p in c.actions if p.name == "Fire Breath")
    assert (breath.save, breath.dc, breath.half, breath.recharge) == ("dex", 21, True, 5)
    assert [(r.text(), t) for r, t in breath.damage] == [("18d6", "fire")]
    fear = next(p for p in c.actions if p.name == "Frightful Presence")
    assert (fear.save, fear.dc, fear.half, fear.damage) == ("wis", 19, False, ())
    assert c.legendary == 3
    assert [(p.name, p.cost, p.attack) for p in c.legendary_actions] == [
        ("Detect", 1, ""),
        ("Tail Attack", 1, "Tail"),
        ("Wing Attack", 2, ""),
    ]
    wing = c.legendary_actions[2]
    assert (wing.save, wing.dc, wing.half) == ("dex", 22, False)
    # the data lists no Legendary Resistance: the game master types it beside `from`
    assert c.legendary_resistance == 3
    assert creature('from = "adult red dragon"').legendary_resistance == 0


def test_a_mummy_s_resistances_immunities_vulnerability_and_condition_immunities():
    c = creature('from = "mummy"')
    assert c.vulnerable == ("fire",)
    assert c.resist == ("nonmagical bludgeoning", "nonmagical piercing", "nonmagical slashing")
    assert c.immune == ("necrotic", "poison")
    assert "frightened" in c.condition_immune and "exhaustion" in c.condition_immune
    glare = c.actions[0]
    assert (glare.name, glare.save, glare.dc) == ("Dreadful Glare", "wis", 11)
    assert c.multiattack == ("dreadful glare", "rotting fist")


def test_from_takes_a_count_and_any_key_beside_it_overrides_the_book_s():
    text = encounter_text(ANA, '[[creature]]\nfrom = "goblin"\ncount = 3\nhp = 10\nlabel = "GB"\n')
    goblins = RULESET.parse_encounter(text, "t.toml").creatures[1:]
    assert [(g.name, g.label, g.hp, g.ac) for g in goblins] == [
        ("Goblin 1", "GB1", 10, 15),
        ("Goblin 2", "GB2", 10, 15),
        ("Goblin 3", "GB3", 10, 15),
    ]
    assert len({g.group for g in goblins}) == 1 and goblins[0].group >= 0


def test_from_a_monster_not_in_the_book_is_one_line_naming_the_closest():
    text = encounter_text(ANA, '[[creature]]\nfrom = "gobbolin"\n')
    with pytest.raises(EncounterError) as err:
        RULESET.parse_encounter(text, "t.toml")
    said = str(err.value)
    assert said.startswith("t.toml:") and "'Goblin'" in said and "\n" not in said


def test_add_goblin_add_3_goblin_and_add_goblin_as_snik():
    t = Table(ANA, BO, '[[creature]]\nname = "Orc"\nteam = "Foes"\nhp = 15\n')
    t.start(10, 5, 3)
    lines = t.play("add goblin", d20(12, "initiative"))
    assert lines[0] == "Goblin joins the fight: initiative d20 12 +2 = 14"
    goblin = t.who("Goblin")
    assert (goblin.label, goblin.spec.team, goblin.spec.hp, goblin.spec.xp) == ("GOB", 1, 7, 50)
    t.play("add goblin as Snik hp=4", d20(2, "initiative"))
    assert t.who("Snik").spec.hp == 4 and t.who("Snik").spec.ac == 15
    rolls = [d20(n, "initiative") for n in (7, 8, 9)]
    t.play("add 3 goblin", *rolls)
    assert [f.name for f in t.game.fighters[-3:]] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [f.label for f in t.game.fighters[-3:]] == ["GO1", "GO2", "GO3"]
    assert len(t.game.fighters) == 8


def test_add_of_a_monster_not_in_the_book_names_the_closest_and_changes_nothing():
    t = Table(ANA, '[[creature]]\nname = "Orc"\nteam = "Foes"\nhp = 15\n')
    t.start(10, 5)
    said = t.refused("add gobln")
    assert said == (
        "add: no monster 'gobln' in the SRD 5.1 bestiary; the closest is 'Goblin'"
        " (`turnlight bestiary WORDS` lists them)"
    )
    assert "at most 24" in t.refused("add 23 goblin")  # 2 + 23: past the fight's 24 entries
    assert len(t.game.fighters) == 2


def test_add_of_several_words_of_an_ally_and_of_a_stat_line_typed_by_hand():
    t = Table(ANA, '[[creature]]\nname = "Orc"\nteam = "Foes"\nhp = 15\n')
    t.start(10, 5)
    t.play("add red dragon wyrmling as Ember", d20(10, "initiative"))
    assert t.who("Ember").spec.hp == 75 and t.who("Ember").spec.immune == ("fire",)
    t.play("add Goblin team=Heroes hp=3", d20(10, "initiative"))  # an ally, 3 HP
    goblin = t.who("Goblin").spec
    assert (goblin.team, goblin.hp, goblin.ac, goblin.attacks[0].name) == (0, 3, 15, "Scimitar")
    t.play("add Grik team=Foes hp=4", d20(10, "initiative"))  # a stat line typed by hand
    assert t.who("Grik").spec.attacks == () and t.who("Grik").spec.xp == 0
    t.play("add 2 Zork team=Foes hp=4", d20(10, "initiative"), d20(11, "initiative"))
    assert [(f.name, f.label, f.spec.hp, f.spec.attacks) for f in t.game.fighters[-2:]] == [
        ("Zork 1", "ZO1", 4, ()),
        ("Zork 2", "ZO2", 4, ()),
    ]


def test_encounter_new_with_monsters_writes_the_party_and_the_book_s_monsters(tmp_path, capsys):
    out = tmp_path / "fight.toml"
    args = ["encounter", "new", "--ruleset", "d20", "--out", str(out)]
    assert cli.main([*args, "--monsters", "4 goblin, bugbear, adult red dragon"]) == 0
    enc = encounter_files.load(out)
    names = [c.name for c in enc.creatures]
    goblins = [f"Goblin {n}" for n in range(1, 5)]
    assert names == ["Hero", *goblins, "Bugbear", "Adult Red Dragon"]
    assert [t.name for t in enc.templates] == ["Bandit Captain"]  # the template's kept
    assert out.read_text().count('from = "') == 3
    capsys.readouterr()
    assert cli.main(["encounter", "check", str(out)]) == 0
    said = capsys.readouterr().out
    assert "XP 18,400: Goblin x4 200, Bugbear 200, Adult Red Dragon 18,000" in said


def test_monsters_not_in_the_book_are_refused_naming_the_closest(tmp_path, capsys):
    out = tmp_path / "fight.toml"
    args = ["encounter", "new", "--ruleset", "d20", "--out", str(out), "--monsters"]
    assert cli.main([*args, "2 goblin, bugbare"]) == 2
    err = capsys.readouterr().err.strip()
    assert "'bugbare'" in err and "the closest is 'Bugbear'" in err and "\n" not in err
    assert not out.exists()


def test_bestiary_lists_matches_with_type_cr_and_xp_and_suggests_the_closest(capsys):
    assert cli.main(["bestiary", "red", "dragon"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["monster", "type", "CR", "XP"]
    row = next(line for line in out if line.startswith("Adult Red Dragon"))
    assert row.split()[-3:] == ["dragon", "17", "18,000"]
    assert out[-1] == "5 of d20's book"
    assert cli.main(["bestiary", "goblin"]) == 0
    assert "1/4" in capsys.readouterr().out
    assert cli.main(["bestiary", "bugbare"]) == 2
    assert "the closest is 'Bugbear'" in capsys.readouterr().err


def test_each_monster_s_xp_is_the_srd_s_for_its_challenge_rating():
    for m in bestiary.monsters():
        cr, worth = bestiary.cr_text(m["cr"]), bestiary.xp(m)
        assert worth in SRD_XP[cr] if cr in SRD_XP else worth == bestiary.XP_BY_CR[m["cr"]]
        assert creature(f'from = "{m["index"]}"').xp == worth
    # the data's own figure disagrees with its challenge rating for four: the table wins
    wrong = [m["name"] for m in bestiary.monsters() if m["xp"] != bestiary.xp(m)]
    assert wrong == ["Brass Dragon Wyrmling", "Deep Gnome (Svirfneblin)", "Dretch", "Riding Horse"]


def test_the_encounter_s_xp_adds_up_its_monsters_and_newcomers():
    t = Table(ANA, '[[creature]]\nfrom = "goblin"\ncount = 2\nlabel = "GB"\n')
    assert RULESET.encounter_notes(t.game) == ["XP 100: Goblin x2 100"]
    t.start(10, 5)
    t.play("add bugbear", d20(3, "initiative"))
    assert RULESET.encounter_notes(t.game) == ["XP 300: Goblin x2 100, Bugbear 200"]
    assert RULESET.encounter_notes(Table(ANA, BO.replace("Heroes", "Foes")).game) == []


def test_the_game_master_s_console_shows_the_xp_and_the_players_page_does_not():
    from host.web.page_data import Secrets, gm_view, player_view

    t = Table(ANA, '[[creature]]\nfrom = "bugbear"\n')
    full = gm_view(RULESET, t.game, ("Heroes", "Foes"), Secrets(), [], [], [], {})
    assert full["notes"] == ["XP 200: Bugbear 200"]
    assert "notes" not in player_view(full) and "XP 200" not in json.dumps(player_view(full))
    gm = Path(__file__).parent.parent / "host" / "web" / "static"
    assert 'id="notes"' in (gm / "gm.html").read_text()
    assert 'fill("notes"' in (gm / "app.js").read_text()


def test_a_fight_from_monsters_plays_to_its_end_with_the_ai(tmp_path: Path) -> None:
    """`play --monsters` starts the bundled party against the book's monsters; the demo AI
    then plays the journalled game (resumed) to its end, breath, multiattack and all."""
    db = tmp_path / "play.sqlite"
    proc = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "d20", "--db", str(db)]
        + ["--seed", "8", "--no-board", "--monsters", "2 goblin, bugbear, red dragon wyrmling"],
        input=b"initiative\nquit\n",
        capture_output=True,
        env=dict(os.environ, TERM="dumb"),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    s = resume(Journal(db))
    names = [f.name for f in s.game.fighters]
    assert names[-4:] == ["Goblin 1", "Goblin 2", "Bugbear", "Red Dragon Wyrmling"]
    verbs: set[str] = set()
    while not s.over and len(s.done) < 1500:
        for line in RULESET.plan_turn(s.game):
            verbs.add(line.split()[0])
            s.execute(line)
    assert s.over and {"use", "attack"} <= verbs


def test_play_with_a_monster_not_in_the_book_says_so_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "d20", "--no-board"]
        + ["--db", str(tmp_path / "j.sqlite"), "--monsters", "3 kobbold"],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.decode().strip().splitlines() == [
        "turnlight: --monsters: no monster 'kobbold' in the SRD 5.1 bestiary; the closest is"
        " 'Kobold' (`turnlight bestiary WORDS` lists them)"
    ]


def test_play_resume_with_monsters_is_refused_in_one_line(capsys) -> None:
    assert cli.main(["play", "--resume", "--monsters", "goblin", "--no-board"]) == 2
    said = capsys.readouterr().err.strip()
    assert (
        said == "turnlight: --monsters starts a new fight; a resumed game keeps its own (drop one)"
    )


def test_a_session_with_book_monsters_resumes_and_undoes_an_add(tmp_path: Path) -> None:
    text = encounter_text(ANA, '[[creature]]\nfrom = "goblin"\n')
    s = Session(RULESET.parse_encounter(text, "t.toml"), 4, Journal(tmp_path / "j.sqlite"))
    s.execute("initiative")
    s.execute("add 2 bugbear")
    assert len(s.game.fighters) == 4
    with pytest.raises(IllegalAction, match="closest is 'Bugbear'"):
        s.execute("add bugbare")
    again = resume(Journal(tmp_path / "j.sqlite"))
    assert [f.name for f in again.game.fighters] == ["Ana", "Goblin", "Bugbear 1", "Bugbear 2"]
    again.undo(1)
    assert len(again.game.fighters) == 2


def test_add_completes_the_book_s_names_and_use_the_creature_s_actions_marking_the_spent():
    t = Table(ANA, '[[creature]]\nfrom = "red dragon wyrmling"\nlabel = "WYR"\n')
    assert RULESET.complete(t.game, ["add", "gob"]) == ["Goblin"]
    assert '"Adult Red Dragon"' in RULESET.complete(t.game, ["add", "adult"])
    assert RULESET.complete(t.game, ["use", ""]) == ["WYR"]  # the one with such actions
    assert RULESET.complete(t.game, ["multiattack", ""]) == []  # a wyrmling has none
    t.start(1, 20)
    t.play("use WYR Fire Breath Ana", ("damage", (1,) * 7), ("save", (1,)))
    offered = RULESET.complete(t.game, ["use", "WYR", ""])
    assert offered == ['"Fire Breath"']
    assert RULESET.unusable(t.game, ["use", "WYR", ""], offered) == {
        '"Fire Breath"': "recharges on a d6 of 5+"
    }


def test_monsters_whose_names_hold_a_comma_and_a_name_s_first_words():
    found = bestiary.wanted("2 werewolf, human form, vampire, mist form, goblin", 8)
    assert [(n, m["name"]) for n, m in found] == [
        (2, "Werewolf, Human Form"),
        (1, "Vampire, Mist Form"),
        (1, "Goblin"),
    ]
    with pytest.raises(IllegalAction, match="the closest is 'Werewolf, "):
        bestiary.wanted("werewolf", 8)


def test_a_ruleset_without_a_book_refuses_monsters_and_bestiary_in_one_line(tmp_path, capsys):
    out = tmp_path / "k.toml"
    args = ["encounter", "new", "--ruleset", "korxsol", "--out", str(out), "--monsters", "goblin"]
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "ruleset 'korxsol' has no book of monsters" in err and "\n" not in err
    assert not out.exists()
    assert cli.main(["bestiary", "--ruleset", "korxsol"]) == 2
    assert "has no book of monsters" in capsys.readouterr().err


def test_add_reads_a_count_and_numbers_the_newcomers_past_the_names_taken():
    from host.core import newcomers

    assert newcomers.counted(["3", "adult", "red", "dragon", "as", "Ember"]) == (
        3,
        "adult red dragon",
        "Ember",
    )
    assert newcomers.counted(["goblin"]) == (1, "goblin", "")
    assert newcomers.counted(["3"]) == (1, "3", "")  # a name alone, even of a digit
    taken = ["Goblin 1", "GO2"]
    assert newcomers.numbered("Goblin", 2, taken) == [("Goblin 3", "GO3"), ("Goblin 4", "GO4")]
    assert newcomers.numbered("Goblin", 1, taken) == [("Goblin", "")]
