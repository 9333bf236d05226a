"""Terrain without a map: the game master says what a fighter steps onto (`terrain NAME
KIND`), and the engine applies that terrain's effect when the guide says it applies: on
entering (lava's burn, water's action point, ice's slide) or at the start of a turn (water).
Inner Fire walks over lava and Cold Feet over water, and an ice class may choose not to slide.

What needs positions is the game master's, stated on the attack: `cover=` and `wall=` (who
stands behind which; a buster removes both), `moved=` (the spaces a move's Movement took).

The terrain a fighter stands on is part of the game: any move the engine knows of (moving,
being carried or pivoted, a dodge's step, fear's flight, a knockback, a move's Movement)
puts it back on ground until the game master says otherwise. The board shows it as the
fighter's terrain counter (host/rulesets/korxsol/device.py: 0 ground ... 4 ice), set with it here.
"""

from __future__ import annotations

from host.core import numbers
from host.core.plurals import plural
from host.rulesets.korxsol.device import BURN, F_GRAPPLED, F_PINNED, TERRAIN
from host.rulesets.korxsol.fighter import Fighter
from host.rulesets.korxsol.game_core import GameCore, Outcome
from host.rulesets.korxsol.language import Command
from host.rulesets.korxsol.model import Effects
from host.rulesets.korxsol.rolls import IllegalAction

GROUND = "ground"
TERRAINS = (GROUND, "shallows", "water", "lava", "ice")  # the board's terrain counter values
WATER_AP = 1  # action points lost on entering water, and on starting a turn in it
LAVA_FLIPS = 1  # chance flips on entering lava, one burn stack on heads
LAVA_BURN = 1


def cold_feet(f: Fighter) -> bool:
    """Ice classes walk over water as over ground and may choose not to slide on ice."""
    return "ice" in f.spec.elements


def inner_fire(f: Fighter) -> bool:
    """Fire classes step over lava without its effect."""
    return "fire" in f.spec.elements


class TerrainRules(GameCore):
    def _do_terrain(self, cmd: Command, out: Outcome) -> None:
        """`terrain NAME KIND [slide=no]`: NAME enters a tile of KIND now (before the fight:
        is placed on it, with no effect)."""
        f = self.fighter(cmd.arg(0, "a character"))
        kind = cmd.arg(1, "the terrain (" + ", ".join(TERRAINS) + ")").lower()
        if kind not in TERRAINS:
            raise IllegalAction(f"terrain {kind!r}: choose one of {', '.join(TERRAINS)}")
        if not self.alive(f):
            raise IllegalAction(f"{f.name} has collapsed (KOR 0)")
        slide = cmd.opts.get("slide", "yes")  # yes or no (the grammar takes no other)
        if "slide" in cmd.opts and kind != "ice":
            raise IllegalAction("slide= is for entering ice")
        if slide == "no" and not cold_feet(f):
            raise IllegalAction(f"{f.name} cannot choose not to slide: only ice classes can")
        self._stand_on(f, kind)
        if not self.started:
            out.say(f"{f.name} is placed on {kind}")
            return
        if kind == "water":
            self._enter_water(f, out)
        elif kind == "lava":
            self._enter_lava(f, out)
        elif kind == "ice":
            if slide == "no":
                out.say(f"{f.name} steps onto the ice and walks on it (Cold Feet): no slide")
            else:
                out.say(
                    f"{f.name} slides across the ice the way it came in, until other terrain"
                    " or a tile it cannot enter (the game master moves the token; say"
                    f" `terrain {f.spec.label} KIND` where it stops on other terrain)"
                )
        else:
            out.say(f"{f.name} stands on {kind}")

    def _enter_water(self, f: Fighter, out: Outcome) -> None:
        if cold_feet(f):
            out.say(f"{f.name} walks into the water as on ground (Cold Feet)")
            return
        if self.active is not f:
            out.say(
                f"{f.name} enters water: it loses {WATER_AP} action point when its turn starts"
                " there"
            )
            return
        s = self.slot(f)
        lost = min(WATER_AP, s.actions)
        s.actions -= lost
        self.state.touch()
        out.say(
            f"{f.name} enters water: {plural(lost, 'action point')} lost"
            f" ({plural(s.actions, 'action point')} left)"
        )

    def _enter_lava(self, f: Fighter, out: Outcome) -> None:
        if inner_fire(f):
            out.say(f"{f.name} steps over the lava unharmed (Inner Fire)")
            return
        if not self._heads(
            f, LAVA_FLIPS, out, f"{f.name} enters lava: flips {LAVA_FLIPS}, no heads"
        ):
            return
        s = self.slot(f)
        self.state.add_counter(s, BURN, LAVA_BURN)
        out.say(f"{f.name} enters lava: heads, burn now {plural(s.counters[BURN], 'stack')}")

    def _terrain_at_turn_start(self, f: Fighter, out: Outcome) -> None:
        """WATER: a turn started in water has one action point fewer."""
        if f.terrain != "water" or cold_feet(f):
            return
        s = self.slot(f)
        lost = min(WATER_AP, s.actions)
        if lost:
            s.actions -= lost
            self.state.touch()
            out.say(f"{f.name} starts its turn in water: {plural(lost, 'action point')} lost")

    def _moved(self, f: Fighter, out: Outcome, onto: str = GROUND) -> None:
        """`f` has left its tile: it stands on `onto` (ground unless the game master says)."""
        if f.terrain != onto:
            if f.terrain != GROUND:
                out.say(f"{f.name} leaves the {f.terrain}")
            self._stand_on(f, onto)

    def _stand_on(self, f: Fighter, kind: str) -> None:
        """`f` stands on `kind`, on the board too (its terrain counter)."""
        f.terrain = kind
        self.slot(f).counters[TERRAIN] = TERRAINS.index(kind)
        self.state.touch()

    def _check_reach(
        self, f: Fighter, name: str, kind: str, fx: Effects, targets: list[Fighter], cmd: Command
    ) -> list[str]:
        """COVER, WALL and BUSTER, as the game master states them (`cover=`, `wall=`: the
        targets behind one), and MOVEMENT (`moved=N`), checked before anything changes.
        `kind` is the move's type, or "item" / "artifact". Returns what to say as it is used.
        """
        say = []
        for key, blocks in (("cover", kind in ("melee", "debuff")), ("wall", True)):
            behind = [self.fighter(n) for n in cmd.list_opt(key)]
            for t in behind:
                if t not in targets:
                    raise IllegalAction(f"{key}=: {t.name} is not a target of {name}")
            if not behind:
                continue
            if key == "cover" and kind in ("item", "artifact"):
                raise IllegalAction(
                    "cover= is for combat moves: the guide says which move types reach past"
                    " cover, and items and artifacts have none"
                )
            who = ", ".join(t.name for t in behind)
            if fx.buster:
                say.append(f"{name} busts the {key} before {who}: take it off the map")
            elif blocks and key == "cover":
                raise IllegalAction(
                    f"{who} {'is' if len(behind) == 1 else 'are'} behind cover: {name} ({kind})"
                    " cannot reach past it (a range move or a buff can; a buster removes it)"
                )
            elif blocks:
                raise IllegalAction(
                    f"a wall stands before {who}: nothing goes through it and {name} is no"
                    " buster (hitting the wall itself is the game master's)"
                )
            else:
                say.append(f"{name} reaches past the cover before {who} ({kind})")
        if fx.buster and not any(line.startswith(f"{name} busts") for line in say):
            say.append(f"{name} busts any cover or wall in its area (the game master's map)")
        if fx.wall:
            say.append(f"{name} places a wall (the game master's map), hit or miss")
        if fx.range:
            say.append(f"{name} reaches targets up to {plural(fx.range, 'space')} away")
        if "moved" in cmd.opts:
            if not fx.movement:
                raise IllegalAction(f"moved=: {name} has no Movement")
            cmd.int_opt("moved", 1, fx.movement)
            s = self.slot(f)
            if s.flags & (F_PINNED | F_GRAPPLED) and not fx.release:
                held = "pinned" if s.flags & F_PINNED else "grappled"
                raise IllegalAction(f"{f.name} is {held}: it cannot use {name}'s Movement")
            if fx.charge and f.charging is None:
                raise IllegalAction(
                    f"moved=: {name} is a charge: its Movement comes as it is unleashed"
                )
        return say

    def _move_by_movement(self, f: Fighter, name: str, cmd: Command, out: Outcome) -> None:
        """MOVEMENT: the user moved `moved=N` spaces as part of the move (no action point,
        hit or miss)."""
        if "moved" not in cmd.opts or not self.alive(f):
            return
        spaces = numbers.whole(cmd.opts["moved"], "moved=", 1)
        out.say(f"{f.name} moves {plural(spaces, 'space')} ({name}'s Movement, no action point)")
        self._moved(f, out)
