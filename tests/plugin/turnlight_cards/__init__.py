"""Cards, a small card-initiative game for turnlight, installed as a package of its own:
its rules (game.py), its encounter reader (encounter.py), its Ruleset and board projection
(ruleset.py), its example encounter (encounters/saloon.toml) and its rules in words
(RULES.md), declared to turnlight by the entry point `cards` of the group
`turnlight.rulesets` (pyproject.toml). docs/writing-a-ruleset.md walks through it."""
