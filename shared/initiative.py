"""Dice-pool initiative: every slot in play rolls its order key in action dice.

Most successes go first. Equal successes go to the higher order key. Slots still level roll
again among themselves until the tie breaks. Each position records the rule that placed it,
so a screen can explain the order (the ruleset's host side names the reasons).
"""

from shared import dice, roster
from shared.compat import const
from shared.limits import MAX_DICE

R_SUCCESSES = const(0)  # placed by its successes alone
R_ORDER_KEY = const(1)  # tied on successes, placed by the higher order key
R_REROLL = const(2)  # tied on successes and order key, placed by rerolls
R_OUT = const(3)  # out of play: did not roll, kept after those who did

# Two slots with no dice could never break a tie, so a reroll rolls at least one
# die; and after this many rounds of rerolls the lower slot index goes first.
MAX_REROLL_ROUNDS = const(64)


class _Roller:
    def __init__(self, state, rng, kind, mask):
        self.state = state
        self.rng = rng
        self.kind = kind
        self.mask = mask
        self.faces = bytearray(MAX_DICE)
        self.rerolls = {}

    def successes(self, index, at_least=0):
        count = self.state.slots[index].order_key
        if count < at_least:
            count = at_least
        if count == 0:
            return 0
        dice.roll_faces(self.rng, self.kind, count, self.faces)
        return dice.count_successes(self.kind, self.faces, count, self.mask)

    def break_tie(self, group):
        """Order slots level on successes and order key by rerolling among them."""
        if len(group) == 1:
            return group
        for _ in range(MAX_REROLL_ROUNDS):
            scored = {}
            for index in group:
                scored[index] = self.successes(index, at_least=1)
                self.rerolls[index] = self.rerolls.get(index, 0) + 1
            ordered = sorted(group, key=lambda i: -scored[i])
            if scored[ordered[0]] != scored[ordered[-1]]:
                result = []
                for tied in _runs(ordered, lambda i: scored[i]):  # noqa: B023 (used at once)
                    result.extend(self.break_tie(tied))
                return result
        return sorted(group)


def _runs(items, key):
    """Split a sorted list into runs of equal key."""
    runs = []
    start = 0
    for i in range(1, len(items) + 1):
        if i == len(items) or key(items[i]) != key(items[start]):
            runs.append(items[start:i])
            start = i
    return runs


def roll_initiative(state, rng, kind=dice.KIND_ACTION_D3, mask=None):
    """Roll initiative for every slot in play and set the turn order with its reasons.

    Returns a list, in turn order, of (slot index, first-roll successes, rerolls made);
    out-of-play slots come last with (index, 0, 0).
    """
    roller = _Roller(state, rng, kind, state.rules.success_mask if mask is None else mask)
    first = {}
    playing = []
    out = []
    for index in range(state.count):
        if state.slots[index].in_play():
            first[index] = roller.successes(index)
            playing.append(index)
        else:
            out.append(index)
    playing.sort(key=lambda i: (-first[i], -state.slots[i].order_key, i))

    order = []
    reasons = []
    for tied in _runs(playing, lambda i: first[i]):
        for level in _runs(tied, lambda i: state.slots[i].order_key):
            if len(tied) == 1:
                reason = R_SUCCESSES
            elif len(level) == 1:
                reason = R_ORDER_KEY
            else:
                reason = R_REROLL
            for index in roller.break_tie(level):
                order.append(index)
                reasons.append(reason)
    for index in out:
        order.append(index)
        reasons.append(R_OUT)

    roster.set_order(state, order, reasons)
    return [(i, first.get(i, 0), roller.rerolls.get(i, 0)) for i in order]
