"""Advance: combat rounds from A to E (advance-late-combat-round.txt) as a Turnlight ruleset.
ruleset.py is its `Ruleset`; docs/rulesets/advance.md says what it implements and chooses."""
