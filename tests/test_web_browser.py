"""The web pages (#16) in a real browser: Debian's headless Chromium through Selenium,
against the real server (uvicorn on a loopback port), a real session and the simulated
board on a real pty. Board keys are pressed and commands typed; the DOM is checked; both
pages are photographed at phone and TV sizes (into $TURNLIGHT_WEB_PICTURES when set; else
a temporary folder; docs/images/ is made by `make web-images`, host/lab/web_pictures.py).

Without the browser, every test here is skipped with one line saying why (pytest -ra
prints it): never silently."""

from __future__ import annotations

import os
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from waiting import WAIT

from host.board.tethered_sim import TetheredSim
from host.core import registry
from host.core.session import Session
from host.screens.play_ui import PlayUI
from host.web.browser import PHONE, TV, chromium, missing, resize
from host.web.serving import WebServer
from host.web.sources import PlayLive

WHY = missing()
if WHY:  # one line for the whole module under pytest -ra
    pytest.skip(f"browser tests skipped: {WHY}", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium(TV)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def table() -> Iterator[tuple[PlayUI, TetheredSim, WebServer]]:
    r = registry.get("korxsol")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 3)
    with TetheredSim(session, "trellis_m4") as sim:
        ui = PlayUI(session, Console(file=StringIO(), width=100), tether=sim.tether)
        with WebServer(PlayLive(ui, sim.sim), "127.0.0.1", 0) as web:
            yield ui, sim, web


def wait_for(driver: Any, script: str, what: str) -> Any:
    """Wait until the page's JS expression is truthy; returns its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(f"return {script}"), what)


def click(driver: Any, selector: str) -> None:
    """Click a button of the page as it is now (each view redraws the buttons)."""
    assert driver.execute_script(
        "const b = document.querySelector(arguments[0]); if (b) b.click(); return !!b;", selector
    ), selector


def current(driver: Any) -> str:
    return str(
        driver.execute_script(
            "const c = document.querySelector('#fighters li.current');"
            "return c ? c.dataset.name : '';"
        )
    )


def names(driver: Any) -> list[str]:
    return list(
        driver.execute_script(
            "return [...document.querySelectorAll('#fighters li')].map(li => li.dataset.name)"
        )
    )


def test_the_players_page_follows_board_presses_and_typed_commands(browser, table) -> None:
    ui, sim, web = table
    browser.get(web.player_url)
    wait_for(browser, "document.querySelectorAll('#fighters li').length === 4", "the fighters")
    # The LEDs come in a message of their own, after the view: waited for, not read at once.
    wait_for(browser, "document.querySelectorAll('#board .led').length === 32", "32 LEDs")
    assert current(browser) == ""
    sim.sim.press(sim.sim.key_for("next_turn"))  # the board's key rolls initiative
    first = wait_for(browser, "document.querySelector('#fighters li.current')?.dataset.name", "")
    assert "round 1" in browser.find_element("id", "title").text
    ui.handle("end")  # typed at play's prompt
    wait_for(
        browser, f"document.querySelector('#fighters li.current')?.dataset.name !== {first!r}", ""
    )
    second = current(browser)
    assert second and second != first
    ui.handle("undo")
    wait_for(
        browser, f"document.querySelector('#fighters li.current')?.dataset.name === {first!r}", ""
    )
    log = browser.execute_script("return document.getElementById('log').textContent")
    assert "board: " in log  # read whole: on a TV the oldest lines may be cut


def test_a_fight_is_run_from_the_console_alone(browser, table) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    ui, _, web = table
    browser.get(web.gm_url)
    wait_for(browser, "document.querySelectorAll('#fighters li').length === 4", "the fighters")
    command = browser.find_element(By.ID, "command")
    command.send_keys("initiative", Keys.ENTER)
    first = wait_for(browser, "document.querySelector('#fighters li.current')?.dataset.name", "")
    click(browser, "#more-verbs button[data-verb='attack']")  # starts a line for the active
    assert browser.execute_script("return document.getElementById('command').value") == (
        f"attack {first} "
    )
    command.clear()
    click(browser, "#buttons button[data-line='end']")
    wait_for(
        browser, f"document.querySelector('#fighters li.current')?.dataset.name !== {first!r}", ""
    )
    assert len(ui.session.done) == 2
    command.send_keys("attack Nobody", Keys.ENTER)
    reply = wait_for(
        browser,
        "document.querySelector('#reply.refused')?.textContent",
        "the one-line refusal",
    )
    assert reply.startswith("refused: ") and "\n" not in reply
    assert len(ui.session.done) == 2
    command.send_keys(Keys.ARROW_UP)  # the line sent last comes back
    assert browser.execute_script("return document.getElementById('command').value") == (
        "attack Nobody"
    )
    command.clear()
    click(browser, "#buttons button[data-line='undo']")
    wait_for(
        browser, f"document.querySelector('#fighters li.current')?.dataset.name === {first!r}", ""
    )
    assert len(ui.session.done) == 1


def test_what_the_console_hides_leaves_the_players_page(browser, table) -> None:
    from selenium.webdriver.common.by import By

    ui, _, web = table
    ui.handle("initiative")
    browser.get(web.player_url)
    players = browser.current_window_handle
    wait_for(browser, "document.querySelectorAll('#fighters li').length === 4", "the fighters")
    browser.switch_to.new_window("tab")
    try:
        browser.get(web.gm_url)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 4", "")
        click(browser, "#fighters li[data-name='Orrin']")  # tapped: its actions
        click(browser, "#fighters li[data-name='Orrin'] button.hide")
        wait_for(browser, "document.querySelector('#fighters li.hidden')", "marked hidden")
        browser.execute_script(  # the select as a person changes it
            "const s = document.getElementById('health-mode'); s.value = 'word';"
            "s.dispatchEvent(new Event('change'));"
        )
        wait_for(browser, "document.querySelector('#reply.ok')", "the setting")
        browser.switch_to.window(players)
        wait_for(browser, "document.querySelectorAll('#fighters li').length === 3", "hidden")
        assert "Orrin" not in browser.find_element(By.TAG_NAME, "body").text
        assert "Orrin" not in browser.page_source
        # Each view redraws the list: the texts are read in one script, once the health
        # setting's view (which may come after the hide's) has arrived.
        text_of = "document.querySelector(\"#fighters li[data-name='{}']\").innerText"
        wait_for(browser, text_of.format("Brimm") + ".includes('unhurt')", "health as a word")
        brimm, kaelen = browser.execute_script(
            f"return [{text_of.format('Brimm')}, {text_of.format('Kaelen')}]"
        )
        assert "14/14" not in brimm  # Dusk's health as a word
        assert "16/16" in kaelen  # the players' own team keeps the number
    finally:
        for handle in browser.window_handles:
            if handle != players:
                browser.switch_to.window(handle)
                browser.close()
        browser.switch_to.window(players)


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_both_pages_fit_a_phone_and_a_tv(browser, table, size: str, tmp_path: Path) -> None:
    ui, sim, web = table
    sim.press("next_turn")
    ui.handle('attack Kae "Flame Slash" Orn')
    pictures = Path(os.environ.get("TURNLIGHT_WEB_PICTURES") or tmp_path)
    pictures.mkdir(parents=True, exist_ok=True)
    resize(browser, PHONE if size == "phone" else TV)
    try:
        for page, url in (("player", web.player_url), ("gm", web.gm_url)):
            browser.get(url)
            wait_for(browser, "document.querySelector('#fighters li.current')", "the view")
            wait_for(browser, "document.querySelectorAll('#dice .die').length > 0", "the dice")
            width, inner = browser.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width <= inner, f"{page} scrolls sideways at {size} size"
            order, side = browser.execute_script(
                "const r = id => document.getElementById(id).getBoundingClientRect();"
                "return [r('order-box'), r('side')].map(b => [b.left, b.top])"
            )
            if size == "tv":
                assert side[0] > order[0] and abs(side[1] - order[1]) < 2  # two columns
            else:
                assert side[0] == order[0] and side[1] > order[1]  # one above the other
            font = browser.execute_script(
                "return parseFloat(getComputedStyle(document.querySelector('.name')).fontSize)"
            )
            # Large type on the players' page (a TV's); a laptop's on the console, which
            # fits eight fighters on one screen (tests/test_web_pages.py).
            assert font >= (20 if size == "phone" or page == "gm" else 30)
            path = pictures / f"web-{page}-{size}.png"
            assert browser.save_screenshot(str(path)) and path.stat().st_size > 1000
    finally:
        resize(browser, TV)
