"""Every verb of a ruleset's language is written down where its players read about it:
docs/rulesets/<id>.md, or for korxsol the command table of docs/commands.md. A verb
counts as documented where the doc shows it in code, as `verb` or `verb ARGS`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from host.core import registry

DOCS = Path(__file__).resolve().parent.parent / "docs"
# Where a ruleset's verbs are documented, when not in docs/rulesets/<id>.md.
VERB_DOCS = {"korxsol": DOCS / "commands.md"}


def verb_doc(ruleset_id: str) -> Path:
    return VERB_DOCS.get(ruleset_id, DOCS / "rulesets" / f"{ruleset_id}.md")


def documented(verb: str, text: str) -> bool:
    return re.search(rf"`{re.escape(verb)}[` ]", text) is not None


# turnlight's own rulesets: an installed one (tests/plugin's cards) keeps its docs in its package.
@pytest.mark.parametrize("ruleset_id", sorted(registry.built_in()))
def test_every_verb_of_a_ruleset_has_a_line_in_its_doc(ruleset_id: str) -> None:
    text = verb_doc(ruleset_id).read_text(encoding="utf-8")
    verbs = registry.get(ruleset_id).language.verbs
    missing = [verb for verb in verbs if not documented(verb, text)]
    assert not missing, f"{verb_doc(ruleset_id).name} says nothing of {', '.join(missing)}"


def test_a_verb_counts_only_where_the_doc_shows_it_in_code() -> None:
    assert documented("place", "- **Placing.** `place SQUARE`: a common on a square.")
    assert documented("end", "`end` is refused while an action is left.")
    assert not documented("place", "Placing a common on an empty square.")
    assert not documented("end", "`endless` is no verb")
