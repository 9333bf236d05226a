"""The effect book in checkpoints stored in the journal (docs/checkpoints.md, "Body"): a
body written before games kept effects is read as a game with none, and a forged book is
refused like any forged state (the game replayed from the journal instead)."""

from __future__ import annotations

import pytest
from test_forged_checkpoints import _forge_bodies, _long_game, _replayed_with_notice

from host.core import effects, journal_checkpoints
from host.core.journal import Journal
from host.core.session import HOLE, resume


@pytest.fixture(autouse=True)
def small_checkpoints(monkeypatch) -> None:
    monkeypatch.setattr(journal_checkpoints, "EVERY", 4)
    monkeypatch.setattr(journal_checkpoints, "RECENT", 5)
    monkeypatch.setattr(journal_checkpoints, "TAIL", 3)


def test_a_checkpoint_from_before_games_kept_effects_is_read_as_a_game_with_none(
    tmp_path,
) -> None:
    path, played = _long_game(tmp_path)
    _forge_bodies(path, lambda game: delattr(game, effects.BOOK))
    back = resume(Journal(path), played.game_id)
    assert HOLE in back.done, "the checkpoint was not used"
    assert not back.notices
    assert effects.in_play(back.game) == [] and effects.ended(back.game) == []
    back.execute("effect Kaelen Bless rounds=1")  # and it keeps effects from then on
    assert effects.in_play(back.game)[0].name == "Bless"
    back.journal.close()


@pytest.mark.parametrize(
    ("forge", "why"),
    [
        (lambda book: setattr(book, "actions", -1), "counts no actions"),
        (
            lambda book: book.effects.append(effects.Effect("Kaelen", "Bless", "forever")),
            "not of a kind the verb makes",
        ),
        (
            lambda book: book.effects.append(effects.Effect("Kaelen", "Bless", since=10**6)),
            "numbers no action gives",
        ),
        (lambda book: book.starts.update(Kaelen="many"), "turn counts are not counts"),
    ],
)
def test_a_forged_effect_book_is_refused_and_the_game_replayed(tmp_path, forge, why) -> None:
    path, played = _long_game(tmp_path)
    _forge_bodies(path, lambda game: forge(getattr(game, effects.BOOK)))
    _replayed_with_notice(path, played, why)
