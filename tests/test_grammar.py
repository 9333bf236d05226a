"""Each verb's declared grammar (issue #25), checked by the shared command line
(host/core/commandline.py) for every ruleset: the usage help and errors show is made from the
declaration; an unknown option, an option's value of the wrong kind, a missing required
option and words past those the verb takes are refused in one line; a name of several
words is read before its words are counted; a journalled line is not refused again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from host.core import registry
from host.core.commandline import (
    MOST_OPTIONS_SHOWN,
    SESSION_VERBS,
    WANTED_VERBS,
    Command,
    Language,
    Option,
    Verb,
)
from host.core.interface import IllegalAction
from host.core.journal import Journal
from host.core.session import Session, resume

ATTACK = Verb(
    "NAME MOVE [TARGET]",
    "strike",
    (
        Option("range", "N", number=(1, 99)),
        Option("evade", choices=("yes", "no")),
        Option("spare"),
        Option("reroll", "K", number=(1, 15), alone=True),
    ),
    ("MOVE",),
)
LANGUAGE = Language(
    {
        "attack": ATTACK,
        "move": Verb("NAME [SPACES]", "walk", (Option("fall", "F:T"),)),
        "order": Verb("NAME NAME ...", "set the order"),
        "summon": Verb("CARD", "summon", (Option("at", "SQUARE", required=True),)),
        "end": Verb("", "end the turn"),
    },
    {"show": Verb("", "the grid")},
)
MOVES = ["Flame Slash", "Flame", "Strike"]


def refusal(line: str, language: Language = LANGUAGE) -> str:
    with pytest.raises(IllegalAction) as err:
        language.parse(line)
    said = str(err.value)
    assert "\n" not in said
    return said


# -- the usage comes from the declaration -----------------------------------------------------


def test_the_usage_is_made_from_the_words_and_options_declared() -> None:
    assert LANGUAGE.usage("move") == "move NAME [SPACES] [fall=F:T]"
    assert LANGUAGE.usage("attack") == (
        "attack NAME MOVE [TARGET] [range=N] [evade=yes|no] [spare] [reroll[=K]]"
    )
    assert LANGUAGE.usage("summon") == "summon CARD at=SQUARE"  # a required option, unbracketed
    assert LANGUAGE.verbs["move"] == ("NAME [SPACES] [fall=F:T]", "walk")  # help's table


def test_a_usage_with_more_options_than_fit_says_options() -> None:
    many = tuple(Option(f"o{n}", "X") for n in range(MOST_OPTIONS_SHOWN + 1))
    assert Verb("NAME", "x", many).shown() == "NAME [options]"


@pytest.mark.parametrize(
    "words, several",
    [("NAME [TARGET", ()), ("NAME ... TARGET", ()), ("[NAME] MOVE", ("MOVE",)), ("NAME", ("X",))],
)
def test_words_the_grammar_cannot_read_are_refused_as_it_is_declared(words, several) -> None:
    with pytest.raises(ValueError):
        Verb(words, "x", several=several)


def test_an_option_declared_twice_is_refused_as_it_is_declared() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Verb("", "x", (Option("a", "X"), Option("a", "Y")))


# -- options ------------------------------------------------------------------------------------


def test_an_unknown_option_names_the_verbs_options_and_the_closest() -> None:
    assert refusal("attack Kae Strike Orr rnage=5") == (
        "attack: unknown option 'rnage' (did you mean range=? options: range=, evade=, spare,"
        " reroll=)"
    )


def test_an_option_another_verb_takes_is_unknown_to_a_verb_that_does_not() -> None:
    assert refusal("move Kae range=2") == "move: unknown option 'range' (options: fall=)"
    assert refusal("end spare") == "end: unknown option 'spare' (it takes none)"


def test_a_whole_number_option_must_be_one_in_its_range() -> None:
    assert refusal("attack Kae Strike Orr range=far") == (
        "attack: range= must be a whole number, not 'far'"
    )
    assert refusal("attack Kae Strike Orr range=0") == "attack: range= must be 1..99, not 0"


def test_an_option_of_listed_words_takes_only_those() -> None:
    assert refusal("attack Kae Strike Orr evade=maybe") == (
        "attack: evade= takes yes or no, not 'maybe'"
    )


def test_a_flag_is_written_alone_and_an_option_that_may_be_takes_a_value_too() -> None:
    assert refusal("attack Kae Strike Orr spare=no") == (
        "attack: spare is written alone, not spare=no"
    )
    for line, reroll in (("attack Kae Strike reroll", ""), ("attack Kae Strike reroll=3", "3")):
        cmd = LANGUAGE.parse(line)
        assert cmd is not None and cmd.opts == {"reroll": reroll}
    assert "reroll= must be 1..15" in refusal("attack Kae Strike reroll=16")


def test_an_option_with_a_value_written_alone_is_refused_where_another_verb_has_it_alone() -> None:
    language = Language(
        {"a": Verb("", "x", (Option("k"),)), "b": Verb("", "x", (Option("k", "N"),))}
    )
    assert language.flags == ("k",)
    assert refusal("b k", language) == "b: k takes a value: k=N"


def test_free_text_keeps_a_word_that_is_another_verbs_flag() -> None:
    """A verb whose words repeat (free text: d20's `ready NAME TRIGGER ...`) reads only its
    own flags; another verb's flag is a word of its text. A verb of fixed words still
    refuses another verb's flag by name (above)."""
    language = Language(
        {
            "shoot": Verb("NAME", "x", (Option("far"),)),
            "ready": Verb("NAME TRIGGER ...", "x", (Option("now"),)),
        }
    )
    cmd = language.parse("ready Lir shoot when it goes far now")
    assert cmd is not None
    assert (cmd.args, cmd.opts) == (["Lir", "shoot", "when", "it", "goes", "far"], {"now": ""})
    assert refusal("shoot Lir now", language) == "shoot: unknown option 'now' (options: far)"


def test_a_required_option_left_out_is_refused() -> None:
    assert refusal("summon gob") == "summon: at=SQUARE is missing (usage: summon CARD at=SQUARE)"


def test_the_session_verbs_take_no_options_either() -> None:
    assert refusal("undo x=1") == "undo: unknown option 'x' (it takes none)"


# -- words ----------------------------------------------------------------------------------------


def test_words_past_a_fixed_count_are_refused_naming_them() -> None:
    assert (
        refusal("move Kae 2 3 4") == "move: unexpected '3 4' (usage: move NAME [SPACES] [fall=F:T])"
    )
    assert refusal("end now") == "end: unexpected 'now' (usage: end)"
    assert refusal("undo 2 3") == "undo: unexpected '3' (usage: undo [N])"
    assert refusal("show all") == "show: unexpected 'all' (usage: show)"


def test_a_verb_whose_last_word_repeats_takes_any_number() -> None:
    cmd = LANGUAGE.parse("order Kae Orr Vex Mir")
    assert cmd is not None and cmd.args == ["Kae", "Orr", "Vex", "Mir"]


def test_a_name_of_several_words_is_read_before_the_words_are_counted() -> None:
    cmd = LANGUAGE.parse("attack Kae Flame Slash Orr")  # counted once the move is read
    assert cmd is not None
    read = cmd.take_name(["Flame Slash", "Strike"], "move")
    assert read.args == ["Kae", "Flame Slash", "Orr"]
    # Quoted, "Flame" is the move Flame: Slash is the target, and Orr a word too many.
    quoted = LANGUAGE.parse('attack Kae "Flame" Slash Orr')
    assert quoted is not None
    with pytest.raises(IllegalAction) as err:
        quoted.take_name(MOVES, "move")
    assert str(err.value) == (
        "attack: unexpected 'Orr' (usage: attack NAME MOVE [TARGET] [range=N] [evade=yes|no]"
        " [spare] [reroll[=K]])"
    )


def test_the_words_left_over_after_a_name_are_refused_naming_them() -> None:
    cmd = LANGUAGE.parse("attack Kae Strike Orr Queen")
    assert cmd is not None
    with pytest.raises(IllegalAction, match=r"^attack: unexpected 'Queen' \(usage: attack NAME"):
        cmd.take_name(MOVES, "move")


def test_a_command_made_in_code_has_no_grammar_to_count_against() -> None:
    made = Command("attack", ["Kae", "Strike", "Orr", "Vex"])
    assert made.take_name(MOVES, "move") is made


# -- the session's verbs ------------------------------------------------------------------------


def test_every_language_has_the_session_verbs_and_a_wanted_roll_game_its_dice_too() -> None:
    plain = Language({"end": Verb("", "x")})
    assert set(plain.session_verbs) == set(SESSION_VERBS)
    wanted = Language({"end": Verb("", "x")}, wanted=True)
    assert set(wanted.session_verbs) == set(SESSION_VERBS) | set(WANTED_VERBS)
    assert {"roll", "cancel", "dice", "dice from"} <= set(WANTED_VERBS)
    assert wanted.usage("dice") == "dice [PURPOSE] FACE ..."
    assert wanted.usage("dice from") == "dice from board|engine|entered|smart"


def test_a_games_own_verb_of_a_wanted_verbs_name_stays_its_own() -> None:
    own = Verb("[UNIT]", "roll the next check")
    language = Language({"roll": own}, {"dice": Verb("PURPOSE FACE ...", "x")}, wanted=True)
    assert language.grammar["roll"] is own and "roll" not in language.session_verbs
    assert language.usage("dice") == "dice PURPOSE FACE ..."


def test_a_verb_of_two_words_counts_its_own_words() -> None:
    language = Language({"end": Verb("", "x")}, wanted=True)
    cmd = language.parse("dice from board")
    assert cmd is not None and (cmd.verb, cmd.args) == ("dice", ["from", "board"])
    assert refusal("dice from board now", language) == (
        "dice from: unexpected 'now' (usage: dice from board|engine|entered|smart)"
    )


# -- the journal ----------------------------------------------------------------------------------


def test_a_journal_holding_a_line_todays_grammar_refuses_resumes_as_it_was_played(
    tmp_path: Path,
) -> None:
    # docs/commands.md, "Lines": a line the journal holds was accepted once, and replays as it
    # was played (a misspelt option was once read as no option: resume must not refuse it).
    stones = registry.get("stones")
    enc = stones.parse_encounter(stones.example_path().read_text(), "mossy_ford.toml")
    played = Session(enc, 1)
    played.execute("attack Kae Sab")
    journal = Journal(tmp_path / "j.sqlite")
    old = "attack Kae Sab rnage=5"
    s = Session(enc, 1, journal)
    s._journal("action", {"text": old, "rolls": stones.record_json(played.done[-1].rolls)})
    journal.release(s.game_id)
    back = resume(journal)
    assert [e.text for e in back.done] == [old]
    assert stones.snapshot(back.game) == stones.snapshot(played.game)


def test_a_journalled_line_is_not_refused_by_todays_grammar() -> None:
    # A line the journal holds was accepted once: the game replays as it was played.
    cmd = LANGUAGE.parse("attack Kae Strike Orr Queen rnage=5", max_length=None)
    assert cmd is not None and cmd.opts == {"rnage": "5"}
    assert cmd.take_name(MOVES, "move").args == ["Kae", "Strike", "Orr", "Queen"]
    assert "rnage" in refusal("attack Kae Strike Orr Queen rnage=5")


# -- the docs -----------------------------------------------------------------------------------


def test_docs_commands_md_writes_every_game_verb_as_its_usage_in_help() -> None:
    # docs/commands.md's tables start each row with a command as `help` shows it.
    text = (Path(__file__).parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    cells = re.findall(r"^\| `([^`]+)`(?: / `([^`]+)`)*", text, re.MULTILINE)
    documented = {c.replace("\\|", "|") for row in cells for c in row if c}
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id)
        if not type(ruleset).__module__.startswith("host.rulesets."):
            continue  # (a test's own ruleset, registered for a while)
        language = ruleset.language
        missing = [language.usage(v) for v in language.verbs if language.usage(v) not in documented]
        assert missing == [], ruleset_id


# -- a ruleset's grammar and its rules ---------------------------------------------------------


def test_korxsols_threat_waivers_are_the_words_its_grammar_takes() -> None:
    # The grammar checks the value of threat= (host/rulesets/korxsol/language.py); the rules
    # say what each means (host/rulesets/korxsol/threat.py): the two name the same words.
    from host.rulesets.korxsol import language, threat

    for verb in ("attack", "item", "artifact", "odds", "crush"):
        option = language.LANGUAGE.grammar[verb].option("threat")
        assert option is not None and option.choices == tuple(threat.WAIVERS), verb
