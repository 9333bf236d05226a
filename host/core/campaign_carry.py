"""The ruleset kit's campaign hook: what of a fighter outlasts a fight and is carried into the
next fight of a campaign (host/core/campaign.py), and what the table may do between fights.

A ruleset says it through `Ruleset.carry()`, a `Carry` (None, the interface's default: the
game has no campaign). This base carries nothing: every fight starts from the party's stat
lines as the party file writes them. A ruleset that keeps
something between fights (d20's hit points) names the keys of its stat line that hold it
(`keys`, read by its own encounter reader, so a fight starts with them), reads them off a
finished game (`after`), and may offer rests (`rests`, `rest`). Everything here works on
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

    def __init__(self, roster: Any = None) -> None:
        if roster is not None:
            self.roster = roster

    def after(self, game: Any, names: list[str]) -> dict[str, Line]:
        """Each of `names` (the party's fighters in the game) as the fight left it: its
        carried keys ({} for a game that carries nothing)."""
        return {}

    def scores(self, game: Any, summary: dict, names: list[str]) -> dict[str, dict[str, int]]:
        """Each of `names`' statistics over the fight (`summary`: the ruleset's), as the
        campaign's table adds them up: by default the summary's own."""
        players = summary.get("players", {})
        return {n: dict(players[n]) for n in names if n in players}

    def dead(self, line: Line) -> bool:
        """Whether a character with this stat line (carried keys applied) is dead: it stays
        out of the fights until the game master says otherwise (`campaign adjust`)."""
        return False

    def rest(
        self, kind: str, party: dict[str, Line], heal: dict[str, int]
    ) -> tuple[dict[str, Line], list[str]]:
        """A rest of `kind` taken by the party ({name: stat line, carried keys applied};
        the dead among them too): each character's carried keys after it, and the lines
        that say what changed. `heal`: the hit points the game master gives each (a short
        rest's spent hit dice). Raises IllegalAction for a rest the game has not."""
        from host.core.errors import IllegalAction

        offered = ", ".join(self.rests) or "none: `campaign adjust` sets what the table decides"
        raise IllegalAction(f"no {kind} rest in this game (its rests: {offered})")

    def check_adjust(self, key: str, value: Any) -> str | None:
        """What is wrong with `key=value` set by `campaign adjust` on a carried key, or None;
        the ruleset's encounter reader checks the rest when the next fight is built."""
        return None
