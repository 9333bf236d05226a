"""The web pages' pictures in docs/images/: `python -m host.lab.web_pictures [DIR]` (or
`make web-images`) photographs the players' page and the game master's console in
Debian's headless Chromium at a phone's size (390x844), 1280x720 and a TV's (1920x1080),
from a korxsol fight of eight fighters played on the simulated board a few actions in:
`web-player-phone.png`, `web-player-720p.png`, `web-player-tv.png` and the same for `gm`
(the console opens on the acting fighter's moves by itself), d20's console with eight
creatures at 1280x720, `web-gm-d20-720p.png`, and the players' page with a long order
(`big_table`: 24 fighters at 1920x1080, 16 at 1280x720).

The eight-fighter encounter is also what the pages' tests use to check the players' page
fits a TV (tests/test_web_pages.py).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

SIZES = {"phone": (390, 844), "720p": (1280, 720), "tv": (1920, 1080)}
# Four more fighters for korxsol's Ember Ridge (each a copy of one of its own, renamed).
MORE = (
    ("Kaelen", "Selka", "Sel"),
    ("Vexa", "Tarn", "Tar"),
    ("Orrin", "Wren", "Wre"),
    ("Brimm", "Ulric", "Ulr"),
)


def eight_fighters() -> str:
    """Korxsol's bundled encounter with four more fighters: eight, two teams of four."""
    from host.core import registry

    text = registry.get("korxsol").example_path().read_text()
    blocks = text.split("[[solighter]]")
    extra = []
    for whole in blocks[1:]:
        lines = whole.split("\n")
        end = next((i for i, line in enumerate(lines) if i and line.startswith("[")), len(lines))
        block = "\n".join(lines[:end]).rstrip() + "\n\n"  # the fighter's keys alone
        for name, new, label in MORE:
            if f'name = "{name}"' in block:
                copy = block.replace(f'name = "{name}"', f'name = "{new}"')
                old_label = next(line for line in copy.splitlines() if line.startswith("label = "))
                extra.append(copy.replace(old_label, f'label = "{label}"'))
    return text.rstrip() + "\n\n" + "".join("[[solighter]]" + b for b in extra)


def d20_eight() -> str:
    """d20's bundled encounter with a third goblin: eight creatures."""
    from host.core import registry

    text = registry.get("d20").example_path().read_text()
    assert "count = 2" in text
    return text.replace("count = 2", "count = 3", 1)


def fight(seed: int = 3):  # -> Session
    """The eight fighters' session, from the encounter above."""
    from host.core import registry
    from host.core.session import Session

    r = registry.get("korxsol")
    return Session(r.parse_encounter(eight_fighters(), "eight.toml"), seed)


def d20_fight(seed: int = 3):  # -> Session
    """d20's eight creatures, initiative rolled and a condition on the acting one (its
    card offers `recover` with it)."""
    from host.core import registry
    from host.core.session import Session

    r = registry.get("d20")
    session = Session(r.parse_encounter(d20_eight(), "eight.toml"), seed)
    session.execute("initiative")
    acting = next(f for f in r.fighters(session.game) if f.current)
    session.execute(f"condition {acting.label} poisoned")
    return session


# The newcomers of the big table's fight, each a stones Wisp, dealt to the players in turn.
NEWCOMERS = (
    "Selka Tarn Wren Ulric Ilsa Joss Nyra Odo Pell Quin Rhea Sorn Tova Ugo Vale Wynn Yara Zeb"
).split()


@contextmanager
def _room_for(fighters: int) -> Iterator[None]:
    """A fight may hold `fighters` while it is built: the big-table issue (item 1) raises
    what every game takes to 24; until it lands, host/core/newcomers.py says 16."""
    from host.core import newcomers

    was = newcomers.MOST_FIGHTERS
    newcomers.MOST_FIGHTERS = max(was, fighters)
    try:
        yield
    finally:
        newcomers.MOST_FIGHTERS = was


def big_table(fighters: int = 24, seed: int = 3):  # -> Session
    """Stones' bundled Mossy Ford (six characters) and Wisps joining it until it has
    `fighters`, dealt to its four players in turn: a long order
    of fighters, for the screens' layouts (the terminal's roster, the players' TV page)."""
    from host.core import registry
    from host.core.session import Session

    r = registry.get("stones")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), seed)
    players = [p.name for p in session.game.enc.players]
    with _room_for(fighters):
        for n, name in enumerate(NEWCOMERS[: max(0, fighters - 6)]):
            session.execute(f"add Wisp as {name} player={players[n % len(players)]}")
    assert len(r.fighter_names(session.game)) == fighters
    return session


def photograph(folder: Path) -> list[Path]:
    from rich.console import Console

    from host.board.tethered_sim import TetheredSim
    from host.screens.play_ui import PlayUI
    from host.web.browser import chromium, missing, resize
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    why = missing()
    if why:
        raise SystemExit(f"web_pictures: {why}")
    folder.mkdir(parents=True, exist_ok=True)
    session = fight()
    written = []
    with TetheredSim(session, "trellis_m4") as table:
        ui = PlayUI(session, Console(file=StringIO(), width=100), tether=table.tether)
        with WebServer(PlayLive(ui, table.sim), "127.0.0.1", 0) as web:
            table.press("next_turn")  # initiative, on the board
            active = next(f for f in session.ruleset.fighters(session.game) if f.current)
            moves = session.ruleset.complete(session.game, ["attack", active.name, ""])
            foe = next(
                f.name
                for f in session.ruleset.fighters(session.game)
                if f.team != active.team and not f.out
            )
            if moves:
                ui.handle(f"attack {active.name} {moves[0]} {foe}")
            web.hub.console('{"line": "timer 60"}')
            driver = chromium(SIZES["tv"])
            try:
                for size, pixels in SIZES.items():
                    resize(driver, pixels)
                    for page, url in (("player", web.player_url), ("gm", web.gm_url)):
                        driver.get(url)
                        _wait(driver, "document.querySelector('#fighters li.current')")
                        time.sleep(3)  # the board's LEDs: read and told
                        path = folder / f"web-{page}-{size}.png"
                        driver.save_screenshot(str(path))
                        written.append(path)
            finally:
                driver.quit()
    return written + photograph_d20(folder) + photograph_big_table(folder)


def photograph_d20(folder: Path) -> list[Path]:
    """d20's console at 1280x720 with eight creatures: `web-gm-d20-720p.png`."""
    from rich.console import Console

    from host.screens.play_ui import PlayUI
    from host.web.browser import chromium
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    session = d20_fight()
    ui = PlayUI(session, Console(file=StringIO(), width=100), "no board")
    path = folder / "web-gm-d20-720p.png"
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        driver = chromium(SIZES["720p"])
        try:
            driver.get(web.gm_url)
            _wait(driver, "document.querySelector('#fighters li.current .actions')")
            driver.save_screenshot(str(path))
        finally:
            driver.quit()
    return [path]


def photograph_big_table(folder: Path) -> list[Path]:
    """The players' page with a long order: 24 fighters at 1920x1080,
    `web-player-24-tv.png`, and 16 at 1280x720, `web-player-16-720p.png` (the big-table
    issue), Bo's turn with an effect on Kaelen."""
    from rich.console import Console

    from host.screens.play_ui import PlayUI
    from host.web.browser import chromium
    from host.web.serving import WebServer
    from host.web.sources import PlayLive

    written = []
    for fighters, size in ((24, "tv"), (16, "720p")):
        session = big_table(fighters)
        ui = PlayUI(session, Console(file=StringIO(), width=100), "no board")
        ui.handle("effect Kaelen Hex")
        ui.handle("end")
        path = folder / f"web-player-{fighters}-{size}.png"
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            driver = chromium(SIZES[size])
            try:
                driver.get(web.player_url)
                _wait(driver, f"document.querySelectorAll('#fighters li').length === {fighters}")
                driver.save_screenshot(str(path))
            finally:
                driver.quit()
        written.append(path)
    return written


def _wait(driver, script: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not driver.execute_script("return " + script):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the page never showed: {script}")
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "docs/images")
    for path in photograph(folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
