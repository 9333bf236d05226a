"""The shared engine and the host engine agree (issue #10, point 3): the same random legal board
events, fed to shared.events.apply_event on a GameState (an untethered board) and to korxsol through
the generic Session (each event made into korxsol's actions as the tether makes it:
host/board/tether.py board_press, then host/rulesets/korxsol/board_presses.py), leave the same
device state.

The table: four fighters in two teams, with different allowances, whose first round used
moves of cooldown 1 and 3 (so cooldowns are pending and ticking), then frost, fear, a
knockdown and a pin drawn per fighter before the board takes its copy of the host's state
(what the link sends it). Over several rounds the events are next turn, next phase, counter
up and down, action rolls, chance flips, d100, select, and fighters collapsing: the board
has no KOR key, so a collapse is the host's `adjust NAME kor -99` and reaches the board as
the link would carry it (that slot's KOR and its out-of-play flag), after which its skipped
turns and cooldowns run on both sides by their own engines.

Where the two legitimately differ, the generator keeps to what the board can know:
- The last roll (`state.roll`) is not compared: the board shows the dice it rolled, while
  the host queues them for the engine's next roll and shows the rolls its engine made.
- Counter keys press only on fighters still standing: the host refuses to adjust a
  collapsed fighter (a rule only the host can see), the board does not know KOR rules.
- No team loses its last fighter: the host's fight is then over and refuses every turn.
- No terrain and no grapple: water's action point at turn start is a rule only the host
  runs (the board's timing has no terrain), and a grapple needs the engine's rolls.
- Next phase is pressed in any phase: the host takes the board's step too (korxsol's
  `phase`: the Action Phase ends, host/rulesets/korxsol/board_presses.py), and from the last
  phase both end the turn (test_next_phase_in_the_action_phase_agrees).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from korxsol_fixtures import attack, hits, session

from host.board.tether import board_press
from host.core.session import Session
from host.rulesets.korxsol.device import BURN, F_KNOCKED_DOWN, F_PINNED, FEAR, FROST
from shared import dice, roster
from shared import events as ev
from shared.host_only import make_event
from shared.limits import NO_SLOT
from shared.state import F_OUT, GameState

SLOW = {"name": "Slow", "type": "melee", "cooldown": 3, "hit": 1, "damage": 1}
FIGHTERS = (
    {"name": "Ash", "team": "A", "actions": 2, "moves": ["Slow", "Strike"]},
    {"name": "Bo", "team": "B", "actions": 3, "moves": ["Slow"]},
    {"name": "Cy", "team": "A", "actions": 2, "moves": ["Strike"]},
    {"name": "Di", "team": "B", "actions": 1, "moves": ["Slow"]},
)
# Who used which move (with its hit dice, all missing) on whom in round 1.
FIRST_ROUND = (("Ash", "Slow", "Bo", 1), ("Bo", "Slow", "Cy", 1), ("Cy", "Strike", "Di", 2), None)
COUNTERS = (FROST, BURN, FEAR)


def _table() -> Session:
    """Korxsol's four fighters after a first round of moves: round 2, Ash's turn."""
    s = session(list(FIGHTERS), moves=(SLOW,))
    for used in FIRST_ROUND:
        if used is not None:
            attacker, move, target, hit_dice = used
            attack(s, f"attack {attacker} {move} {target}", hits(0, hit_dice))
        s.execute("end")
    return s


def _seen(state: GameState) -> dict:
    """What the board shows of a state, but its last roll (see the module docstring)."""
    return {
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "order": bytes(state.order[: state.count]),
        "scores": list(state.scores),
        "slots": [
            {
                "label": s.label,
                "actions": s.actions,
                "actions_max": s.actions_max,
                "health": s.health,
                "counters": bytes(s.counters),
                "flags": s.flags,
                "cd_pending": s.cd_pending,
                "cd_id": bytes(s.cd_id),
                "cd_left": bytes(s.cd_left),
            }
            for s in state.slots[: state.count]
        ],
    }


def _standing(state: GameState) -> list[int]:
    return [i for i in range(state.count) if state.slots[i].in_play()]


def _may_collapse(state: GameState) -> list[int]:
    """The standing fighters whose team keeps another one standing."""
    standing = _standing(state)
    teams = [state.slots[i].team for i in standing]
    return [i for i in standing if teams.count(state.slots[i].team) > 1]


@st.composite
def _setups(draw):
    """Frost, fear, a knockdown and a pin for each fighter."""
    return [
        (
            draw(st.integers(0, 3)),
            draw(st.integers(0, 3)),
            draw(st.booleans()),
            draw(st.booleans()),
        )
        for _ in FIGHTERS
    ]


def _set_up(s: Session, setup) -> None:
    for spec, (frost, fear, knocked, pinned) in zip(FIGHTERS, setup, strict=True):
        name = spec["name"]
        s.execute(f"adjust {name} frost +{frost}")
        s.execute(f"adjust {name} fear +{fear}")
        # Korxsol keeps these marks only in the state's flags (an attack that knocks down
        # or pins sets the same bits), so they are set there as such an attack would.
        slot = s.game.slot(s.game.fighter(name))
        roster.set_flag(s.game.state, slot, F_KNOCKED_DOWN, knocked)
        roster.set_flag(s.game.state, slot, F_PINNED, pinned)


def _event(data, board: GameState):
    """One legal board event for `board`, or ("collapse", slot)."""
    standing = _standing(board)
    kinds = ["next turn", "next phase", "counter", "roll", "chance", "d100", "select"]
    if _may_collapse(board):
        kinds.append("collapse")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "next turn":
        return make_event(ev.NEXT_TURN)
    if kind == "next phase":
        return make_event(ev.NEXT_PHASE)
    if kind == "counter":
        slots = list(standing)
        if board.active != NO_SLOT and board.slots[board.active].in_play():
            slots.append(NO_SLOT)
        code = data.draw(st.sampled_from((ev.COUNTER_UP, ev.COUNTER_DOWN)))
        which = data.draw(st.sampled_from(slots))
        return make_event(code, which, data.draw(st.sampled_from(COUNTERS)))
    if kind == "roll":
        faces = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        return make_event(ev.ROLL_ACTION, NO_SLOT, dice.KIND_ACTION_D3, faces)
    if kind == "chance":
        return make_event(
            ev.CHANCE, faces=data.draw(st.lists(st.integers(0, 1), min_size=1, max_size=3))
        )
    if kind == "d100":
        return make_event(
            ev.D100, faces=data.draw(st.lists(st.integers(0, 9), min_size=2, max_size=2))
        )
    if kind == "select":
        return make_event(ev.SELECT, data.draw(st.sampled_from(range(board.count))))
    return ("collapse", data.draw(st.sampled_from(_may_collapse(board))))


def _play(s: Session, board: GameState, event) -> None:
    if isinstance(event, tuple):
        index = event[1]
        s.execute(f"adjust {FIGHTERS[index]['name']} kor -99")
        # What the link carries of the game master's collapse to the board.
        host_slot = s.game.state.slots[index]
        board.slots[index].health = host_slot.health
        board.slots[index].flags |= host_slot.flags & F_OUT
        return
    ev.apply_event(board, event)
    board_press(s, event)


@settings(
    deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(setup=_setups(), data=st.data())
def test_the_board_and_the_host_reach_the_same_device_state(setup, data) -> None:
    s = _table()
    _set_up(s, setup)
    board = GameState()
    roster.copy_state(board, s.game.state)
    assert _seen(board) == _seen(s.game.state)
    for step in range(data.draw(st.integers(10, 40))):
        event = _event(data, board)
        _play(s, board, event)
        assert _seen(board) == _seen(s.game.state), f"after step {step}: {event!r}"


def test_next_phase_in_the_action_phase_agrees() -> None:
    s = _table()
    board = GameState()
    roster.copy_state(board, s.game.state)
    event = make_event(ev.NEXT_PHASE)
    ev.apply_event(board, event)
    board_press(s, event)
    assert _seen(board) == _seen(s.game.state)
