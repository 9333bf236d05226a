"""A ruleset may put effects on from its own rules (host/core/effects.py, `add`): what it
puts on inside an action is replayed with the action, so undo, redo and resume keep it
exactly, and the action is counted once (docs/effects.md, "Exactly once"). The d20 issue's
conditions are made so; here a test's game dazes whoever a hit lands on."""

from __future__ import annotations

import contextlib

import pytest
from tiny_ruleset import EXAMPLE, Game, Tiny

from host.core import effects, registry
from host.core.commandline import Command
from host.core.journal import Journal
from host.core.session import Session, resume


class Dazing(Tiny):
    """tiny, where a hit that lands dazes its target to the end of its team's next turn."""

    id = "tiny_dazing"

    def _act(self, game: Game, cmd: Command, coins: list[list] | None) -> list[str]:
        lines = super()._act(game, cmd, coins)
        if cmd.verb == "hit" and lines[0].startswith("heads"):
            target = game.duel.players[game.player(cmd.args[0])][0]
            if not any(e.target == target for e in effects.in_play(game)):
                lines += effects.add(self, game, target, "Dazed", effects.Duration("end"))
        return lines


DAZING = Dazing()


@pytest.fixture
def dazing():
    registry.register(DAZING)
    yield DAZING
    registry.unregister(DAZING.id)


def _session(journal: Journal | None = None) -> Session:
    text = EXAMPLE.read_text().replace('ruleset = "tiny"', f'ruleset = "{DAZING.id}"')
    return Session(DAZING.parse_encounter(text, "dazing.toml"), 2, journal)


def _book(session: Session) -> str:
    book = effects.book_of(session.ruleset, session.game)
    return repr((book.effects, book.ended, book.actions))


def _play(s: Session) -> None:
    for _ in range(12):
        if s.over:
            break
        names = s.ruleset.fighter_names(s.game)
        with contextlib.suppress(Exception):
            s.execute(f"hit {names[1] if s.game.team == 0 else names[0]}")
        s.execute("end")


def test_an_effect_the_rules_put_on_is_dated_to_its_action_and_counted_once(dazing) -> None:
    s = _session()
    _play(s)
    dazed = [e.effect for e in effects.ended(s.game)] + effects.in_play(s.game)
    assert dazed, "no hit landed"
    texts = [e.text for e in s.done]
    for effect in dazed:
        assert texts[effect.since - 1].startswith("hit "), "dated to another action"
    assert effects.book_of(s.ruleset, s.game).actions == len(s.done)


def test_undo_redo_and_resume_keep_what_the_rules_put_on(dazing, tmp_path) -> None:
    s = _session(Journal(tmp_path / "j.sqlite"))
    _play(s)
    before = _book(s)
    s.undo(5)
    s.redo(5)
    assert _book(s) == before
    s.journal.close()
    with contextlib.redirect_stderr(None):
        again = resume(Journal(tmp_path / "j.sqlite"), s.game_id)
    assert _book(again) == before
    again.journal.close()
