"""Encounter files, exact odds and scoring: what the game master feeds in and reads out.

Rules source: korxsol-players-guide.txt (HIT INSTANCE, DAMAGE INSTANCE; COMBAT MOVES: a
Solighter carries no more than three distinct combat moves).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from korxsol_fixtures import toml

from host.rulesets.korxsol import encounter_schema as encounter
from host.rulesets.korxsol import exact_odds
from host.rulesets.korxsol.encounter_schema import EncounterError


def test_the_bundled_example_encounter_loads_from_the_package():
    enc = encounter.load(encounter.example_path())
    assert len(enc.solighters) == 4 and enc.teams == ("Dawn", "Dusk")
    assert all(1 <= len(s.moves) <= 3 for s in enc.solighters)


def _error(text: str) -> str:
    with pytest.raises(EncounterError) as err:
        encounter.parse(text, "bad.toml")
    return str(err.value)


def test_bad_toml_is_rejected_with_file_and_line():
    text = '[encounter]\nname = "x"\n[[team]]\nname = = "A"\n'
    assert _error(text).startswith("bad.toml:4: not valid TOML")


def test_an_out_of_range_attribute_names_its_line():
    text = toml([{"name": "Ash"}, {"name": "Bo", "team": "B", "power": 9}])
    line = text.splitlines().index("power = 9") + 1
    assert (
        _error(text) == f"bad.toml:{line}: solighter 'Bo': power must be a whole number 0..7, not 9"
    )


def test_an_unknown_key_names_its_line():
    text = toml([{"name": "Ash", "strength": 3}, {"name": "Bo", "team": "B"}])
    line = text.splitlines().index("strength = 3") + 1
    assert _error(text).startswith(f"bad.toml:{line}: solighter 'Ash': unknown key 'strength'")


def test_an_unknown_move_is_rejected():
    text = toml([{"name": "Ash", "moves": ["Fireball"]}, {"name": "Bo", "team": "B"}])
    assert "unknown move 'Fireball'" in _error(text)


def test_more_than_three_combat_moves_are_rejected():
    moves = [{"name": n, "type": "buff"} for n in "ABCD"]
    text = toml([{"name": "Ash", "moves": list("ABCD")}, {"name": "Bo", "team": "B"}], moves)
    assert "at most 3 moves" in _error(text)


def test_a_missing_file_is_a_one_line_error(tmp_path):
    with pytest.raises(EncounterError, match="cannot read"):
        encounter.load(tmp_path / "nope.toml")


# ---------------------------------------------------------------- exact odds
def _brute(hit_dice, agility_dice, k=1):
    """Every face combination, counted by hand."""
    success = set(range(3 - k + 1, 4))
    wins = total = 0
    for faces in itertools.product((1, 2, 3), repeat=hit_dice + agility_dice):
        h = sum(f in success for f in faces[:hit_dice])
        a = sum(f in success for f in faces[hit_dice:])
        wins += h >= a
        total += 1
    return Fraction(wins, total)


@pytest.mark.parametrize(("h", "a", "k"), [(1, 1, 1), (2, 3, 1), (3, 2, 2), (4, 3, 1)])
def test_the_chance_to_hit_matches_counting_every_face(h, a, k):
    assert exact_odds.hit_chance(h, a, k) == _brute(h, a, k)


def test_the_damage_distribution_matches_counting_every_face():
    base, power, block = 2, 2, 3
    counts: dict[int, int] = {}
    for faces in itertools.product((1, 2, 3), repeat=power + block):
        p = sum(f == 3 for f in faces[:power])
        b = sum(f == 3 for f in faces[power:])
        d = max(0, base + p - b) + 1
        counts[d] = counts.get(d, 0) + 1
    expected = {d: Fraction(c, 3 ** (power + block)) for d, c in counts.items()}
    assert exact_odds.damage_distribution(base, power, block, unblockable=1) == expected
    assert sum(expected.values()) == 1


def test_seven_against_seven_is_exact_and_sums_to_one():
    o = exact_odds.attack_odds(7, 7, 2, 7, 7, 0)
    assert sum(o.damage.values()) == 1
    assert o.hit.denominator == 3**14 or (3**14) % o.hit.denominator == 0


def test_charge_on_an_item_is_refused_with_its_line():
    # CHARGE is a combat move's indicator (it replaces the next turn's combat): an item or
    # an artifact cannot carry it.
    items = [{"name": "Bomb", "kind": "consumable", "hit": 1, "charge": True}]
    text = toml([{"name": "Ash", "items": ["Bomb"]}, {"name": "Bo", "team": "B"}], (), items)
    line = text.splitlines().index("charge = true") + 1
    assert _error(text).startswith(f"bad.toml:{line}: item 'Bomb': charge is a combat move's")


def test_more_timed_moves_items_and_artifacts_than_cooldown_ids_are_refused():
    # COOLDOWN TIMER: every move, item and active artifact with a cooldown needs a timer of
    # its own, and a character has seven (ids 1..7).
    moves = [{"name": f"M{i}", "type": "buff", "cooldown": 1} for i in range(3)]
    items = [{"name": f"I{i}", "kind": "tool", "cooldown": 1} for i in range(5)]
    ash = {"name": "Ash", "moves": ["M0", "M1", "M2"], "inventory": 5}
    ash["items"] = [f"I{i}" for i in range(5)]
    text = toml([ash, {"name": "Bo", "team": "B"}], moves, items)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("items = "))
    assert _error(text).startswith(f"bad.toml:{line}: solighter 'Ash': 8 moves, items and")


def test_a_resist_success_condition_cannot_give_damage():
    # CONDITION: a successful RESIST_Roll is the defender's; it has no attack to add to.
    moves = [{"name": "Guard", "type": "buff", "condition": ["resist_success", "damage", 1]}]
    text = toml([{"name": "Ash", "moves": ["Guard"]}, {"name": "Bo", "team": "B"}], moves)
    assert "resist_success gains armor, kor or sol" in _error(text)


@pytest.mark.parametrize(
    ("cond", "damage", "why"),
    [
        (["knockout", "damage", 2], 2, "knockout gains armor, kor or sol: its target is down"),
        (["hit", "damage", 2], None, "gains damage only with a damage instance (damage = N"),
        (["power_success", "damage", 1], None, "gains damage only with a damage instance"),
    ],
)
def test_a_condition_worth_damage_is_refused_where_no_damage_can_follow(cond, damage, why):
    # korxsol-players-guide.txt, CONDITION and DAMAGE INSTANCE: damage gained from a
    # condition adds to a damage instance; a knocked-out target takes no more, and a move
    # with no damage instance has none to add to. Refused rather than silently ignored.
    move = {"name": "Odd", "type": "melee", "hit": 1, "condition": cond}
    if damage is not None:
        move["damage"] = damage
    text = toml([{"name": "Ash", "moves": ["Odd"]}, {"name": "Bo", "team": "B"}], [move])
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("condition = "))
    err = _error(text)
    assert err.startswith(f"bad.toml:{line}: move 'Odd': ") and why in err


@pytest.mark.parametrize(
    ("kind", "row"),
    [
        ("move", {"name": "Odd", "type": "buff"}),
        ("move", {"name": "Odd", "type": "buff", "damage": 2}),
        ("item", {"name": "Odd", "kind": "tool"}),
    ],
)
def test_an_exchange_for_damage_is_refused_where_there_is_no_damage_instance(kind, row):
    # korxsol-players-guide.txt, EXCHANGE and DAMAGE INSTANCE: damage bought with an
    # exchange adds to a damage instance; a buff, or an item with no damage, has none.
    row = dict(row, exchange=["armor", "damage", 1])
    ash = {"name": "Ash", "moves": ["Odd"]} if kind == "move" else {"name": "Ash"}
    if kind == "item":
        ash["items"] = ["Odd"]
    rows = {"move": (), "item": ()}
    rows[kind] = (row,)
    text = toml([ash, {"name": "Bo", "team": "B"}], rows["move"], rows["item"])
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("exchange = "))
    err = _error(text)
    assert err.startswith(f"bad.toml:{line}: {kind} 'Odd': exchange gives damage only")


def test_wall_and_buster_are_read_and_never_silently_ignored():
    # korxsol-players-guide.txt:174 WALL and :181 BUSTER place and remove obstructions on
    # the map, which the engine does not hold. They were refused as unknown keys until the
    # game master could name who stands behind cover or a wall (#20); now an encounter
    # names them and each use says in the log what the map must show.
    from korxsol_fixtures import session

    for key, said in (("wall", "Bulwark places a wall"), ("buster", "Bulwark busts any")):
        moves = [{"name": "Bulwark", "type": "buff", key: True}]
        s = session([{"name": "Ash", "moves": ["Bulwark"]}, {"name": "Bo", "team": "B"}], moves)
        assert any(line.startswith(said) for line in s.execute("attack Ash Bulwark"))


def test_brutalitys_reroll_is_counted_exactly_in_the_damage_odds():
    # Brutality: the axe may roll the POWER_Roll again; the second roll stands.
    base, power, block, below = 1, 2, 1, 1
    counts: dict[int, int] = {}
    for faces in itertools.product((1, 2, 3), repeat=2 * power + block):
        p = sum(f == 3 for f in faces[:power])
        if p < below:
            p = sum(f == 3 for f in faces[power : 2 * power])
        b = sum(f == 3 for f in faces[2 * power :])
        d = max(0, base + p - b)
        counts[d] = counts.get(d, 0) + 1
    expected = {d: Fraction(c, 3 ** (2 * power + block)) for d, c in counts.items()}
    assert exact_odds.damage_distribution(base, power, block, reroll_below=below) == expected


def _odds_session(**ash):
    from korxsol_fixtures import STRIKE, session

    shot = dict(STRIKE, name="Shot", type="range")
    fighters = [
        dict({"name": "Ash", "team": "A", "moves": ["Shot"]}, **ash),
        {"name": "Bo", "team": "B"},
    ]
    return session(fighters, (shot,))


def test_the_odds_count_full_draw_and_the_brutality_reroll():
    # Full Draw adds the unused action points to the damage; Brutality rerolls the power.
    from host.rulesets.korxsol.language import parse

    s = _odds_session(weapon="bow", actions=3)
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Shot Bo fulldraw"))
    assert o.damage == exact_odds.damage_distribution(2 + 3, 2, 1)
    s = _odds_session(weapon="axe")
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Shot Bo reroll"))
    assert o.damage == exact_odds.damage_distribution(2, 2, 1, reroll_below=1)
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Shot bo resist_sol=bo dodge_sol=BO"))
    assert o.damage == exact_odds.damage_distribution(2, 2, 1 + 3)
    assert o.hit == exact_odds.hit_chance(2, 2 + 3)
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Shot Bo cornered=bo"))
    assert o.hit == 1


def test_the_encounters_success_faces_reach_the_boards_own_rolls() -> None:
    # korxsol-players-guide.txt, "Components": the action die's success faces are not
    # named there, so they are an encounter option; the board counts with the same ones.
    from korxsol_fixtures import toml

    from host.rulesets.korxsol import encounter_schema as encounter
    from host.rulesets.korxsol.engine import Game
    from shared import codec
    from shared import events as ev
    from shared.descriptor_pack import encoded
    from shared.host_only import make_event
    from shared.state import GameState

    text = toml([{"name": "Ash", "label": "Ash"}, {"name": "Bo", "label": "Bo", "team": "B"}])
    text = text.replace("success_faces = [3]", "success_faces = [2, 3]")
    game = Game(encounter.parse(text))
    board = GameState()  # what the board gets: the game's descriptor, then its state
    described = encoded(game.state.rules)
    board.rules.load(described, 0, len(described))
    codec.decode(codec.encode(game.state), board)
    assert board.rules.success_mask == 0b110
    ev.apply_event(board, make_event(ev.ROLL_ACTION, 0, 1, (1, 2, 3)))
    assert board.roll.successes == 2


def _with_passive(own: dict, passive: dict) -> str:
    ash = dict({"name": "Ash", "artifacts": ["Charm"]}, **own)
    charm = {"name": "Charm", "kind": "passive", "passive": passive}
    return toml([ash, {"name": "Bo", "team": "B"}], (), (), [charm])


@pytest.mark.parametrize(
    ("own", "passive", "what"),
    [
        ({"actions": 2}, {"resistance": 1, "actions": -3}, "action points 2 - 3 = -1, not 1..7"),
        ({"actions": 6, "weapon": "sword"}, {"actions": 1}, "6 + 1 (Tactician) + 1 = 8"),
        ({"kor": 9}, {"kor": -9}, "KOR 9 - 9 = 0, not 1..255"),
        ({}, {"sol": -5}, "SOL 3 - 5 = -2, not 0 or more"),
        ({"armor": 2}, {"armor": -9}, "armor 2 - 9 = -7, not 0 or more"),
        ({"agility": 1}, {"agility": -2}, "agility 1 - 2 = -1, not 0 or more"),
    ],
)
def test_a_passive_artifact_cannot_take_a_fighter_past_its_limits(own, passive, what):
    # korxsol-players-guide.txt, ARTIFACTS (Passive) and Traits/Attributes: a passive
    # artifact is always on and changes the Solighter's attributes or traits, so what counts
    # is the sum with the fighter's own value. A fighter starts standing (KOR 0 is a
    # collapse), with the SOL points, armor and attributes it can actually hold (never
    # negative) and the action points the board holds after Tactician (1..7).
    text = _with_passive(own, passive)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("artifacts = "))
    err = _error(text)
    assert err.startswith(f"bad.toml:{line}: solighter 'Ash': with the passive of Charm,")
    assert what in err and "\n" not in err


def test_a_fighter_with_no_action_points_at_all_is_refused_at_its_actions_line():
    # Traits, ACTIONS: the action points a player spends on a turn; the board holds 1..7.
    text = toml([{"name": "Ash", "actions": 0}, {"name": "Bo", "team": "B"}])
    line = text.splitlines().index("actions = 0") + 1
    assert _error(text) == f"bad.toml:{line}: solighter 'Ash': action points 0, not 1..7"


def test_a_passive_artifact_within_the_limits_is_added_to_the_fighter():
    # ARTIFACTS (Passive): the changes are always active, from the game's start.
    from host.rulesets.korxsol.engine import Game

    text = _with_passive({"kor": 9, "armor": 2, "actions": 2}, {"kor": -8, "armor": -2, "sol": -3})
    game = Game(encounter.parse(text, "ok.toml"))
    ash = game.fighter("Ash")
    assert (game.slot(ash).health_max, ash.armor, ash.sol, game.slot(ash).actions_max) == (
        1,
        0,
        0,
        2,
    )


def test_a_saved_game_whose_encounter_is_now_refused_resumes_with_a_one_line_error(tmp_path):
    # ARTIFACTS (Passive) and KOR: a game saved before the passive sums were checked holds
    # its encounter text; resuming it names what is wrong instead of failing with a trace.
    from host.core.journal import Journal
    from host.core.session import resume
    from host.rulesets.korxsol.rolls import IllegalAction

    journal = Journal(tmp_path / "j.sqlite")
    text = _with_passive({"kor": 9}, {"kor": -9})
    game = journal.new_game("s", "test", "old.toml", text, 1, 2)
    journal.append(game, "action", {"text": "order Ash Bo", "rolls": []})
    with pytest.raises(IllegalAction) as err:
        resume(journal, game)
    message = str(err.value)
    assert "\n" not in message and "cannot be resumed: its encounter is refused now" in message
    assert "KOR 9 - 9 = 0" in message


def test_odds_cover_an_item_and_an_artifact_that_strike():
    # korxsol-players-guide.txt, ITEMS and ARTIFACTS: an item (or an active artifact) that
    # carries a hit and a damage instance strikes like a combat move, so its odds are the
    # same HIT INSTANCE against AGILITY and POWER against RESIST and armor.
    from korxsol_fixtures import session

    from host.rulesets.korxsol.language import parse
    from host.rulesets.korxsol.rolls import IllegalAction

    bomb = {"name": "Bomb", "kind": "consumable", "hit": 2, "damage": 3}
    rod = {"name": "Rod", "kind": "active", "cooldown": 2, "hit": 1, "damage": 1}
    tonic = {"name": "Tonic", "kind": "consumable", "heal": 2}
    ash = {"name": "Ash", "items": ["Bomb", "Tonic"], "artifacts": ["Rod"]}
    s = session([ash, {"name": "Bo", "team": "B"}], (), (bomb, tonic), (rod,))
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Bomb Bo"))
    assert o.hit == exact_odds.hit_chance(2, 2) and o.damage == exact_odds.damage_distribution(
        3, 2, 1
    )
    o, _ = exact_odds.for_move(s.game, parse("odds Ash Rod Bo"))
    assert o.hit == exact_odds.hit_chance(1, 2) and o.damage == exact_odds.damage_distribution(
        1, 2, 1
    )
    with pytest.raises(IllegalAction, match="Tonic does not strike"):
        exact_odds.for_move(s.game, parse("odds Ash Tonic Bo"))
    assert exact_odds.before_attack(s.game, "item Ash Bomb Bo")[0].startswith("odds vs Bo: ")


def test_odds_drop_the_grappled_penalty_when_the_grappler_is_also_a_target():
    # korxsol-players-guide.txt, GRAPPLE (Attacked While Grappling or Grappled): targeting
    # the grappler ends the grapple at once; only when the held creature alone is targeted
    # does it dodge with Agility -3. The odds follow the engine, which lets go first.
    from korxsol_fixtures import session, slot

    from host.rulesets.korxsol.device import F_GRAPPLED
    from host.rulesets.korxsol.language import parse

    sweep = {"name": "Sweep", "type": "melee", "hit": 2, "damage": 1, "targets": 2}
    fighters = [
        {"name": "Ash", "moves": ["Sweep"]},
        {"name": "Bo", "team": "B", "agility": 4},
        {"name": "Cy", "team": "B"},
    ]
    s = session(fighters, (sweep,))
    bo, cy = s.game.fighter("Bo"), s.game.fighter("Cy")
    cy.grappling, bo.grappled_by = bo.index, cy.index
    slot(s, "Bo").flags |= F_GRAPPLED
    alone, _ = exact_odds.for_move(s.game, parse("odds Ash Sweep Bo"))
    assert alone.hit == exact_odds.hit_chance(2, 4 - 3)
    both, _ = exact_odds.for_move(s.game, parse("odds Ash Sweep Bo Cy"))
    assert both.hit == exact_odds.hit_chance(2, 4)
    lines = exact_odds.before_attack(s.game, "attack Ash Sweep Bo Cy")
    assert lines[0].startswith("odds vs Bo: ") and f"{float(both.hit):.1%}" in lines[0]
    lines = s.execute("odds Ash Sweep Bo Cy")
    assert sum(line.startswith("chance to hit") for line in lines) == 2


def _old_game(tmp_path, lines, rules=2, **bo):
    """A journalled game as an older turnlight (rules v`rules`) would have left it."""
    from korxsol_fixtures import session

    from host.core.journal import Journal

    journal = Journal(tmp_path / "j.sqlite")
    ash = {"name": "Ash", "moves": ["Strike"]}
    s = session([ash, dict({"name": "Bo", "team": "B"}, **bo)], journal=journal)
    for line in lines:
        s.execute(line)
    assert s.game_id is not None
    journal.db.execute("UPDATE games SET rules = ? WHERE id = ?", (rules, s.game_id))
    return journal, s


def test_a_game_from_older_rules_that_replays_continues_under_these_and_says_so(tmp_path, capsys):
    # korxsol-players-guide.txt, HOW TO PLAY (ON YOUR TURN, GAME END): a saved game goes
    # on from its last turn; one journalled under older rules that replays the same is
    # resumed with a one-line notice and journalled as played under today's rules.
    from host.core.session import resume
    from host.rulesets.korxsol.engine import RULES_VERSION

    journal, s = _old_game(tmp_path, ["dice hit 3 3", "dice dodge 1 1", "attack Ash Strike Bo"])
    back = resume(journal, s.game_id)
    notice = (
        f"game {s.game_id} was played under rules v2; it replays the same under"
        f" v{RULES_VERSION} and continues under v{RULES_VERSION}"
    )
    assert back.notices == [notice] and back.game.log[-1] == notice
    assert notice in capsys.readouterr().err
    assert (journal.game(s.game_id) or {})["rules"] == RULES_VERSION
    assert back.game.snapshot() == s.game.snapshot()
    assert resume(journal, s.game_id).notices == []  # now it is today's


def test_a_finished_game_from_older_rules_that_ends_otherwise_now_is_refused(tmp_path):
    # korxsol-players-guide.txt, GAME END (a side whose KOR is all 0 has lost): a replay
    # that no longer gives the recorded winner is not the same game, so it is not resumed.
    from host.core.session import resume
    from host.rulesets.korxsol.rolls import IllegalAction

    lines = ["dice hit 3 3", "dice dodge 1 1", "attack Ash Strike Bo"]
    journal, s = _old_game(tmp_path, lines, kor=1)
    assert s.game.winner is not None
    journal.db.execute("UPDATE games SET winner = 'B' WHERE id = ?", (s.game_id,))
    with pytest.raises(IllegalAction) as err:
        resume(journal, s.game_id)
    message = str(err.value)
    assert "\n" not in message and "no longer ends as it did" in message
    assert (journal.game(s.game_id) or {})["rules"] == 2
