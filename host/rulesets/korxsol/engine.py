"""The korxsol rules engine: a running game of one encounter, changed only by actions.

The device view (`Game.state`, a shared.state.GameState) is the single store for what the
board also shows: turn order, round, phase, action points (the allowance), KOR (the health
bar), frost/burn/fear (counters 0..2) and the marks (frozen ... charging), and cooldown
timers, under korxsol's descriptor (device.py); the trimmed rules that move those
(shared.turns, timing, cooldowns, dice, initiative) are called, never rewritten.
`Fighter` holds what only the desktop tracks: attributes, SOL, armor chips, buffs and
debuffs, grapples, charges, inventory and statistics.

Every action is checked before it changes anything and raises IllegalAction with a one-line
reason. A game is a pure function of (encounter, seed, actions with their recorded rolls),
which is what undo, redo and resume rely on.

`Game` is composed here from the engine's seams, one module each:

    game_core.py           the game built from an encounter, lookups, shared checks
    turn_flow.py           initiative, order, turn start and end, expiry, adjust, game end
    combat.py              attack, item, artifact: aim, options, SOL, hit/power/damage
    effects.py             flips, buffs and support, bless, cleanse, gains, damage, collapse
    grapple_and_charge.py  move, pivot, falls, grapple, struggle, release, crush, charge
                           breaking, knockback
    terrain.py             terrain entered (lava, water, ice) and at turn start; cover,
                           walls, buster and a move's Movement as the game master states them
    threat.py              what an opponent's threat forbids
    comings.py             fighters who join (add) and leave (remove) under way
    views.py               snapshot, fighter JSON, team statistics, timeline, scores
"""

from __future__ import annotations

from host.rulesets.korxsol.combat import (
    BLIND_HIT,
    GRAPPLED_AGILITY,
    TRUE_SIGHT_HIT,
    CombatRules,
)
from host.rulesets.korxsol.comings import Comings
from host.rulesets.korxsol.effects import BLESS_KOR, EffectRules
from host.rulesets.korxsol.fighter import Fighter, Modifier, norm
from host.rulesets.korxsol.game_core import KNOCKDOWN_AGILITY, Outcome
from host.rulesets.korxsol.grapple_and_charge import GrappleAndCharge
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.rolls import IllegalAction
from host.rulesets.korxsol.terrain import TerrainRules
from host.rulesets.korxsol.turn_flow import REASON_NAMES, TurnFlow
from host.rulesets.korxsol.views import GameViews

__all__ = [
    "BLESS_KOR",
    "BLIND_HIT",
    "GRAPPLED_AGILITY",
    "KNOCKDOWN_AGILITY",
    "REASON_NAMES",
    "RULES_VERSION",
    "TRUE_SIGHT_HIT",
    "Fighter",
    "Game",
    "Modifier",
    "Outcome",
    "norm",
]

# The version of these rules as a journal sees them. Raise it whenever a change makes the
# same journalled commands and dice play out differently (or be refused): a saved game
# records the version it was played under, and resuming it under another one is checked.
# 1: until one hit and one power roll per strike (several targets), one cooldown id per
#    timed move, item and artifact, and checked SOL spending; 2: until a `hit` condition
#    worth damage added it to the damage instance, a buff or an item that helps made its
#    exchange and a grappled creature kept the action points fear takes; 3: until SOL could
#    be spent on every AGILITY_Roll (initiative's `sol=`, a knockback collision's
#    `collide_sol=`) and a teammate's armor gain went past +7; 4: until an opponent's
#    threat bound what a fighter attacks (an attack on another is refused); 5: until a
#    knockback into water (`kb=T:water`) left its creature standing in water, so that its
#    next turn starts with an action point fewer; 6: since.
RULES_VERSION = 6


class Game(TurnFlow, CombatRules, EffectRules, GrappleAndCharge, TerrainRules, GameViews, Comings):
    """One game of an encounter: each verb of the command language is a `_do_<verb>` of a
    seam, and `apply` runs one of them."""

    rules_version = RULES_VERSION

    @property
    def teams(self) -> tuple[str, ...]:  # (interface.Game)
        return self.encounter.teams

    def apply(self, command: Command, replay=None) -> Outcome:
        """Apply one action. `replay` holds the recorded rolls when rebuilding from a journal."""
        handler = getattr(self, "_do_" + command.verb.replace("-", "_"), None)
        if handler is None:
            raise IllegalAction(f"unknown command {command.verb!r}")
        if self.winner is not None:
            won = self.encounter.teams[self.winner] if self.winner >= 0 else "nobody"
            raise IllegalAction(f"the game is over: {won} won")
        self.roller.begin(self.actions, replay)
        out = Outcome()
        handler(command, out)
        self.actions += 1
        self._check_game_end(out)
        self._project_scores()
        self.log.extend(out.lines)
        return out
