"""The ruleset kit's campaign hook: what of a fighter outlasts a fight and is carried into the
next fight of a campaign (host/core/campaign.py), and what the table may do between fights.

A ruleset says it through `Ruleset.carry()`, a `Carry` (None, the interface's default: the
game has no campaign). This base carries nothing: every fight starts from the party's stat
lines as the party file writes them. A ruleset that keeps
something between fights (d20's hit points) names the keys of its stat line that hold it
(`keys`, read by its own encounter reader, so a fight starts with them), reads them off a
finished game (`after` asks `carried` and `died` of each), and may offer rests (`rests`,
`rest` asks `check_rest` and `rested`). Everything here works on
plain data (a fighter's stat line as a dict, its carried keys as a dict), so the campaign
code journals it as it is.
"""

from __future__ import annotations

from typing import Any

Line = dict[str, Any]  # a fighter's stat line, as its encounter file writes it


class Carry:
    """What carries over between the fights of a campaign: by default nothing."""

    # How the ruleset's encounter file writes a fighter (its newcomers' Roster,
    # host/core/newcomers.py); None: the game has no campaign (its party cannot be written
    # apart from a fight).
    roster: Any = None
    # The stat-line keys that carry a fighter's state into the next fight (read by the
    # ruleset's encounter reader), the keys `campaign adjust` may set beside the roster's.
    keys: tuple[str, ...] = ()
    # Of `keys`, those the campaign keeps but a stat line does not take (d20's `dead`).
    apart: tuple[str, ...] = ()
    # Of `keys`, those that hold a list: `campaign adjust` reads `conditions=poisoned,prone`
    # as one, as `add` does a list the file writes.
    lists: tuple[str, ...] = ()
    # Tables of the encounter file a party file may hold beside its fighters, which its lines
    # name (korxsol's moves, items and artifacts): added to each fight's, by name.
    shared_tables: tuple[str, ...] = ()
    # The party's team in an encounter file that names none and holds only the other side
    # ("": the file must name its teams, or hold a fighter of the party's team).
    first_team: str = ""
    # One line for `campaign show` and the ruleset's doc: what carries, and why.
    what: str = "nothing: every fight starts from the party's stat lines"
    # The rests the table may take between fights: kind -> what it does, in a few words.
    rests: dict[str, str] = {}
    # The carried key that says a character died ("": nobody stays dead between fights):
    # true keeps it out of the fights until `campaign adjust NAME KEY=false`.
    dead_key: str = ""

    def __init__(self, roster: Any = None) -> None:
        if roster is not None:
            self.roster = roster

    def after(self, game: Any, names: list[str]) -> dict[str, Line]:
        """Each of `names` (the party's fighters in the game) as the fight left it: its
        carried keys (`carried`, and `dead_key` true for one `died`); {} for a game that
        carries nothing."""
        out: dict[str, Line] = {}
        if not self.keys:
            return out
        for f in game.fighters:
            if f.name in names:
                out[f.name] = self.carried(game, f)
                if self.dead_key and self.died(f):
                    out[f.name][self.dead_key] = True
        return out

    def carried(self, game: Any, f: Any) -> Line:
        """The hook `after` asks of each character: its carried keys as the fight left it
        (but `dead_key`)."""
        return {}

    def died(self, f: Any) -> bool:
        """Whether the fight left character `f` dead (with a `dead_key`)."""
        return bool(f.dead)

    def scores(self, game: Any, summary: dict, names: list[str]) -> dict[str, dict[str, int]]:
        """Each of `names`' statistics over the fight (`summary`: the ruleset's), as the
        campaign's table adds them up: by default the summary's own."""
        players = summary.get("players", {})
        return {n: dict(players[n]) for n in names if n in players}

    def dead(self, line: Line) -> bool:
        """Whether a character with this stat line (carried keys applied) is dead: it stays
        out of the fights until the game master says otherwise (`campaign adjust`)."""
        return bool(self.dead_key and line.get(self.dead_key))

    def rest(
        self, kind: str, party: dict[str, Line], heal: dict[str, int]
    ) -> tuple[dict[str, Line], list[str]]:
        """A rest of `kind` taken by the party ({name: stat line, carried keys applied};
        the dead among them too): each living character's carried keys after it, and the
        lines that say what changed (`said`). `heal`: the hit points the game master gives
        each (a short rest's spent hit dice). Raises IllegalAction for a rest the game has
        not, or one `check_rest` refuses. The ruleset fills `rested`."""
        from host.core.errors import IllegalAction

        if kind not in self.rests:
            offered = ", ".join(self.rests) or "none: `campaign adjust` sets what the table decides"
            raise IllegalAction(f"no {kind} rest in this game (its rests: {offered})")
        self.check_rest(kind, party, heal)
        self.check_heal(party, heal)
        out: dict[str, Line] = {}
        lines: list[str] = []
        for name, line in party.items():
            if not self.dead(line):
                before, out[name] = self.rested(kind, line, heal.get(name, 0))
                lines.append(changed(name, self.said, before, out[name]))
        return out, lines

    # What a rest says it changed: (key, label) pairs of the lines `rested` returns.
    said: tuple[tuple[str, str], ...] = ()

    def check_rest(self, kind: str, party: dict[str, Line], heal: dict[str, int]) -> None:
        """Refuses (IllegalAction) a rest the party may not take now; by default none."""

    def rested(self, kind: str, line: Line, heal: int) -> tuple[Line, Line]:
        """A living character's carried keys before a rest of `kind` and after it (`heal`:
        the hit points the game master gives it)."""
        raise NotImplementedError

    def check_adjust(self, key: str, value: Any) -> str | None:
        """What is wrong with `key=value` set by `campaign adjust` on a carried key, or None;
        the ruleset's encounter reader checks the rest when the next fight is built."""
        if key == self.dead_key and key and not isinstance(value, bool):
            return f"{key}= is true or false"
        return None

    def check_heal(self, party: dict[str, Line], heal: dict[str, int]) -> None:
        """For `rest`: refuses (IllegalAction) hit points given to one not in the party or
        dead."""
        from host.core.errors import IllegalAction

        for name in heal:
            if name not in party:
                raise IllegalAction(f"--heal {name}: not in the party ({', '.join(party)})")
            if self.dead(party[name]):
                raise IllegalAction(
                    f"--heal {name}: {name} is dead (`campaign adjust` it first if it is not)"
                )


def changed(name: str, keys: tuple[tuple[str, str], ...], before: Line, after: Line) -> str:
    """A rest's line for one character: each of `keys` ((key, label) pairs) whose value the
    rest changed, as "label before -> after", or "no change"."""
    changes = [f"{label} {before[k]} -> {after[k]}" for k, label in keys if after[k] != before[k]]
    return f"{name}: {', '.join(changes) or 'no change'}"
