"""Advance as the host sees it: the `Ruleset` interface (host/core/interface.py) over advance's own
modules. encounter_schema.py reads encounter files, language.py declares the verbs, verbs.py
plays them, engine.py holds a game and its dice, device.py projects the game onto the board,
ai.py plays the demo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from host.core import kit, names, newcomers
from host.core.commandline import Command
from host.core.interface import (
    Fighter,
    IllegalAction,
    LiveRow,
    LiveTable,
    Table,
)
from host.rulesets.advance import ai, choices, device, encounter_schema, exact_odds, language, verbs
from host.rulesets.advance.engine import (
    PURPOSES,
    RULES_VERSION,
    STEP_NAMES,
    STEPS,
    Death,
    Game,
    Hit,
)

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

STAT_KEYS = ("damage", "body", "hits", "evasions", "downs")


class Advance(kit.DiceRules):
    id = encounter_schema.ID
    # 2: a Timeline (host.core.timeline) and a bounded log, not two lists; 3: Fighter.put_down;
    # 4: the characters who joined and left (`add`, `remove`); 5: Fighter.joins
    # 6: Dice.last keeps the dice's sides (host/core/kit.py SeededDice); 7: a character's
    # campaign state (stamina_now, willpower_now, damaged)
    state_version = 7
    description = (
        "rounds A to E: Advance and Late by initiative, Hit checks, Evasion, Body Damage,"
        " Death checks"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID  # the state's ruleset field
    encounters = encounter_schema  # (the kit's hooks: host/core/kit.py DiceRules)
    game_type = Game
    device = device
    health_words = ("Stamina",)  # its log's health phrases: host/core/audience.py
    bench_module = "host.rulesets.advance.bench_turn:engine_turn"  # `turnlight bench`
    language = language.LANGUAGE
    start_command = ""
    next_turn_commands = ("next",)
    session_totals = ("damage", "downs")
    stat_labels = {"body": "body damage"}
    chart_panels = (("stamina", "Stamina per character"), ("score", "foes down per side"))
    grid_legend = (
        "one row per character: side, Stamina, Willpower, damaged parts, A/L Advance or Late,"
        " F Full Power, H Helpless, * may act now (or must answer)"
    )
    no_roll_waits = (
        "no action waits for a roll: the engine rolls them (`dice from entered`, and the next"
        " check or Death check waits for `dice F F` or `dice F`)"
    )
    # Only with the engine's dice (`--dice engine`) does a board roll reach the rules (else
    # the tether gives it to the action that waits): it is refused, never kept.
    board_refusals = kit.engine_refusals(
        "check",
        "Willpower, damaged parts and extra actions are the rules' to count: play the"
        " action on the laptop",
    )

    # -- a game ----------------------------------------------------------------------------
    def play(self, game: Game, cmd: Command, record: list[list] | None) -> list[str]:
        return verbs.apply(game, read_names(game, cmd), record)

    def gone(self, game: Game) -> set[str]:
        """Who has left: removed, or fled with <Flee>."""
        return {f.name for f in game.fighters if f.status in ("fled", "left")}

    def off_board(self, game: Game) -> list[Fighter]:
        now = device.to_act(game)
        return [
            Fighter(
                f.name,
                game.encounter.teams[f.spec.side],
                f.spec.label,
                f.stamina,
                f.spec.stamina,
                [f"willpower {f.willpower}"] + (["helpless"] if f.helpless else []),
                [],
                f.index in now,
                not f.in_combat,
            )
            for f in game.fighters[game.state.count :]
        ]

    def snapshot(self, game: Game) -> dict:
        p = game.pending
        pending: dict[str, Any] | None = None
        if isinstance(p, Hit):
            pending = {"hit": game.fighters[p.target].name, "damage": p.damage}
        elif isinstance(p, Death):
            pending = {"death_check": game.fighters[p.who].name, "rolled": p.roll}
        return {
            "round": game.round,
            "step": STEPS[game.step],
            "winner": game.over,
            "pending": pending,
            "characters": [
                {
                    "name": f.name,
                    "side": game.encounter.teams[f.spec.side],
                    "boss": f.spec.boss,
                    "stamina": f.stamina,
                    "willpower": f.willpower,
                    "damaged": list(f.damaged),
                    "status": f.status,
                    "helpless": f.helpless,
                    "full_power": f.full_power,
                    "initiative": {True: "Advance", False: "Late", None: None}[f.advance],
                    "acted": f.done,
                    "extra": f.extra,
                    "items": dict(f.places),
                    "stats": dict(f.stats),
                }
                for f in game.fighters
            ],
        }

    # -- the roll an action wants ---------------------------------------------------------
    # With the dice from the board or the table (`play --dice board|entered`) an action
    # waits for each roll it makes, in order: a check's 2D6, a Death check's 1D6, a table's
    # D6. There is no queue of rolls made ahead, so a spare roll never becomes a later one.
    asks_for_rolls = True

    # -- the board ---------------------------------------------------------------------------
    def slot_done(self, session: SessionAPI, index: int) -> list[str] | None:
        """Next turn with one who may act now selected: that character is done in this step.
        The target of a waiting hit takes it (`take`); anyone else takes no action (`wait`,
        in E once for each extra action it has now). A Death check owed is refused: the roll
        key rolls it. Once nobody is left to act in the step, the step ends as by next turn
        (`next`), as shared.turns.slot_done ends a step. Before the first round: next turn."""
        game: Game = session.game
        if not game.started:
            return None
        if index >= len(game.fighters):
            raise IllegalAction(f"the board named slot {index}, and there is no such character")
        f = game.fighters[index]
        label = f.spec.label
        p = game.pending
        if isinstance(p, Death) and p.who == index:
            if p.roll is None:
                # Its Death check (with the board's dice it waits for the roll key, lit).
                return session.execute(f"death {label}")
            raise IllegalAction(
                f"{f.name}'s Death check failed: how much Willpower to spend is the"
                f" laptop's (`spend {label} N`, 0 to die)"
            )
        if isinstance(p, Hit) and p.target == index:
            lines = session.execute(f"take {label}")
        else:
            lines = session.execute(f"wait {label}")
            while self._goes_on(session) and not session.game.can_act_now(f):
                lines += session.execute(f"wait {label}")  # E: its next extra action
        if self._goes_on(session) and not session.game.acting_now():
            lines += session.execute("next")  # (with the board's dice: may wait for them)
        return lines

    @staticmethod
    def _goes_on(session: SessionAPI) -> bool:
        """Nothing waits (no answer owed, no action waiting for its roll), the fight goes on."""
        game: Game = session.game
        return session.pending is None and game.pending is None and game.over is None

    # -- scores ------------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        teams = game.teams
        players = [
            (f.name, teams[f.spec.side], {k: f.stats[k] for k in STAT_KEYS}) for f in game.fighters
        ]
        summary = kit.summary(players, teams)
        for side, team in enumerate(teams):  # a side's downs are the foes it brought down
            summary["teams"][team]["downs"] = verbs.downs(game, side)
        return summary

    def score_line(self, game: Game) -> str:
        teams = game.encounter.teams
        return "foes down: " + " · ".join(
            f"{t} {verbs.downs(game, s)}" for s, t in enumerate(teams)
        )

    def carry(self) -> Any:
        from host.rulesets.advance.campaign import AdvanceCarry

        return AdvanceCarry()

    # -- views --------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.encounter.name}, round {game.round}"
        if game.over is not None:
            return title, f"the fight is over: {game.over} won"
        if game.pending is not None:
            return title, verbs._waiting_for(game)
        step = f"step {STEPS[game.step]} ({STEP_NAMES[game.step]})"
        acting = [f.name for f in game.acting_now()]
        if game.step == 0:
            return title, f"{step}: `next` rolls initiative"
        return title, f"{step}: " + (
            ", ".join(acting) + " may act" if acting else "`next` steps on"
        )

    def _state_word(self, game: Game, f: Any) -> str:
        if f.status != "in":
            return f.status
        words = []
        if f.advance is not None:
            words.append("Advance" if f.advance else "Late")
        if f.full_power:
            words.append("Full Power")
        if f.helpless:
            words.append("Helpless")
        if f.joins > game.round:
            words.append(f"joins in round {f.joins}")
        elif f.done:
            words.append("acted")
        if f.extra:
            words.append(f"+{f.extra} extra")
        return ", ".join(words) or "-"

    def roster(self, game: Game) -> Table:
        rows = [
            [
                f.name + (" (Boss)" if f.spec.boss else ""),
                game.encounter.teams[f.spec.side],
                f"{f.stamina}/{f.spec.stamina}",
                f"{f.willpower}/{f.spec.willpower}",
                ", ".join(f.damaged) or "-",
                self._state_word(game, f),
            ]
            for f in game.fighters
        ]
        return Table(["name", "side", "Stamina", "Willpower", "damaged", "state"], rows, (4, 5))

    def live_roster(self, game: Game) -> LiveTable:
        now = device.to_act(game)
        rows = [
            LiveRow(
                [f.spec.label, f"{f.stamina}", f"{f.willpower}", str(len(f.damaged))],
                self._state_word(game, f),
                f.index in now,
            )
            for f in game.fighters
        ]
        return LiveTable(["who", "Sta", "Wil", "parts"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        now = device.to_act(game)
        lines = [f"step {STEPS[game.step]}, round {game.round}"]
        for f in game.fighters:
            marks = "".join(
                (
                    "A" if f.advance is True else "L" if f.advance is False else " ",
                    "F" if f.full_power else " ",
                    "H" if f.helpless else " ",
                )
            )
            state = "xx" if f.status != "in" else ("*" if f.index in now else " ")
            lines.append(
                f"{state:<2} {f.spec.label:<3} {'enemy' if f.enemy else 'adv':<5}"
                f" Sta {f.stamina:>3} Wil {f.willpower:>2} parts {len(f.damaged)} {marks}"
            )
        return "\n".join(lines)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        names = [f.spec.label for f in game.fighters]
        present = [f.name for f in game.fighters if f.in_combat]
        joining = newcomers.complete(
            words, game.encounter.source, language.ROSTER, present, game.encounter.teams
        )
        if joining is not None:
            return joining
        if words[0] == "dice" and len(words) == 2:
            return list(PURPOSES) + ["from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if len(words) == 2:
            return names
        at = 4 if words[0] == "coop" else 3  # (coop NAME ALLY SUPPORT)
        if words[0] in ("attack", "assist", "coop", "equip", "store", "break") and len(words) == at:
            try:
                f = game.fighter(words[1])
            except IllegalAction:
                return []
            abilities = [a.name for a in f.spec.abilities]
            if words[0] in ("equip", "store", "break"):
                abilities = []  # (they take items only)
            pool = abilities + ([] if words[0] == "coop" else list(f.owned))
            return [f'"{n}"' if " " in n else n for n in pool]
        return names

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words)

    def help_notes(self) -> list[str]:
        return [
            "attack options: with=SUPPORT evade=yes|no spare; dice: check F F, death F, d6 F",
            newcomers.help_note(language.ROSTER),
        ]

    # -- odds ----------------------------------------------------------------------------------
    def odds_preview(self, game: Game) -> list[str]:
        return exact_odds.evasion_line(game)

    def before(self, game: Game, line: str) -> list[str]:
        try:
            cmd = self.language.parse(line)
            if cmd is None or cmd.verb != "attack" or len(cmd.args) < 2:
                return []
            cmd = read_names(game, cmd)
        except IllegalAction:
            return []  # the action itself will say what is wrong
        return exact_odds.hit_line(game, cmd.args[0], cmd.args[1])

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)


def read_names(game: Game, cmd: Command) -> Command:
    """The command with its names read as meant: a misspelt character, ability or item gets
    a suggestion (IllegalAction), an ability or item of several words typed without quotes
    is one word where only one reading spells a name (the word its verb's grammar declares
    `several`: language.VERBS), and a word left over past those the verb takes is refused
    (Command.take_name), all before the verb changes anything."""
    if not cmd.args or cmd.verb in ("next", "initiative"):
        return cmd
    people = [f.spec.name for f in game.fighters] + [f.spec.label for f in game.fighters]
    names.suggest("character", cmd.args[0], people)
    slots = language.LANGUAGE.grammar[cmd.verb].slots
    at = next((i for i, word in enumerate(slots) if word.several), None)
    if at is None:
        return cmd
    try:
        f = game.fighter(cmd.args[0])
    except IllegalAction:
        return cmd  # (the verb says who is unknown)
    pool = [a.name for a in f.spec.abilities] + list(f.owned)
    if cmd.verb == "exchange":
        for other in game.fighters:
            pool += [n for n in other.owned if other.spec.side == f.spec.side]
    if cmd.verb == "assist":
        pool.append("gm")
    cmd = cmd.take_name(pool, "ability or item")
    for word in cmd.args[1:at] + cmd.args[at + 1 :]:
        names.suggest("character", word, people)
    return cmd


RULESET = Advance()
