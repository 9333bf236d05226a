"""Flare as the host sees it: the `Ruleset` interface (host/core/interface.py) over flare's own
modules. encounter_schema.py and cards.py read the files and the deck, language.py declares the
verbs, engine.py plays the game, device.py projects it onto the board, ai.py plays the demo. The
rules text is flare-summoning-turn.txt; docs/rulesets/flare.md says what is implemented."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from host.core import kit, names
from host.core.commandline import Command
from host.core.interface import Applied, IllegalAction, LiveRow, LiveTable, Table
from host.rulesets.flare import ai, choices, device, encounter_schema
from host.rulesets.flare.cards import RANKS, Creature, Flare
from host.rulesets.flare.engine import COLUMNS, RULES_VERSION, Game
from host.rulesets.flare.language import LANGUAGE
from shared import events as ev
from shared.state import GameState
from shared.words import EVENT_NAMES

# Flare's players take turns round the table from a shuffled deck each, draw up to a hand
# that the turn's scoring refills, and hold tokens on one shared grid: its turn text has a
# player joining or leaving nowhere, so neither is taken under way (docs/rulesets/flare.md).
NO_NEWCOMERS = (
    "add: a flare player cannot join a game under way (each player's deck, hand and place in"
    " the turn's rotation are dealt as the game begins): start a new game with them"
)
NO_LEAVERS = (
    "remove: a flare player cannot leave a game under way (their tokens hold the grid and the"
    " turn passes round every player): end the game, or pass control to a teammate"
)

if TYPE_CHECKING:
    from host.core.interface import SessionAPI

GLYPH = ("c", "H", "L")
STATS = ("score", "destroyed", "summoned", "legendaries", "flares", "placed", "tasks")


class FlareRules(kit.Rules):
    id = "flare"
    # 2: a Timeline (host.core.timeline) and a bounded log, not two lists; 3: the encounter's
    # flare_timing and discard_legendary
    state_version = 3
    description = (
        "Flare: summon creatures by patterns on a token grid, call Flares (Duel, Battle, teams)"
    )
    rules_version = RULES_VERSION
    board_id = device.BOARD_ID  # the state's ruleset field
    encounters = encounter_schema  # (the kit's hook: host/core/kit.py Rules)
    health_words = ("hand",)  # its health is the hand: the log never tells it (audience.py)
    bench_module = "host.rulesets.flare.bench_turn:engine_turn"  # `turnlight bench`
    language = LANGUAGE
    start_command = ""
    next_turn_commands = ("end",)
    session_totals = ("score", "destroyed")
    chart_panels = (("score", "points"), ("tokens", "tokens on the grid"))
    grid_legend = "the token grid: 1/2 whose token, c common, H heroic, L legendary; * whose turn"
    score_words = ("player", "team")
    board_refusals = {
        **dict.fromkeys(
            (ev.COUNTER_UP, ev.COUNTER_DOWN),
            "flare's counters are the grid's: place and summon on the laptop",
        ),
        **dict.fromkeys(
            (ev.ROLL_ACTION, ev.CHANCE, ev.D100),
            "flare rolls no dice: the engine shuffles the decks",
        ),
        **{
            code: f"flare has no use for the board's {EVENT_NAMES[code]}"
            for code in (ev.END_COMBAT, ev.RESET)
        },
    }

    # -- a game -------------------------------------------------------------------------------
    def new_game(self, enc: encounter_schema.Encounter, seed: int) -> Game:
        game = Game(enc, seed)
        game.board = device.new_state(game)
        return game

    def apply(self, game: Game, cmd: Command) -> Applied:
        if cmd.verb == "add":
            raise IllegalAction(NO_NEWCOMERS)
        if cmd.verb == "remove":
            raise IllegalAction(NO_LEAVERS)
        return Applied(self._act(game, cmd), [])

    def replay(self, game: Game, cmd: Command, record: Any) -> list[str]:
        return self._act(game, cmd)

    def project(self, game: Game) -> None:
        device.project(game, game.board)

    def _act(self, game: Game, cmd: Command) -> list[str]:
        if cmd.verb == "place":
            lines = game.place(cmd.arg(0, "a square"), cmd.opts.get("from"))
        elif cmd.verb == "summon":
            card = self._card(game, cmd.arg(0, "a card"))  # (its grammar needs at=)
            lines = game.summon(
                card,
                cmd.opts["at"],
                cmd.list_opt("do"),
                cmd.opts.get("from"),
                cmd.opts.get("borrow"),
            )
        elif cmd.verb == "discard":
            returned = [self._card(game, c) for c in cmd.list_opt("return")]
            lines = game.discard(self._card(game, cmd.arg(0, "a card")), returned)
        elif cmd.verb == "flare":
            card_id = self._card(game, cmd.args[0]) if cmd.args else None
            lines = game.flare(
                card_id, cmd.list_opt("top"), cmd.list_opt("bottom"), cmd.opts.get("vs")
            )
        elif cmd.verb == "pass":
            lines = game.pass_control([self._card(game, c) for c in cmd.args])
        else:  # end
            lines = game.end(cmd.opts.get("claim"))
        game.log.extend(lines)
        return lines

    def _card(self, game: Game, word: str) -> str:
        deck = game.enc.deck
        known = sorted({c.id for c in deck.creatures + deck.legendaries + deck.flares})
        names.suggest("card", word, known)
        return word.lower()

    def winner(self, game: Game) -> str | None:
        return game.winner

    def state(self, game: Game) -> GameState:
        board: GameState = game.board
        return board

    def fighter_names(self, game: Game) -> list[str]:
        return list(game.enc.players)  # a slot a player

    def snapshot(self, game: Game) -> dict:
        enc = game.enc
        return {
            "round": game.round,
            "turn": game.player,
            "control": game.enc.players[game.controller],
            "actions_left": game.actions_left,
            "tasks_shown": list(game.tasks_shown),
            "winner": game.winner,
            "grid": [
                [
                    None if t is None else {"owner": enc.players[t.owner], "rank": RANKS[t.rank]}
                    for t in game.grid[r * enc.columns : (r + 1) * enc.columns]
                ]
                for r in range(enc.rows)
            ],
            "players": [
                {
                    "name": name,
                    "team": game.enc.teams[game.enc.team_of[p]],
                    "score": game.scores[p],
                    "supply": game.supply[p],
                    "legendary_tokens": game.legends[p],
                    "hand": game.hands[p].all(),
                    "odd_common": game.odd_common[p],
                    "tasks": game.stats[p].tasks,
                }
                for p, name in enumerate(enc.players)
            ],
        }

    def session_command(self, session: SessionAPI, cmd: Command) -> list[str]:
        if cmd.verb == "show" and cmd.args:
            return [line for word in cmd.args for line in card_lines(session.game.card(word))]
        if cmd.verb == "show":
            game = session.game
            lines = self.device_grid(game, False).splitlines()
            for p, name in enumerate(game.enc.players):
                lines.append(f"{name}'s hand: {', '.join(game.hands[p].all()) or 'empty'}")
            return lines
        return super().session_command(session, cmd)

    # -- scores --------------------------------------------------------------------------------
    def summary(self, game: Game) -> dict:
        enc = game.enc
        players = []
        for p, name in enumerate(enc.players):
            s = game.stats[p]
            stats = {
                "score": game.scores[p],
                "destroyed": s.destroyed,
                "summoned": s.summoned,
                "legendaries": s.legendaries,
                "flares": s.flares,
                "placed": s.placed,
                "tasks": s.tasks,
            }
            players.append((name, enc.teams[enc.team_of[p]], stats))
        return kit.summary(players, enc.teams, STATS)

    def score_table(self, game: Game) -> Table:
        table = super().score_table(game)
        if game.enc.mode != "team":  # a player is a side: the team rows say it again
            del table.rows[len(game.enc.players) :]
        return table

    def score_line(self, game: Game) -> str:
        totals = game.team_scores()
        return "scores: " + " · ".join(f"{t} {totals[i]}" for i, t in enumerate(game.enc.teams))

    # -- views ---------------------------------------------------------------------------------
    def headline(self, game: Game) -> tuple[str, str]:
        title = f"{game.enc.name}, round {min(game.round, game.enc.rounds)}"
        if game.winner is not None:
            return title, "a draw" if game.winner == "nobody" else f"{game.winner} wins"
        flare = " · may call a Flare" if device.may_call_flare(game, game.current) else ""
        return title, f"{game.player}'s turn: {game.actions_left} action(s) left{flare}"

    def _row(self, game: Game, p: int) -> list[str]:
        upgraded, tokens = game.counts(p)
        return [
            game.enc.players[p],
            str(game.scores[p]),
            f"{game.supply[p]}+{game.legends[p]}L",
            f"{tokens} ({upgraded} up)",
            ", ".join(game.hands[p].all()),
        ]

    def roster(self, game: Game) -> Table:
        rows = [self._row(game, p) for p in range(len(game.enc.players))]
        return Table(["player", "score", "supply", "on grid", "hand"], rows, wrap=(4,))

    def live_roster(self, game: Game) -> LiveTable:
        rows = []
        for p in range(len(game.enc.players)):
            cells = self._row(game, p)
            rows.append(LiveRow(cells[:4], cells[4], p == game.current))
        return LiveTable(["player", "score", "supply", "on grid"], rows)

    def device_grid(self, game: Game, color: bool) -> str:
        enc = game.enc
        lines = ["    " + " ".join(f"{COLUMNS[c]:>2}" for c in range(enc.columns))]
        for r in range(enc.rows):
            cells = []
            for c in range(enc.columns):
                t = game.at(r, c)
                cells.append(" ." if t is None else f"{t.owner + 1}{GLYPH[t.rank]}")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        for p, name in enumerate(enc.players):
            mark = "*" if p == game.current and game.winner is None else " "
            lines.append(
                f"{mark} {p + 1} {name:<8} score {game.scores[p]:>3}  actions"
                f" {game.actions_left if mark == '*' else 0}"
            )
        return "\n".join(lines)

    def complete(self, game: Game, words: list[str]) -> list[str]:
        hand = game.hands[game.current]
        if words[0] in ("summon", "discard") and len(words) == 2:
            return sorted(set(hand.creatures + hand.legendaries))
        if words[0] == "flare" and len(words) == 2:
            return sorted(set(hand.flares))
        if words[0] == "show":
            return sorted(set(hand.creatures + hand.legendaries + hand.flares))
        if words[0] == "place" and len(words) == 2:
            return [
                game.name_of(r, c)
                for r in range(game.enc.rows)
                for c in range(game.enc.columns)
                if game.at(r, c) is None
            ]
        return []

    def unusable(self, game: Game, words: list[str], names: list[str]) -> dict[str, str]:
        return choices.unusable(game, words, names)

    def help_notes(self) -> list[str]:
        return [
            "squares are a column letter and a row number: a1 is the top left",
            "`show` draws the grid and the hands, `show CARD` a card's pattern;"
            " docs/rulesets/flare.md has the rules",
            "patterns: * the summoned token, . any square, _ empty, o yours, c h l your common,"
            " heroic, legendary, u your upgraded, x an enemy's",
        ]

    # -- the demo AI -------------------------------------------------------------------------
    def plan_turn(self, game: Game) -> list[str]:
        def act(g: Game, line: str) -> None:
            cmd = LANGUAGE.parse(line)
            assert cmd is not None
            self._act(g, cmd)

        return ai.plan_turn(game, act)


def describe(card: Creature | Flare) -> str:
    """One card in a line, for `encounter check` and the docs."""
    if isinstance(card, Flare):
        return f"{card.id}: top {card.top} bottom {card.bottom}"
    return f"{card.id}: {RANKS[card.rank]} {'/'.join(card.pattern)}"


def card_lines(card: Creature | Flare) -> list[str]:
    """A card as `show CARD` draws it: its pattern row by row (a Flare: its two halves)."""
    if isinstance(card, Flare):
        return [describe(card)]
    effects = ", ".join(e.text() for e in card.effects)
    head = f"{card.id} ({card.name}): {RANKS[card.rank]}" + (f", then {effects}" if effects else "")
    return [head] + ["  " + " ".join(row) for row in card.pattern]


RULESET = FlareRules()
