"""Numbers typed in digits of other scripts, odd signs and odd spaces (issue 37, item 1), and
a value nested hundreds deep in `add` (item 2): each is read by host/core/numbers.py, the one
reader, and refused in one line with the game unchanged, never a traceback.

str.isdigit() says yes to '²' and '¹⁷', which int() refuses with a ValueError: `dice ¹⁷`
ended `play`, and the web console dropped its socket. int() reads '١٢' and '１２'; float()
reads 'nan'."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from host import cli
from host.board.circuitpy_drive import PYSTACK_BYTES, settings_with_pystack
from host.core import numbers, registry
from host.core.interface import IllegalAction
from host.core.session import Session
from host.core.verb_choices import completions
from host.lab.fuzz_host import fingerprint
from host.web.address import WebError, parse_address

# Digits of other scripts (superscript, full-width, Arabic-Indic, Devanagari, ...), signs a
# keyboard or a word processor types, and spaces that are not a plain space.
ODD_DIGITS = "²³¹⁷⁰٣١٢١２３۴०৭߃๓"
ODD_SIGNS = "+-\u2212\uff0b\uff0d"
ODD_SPACES = "\u00a0\u2003\t"
ODD = ("²", "¹⁷", "٣", "１２", "−3", "＋3", "+²", "-¹", "\u00a012", "1\u20032", "1_000", "nan")
odd_numbers = st.one_of(
    st.sampled_from(ODD),
    st.text(ODD_DIGITS + ODD_SIGNS + ODD_SPACES + "0123456789", min_size=1, max_size=5).filter(
        lambda t: not re.fullmatch(r"[+-]?[0-9]+", t)
    ),
)


# -- the reader --------------------------------------------------------------------------


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(st.one_of(st.text(), st.text(ODD_DIGITS + ODD_SIGNS + ODD_SPACES + "0123456789.")))
def test_the_reader_gives_int_of_ascii_digits_or_a_one_line_refusal(text: str) -> None:
    ascii_whole = re.fullmatch(r"[+-]?[0-9]{1,4300}", text, re.ASCII) is not None
    for signed in (False, True):
        try:
            value = numbers.whole(text, signed=signed)
        except numbers.NotANumber as err:
            assert "\n" not in str(err) and str(err)
            assert not ascii_whole or (not signed and text[0] in "+-")
        else:
            assert ascii_whole and value == int(text)
        try:
            number = numbers.decimal(text)
        except numbers.NotANumber as err:
            assert "\n" not in str(err)
        else:
            assert re.fullmatch(r"[0-9.]+", text, re.ASCII) and number == float(text)


@pytest.mark.parametrize("text", ["²", "¹⁷", "٣", "１２", "०", "߃"])
def test_a_digit_of_another_script_is_refused_naming_the_digits_to_type(text: str) -> None:
    with pytest.raises(numbers.NotANumber) as err:
        numbers.whole(text)
    assert str(err.value) == f"{text!r} is not a whole number: type digits 0-9"


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e3", "1_000", "１.５", " 1.5"])
def test_a_decimal_is_ascii_digits_and_a_point_never_nan_or_inf(text: str) -> None:
    with pytest.raises(numbers.NotANumber):
        numbers.decimal(text)


@pytest.mark.parametrize("value", [True, False, 1.0, "3", None, [3]])
def test_a_file_s_whole_number_is_an_int_never_a_bool_or_text(value: object) -> None:
    assert not numbers.is_whole(value)
    assert numbers.is_whole(3, 0, 3) and not numbers.is_whole(4, 0, 3)


BUNDLED = [r for r in registry.ids() if type(registry.get(r)).__module__.startswith("host.")]


@pytest.mark.parametrize("ruleset_id", BUNDLED)
def test_each_ruleset_s_encounter_reader_asks_the_one_reader_for_whole_numbers(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: five rulesets each had a copy of d20's whole-number check."""
    asked: list[object] = []
    real = numbers.is_whole

    def counted(value: object, low: int | None = None, high: int | None = None) -> bool:
        asked.append(value)
        return real(value, low, high)

    monkeypatch.setattr(numbers, "is_whole", counted)
    _encounter.__wrapped__(ruleset_id)
    assert asked


# -- each crash the issue names ------------------------------------------------------------


def _session(ruleset_id: str, dice_from: str = "engine") -> Session:
    return Session(_encounter(ruleset_id), 3, None, dice_from=dice_from)


@cache
def _encounter(ruleset_id: str) -> Any:
    ruleset = registry.get(ruleset_id)
    path = ruleset.example_path()
    return ruleset.parse_encounter(path.read_text(encoding="utf-8"), str(path))


def _refused(session: Session, line: str) -> str:
    before = fingerprint(session)
    with pytest.raises(IllegalAction) as err:
        session.execute(line)
    assert fingerprint(session) == before, f"{line!r} was refused but changed the game"
    assert "\n" not in str(err.value)
    return str(err.value)


def test_superscript_faces_for_a_waiting_roll_are_refused_in_one_line() -> None:
    s = _session("d20", "entered")
    s.execute("initiative")
    assert s.pending is not None  # initiative waits for its entered dice
    assert "enter its faces" in _refused(s, "dice ¹⁷")
    _refused(s, "dice ١٧")


def test_play_with_superscript_dice_says_one_line_and_goes_on(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "d20", "--dice", "entered"]
        + ["--no-board", "--seed", "3", "--db", str(tmp_path / "x.sqlite")],
        input="initiative\ndice ¹⁷\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    said = " ".join((done.stdout + done.stderr).split())  # (the screen wraps long lines)
    assert "refused: Brenna's initiative roll (1d20) is wanted: enter its faces" in said


def test_korxsol_adjust_by_a_superscript_is_refused_in_one_line() -> None:
    s = _session("korxsol")
    s.execute("initiative")
    assert "type digits 0-9" in _refused(s, "adjust Kae kor +²")
    assert "+N or -N" in _refused(s, "adjust Kae kor 2")


def test_flare_place_on_a_superscript_row_is_refused_in_one_line() -> None:
    s = _session("flare")
    assert "is not a square of the grid" in _refused(s, "place a²")


def test_a_superscript_web_port_is_one_line() -> None:
    for text in ("²", ":²", "localhost:¹⁷", "[::1]:٣"):
        with pytest.raises(WebError) as err:
            parse_address(text)
        assert "\n" not in str(err.value) and "0 to 65535" in str(err.value)


def test_deploy_replaces_a_superscript_pystack_size() -> None:
    new = settings_with_pystack("CIRCUITPY_PYSTACK_SIZE = ²\n")
    assert new == f"CIRCUITPY_PYSTACK_SIZE = {PYSTACK_BYTES}\n"


def test_the_web_console_answers_a_superscript_timer_and_dice_and_keeps_its_socket() -> None:
    from starlette.testclient import TestClient
    from test_web import TOKEN, _ui, reply, served

    ui = _ui(Session(_encounter("d20"), 3, None, dice_from="entered"))
    with served(ui) as (client, _), client.websocket_connect(f"/ws/gm?token={TOKEN}") as gm:
        assert isinstance(client, TestClient)
        assert reply(gm, "initiative")["ok"]
        for line in ("timer ²", "timer ١٢", "dice ¹⁷"):
            said = reply(gm, line)
            assert not said["ok"] and said["text"] and "\n" not in said["text"], said
        assert reply(gm, "timer 60")["ok"]  # the same socket still answers


def test_digits_of_another_script_are_no_number_where_int_read_them() -> None:
    """int() read '١' and '٤' as 1 and 4: `undo ١` undid, `fall=٤:١` fell, `heal X ٣d8`
    rolled. Now each is refused in one line, like '²'."""
    from host.rulesets.d20.encounter_schema import read_roll
    from host.rulesets.korxsol.knockback import fall_heights

    s = _session("korxsol")
    s.execute("initiative")
    assert "type digits 0-9" in _refused(s, "undo ١")
    with pytest.raises(IllegalAction):
        fall_heights("٤:١")
    assert fall_heights("4:1") == (4, 1)
    assert read_roll("٣d8") is None and read_roll("1d8+٣") is None
    assert read_roll("3d8+1") is not None


# -- every verb of every ruleset -----------------------------------------------------------


@cache
def _names(ruleset_id: str) -> tuple[str, ...]:
    session = _session(ruleset_id)
    return tuple(session.ruleset.fighter_names(session.game))


@cache
def _offered(ruleset_id: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """What Tab offers for the next word of `words` (at the game's start)."""
    s = _session(ruleset_id)
    return tuple(completions(s.ruleset, s.game, [*words, ""])) or _names(ruleset_id)


def _help_words(ruleset_id: str, verb: str) -> tuple[str, ...]:
    """The words its help names (`adjust`'s frost, kor, sol ...): words the verb may take."""
    grammar = registry.get(ruleset_id).language.grammar[verb]
    return tuple(sorted(set(re.findall(r"[a-z]+", grammar.help + " " + grammar.words.lower()))))


@st.composite
def odd_lines(draw: st.DrawFn, ruleset_id: str, verb: str) -> str:
    """A line of `verb`: each word what Tab offers there or a word its help names, a number
    typed in other scripts, signs or spaces, or an offered word with such a number after
    its first letter (`a²`, a square) or after a sign (`+²`); option values alike."""
    grammar = registry.get(ruleset_id).language.grammar[verb]
    words = verb.split()
    for slot in grammar.slots:
        if slot.optional and draw(st.booleans()):
            break
        offered = st.sampled_from(
            _offered(ruleset_id, tuple(words)) + _help_words(ruleset_id, verb)
        )
        words.append(
            draw(
                st.one_of(
                    odd_numbers,
                    offered,
                    st.tuples(offered, odd_numbers).map(lambda p: p[0][:1] + p[1]),
                    st.tuples(st.sampled_from("+-"), odd_numbers).map("".join),
                )
            )
        )
    for option in grammar.options:
        if not option.flag and draw(st.booleans()):
            words.append(f"{option.key}={draw(odd_numbers)}")
    return " ".join(shlex.quote(w) for w in words)


EVERY_VERB = [
    (r, verb) for r in registry.ids() for verb in sorted(registry.get(r).language.grammar)
]
# The lines issue 37 names, tried first among those drawn: (line, dice source, started).
NAMED = {
    ("d20", "dice"): ("dice ¹⁷", "entered", True),
    ("korxsol", "adjust"): ("adjust Kae kor +²", "engine", True),
    ("flare", "place"): ("place a²", "engine", False),
}


@pytest.mark.parametrize("ruleset_id, verb", EVERY_VERB)
def test_every_verb_of_every_ruleset_refuses_odd_numbers_in_one_line(
    ruleset_id: str, verb: str
) -> None:
    """Issue 37's lines (`dice ¹⁷` with entered dice, `adjust Kae kor +²`, `place a²`)
    among others like them, in a game not started and one started."""
    sources = ["engine"]
    if registry.get(ruleset_id).language.knows("dice from"):
        sources.append("entered")

    @settings(
        max_examples=8,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(odd_lines(ruleset_id, verb), st.sampled_from(sources), st.booleans())
    def holds(line: str, dice_from: str, started: bool) -> None:
        s = _session(ruleset_id, dice_from)
        if started and s.ruleset.language.knows("initiative"):
            s.execute("initiative")  # (with entered dice, it waits for them: `dice` reads faces)
        before = fingerprint(s)
        try:
            shown = s.execute(line)
        except IllegalAction as err:
            assert "\n" not in str(err), (line, str(err))
            assert fingerprint(s) == before, f"{line!r} was refused but changed the game"
        else:
            assert all(isinstance(x, str) for x in shown)

    if (ruleset_id, verb) in NAMED:
        holds = example(*NAMED[ruleset_id, verb])(holds)
    holds()


# -- every number option of every command ------------------------------------------------


def _number_options(
    parser: argparse.ArgumentParser, argv: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.Action]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                found += _number_options(command, (*argv, name))
        elif action.type in (int, float, cli.whole_option, cli.seconds_option):
            found.append((argv, action))
    return found


PARSER = cli.build_parser()
NUMBER_OPTIONS = _number_options(PARSER)


def test_every_number_option_is_read_by_the_one_reader() -> None:
    assert len(NUMBER_OPTIONS) >= 10
    assert {a.type for _, a in NUMBER_OPTIONS} == {cli.whole_option, cli.seconds_option}


@pytest.mark.parametrize(
    "argv, action",
    NUMBER_OPTIONS,
    ids=[" ".join((*argv, *a.option_strings[:1], a.dest)) for argv, a in NUMBER_OPTIONS],
)
@pytest.mark.parametrize("text", ["²", "¹⁷", "١٢", "１２", "\u22123", "＋3", "nan", "1_0"])
def test_a_number_option_given_odd_digits_is_a_one_line_usage_error(
    argv: tuple[str, ...], action: argparse.Action, text: str
) -> None:
    given = [*action.option_strings[:1], text] if action.option_strings else [text]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        cli.parse(PARSER, [*argv, *given])
    assert exit_.value.code == 2
    said = err.getvalue().splitlines()
    assert "Traceback" not in err.getvalue()
    assert said[-1].startswith("turnlight ") and "error: argument" in said[-1], said
    assert repr(text) in said[-1] or text in said[-1]


TIME_OPTIONS = [(argv, a) for argv, a in NUMBER_OPTIONS if a.type is cli.seconds_option]


@pytest.mark.parametrize(
    "argv, action",
    TIME_OPTIONS,
    ids=[" ".join((*argv, *a.option_strings[:1])) for argv, a in TIME_OPTIONS],
)
def test_a_negative_time_is_refused_by_every_time_option(
    argv: tuple[str, ...], action: argparse.Action
) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        cli.parse(PARSER, [*argv, *action.option_strings[:1], "-1.5"])
    assert exit_.value.code == 2
    assert err.getvalue().splitlines()[-1].endswith("a time must be 0 or more seconds, not -1.5"), (
        err.getvalue()
    )


# -- item 2: a value nested hundreds deep in `add` ---------------------------------------


def _nested(levels: int) -> str:
    return "add Gorm team=Dusk kor=12 moves=" + "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [340, 5_000])
def test_add_with_a_value_nested_hundreds_deep_is_refused_in_one_line_in_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], levels: int
) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"initiative\n{_nested(levels)}\n", encoding="utf-8")
    assert cli.main(["run", "--script", str(script), "--seed", "3"]) == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"turnlight: {script}:2: ")
    assert ("more than 32 deep" if levels == 340 else "longer than") in last


def test_add_with_a_value_nested_340_deep_is_refused_at_the_session() -> None:
    s = _session("korxsol")
    assert "moves= nests arrays and tables more than 32 deep" in _refused(s, _nested(340))


def test_add_with_a_value_nested_hundreds_deep_is_refused_in_one_line_in_play(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "--ruleset", "korxsol", "--no-board"]
        + ["--seed", "3", "--db", str(tmp_path / "x.sqlite")],
        input=f"{_nested(340)}\n{_nested(5_000)}\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    said = " ".join((done.stdout + done.stderr).split())  # (the screen wraps long lines)
    assert "refused: add: moves= nests arrays and tables more than 32 deep" in said
    assert "refused: the line is longer than 1,000 characters" in said
