"""What korxsol shows in tables and text: the fighters (the full table and the live
view's compact one), the scores, and the device view drawn as a grid of text. The host
lays them out (host/screens/text_tables.py); this module only says what goes in each cell."""

from __future__ import annotations

from host.core.plurals import plural
from host.rulesets.korxsol.device import BURN, FROST
from host.rulesets.korxsol.engine import REASON_NAMES, Game
from shared import cooldowns
from shared.state import F_ACTIVE, F_OUT, GameState

TEAM_RGB = ((255, 176, 0), (100, 143, 255), (220, 38, 127), (120, 220, 120))


def _block(rgb: tuple[int, int, int], level: float, color: bool, char: str) -> str:
    if not color:
        return char * 2
    r, g, b = (int(c * level) for c in rgb)
    return f"\x1b[48;2;{r};{g};{b}m{char * 2}\x1b[0m"


def render_grid(state: GameState, color: bool = False) -> str:
    """The board's 8x4 keys as the device view drives them: one column per turn position;
    rows: team (bright = active), KOR (as a share of the start value, 0..9), action points,
    frost (F) / burn (B) stacks."""
    rows = ["", "", "", ""]
    for pos in range(8):
        if pos >= state.count:
            for r in range(4):
                rows[r] += _block((0, 0, 0), 0, color, " ") if color else " .."
            continue
        s = state.slots[state.order[pos]]
        out = bool(s.flags & F_OUT)
        team = TEAM_RGB[s.team % 4]
        bright = 1.0 if s.flags & F_ACTIVE else (0.1 if out else 0.4)
        kor = s.health / s.health_max if s.health_max else 0
        if color:
            rows[0] += " " + _block(team, bright, True, "*" if s.flags & F_ACTIVE else " ")
            rows[1] += " " + _block((220, 40, 40), max(0.08, kor) if not out else 0, True, " ")
            rows[2] += " " + _block((240, 240, 240), s.actions / 7, True, str(s.actions))
            stack = "F" if s.counters[FROST] else ("B" if s.counters[BURN] else " ")
            rows[3] += " " + _block(
                (80, 200, 255) if s.counters[FROST] else (255, 90, 0),
                0.8 if stack != " " else 0,
                True,
                stack,
            )
        else:
            rows[0] += " " + (s.label[:2].upper() if s.flags & F_ACTIVE else s.label[:2].lower())
            rows[1] += " " + ("xx" if out else f"{round(kor * 9):>2}")
            rows[2] += " " + f"{s.actions:>2}"
            rows[3] += " " + (
                f"F{s.counters[FROST]}"
                if s.counters[FROST]
                else (f"B{s.counters[BURN]}" if s.counters[BURN] else " -")
            )
    names = ["turn ", "KOR/9", "AP   ", "F/B  "]
    return "\n".join(f"{names[r]}|{rows[r]}" for r in range(4))


# What the device view's rows mean, printed once above the first one.
GRID_LEGEND = (
    "rows: turn (UPPER CASE: whose turn), KOR/9 (KOR left, 0..9 of its start; xx: down), "
    "AP, F/B (stacks)"
)


def fighter_rows(game: Game) -> list[list[str]]:
    """One row per turn position: order, reason, name, team, KOR, AP, SOL, armor, statuses,
    cooldowns."""
    st = game.state
    rows = []
    positions = range(st.count) if game.started else range(len(game.fighters))
    for pos in positions:
        index = st.order[pos] if game.started else pos
        f = game.fighters[index]
        data = game.fighter_json(f)
        marks = [] if data["terrain"] == "ground" else [f"on {data['terrain']}"]
        sts = data["status"]
        for key in ("frost", "burn", "fear"):
            if sts[key]:
                marks.append(f"{key} {sts[key]}")
        for key in ("frozen", "knocked_down", "pinned", "grappled", "blinded"):
            if sts[key]:
                marks.append(key.replace("_", " "))
        if sts["charging"]:
            marks.append(f"charging {sts['charging']}")
        if sts["grappling"]:
            marks.append(f"grappling {sts['grappling']}")
        # A move's changes together: "Rally Cry: power+1 agility+1 (2 turns)".
        given: dict[tuple[str, int], list[str]] = {}
        for m in f.modifiers:
            left = cooldowns.remaining(st.slots[m.owner], m.timer) if m.timer else 0
            amount = "" if m.key in ("true_sight", "threat") else f"{m.amount:+d}"
            given.setdefault((m.source, left), []).append(f"{m.key}{amount}")
        for (source, left), changes in given.items():
            marks.append(f"{source}: {' '.join(changes)} ({plural(left, 'turn')})")
        reason = REASON_NAMES[st.order_reason[pos]] if game.started else ""
        if game.order_by_gm:
            reason = "game master"
        rows.append(
            [
                str(pos + 1),
                reason,
                ("> " if game.active is f else "  ") + f.spec.name,
                data["team"],
                _health(game, f.spec.name, data),
                f"{data['ap']}/{data['ap_max']}",
                str(data["sol"]),
                str(data["armor"]),
                ", ".join(marks) or "-",
                ", ".join(f"{k} {v}" for k, v in data["cooldowns"].items()) or "-",
            ]
        )
    return rows


FIGHTER_HEADERS = [
    "#",
    "placed by",
    "name",
    "team",
    "KOR",
    "AP",
    "SOL",
    "armor",
    "status",
    "cooldowns",
]


# The fighter table's columns that hold lists ("a, b, c"): they wrap to fit a terminal.
FIGHTER_WRAP = (FIGHTER_HEADERS.index("status"), FIGHTER_HEADERS.index("cooldowns"))

# `play`'s live view has to fit 80x24 with a 2v2 fight: short headers, the reason a fighter
# holds its place in a word, and its statuses and cooldowns in one column.
REASON_SHORT = {
    "successes": "dice",
    "base agility": "agility",
    "reroll": "reroll",
    "out of play": "out",
    "game master": "GM",
}
COMPACT_HEADERS = ["by", "name", "team", "KOR", "AP", "SOL", "arm"]


def _health(game: Game, name: str, data: dict) -> str:
    """The KOR column: LEFT for one who left the fight (`remove`: not knocked down), DOWN
    for one knocked out, else KOR/most."""
    if name in game.gone:
        return "LEFT"
    return "DOWN" if data["down"] else f"{data['kor']}/{data['kor_max']}"


def compact_fighter_rows(game: Game) -> list[tuple[list[str], str]]:
    """fighter_rows for a narrow screen, in turn order: the columns of COMPACT_HEADERS, and
    the fighter's statuses and cooldowns in one note ("" for none)."""
    rows = []
    for _, reason, name, team, kor, ap, sol, armor, status, cooling in fighter_rows(game):
        notes = [] if status == "-" else [status]
        if cooling != "-":
            notes.append(f"cooling {cooling}")
        short = REASON_SHORT.get(reason, reason)
        rows.append(([short, name, team, kor, ap, sol, armor], "; ".join(notes)))
    return rows


def score_line(game: Game) -> str:
    """Every team's score and its players' in one line: `Dawn 12 (Kaelen 9, Vexa 3)`."""
    parts = []
    for index, (team, stats) in enumerate(game.team_stats().items()):
        players = [f for f in game.fighters if f.spec.team == index]
        members = ", ".join(f"{f.spec.name} {f.stats.score}" for f in players)
        parts.append(f"{team} {stats.score} ({members})")
    return "scores: " + " · ".join(parts)


SCORE_HEADERS = [
    "who",
    "score",
    "dealt",
    "taken",
    "hits",
    "dodges",
    "blocked",
    "crits",
    "KOs",
    "luck",
]


def score_rows(game: Game) -> list[list[str]]:
    rows = []

    def row(name, s):
        return [
            name,
            str(s.score),
            str(s.damage_dealt),
            str(s.damage_taken),
            str(s.hits),
            str(s.dodges),
            str(s.blocked),
            str(s.crits),
            str(s.kos),
            f"{s.luck:+.2f}",
        ]

    for f in game.fighters:
        rows.append(row(f.spec.name, f.stats))
    for name, s in game.team_stats().items():
        rows.append(row(f"team {name}", s))
    return rows
