"""The pages as a person uses them (issue #28, items 8-11), in Debian's headless Chromium
against the real server, a real session and a real SQLite journal: the players' page on a
TV with eight fighters, the console's fighter actions and completions, a line typed while
the connection is down, and a console left open across a restart of turnlight.

Without the browser, every test here is skipped with one line saying why (pytest -ra
prints it): never silently."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from waiting import WAIT

from host.core.journal import Journal
from host.core.session import Session, resume
from host.lab.web_pictures import SIZES, big_table, d20_fight, eight_fighters, fight
from host.screens.play_ui import PlayUI
from host.web.browser import chromium, missing, resize
from host.web.serving import WebServer
from host.web.sources import PlayLive

WHY = missing()
if WHY:
    pytest.skip(f"browser tests skipped: {WHY}", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium(SIZES["tv"])
    try:
        yield driver
    finally:
        driver.quit()


def _ui(session: Session) -> PlayUI:
    return PlayUI(session, Console(file=StringIO(), width=100), "no board")


def wait_for(driver: Any, script: str, what: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(f"return {script}"), what)


def click(driver: Any, selector: str) -> None:
    assert driver.execute_script(
        "const b = document.querySelector(arguments[0]); if (b) b.click(); return !!b;", selector
    ), selector


@pytest.mark.parametrize("size", ["tv", "720p"])
def test_the_players_page_fits_a_tv_with_eight_fighters(browser, size: str) -> None:
    """A TV cannot scroll: at 1920x1080 and 1280x720 the whole page is one screen, with
    every fighter, the board, the dice and the newest log line in sight."""
    session = fight()
    ui = _ui(session)
    ui.handle("initiative")
    active = next(f for f in session.ruleset.fighters(session.game) if f.current)
    foe = next(f for f in session.ruleset.fighters(session.game) if f.team != active.team)
    moves = session.ruleset.complete(session.game, ["attack", active.name, ""])
    ui.handle(f"attack {active.name} {moves[0]} {foe.name}")  # dice, a cooldown, log lines
    resize(browser, SIZES[size])
    try:
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            browser.get(web.player_url)
            wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
            tall, high, wide, width = browser.execute_script(
                "const d = document.documentElement;"
                "return [d.scrollHeight, innerHeight, d.scrollWidth, innerWidth]"
            )
            assert tall <= high, f"the players' page scrolls at {size}: {tall} > {high}"
            assert wide <= width
            bottoms = browser.execute_script(
                "return [...document.querySelectorAll('#fighters li, #dice, #log li:first-child')]"
                ".map(e => e.getBoundingClientRect().bottom)"
            )
            assert len(bottoms) == 10 and max(bottoms) <= high  # all in sight
    finally:
        resize(browser, SIZES["tv"])


def test_the_players_page_marks_who_is_next_and_says_a_cooldown_is_one(browser) -> None:
    session = fight()
    ui = _ui(session)
    ui.handle("initiative")
    fighters = session.ruleset.fighters(session.game)
    active = next(f for f in fighters if f.current)
    foe = next(f for f in fighters if f.team != active.team)
    moves = session.ruleset.complete(session.game, ["attack", active.name, ""])
    ui.handle(f"attack {active.name} {moves[0]} {foe.name}")
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.player_url)
        marked = wait_for(browser, "document.querySelector('#fighters li.next')?.dataset.name", "")
        names = [f.name for f in session.ruleset.fighters(session.game)]
        assert marked == names[names.index(active.name) + 1]  # the next in the order
        assert "next up" in browser.find_element("css selector", "li.next").text
        chips = browser.execute_script(
            "return [...document.querySelectorAll('.chip.cd')].map(c => c.textContent)"
        )
        assert chips and all("cooldown" in chip for chip in chips)
        scores = browser.find_element("id", "scores").text
        assert not scores.lower().startswith("scores")  # headed "Scores" once, not twice


def korxsol_fight() -> Session:
    """Korxsol's eight fighters, an attack in: dice, a cooldown, log lines."""
    session = fight()
    session.execute("initiative")
    fighters = session.ruleset.fighters(session.game)
    active = next(f for f in fighters if f.current)
    foe = next(f for f in fighters if f.team != active.team)
    moves = session.ruleset.complete(session.game, ["attack", active.name, ""])
    session.execute(f"attack {active.name} {moves[0]} {foe.name}")
    return session


@pytest.mark.parametrize("size", ["720p", "tv"])
@pytest.mark.parametrize("ruleset_id", ["korxsol", "d20"])
def test_the_console_fits_a_laptop_with_eight_fighters(browser, ruleset_id: str, size: str) -> None:
    """issue #38 item 8: at 1920x1080 the console was one column of large cards, 5 of 8
    fighters in sight and a page 2,449 px tall (2,029 at 720p). Now the page does not
    scroll at 1280x720 or 1920x1080, every fighter's card is in sight, the acting
    fighter's first and open on its actions."""
    session = korxsol_fight() if ruleset_id == "korxsol" else d20_fight()
    acting = next(f for f in session.ruleset.fighters(session.game) if f.current)
    resize(browser, SIZES[size])
    try:
        with WebServer(PlayLive(_ui(session)), "127.0.0.1", 0) as web:
            browser.get(web.gm_url)
            wait_for(
                browser,
                "document.querySelector('#fighters li.current')"
                " && document.querySelectorAll('#buttons button').length",
                "the console, drawn whole",
            )
            tall, high, wide, width = browser.execute_script(
                "const d = document.scrollingElement;"
                "return [d.scrollHeight, innerHeight, d.scrollWidth, innerWidth]"
            )
            assert tall <= high, f"the console scrolls at {size}: {tall} > {high}"
            assert wide <= width, f"the console scrolls sideways at {size}"
            cards = browser.execute_script(
                "const box = document.getElementById('order-box').getBoundingClientRect();"
                "return [...document.querySelectorAll('#fighters li')].map(li => {"
                "  const r = li.getBoundingClientRect();"
                "  return [li.dataset.name, r.top >= box.top && r.bottom <= box.bottom"
                "          && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth];"
                "})"
            )
            assert len(cards) == 8
            assert [name for name, seen in cards if not seen] == [], cards
            assert cards[0][0] == acting.name  # the acting fighter's card first
            assert browser.execute_script("return !!document.querySelector('li.current .actions')")
    finally:
        resize(browser, SIZES["tv"])


def test_a_fighter_tapped_on_the_console_offers_its_verbs_and_the_acting_one_its_moves(
    browser,
) -> None:
    session = fight()
    ui = _ui(session)
    ui.handle("initiative")
    active = next(f for f in session.ruleset.fighters(session.game) if f.current)
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
        # The acting fighter's card opens by itself, on its moves.
        moves = wait_for(
            browser,
            "[...document.querySelectorAll('.actions button.move')].map(b => b.dataset.move)",
            "the acting fighter's moves",
        )
        expected = session.ruleset.complete(session.game, ["attack", active.name, ""])
        assert set(expected) <= set(moves)
        click(browser, f".actions button.move[data-move='{expected[0]}']")
        line = browser.execute_script("return document.getElementById('command').value")
        assert line == f"attack {active.name} {expected[0]} "
        assert browser.execute_script(
            "return !!document.querySelector('.actions button.hide')"
        )  # hide, from the fighter itself
        buttons = browser.execute_script(
            "return [...document.querySelectorAll('#buttons button')].map(b => b.textContent)"
        )
        assert not [b for b in buttons if b.endswith("…")]  # what runs at once has none
        assert {"roll", "cancel"} <= set(buttons)
        other = next(f for f in session.ruleset.fighters(session.game) if not f.current)
        click(browser, f"#fighters li[data-name='{other.name}']")  # another tapped: its own
        wait_for(browser, f"document.querySelector(\"li.open[data-name='{other.name}']\")", "")
        assert not browser.execute_script("return !!document.querySelector('li.current.open')")


def test_a_card_s_more_shows_the_verbs_it_kept_back(browser) -> None:
    """issue #38 item 8: a card shows the verbs that apply now; `effect` and the like
    wait behind its "more"."""
    session = d20_fight()
    with WebServer(PlayLive(_ui(session)), "127.0.0.1", 0) as web:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelector('#fighters li.current .actions')", "open")
        verbs = "[...document.querySelectorAll('li.current .actions button.verb')]"
        shown = browser.execute_script(f"return {verbs}.map(b => b.dataset.verb)")
        assert "attack" in shown and "effect" not in shown
        buttons = browser.execute_script(
            "return document.querySelectorAll('li.current .actions button').length"
        )
        assert buttons <= 25, buttons  # not the 60 it was
        click(browser, "li.current .actions button.more")
        wait_for(browser, f"{verbs}.some(b => b.dataset.verb === 'effect')", "the rest")
        moves = browser.execute_script(
            "return [...document.querySelectorAll('li.current .actions button.move')]"
            ".map(b => b.dataset.move)"
        )
        assert moves == ["poisoned"]  # recover: what the creature bears, alone


def test_a_refused_line_stays_in_the_box_and_one_that_ran_leaves_it(browser) -> None:
    """issue #38 item 8: a refused command emptied the box (retype it)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    session = fight()
    with WebServer(PlayLive(_ui(session)), "127.0.0.1", 0) as web:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
        command = browser.find_element(By.ID, "command")
        command.send_keys("attack Nobody", Keys.ENTER)
        wait_for(browser, "document.querySelector('#reply.refused')", "the refusal")
        assert command.get_attribute("value") == "attack Nobody"  # to mend, not retype
        command.clear()
        command.send_keys("initiative", Keys.ENTER)
        wait_for(browser, "document.querySelector('#reply.ok')", "it ran")
        wait_for(browser, "document.getElementById('command').value === ''", "the box empties")
        assert len(session.done) == 1


def test_completions_go_once_a_line_runs_from_a_card(browser) -> None:
    """issue #38 item 8: old completions stayed on screen after `hide`."""
    session = fight()
    ui = _ui(session)
    ui.handle("initiative")
    active = next(f for f in session.ruleset.fighters(session.game) if f.current)
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelector('#fighters li.current .actions')", "open")
        click(browser, "li.current .actions button.label[data-verb='attack']")
        wait_for(browser, "document.querySelectorAll('#completions button').length", "offered")
        click(browser, "li.current .actions button.hide")
        wait_for(browser, "document.querySelector('#reply.ok')", "hidden")
        wait_for(browser, f"document.querySelector(\"li.hidden[data-name='{active.name}']\")", "")
        left = browser.execute_script("return document.querySelectorAll('#completions *').length")
        assert left == 0


def test_a_console_whose_token_is_not_this_game_s_shows_only_the_warning(browser) -> None:
    """issue #38 item 8: after a restart without `--resume`, the old game's state stayed
    on the console under the warning. Now the console shows the warning alone."""
    session = fight()
    session.execute("initiative")
    first = WebServer(PlayLive(_ui(session)), "127.0.0.1", 0).start()
    port = first.port
    try:
        browser.get(first.gm_url)
        wait_for(browser, "document.querySelector('#fighters li.current')", "the fight")
    finally:
        first.stop()
    wait_for(browser, "document.querySelector('#connection.lost')", "the page sees it")
    other = fight(seed=4)  # a new game, another token
    again = WebServer(PlayLive(_ui(other)), "127.0.0.1", port).start()
    try:
        said = wait_for(
            browser, "document.querySelector('#connection.stale')?.textContent", "the warning"
        )
        assert "not this game's" in said
        text = browser.execute_script("return document.body.innerText")
        names = [f.name for f in session.ruleset.fighters(session.game)]
        assert not [n for n in names if n in text], text
        assert (
            browser.execute_script(
                "return document.querySelectorAll('#fighters li, #log li, #dice .die').length"
            )
            == 0
        )
        assert said.strip() in text
        shown = browser.execute_script(
            "return ['console', 'order-box', 'side', 'command']"
            ".filter(id => document.getElementById(id).getClientRects().length)"
        )
        assert shown == []  # nor the box to type into a game it is not
    finally:
        again.stop()


def test_tab_completes_a_typed_line_on_the_console(browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    session = fight()
    ui = _ui(session)
    ui.handle("initiative")
    active = next(f for f in session.ruleset.fighters(session.game) if f.current)
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
        command = browser.find_element(By.ID, "command")
        command.send_keys("initi")
        wait_for(browser, "document.querySelectorAll('#completions button').length", "offered")
        command.send_keys(Keys.TAB)
        assert command.get_attribute("value") == "initiative "
        command.clear()
        command.send_keys(f"attack {active.name} ")
        offered = wait_for(
            browser,
            "[...document.querySelectorAll('#completions button')].map(b => b.textContent)",
            "the acting fighter's moves",
        )
        moves = session.ruleset.complete(session.game, ["attack", active.name, ""])
        assert set(offered) == set(moves)


def test_a_line_typed_while_disconnected_stays_and_says_it_was_not_sent(
    browser, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    session = fight()
    ui = _ui(session)
    web = WebServer(PlayLive(ui), "127.0.0.1", 0).start()
    try:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
    finally:
        web.stop()
    wait_for(browser, "document.querySelector('#connection.lost')", "the page sees it")
    command = browser.find_element(By.ID, "command")
    command.send_keys("initiative", Keys.ENTER)
    assert command.get_attribute("value") == "initiative"  # kept, not lost
    said = browser.find_element(By.ID, "reply").text
    assert "not sent" in said and "initiative" in said
    assert not session.done


def test_a_console_left_open_across_a_restart_rejoins_or_says_how(browser, tmp_path: Path) -> None:
    """Issue #28 item 8: the token is the game's, in its journal. `play --resume` serves
    the same one, so the console left open rejoins by itself; a new game's server has
    another, and the page says this link is not its game's and what to open instead."""
    from host.core import registry

    path = tmp_path / "j.sqlite"
    r = registry.get("korxsol")
    session = Session(r.parse_encounter(eight_fighters(), "eight.toml"), 3, Journal(path))
    game = session.game_id
    first = WebServer(PlayLive(_ui(session)), "127.0.0.1", 0).start()
    port, token = first.port, first.hub.token
    try:
        browser.get(first.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
        click(browser, "#buttons button[data-line='initiative']")
        wait_for(browser, "document.querySelector('#fighters li.current')", "round 1")
    finally:
        first.stop()
        assert session.journal is not None
        session.journal.release(game)
    wait_for(browser, "document.querySelector('#connection.lost')", "the page sees it")

    resumed = resume(Journal(path), game)  # turnlight play --resume
    ui = _ui(resumed)
    again = WebServer(PlayLive(ui), "127.0.0.1", port).start()
    try:
        assert again.hub.token == token
        wait_for(browser, "document.getElementById('connection').textContent === ''", "back")
        before = browser.execute_script(
            "return document.querySelector('#fighters li.current').dataset.name"
        )
        click(browser, "#buttons button[data-line='end']")
        wait_for(
            browser,
            f"document.querySelector('#fighters li.current')?.dataset.name !== {before!r}",
            "it plays on",
        )
        assert len(resumed.done) == 2
    finally:
        again.stop()
        assert resumed.journal is not None
        resumed.journal.release(game)

    other = Session(r.parse_encounter(eight_fighters(), "eight.toml"), 4, Journal(path))
    third = WebServer(PlayLive(_ui(other)), "127.0.0.1", port).start()  # a new game
    try:
        assert third.hub.token != token
        said = wait_for(
            browser,
            "document.querySelector('#connection.stale')?.textContent",
            "the page says the link is not this game's",
        )
        assert "not this game's" in said and "link turnlight printed" in said
    finally:
        third.stop()


# ---------------------------------------------------------------- the big-table issue: 24
IN_SIGHT = (
    "const d = document.scrollingElement;"
    "const seen = e => { const r = e.getBoundingClientRect();"
    "  return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };"
    "const lis = [...document.querySelectorAll('#fighters li.fighter')];"
    "const marked = c => lis.filter(li => li.classList.contains(c))"
    "  .map(li => [li.dataset.name, seen(li)]);"
    "return {tall: d.scrollHeight, high: innerHeight, wide: d.scrollWidth, width: innerWidth,"
    " acting: marked('current'), next: marked('next'),"
    " shown: lis.filter(seen).length,"
    " log: [...document.querySelectorAll('#log li')].slice(0, 1).map(seen),"
    " font: parseFloat(getComputedStyle(document.querySelector('li.fighter .name')).fontSize)}"
)


def big_table_ui(fighters: int) -> PlayUI:
    """A stones fight of `fighters` (host/lab/web_pictures.py), an effect on one, Bo's turn."""
    session = big_table(fighters)
    ui = _ui(session)
    ui.handle("effect Kaelen Hex")
    ui.handle("end")
    return ui


@pytest.mark.parametrize(("fighters", "size"), [(24, "tv"), (16, "720p")])
def test_the_players_tv_page_fits_a_long_order_without_scrolling(
    browser, fighters: int, size: str
) -> None:
    """The big-table issue, item 4: the players' TV page fits 1920x1080 with 24 fighters
    and 1280x720 with 16, without scrolling (it cannot), every fighter, the acting ones
    and the next up, and the newest log line in sight, in type a room can read."""
    ui = big_table_ui(fighters)
    resize(browser, SIZES[size])
    try:
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            browser.get(web.player_url)
            wait_for(
                browser, f"document.querySelectorAll('#fighters li').length === {fighters}", ""
            )
            seen = browser.execute_script(IN_SIGHT)
            assert seen["tall"] <= seen["high"], f"the page scrolls at {size}: {seen}"
            assert seen["wide"] <= seen["width"], f"the page scrolls sideways at {size}"
            assert seen["acting"] and all(ok for _, ok in seen["acting"]), seen["acting"]
            assert seen["next"] and all(ok for _, ok in seen["next"]), seen["next"]
            assert seen["shown"] == fighters and seen["log"] == [True]
            assert seen["font"] >= 16, seen["font"]  # a name in px, read from a couch
    finally:
        resize(browser, SIZES["tv"])


def test_a_tv_whose_order_cannot_fit_shows_the_acting_fighter_and_those_after_it(browser) -> None:
    """The big-table issue, item 4: where even the tightest cards cannot fit (here the
    type made twice as large), the TV's page still does not scroll: it shows whoever acts
    and those after them in the order, and says how many are left out where."""
    ui = big_table_ui(24)
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.player_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 24", "24")
        browser.execute_script(
            "document.documentElement.style.fontSize = '54px';dispatchEvent(new Event('resize'))"
        )
        wait_for(browser, "document.querySelector('#fighters li.gap')", "a line for those left out")
        seen = browser.execute_script(IN_SIGHT)
        assert seen["tall"] <= seen["high"] and 2 <= seen["shown"] < 24, seen
        assert seen["acting"][0][1] and seen["next"][0][1], seen  # Orrin, then Rook
        gaps = browser.execute_script(
            "return [...document.querySelectorAll('#fighters li.gap')].map(g => g.textContent)"
        )
        left_out = sum(int(g.split()[1]) for g in gaps)
        assert left_out == 24 - seen["shown"], gaps
        browser.execute_script(  # the type back as it was: every fighter again
            "document.documentElement.style.fontSize = ''; dispatchEvent(new Event('resize'))"
        )
        wait_for(browser, "!document.querySelector('#fighters li.gap')", "no line left out")
        assert browser.execute_script(IN_SIGHT)["shown"] == 24


def test_the_players_tv_page_keeps_its_type_for_a_short_order(browser) -> None:
    """The big-table issue, item 4: only a long order tightens the cards: eight keep the
    TV's large type (tests/test_web_browser.py asks 30 px of a name)."""
    ui = _ui(fight())
    ui.handle("initiative")
    with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
        browser.get(web.player_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 8", "8")
        assert browser.execute_script("return document.body.dataset.fit") is None
        assert browser.execute_script(IN_SIGHT)["font"] >= 30


def test_the_phone_page_scrolls_to_the_acting_fighter_on_a_new_turn(browser) -> None:
    """The big-table issue, item 4: on a phone the page of 24 fighters is long; scrolled to
    its foot (the log), a new turn brings the acting fighter to the top of the screen."""
    ui = big_table_ui(24)
    resize(browser, SIZES["phone"])
    try:
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            browser.get(web.player_url)
            wait_for(browser, "document.querySelectorAll('#fighters li').length === 24", "24")
            browser.execute_script("window.scrollTo(0, document.scrollingElement.scrollHeight)")
            wait_for(browser, "scrollY > innerHeight", "scrolled to the foot")
            ui.handle("end")  # Dan's turn
            acting = next(f.name for f in ui.session.ruleset.fighters(ui.session.game) if f.current)
            top = wait_for(
                browser,
                f"document.querySelector('#fighters li.current')?.dataset.name === '{acting}'"
                " && Math.abs(document.querySelector('#fighters li.current')"
                ".getBoundingClientRect().top) < 20"
                " && document.querySelector('#fighters li.current').getBoundingClientRect().top",
                "the acting fighter at the top",
            )
            assert 0 <= top < 20
    finally:
        resize(browser, SIZES["tv"])


@pytest.mark.parametrize(("fighters", "size"), [(24, "tv"), (16, "720p"), (24, "720p")])
def test_the_console_fits_a_laptop_with_a_long_order(browser, fighters: int, size: str) -> None:
    """The big-table issue, item 4, and the first-hour issue's console (issue #38 item 8):
    with 16 or 24 fighters the console still does not scroll at 1280x720 or 1920x1080 (its
    order scrolls in its own column), the acting fighter's card first and open, the next
    up's in sight."""
    ui = big_table_ui(fighters)
    resize(browser, SIZES[size])
    try:
        with WebServer(PlayLive(ui), "127.0.0.1", 0) as web:
            browser.get(web.gm_url)
            wait_for(browser, "document.querySelector('#fighters li.current .actions')", "open")
            seen = browser.execute_script(IN_SIGHT)
            assert seen["tall"] <= seen["high"], f"the console scrolls at {size}: {seen}"
            assert seen["wide"] <= seen["width"]
            first = browser.execute_script(
                "return document.querySelector('#fighters li').className"
            )
            assert "current" in first  # the acting fighter's card first
            assert seen["acting"][0][1] and all(ok for _, ok in seen["next"]), seen
    finally:
        resize(browser, SIZES["tv"])
