"""A view built before a change of what the players may see must not be published after
the one built after it: the watcher builds on its own thread, and a `health word` at the
console publishes its own view at once. When the watcher's older view landed second, a
players' page opening then got the exact health the console had just hidden (a leak the
socket leak check found, one run in a few: tests/test_leak_check.py)."""

from __future__ import annotations

import json
from io import StringIO

from rich.console import Console

from host.core import registry
from host.core.audience import Secrets
from host.core.session import Session
from host.screens.play_ui import PlayUI
from host.web.hub import Hub
from host.web.sources import PlayLive


def test_a_view_built_before_the_secrets_changed_is_not_published_after_a_newer_one() -> None:
    r = registry.get("d20")
    path = r.example_path()
    session = Session(r.parse_encounter(path.read_text(), str(path)), 5)
    hub = Hub(
        PlayLive(PlayUI(session, Console(file=StringIO(), width=100), "no board")), "the-token"
    )
    older = hub.views_now()  # the watcher's, built while health shows as numbers
    teams = list(session.encounter.teams)
    session.set_secrets(Secrets(set(), "word", teams[0]))
    assert hub.publish(hub.views_now())  # the console's, after `health word`
    assert not hub.publish(older)  # it came late: dropped
    shown = json.loads(hub.whole(0))["view"]["fighters"]
    foes = [f for f in r.fighters(session.game) if f.team != teams[0] and f.health_max]
    for f in shown:
        if f["name"] in {foe.name for foe in foes}:
            assert not any(c.isdigit() for c in f["health"].get("text", "")), f
