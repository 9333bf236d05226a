"""Forms as the host sees it: the `Ruleset` interface (host/core/interface.py) over engine.py (the
rules), encounter_schema.py (the encounter files), language.py (the verbs), device.py (the
board) and ai.py (the demo).

The board's turn unit is the step (UNIT_STEP, host/rulesets/forms/device.py): its next-turn key on
a selected unit still to act ends that unit's part of the step (`done UNIT` in combat; in a
social round `roll UNIT`, the unit's check that comes next), and with none selected ends the
step (`pass`), as does its next-phase key. With the dice from the board (`play --dice
board`, the default with one) an action waits for each roll it makes, and the roll key,
lit with the count wanted, rolls exactly those D10s (host/core/session.py, wanted rolls).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from host.core import kit, newcomers
from host.core.commandline import Command
from host.core.interface import (
    Applied,
    Fighter,
    IllegalAction,
    LiveRow,
    LiveTable,
    Supplied,
    Table,
)
from host.rulesets.forms import ai, choices, device, encounter_schema
from host.rulesets.forms.encounter_schema import ATTRIBUTES, STEP_NAMES, Encounter
from host.rulesets.forms.engine import RULES_VERSION, Game
from host.rulesets.forms.language import LANGUAGE, ROSTER
from shared import dice
from shared import events as ev
from shared.host_only import d100_value
from shared.words import KIND_NAMES

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

PHASE_WORDS = dict(enumerate(STEP_NAMES, 1))


class Forms(kit.Rules):
    id = encounter_schema.ID
    state_version = 4  # 2: a Timeline (host.core.timeline) and a bounded log, not two lists;
    # 3: the device state (shared.state) has effects on its slots and each die's sides;
    # 4: units who joined and left (`add`, `remove`)
    description = (
        "encounters and simultaneous rounds: social checks in attribute order, an 8-step"
        " combat round, Forms"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID  # the state's ruleset field
    encounters = encounter_schema  # (the kit's hook: host/core/kit.py Rules)
    health_words = ("# left", "): #")  # "(4 left)", "heals 2 (Mend): 4": core/audience.py
    bench_module = "host.rulesets.forms.bench_turn:engine_turn_forms"  # `turnlight bench`
    language = LANGUAGE
    start_command = ""
    next_turn_commands = ("pass",)
    session_totals = ("damage_dealt", "checks_passed")
    chart_panels = (("health", "health per unit"), ("score", "damage dealt per side"))
    grid_legend = "one row per unit in the movement order: > acts now, . still to act, - done"
    score_columns = (
        ("damage_dealt", "dealt"),
        ("damage_taken", "taken"),
        ("checks_passed", "checks"),
    )
    score_words = ("who", "side")
    no_roll_waits = (
        "no action waits for a roll: the engine rolls them (`dice from entered`, and the next"
        " roll waits for `dice FACE ...`)"
    )
    board_refusals = {
        **dict.fromkeys(
            (ev.COUNTER_UP, ev.COUNTER_DOWN),
            "forms' counters are the rules' to keep: act on the laptop",
        ),
        ev.CHANCE: "forms flips no chance tokens: its rolls are D10s",
    }

    # -- a game ------------------------------------------------------------------------
    def new_game(self, encounter: Encounter, seed: int) -> Game:
        game = Game(encounter, seed)
        game.state = device.new_state(game)
        return game

    def apply(self, game: Game, cmd: Command) -> Applied:
        lines = game.apply(cmd)
        return Applied(lines, [r.as_json() for r in game.used])

    def replay(self, game: Game, cmd: Command, record: list[dict]) -> list[str]:
        return game.apply(cmd, replay=list(record))

    def project(self, game: Game) -> None:
        device.project(game, game.state)

    def record_from_json(self, data: Any) -> list[dict]:
        if not isinstance(data, list):
            raise ValueError("a forms record is a list of rolls")
        return [
            {
                "who": int(r["who"]),
                "what": str(r["what"]),
                "faces": [int(f) for f in r["faces"]],
                "source": str(r["source"]),
            }
            for r in data
        ]

    def winner(self, game: Game) -> str | None:
        return kit.winner_name(game.teams, game.winner)

    def fighter_names(self, game: Game) -> list[str]:
        return [u.spec.name for u in game.units]

    def gone(self, game: Game) -> set[str]:
        return {u.spec.name for u in game.units if u.gone}

    def off_board(self, game: Game) -> list[Fighter]:
        waiting = device.to_act(game)
        return [
            Fighter(
                u.spec.name,
                game.encounter.teams[u.spec.side],
                u.spec.label,
                max(0, u.health),
                u.spec.health,
                [u.form] if u.form else [],
                [],
                i in waiting,
                u.down,
            )
            for i, u in enumerate(game.units)
            if i >= game.state.count
        ]

    def snapshot(self, game: Game) -> dict:
        return {
            "ruleset": self.id,
            "round": game.round,
            "mode": game.mode,
            "step": game.step,
            "phase": game.phase_name(),
            "encounter": dict(game.encounters[-1]),
            "encounters": [dict(e) for e in game.encounters],
            "winner": self.winner(game),
            "to_act": [game.name(i) for i in game.to_act()],
            "order": [
                {"name": game.name(i), "reason": game.order_reason(i)[1]} for i in game.order
            ],
            "checks": [{"unit": game.name(c.unit), "attribute": c.attribute} for c in game.checks],
            "last_roll": [
                {
                    "who": game.name(r.who),
                    "what": r.what,
                    "faces": list(r.faces),
                    "successes": r.successes,
                }
                for r in game.last
            ],
            "units": [
                {
                    "name": u.spec.name,
                    "side": game.encounter.teams[u.spec.side],
                    "health": u.health,
                    "aware": u.aware,
                    "form": u.form,
                    "forms": list(u.known),
                    "moved": u.moved_at,
                    "down": u.down,
                }
                for u in game.units
            ],
        }

    # -- the roll an action wants ---------------------------------------------------------
    # With the dice from the board or the table (`play --dice board|entered`) an action
    # waits for each roll it makes, in order (the count of D10s its unit's attribute and
    # Form give); there is no queue of rolls made ahead, so a spare roll never becomes a
    # later one.
    asks_for_rolls = True

    def supply_rolls(self, game: Game, rolls: list[Supplied] | None) -> None:
        game.supply(rolls)

    def roll_lines(self, game: Game) -> list[str]:
        return [
            game.roll_text(r) + ("" if r.source == "none" else kit.from_where(r.source))
            for r in game.last
        ]

    def session_command(self, session: SessionAPI, cmd: Command) -> list[str]:
        if cmd.verb == "order":
            game = session.game
            return [f"{n}. {line}" for n, line in enumerate(game.order_lines(), 1)]
        return super().session_command(session, cmd)

    # -- the board ----------------------------------------------------------------------
    def board_action(self, session: SessionAPI, record: bytes) -> list[str]:
        code = record[0]
        if code == ev.ROLL_ACTION:
            faces = tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + record[3]])
            if record[2] != dice.KIND_D10:
                raise IllegalAction(
                    f"the board rolled {KIND_NAMES[record[2]].upper()} dice; forms rolls D10s"
                )
            # Only with the engine's dice (`--dice engine`) does a board roll get here (else
            # the tether gives it to the action that waits): it is refused, never kept.
            raise IllegalAction(
                f"the engine rolls the dice (--dice engine): the board's {len(faces)} D10 are"
                " not used; `dice from board` and the next roll waits for the roll key"
            )
        if code == ev.D100:
            faces = tuple(record[ev.EVENT_HEADER : ev.EVENT_HEADER + 2])
            dice.check_faces(dice.KIND_D100, faces)
            session.note_roll("d100", faces, "board")
            return [f"d100 roll: {d100_value(faces[0], faces[1])} (forms has no use for it)"]
        return super().board_action(session, record)

    def slot_done(self, session: SessionAPI, index: int) -> list[str] | None:
        """Next turn with a unit still to act selected: that unit's part of the step is over.
        In combat, `done UNIT` (at step 1 it rolls its Awareness; in the movement steps the
        units go in the movement order, and one named before its turn is refused). In a
        social round, `roll UNIT`: its check, if it is the one that comes next (the sprung
        trap's Dodge roll, if it is the trap's unit). As shared.turns.slot_done ends a step
        once nobody is left in it, the rules go on to the next step once nobody has a part
        left in this one."""
        game: Game = session.game
        if index >= len(game.units):
            raise IllegalAction(f"the board named slot {index}, and there is no such unit")
        name = game.name(index)
        name = f'"{name}"' if " " in name else name
        return session.execute(f"{'roll' if game.mode == 'social' else 'done'} {name}")

    # -- scores ---------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        players = [
            (
                u.spec.name,
                game.teams[u.spec.side],
                {
                    "damage_dealt": u.dealt,
                    "damage_taken": u.taken,
                    "checks_passed": u.passed,
                    "checks_failed": u.failed,
                },
            )
            for u in game.units
        ]
        totals = ("damage_dealt", "damage_taken", "checks_passed")
        summary = kit.summary(players, game.teams, totals)
        for side, team in enumerate(game.teams):  # and how many of its units stand
            standing = sum(1 for u in game.units if u.spec.side == side and not u.down)
            summary["teams"][team]["standing"] = standing
        return summary

    def score_line(self, game: Game) -> str:
        teams = self.summary(game)["teams"]
        return "damage dealt: " + " · ".join(f"{t} {v['damage_dealt']}" for t, v in teams.items())

    # -- views ------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        e = game.encounters[-1]
        return f"{game.encounter.name}, encounter {e['n']} ({e['kind']})", game.phase_name()

    def _rows(self, game: Game) -> list[tuple[int, list[str]]]:
        waiting = device.to_act(game)  # as the board shows them
        active = game.active()
        rows = []
        for pos, i in enumerate(game.order, 1):
            u = game.units[i]
            mark = ">" if i == active else "." if i in waiting else "-"
            state = "down" if u.down else ("aware" if u.aware else "unaware")
            if u.gone or u.arriving:
                state = "left" if u.gone else "next round"
            rows.append(
                (
                    i,
                    [
                        f"{mark}{pos}",
                        u.spec.name,
                        game.encounter.teams[u.spec.side],
                        f"{max(0, u.health)}/{u.spec.health}",
                        "".join(f"{a:X}" for a in u.spec.attributes),
                        state,
                        u.form or "-",
                        "out of the order" if u.gone else game.order_reason(i)[1],
                    ],
                )
            )
        return rows

    def roster(self, game: Game) -> Table:
        # The eight attributes, one hex digit each: Vitality .. Genius.
        headers = ["pos", "unit", "side", "health", "VPRIAPPG", "state", "form", "order reason"]
        return Table(headers, [cells for _, cells in self._rows(game)])

    def live_roster(self, game: Game) -> LiveTable:
        active = game.active()
        rows = [
            LiveRow(cells[:4] + [cells[5], cells[6]], cells[7], i == active)
            for i, cells in self._rows(game)
        ]
        return LiveTable(["pos", "unit", "side", "hp", "state", "form"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        st = game.state
        phases = device.STEP_PHASES if device.in_combat(game) else device.SOCIAL_PHASES
        head = f"phase {phases[st.phase]} · round {st.round}"
        lines = [head]
        widths = (4, 8, 8, 6, 9, 8, 14)
        for _, cells in self._rows(game):
            lines.append(
                " ".join(c[:w].ljust(w) for c, w in zip(cells, widths, strict=False)).rstrip()
            )
        if game.last:
            lines.append("last roll: " + "; ".join(game.roll_text(r) for r in game.last))
        return "\n".join(lines)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        names = [_typed(u.spec.name) for u in game.units]
        present = [u.spec.name for u in game.units if not u.gone]
        joining = newcomers.complete(
            words, game.encounter.source, ROSTER, present, game.encounter.teams
        )
        if joining is not None:
            return joining
        if len(words) == 2 and words[0] in (
            "form",
            "check",
            "roll",
            "move",
            "attack",
            "aim",
            "block",
            "done",
            "gain",
        ):
            return names
        if len(words) == 3 and words[0] in ("form", "gain"):
            return [_typed(f.name) for f in game.encounter.forms]
        if len(words) == 3 and words[0] == "check":
            return list(ATTRIBUTES) + [_typed(c.name) for c in game.encounter.checks]
        if len(words) == 3 and words[0] == "attack":
            return names
        return []

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words, names)

    def help_notes(self) -> list[str]:
        return [
            "pos: the place in the order after a mark: > acts now, . still to act, - done"
            " (or not in this step)",
            "checks go Vitality, Physique, Resolve, Insight, Agility, Passion, Prowess, Genius",
            "combat steps: " + ", ".join(f"{n} {w}" for n, w in PHASE_WORDS.items()),
            newcomers.help_note(ROSTER),
        ]

    # -- the demo AI ---------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)

    def demo_presses(self, game: Game, command: str) -> tuple[tuple[str, ...], bool]:
        """A unit's part of a step is the board's next-turn key on that unit (`done UNIT`;
        a social check, `roll UNIT`: it then waits for its roll, which the demo rolls on the
        board's roll key, lit with it)."""
        verb, _, name = command.partition(" ")
        if verb not in ("done", "roll") or not name:
            return (), True
        i = game.unit(name.strip('"'))
        pos = f"pos{game.order.index(i)}"
        if verb == "done" or game.mode == "social":
            return (pos, "next_turn"), False
        return (), True


def _typed(name: str) -> str:
    """A name as it is typed: in quotes where it has spaces (`form Ayla "Silver Tongue"`)."""
    return f'"{name}"' if " " in name else name


RULESET = Forms()
