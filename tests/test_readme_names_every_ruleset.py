"""The README's list of games is the registry's: it says how many built-in rulesets there
are and links each one's page, docs/rulesets/<id>.md, which exists (issue #25, "The
house": nothing hand-kept names the set of rulesets without a test holding it to the
registry)."""

from __future__ import annotations

import re
from pathlib import Path

from host.core import registry

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def test_the_readme_counts_the_built_in_rulesets_wherever_it_counts_games() -> None:
    counted = re.findall(r"\b(\w+) games\b", README, flags=re.IGNORECASE)
    said = [NUMBERS.index(word.lower()) for word in counted if word.lower() in NUMBERS]
    assert said, "the README no longer says how many games there are"
    assert said == [len(registry.built_in())] * len(said)


def test_the_readme_links_the_page_of_every_built_in_ruleset_and_no_other() -> None:
    start = README.index("is one of")
    paragraph = README[start : README.index("\n\n", start)]
    linked = dict(re.findall(r"\[(\w+)\]\((docs/rulesets/\w+\.md)\)", paragraph))
    assert sorted(linked) == sorted(registry.built_in())
    for ruleset_id, page in linked.items():
        assert page == f"docs/rulesets/{ruleset_id}.md"
        assert (ROOT / page).is_file(), page


def test_every_built_in_ruleset_has_its_page_and_every_page_a_ruleset() -> None:
    pages = {path.stem for path in (ROOT / "docs" / "rulesets").glob("*.md")}
    assert pages == set(registry.built_in())
