"""The leak check (issue #27): for every ruleset, a game played with random hide, reveal,
health and players settings, every message to the players' page and every state sent to
the board checked against what is hidden at that moment (host/lab/fuzz_secrets.py). A fixed
seed here; `make fuzz` plays many more games (the fuzz target `secrets`)."""

from __future__ import annotations

import random

import pytest

from host.core import registry
from host.lab.fuzz_secrets import leak_check


@pytest.mark.parametrize("ruleset", sorted(registry.ids()))
def test_nothing_hidden_reaches_the_players_page_or_the_board(ruleset: str) -> None:
    checks = sum(
        leak_check(random.Random(f"leak:{ruleset}:{game}"), steps=40, ruleset=ruleset)
        for game in range(3)
    )
    assert checks >= 3


def test_the_hide_and_health_settings_are_journalled_so_a_resume_keeps_them(tmp_path) -> None:
    from host.core.audience import Secrets
    from host.core.journal import Journal
    from host.core.session import Session, resume

    r = registry.get("korxsol")
    path = r.example_path()
    journal = Journal(tmp_path / "j.sqlite")
    session = Session(r.parse_encounter(path.read_text(), str(path)), 3, journal)
    session.execute("initiative")
    session.set_secrets(Secrets({"Orrin"}, "word", "Dusk"))
    for line in r.plan_turn(session.game):  # actions after the setting, checkpoints too
        session.execute(line)
    game_id = session.game_id
    journal.release(game_id)
    again = resume(Journal(tmp_path / "j.sqlite"), game_id)
    assert again.secrets == Secrets({"Orrin"}, "word", "Dusk")
    assert again.next_game().secrets == Secrets({"Orrin"}, "word", "Dusk")
