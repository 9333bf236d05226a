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
