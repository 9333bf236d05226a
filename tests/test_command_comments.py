"""A command line's `#` comment (host/core/commandline.py): what the session says of an action
leaves it out (`without_comment`), and it cuts the line exactly where `Language.parse`
stops reading."""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from host.core.commandline import without_comment

# Lines built of the characters that matter to shell quoting and comments.
LINES = st.text(alphabet=st.sampled_from(list("ab #'\"\\=")), max_size=24)


@given(LINES)
@settings(max_examples=500, deadline=None)
def test_a_line_without_its_comment_reads_as_the_whole_line_does(line: str) -> None:
    try:
        words = shlex.split(line, comments=True)
    except ValueError:  # an unclosed quote: not a command line at all
        return
    shorter = without_comment(line)
    assert shlex.split(shorter, comments=True) == words
    assert line.startswith(shorter)
    if "#" not in line:
        assert shorter == line


def test_a_hash_inside_quotes_or_escaped_is_not_a_comment() -> None:
    assert without_comment('say "x # y"  # to all') == 'say "x # y"'
    assert without_comment("say 'x # y'") == "say 'x # y'"
    assert without_comment(r"tag a\#b # why") == r"tag a\#b"
    assert without_comment("attack goblin") == "attack goblin"
    assert without_comment("attack goblin   # flank") == "attack goblin"
    assert without_comment(r"say a\  # two spaces, one escaped") == r"say a\ "
