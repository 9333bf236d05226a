"""Terrain without a map: what a fighter enters (`terrain NAME KIND`) and when it bites, the
classes that walk over it, and the reach of an attack as the game master states it (cover,
walls, buster, a move's Movement) (host/rulesets/korxsol/terrain.py).

One test per korxsol rule, each citing korxsol-players-guide.txt by line. Dice are
entered face by face: with success_faces = [3], a 3 succeeds and a 1 fails; a chance
flip is 1 for heads.
"""

from __future__ import annotations

import pytest
from korxsol_fixtures import ASH, BO, STRIKE, attack, duel, enter, fighter, hits, session, slot

from host.core.journal import Journal
from host.core.session import resume
from host.rulesets.korxsol import device as korxsol_device
from host.rulesets.korxsol.board_presses import board_action
from host.rulesets.korxsol.device import (
    BURN,
    F_PINNED,
    FEAR,
    TERRAIN,
    TERRAIN_GROUND,
    TERRAIN_LAVA,
    TERRAIN_WATER,
)
from host.rulesets.korxsol.rolls import IllegalAction
from host.rulesets.korxsol.ruleset import RULESET
from host.rulesets.korxsol.terrain import TERRAINS
from shared import codec, descriptor_pack
from shared import events as ev
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.state import GameState


def test_lava_burns_on_heads_as_it_is_entered():
    # korxsol-players-guide.txt:248 L.1 (Lava): entering flips a chance token; heads gives
    # one stack of burn. Standing on it is not entering again.
    s = duel()
    enter(s, "chance", 1)
    s.execute("terrain Ash lava")
    assert slot(s, "Ash").counters[BURN] == 1
    enter(s, "chance", 0)
    s.execute("terrain Bo lava")
    assert slot(s, "Bo").counters[BURN] == 0
    s.execute("end")
    s.execute("end")
    assert slot(s, "Ash").counters[BURN] == 1 and fighter(s, "Ash").terrain == "lava"


def test_inner_fire_steps_over_lava_without_a_flip():
    # korxsol-players-guide.txt:68 Inner Fire and :248 L.1: fire classes step over lava
    # without triggering it.
    s = duel(ash={"elements": ["fire"]})
    lines = s.execute("terrain Ash lava")
    assert slot(s, "Ash").counters[BURN] == 0 and not s.done[-1].rolls
    assert any("Inner Fire" in line for line in lines)


def test_water_costs_an_action_point_on_entering_and_at_the_start_of_a_turn_in_it():
    # korxsol-players-guide.txt:253 W.1 (Water): entering or starting in water takes 1
    # action point. Entered on another's turn, the point goes when its own turn starts there.
    s = duel(ash={"actions": 3}, bo={"actions": 3})
    s.execute("terrain Ash water")
    assert slot(s, "Ash").actions == 2
    s.execute("terrain Bo water")  # Ash's turn: Bo's points refill before they count
    assert slot(s, "Bo").actions == 3
    s.execute("end")
    assert slot(s, "Bo").actions == 2
    s.execute("end")
    assert slot(s, "Ash").actions == 2  # Ash started in the water


def test_cold_feet_walks_over_water_as_over_ground():
    # korxsol-players-guide.txt:74 Cold Feet and :253 W.1: ice classes walk over water as
    # over normal tiles, losing no action point.
    s = duel(ash={"elements": ["ice"], "actions": 3})
    s.execute("terrain Ash water")
    s.execute("end")
    s.execute("end")
    assert slot(s, "Ash").actions == 3


def test_ice_slides_and_only_an_ice_class_may_choose_not_to():
    # korxsol-players-guide.txt:250-251 I.1 (Ice, Sliding) and :74 Cold Feet: entering ice
    # slides on until other terrain; an ice class may slide or walk.
    s = duel(bo={"elements": ["ice"]})
    lines = s.execute("terrain Ash ice")
    assert any("slides across the ice" in line for line in lines)
    with pytest.raises(IllegalAction, match="only ice classes can"):
        s.execute("terrain Ash ice slide=no")
    lines = s.execute("terrain Bo ice slide=no")
    assert any("no slide" in line for line in lines)
    with pytest.raises(IllegalAction, match="slide= is for entering ice"):
        s.execute("terrain Bo water slide=yes")


def test_terrain_before_the_fight_places_without_an_effect():
    # korxsol-players-guide.txt:279 (set-up places the tokens) and :253 W.1 (starting in
    # water): a token placed in water is not entering; its first turn there costs the point.
    s = duel(ash={"actions": 3}, order=False)
    s.execute("terrain Ash water")
    s.execute("terrain Bo lava")
    assert not s.done[-1].rolls and slot(s, "Bo").counters[BURN] == 0
    s.execute("order Ash Bo")
    assert slot(s, "Ash").actions == 2


def test_moving_puts_a_fighter_back_on_ground_until_the_game_master_says_otherwise():
    # korxsol-players-guide.txt:287 (Movement: one adjacent space per action point) and
    # :253 W.1: a fighter that has moved out of the water no longer starts its turn in it;
    # being carried moves the held creature too (:208).
    s = duel(ash={"actions": 3}, bo={"actions": 3})
    s.execute("terrain Ash water")
    s.execute("move Ash")
    assert fighter(s, "Ash").terrain == "ground"
    s.execute("end")
    s.execute("end")
    assert slot(s, "Ash").actions == 3
    s.execute("terrain Bo water")
    fighter(s, "Ash").grappling = fighter(s, "Bo").index
    fighter(s, "Bo").grappled_by = fighter(s, "Ash").index
    s.execute("move Ash")
    assert fighter(s, "Bo").terrain == "ground"


def test_a_dodge_and_fears_flight_move_the_fighter_off_its_terrain():
    # korxsol-players-guide.txt:135 (a dodge steps one space out of the area) and :238
    # (fear spends action points moving away): both leave the tile the fighter stood on.
    s = duel(bo={"actions": 3})
    s.execute("terrain Bo water")
    attack(s, "attack Ash Strike Bo", hits(0, 2), hits(1, 2))
    assert fighter(s, "Bo").terrain == "ground"
    s.execute("terrain Bo water")
    slot(s, "Bo").counters[FEAR] = 1
    s.execute("end")  # Bo starts in water (-1), then flees (-1)
    assert slot(s, "Bo").actions == 1 and fighter(s, "Bo").terrain == "ground"


def test_a_knockback_into_water_leaves_the_creature_in_water():
    # korxsol-players-guide.txt:254 (a fall onto water deals no damage) and :253 W.1: the
    # creature knocked into water starts its next turn there.
    shove = dict(STRIKE, name="Shove", damage=0, knockback=True)
    s = duel(ash={"moves": ["Shove"]}, bo={"actions": 3}, moves=(shove,))
    attack(s, "attack Ash Shove Bo kb=Bo:water", hits(1, 2), hits(0, 2), hits(0, 2), [1])
    assert fighter(s, "Bo").terrain == "water"
    s.execute("end")
    assert slot(s, "Bo").actions == 2


def test_terrain_is_journalled_so_undo_redo_and_resume_replay_it(tmp_path):
    # korxsol-players-guide.txt:248 L.1: the lava's flip is a roll like any other, kept
    # with the action; undo, redo and a resumed game give the same burn.
    journal = Journal(tmp_path / "j.sqlite")
    s = session([dict(ASH), dict(BO)], journal=journal)
    enter(s, "chance", 1)
    s.execute("terrain Ash lava")
    s.undo(1)
    assert slot(s, "Ash").counters[BURN] == 0 and fighter(s, "Ash").terrain == "ground"
    s.redo(1)
    assert slot(s, "Ash").counters[BURN] == 1 and fighter(s, "Ash").terrain == "lava"
    back = resume(journal, s.game_id)
    assert back.game.snapshot() == s.game.snapshot()
    assert back.game.snapshot()["fighters"][0]["terrain"] == "lava"


def test_terrain_names_a_known_terrain_and_a_fighter_still_standing():
    # korxsol-players-guide.txt:243-256 PLAYING FIELD (ground, lava, ice, water, shallows)
    # and :41 (a collapsed creature is out): anything else is refused in one line.
    s = session([dict(ASH), dict(BO), dict(BO, name="Cy")])
    with pytest.raises(IllegalAction, match="choose one of ground, shallows, water, lava, ice"):
        s.execute("terrain Ash swamp")
    slot(s, "Bo").health = 1
    attack(s, "attack Ash Strike Bo", hits(2, 2), hits(0, 2), hits(0, 2), hits(0, 1))
    with pytest.raises(IllegalAction, match="Bo has collapsed"):
        s.execute("terrain Bo water")


def test_the_active_fighters_terrain_shows_in_plays_view():
    # korxsol-players-guide.txt:253 W.1: the water the active fighter stands in costs it
    # at its turn's start, so `play` shows where it stands, in the headline and the roster.
    s = duel()
    s.execute("terrain Ash water")
    assert RULESET.headline(s.game)[1].endswith("on water")
    notes = [row.note for row in RULESET.live_roster(s.game).rows]
    assert any("on water" in note for note in notes)
    s.execute("move Ash")
    assert RULESET.headline(s.game)[1] == "Ash's turn (Action Phase), 0 AP"


# ---------------------------------------------------------------- reach: cover, walls, buster
def test_cover_stops_melee_and_debuffs_but_not_range_moves_or_buffs():
    # korxsol-players-guide.txt:96 (melee cannot reach past cover), :98 (a buff can), :100
    # (a range move can), :102 (a debuff cannot). The game master says who is behind it.
    shot = dict(STRIKE, name="Shot", type="range")
    hex_ = {"name": "Hex", "type": "debuff", "cooldown": 1, "modifiers": {"power": -1}}
    s = duel(ash={"moves": ["Strike", "Shot", "Hex"]}, moves=(STRIKE, shot, hex_))
    for line in ("attack Ash Strike Bo cover=Bo", "attack Ash Hex Bo cover=Bo"):
        with pytest.raises(IllegalAction, match="Bo is behind cover: .* cannot reach past it"):
            s.execute(line)
    with pytest.raises(IllegalAction, match="cover=: Ash is not a target of Strike"):
        s.execute("attack Ash Strike Bo cover=Ash")
    lines = attack(s, "attack Ash Shot Bo cover=Bo", hits(0, 2), hits(1, 2))
    assert any("reaches past the cover before Bo" in line for line in lines)


def test_a_wall_stops_every_attack_and_a_buster_removes_cover_and_walls():
    # korxsol-players-guide.txt:174 WALL (attacks cannot go through it; a move with it
    # places one, hit or miss) and :181 BUSTER (ignores and removes cover and walls).
    shot = dict(STRIKE, name="Shot", type="range")
    ram = dict(STRIKE, name="Ram", buster=True)
    raise_ = {"name": "Rampart", "type": "buff", "cooldown": 1, "wall": True}
    s = duel(ash={"moves": ["Shot", "Ram", "Rampart"]}, moves=(STRIKE, shot, ram, raise_))
    with pytest.raises(IllegalAction, match="a wall stands before Bo: nothing goes through"):
        s.execute("attack Ash Shot Bo wall=Bo")
    lines = attack(s, "attack Ash Ram Bo wall=Bo cover=Bo", hits(0, 2), hits(1, 2))
    assert any("Ram busts the cover before Bo" in line for line in lines)
    assert any("Ram busts the wall before Bo" in line for line in lines)
    s.execute("end")
    s.execute("end")
    s.execute("end")
    s.execute("end")
    lines = s.execute("attack Ash Rampart")
    assert any("Rampart places a wall" in line for line in lines)


def test_a_moves_movement_costs_no_action_point_and_not_when_pinned():
    # korxsol-players-guide.txt:142 MOVEMENT (up to X spaces, even after a miss) and :223
    # PIN (a pinned creature cannot use a combat move's movement either).
    lunge = dict(STRIKE, name="Lunge", movement=2)
    s = duel(ash={"moves": ["Lunge"], "actions": 3}, moves=(lunge,))
    s.execute("terrain Ash water")
    slot(s, "Ash").flags |= F_PINNED
    with pytest.raises(IllegalAction, match="Ash is pinned: it cannot use Lunge's Movement"):
        s.execute("attack Ash Lunge Bo moved=1")
    slot(s, "Ash").flags &= ~F_PINNED
    with pytest.raises(IllegalAction, match="moved"):
        s.execute("attack Ash Lunge Bo moved=3")
    lines = attack(s, "attack Ash Lunge Bo moved=2", hits(0, 2), hits(1, 2))  # a miss
    assert any("moves 2 spaces (Lunge's Movement, no action point)" in line for line in lines)
    assert slot(s, "Ash").actions == 2 and fighter(s, "Ash").terrain == "ground"
    with pytest.raises(IllegalAction, match="moved=: Strike has no Movement"):
        duel().execute("attack Ash Strike Bo moved=1")


def test_the_board_shows_the_terrain_each_fighter_stands_on_as_its_terrain_counter():
    # korxsol-players-guide.txt:253 W.1 and :287 (Movement): the board's counters page shows
    # where each fighter stands (issue #20: "the board's current cell can show the terrain the
    # active fighter stands on"); a move takes it back to ground. What the board decodes from
    # the snapshot is what it shows.
    s = duel(ash={"actions": 3}, bo={"actions": 3})
    assert descriptor_pack.names(korxsol_device.descriptor())["counters"][TERRAIN] == "terrain"
    s.execute("terrain Bo water")
    board = GameState()
    codec.decode(codec.encode(s.game.state), board)
    assert board.slots[fighter(s, "Bo").index].counters[TERRAIN] == TERRAIN_WATER
    assert TERRAINS[TERRAIN_WATER] == "water"
    s.execute("end")
    s.execute("move Bo")
    codec.decode(codec.encode(s.game.state), board)
    assert board.slots[fighter(s, "Bo").index].counters[TERRAIN] == TERRAIN_GROUND
    s.execute("terrain Bo lava")
    assert slot(s, "Bo").counters[TERRAIN] == TERRAIN_LAVA
    s.undo(1)
    assert slot(s, "Bo").counters[TERRAIN] == TERRAIN_GROUND


def test_the_boards_counter_keys_cannot_change_the_terrain():
    # The terrain is the game master's to say (`terrain NAME KIND`): a counter key on it is
    # refused with one line, the state left unchanged.
    s = duel()
    s.execute("terrain Ash water")
    with pytest.raises(IllegalAction, match="terrain is the game master's"):
        board_action(s, make_event(ev.COUNTER_UP, NO_SLOT, TERRAIN))
    assert slot(s, "Ash").counters[TERRAIN] == TERRAIN_WATER
