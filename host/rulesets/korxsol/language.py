"""Korxsol's command language: its verbs, one action per line, shared by `turnlight run`,
`play` and the journal. docs/commands.md is its reference; keep the two in step.

    attack Kaelen "Flame Slash" Orrin sol=power cornered=Orrin

The shape of a line (words, `key=value` options, `#` comments) is every ruleset's
(host/core/commandline.py); `fulldraw` and `reroll` are options written alone.
"""

from __future__ import annotations

from host.core.commandline import WANTED_VERBS, Command, Language

__all__ = ["Command", "LANGUAGE", "SESSION_VERBS", "VERBS", "parse", "unknown_verb", "usage"]

# verb -> (arguments, what it does); the help text of `play` and docs/commands.md use it.
VERBS: dict[str, tuple[str, str]] = {
    "initiative": (
        "[sol=NAME,NAME]",
        "everyone rolls AGILITY for the turn order (sol=: 1 SOL, 3 more dice); round 1 starts",
    ),
    "order": ("NAME NAME ...", "the game master sets the turn order by hand; round 1 starts"),
    "move": ("NAME [SPACES] [fall=F:T[:water]]", "spend 1 AP per space moved"),
    "attack": ("NAME MOVE [TARGET ...] [options]", "use a combat move (one per turn)"),
    "item": ("NAME ITEM [TARGET ...] [options]", "use an item for 1 AP"),
    "artifact": ("NAME ARTIFACT [TARGET ...] [options]", "activate an active artifact (no AP)"),
    "struggle": ("NAME", "grappled: spend 1 AP, flip POWER chance tokens to break free"),
    "release": ("NAME", "let go of the creature you are grappling (free)"),
    "pivot": ("NAME [fall=F:T[:water]]", "turn the creature you grapple to another space (free)"),
    "crush": (
        "NAME [sol=power] [threat=WHY]",
        "grappling: your combat is a POWER_Roll of un-blockable damage",
    ),
    "terrain": (
        "NAME ground|shallows|water|lava|ice [slide=no]",
        "NAME enters that terrain now: lava may burn, water costs AP, ice slides",
    ),
    "phase": ("[NAME]", "end the Action Phase: only `end` (the Cooldown Phase) is left"),
    "end": ("[NAME]", "end the active turn: its Cooldown Phase, then the next turn"),
    "adjust": (
        "NAME WHAT +N|-N",
        "the game master's correction of frost, burn, fear, kor, armor, sol or ap",
    ),
}
# Session commands: handled around the game, not by it.
SESSION_VERBS: dict[str, tuple[str, str]] = {
    "dice": (
        "[PURPOSE] FACE ...",
        "enter physical dice: for the roll a waiting action wants, else the next of PURPOSE",
    ),
    "dice clear": ("", "drop every entered roll still waiting"),
    "undo": ("[N]", "take back the last N actions (default 1)"),
    "redo": ("[N]", "put back N undone actions"),
    "odds": (
        "NAME MOVE|ITEM|ARTIFACT TARGET [TARGET ...] [options]",
        "exact chance to hit and damage distribution",
    ),
    "new": ("", "start the next game of this session with the same encounter"),
    **WANTED_VERBS,  # roll, cancel: korxsol asks for its rolls (host/core/session.py)
}


LANGUAGE = Language(VERBS, SESSION_VERBS, flags=("fulldraw", "reroll"), asides=("odds",))
parse = LANGUAGE.parse
usage = LANGUAGE.usage
unknown_verb = LANGUAGE.unknown_verb
