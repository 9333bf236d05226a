"""Stones as the host sees it: the `Ruleset` interface (host/core/interface.py) over its own
modules. encounter_schema.py reads encounter files, engine.py plays the game, device.py projects it
onto the board, ai.py plays the demo, language.py is its language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from host.core import kit, names, newcomers
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
from host.rulesets.stones import ai, choices, device, encounter_schema, engine
from host.rulesets.stones.engine import Game
from host.rulesets.stones.language import LANGUAGE, ROSTER
from shared import dice
from shared import events as ev
from shared.host_only import d100_value
from shared.state import F_ACTED, F_ACTIVE

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

NAMED_ABILITY = ("fuse", "ability", "break")


class Stones(kit.Rules):
    id = encounter_schema.ID
    state_version = 4  # 2: a Timeline (host.core.timeline) and a bounded log, not two lists;
    # 3: the device state (shared.state) has effects on its slots and each die's sides;
    # 4: the characters who joined and left (`add`, `remove`)
    description = "Speaking Stones: teams alternate turns, stones pay abilities, d100 crits"
    rules_version = engine.RULES_VERSION
    board_id = device.BOARD_ID  # the state's ruleset field
    encounters = encounter_schema  # (the kit's hook: host/core/kit.py Rules)
    health_words = ("HP",)  # its log's health phrases: host/core/audience.py
    bench_module = "host.rulesets.stones.bench_turn:engine_turn"  # `turnlight bench`
    language = LANGUAGE
    start_command = ""
    next_turn_commands = ("end",)
    session_totals = ("damage_dealt", "kos")
    stat_labels = {"kos": "KOs"}
    chart_panels = (("hp", "HP per character"), ("score", "damage dealt per team"))
    grid_legend = (
        "one row per character: team, HP, hand/hand size, stones fused; > being activated,"
        " * its player's others still to act, - done this turn; F M A the actions done"
    )
    score_columns = (
        ("damage_dealt", "dealt"),
        ("damage_taken", "taken"),
        ("crits", "crits"),
        ("kos", "KOs"),
    )
    no_roll_waits = (
        "no action waits for a d100: the engine rolls them (`dice from entered`, and the next"
        " crit or chance waits for `dice TENS UNITS`)"
    )
    board_refusals = {
        # Only with the engine's dice (`--dice engine`) does a board roll reach the rules
        # (else the tether gives it to the action that waits): it is refused, never kept.
        ev.D100: "the engine rolls the d100s (--dice engine): the board's roll is not used;"
        " `dice from board` and the next crit or chance waits for the roll key",
        ev.ROLL_ACTION: "stones rolls d100s: the roll key rolls two D10",
        ev.CHANCE: "stones rolls d100s: the roll key rolls two D10",
        **dict.fromkeys(
            (ev.COUNTER_UP, ev.COUNTER_DOWN),
            "cards in hand, hand size and fused stones are the rules' to count: draw, pay and"
            " discard on the laptop",
        ),
    }

    # -- a game ------------------------------------------------------------------------
    def new_game(self, encounter: encounter_schema.Encounter, seed: int) -> Game:
        chars = [(c.label, c.team, c.player, c.hp) for c in encounter.characters]
        state = device.new_state(chars, engine.RULES_VERSION)
        return engine.new_game(encounter, seed, state)

    def apply(self, game: Game, cmd: Command) -> Applied:
        lines = engine.act(game, read_names(game, cmd), None)
        return Applied(lines, [list(r) for r in game.used])

    def replay(self, game: Game, cmd: Command, record: list[list]) -> list[str]:
        return engine.act(game, read_names(game, cmd), record)

    def project(self, game: Game) -> None:
        device.project(game)

    def record_from_json(self, data: list[list]) -> list[list]:
        out = []
        for r in data:
            tens, units, source = r
            dice.check_faces(dice.KIND_D100, (tens, units))
            out.append([int(tens), int(units), str(source)])
        return out

    def winner(self, game: Game) -> str | None:
        return kit.winner_name(game.teams, game.winner)

    def fighter_names(self, game: Game) -> list[str]:
        return [c.name for c in game.enc.characters]

    def gone(self, game: Game) -> set[str]:
        return set(game.gone)

    def off_board(self, game: Game) -> list[Fighter]:
        enc = game.enc
        acting = set(engine.to_act(game))
        return [
            Fighter(
                c.name,
                enc.teams[c.team],
                c.label,
                game.hp[i],
                c.hp,
                sorted(game.statuses[i]),
                [],
                i in acting,
                not game.standing(i),
            )
            for i, c in enumerate(enc.characters)
            if i >= game.state.count
        ]

    def snapshot(self, game: Game) -> dict:
        enc = game.enc
        return {
            "round": game.round,
            "turn": game.player_name,
            "team": enc.teams[enc.players[game.player].team],
            "active": None if game.active is None else game.ch(game.active).name,
            "done": list(game.done),
            "end_step": game.end_step,
            "winner": self.winner(game),
            "deck": len(game.deck),
            "discard": list(game.discard),  # face up, the last discarded last
            "players": [
                {
                    "name": p.name,
                    "team": enc.teams[p.team],
                    "hand": sorted(game.hands[k], key=engine._key),
                    "hand_size": game.hand_size(k),
                    "held": game.held(k),
                }
                for k, p in enumerate(enc.players)
            ],
            "characters": [
                {
                    "name": c.name,
                    "label": c.label,
                    "player": enc.players[c.player].name,
                    "team": enc.teams[c.team],
                    "hp": game.hp[i],
                    "hp_max": c.hp,
                    "fused": {f.name: list(f.cards) for f in game.fused[i]},
                    "statuses": dict(game.statuses[i]),
                    "stats": dict(game.stats[i]),
                }
                for i, c in enumerate(enc.characters)
            ],
        }

    # -- the d100 an action wants ------------------------------------------------------
    # With the dice from the board or the table (`play --dice board|entered`) an action
    # waits for each d100 it rolls (its crit, its [On X-Y] chances), in order; there is no
    # queue of rolls made ahead, so a spare roll never becomes a later one.
    asks_for_rolls = True

    def supply_rolls(self, game: Game, rolls: list[Supplied] | None) -> None:
        game.supply(rolls)

    def roll_lines(self, game: Game) -> list[str]:
        return list(game.roll_lines)

    # -- the board ---------------------------------------------------------------------
    def slot_done(self, session: SessionAPI, index: int) -> list[str] | None:
        """Next turn with one of the turn's characters selected: that character is done
        (`done CHAR`); once none is left to act the player's turn ends as by next turn
        (`end`), unless the hand is over its size: then the turn stays in its end step,
        and the line says why."""
        game: Game = session.game
        if index >= len(game.enc.characters):
            raise IllegalAction(f"the board named slot {index}, and there is no such character")
        lines = session.execute(f"done {game.ch(index).label}")
        if game.end_step and game.winner is None:
            try:
                lines += session.execute("end")
            except IllegalAction as err:
                lines.append(f"the turn stays in its end step: {err}")
        return lines

    # -- scores --------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        players = [
            (c.name, game.teams[c.team], {**game.stats[i], "standing": int(game.standing(i))})
            for i, c in enumerate(game.enc.characters)
        ]
        return kit.summary(players, game.teams, (*engine.STAT_KEYS, "standing"))

    def score_line(self, game: Game) -> str:
        teams = self.summary(game)["teams"]
        return "damage dealt: " + " · ".join(f"{t} {s['damage_dealt']}" for t, s in teams.items())

    # -- views -----------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.enc.name}, round {game.round}"
        if game.winner is not None:
            return title, f"the game is over: {self.winner(game)} wins"
        p = game.player
        team = game.enc.teams[game.enc.players[p].team]
        what = f"{game.player_name}'s turn ({team}), {game.held(p)}/{game.hand_size(p)} held"
        if game.end_step:
            return title, what + ", ending the turn"
        if game.active is not None:
            done = "+".join(game.done) or "nothing yet"
            return title, what + f", {game.ch(game.active).name} did {done}"
        return title, what

    def roster(self, game: Game) -> Table:
        rows = []
        for i, c in enumerate(game.enc.characters):
            rows.append(
                [
                    c.name,
                    game.enc.teams[c.team],
                    game.enc.players[c.player].name,
                    c.cls,
                    f"{game.hp[i]}/{c.hp}",
                    str(c.atk),
                    f"{game.armor(i, 'physical')}/{game.armor(i, 'spirit')}",
                    str(c.crt),
                    ", ".join(f.name for f in game.fused[i]) or "-",
                    ", ".join(f"{s} {n}" for s, n in game.statuses[i].items()) or "-",
                ]
            )
        headers = ["name", "team", "player", "class", "HP", "ATK", "armor", "CRT", "fused"]
        return Table([*headers, "statuses"], rows, (8, 9))

    def live_roster(self, game: Game) -> LiveTable:
        st = game.state
        turn = st.active  # the first of the characters of the player whose turn it is
        rows = []
        for i, c in enumerate(game.enc.characters):
            note = []
            if game.fused[i]:
                note.append("fused " + ", ".join(f.name for f in game.fused[i]))
            if game.statuses[i]:
                note.append(", ".join(f"[{s}] {n}" for s, n in game.statuses[i].items()))
            if c.name in game.gone:  # (`remove`: it left, it was not struck down)
                note.append(f"left the fight ({game.gone[c.name]})")
            elif not game.standing(i):
                note.append("incapacitated")
            p = c.player
            if i == turn and game.winner is None:
                note.append("hand: " + (engine._cards(game.hands[p]) or "empty"))
            rows.append(
                LiveRow(
                    [
                        c.name,
                        game.enc.teams[c.team],
                        game.enc.players[p].name,
                        f"{game.hp[i]}/{c.hp}",
                        f"{game.held(p)}/{game.hand_size(p)}",
                    ],
                    "; ".join(note),
                    # (the board's F_ACTIVE, for those past its slots too)
                    game.standing(i) and c.player == game.player and game.winner is None,
                )
            )
        return LiveTable(["name", "team", "player", "HP", "held"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        st = game.state
        out = []
        for i, c in enumerate(game.enc.characters[: st.count]):  # (the board's slots)
            slot = st.slots[i]
            marks = "".join(
                ch if slot.flags & (8 << m) else "." for ch, m in (("F", 0), ("M", 1), ("A", 2))
            )
            hp = "xx" if not game.standing(i) else f"{slot.health:>2}"
            if i == game.active:
                turn = ">"  # being activated
            elif slot.flags & F_ACTIVE:
                turn = "-" if slot.flags & F_ACTED else "*"
            else:
                turn = " "
            out.append(
                f"{turn} {c.label:<3} {game.enc.teams[c.team]:<6}"
                f" HP {hp}/{c.hp:<3} hand {slot.counters[0]:>2}/{slot.counters[1]:<2}"
                f" fused {slot.counters[2]} {marks}"
            )
        roll = st.roll
        if roll.kind == dice.KIND_D100:
            value = d100_value(roll.faces[0], roll.faces[1])
            out.append(f"  last d100: {roll.faces[0]} {roll.faces[1]} -> {value}")
        return "\n".join(out)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        chars = [c.name for c in game.enc.characters]
        present = [c for c in chars if c not in game.gone]
        joining = newcomers.complete(
            words, game.enc.source, ROSTER, present, [p.name for p in game.enc.players]
        )
        if joining is not None:
            return joining
        if words[0] == "dice" and len(words) == 2:
            return ["d100", "from"]
        if words[:2] == ["dice", "from"] and len(words) == 3:
            return ["board", "engine", "entered"]
        if words[0] == "discard":
            return list(dict.fromkeys(game.hands[game.player]))
        if len(words) == 2:
            return chars
        if len(words) == 3 and words[0] in NAMED_ABILITY:
            try:
                i = game.char(words[1])
            except IllegalAction:
                return []
            return [f'"{a.name}"' if " " in a.name else a.name for a in game.ch(i).abilities]
        return chars + ["pay=", "range="]

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words)

    def help_notes(self) -> list[str]:
        return [
            "cards are ELEMENT then stars (fire3), ELEMENT* the infinite one;"
            " pay=fire3,fire1 names them, else the cheapest that covers the cost is paid",
            newcomers.help_note(ROSTER),
        ]

    # -- odds ------------------------------------------------------------------------------
    def before(self, game: Game, line: str) -> list[str]:
        """The odds of an attack or an ability before it is made: its crit chance (CRT in
        100) with the damage either way, and each [On X-Y] chance."""
        try:
            cmd = self.language.parse(line)
            if cmd is None or cmd.verb not in ("attack", "ability") or game.winner is not None:
                return []
            cmd = read_names(game, cmd)
            i = game.char(cmd.arg(0, "a character"))
            c = game.ch(i)
            if cmd.verb == "attack":
                steps = [encounter_schema.Step("attack")]
                target = game.char(cmd.arg(1, "a target"))
            else:
                ability = game.ability_of(i, cmd.arg(1, "an ability"))
                steps = list(ability.steps)
                target = game.char(cmd.args[2]) if len(cmd.args) > 2 else i
        except IllegalAction:
            return []  # the action itself will say what is wrong
        said = []
        for step in steps:
            if step.chance:
                said.append(f"[On {step.lo}-{step.hi}] {step.hi - step.lo + 1}%")
            if step.kind == "attack":
                armor = game.armor(target, c.damage_type)
                crit, plain = max(0, 2 * c.atk - armor), max(0, c.atk - armor)
                said.append(f"crit {min(c.crt, 100)}%: {crit} damage, else {plain}")
        return [f"odds: {'; '.join(said)}"] if said else []

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        return ai.plan_turn(game)


def read_names(game: Game, cmd: Command) -> Command:
    """The command with an ability of several words typed without quotes made one word, a
    misspelt character or ability suggested, and a word left over past those the verb
    takes refused (Command.take_name), before the engine reads it."""
    slots = LANGUAGE.grammar[cmd.verb].slots if LANGUAGE.knows(cmd.verb) else ()
    chars = [c.name for c in game.enc.characters] + [c.label for c in game.enc.characters]
    if slots[:1] and slots[0].text == "CHAR" and cmd.args:
        names.suggest("character", cmd.args[0], chars, engine._norm)
    if cmd.verb not in NAMED_ABILITY or len(cmd.args) < 2:
        return cmd
    i = game.char(cmd.args[0])
    return cmd.take_name([a.name for a in game.ch(i).abilities], "ability", engine._norm)


RULESET = Stones()
