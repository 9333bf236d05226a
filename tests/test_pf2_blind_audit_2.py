"""The second blind audit of `--ruleset pf2` (issue #42; docs/audits/pf2-blind-audit-2.md).

Written from pf2-combat.txt and the docs alone, playing only through `turnlight run --json`
with every die entered, so each outcome is exact. `test_rule_N_...` checks what agreed with
rule [N]; `test_finding_N_...` what did not, first failing, then fixed.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import main

ENCOUNTER = """\
ruleset = "pf2"
name = "Audit"
teams = ["Party", "Foes"]
[options]
end = "gm"
[[creature]]
name = "Aria"
label = "ARI"
team = "Party"
level = 2
hp = 20
ac = 18
perception = 5
fort = 7
ref = 5
will = 4
hero = 2
  [[creature.strike]]
  name = "Sword"
  bonus = 7
  damage = "1d8+4"
  type = "slashing"
[[creature]]
name = "Bram"
label = "BRA"
team = "Party"
level = 2
hp = 20
ac = 16
perception = 3
fort = 6
ref = 4
will = 6
  [[creature.strike]]
  name = "Mace"
  bonus = 6
  damage = "1d6+2"
  type = "bludgeoning"
"""

OGRE = """\
[[creature]]
name = "Ogre"
label = "OGR"
team = "Foes"
level = 3
hp = 50
ac = 17
perception = 2
fort = 10
ref = 4
will = 4
  [[creature.strike]]
  name = "Club"
  bonus = 10
  damage = "1d10+7"
  type = "bludgeoning"
"""

# Every die entered; initiative 10s: Aria 15, Bram 13, Ogre 12, in that order.
START = ["dice from entered", "initiative", "dice 10", "dice 10", "dice 10"]


def play(tmp_path: Path, *lines: str) -> dict:
    """The game's `run --json` state after START and LINES (refusals kept in "errors")."""
    encounter = tmp_path / "audit.toml"
    encounter.write_text(ENCOUNTER + OGRE)
    script = tmp_path / "script.txt"
    script.write_text("\n".join([*START, *lines]) + "\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(
            ["run", "--ruleset", "pf2", "--encounter", str(encounter), "--script", str(script)]
            + ["--json", "--seed", "1", "--keep-going"]
        )
    return json.loads(out.getvalue())


def who(state: dict, name: str) -> dict:
    return next(c for c in state["creatures"] if c["name"] == name)


def after(state: dict, text: str) -> list[str]:
    """The log's lines from the first that holds TEXT on."""
    log = state["log"]
    return log[next(i for i, line in enumerate(log) if text in line) :]


def ended_at(state: dict, effect: str) -> str:
    """The turn line ("round 2, 15: Aria's turn") last begun before EFFECT's end line (a
    Sustain's taking off and putting on again aside)."""
    turn = ""
    for line in state["log"]:
        if line.startswith("round "):
            turn = line
        if line.startswith(f"{effect} on ") and " ends:" in line and "taken off" not in line:
            return turn
    return "never"


def refused(state: dict, line_no: int) -> str:
    """The refusal of the script's LINE_NO-th line after START (1-based), or ''."""
    tag = f":{len(START) + line_no}: "
    return next((e.split(tag, 1)[1] for e in state["errors"] if tag in e), "")


# [23] durations on the maker's turn ------------------------------------------------------


def test_rule_23_rounds_of_a_maker_put_on_off_its_turn_end_as_its_nth_turn_begins(tmp_path):
    """pf2-combat.txt [23]: an effect that lasts N rounds counts down at the start of its
    maker's turn, wherever it was put on (here on Bram's turn, by Aria's reaction)."""
    state = play(
        tmp_path,
        "next",
        "effect Ogre Bless rounds=1 of=Aria",
        "effect Bram Shield rounds=2 of=Aria",
        *["next"] * 6,
    )
    assert ended_at(state, "Bless") == "round 2, 15: Aria's turn"
    assert ended_at(state, "Shield") == "round 3, 15: Aria's turn"


def test_rule_23_a_delayed_and_returned_maker_counts_one_turn_a_round(tmp_path):
    """pf2-combat.txt [23], [22]: the maker's start-of-turn count comes as its turn begins,
    before it Delays; the turn its return takes counts none."""
    state = play(
        tmp_path,
        "effect Ogre Bless rounds=2 of=Aria",
        "next",
        "next",
        "next",
        "delay Aria",
        "next",
        "return Aria",
        "next",
        "next",
        "next",
    )
    assert ended_at(state, "Bless") == "round 3, 15: Aria's turn"
    assert [e["who"] for e in state["order"]] == [["Bram"], ["Ogre"], ["Aria"]]


@pytest.mark.parametrize("how", ["remove Ogre", "damage Ogre 50"])
def test_rule_23_a_maker_that_left_ends_it_where_its_turn_would_have_come(tmp_path, how):
    """pf2-combat.txt [23]: a maker gone (removed, or dead) still ends its effects at the
    point of the order where its turn would have come (after Bram's turn, not before)."""
    state = play(
        tmp_path,
        "next",
        "next",
        "effect Aria Bless rounds=1 of=Ogre",
        "effect Bram Mark until=start of=Ogre",
        "next",
        how,
        "next",
    )
    assert ended_at(state, "Bless") == "never"  # Bram's turn has begun, not ended
    assert ended_at(state, "Mark") == "never"
    state = play(
        tmp_path,
        "next",
        "next",
        "effect Aria Bless rounds=1 of=Ogre",
        "effect Bram Mark until=start of=Ogre",
        "next",
        how,
        "next",
        "next",
    )
    assert ended_at(state, "Bless") == "round 2, 13: Bram's turn"
    assert ended_at(state, "Mark") == "round 2, 13: Bram's turn"


# [18] unconscious --------------------------------------------------------------------


def test_rule_18_knocked_out_a_creature_is_prone_off_guard_and_minus_4_ac_and_reflex(tmp_path):
    """pf2-combat.txt [18]: -4 status to AC and Reflex, off-guard (-2 circumstance AC),
    prone; it drops what it holds."""
    state = play(
        tmp_path,
        "damage Aria 20",
        "save Aria ref dc=15",
        "dice 10",
        "next",
        "next",
        "strike Ogre Aria",
        "dice 2",
        "dice 1",
    )
    assert "falls prone and drops what it holds" in " ".join(state["log"])
    assert "Aria's Ref save: d20 10 +1 = 11" in " ".join(state["log"])
    assert "vs AC 12 (AC 18 -6): success" in " ".join(state["log"])
    assert "prone" in who(state, "Aria")["conditions"]
    assert who(state, "Aria")["dying"] == 2  # [15] damage while dying


def test_rule_18_an_unconscious_creature_takes_no_actions_or_reactions(tmp_path):
    """pf2-combat.txt [18]: no actions, no reactions, even at full HP by the condition."""
    state = play(tmp_path, "condition Aria unconscious", "act Aria Stride", "react Aria Shield")
    assert refused(state, 2) == "Aria cannot act: unconscious [18]"
    assert refused(state, 3) == "Aria cannot react: unconscious [18]"
    assert who(state, "Aria")["actions"][0] == 0
    assert who(state, "Aria")["reaction"] is False


# [19] grabbed, restrained, immobilized ----------------------------------------------------


def test_rule_19_grabbed_refuses_move_actions_but_not_manipulate(tmp_path):
    """pf2-combat.txt [19]: grabbed is off-guard and immobilized; nothing more."""
    state = play(
        tmp_path,
        "condition Aria grabbed",
        "act Aria Stride",
        "act Aria Step",
        "act Aria move",
        "act Aria Interact",
        "next",
        "strike Ogre Aria reaction",
        "dice 6",
        "dice 1",
    )
    for line in (2, 3, 4):
        assert refused(state, line).startswith("Aria is grabbed: immobilized, no move actions")
    assert "Aria spends 1 action(s): Interact" in " ".join(state["log"])
    assert "vs AC 16 (AC 18 -2): success" in " ".join(state["log"])


def test_rule_19_restrained_refuses_attacks_and_manipulate_but_not_escape(tmp_path):
    """pf2-combat.txt [19]: restrained: no attack or manipulate actions but Escape."""
    state = play(
        tmp_path,
        "condition Aria restrained",
        "act Aria Interact",
        "act Aria Grapple attack",
        "strike Aria Ogre",
        "act Aria Escape attack",
        "act Aria Stride",
    )
    assert "no manipulate actions" in refused(state, 2)
    assert "no attacks" in refused(state, 3)
    assert "no attacks" in refused(state, 4)
    assert refused(state, 5) == ""
    assert "no move actions" in refused(state, 6)


def test_rule_19_immobilized_alone_refuses_a_move_action(tmp_path):
    """pf2-combat.txt [19]: immobilized (grabbed's half) stops moving."""
    state = play(
        tmp_path,
        "condition Aria immobilized",
        "act Aria Leap",
        "act Aria Climb cost=2",
        "act Aria Interact",
    )
    assert "no move actions" in refused(state, 2)
    assert "no move actions" in refused(state, 3)
    assert who(state, "Aria")["actions"][0] == 2


# [24] Sustain --------------------------------------------------------------------------


def test_rule_24_an_effect_sustained_to_its_limit_then_ends(tmp_path):
    """pf2-combat.txt [24]: each Sustain extends it to the end of the maker's following turn,
    up to the effect's own limit (3 rounds: its own round and two Sustains)."""
    state = play(
        tmp_path,
        "effect Ogre Glow until=end of=Aria",
        "next",
        "next",
        "next",
        "sustain Aria Ogre Glow limit=3",
        "next",
        "next",
        "next",
        "sustain Aria Ogre Glow limit=3",
        "next",
        "next",
        "next",
        "sustain Aria Ogre Glow limit=3",
        *["next"] * 4,
    )
    assert "3 rounds in all, the most it lasts [24]" in refused(state, 13)
    assert ended_at(state, "Glow") == "round 4, 15: Aria's turn"


def test_rule_24_sustain_is_on_the_makers_turn_and_of_its_own_effect(tmp_path):
    """pf2-combat.txt [24]: the maker spends an action on its turn; an effect not made as a
    sustained one by it is not its to sustain."""
    state = play(
        tmp_path,
        "effect Ogre Glow until=end of=Bram",
        "sustain Aria Ogre Glow",
        "next",
        "effect Ogre Fog until=end of=Aria",
        "sustain Aria Ogre Fog",
    )
    assert "is not sustained by Aria" in refused(state, 2)
    assert refused(state, 5) == "Aria cannot act: it is Bram's turn"


def test_rule_24_an_effect_not_sustained_ends(tmp_path):
    """pf2-combat.txt [24]: not Sustained, it ends with the maker's next turn."""
    state = play(tmp_path, "effect Ogre Glow until=end of=Aria", *["next"] * 4)
    assert ended_at(state, "Glow") == "round 2, 15: Aria's turn"


# [26] Hero Points ----------------------------------------------------------------------


def test_rule_26_a_hero_point_rerolls_a_strike_and_the_new_result_stands(tmp_path):
    """pf2-combat.txt [26]: 1 Hero Point, the check rerolled, the new result taken even worse."""
    state = play(tmp_path, "strike Aria Ogre", "dice 20", "dice 8", "hero Aria", "dice 1")
    assert who(state, "Ogre")["hp"] == 50
    assert who(state, "Aria")["hero_points"] == 1
    assert "d20 1 +7 = 8 vs AC 17: critical failure" in state["log"][-1]


def test_rule_26_a_dying_creature_that_would_die_spends_all_its_hero_points(tmp_path):
    """pf2-combat.txt [26]: when it would die, all its Hero Points: no longer dying, 0 HP,
    no wounded from it."""
    state = play(tmp_path, "next", "next", "damage Aria 20 crit", "damage Aria 5 crit", "hero Aria")
    aria = who(state, "Aria")
    assert (aria["hp"], aria["dying"], aria["wounded"], aria["hero_points"]) == (0, 0, 0, 0)
    assert aria["state"] != "dead"


# [13] [15] [25] [22] ---------------------------------------------------------------------


def test_rule_13_a_critically_failed_basic_save_knocks_out_at_dying_2(tmp_path):
    """pf2-combat.txt [13], [9], [15]: double damage, dying 2, then +2 from another."""
    state = play(
        tmp_path,
        "damage Aria 18",
        "save Aria ref dc=30 basic=2d6",
        "dice 2",
        "dice 1 1",
        "save Aria ref dc=30 basic=1d6",
        "dice 2",
        "dice 1",
    )
    assert "dying 2 (2 from a critical) [13]" in " ".join(state["log"])
    assert "Aria's dying 2 -> 4 (damage while at 0 HP) [15]" in state["log"]
    assert who(state, "Aria")["state"] == "dead"


def test_rule_25_persistent_damage_of_a_type_keeps_the_higher_amount(tmp_path):
    """pf2-combat.txt [25]: the same type does not stack; another type does."""
    state = play(
        tmp_path,
        "persistent Aria fire 1d6",
        "persistent Aria fire 3",
        "persistent Aria fire 4",
        "persistent Aria bleed 2",
    )
    assert "Aria's persistent fire 1d6 stays: 3 is not higher [25]" in state["log"]
    conditions = who(state, "Aria")["conditions"]
    assert "persistent fire 4" in conditions and "persistent bleed 2" in conditions


def test_rule_22_delaying_takes_persistent_damage_and_the_return_moves_it_for_good(tmp_path):
    """pf2-combat.txt [22], [25]: harm at the end of its turn comes as it Delays."""
    state = play(
        tmp_path,
        "persistent Aria fire 2d6",
        "delay Aria",
        "dice 3 3",
        "dice 2",
        "next",
        "return Aria",
    )
    assert who(state, "Aria")["hp"] == 14
    assert [e["who"] for e in state["order"]] == [["Bram"], ["Ogre"], ["Aria"]]
    assert state["turn"] == ["Aria"]


# [16] [17] between fights ----------------------------------------------------------------


def _turnlight(*args: str, stdin: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout + done.stderr


def test_rule_16_17_a_campaign_carries_wounded_doomed_and_dying(tmp_path):
    """pf2-combat.txt [16], [17]: wounded and doomed outlast the fight (docs/campaign.md); a
    night's rest lowers doomed by 1; dying is carried and refuses a rest."""
    db = str(tmp_path / "c.db")
    party, foes = tmp_path / "party.toml", tmp_path / "foes.toml"
    party.write_text(
        'ruleset = "pf2"\nname = "P"\n'
        + ENCOUNTER.split("[options]")[1].split('end = "gm"\n', 1)[1]
    )
    foes.write_text('ruleset = "pf2"\nname = "F"\nteams = ["Party", "Foes"]\n' + OGRE)
    _turnlight("campaign", "new", "Moor", "--ruleset", "pf2", "--party", str(party), "--db", db)
    fight = [
        "play",
        "--no-board",
        "--no-screen",
        "--campaign",
        "Moor",
        "--encounter",
        str(foes),
        "--db",
        db,
        "--seed",
        "3",
    ]
    _turnlight(
        *fight,
        stdin="initiative\ndamage Aria 25\nheal Aria 5\ncondition Bram doomed 1\nfinish Party\n",
    )
    shown = _turnlight("campaign", "show", "Moor", "--db", db)
    assert "Aria: hp_now=5 wounded=1 doomed=0 dying=0" in shown
    assert "Bram: hp_now=20 wounded=0 doomed=1 dying=0" in shown
    _turnlight("campaign", "rest", "Moor", "night", "--db", db)
    rested = _turnlight("campaign", "show", "Moor", "--db", db)
    assert "Bram: hp_now=20 wounded=0 doomed=0" in rested
    _turnlight(*fight, stdin="initiative\ndamage Aria 10\nfinish Foes\n")
    assert "Aria: hp_now=0 wounded=1 doomed=0 dying=2" in _turnlight(
        "campaign", "show", "Moor", "--db", db
    )
    assert "Aria is dying" in _turnlight("campaign", "rest", "Moor", "night", "--db", db)


# Findings ------------------------------------------------------------------------------


def test_finding_1_rule_24_a_sustain_that_extends_nothing_is_refused(tmp_path):
    """pf2-combat.txt [24]: a Sustain extends the effect to the end of the maker's following
    turn. On the turn the effect was put on, or a second time in one turn, it already lasts
    that long: the action would extend nothing, yet it was spent and counted toward the
    limit (the effect, limit=3, ended a round early)."""
    state = play(
        tmp_path,
        "effect Ogre Glow until=end of=Aria",
        "sustain Aria Ogre Glow",
        "next",
        "next",
        "next",
        "sustain Aria Ogre Glow limit=3",
        "sustain Aria Ogre Glow limit=3",
        "next",
        "next",
        "next",
        "sustain Aria Ogre Glow limit=3",
        *["next"] * 4,
    )
    assert "already lasts to the end of Aria's next turn" in refused(state, 2)
    assert "already lasts to the end of Aria's next turn" in refused(state, 7)
    assert refused(state, 11) == ""
    assert ended_at(state, "Glow") == "round 4, 15: Aria's turn"


def test_finding_2_rule_26_a_hero_point_rerolls_a_flat_check_and_a_retch(tmp_path):
    """pf2-combat.txt [26]: a Hero Point rerolls "a check"; a flat check [10] is one, and so
    is retching's Fortitude save [19]. `hero` after either was refused "the last action was
    no check of its"."""
    state = play(tmp_path, "flat Aria dc=11", "dice 3", "hero Aria", "dice 15")
    assert refused(state, 3) == ""
    assert "Aria's flat check: d20 15 vs DC 11: success [10]" in state["log"]
    assert who(state, "Aria")["hero_points"] == 1
    state = play(
        tmp_path, "condition Aria sickened 2", "retch Aria dc=15", "dice 3", "hero Aria", "dice 20"
    )
    assert refused(state, 4) == ""
    assert "sickened" not in " ".join(who(state, "Aria")["conditions"])
    assert who(state, "Aria")["actions"][0] == 2  # the retch's action spent once


def test_finding_3_rule_26_knocked_out_by_its_own_save_a_hero_point_rerolls_it(tmp_path):
    """pf2-combat.txt [26]: all Hero Points go "when it would die, or at the start of its turn
    while dying". Knocked out (dying 2, not dead) by its own save in the middle of its turn,
    `hero` spent both points on the dying use instead of rerolling the save."""
    state = play(
        tmp_path,
        "damage Aria 15",
        "save Aria ref dc=20 basic=2d6",
        "dice 2",
        "dice 6 6",
        "hero Aria",
        "dice 20",
        "dice 6 6",
    )
    aria = who(state, "Aria")
    assert refused(state, 6) == ""
    assert (aria["hp"], aria["dying"], aria["hero_points"]) == (5, 0, 1)
    assert aria["state"] == "up"


def test_finding_4_rule_22_delay_ends_only_what_would_end_during_its_turn(tmp_path):
    """pf2-combat.txt [22], [5](a): as it Delays, the effects that would end during its turn
    end. One put on during this turn `until=end` lasts to the end of its *next* turn (it
    does after `next`), yet it ended as the creature Delayed."""
    state = play(tmp_path, "effect Aria Haste until=end", "delay Aria", "next", "next")
    assert ended_at(state, "Haste") == "never"  # round 2: its turn, lost delaying, begun
    state = play(tmp_path, "effect Aria Haste until=end", "delay Aria", "next", "next", "next")
    assert ended_at(state, "Haste") == "round 2, 15: Aria's turn"


def test_finding_5_rule_19_a_restrained_creature_cannot_trigger_a_readied_strike(tmp_path):
    """pf2-combat.txt [19], [21]: restrained, no attack but to Escape, immobilized no move:
    `strike ... readied` is refused, but `trigger` took a readied "Strike ..." (and
    "Stride ...") while restrained."""
    state = play(
        tmp_path,
        "ready Aria Strike when the ogre comes",
        "condition Aria restrained",
        "next",
        "trigger Aria",
    )
    assert "no attacks" in refused(state, 4)
    assert who(state, "Aria")["reaction"] is True
    state = play(
        tmp_path,
        "ready Aria Stride when the ogre comes",
        "condition Aria grabbed",
        "next",
        "trigger Aria",
    )
    assert "no move actions" in refused(state, 4)
