"""Helpers for the engine tests, which run under both CPython (pytest) and MicroPython.

Only what both interpreters have: no pytest, no typing, no f-string tricks.
"""

from host.rulesets.korxsol import device as korxsol
from shared import roster
from shared.state import GameState


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail if it raised nothing or another type."""
    try:
        fn(*args, **kwargs)
    except exc_type as err:
        return err
    raise AssertionError("expected %s from %s" % (exc_type.__name__, fn.__name__))


class ScriptedRolls:
    """A random source that answers `below(n)` from a script of die faces (1-based, as a
    person reads them), so a test can say exactly what the dice show."""

    def __init__(self, faces, low=1):
        self.faces = list(faces)
        self.low = low
        self.used = 0

    def below(self, n):
        if self.used >= len(self.faces):
            raise AssertionError("the test ran out of scripted dice")
        face = self.faces[self.used]
        self.used += 1
        value = face - self.low
        assert 0 <= value < n, "scripted face %d does not fit a %d-sided die" % (face, n)
        return value


def korxsol_table(*fighters):
    """A korxsol state (korxsol's descriptor, host/rulesets/korxsol/device.py) with the given
    (label, team, agility, ap, kor) slots, not started."""
    state = GameState()
    korxsol.load_rules(state)
    for label, team, agility, ap, kor in fighters:
        roster.add_slot(state, label, team, agility, ap, kor)
    return state


def three_fighters():
    return korxsol_table(("Kae", 0, 3, 3, 18), ("Orn", 1, 2, 2, 20), ("Vex", 0, 4, 3, 14))


def snapshot(state):
    """Every field of the state that the codec carries, as nested tuples (for equality)."""
    slots = []
    for i in range(state.count):
        s = state.slots[i]
        slots.append(
            (
                s.label,
                s.team,
                s.order_key,
                s.actions,
                s.actions_max,
                s.health,
                s.health_max,
                bytes(s.counters),
                s.flags,
                s.cd_pending,
                bytes(s.cd_id),
                bytes(s.cd_left),
                s.effects,
                bool(s.effect_ends),
            )
        )
    roll = state.roll
    return (
        state.ruleset,
        state.round,
        state.version,
        state.count,
        state.turn,
        state.phase,
        state.phase_count,
        state.team_count,
        tuple(state.scores[: state.team_count]),
        (roll.kind, bytes(roll.sides), roll.count, roll.successes, roll.who, bytes(roll.faces)),
        roll.unused,
        roll.degree,
        (
            state.want.kind,
            state.want.count,
            bytes(state.want.sides),
            state.want.who,
            state.want.purpose,
            state.want.smart,
        ),
        state.off_board,
        tuple(slots),
        bytes(state.order[: state.count]),
        bytes(state.order_reason[: state.count]),
        (state.grid_w, state.grid_h, bytes(state.grid)),
    )
